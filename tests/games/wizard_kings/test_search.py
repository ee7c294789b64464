"""Wizard Kings' search bot (games/wizard_kings/search.py): policy switching over ways to move,
each judged by playouts in which the other seats play the heuristic bot."""
import json
import random

import pytest

from games.engine.log import Folder
from games.engine.protocol import Result
from games.engine.runner import playout
from games.engine.search import SearchBot, rewards
from games.wizard_kings.bots import HeuristicBot, MoveWeights
from games.wizard_kings.search import POLICIES, WizardKingsSearchBot

from .conftest import RULESET as R, random_decisions


def _message(state, seat):
    return {"type": "act", "seat": seat, "view": R.view(state, seat),
            "legal_actions": R.legal_actions(state, seat)}


def _bot(seat, *, cls=WizardKingsSearchBot, **kwargs):
    bot = cls(R, 5, **kwargs)
    bot.hello({"type": "hello", "seat": seat})
    return bot


class _Watched(WizardKingsSearchBot):
    """Keeps every message it answered, with its answer, the policy and the iterations."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen = []

    def act(self, message):
        action = super().act(message)
        self.seen.append((message, action, self.last_policy, self.last_iterations))
        return action


@pytest.fixture(scope="module")
def watched_match():
    """A two-player match of the search bot (2 iterations a move) against the heuristic bot."""
    search = _Watched(R, 11, iterations=2)
    records = playout(R, 2, seed=bytes([7]) * 32, bots={0: search, 1: HeuristicBot(R, 3)})
    return search, records


def test_wizard_kings_search_is_the_games_search_bot():
    assert R.bots()["search"] is WizardKingsSearchBot and issubclass(WizardKingsSearchBot, SearchBot)
    assert R.bots()["heuristic"] is HeuristicBot  # the bench's opponent is unchanged


def test_the_heuristic_policy_is_the_heuristic_bots_own_and_it_plays_where_policies_tie():
    assert list(POLICIES)[0] == "heuristic" and POLICIES["heuristic"] == MoveWeights()
    assert HeuristicBot(R).weights == MoveWeights()
    assert len(set(POLICIES.values())) == len(POLICIES)  # no policy is another's copy


@pytest.mark.parametrize("players", [2, 3])
def test_every_policy_moves_legally(players):
    """Each policy answers every move decision of random matches with one of its legal actions
    (a policy is the heuristic bot's movement with other weights)."""
    checked = 0
    for state, seat in random_decisions({}, players, seed=40 + players, events=3000):
        if state["phase"] != "move":
            continue
        message = _message(state, seat)
        for name in POLICIES:
            policy = HeuristicBot(R, 1, weights=POLICIES[name])
            policy.hello({"seat": seat})
            assert policy.act(message) in message["legal_actions"], name
        checked += 1
    assert checked >= 20


def test_the_policies_move_differently(watched_match):
    """The search chooses among ways of moving that differ: over the move decisions of a match
    against the heuristic bot, every two policies answer some decision differently."""
    search, _ = watched_match
    answers = {name: [] for name in POLICIES}
    for message, *_ in search.seen:
        if message["view"]["phase"] == "move":
            for name, weights in POLICIES.items():
                policy = HeuristicBot(R, 1, weights=weights)
                policy.hello({"seat": message["seat"]})
                answers[name].append(json.dumps(policy.act(message), sort_keys=True))
    names = list(POLICIES)
    for i, name in enumerate(names):
        for other in names[i + 1:]:
            assert answers[name] != answers[other], (name, other)


def test_it_searches_the_move_phase_only_and_plays_the_chosen_policys_move(watched_match):
    """The policies differ only in how they move: in every other phase the search bot plays the
    heuristic bot's choice without a playout; in the move phase (more than one legal action) it
    runs its iterations and plays the move of the policy it chose."""
    search, records = watched_match
    assert records[-1]["kind"] == "match_ended"
    moves = others = 0
    for message, action, policy, iterations in search.seen:
        assert action in message["legal_actions"]
        if message["view"]["phase"] == "move" and len(message["legal_actions"]) > 1:
            moves += 1
            assert iterations == 2 and policy in POLICIES
            chosen = HeuristicBot(R, 1, weights=POLICIES[policy])
        else:
            others += 1
            assert iterations == 0 and policy == "heuristic"
            chosen = HeuristicBot(R, 1)
        chosen.hello({"seat": message["seat"]})
        assert chosen.act(message) == action
    assert moves >= 10 and others >= 10


def test_a_turns_statistics_are_kept_over_its_moves_and_start_afresh_the_next_turn(watched_match):
    search, _ = watched_match
    bot = _bot(0, iterations=3)
    by_turn = {}
    for message, *_ in search.seen:
        if message["view"]["phase"] == "move" and len(message["legal_actions"]) > 1:
            by_turn.setdefault(message["view"]["turn"], []).append(message)
    turn, messages = next((t, m) for t, m in sorted(by_turn.items()) if len(m) >= 2)
    bot.act(messages[0])
    bot.act(messages[1])
    assert bot.turn == turn and sum(n for n, _ in bot.stats.values()) == 6
    assert sorted(n for n, _ in bot.stats.values()) == [1, 1, 2, 2]  # the policies in turn
    later = next(m for t, m in sorted(by_turn.items()) if t > turn)[0]
    bot.act(later)
    assert bot.turn == later["view"]["turn"] and sum(n for n, _ in bot.stats.values()) == 3


def test_the_policy_with_the_best_playouts_moves_and_the_heuristic_where_they_tie(watched_match, monkeypatch):
    search, _ = watched_match
    message = next(m for m, *_ in search.seen
                   if m["view"]["phase"] == "move" and len(m["legal_actions"]) > 1)
    for winner in POLICIES:
        weights = POLICIES[winner]
        monkeypatch.setattr(WizardKingsSearchBot, "_playout",
                            lambda self, state, me, policy, until, w=weights: 1.0 if policy.weights == w else 0.0)
        bot = _bot(message["seat"], iterations=8)
        bot.act(message)
        assert bot.last_policy == winner
    monkeypatch.setattr(WizardKingsSearchBot, "_playout", lambda self, state, me, policy, until: 0.5)
    bot = _bot(message["seat"], iterations=8)
    heuristic = _bot(message["seat"], cls=HeuristicBot)
    assert bot.act(message) == heuristic.act(message) and bot.last_policy == "heuristic"


def test_1_23_a_playout_stops_ahead_and_is_scored_by_the_gold_of_the_cities_held(watched_match):
    """1.23: "ludanto venkas kiam regas urbojn valorantajn 15 gp fine de iu ajn vico" (D12: the
    turn limit counts the same gold): a playout that reaches the turn after ``until`` stops there
    and places the seats by the gold of the cities they hold as the board stands (score_now);
    one that reaches the end takes the end's result."""
    _, records = watched_match
    folder = Folder(records[0])
    for record in records[1:]:
        folder.advance(record)
        if folder.state["phase"] == "move" and folder.state["turn"] == 2:
            break
    state = folder.state
    assert state["turn"] == 2
    bot = _bot(0, iterations=1)
    for seat in (0, 1):
        expected = rewards(Result.from_scores(R.score_now(state)), 2)[seat]
        assert bot._playout(R.determinize(R.view(state, seat), seat, random.Random(seat)), seat,
                            bot.policies["heuristic"], until=1) == expected


def test_it_is_deterministic_under_an_iteration_cap(watched_match):
    search, _ = watched_match
    messages = [m for m, *_ in search.seen if m["view"]["phase"] == "move"][:12]
    first, second = _bot(0, iterations=2), _bot(0, iterations=2)
    assert [first.act(m) for m in messages] == [second.act(m) for m in messages]


# -- what the playouts are made of ------------------------------------------------------------

def _heuristic_decisions(options: dict, players: int, seed: int):
    """Every decision of a match of heuristic bots (chance seeded), as (state, the seat to act):
    unlike random play, it reaches battles."""
    from games.engine.protocol import Chance, Ended, Event
    from games.engine.search import sample_outcome
    rng, state = random.Random(seed), R.setup(players, R.options(options))
    bots = [HeuristicBot(R, seat) for seat in range(players)]
    for seat, bot in enumerate(bots):
        bot.seat = seat
    while not isinstance(nxt := R.next(state), Ended):
        if isinstance(nxt, Chance):
            state = R.apply(state, Event.chance(nxt.spec, sample_outcome(nxt.spec, rng)))
            continue
        seat = nxt.seats[0]
        yield state, seat
        state = R.apply(state, Event.action(seat, bots[seat].act(_message(state, seat))))


def _bot_reads() -> set[str]:
    """The keys of ``view[...]`` the heuristic bot's source reads."""
    import ast
    import inspect

    from games.wizard_kings import bots
    tree = ast.parse(inspect.getsource(bots))
    return {node.slice.value for node in ast.walk(tree)
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
            and node.value.id == "view" and isinstance(node.slice, ast.Constant)}


def test_the_heuristic_bot_reads_only_the_parts_of_its_view_it_declares():
    """The playouts give the heuristic bots only the parts of a view they read
    (``HeuristicBot.READS``); a part read and not declared would be missing there."""
    reads = _bot_reads()
    assert reads, "no view[...] read found: the check reads nothing"
    assert reads <= set(HeuristicBot.READS), reads - set(HeuristicBot.READS)


@pytest.mark.parametrize("options, players", [({}, 2), ({}, 3), ({"expansion": True}, 2),
                                              ({"scenario": "alliance-spread"}, 2)])
def test_a_partial_view_is_the_whole_views_parts_and_the_bots_choose_alike(options, players):
    """``seat_view(state, seat, keys=...)`` builds each part equal to the whole view's, and the
    heuristic bot (each policy's weights) chooses the same action from the parts it reads as
    from the whole view, over the decisions of a match of heuristic bots."""
    from games.wizard_kings import PARTS, seat_view
    bots = [HeuristicBot(R, 1, weights=weights) for weights in POLICIES.values()]
    checked = set()
    for state, seat in _heuristic_decisions(options, players, 4):
        whole = R.view(state, seat)
        parts = seat_view(state, seat, keys=tuple(PARTS))
        assert parts == {key: whole[key] for key in PARTS}
        legal = R.legal_actions(state, seat)
        for bot in bots:
            bot.seat = seat
            full = bot.act({"type": "act", "seat": seat, "view": whole, "legal_actions": legal})
            read = bot.act({"type": "act", "seat": seat, "legal_actions": legal,
                            "view": seat_view(state, seat, keys=HeuristicBot.READS)})
            assert read == full, (state["phase"], seat)
        checked.add(state["phase"])
    assert {"move", "battle", "build"} <= checked, checked


def test_the_heuristic_bot_changes_nothing_of_the_view_it_reads():
    """A partial view shares the board with every other (``board_view(..., shared=True)``): the
    bots it is given must not change it."""
    import copy

    from games.wizard_kings import seat_view
    bot = HeuristicBot(R, 1)
    for state, seat in _heuristic_decisions({}, 2, 6):
        view = seat_view(state, seat, keys=HeuristicBot.READS)
        before = copy.deepcopy(view)
        bot.seat = seat
        bot.act({"type": "act", "seat": seat, "view": view,
                 "legal_actions": R.legal_actions(state, seat)})
        assert view == before
