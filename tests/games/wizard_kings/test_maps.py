"""Wizard Kings maps 10-16 (section 3, 1.21 and the scenarios of section 7), each test quoting
its clause. The maps are data (games/wizard_kings/data/maps/*.json, format in board.py); these
tests read them through board.board_of, the way a match does, and compute every join, path and
distance from board.neighbours and the terrain, never from hard-coded hexes (but the few the
scenarios name: their cities and the Sobara Desert, found by name)."""
from __future__ import annotations

import itertools
import json

import pytest

from games.wizard_kings import board as wk_board
from games.wizard_kings.board import MapError, board_of, col_row, hex_id, side
from games.wizard_kings.movement import is_port, open_water, water_step

MAPS = ("10", "11", "12", "13", "14", "15", "16")
WIDTH, HEIGHT = 8, 7
ROUGH = ("forest", "swamp", "desert", "pass")


# ------------------------------------------------------------------------------------ helpers

def land_step(b, a: str, n: str, *, bridges: bool = True, gates: bool = True) -> bool:
    """May a land block with no native terrain cross from ``a`` into ``n``? Never into water
    (3.17) or a mountain without a pass (3.15); across a river only at a bridge (3.16); across
    a wall only at a gate (D3). ``bridges``/``gates`` False shuts them all."""
    if b.terrain[n] in ("water", "mountain"):
        return False
    s = side(a, n)
    if s in b.rivers and not (bridges and s in b.bridges):
        return False
    if s in b.walls and not (gates and s in b.gates):
        return False
    return True


def land_distances(b, starts, *, within=None, **shut) -> dict[str, int]:
    """Hexes a land block reaches from ``starts`` (land hexes only), with the fewest hexes
    entered; ``within`` keeps the search on one map (its index)."""
    found = {h: 0 for h in starts if b.terrain[h] not in ("water", "mountain")}
    frontier = list(found)
    while frontier:
        nxt = []
        for h in frontier:
            for n in b.neighbours(h):
                if n in found or (within is not None and b.map_of[n] != within):
                    continue
                if land_step(b, h, n, **shut):
                    found[n] = found[h] + 1
                    nxt.append(n)
        frontier = nxt
    return found


def column(b, index: int, col: int) -> list[str]:
    """The hexes of local column ``col`` of the board's ``index``-th map, top to bottom."""
    return [hex_id(index * b.width + col, row) for row in range(b.height)]


def cities_on(b, index: int) -> dict[str, object]:
    return {h: c for h, c in b.cities.items() if b.map_of[h] == index}


def edge_depth(b, hex_: str) -> int:
    """Hexes a land block enters from the nearer edge column of a one-map board to ``hex_``."""
    return min(land_distances(b, [e]).get(hex_, 99) for col in (0, b.width - 1)
               for e in column(b, 0, col))


def defended_share(b, city: str) -> float:
    """Of a city's six hexsides, the share an attacker on land cannot cross (water, mountain,
    river, wall, the board's top or bottom), crosses one block a turn (4.6), or reaches only
    after stopping in rough ground next to the city (forest, swamp, desert, a pass: 3.12-3.15)."""
    col, row = col_row(city)
    steps = wk_board._STEPS[col % 2]
    defended = 0
    for dc, dr in steps:
        n = hex_id(col + dc, row + dr) if 0 <= row + dr < b.height else None
        if n is None or n not in b.terrain or b.terrain[n] in ("water", "mountain") \
                or not land_step(b, n, city):
            defended += 1
        elif b.hexside_limit(n, city) == 1 or b.terrain[n] in ROUGH:
            defended += 1
    return defended / 6


def sail(b, start: str) -> set[str]:
    """Every hex a water block reaches from ``start`` by water steps (2.37, 3.16-3.19)."""
    seen, frontier = {start}, [start]
    while frontier:
        nxt = []
        for h in frontier:
            for n in b.neighbours(h):
                if n not in seen and water_step(b, h, n):
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return seen


def named(b, place: str) -> list[str]:
    return sorted(h for h, name in b.names.items() if name == place)


def raw(name: str) -> dict:
    return json.loads((wk_board.MAP_DIR / f"{name}.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------- every map on its own

@pytest.mark.parametrize("name", MAPS)
def test_it_3_0_loads_every_map_as_a_whole_8_by_7_grid(name):
    """3.0: "Ankaŭ la duonheksagonoj sur la mapbordo estas ludeblaj." Every hex of the grid is
    a whole, playable hex (D1); the file is named for its map."""
    data = raw(name)
    assert data["name"] == name and data["title"]
    b = board_of((name,))
    assert (b.width, b.height) == (WIDTH, HEIGHT)
    assert len(b.terrain) == WIDTH * HEIGHT
    assert b.titles == (data["title"],)


@pytest.mark.parametrize("name", MAPS)
def test_it_3_2_gives_every_map_ten_gold_in_cities_of_one_to_three(name):
    """3.2: "Ĉiu mapo enhavas urbojn ekonomie valoratajn je 1 gp, 2 gp kaj 3 gp ... la tuta
    ekonomia valoro de ĉiuj urboj sur iu ajn mapo estas 10 gp." 3.17: "Nur akvanoj povas situi
    ĉe mara aŭ laka heksagono." No city stands on water or on an impassable mountain (3.15)."""
    b = board_of((name,))
    assert sum(c.gold for c in b.cities.values()) == 10
    assert all(1 <= c.gold <= 3 for c in b.cities.values())
    assert all(b.terrain[h] not in ("water", "mountain") for h in b.cities)
    assert len({c.name for c in b.cities.values()}) == len(b.cities)


@pytest.mark.parametrize("name", ("10", "11", "12", "14", "15"))
def test_it_3_2_keeps_three_to_five_cities_on_the_maps_no_scenario_fixes(name):
    """3.2: "Mapoj povas enhavi malsaman kvanton da urboj, sed la tuta ekonomia valoro ... estas
    10 gp." The custom-game maps hold 3-5 cities; 13 (7.1) and 16 (7.2) hold the seven their
    scenarios name."""
    assert 3 <= len(board_of((name,)).cities) <= 5


@pytest.mark.parametrize("name", MAPS)
def test_it_3_2_has_a_port_on_every_map(name):
    """3.2: "Ĉiuj urboj apudmaraj aŭ apudriveraj estas traktataj kiel havenojn, kaj koncernas
    la akvotransporton." Every map has at least one city by the sea, a lake or a river."""
    b = board_of((name,))
    assert any(is_port(b, h) for h in b.cities)


@pytest.mark.parametrize("name", MAPS)
def test_it_3_16_reaches_every_city_by_land_from_every_other_and_from_both_edges(name):
    """3.16: "Terblokoj povas transiri riveron nur tra heksagono enhavanta ponton." 3.15:
    "Montaraj heksagonoj estas netrapaseblaj ... escepte tra vojoj aŭ tra markita pasejo." A land
    block crossing rivers only at bridges, walls only at gates, mountains only at passes and no
    water reaches every city of the map from every other, and from at least two rows of each
    edge (the maps of a custom game join there, 1.21)."""
    b = board_of((name,))
    cities = set(b.cities)
    for city in cities:
        assert cities <= set(land_distances(b, [city])), f"{name}: {city} is cut off"
    for col in (0, WIDTH - 1):
        rows = [h for h in column(b, 0, col) if cities <= set(land_distances(b, [h]))]
        assert len(rows) >= 2, f"{name}: edge column {col} reaches the cities from {rows}"


@pytest.mark.parametrize("name", MAPS)
def test_it_3_16_keeps_each_river_course_along_its_banks_and_waterfalls_on_it(name):
    """3.16: "La akvoblokoj (akvanoj kaj amfibioj) povas supreniri kaj subiri riverojn sed ne
    tra akvofalojn." Each land hex of a river's course lies on a river bank (a brook's course
    may end where it meets another river), each bridge is on a river a road crosses, and each
    waterfall is a step of a course."""
    data, b = raw(name), board_of((name,))
    banks = {h for s in b.rivers for h in s.split("|")}
    for river in data.get("rivers", []):
        own = {h for s in river["sides"] for h in s.split("|")}
        assert own & set(river["course"]), f"{name}: a course off its river"
        for h in river["course"]:
            assert b.terrain[h] == "water" or h in banks, f"{name}: course hex {h} off the river"
    assert all(s in b.rivers and s in b.roads for s in b.bridges)
    for s in b.waterfalls:
        a, n = s.split("|")
        assert n in b.river_course.get(a, ()), f"{name}: waterfall {s} is on no course"


@pytest.mark.parametrize("name", MAPS)
def test_it_3_3_lays_roads_only_where_land_blocks_may_go(name):
    """3.3: "Brunaj linioj sur la mapoj estas vojoj ... La sola escepto al tio ĉi estas pontoj";
    3.15: "escepte tra vojoj aŭ tra markita pasejo." A road crosses a river only at a bridge and
    a wall only at a gate, and runs through passes, never into a mountain or the water."""
    b = board_of((name,))
    assert b.roads
    for s in b.roads:
        a, n = s.split("|")
        assert s not in b.rivers or s in b.bridges, s
        assert s not in b.walls or s in b.gates, s
        assert {b.terrain[a], b.terrain[n]}.isdisjoint({"water", "mountain"}), s
    assert all(g in b.roads for g in b.gates)


@pytest.mark.parametrize("name", MAPS)
def test_it_3_18_marks_as_coast_exactly_the_land_on_open_water(name):
    """3.18: "Iu ajn heksagono enhavanta maron (aŭ lakon) kaj teron ... En akvoborda heksagono
    povas batali akvanoj kontraŭ teranoj." 3.19: "Sablobenroj estas netrapaseblaj al la
    akvanoj." A land hex is a coast hex when it touches open water (a shoal alone is no coast:
    no ship could reach it), and every coast hex does."""
    for b in (board_of((name,)), board_of(MAPS)):
        on_water = {h for h in b.terrain if b.land(h)
                    and any(open_water(b, n) for n in b.neighbours(h))}
        assert {h for h in b.coast if b.map_of[h] == b.maps.index(name)} == \
            {h for h in on_water if b.map_of[h] == b.maps.index(name)}
        assert all(b.terrain[h] == "water" for h in b.shoals)


# ------------------------------------------------------------------------------ the set of maps

def test_it_1_21_lays_all_seven_maps_in_a_row():
    """1.21: "Ludantoj elektas po unu aŭ du mapojn ĉiu kaj kunmetas ilin laŭvole." Up to seven
    players (2-7) each pick one map: the seven maps 10-16 make one board, left to right."""
    b = board_of(MAPS)
    assert b.width == WIDTH and len(b.terrain) == 7 * WIDTH * HEIGHT
    for index, name in enumerate(MAPS):
        mine = cities_on(b, index)
        assert sum(c.gold for c in mine.values()) == 10
        assert all(c.map == name for c in mine.values())
    names = [c.name for c in b.cities.values()]
    assert len(set(names)) == len(names)                 # a city's name says which it is


@pytest.mark.parametrize("name", MAPS)
def test_it_1_21_keeps_both_edge_columns_mostly_open_land(name):
    """1.21: "Ludantoj elektas po unu aŭ du mapojn ĉiu kaj kunmetas ilin laŭvole." Any map may
    lie next to any other, so at least five of the seven hexes of each edge column are land a
    block may enter (no water, 3.17; no mountain, 3.15)."""
    b = board_of((name,))
    for col in (0, WIDTH - 1):
        open_land = [h for h in column(b, 0, col) if b.terrain[h] not in ("water", "mountain")]
        assert len(open_land) >= 5, (name, col)


@pytest.mark.parametrize("left,right", list(itertools.permutations(MAPS, 2)))
def test_it_1_21_joins_every_pair_of_maps_by_land_in_two_rows(left, right):
    """1.21: "... kaj kunmetas ilin laŭvole." Whichever map lies left of whichever, a land
    block crosses the seam in at least two rows, from hexes joined to the cities of the left map
    to hexes joined to the cities of the right map (each by its own map's ground)."""
    b = board_of((left, right))
    from_left = land_distances(b, list(cities_on(b, 0)), within=0)
    from_right = land_distances(b, list(cities_on(b, 1)), within=1)
    rows = {col_row(a)[1] for a in column(b, 0, WIDTH - 1) if a in from_left
            for n in b.neighbours(a) if b.map_of[n] == 1 and n in from_right and land_step(b, a, n)}
    assert len(rows) >= 2, f"{left}|{right}: crossings in rows {sorted(rows)}"


def test_it_3_1_shows_every_terrain_and_feature_somewhere_in_the_set():
    """3.1: "TERENOTIPOJ" (3.11 ebena, 3.12 dezerto, 3.13 arbaro, 3.14 marĉo, 3.15 montaro kun
    pasejo, 3.16 rivero kun ponto kaj akvofalo, 3.17 maro/lako, 3.18 akvobordo, 3.19
    sablobenko), 3.3 vojoj, 2.23 "Kelkaj mapoj enhavas simbolon montrantan Ŝtonan Cirklon",
    and Niko's Wall (7.2): the seven maps hold all of them, and every pass is in mountains."""
    b = board_of(MAPS)
    assert set(b.terrain.values()) == set(wk_board.TERRAIN.values())
    for feature in ("coast", "shoals", "henges", "rivers", "bridges", "roads", "walls", "gates",
                    "waterfalls", "river_course"):
        assert getattr(b, feature), feature
    for h, t in b.terrain.items():
        if t == "pass":
            assert any(b.terrain[n] == "mountain" for n in b.neighbours(h)), h


@pytest.mark.parametrize("name", MAPS)
def test_it_1_21_keeps_the_maps_comparable_for_the_players_who_pick_them(name):
    """1.21: "Ludantoj elektas po unu aŭ du mapojn ĉiu"; 3.2: "Mapoj povas enhavi malsaman
    kvanton da urboj, sed la tuta ekonomia valoro ... estas 10 gp." Each player owns the cities
    of his map (D17), so the maps are kept alike: no city on an edge column; the cities,
    weighted by gold, 2-3 hexes from the nearer edge (up to 3.5 on the two maps whose scenarios
    fix seven cities, 13 and 16: seven garrisons, 1.22, are compensated by cities further in);
    and 40-65% of the hexsides around them, weighted by gold, defended by the ground (see
    defended_share). The figures are in the rules page's map table."""
    b = board_of((name,))
    assert all(0 < col_row(h)[0] < WIDTH - 1 for h in b.cities)
    depth = sum(c.gold * edge_depth(b, h) for h, c in b.cities.items()) / 10
    defended = sum(c.gold * defended_share(b, h) for h, c in b.cities.items()) / 10
    assert 2.0 <= depth <= (3.5 if len(b.cities) > 5 else 3.0), depth
    assert 0.4 <= defended <= 0.65, defended


# ------------------------------------------------------------------------------- the scenarios

def test_it_7_1_puts_the_cities_of_the_isle_of_the_dead_on_map_13():
    """7.1: "Mapo 13 ... Nemortintoj regas la Insulon Thilenius ... Castle (Bethi), Skeleton
    (Anzar), Zombie (Baven), Zombie (Kreba), Zombie (Atami) ... Garundy kaj Logyn estas la
    homurboj de la Elfoj." All seven cities are on map 13; the five undead ones on Thilenius."""
    b = board_of(("13",))
    by_name = {c.name: h for h, c in b.cities.items()}
    assert set(by_name) == {"Bethi", "Anzar", "Baven", "Kreba", "Atami", "Garundy", "Logyn"}
    isle = set(named(b, "Thilenius"))
    assert {by_name[n] for n in ("Bethi", "Anzar", "Baven", "Kreba", "Atami")} <= isle
    assert not {by_name["Garundy"], by_name["Logyn"]} & isle


def test_it_7_1_parts_thilenius_from_the_elves_but_bridges_them_within_ten_turns():
    """7.1: "Nemortintoj regas la Insulon Thilenius kiun ne povas forlasi ... Elfoj venkas
    detruante la kastelon en Bethi ne pli longe ol 10 vicoj." Thilenius is cut from the elves'
    land by the sea and a river (3.16) a land block crosses only at its bridges; the undead
    cities join each other on the island; over a bridge the elves reach Bethi in a few hexes."""
    b = board_of(("13",))
    by_name = {c.name: h for h, c in b.cities.items()}
    isle = set(named(b, "Thilenius"))
    undead = [by_name[n] for n in ("Bethi", "Anzar", "Baven", "Kreba", "Atami")]
    for elf in (by_name["Logyn"], by_name["Garundy"]):
        shut = land_distances(b, [elf], bridges=False)
        assert not set(shut) & isle
        assert land_distances(b, [elf])[by_name["Bethi"]] <= 6
    for city in undead:
        on_isle = land_distances(b, [city], bridges=False)
        assert set(undead) <= set(on_isle) and set(on_isle) <= isle


def test_it_7_2_gives_the_amazons_seven_cities_on_map_16():
    """7.2: "Mapo 16 ... Situigu ĉiujn amazonajn blokojn ... tiel, ke almenaŭ 1 bloko kuŝu sur
    ĉiu el la 7 urboj." Eight Amazon blocks fit on the seven cities."""
    b = board_of(("16",))
    assert len(b.cities) == 7
    assert sum(b.stack_limit(h) for h in b.cities) >= 8


def test_it_7_2_has_a_sobara_desert_of_two_hexes_one_on_the_coast():
    """7.2: "Situigu la 6 barbarajn blokojn en la du heksagonoj de la Sobara Desert. La Vikingoj
    devas kuŝi sur la marborda heksagono." Two neighbouring desert hexes hold the six blocks
    (4.5: desert 3); one of them is a coast hex on open water."""
    b = board_of(("16",))
    sobara = named(b, "Sobara Desert")
    assert len(sobara) == 2 and sobara[1] in b.neighbours(sobara[0])
    assert all(b.terrain[h] == "desert" and h not in b.cities for h in sobara)
    assert sum(b.stack_limit(h) for h in sobara) >= 6
    coastal = [h for h in sobara if h in b.coast and any(open_water(b, n) for n in b.neighbours(h))]
    assert len(coastal) == 1


def test_it_7_2_shuts_the_homeland_behind_nikos_wall_but_its_gate():
    """7.2: "Amazonoj neglektas kredante ke Niko's Wall protektas ilin kontraŭ ia minaco ...
    Ili minacas superpleni la muregon." D3: a wall stops land blocks except at its gates. From
    the Sobara Desert no land path reaches an Amazon city with the gates shut; through a gate
    every city is reached."""
    b = board_of(("16",))
    assert b.walls and b.gates and b.gates <= b.walls
    sobara = named(b, "Sobara Desert")
    assert not set(land_distances(b, sobara, gates=False)) & set(b.cities)
    assert set(b.cities) <= set(land_distances(b, sobara))


def test_it_7_2_lets_the_vikings_sail_around_the_wall():
    """7.2: "Iliaj vikingoj minacas ĉirkaŭiri la muregon." 2.37: water blocks move on seas and
    coasts. From the coastal Sobara hex a water block reaches an Amazon port city by water."""
    b = board_of(("16",))
    start = next(h for h in named(b, "Sobara Desert") if h in b.coast)
    ports = {h for h in b.cities if is_port(b, h)}
    assert sail(b, start) & ports


@pytest.mark.parametrize("name", ("14", "15"))
def test_it_7_3_gives_each_wizard_of_the_last_stand_a_henge_on_his_map(name):
    """7.3: "Maps 14-15, 2 ludantoj ... Ĉiuj ludantoj situigas sur 1 mapon ... krom ke magiistoj
    gajnas 1 paŝon ĉe Ŝtona Cirklo." 6.6: "Magiisto (A+ aŭ B+) situanta ĉe Ŝtona Cirklo
    senpage ricevas + 1 paŝon." Each map has a henge a land block reaches from its cities."""
    b = board_of((name,))
    assert b.henges
    for henge in b.henges:
        assert b.terrain[henge] not in ("water", "mountain") and henge not in b.cities
        assert henge in land_distances(b, list(b.cities))


def test_it_7_3_sets_both_henges_as_far_from_the_seam_either_way_round():
    """7.3: "Kiu due elektas, tiu rajtas elekti unue la mapon." Whichever map a player takes and
    whichever way the two lie, his henge is as far (by land) from the seam as the other's."""
    for left, right in (("14", "15"), ("15", "14")):
        b = board_of((left, right))
        seam_left, seam_right = column(b, 0, WIDTH - 1), column(b, 1, 0)
        far = []
        for index, seam in ((0, seam_left), (1, seam_right)):
            henge = next(h for h in b.henges if b.map_of[h] == index)
            far.append(min(land_distances(b, [henge], within=index).get(h, 99) for h in seam))
        assert far[0] == far[1], (left, right, far)


def test_it_7_4_lays_maps_13_to_16_together_with_cities_for_every_capital():
    """7.4: "Mapoj 13-16, 2 ludantoj ... Ĉiu armeo komencas per 5 blokoj kaj starigas 1
    ĉefurbon sur ĉiu mapo kie estu situigitaj ĉiuj 5 blokoj." The four maps make one board
    and each has a city that holds five blocks, joined by land to both its edges."""
    b = board_of(("13", "14", "15", "16"))
    for index in range(4):
        west = land_distances(b, column(b, index, 0), within=index)
        east = land_distances(b, column(b, index, WIDTH - 1), within=index)
        assert any(b.stack_limit(h) >= 5 and h in west and h in east
                   for h in cities_on(b, index))


# ---------------------------------------------------------------------------- broken map files

BASE = {"name": "broken", "title": "Broken", "width": 8, "height": 7,
        "terrain": ["cccccccc"] * 7,
        "cities": {"0101": {"name": "A", "gold": 3}, "0303": {"name": "B", "gold": 3},
                   "0505": {"name": "C", "gold": 2}, "0206": {"name": "D", "gold": 2}}}


@pytest.fixture
def map_dir(tmp_path, monkeypatch):
    """A folder of purpose-built maps in place of data/maps (the board cache cleared)."""
    monkeypatch.setattr(wk_board, "MAP_DIR", tmp_path)
    board_of.cache_clear()
    yield tmp_path
    board_of.cache_clear()


def write_map(folder, **changes) -> None:
    data = json.loads(json.dumps(BASE))
    data.update(changes)
    (folder / "broken.json").write_text(json.dumps(data), encoding="utf-8")


def test_it_loads_the_well_formed_base_of_the_broken_maps(map_dir):
    """3.2: "la tuta ekonomia valoro de ĉiuj urboj sur iu ajn mapo estas 10 gp." The base the
    broken maps below change is itself a good map."""
    write_map(map_dir)
    assert sum(c.gold for c in board_of(("broken",)).cities.values()) == 10


def test_it_refuses_a_map_whose_cities_are_not_worth_ten_gold(map_dir):
    """3.2: "la tuta ekonomia valoro de ĉiuj urboj sur iu ajn mapo estas 10 gp." """
    write_map(map_dir, cities={**BASE["cities"], "0206": {"name": "D", "gold": 1}})
    with pytest.raises(MapError, match=r"map broken: its cities are worth 9 gold, 3.2 says 10"):
        board_of(("broken",))


def test_it_refuses_an_unknown_terrain_letter(map_dir):
    """3.1: "TERENOTIPOJ": clear, desert, forest, swamp, mountain (and pass), water; no more."""
    write_map(map_dir, terrain=["cccccccc"] * 2 + ["ccxccccc"] + ["cccccccc"] * 4)
    with pytest.raises(MapError, match=r"map broken: unknown terrain letter 'x' at 0202"):
        board_of(("broken",))


def test_it_refuses_a_terrain_row_of_the_wrong_length(map_dir):
    """3.0: "Mapoj posedas heksagonan fadenon" - a grid: every row as wide as the map."""
    write_map(map_dir, terrain=["cccccccc"] * 3 + ["ccccccc"] + ["cccccccc"] * 3)
    with pytest.raises(MapError, match=r"map broken: terrain must be 7 rows of 8 letters"):
        board_of(("broken",))


def test_it_refuses_a_road_that_jumps_between_hexes_that_are_not_neighbours(map_dir):
    """3.3: "Heksagona latero trairata de vojo ĉiam havas paslimon 2" - a road crosses
    hexsides, so each step of it joins two neighbouring hexes."""
    write_map(map_dir, roads=[["0101", "0102", "0303"]])
    with pytest.raises(MapError, match=r"map broken: road steps from 0102 to 0303, not neighbours"):
        board_of(("broken",))


def test_it_refuses_a_bridge_that_is_on_no_river(map_dir):
    """3.16: "Terblokoj povas transiri riveron nur tra heksagono enhavanta ponton." A bridge
    carries a road over a river."""
    write_map(map_dir, roads=[["0101", "0102"]], bridges=["0101|0102"])
    with pytest.raises(MapError, match=r"bridge 0101\|0102 must be a river hexside a road crosses"):
        board_of(("broken",))
