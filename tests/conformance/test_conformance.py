"""One suite that every ruleset must pass (registry.builtin() plus the test-only Oracle game).

Hooks a game may (or, where said, must) provide, beyond the engine contract:

- ``max_events(players, options) -> int``: the longest log (records, envelope included) a match
  can write; otherwise the game's bound is listed in conftest.EVENT_BOUNDS.
- ``conformance_options() -> list[dict]``: option sets (variants) to play besides the defaults;
  the tests taking ``case`` run once per game and once per variant (conftest.Case), with fewer
  playouts for a variant.
- ``hidden_items(state, seat) -> set[str]``: REQUIRED of every game with
  ``spec.hidden_information``. For a seat, the facts it knows privately (its cards, its pending
  secret choice, what it peeked at); for ``None``, the facts nobody knows (the deck order). Each is
  a string as the game writes it in its views, so a leak is a text search: an item must appear in
  its owner's view and in no view of a seat (nor the public view) that does not hold it too.
"""
from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

from games.engine import registry
from games.engine.bots import RandomBot
from games.engine.log import Folder, canonical_json, validate
from games.engine.protocol import (Chance, Ended, GameSpec, IllegalAction, InvalidOptions,
                                   ToAct, options_schema)
from games.engine.runner import playout

from .conftest import (PLAYOUTS_TIMEOUT, detailed, drive, encoded, fold, get_ruleset, player_counts,
                       playouts, seed_for)

ROOT = Path(__file__).resolve().parents[2]

# The first test of a game to ask for its playouts plays all 200 (conftest.playouts): Wizard
# Kings' took 191 s with the second core busy and passed pytest.ini's 300 s only on a quiet
# machine (2 of its tests timed out with the load average at 5). A test here may take 20 minutes
# before it counts as hung, as may every test that asks for them (conftest.PLAYOUTS_TIMEOUT).
pytestmark = PLAYOUTS_TIMEOUT


def name(ruleset) -> str:
    return ruleset.spec.name


# -- the game type -------------------------------------------------------------------------------
@pytest.mark.parametrize("module", registry.BUILTIN_GAMES)
def test_every_builtin_game_module_imports_and_registers_a_ruleset(module):
    importlib.import_module(module)
    registered = [r for r in registry._RULESETS.values()
                  if type(r).__module__ == module or type(r).__module__.startswith(module + ".")]
    assert registered, f"{module} imports but registers no ruleset (registry.register on its last line)"


def test_spec_and_options_are_sound(ruleset):
    spec = ruleset.spec
    assert isinstance(spec, GameSpec)
    assert get_ruleset(spec.name) is ruleset and registry._RULESETS[spec.name] is ruleset
    assert type(spec.version) is int and spec.version >= 1
    assert 1 <= spec.min_players <= spec.max_players
    defaults = ruleset.options(None)
    assert json.loads(json.dumps(ruleset.options_json(defaults))) == ruleset.options_json(defaults)
    assert ruleset.options(ruleset.options_json(defaults)) == defaults
    json.dumps(options_schema(ruleset.Options))
    for players in (spec.min_players - 1, spec.max_players + 1, str(spec.min_players), None):
        with pytest.raises(InvalidOptions):
            ruleset.check_players(players)
    for players in player_counts(ruleset):
        assert isinstance(ruleset.next(ruleset.setup(players, defaults)), (ToAct, Chance, Ended))


# -- 1. random playouts end within a bound -----------------------------------------------------------
def test_1_random_playouts_end_within_the_bound(case):
    games = playouts(case.key)
    assert len(games) == case.playouts
    assert {game.players for game in games} == set(case.counts)
    for game in games:
        bound = case.bound(game.players)
        where = f"playout {game.index} ({game.players} players)"
        assert game.last_kind == "match_ended", where
        assert game.kinds["match_ended"] == 1, where
        assert game.events <= bound, f"{where}: {game.events} events, more than the bound {bound}"


# -- 2. legal actions pass check; anything else is refused with a reason ------------------------------
GARBAGE = [None, "x", "", [], {}, 0, -1, 1.5, True, False, [None], {"type": None}]


def value_mutations(value) -> list:
    """Values near ``value`` of the same type, and the same value in other types."""
    if isinstance(value, bool):
        return [not value, int(value), str(value).lower(), None]
    if isinstance(value, int):
        near = [value + 1, value - 1, -1, 10**9, float(value), str(value), None, [value]]
        return near + ([bool(value)] if value in (0, 1) else [])
    if isinstance(value, float):
        return [value + 1, -value - 1, str(value), None] + ([int(value)] if value.is_integer() else [])
    if isinstance(value, str):
        return [value + "x", value[:-1], value.upper() + "?", "", 0, None, [value]]
    if isinstance(value, list):
        changed = [value[:i] + [m] + value[i + 1:] for i, v in enumerate(value[:4])
                   for m in value_mutations(v)]
        return changed + [value[:-1], value + [value[-1] if value else 0], None, {}]
    if isinstance(value, dict):
        changed = [{**value, key: m} for key in value for m in value_mutations(value[key])]
        dropped = [{k: v for k, v in value.items() if k != key} for key in value]
        return changed + dropped + [{**value, "extra": 1}, list(value.items()), None]
    return [0, "", False, [], {}]


def expect_refused(ruleset, state, seat, action, why, where):
    """check_action refuses with a reason, and act_in_place (a validation's check and apply in
    one call) refuses with the same reason, leaving the state as it was (check_decision looks)."""
    try:
        ruleset.check_action(state, seat, action)
    except IllegalAction as exc:
        assert isinstance(exc.reason, str) and exc.reason.strip(), f"{where}: empty reason for {action!r}"
        act_in_place = getattr(ruleset, "act_in_place", None)  # optional (Ruleset)
        if act_in_place is None:
            return
        try:
            act_in_place(state, seat, {"action": action})
        except IllegalAction as fused:
            assert fused.reason == exc.reason, f"{where}: act_in_place refuses {action!r} otherwise"
        else:
            pytest.fail(f"{where}: act_in_place took {action!r} for seat {seat!r}, which "
                        f"check_action refuses ({why})")
        return
    except Exception:
        pytest.fail(f"{where}: check raised something else than IllegalAction for seat {seat!r}, "
                    f"{action!r} ({why}):\n{traceback.format_exc()}")
    pytest.fail(f"{where}: check accepted {action!r} for seat {seat!r} ({why})")


def test_2_legal_actions_pass_check_and_mutations_are_refused(case):
    ruleset = case.ruleset
    rng = random.Random(2)
    decisions = 0
    for summary, driven in detailed(case.key):
        players = summary.players
        closely = set(sample_steps(driven.states, rng))
        for seq, state in enumerate(driven.states):
            where = f"playout {summary.index}, after seq {seq}"
            nxt = ruleset.next(state)
            acting = nxt.seats if isinstance(nxt, ToAct) else ()
            decisions += bool(acting)
            assert len(set(acting)) == len(acting), f"{where}: a seat twice in {nxt}"
            assert acting or not isinstance(nxt, ToAct), f"{where}: ToAct names no seat"
            for seat in range(players):
                check_decision(ruleset, state, seat, acting, players, rng, where, seq in closely)
    assert decisions, "no decision was checked"


def check_decision(ruleset, state, seat, acting, players, rng, where, closely):
    """Legal actions pass check; ``closely``: they are JSON and unique, and seats not acting,
    seats that are no int and mutated actions are refused."""
    legal = ruleset.legal_actions(state, seat)
    if seat not in acting:
        assert legal == [], f"{where}: seat {seat} need not act ({acting} do) but has {legal[:3]}"
        return
    assert legal, f"{where}: seat {seat} must act but has no legal action"
    for action in legal:
        ruleset.check_action(state, seat, action)
    if not closely:
        return
    before = encoded(ruleset, state)  # the refusals below leave it as it is
    texts = {canonical_json(action) for action in legal}
    assert len(texts) == len(legal), f"{where}: legal_actions lists an action twice"
    for action in legal:
        assert json.loads(json.dumps(action)) == action, f"{where}: {action!r} is not JSON"
        for other in set(range(players)) - set(acting):
            expect_refused(ruleset, state, other, action, "that seat does not act now", where)
    for not_a_seat in [float(seat), str(seat), None, [seat]] + ([bool(seat)] if seat in (0, 1) else []):
        expect_refused(ruleset, state, not_a_seat, legal[0], "a seat is an int", where)
    for action in rng.sample(legal, min(len(legal), 8)):
        for mutated in GARBAGE + value_mutations(action):
            if canonical_json(mutated) not in texts:  # as JSON: True is not 1, 1.0 is not 1
                expect_refused(ruleset, state, seat, mutated, f"mutated from {action!r}", where)
    assert encoded(ruleset, state) == before, f"{where}: a refused act_in_place changed the state"


def sample_steps(states: list, rng: random.Random, limit: int = 150) -> list[int]:
    """Every step of a short match; ``limit`` of them, spread at random, of a long one."""
    if len(states) <= limit:
        return list(range(len(states)))
    return sorted(rng.sample(range(len(states)), limit))


# -- 3. the fold of the exported log is the live state ----------------------------------------------
def test_3_the_fold_of_the_exported_log_equals_the_live_state_at_every_step(case):
    ruleset = case.ruleset
    for summary, driven in detailed(case.key):
        if summary.index % 2 == 0:  # no resignation: drive wrote what the runner wrote
            assert driven.records == summary.records, "drive and runner.playout disagree"
        exported = [json.dumps(record) for record in driven.records]
        imported = [json.loads(line) for line in exported]
        assert imported == driven.records
        seed = bytes.fromhex(imported[-1]["payload"]["seed"])
        for (record, state), live in zip(fold(imported, seed=seed), driven.encodings, strict=True):
            assert encoded(ruleset, state) == live, (
                f"playout {summary.index}: the fold differs from the live state at seq {record['seq']}")


def test_3_apply_never_changes_the_state_it_is_given(case):
    ruleset = case.ruleset
    for summary, driven in detailed(case.key):
        for seq, (state, when_made) in enumerate(zip(driven.states, driven.encodings, strict=True)):
            assert encoded(ruleset, state) == when_made, (
                f"playout {summary.index}: the state after seq {seq} changed later (apply mutates)")


def test_3_an_in_place_fold_reaches_the_states_apply_makes(case):
    """Ruleset.apply_in_place (log.Folder with in_place, the fold of step reads and validation)
    gives the very states ``apply`` gives, forfeits included, and leaves the states ``apply``
    made before it as they were."""
    ruleset = case.ruleset
    for summary, driven in detailed(case.key):
        folder = Folder(driven.records[0], get_ruleset=get_ruleset, in_place=True)
        assert folder.in_place
        assert encoded(ruleset, folder.state) == driven.encodings[0]
        for record, live in zip(driven.records[1:], driven.encodings[1:], strict=True):
            folder.step(record)
            assert encoded(ruleset, folder.state) == live, (
                f"playout {summary.index}: the in-place fold differs at seq {record['seq']}")
        # advance_all in place (one Event lent to every apply) reaches the same states.
        middle = len(driven.records) // 2
        advanced = Folder(driven.records[0], get_ruleset=get_ruleset, in_place=True)
        advanced.advance_all(driven.records[1:middle])
        assert encoded(ruleset, advanced.state) == driven.encodings[middle - 1]
        advanced.advance_all(driven.records[middle:])
        assert encoded(ruleset, advanced.state) == driven.encodings[-1]
        # A fold that does not own its states (the default) still copies per event.
        copying = Folder(driven.records[0], get_ruleset=get_ruleset)
        for record in driven.records[1:middle]:
            copying.step(record)
        before, when_made = copying.state, encoded(ruleset, copying.state)
        copying.step(driven.records[middle])
        assert encoded(ruleset, before) == when_made


# -- 4. encode/decode round trip ---------------------------------------------------------------------
def test_4_encode_decode_round_trips_at_every_step(case):
    ruleset = case.ruleset
    for summary, driven in detailed(case.key):
        for seq, state in enumerate(driven.states):
            where = f"playout {summary.index}, after seq {seq}"
            data = ruleset.encode(state)
            assert json.loads(json.dumps(data)) == data, f"{where}: encode gives no plain JSON"
            back = ruleset.decode(json.loads(json.dumps(data)))
            assert ruleset.encode(back) == data, where
            nxt = ruleset.next(state)
            assert ruleset.next(back) == nxt, where
            for seat in (nxt.seats if isinstance(nxt, ToAct) else ()):
                assert ruleset.legal_actions(back, seat) == ruleset.legal_actions(state, seat), where
                assert ruleset.view(back, seat) == ruleset.view(state, seat), where
            assert ruleset.view(back, None) == ruleset.view(state, None), where


# -- 5. seeds decide the log -------------------------------------------------------------------------
def test_5_same_seeds_give_the_same_log_and_other_seeds_another(case):
    ruleset = case.ruleset
    games = playouts(case.key)
    for game in games[:3]:
        def replay(seed):
            return playout(ruleset, game.players, seed=seed, bot_seed=game.bot_seed,
                           match_id=game.match_id, options=case.options,
                           max_events=case.bound(game.players))
        again = replay(game.seed)
        assert again == game.records, f"playout {game.index} is not repeatable"
        other = replay(seed_for(game.index, "another seed"))
        assert other[-1]["hash"] != game.head_hash
        if ruleset.spec.chance:
            assert ([r["payload"] for r in other if r["kind"] == "chance"]
                    != [r["payload"] for r in again if r["kind"] == "chance"]), "chance ignores the seed"
    assert len({game.head_hash for game in games}) == len(games)
    if ruleset.spec.chance:
        assert len({game.chance_digest for game in games}) == len(games), "two seeds, same chance"


# -- 6. views hide what other seats hold --------------------------------------------------------------
SHUFFLE_KINDS = ("shuffle", "choice")


def test_6_views_show_nothing_another_seat_or_nobody_holds(case):
    ruleset = case.ruleset
    hook = getattr(ruleset, "hidden_items", None)
    if ruleset.spec.hidden_information:
        assert hook is not None, (f"{name(ruleset)} has hidden information but no hidden_items(state, "
                                  f"seat) hook: the conformance suite cannot check its views")
    rng = random.Random(6)
    for summary, driven in detailed(case.key):
        seats = list(range(summary.players))
        # every step of a game with hidden information; a sample of a long public one
        steps = range(len(driven.states))
        if not ruleset.spec.hidden_information and len(steps) > 300:
            steps = sorted(rng.sample(steps, 300))
        orders = []  # the raw outcomes of shuffles up to the step, as JSON text
        for record, state in zip(driven.records, driven.states, strict=True):
            outcome = record["payload"].get("outcome") if record["kind"] == "chance" else None
            if outcome and record["payload"]["spec"]["kind"] in SHUFFLE_KINDS and len(outcome) >= 4:
                orders.append(canonical_json(outcome))
            if record["kind"] == "match_ended" or record["seq"] not in steps:
                continue  # once ended, the seed is public: anyone can re-derive the shuffles
            where = f"playout {summary.index}, after seq {record['seq']}"
            held = {seat: set(hook(state, seat)) for seat in [*seats, None]} if hook else {}
            for viewer in [*seats, None]:
                view = ruleset.view(state, viewer)
                text = canonical_json(view)
                assert json.loads(text) == view, f"{where}: the view of {viewer} is no plain JSON"
                leaked = [order for order in orders if order in text]
                assert not leaked, f"{where}: the view of {viewer} shows a raw shuffle {leaked[0]}"
                if hook:
                    check_hidden_items(ruleset, state, viewer, held, text, where)


def check_hidden_items(ruleset, state, viewer, held, text, where):
    """The viewer sees what it holds, and nothing that only others (or nobody) hold."""
    mine = held[viewer] if viewer is not None else set()
    others = set().union(*(items for seat, items in held.items() if seat != viewer)) - mine
    assert all(isinstance(item, str) and item for item in mine | others), "items are non-empty strings"
    leaks = sorted(item for item in others if canonical_json(item) in text)
    assert not leaks, f"{where}: the view of seat {viewer} shows {leaks}, held by another seat or nobody"
    missing = sorted(item for item in mine if canonical_json(item) not in text)
    assert not missing, f"{where}: hidden_items of seat {viewer} names {missing}, not in its own view"
    if viewer is not None:
        actions = canonical_json(ruleset.legal_actions(state, viewer))
        leaks = sorted(item for item in others if canonical_json(item) in actions)
        assert not leaks, f"{where}: the legal actions of seat {viewer} show {leaks}"


# -- 7. no Django under games/ -------------------------------------------------------------------------
NO_DJANGO = r'''
import importlib, importlib.abc, pkgutil, sys, traceback

class NoDjango(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("django", "rest_framework"):
            raise ImportError(f"import {name}: nothing under games/ may import Django")
        return None

sys.meta_path.insert(0, NoDjango())
try:
    import django
except ImportError:
    pass
else:
    sys.exit("the Django blocker does not work")

import games
failures, names = [], ["games"]
def failed(name):
    failures.append(f"{name}:\n{traceback.format_exc()}")
names += [info.name for info in pkgutil.walk_packages(games.__path__, "games.", onerror=failed)]
for name in names + ["tests.conformance.oracle_game", "tests.conformance.toy_nim"]:
    try:
        importlib.import_module(name)
    except BaseException:
        failed(name)
print("\n".join(names))
if failures:
    sys.exit("\n".join(failures))
'''


def test_7_every_module_under_games_imports_without_django():
    done = subprocess.run([sys.executable, "-c", NO_DJANGO], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-4000:]
    imported = done.stdout.split()
    assert {"games.engine.protocol", "games.engine.log", "games.engine.runner"} <= set(imported)
    assert set(registry.BUILTIN_GAMES) <= set(imported)


# -- 8. every playout log validates --------------------------------------------------------------------
def test_8_every_playout_log_validates_ended_and_chance_verified(case):
    for game in playouts(case.key):
        report = game.report
        assert report["ok"], f"playout {game.index}: seq {report['first_bad_seq']}: {report['reason']}"
        assert report["ended"] and report["chance_verified"], f"playout {game.index}: {report}"
        assert report["events"] == game.events


# -- forfeits --------------------------------------------------------------------------------------------
def test_a_seat_that_resigns_leaves_a_valid_log_and_places_last(case):
    """A resignation (a forfeit at any moment, whoever is to act) at the half-way point of the
    detailed playouts, and at the first event and 3 random ones of two more playouts."""
    ruleset = case.ruleset
    rng = random.Random(9)
    matches = [(s, d) for s, d in detailed(case.key) if s.index % 2]
    for summary, _ in detailed(case.key)[:2]:
        for seq in {1, *rng.sample(range(1, summary.events - 1), min(3, summary.events - 2))}:
            seat = rng.randrange(summary.players)
            matches.append((summary, drive(ruleset, summary.players, seed=summary.seed,
                                           bot_seed=summary.bot_seed, match_id=summary.match_id,
                                           resign={seq: seat}, options=case.options)))
    for summary, driven in matches:
        records = driven.records
        where = f"playout {summary.index} with a resignation"
        forfeits = [r for r in records if r["kind"] == "forfeit"]
        assert forfeits, f"{where}: the resignation was not written"
        report = validate(records, get_ruleset=get_ruleset)
        assert report.ok and report.ended, f"{where}: {report.to_json()}"
        assert len(records) <= case.bound(summary.players), where
        placings = records[-1]["payload"]["result"]["placings"]
        seat = forfeits[0]["seat"]
        assert placings[seat] == max(placings), f"{where}: resigned seat {seat} placed {placings}"


class GarbageOnce(RandomBot):
    """A random bot that answers its ``at``-th request with garbage (once)."""

    name = "garbage-once"

    def __init__(self, ruleset, seed, at):
        super().__init__(ruleset, seed)
        self.at, self.asked = at, 0

    def act(self, message):
        self.asked += 1
        if self.asked - 1 == self.at:
            return {"type": "no such action"}
        return super().act(message)


def test_garbage_from_a_bot_becomes_a_forfeit_and_the_match_goes_on(case):
    """games.engine.runner: an illegal answer is recorded as a forfeit, the match goes on to
    its end, and the log validates (also when the forfeit closes a simultaneous choice)."""
    ruleset, counts = case.ruleset, case.counts
    for players in sorted({counts[0], counts[-1]}):
        for seat in sorted({0, players - 1}):
            for at in range(3):
                bots = {s: RandomBot(ruleset, 7 * s + at) for s in range(players)}
                bots[seat] = GarbageOnce(ruleset, seat, at)
                where = f"{players} players, seat {seat} sends garbage at its request {at}"
                try:
                    records = playout(ruleset, players, seed=seed_for(at, "garbage"), bots=bots,
                                      options=case.options, max_events=case.bound(players))
                except Exception:
                    pytest.fail(f"{where}: the runner crashed:\n{traceback.format_exc()}")
                report = validate(records, get_ruleset=get_ruleset)
                assert report.ok and report.ended, f"{where}: {report.to_json()}"
                if bots[seat].asked > at:
                    assert any(r["kind"] == "forfeit" and r["seat"] == seat for r in records), where
