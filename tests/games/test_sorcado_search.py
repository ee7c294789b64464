"""Sorcado's tuning of the search bot (games/sorcado/search.py): the generic search, whose
determinizations believe, BELIEF of the time, that another seat laid its strongest cards first."""
import random

import pytest

from games.engine.log import Folder
from games.engine.runner import playout
from games.engine.search import SearchBot
from games.sorcado import search as tuned
from games.sorcado.bots import HeuristicBot
from games.sorcado.content import MAGE_POWER
from games.sorcado.search import BELIEF, SorcadoSearchBot, strongest_first

from .test_sorcado import R


def _states(players, placement, seed, bots):
    """Every state of one match, the seats played by ``bots`` in turn."""
    records = playout(R, players, seed=bytes([seed]) * 32, options={"placement": placement},
                      bots={s: bots[s % len(bots)](R, seed * 10 + s) for s in range(players)})
    folder, states = Folder(records[0]), []
    for record in records[1:]:
        folder.advance(record)
        states.append(folder.state)
    return states


def test_sorcado_search_is_the_games_search_bot():
    assert R.bots()["search"] is SorcadoSearchBot and issubclass(SorcadoSearchBot, SearchBot)
    assert set(R.builtin_bots()) == {"random", "heuristic"}  # the hand-written bots are unchanged
    assert SorcadoSearchBot._iterate is SearchBot._iterate  # the generic iteration, as it is


@pytest.mark.parametrize("players, placement", [(2, "corners"), (3, "corners"), (4, "border"), (2, "border")])
def test_sorcado_search_every_modelled_draw_is_one_the_view_allows(players, placement):
    """search.py: "every determinization is one the view allows: the model only picks among
    them": the view of a modelled draw is the view it was drawn for, in every state of matches
    of random and heuristic seats."""
    rng, checked = random.Random(players), 0
    for seed in range(3):
        for state in _states(players, placement, seed, [HeuristicBot, R.builtin_bots()["random"]]):
            for seat in range(players):
                view = R.view(state, seat)
                drawn = strongest_first(view, R.determinize(view, seat, rng), seat, R.spec.version)
                assert R.view(drawn, seat) == view
                checked += 1
    assert checked > 100 * players


def test_sorcado_search_S_3_the_model_finds_the_heuristic_bots_face_down_cards():
    """S.3 "Platziere ... eine deiner Magierkarten verdeckt": the heuristic bot lays its
    strongest card first (every card raises the capture chance of its row and column, the
    strongest the most), so the model gives seat 1's face-down cards their true powers, and its
    hand the rest; a uniform draw does not."""
    rng, compared, generic_wrong = random.Random(5), 0, 0
    for seed in range(4):
        for state in _states(2, "corners", seed, [HeuristicBot]):
            if state["phase"] not in ("look", "swap", "place", "ban") or not state["placed"][1]:
                continue
            view = R.view(state, 0)
            powers = lambda drawn: sorted(MAGE_POWER[c] for _, c in drawn["placed"][1])  # noqa: E731
            drawn = R.determinize(view, 0, rng)
            generic_wrong += powers(drawn) != powers(state)
            modelled = strongest_first(view, drawn, 0, R.spec.version)
            assert [[slot, MAGE_POWER[c]] for slot, c in modelled["placed"][1]] == \
                [[slot, MAGE_POWER[c]] for slot, c in state["placed"][1]]
            assert sorted(map(MAGE_POWER.get, modelled["hands"][1])) == sorted(map(MAGE_POWER.get, state["hands"][1]))
            compared += 1
    assert compared > 40 and generic_wrong > compared / 2


def test_sorcado_search_W_1_face_up_cards_are_not_modelled():
    """W.1 "werden alle Monster- und Magierkarten umgedreht": at the end the laid cards are
    face up in the view, and the draw keeps them as they are."""
    final = _states(2, "corners", 1, [R.builtin_bots()["random"]])[-1]
    view = R.view(final, 0)
    assert "placed" in view
    drawn = R.determinize(view, 0, random.Random(1))
    assert strongest_first(view, drawn, 0, R.spec.version)["placed"] == drawn["placed"] == final["placed"]


def test_sorcado_search_believes_the_model_in_BELIEF_of_its_draws():
    """search.py: "a draw believes that model with BELIEF (0.75) of its determinizations ...
    the other determinizations draw as the generic search does"."""
    state = next(s for s in _states(2, "corners", 2, [HeuristicBot])
                 if s["phase"] == "look" and len(s["placed"][1]) == 4)
    view, rules = R.view(state, 0), tuned._Modelled(R)
    rng, draws = random.Random(7), 2000
    modelled = 0
    for _ in range(draws):
        drawn = rules.determinize(view, 0, rng)
        assert R.view(drawn, 0) == view
        modelled += [MAGE_POWER[c] for _, c in drawn["placed"][1]] == [6, 5, 4, 3]
    # the uniform draw lays 6 5 4 3 in order 1 time in 8*7*6*5/2 = 840 (two 3s): about BELIEF
    share = modelled / draws
    assert BELIEF - 0.04 < share < BELIEF + 0.04, share


def test_sorcado_search_thinks_within_its_iterations_and_is_deterministic():
    """The generic contract: a fixed iteration cap and seed give the same move every time."""
    state = next(s for s in _states(2, "corners", 3, [HeuristicBot]) if s["phase"] == "place")
    seat = state["seat"]
    message = {"type": "act", "seat": seat, "view": R.view(state, seat),
               "legal_actions": R.legal_actions(state, seat)}
    moves = []
    for _ in range(2):
        bot = SorcadoSearchBot(R, seed=11, iterations=150)
        bot.hello({"seat": seat})
        moves.append(bot.act(message))
        assert bot.last_iterations == 150
    assert moves[0] == moves[1] and moves[0] in message["legal_actions"]
