"""Imperial Twing's fast paths (issue 42, item 5) against the code they stand for: on every
state of random playouts, ``fight.can_lay`` says what ``commit_actions`` beyond ``done`` says
(D13), and the card lookups kept by id answer as the cards do."""
from __future__ import annotations

import pytest

from games.imperial_twing import fight
from games.imperial_twing.content import CARD, ELEMENTS
from games.imperial_twing.table import colours_in_hand, in_play
from tests.games.playouts import playout_states as states


def playout_states(players: int, seed: int):
    return states("imperial-twing", players, seed)


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (2, 4), (3, 5)])
def test_can_lay_and_the_kept_lookups_equal_what_they_replace(players, seed):
    fights = 0
    for state in playout_states(players, seed):
        gone = {entry[0] for entry in state["left"]}
        assert in_play(state) == [s for s in range(state["players"]) if s not in gone]
        for seat in range(players):
            held = {CARD[c].element for c in state["hands"][seat] if CARD[c].kind == "spell"}
            assert colours_in_hand(state, seat) == [e for e in ELEMENTS if e in held]
        if state["fight"] is None or state["fight"]["step"] != "commit":
            continue
        for seat in fight.fighters(state["fight"]):
            actions = fight.commit_actions(state, seat)
            assert fight.can_lay(state, seat) == bool(actions and actions != [{"type": "done"}])
            fights += 1
    assert fights > 5  # the playout did fight


@pytest.mark.parametrize("players,seed", [(2, 6), (3, 7), (4, 8), (2, 9)])
def test_the_hand_limits_and_spell_draws_asked_hand_by_hand_equal_the_walk(players, seed):
    """H.1-H.3: "more than three spell colours or more than fifteen spells" finds the same
    first seat (``over_limit``, asking every hand once first) as the walk in play order
    (``first_over_limit``); T.3: a seat without a spell queues its draw, and nobody queues one
    while every seat holds a spell."""
    from games.imperial_twing.table import first_over_limit, over_limit, queue_spell_draws
    over = lacking = 0
    for state in playout_states(players, seed):
        found = first_over_limit(state)
        assert over_limit(state) == found
        over += found is not None
        before = len(state["draws"])
        queue_spell_draws(state)            # a copy of a state apply made: changed in place
        queued = state["draws"][before:]
        del state["draws"][before:]
        seats = [s for s in in_play(state)
                 if not any(CARD[c].kind == "spell" for c in state["hands"][s])]
        assert {task["seat"] for task in queued} <= set(seats)
        if not seats:
            assert queued == []
        lacking += bool(seats)
    assert lacking > 0
