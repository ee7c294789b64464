"""The heuristic bot plays for 1.23's two-player victory (games/wizard_kings/bots.py): it takes
the city that wins, retakes its own cities, leaves a city of its map empty only where no enemy
block is near, and breaks ties towards the front, the same for both seats. Each position is
scripted on the test maps (conftest: t-west, seat 0's, cities Alder 0200 (3), Birch 0506 (3),
Cedar 0003 (2), Dune 0504 (2); t-east, seat 1's, all clear, Elm 1000 (3), Fir 1006 (3), Gum 1303
(2), Hazel 1503 (2)) so that the behaviour named decides the move."""
from __future__ import annotations

from games.wizard_kings import rules
from games.wizard_kings.board import distance
from games.wizard_kings.bots import HeuristicBot, MoveWeights
from games.wizard_kings.content import armies
from games.wizard_kings.state import city_gold

from .conftest import RULESET, find_kind, make_state, plain

def _walker(kind) -> bool:
    """Move exactly 2: the positions below are laid out for it (a block of move 3 reaches a
    city they keep out of reach)."""
    return plain(kind) and kind.move == 2


MINE = find_kind(_walker)                                # seat 0's blocks: move 2, no trait
THEIRS = find_kind(_walker, next(a for a, army in armies().items()
                                 if a != MINE.split("/")[0] and any(map(_walker, army.kinds))))


def choice(state: dict, seat: int, weights: MoveWeights | None = None) -> dict:
    """The heuristic bot's answer for ``seat`` in ``state``."""
    bot = HeuristicBot(RULESET, 1, weights=weights)
    bot.hello({"type": "hello", "seat": seat})
    return bot.act({"type": "act", "seat": seat, "view": RULESET.view(state, seat),
                    "legal_actions": RULESET.legal_actions(state, seat)})


def cedar_lost(*, holding_elm_and_fir: bool) -> dict:
    """Seat 0 to move. An enemy block holds Cedar (0003), seat 0's own city, and two of seat 0's
    blocks stand next to it (0002, 0004); block c stands by Gum (1303), the enemy's empty city.
    With ``holding_elm_and_fir`` seat 0's blocks also hold the enemy's Elm and Fir."""
    blocks = [("b1", 0, MINE, 2, "0002"), ("b2", 0, MINE, 2, "0004"), ("c", 0, MINE, 2, "1404"),
              ("x1", 1, THEIRS, 2, "0003"), ("x2", 1, THEIRS, 2, "1503")]
    if holding_elm_and_fir:
        blocks += [("e", 0, MINE, 2, "1000"), ("f", 0, MINE, 2, "1006")]
    return make_state(blocks, order=[0, 1])


def test_1_23_it_takes_the_city_that_brings_it_to_the_victory_gold():
    """1.23: "ludanto venkas kiam regas urbojn valorantajn 15 gp fine de iu ajn vico": holding
    14 gold, the capture of Gum (2) wins, and comes before retaking its own Cedar."""
    state = cedar_lost(holding_elm_and_fir=True)
    assert city_gold(state, 0) == 14 and rules.victory_gold(state) == 15
    move = choice(state, 0)
    assert (move["type"], move["block"], move["to"]) == ("move", "c", "1303")


def test_it_retakes_its_own_city_before_taking_an_enemy_one():
    """Cedar back is its own gold back and the enemy's away: attacking the one enemy block in it
    with the two next to it comes before the capture of Gum, which wins nothing yet."""
    state = cedar_lost(holding_elm_and_fir=False)
    assert city_gold(state, 0) == 8
    move = choice(state, 0)
    assert move["type"] == "move" and move["block"] in ("b1", "b2") and move["to"] == "0003"


def test_it_leaves_a_city_of_its_map_empty_only_where_no_enemy_block_is_near():
    """An empty city stays its map's owner's (footnote 7, ``state.controller``): the last block
    in Alder marches on unless an enemy block is within ``threat`` (2) hexes of the city."""
    weights = MoveWeights()
    far = make_state([("g", 0, MINE, 2, "0200"), ("x", 1, THEIRS, 2, "1503")], order=[0, 1])
    move = choice(far, 0)
    assert move["type"] == "move" and move["block"] == "g"
    near = make_state([("g", 0, MINE, 2, "0200"), ("x", 1, THEIRS, 2, "0202")], order=[0, 1])
    assert distance("0200", "0202") <= weights.threat
    assert choice(near, 0) == {"type": "done"}


def test_it_keeps_a_garrison_in_an_enemy_city_it_holds_whatever_is_near():
    """A captured city is held only while a block stands in it (``state.controller``)."""
    state = make_state([("e", 0, MINE, 2, "1000"), ("x", 1, THEIRS, 2, "1503")], order=[0, 1])
    assert choice(state, 0) == {"type": "done"}


def build_state(blocks) -> dict:
    """``blocks`` on the test maps at the start of the build phase of turn 1."""
    state = make_state(blocks, phase="move")
    state["order"], state["mover"] = [0, 1], 2
    rules.advance(state)
    assert state["phase"] == "build"
    return state


def test_equal_recruits_go_to_the_city_nearer_the_front_for_either_seat():
    """Between two equal choices the first listed lies west, forward for seat 1 and back for
    seat 0; the bot takes the one nearer the cities it does not hold, so both seats recruit on
    their front city: Dune (0504) rather than Cedar (0003), Gum (1303) rather than Hazel (1503),
    each 2 gold and empty."""
    state = build_state([("a", 0, MINE, 1, "0200"), ("b", 0, MINE, 1, "0506"),
                         ("y", 1, THEIRS, 1, "1000"), ("z", 1, THEIRS, 1, "1006")])
    west = choice(state, 0)
    assert west["type"] == "recruit" and west["hex"] == "0504"
    east = choice(state, 1)
    assert east["type"] == "recruit" and east["hex"] == "1303"
