"""docs/rules/wizard-kings.md, D1 and "Versions": 1.21 "Ludantoj elektas po unu aŭ du mapojn
ĉiu kaj kunmetas ilin laŭvole" lets the players lay their maps as they like; since version 4
(issue 38) two players' east map is laid turned half round (option ``east_map``, default
``turned``), so that the board seen from the east seat is the board the west seat would see had
the maps been dealt the other way. As printed, the west seat won 57 % of the game to the victory
whichever seat it was (BENCHMARKS.md)."""
import itertools

import pytest

from games.engine.protocol import Event, InvalidOptions
from games.wizard_kings import WizardKings
from games.wizard_kings import board as wk_board
from games.wizard_kings.board import TURNED, board_of, col_row, hex_id, side

from .conftest import RULESET

MAPS = ("10", "11", "12", "13", "14", "15", "16")


def half_round(b, hex_: str) -> str:
    """The hex where ``hex_`` lies when the whole board ``b`` is turned half round."""
    col, row = col_row(hex_)
    return hex_id(b.width * len(b.maps) - 1 - col, b.height - 1 - row)


def dealt(options: dict, players: int = 2, outcome=(3, 5)) -> dict:
    """A custom game whose maps are dealt: map 10 + outcome[i] to seat i."""
    state = RULESET.setup(players, RULESET.options({"armies": ",".join(
        ("amazons", "dwarves", "elves", "orcs")[:players]), **options}))
    spec = RULESET.next(state).spec
    assert spec == {"kind": "choice", "n": 7, "k": players}
    return RULESET.apply(state, Event.chance(spec, list(outcome[:players])))


@pytest.mark.parametrize("name", MAPS)
def test_it_1_21_turns_a_map_half_round_keeping_every_hex_and_its_neighbours(name):
    """1.21 "kunmetas ilin laŭvole": a map turned half round is the same map: every hex keeps
    its terrain, its six neighbours and the hexsides between them (rivers, roads, bridges,
    walls), every city its gold; only where it lies changes (column c, row r to 7 - c, 6 - r)."""
    printed, turned = board_of((name,)), board_of((name + TURNED,))

    def turn(h):
        col, row = col_row(h)
        return hex_id(printed.width - 1 - col, printed.height - 1 - row)

    assert {turn(h): t for h, t in printed.terrain.items()} == turned.terrain
    for h in printed.terrain:
        assert sorted(turn(n) for n in printed.neighbours(h)) == sorted(turned.neighbours(turn(h)))
    assert {turn(h): c.gold for h, c in printed.cities.items()} == {h: c.gold for h, c in turned.cities.items()}
    for feature in ("rivers", "roads", "bridges", "walls", "gates", "waterfalls"):
        assert {side(*map(turn, s.split("|"))) for s in getattr(printed, feature)} == getattr(turned, feature)
    for feature in ("coast", "shoals", "henges"):
        assert {turn(h) for h in getattr(printed, feature)} == getattr(turned, feature)
    assert wk_board._turned(wk_board._turned(wk_board._load(name))) == wk_board._load(name)


@pytest.mark.parametrize("west,east", list(itertools.permutations(MAPS, 2)))
def test_it_1_21_lays_the_two_player_board_alike_for_both_seats(west, east):
    """D1, version 4: turned half round as a whole, the board of maps M (west, as printed) and N
    (east, turned) is the board of N (west) and M (east, turned): the east seat's view of its
    deal is the west seat's view of the other deal, hex for hex (each seat is dealt either map
    alike, so neither side of the table is the better one). Laid both as printed it is not."""
    one, other = board_of((west, east + TURNED)), board_of((east, west + TURNED))
    assert {half_round(one, h): t for h, t in one.terrain.items()} == other.terrain
    assert {half_round(one, h): (c.gold, 1 - one.map_of[h]) for h, c in one.cities.items()} == \
        {h: (c.gold, other.map_of[h]) for h, c in other.cities.items()}
    for feature in ("rivers", "roads", "bridges", "walls", "gates"):
        assert {side(*(half_round(one, h) for h in s.split("|"))) for s in getattr(one, feature)} \
            == getattr(other, feature), feature
    printed, swapped = board_of((west, east)), board_of((east, west))
    assert {half_round(printed, h) for h in printed.cities} != set(swapped.cities)


def test_it_1_21_deals_two_players_the_east_map_turned_by_default():
    """Version 4's default (``east_map: turned``): seat 1's map is laid turned, its cities are
    seat 1's; ``printed`` (versions 1-3) lays both as printed."""
    state = dealt({})
    assert state["maps"] == ["13", "15" + TURNED]
    b = board_of(tuple(state["maps"]))
    assert {h for h, owner in state["city_owner"].items() if owner == 1} == \
        {h for h, c in board_of(("13", "15" + TURNED)).cities.items() if b.map_of[h] == 1}
    assert dealt({"east_map": "printed"})["maps"] == ["13", "15"]
    named = RULESET.setup(2, RULESET.options({"armies": "elves,orcs", "maps": "12,16"}))
    assert named["maps"] == ["12", "16" + TURNED]


def test_it_1_21_lays_more_players_maps_as_printed():
    """Only two players face each other across one seam; a row of three or more maps (D1) is
    laid as printed whatever ``east_map`` says."""
    assert dealt({}, players=3, outcome=(3, 5, 0))["maps"] == ["13", "15", "10"]


def test_it_refuses_a_turned_map_in_the_maps_option():
    """The option ``maps`` names the maps as printed; how the east one lies is ``east_map``'s."""
    with pytest.raises(InvalidOptions, match="east_map"):
        WizardKings().setup(2, WizardKings().options({"maps": "12,16" + TURNED}))
