"""Wizard Kings movement rules (sections 3 and 4), each test quoting its clause."""
from __future__ import annotations

from games.wizard_kings import movement
from games.wizard_kings.board import board_of, col_row, distance
from games.wizard_kings.content import kind_of
from games.wizard_kings.state import controller

from .conftest import act, find_kind, make_state, moves_of, plain, reach, to_act


def slow_plain(k) -> bool:
    return plain(k) and k.move == 2


def test_3_3_a_move_wholly_along_a_road_goes_one_hex_further_through_any_terrain():
    """3.3: "Se unu aŭ kelkaj terblokoj moviĝas dum sia tuta movfazo laŭlonge vojo ... La
    maksimuma movo de la bloko estas + 1. Blokoj povas trairi iun ajn terentipon ne haltante."
    The road along row 2 crosses the forest at 0102."""
    kind = find_kind(plain)
    m = kind_of(kind).move
    state = make_state([("B1", 0, kind, 2, "0002")])
    hexes = reach(state, "B1")
    assert f"{m + 1:02d}02" in hexes                 # the road hex one beyond the move
    for h in hexes:                                   # off the road, no hex beyond the move
        if col_row(h)[1] != 2:
            assert distance("0002", h) <= m


def test_3_13_a_land_block_stops_on_entering_a_forest():
    """3.13: "La terblokoj devas halti kiam eniras arbaran heksagonon, krom la arbaranoj."
    Column 1 of t-west is forest; a block starting in column 0 off the road ends in it."""
    state = make_state([("B1", 0, find_kind(plain), 2, "0004")])
    hexes = reach(state, "B1")
    assert any(col_row(h)[0] == 1 for h in hexes)
    assert all(col_row(h)[0] <= 1 for h in hexes)


def test_2_31_a_forest_native_passes_through_forest_without_stopping():
    """2.31: "Arbaranoj moviĝas tra arbaroj ne haltante kaj ĝuas batalon +1 ... en arbaraj
    heksagonoj." """
    native = find_kind(lambda k: "forest" in k.traits and not k.flyer and k.move >= 2)
    state = make_state([("B1", 0, native, 2, "0004")])
    assert any(col_row(h)[0] >= 2 for h in reach(state, "B1"))


def test_3_16_land_blocks_cross_a_river_only_at_a_bridge_and_amphibians_anywhere():
    """3.16: "Terblokoj povas transiri riveron nur tra heksagono enhavanta ponton." 2.34:
    amphibians "povas ankaŭ trairi riverojn ie ajn". The river runs between rows 4 and 5 of
    columns 0-3; the bridge is 0104|0105."""
    b = board_of(("t-west", "t-east"))
    walker = kind_of(find_kind(slow_plain))
    assert not movement.step_allowed(b, walker, "0204", "0205")
    assert movement.step_allowed(b, walker, "0104", "0105")
    state = make_state([("B1", 0, walker.key, 2, "0204")])
    assert "0205" not in reach(state, "B1")
    amphibian = kind_of(find_kind(lambda k: "amphibian" in k.traits))
    assert movement.step_allowed(b, amphibian, "0204", "0205")


def test_3_15_mountains_are_impassable_but_a_pass_and_mountain_natives_get_through():
    """3.15: "Montaraj heksagonoj estas netrapaseblaj al plejparte el la terblokoj, escepte tra
    vojoj aŭ tra markita pasejo ... Montaranoj preteratentas tiajn ĉi limigojn." 0401 and
    0601 are mountains, 0501 a pass."""
    state = make_state([("B1", 0, find_kind(slow_plain), 2, "0400")])
    hexes = reach(state, "B1")
    assert "0401" not in hexes and "0501" in hexes
    b = board_of(("t-west", "t-east"))
    native = kind_of(find_kind(lambda k: "mountain" in k.traits))
    assert movement.step_allowed(b, native, "0400", "0401")


def test_4_5_no_move_may_put_more_blocks_in_a_hex_than_its_stacking_limit():
    """4.5: "Stoklimo estas la maksimuma kvanto da blokoj kiuj rajtas defendi aŭ ataki
    heksagonon" (clear: 4)."""
    kind = find_kind(plain)
    blocks = [(f"B{i}", 0, kind, 1, "0302") for i in range(4)] + [("B9", 0, kind, 1, "0202")]
    state = make_state(blocks)
    assert "0302" not in reach(state, "B9")
    state = make_state(blocks[1:])
    assert "0302" in reach(state, "B9")


def test_4_6_two_blocks_a_turn_enter_an_enemy_hex_through_one_clear_hexside():
    """4.6: "Kiam oni eniras heksagonon okupitan de malamiko, nur po 2 blokoj rajtas eniri ĝin
    tra ĉiu heksagona latero ebena, kaj nur po 1 se la latero havas alian terentipon." """
    kind = find_kind(plain)
    state = make_state([("A1", 0, kind, 1, "1001"), ("A2", 0, kind, 1, "1001"),
                        ("A3", 0, kind, 1, "1001"), ("D1", 1, kind, 1, "1002")])
    through = {"type": "move", "block": "A1", "to": "1002", "via": "1001"}
    assert through in moves_of(state, "A1")
    state = act(state, 0, through)
    state = act(state, 0, {**through, "block": "A2"})
    third = moves_of(state, "A3")
    assert {"type": "move", "block": "A3", "to": "1002", "via": "1001"} not in third
    assert any(m["to"] == "1002" and m["via"] != "1001" for m in third)   # around, another side


def test_4_7_attackers_pin_as_many_defenders_and_the_others_avoid_their_hexsides():
    """4.7: "Du blokoj atakas kvar. Du defendantoj (elektitaj de la defendanto) restas
    senmovaj kaj la ceteraj du povas moviĝi normale ... sed ne povas trairi tiujn heksagonajn
    laterojn tra kiu la atakanto invadis." """
    kind = find_kind(plain)
    state = make_state([("A1", 0, kind, 1, "1001"), ("A2", 0, kind, 1, "1001")]
                       + [(f"D{i}", 1, kind, 1, "1002") for i in range(4)])
    for bid in ("A1", "A2"):
        state = act(state, 0, {"type": "move", "block": bid, "to": "1002", "via": "1001"})
    if to_act(state) == (0,):                         # (a seat with nothing left is skipped)
        state = act(state, 0, {"type": "done"})
    assert to_act(state) == (1,)
    assert movement.pinned(state, "D0") == (False, {"1001|1002"})
    first = moves_of(state, "D0")
    assert first and all(m["to"] != "1001" or kind_of(kind).move >= 2 for m in first)
    state = act(state, 1, next(m for m in first if m["to"] == "1003"))
    state = act(state, 1, next(m for m in moves_of(state, "D1") if m["to"] == "1003"))
    assert moves_of(state, "D2") == [] and moves_of(state, "D3") == []


def test_4_4_an_empty_enemy_city_stops_a_block_and_reverts_when_left():
    """4.4: "Ĉiuj viaj blokoj devas halti enirinte malamikan heksagonon"; "Malplenaj urboj
    estu traktataj kiel amikajn de tiu ludanto posedinta ĝin komence" and footnote 7: a
    captured city needs a garrison."""
    kind = find_kind(lambda k: plain(k) and k.move >= 2)
    state = make_state([("A1", 0, kind, 1, "1203"), ("Z", 1, kind, 1, "1506")])
    hexes = reach(state, "A1")
    assert "1303" in hexes                            # Gum, seat 1's empty city
    state = act(state, 0, {"type": "move", "block": "A1", "to": "1303", "via": "1203"})
    assert controller(state, "1303") == 0
    state["blocks"]["A1"]["hex"] = None
    state["at"]["1303"].remove("A1")
    del state["at"]["1303"]
    assert controller(state, "1303") == 1


def test_2_37_a_flyer_passes_over_enemy_hexes_and_mountains():
    """2.37: "Flugantaj blokoj malatentas ian ajn terenon kaj la ceterajn malamikajn blokojn
    ... kiam moviĝas." """
    flyer = find_kind(lambda k: k.flyer and k.move >= 2)
    kind = find_kind(plain)
    state = make_state([("F", 0, flyer, 1, "0300"), ("E", 1, kind, 1, "0400")])
    hexes = reach(state, "F")
    assert "0401" in hexes or kind_of(flyer).move < 2      # a mountain hex
    assert "0400" in hexes                                 # it may stop to attack
    assert "0500" in hexes                                 # or fly over the enemy


def test_2_4_castles_never_move():
    """2.4: "La kastelaj blokoj ... povas moviĝi neniam." """
    castle = find_kind(lambda k: k.castle)
    state = make_state([("C", 0, castle, 2, "0302"), ("X", 1, find_kind(plain), 1, "1506")])
    assert moves_of(state, "C") == []


def test_4_2_a_block_moves_once_a_turn():
    """4.2: "Blokoj moviĝas po unu fojo ĉiu vico." """
    state = make_state([("B1", 0, find_kind(plain), 1, "0302"), ("X", 1, find_kind(plain), 1, "1506")])
    state = act(state, 0, {"type": "move", "block": "B1", "to": "0402"})
    assert moves_of(state, "B1") == []


def test_2_38_a_water_block_sails_water_and_coasts_and_never_land_only_hexes():
    """2.38: "Akvanoj ... Ili povas nur moviĝi en maroj, lakoj, riveroj kaj akvobordaj
    heksagonoj. Ili ne povas trairi heksagonon enhavantan nur teran areon" (t-west: water
    0605-0706, coast 0504-0506 and 0604)."""
    ship = find_kind(lambda k: "water" in k.traits)
    state = make_state([("v", 0, ship, 2, "0605"), ("x", 1, find_kind(plain), 1, "1506")])
    hexes = reach(state, "v")
    assert {"0606", "0705", "0604", "0504"} <= hexes
    b = board_of(("t-west", "t-east"))
    assert all(b.terrain[h] == "water" or h in b.coast or h in b.river_course for h in hexes)
    assert "0404" not in hexes and "0503" not in hexes


def test_4_8_land_blocks_sail_between_friendly_ports_within_their_capacity():
    """4.8: "Akvotransporto devas forveli en akvoborda amika urbo kaj albordiĝi en alia
    akvoborda urbo kiu estis amika komence de la movfazo." 4.81: "Urba havenkapablo egalas al
    sia gp-valoru." Dune (0504, 2 gold) and Birch (0506, 3 gold) are seat 0's ports."""
    from games.wizard_kings import rules
    kind = find_kind(lambda k: plain(k) and k.move == 2)
    state = make_state([(f"b{i}", 0, kind, 1, "0504") for i in range(3)]
                       + [("x", 1, find_kind(plain), 1, "1506")], phase="initiative")
    state["initiative"] = {"rolls": {}, "tied": [0, 1], "rerolls": 0}
    from .conftest import roll
    state = roll(state, [6, 6, 1, 1])                  # seat 0 moves first
    sail = {"type": "move", "block": "b0", "to": "0506", "by": "water"}
    assert sail in moves_of(state, "b0")
    state = act(state, 0, sail)
    state = act(state, 0, {**sail, "block": "b1"})
    assert state["port_use"] == {"0504": 2, "0506": 2}
    assert not any(m.get("by") for m in moves_of(state, "b2"))   # Dune's two are used
    assert rules.acting_seats(state) == [0]
