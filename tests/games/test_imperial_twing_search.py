"""Imperial Twing's tuning of the search bot (games/imperial_twing/search.py): the generic
iteration with a four-decision playout, and at its cut the seats valued by the features the
heuristic bot's own games weigh (bench/evaluation.py fits the weights)."""
import pytest

from games.engine import search as generic
from games.engine.runner import playout
from games.engine.search import SearchBot
from games.imperial_twing import ImperialTwing
from games.imperial_twing.search import (CUT_DECISIONS, LEFT, WEIGHTS, ImperialSearchBot, evaluate,
                                         features)
from games.imperial_twing.table import leave

from .searching import events_per_iteration
from .test_imperial_twing import R, playing


def test_imperial_twing_search_is_the_games_search_bot():
    assert R.bots()["search"] is ImperialSearchBot and issubclass(ImperialSearchBot, SearchBot)
    assert set(R.builtin_bots()) == {"random", "heuristic"}  # the hand-written bots are unchanged


def test_imperial_twing_search_runs_the_generic_iteration_with_its_own_cut():
    """search.py: "_iterate is the generic function's own code run with this module's cut"."""
    assert ImperialSearchBot._iterate.__code__ is SearchBot._iterate.__code__
    assert ImperialSearchBot._iterate.__globals__["PLAYOUT_DECISIONS"] == CUT_DECISIONS < generic.PLAYOUT_DECISIONS


def _events_per_iteration(bot_class, iterations=100):
    state = playing(hands=[["SP-fire-3a", "SP-fire-5a", "CAT-1"], ["SP-water-3a", "TRAP-1"]])
    return events_per_iteration(ImperialTwing, state, bot_class, iterations=iterations)


def test_imperial_twing_search_playouts_stop_after_four_decisions():
    """A playout below the tree is CUT_DECISIONS decisions (with the chance between them),
    where the generic search's is twenty."""
    tuned, plain = _events_per_iteration(ImperialSearchBot), _events_per_iteration(SearchBot)
    assert 2 * tuned < plain  # about 10 events an iteration against 29 (a fixed seed)


def _gap(state):
    """Seat 0's value less seat 1's."""
    values = evaluate(R, state)
    return values[0] - values[1]


def test_imperial_twing_search_Z_1_an_object_outweighs_a_handful_of_ornicles():
    """Z.1 "Du ... musst ... zunächst (mindestens) drei magische Objekte sammeln": an object
    ahead is worth more than seven ornicles behind (C.1: ornicles only buy objects)."""
    level = playing()
    assert _gap(level) == pytest.approx(0.0)
    ahead = playing(objects=[["OBJ-hat"], []], ornicles=[0, 7])
    assert features(ahead, 0)["objects"] == 1 and features(ahead, 1)["ornicles"] == 7
    assert _gap(ahead) == pytest.approx(WEIGHTS["objects"] - 7 * WEIGHTS["ornicles"]) and _gap(ahead) > 0


def test_imperial_twing_search_counts_the_cards_that_win_fights():
    """F.2, P, K, T.2: the spells' power in hand, traps, cats and the retinue's power."""
    state = playing(hands=[["SP-fire-5a", "TRAP-1", "CAT-1"], ["SP-water-3a"]],
                    retinues=[["CR-fire-4-feuerdrache"], []])
    mine, theirs = features(state, 0), features(state, 1)
    assert (mine["spell_power"], mine["traps"], mine["cats"], mine["retinue_power"]) == (5, 1, 1, 4)
    assert (theirs["spell_power"], theirs["traps"], theirs["cats"], theirs["retinue_power"]) == (3, 0, 0, 0)
    assert _gap(state) == pytest.approx(2 * WEIGHTS["spell_power"] + WEIGHTS["traps"] + WEIGHTS["cats"]
                                        + 4 * WEIGHTS["retinue_power"])


def test_imperial_twing_search_G_1_a_seat_in_its_endgame_counts_it():
    """G.1 "Du bist an der Reihe und hast 3 magische Gegenstände, dann kannst du das Endspiel
    beginnen": the endgame begun is worth WEIGHTS["endgame"]."""
    objects = [["OBJ-hat", "OBJ-cup", "OBJ-doll"], ["OBJ-bra", "OBJ-pants", "OBJ-socks"]]
    begun = playing(objects=objects, in_endgame=[True, False])
    assert _gap(begun) == pytest.approx(WEIGHTS["endgame"])


def test_imperial_twing_search_G_2_D25_a_seat_that_left_is_below_every_seat_in_the_game():
    """G.2 "Wenn Du kein magisches Objekt hast, verlierst du sofort und musst aufgeben (verlass
    das Spiel)"; D25: seats that left rank by the turn they left; a forfeiting seat below all."""
    state = playing(4, objects=[["OBJ-hat"], [], [], []])
    leave(state, 1, "beaten", 5)
    leave(state, 2, "beaten", 9)
    leave(state, 3, "forfeit", 9)
    values = evaluate(R, state)
    assert values[0] > values[2] > values[1] > values[3]
    assert values[1] == LEFT + 1 and values[2] == LEFT + 2 and values[3] < LEFT


def test_imperial_twing_search_is_deterministic_for_a_seed_and_plays_a_legal_match():
    moves = []
    for _ in range(2):
        bots = {0: ImperialSearchBot(R, 11, iterations=8), 1: R.builtin_bots()["heuristic"](R, 2)}
        records = playout(R, 2, seed=b"it-search".ljust(32, b"."), bots=bots,
                          options={"turn_limit": 16})  # D24: a short match, ended by the bound
        moves.append([r["payload"] for r in records if r["kind"] == "action"])
    assert moves[0] == moves[1] and records[-1]["kind"] == "match_ended"
    assert not any(r["kind"] == "forfeit" for r in records)


def test_imperial_twing_search_sees_only_the_view():
    """The tuned bot decides from the act message alone, as every bot: the same view and legal
    actions give the same move whatever the hidden cards behind them."""
    one = playing(hands=[["SP-fire-3a", "SP-fire-5a"], ["SP-water-3a", "TRAP-1"]])
    other = playing(hands=[["SP-fire-3a", "SP-fire-5a"], ["SP-water-4a", "CAT-2"]])
    assert R.view(one, 0) == R.view(other, 0)
    chosen = []
    for state in (one, other):
        bot = ImperialSearchBot(R, seed=5, iterations=40)
        bot.hello({"seat": 0})
        chosen.append((bot.act({"type": "act", "seat": 0, "view": R.view(state, 0),
                                "legal_actions": R.legal_actions(state, 0)}), bot.rng.getstate()))
    assert chosen[0] == chosen[1]
