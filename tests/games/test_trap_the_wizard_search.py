"""Trap the Wizard's tuning of the search bot (games/trap_the_wizard/search.py): the generic
iteration with a four-decision playout, scored at its cut by points and the threats of the next
roll."""
import pytest

from games.engine import registry
from games.engine import search as generic
from games.engine.protocol import Event
from games.engine.runner import playout
from games.engine.search import SearchBot
from games.trap_the_wizard import DIE, TrapTheWizard
from games.trap_the_wizard.search import (CUT_DECISIONS, OWN_MOVE_RISK, POINT, TrapSearchBot,
                                          evaluate)

from .searching import events_per_iteration
from .test_trap_the_wizard import JOKER2, R, position


def test_ttw_search_is_the_games_search_bot_and_only_its():
    assert R.bots()["search"] is TrapSearchBot and issubclass(TrapSearchBot, SearchBot)
    assert set(R.builtin_bots()) == {"random", "greedy"}  # the hand-written bots are unchanged
    # Imperial Twing, Sorcado and Wizard Kings have search bots of their own
    assert registry.get("warlock").bots()["search"] is SearchBot


def test_ttw_search_runs_the_generic_iteration_with_its_own_cut():
    """search.py: "_iterate is the generic function's own code run with this module's cut"."""
    assert TrapSearchBot._iterate.__code__ is SearchBot._iterate.__code__
    assert TrapSearchBot._iterate.__globals__["PLAYOUT_DECISIONS"] == CUT_DECISIONS < generic.PLAYOUT_DECISIONS
    assert generic.PLAYOUT_DECISIONS == 20  # the other games' search is left as it was


def _events_per_iteration(bot_class, iterations=200):
    state = R.apply(R.setup(2, R.options({"rounds": 1})), Event.chance(DIE, [6]))
    return events_per_iteration(TrapTheWizard, state, bot_class, iterations=iterations)


def test_ttw_search_playouts_stop_after_four_decisions():
    """A playout below the tree is CUT_DECISIONS decisions (each with its die roll), where the
    generic search's is twenty."""
    tuned, plain = _events_per_iteration(TrapSearchBot), _events_per_iteration(SearchBot)
    assert tuned < 2 * (CUT_DECISIONS + 6)  # the tree's few decisions, the cut's, their rolls
    assert plain > 2 * tuned


def _value(state):
    return evaluate(R, state)


def test_ttw_search_values_a_stack_an_enemy_can_land_on():
    """§1.3 "Wenn ein Spieler dabei ein Feld mit gegnerischen Zauberern erreicht, werden diese
    gefangen": a wizard that one face of the enemy's die brings a wizard onto is worth 1/6 of a
    stack less to its seat and 1/6 more to the hunter's."""
    # seat 1's wizard 3 on field 2: wizard 0 (on its start field 0) lands there with a 2 only
    state = position(fields={3: 2})
    assert _value(state) == pytest.approx([1 / 6, -1 / 6])
    # D5: wizards on start fields are out of reach, so the plain opening is level
    assert _value(position()) == [0.0, 0.0]


def test_ttw_search_a_seat_to_move_may_walk_away_first():
    """The threat to a stack whose own seat is to move counts OWN_MOVE_RISK as much."""
    assert _value(position(fields={3: 2}, turn=1)) == pytest.approx([OWN_MOVE_RISK / 6, -OWN_MOVE_RISK / 6])


def test_ttw_search_counts_what_a_stack_carries():
    """D18: a capture takes the stack whole, so a wizard carrying a captive is twice the loss."""
    state = position(fields={3: 2}, captives={3: (1,)})
    points = R.score_now(state)  # wizard 3 holds an enemy wizard: a point for seat 1 (D12)
    assert points == [0, 1]
    assert _value(state) == pytest.approx([POINT * 0 + 2 / 6, POINT * 1 - 2 / 6])


def test_ttw_search_special_fields_are_safe_but_from_the_joker():
    """§1.3 "(außer es handelt sich um eines der Spezialfelder ...)" and §4.3 "Wenn ein Spieler den
    Joker gefangen nimmt, kann er mit diesem Zauberer auch auf einem Spezialfeld gegnerische
    Spielfiguren fangen": field 4 is special, four steps from seat 0's start field."""
    assert 4 in R.setup(2, R.options({})).layout.board.special
    assert _value(position(fields={3: 4})) == [0.0, 0.0]
    assert _value(position(fields={3: 4}, captives={0: (JOKER2,)})) == pytest.approx([1 / 6, -1 / 6])


def test_ttw_search_points_outweigh_every_threat():
    """§1.4 "Ziel ist es, so viele gegnerische Zauberer wie möglich zu fangen": a point ahead
    stays ahead, however the wizards stand."""
    # seat 0 holds enemy wizard 5 with wizard 0, which stands where all of seat 1 could hit it
    state = position(fields={0: 2, 3: 0 + 30, 4: 31}, captives={0: (5,)}, turn=1)
    value = _value(state)
    assert R.score_now(state) == [1, 0] and value[0] > value[1]


def test_ttw_search_a_forfeited_seat_is_below_all():
    state = position(forfeited=(1,))
    assert _value(state)[1] < -POINT * 100


def test_ttw_search_is_deterministic_for_a_seed_and_plays_a_legal_round():
    moves = []
    for _ in range(2):
        bots = {0: TrapSearchBot(R, 11, iterations=30), 1: R.builtin_bots()["greedy"](R, 2)}
        records = playout(R, 2, seed=b"ttw-search".ljust(32, b"."), bots=bots, options={"rounds": 1})
        moves.append([r["payload"] for r in records if r["kind"] == "action"])
    assert moves[0] == moves[1] and records[-1]["kind"] == "match_ended"
