"""The games under conformance test, and shared playouts.

Every ruleset in ``registry.builtin()`` is tested, plus the test-only games (TEST_GAMES,
registered while a conformance test runs): Oracle ("test-oracle"), which carries everything the
contract must carry, and Nim ("test-nim", toy_nim/), a new game made of its package, its schemas
and its rules page alone. A ruleset with a ``conformance_options()`` hook
(a static method returning option dicts, e.g. Wizard Kings' scenarios) is also played with each
of those options: a "case" is a game with one option set, its key "name[option=value,...]". The registry is read at collection time but guarded: if a game module
fails to import, the suite still collects, the other games are still tested, and the broken
module shows as a pseudo game "<module> failed to import" whose every test fails.
"""
from __future__ import annotations

import hashlib
import importlib
import multiprocessing
import traceback
from dataclasses import dataclass
from functools import lru_cache

import pytest

from games.engine import chance, registry
from games.engine.bots import RandomBot
from games.engine.log import (GENESIS, Folder, canonical_json, created_payload, evidence_text, seal,
                              validate)
from games.engine.protocol import Chance, Ended, Event, IllegalAction, InvalidOptions, Ruleset, ToAct
from games.engine.runner import hello_message, playout

from .oracle_game import ORACLE
from .toy_nim import NIM

TEST_GAMES = {ORACLE.spec.name: ORACLE, NIM.spec.name: NIM}  # a test game's one registry line


@pytest.fixture(autouse=True)
def test_games_registered():
    """The test games are in the registry during the conformance tests only (other suites in
    the same session, e.g. an API listing the games, never see them)."""
    before = {name: registry._RULESETS.get(name) for name in TEST_GAMES}
    for ruleset in TEST_GAMES.values():
        registry.register(ruleset)
    yield
    for name, ruleset in before.items():
        if ruleset is None:
            registry._RULESETS.pop(name, None)
        else:
            registry._RULESETS[name] = ruleset


def _builtin_games() -> tuple[dict[str, Ruleset], dict[str, str]]:
    """The builtin rulesets by name, and {pseudo game id: traceback} for modules that fail.

    registry.builtin() imports every builtin module or raises; when it raises, each module is
    imported on its own so that one half-written game does not hide the others."""
    try:
        return {r.spec.name: r for r in registry.builtin()}, {}
    except Exception:
        pass
    broken = {}
    for module in registry.BUILTIN_GAMES:
        try:
            importlib.import_module(module)
        except Exception:
            broken[f"{module} failed to import"] = traceback.format_exc()
    rulesets = {name: ruleset for name, ruleset in registry._RULESETS.items()
                if type(ruleset).__module__.split(".")[0] == "games"}
    return rulesets, broken


BUILTIN, BROKEN = _builtin_games()
GAME_NAMES = sorted(BUILTIN) + sorted(BROKEN) + sorted(TEST_GAMES)


def ruleset_named(name: str) -> Ruleset:
    """The ruleset under test, looked up without registry.get (which fails for every name
    while any builtin module is broken)."""
    if name in BROKEN:
        pytest.fail(BROKEN[name])
    return TEST_GAMES.get(name) or BUILTIN[name]


def get_ruleset(name: str) -> Ruleset:
    """``get_ruleset`` for Folder and validate."""
    return TEST_GAMES.get(name) or BUILTIN.get(name) or registry.get(name)


@pytest.fixture(params=GAME_NAMES)
def ruleset(request) -> Ruleset:
    return ruleset_named(request.param)


def case_key(name: str, options: dict | None) -> str:
    if not options:
        return name
    return f"{name}[{','.join(f'{k}={v}' for k, v in sorted(options.items()))}]"


def _variants(name: str) -> list[dict]:
    hook = getattr(BUILTIN.get(name), "conformance_options", None)
    return [dict(options) for options in hook()] if hook else []


CASES = {case_key(n, o): (n, o) for n in GAME_NAMES for o in [None, *_variants(n)]}


@dataclass
class Case:
    """A game under test with one option set (None: the defaults)."""

    key: str
    name: str
    options: dict | None
    ruleset: Ruleset

    @property
    def counts(self) -> list[int]:
        return case_player_counts(self.key)

    @property
    def playouts(self) -> int:
        return PLAYOUTS if self.options is None else VARIANT_PLAYOUTS

    def bound(self, players: int) -> int:
        return event_bound(self.ruleset, players, self.options)


def case_named(key: str) -> Case:
    name, options = CASES[key]
    return Case(key, name, options, ruleset_named(name))


@pytest.fixture(params=list(CASES))
def case(request) -> Case:
    return case_named(request.param)


# -- bounds and playouts -------------------------------------------------------------------------
# The longest log (records, match_created and match_ended included) a match may write. A game
# states its own bound with a ``max_events(players, options)`` hook, or is listed here.
EVENT_BOUNDS = {
    # D13: a round ends after turn_limit rolls; a roll is 1 chance event plus at most one move per
    # wizard returning home, one last move and a pass; plus one forfeit per seat and the envelope.
    "trap-the-wizard": lambda players, o: 2 + players + o.rounds * o.turn_limit * (o.wizards + 3),
}
DEFAULT_EVENT_BOUND = 20_000  # a game neither listed nor with a max_events hook
PLAYOUTS = 200
VARIANT_PLAYOUTS = 12  # a variant (conformance_options) is played less: its rules are mostly the game's
EPOCH = "1970-01-01T00:00:00+00:00"  # the time of every record: logs depend only on seeds
KEPT = 8  # playouts whose whole log is kept (the others leave a Summary)


def event_bound(ruleset: Ruleset, players: int, options: dict | None = None) -> int:
    bound = getattr(ruleset, "max_events", None) or EVENT_BOUNDS.get(ruleset.spec.name)
    return bound(players, ruleset.options(options)) if bound else DEFAULT_EVENT_BOUND


def player_counts(ruleset: Ruleset) -> list[int]:
    return list(range(ruleset.spec.min_players, ruleset.spec.max_players + 1))


@lru_cache(maxsize=None)
def case_player_counts(key: str) -> list[int]:
    """The player counts a case can be set up for (a variant may fix the count)."""
    name, options = CASES[key]
    ruleset = ruleset_named(name)
    if options is None:
        return player_counts(ruleset)
    counts = settable_counts(ruleset, options, player_counts(ruleset))
    assert counts, f"{key}: no player count can be set up"
    return counts


def settable_counts(ruleset: Ruleset, options: dict, counts) -> list[int]:
    """Those of ``counts`` the ruleset can be set up for with ``options``."""
    settable = []
    for players in counts:
        try:
            ruleset.setup(players, ruleset.options(options))
        except InvalidOptions:
            continue
        settable.append(players)
    return settable


def seed_for(index: int, salt: str = "") -> bytes:
    return hashlib.sha256(f"conformance|{salt}|{index}".encode()).digest()


@dataclass
class Summary:
    """One random playout: its parameters, its shape, and validate()'s verdict on its log."""

    index: int
    players: int
    seed: bytes
    bot_seed: int
    match_id: str
    events: int
    kinds: dict  # kind -> count
    last_kind: str
    head_hash: str  # the hash of the last record: equal logs have equal head hashes
    chance_digest: str  # sha256 over the chance events' payloads
    report: dict  # games.engine.log.validate(records).to_json()
    records: list | None  # the whole log for the first KEPT playouts


def _play_one(key: str, index: int) -> Summary:
    """Playout number ``index`` of case ``key`` with games.engine.runner.playout, validated."""
    case = case_named(key)
    counts = case.counts
    players, seed, match_id = counts[index % len(counts)], seed_for(index, case_salt(key)), f"m{index}"
    records = playout(case.ruleset, players, seed=seed, bot_seed=index, match_id=match_id,
                      options=case.options, max_events=case.bound(players))
    kinds: dict[str, int] = {}
    for record in records:
        kinds[record["kind"]] = kinds.get(record["kind"], 0) + 1
    chances = [r["payload"] for r in records if r["kind"] == "chance"]
    return Summary(index, players, seed, index, match_id, len(records), kinds, records[-1]["kind"],
                   records[-1]["hash"], hashlib.sha256(canonical_json(chances).encode()).hexdigest(),
                   validate(records, get_ruleset=get_ruleset).to_json(),
                   records if index < KEPT else None)


def case_salt(key: str) -> str:
    """The defaults keep their seeds; a variant's playouts get their own."""
    name, options = CASES[key]
    return "" if options is None else key


def _play_one_safely(args):
    try:
        return _play_one(*args)
    except BaseException as exc:  # a crashing playout fails the tests that use it, with its story
        return f"playout {args[1]} raised {type(exc).__name__}:\n{traceback.format_exc()}"


# The timeout of a module whose tests ask for ``playouts``: whichever test asks first plays them
# all (Wizard Kings': 191 s with the second core busy, and over pytest.ini's 300 s in a
# test_schemas test with the load average at 4, beside another suite and a benchmark).
PLAYOUTS_TIMEOUT = pytest.mark.timeout(1200)


@lru_cache(maxsize=None)
def playouts(name: str) -> tuple[Summary, ...]:
    """``PLAYOUTS`` random playouts of case ``name`` (a game, or a game with a variant's
    options: ``VARIANT_PLAYOUTS``), player counts cycling through the case's range, played by
    two processes (the suite must stay near a minute on two cores)."""
    total = case_named(name).playouts
    jobs = [(name, index) for index in range(total)]
    try:
        with multiprocessing.get_context("fork").Pool(2) as pool:
            results = pool.map(_play_one_safely, jobs, chunksize=4)
    except (ValueError, OSError):  # no fork on this platform: one process
        results = [_play_one_safely(job) for job in jobs]
    failures = [r for r in results if isinstance(r, str)]
    if failures:
        pytest.fail(f"{len(failures)} of {total} playouts of {name} crashed; the first:\n{failures[0]}")
    return tuple(results)


# -- a step-by-step driver that keeps every live state --------------------------------------------
@dataclass
class Driven:
    """A match played by ``drive``: its records, the live state after each record, and each
    state's encoding taken when it was made (to catch an ``apply`` that mutates old states)."""

    records: list
    states: list
    encodings: list


def drive(ruleset: Ruleset, players: int, *, seed: bytes, bot_seed: int = 0, match_id: str = "d",
          resign: dict[int, int] | None = None, max_events: int | None = None,
          options: dict | None = None) -> Driven:
    """Play like games.engine.runner.playout with random bots, but one event at a time (asking
    ``next`` again after every event) and keeping every live state.

    ``resign`` maps a seq to a seat that resigns (a forfeit event) at that seq, unless the game
    has ended by then."""
    resign = dict(resign or {})
    raw_options, options = options, ruleset.options(options)
    bots = {s: RandomBot(ruleset, bot_seed * 1000 + s) for s in range(players)}
    for seat, bot in bots.items():
        bot.hello(hello_message(ruleset, options, players, seat))
    payload = created_payload(ruleset=ruleset, options=options, players=players,
                              seats=[{"bot": bots[s].name} for s in range(players)],
                              seed_commitment=chance.commitment(seed))
    first = ruleset.setup(players, options)
    driven = Driven([seal(match=match_id, seq=0, kind="match_created", seat=None, payload=payload,
                          time=EPOCH, prev_hash=GENESIS)], [first], [encoded(ruleset, first)])
    bound = max_events or event_bound(ruleset, players, raw_options)

    def write(kind, seat, body):
        records, state = driven.records, driven.states[-1]
        records.append(seal(match=match_id, seq=len(records), kind=kind, seat=seat, payload=body,
                            time=EPOCH, prev_hash=records[-1]["hash"]))
        if kind != "match_ended":
            state = ruleset.apply(state, Event(kind, seat, body))
        driven.states.append(state)
        driven.encodings.append(encoded(ruleset, state))

    while driven.records[-1]["kind"] != "match_ended":
        if len(driven.records) >= bound:
            raise AssertionError(f"{ruleset.spec.name} did not end within {bound} events")
        state, seq = driven.states[-1], len(driven.records)
        nxt = ruleset.next(state)
        if seq in resign and not isinstance(nxt, Ended):
            write("forfeit", resign.pop(seq), {"reason": "resigned"})
        elif isinstance(nxt, Chance):
            write("chance", None, {"spec": nxt.spec,
                                   "outcome": chance.derive(seed, match_id, seq, nxt.spec)})
        elif isinstance(nxt, ToAct):
            seat = nxt.seats[0]
            action = bots[seat].act({"type": "act", "seat": seat, "view": ruleset.view(state, seat),
                                     "legal_actions": ruleset.legal_actions(state, seat)})
            try:
                ruleset.check_action(state, seat, action)
            except IllegalAction as exc:
                write("forfeit", seat, {"reason": "illegal_action", "detail": exc.reason,
                                        "sent": evidence_text(action)})
            else:
                write("action", seat, {"action": action})
        else:
            write("match_ended", None, {"result": nxt.result.to_json(), "seed": seed.hex()})
    return driven


def encoded(ruleset: Ruleset, state) -> str:
    """A state as canonical JSON text, for comparing states."""
    return canonical_json(ruleset.encode(state))


def fold(records: list[dict], *, seed: bytes | None = None):
    """Yield (record, state after it) for every record, folding with games.engine.log.Folder."""
    folder = Folder(records[0], get_ruleset=get_ruleset)
    yield records[0], folder.state
    for record in records[1:]:
        folder.step(record, seed=seed)
        yield record, folder.state


@lru_cache(maxsize=None)
def detailed(name: str) -> tuple:
    """Playouts of case ``name`` re-played by ``drive`` to keep their live states, one per
    player count (the first playouts cycle through the counts), at least two; every other one
    has a seat resign half-way. Each is (summary, driven); without a resignation
    ``driven.records`` is the runner's log."""
    case = case_named(name)
    games = []
    count = len(case.counts) if case.options is None else max(2, len(case.counts))
    for summary in playouts(name)[:count]:
        resign = {summary.events // 2: summary.index % summary.players} if summary.index % 2 else None
        games.append((summary, drive(case.ruleset, summary.players, seed=summary.seed,
                                     bot_seed=summary.bot_seed, match_id=summary.match_id,
                                     resign=resign, options=case.options)))
    return tuple(games)
