"""The hash-chained event log as plain data: sealing records, folding them, validating a replay.

A record is one line of an exported replay (JSON Lines) and one row of the event table:

    {"match": id, "seq": n, "kind": k, "seat": s|None, "payload": {...}, "time": iso,
     "prev_hash": hex, "hash": hex}

``hash = sha256(canonical JSON of every other field)``; ``prev_hash`` of seq 0 is GENESIS. Envelope
kinds: match_created (seq 0: ruleset, version, options, players, seats, seed_commitment),
action, chance, forfeit, match_ended (result, seed) and match_aborted (reason, seed).

This module has no Django import, so anyone can validate an exported replay offline:
``python -m games.engine.log replay.jsonl``.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import json
import operator
import re
import sys
import threading
from dataclasses import dataclass, field
from json.encoder import c_make_encoder, encode_basestring
from typing import Callable, Iterable, Mapping

from . import chance, registry
from .protocol import Chance, Ended, Event, IllegalAction, InvalidOptions, Ruleset, ToAct

GENESIS = "0" * 64
ENGINE_KINDS = ("action", "chance", "forfeit")
_ENGINE_KIND_SET = frozenset(ENGINE_KINDS)  # membership of a set: one hash, not three compares
END_KINDS = ("match_ended", "match_aborted")
KINDS = ("match_created", *ENGINE_KINDS, *END_KINDS)
_KIND_TEXTS = {kind: json.dumps(kind) for kind in KINDS}  # their canonical JSON, for validate
# "clock": the time the bot took and its bank; "fault": why a default action was played for it.
ACTION_KEYS = frozenset({"action", "clock", "fault"})
_PLAIN_ACTION_KEYS = ACTION_KEYS - {"fault"}  # an action a bot chose (validate's common case)
_CHANCE_KEYS = frozenset({"spec", "outcome"})
FORFEIT_REASONS = ("timeout", "crash", "illegal_action", "garbage", "resigned", "output_limit")
# Forfeits for what a seat did when it was asked to act (bots/sandbox has its own, narrower
# FAULT_REASONS: the faults of a process); "resigned" may come at any time.
WHEN_ASKED_REASONS = tuple(reason for reason in FORFEIT_REASONS if reason != "resigned")
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")  # NUL and lone surrogates (see ``storable``)


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              allow_nan=False)


def _new_encoder():
    """The C encoder JSONEncoder.encode builds on each call for the canonical settings."""
    return c_make_encoder({}, _CANONICAL.default, encode_basestring, None, ":", ",", True, False,
                          False)


class _Encoder(threading.local):
    """One canonical encoder per thread, kept between calls: its map of the containers being
    written (circular references) is empty after every call that succeeds."""

    def __init__(self):
        self.encode = _new_encoder() if c_make_encoder is not None else None


_ENCODER = _Encoder()


try:  # optional: the games package needs nothing but Python (pyproject.toml); see canonical_json
    import orjson as _orjson
except ImportError:  # pragma: no cover - the wheel on a bare Python
    _orjson = None
else:
    _ORJSON_DUMPS = _orjson.dumps
    # Sorted keys; dataclasses, datetimes and subclasses of str, int, dict and list are handed to
    # ``default`` (none: TypeError), so they take json's path and are written or refused as it does.
    _ORJSON_OPTIONS = (_orjson.OPT_SORT_KEYS | _orjson.OPT_PASSTHROUGH_DATACLASS
                       | _orjson.OPT_PASSTHROUGH_DATETIME | _orjson.OPT_PASSTHROUGH_SUBCLASS)
    _ORJSON_REFUSALS = (TypeError, _orjson.JSONEncodeError)


def _orjson_kept(text: str) -> bool:
    """True where orjson's ``text`` is json's, character for character: no float (orjson writes
    1e-7 where json writes 1e-07; every float's text has a "." or a signed exponent) and no null
    (orjson writes NaN and the infinities as null, where json refuses them). Four substring
    searches in C, cheaper than one regular expression; a string that merely contains one of
    them (a "techno-mage") only takes json's path. (Searching the decoded str: a search of
    bytes goes through the buffer protocol and costs four times as much.)"""
    return "." not in text and "null" not in text and "e-" not in text and "e+" not in text


def _orjson_text(value) -> str | None:
    """orjson's text of ``value`` where it is json's canonical text (``_orjson_kept``), else None
    (no orjson, a value it refuses, or a float or null in the text): canonical_json's fast path,
    which validate also takes for every payload it hashes."""
    if _orjson is None:
        return None
    try:
        text = _ORJSON_DUMPS(value, option=_ORJSON_OPTIONS).decode()
    except _ORJSON_REFUSALS:
        return None
    return text if _orjson_kept(text) else None


def canonical_json(value) -> str:
    """One spelling per value: sorted keys, no spaces, UTF-8 kept as is.

    Exactly ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    allow_nan=False)``, spelled and failing alike for JSON values (tests/games/engine/test_log.py
    compares them, every code point included), without building an encoder per call: every
    record hash and every comparison of a validation writes canonical JSON.

    Where orjson is installed (requirements.txt; the games package runs without it) it writes
    the text, about ten times faster than json's encoder on a small payload, and its text is
    kept only where it cannot differ from json's: no float, no null, no lone surrogate, no int
    past 64 bits, no subclass (orjson refuses the last three). Anything else is written by
    json's encoder as before. Of Python objects that are not JSON, orjson writes two that json
    refuses: uuid.UUID and enum members that are neither str nor int."""
    if isinstance(value, str):
        return encode_basestring(value)
    text = _orjson_text(value)
    if text is not None:
        return text
    local = _ENCODER
    if local.encode is None:  # a Python without the _json accelerator
        return _CANONICAL.encode(value)
    try:
        return "".join(local.encode(value, 0))
    except BaseException:
        local.encode = _new_encoder()  # a failed call may leave containers marked as open
        raise


def evidence_text(value, limit: int = 500) -> str:
    """What a bot sent, as bounded text for a forfeit's evidence: JSON with every non-ASCII
    character escaped, so NUL, lone surrogates and 1e400 are stored as harmless text (PostgreSQL's
    jsonb refuses NUL and rewrites numbers such as 1e16, which would break the hash chain)."""
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text[:limit]


def storable(value):
    """``value`` (bot-made evidence: JSON of strings, numbers, lists, objects) with NUL and lone
    surrogates in strings replaced by U+FFFD, so any database stores and returns it unchanged."""
    if isinstance(value, str):
        return _UNSTORABLE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [storable(v) for v in value]
    return value


def record_hash(record: dict) -> str:
    """sha256 over the canonical JSON of the record without its own hash."""
    return hashlib.sha256(_record_json(record).encode()).hexdigest()


def _record_json(record: dict, payload_text: str | None = None) -> str:
    """The canonical JSON of the record without its own hash. The envelope of a well-formed
    record (text, ints, a seat or null) is written out here in canonical key order, so only the
    payload goes through the encoder (``payload_text``: its canonical JSON, written already);
    anything else takes the encoder whole, as it always did."""
    match, seq, kind, seat = record["match"], record["seq"], record["kind"], record["seat"]
    payload, time, prev_hash = record["payload"], record["time"], record["prev_hash"]
    if (type(match) is str and type(kind) is str and type(time) is str and type(prev_hash) is str
            and type(seq) is int and (seat is None or type(seat) is int)):
        if payload_text is None:
            payload_text = canonical_json(payload)
        return (f'{{"kind":{encode_basestring(kind)},"match":{encode_basestring(match)},'
                f'"payload":{payload_text},"prev_hash":{encode_basestring(prev_hash)},'
                f'"seat":{"null" if seat is None else int.__repr__(seat)},'
                f'"seq":{int.__repr__(seq)},"time":{encode_basestring(time)}}}')
    return canonical_json({"match": match, "seq": seq, "kind": kind, "seat": seat,
                           "payload": payload, "time": time, "prev_hash": prev_hash})


def seal(*, match: str, seq: int, kind: str, seat: int | None, payload: dict, time: str,
         prev_hash: str) -> dict:
    """A complete record, its hash computed."""
    return sealed(match=match, seq=seq, kind=kind, seat=seat, payload=payload, time=time,
                  prev_hash=prev_hash)[0]


def sealed(*, match: str, seq: int, kind: str, seat: int | None, payload: dict, time: str,
           prev_hash: str) -> tuple[dict, str]:
    """``seal``'s record and the canonical JSON of its payload, which the hash was written from
    (replays.services.event_append stores that text, not a second encoding of the payload)."""
    record = {"match": str(match), "seq": seq, "kind": kind, "seat": seat, "payload": payload,
              "time": time, "prev_hash": prev_hash}
    payload_text = canonical_json(payload)
    record["hash"] = hashlib.sha256(_record_json(record, payload_text).encode()).hexdigest()
    return record, payload_text


class LogError(Exception):
    """The first thing wrong with a log: its seq and the reason."""

    def __init__(self, seq: int | None, reason: str):
        super().__init__(f"seq {seq}: {reason}")
        self.seq = seq
        self.reason = reason


def created_payload(*, ruleset: Ruleset, options, players: int, seats: list[dict],
                    seed_commitment: str) -> dict:
    """The payload of match_created."""
    return {"ruleset": ruleset.spec.name, "version": ruleset.spec.version,
            "options": ruleset.options_json(options), "players": players, "seats": seats,
            "seed_commitment": seed_commitment}


class Folder:
    """Folds the records of one match into its state, checking each on the way.

    ``step`` refuses (LogError) a record the rules do not allow where it stands; it never checks
    hashes (``validate`` does) and derives chance outcomes only when it is given the seed.
    """

    def __init__(self, created: dict, *, get_ruleset: Callable[[str], Ruleset] = registry.get,
                 in_place: bool = False):
        if created.get("seq") != 0 or created.get("kind") != "match_created":
            raise LogError(created.get("seq"), "a log starts with match_created at seq 0")
        payload = created["payload"]
        try:
            self.ruleset = get_ruleset(payload["ruleset"])
            if payload["version"] != self.ruleset.spec.version:
                current, self.ruleset = self.ruleset.spec.version, self.ruleset.edition(payload["version"])
                if self.ruleset is None:
                    raise LogError(0, f"{payload['ruleset']} version {payload['version']} is not "
                                      f"available (this service runs {current})")
            self.options = self.ruleset.options(payload["options"])
            self.ruleset.check_players(payload["players"])
            self.state = self.ruleset.setup(payload["players"], self.options)
        except (registry.UnknownRuleset, InvalidOptions, KeyError, TypeError) as exc:
            raise LogError(0, f"bad match_created: {exc}") from None
        self.match_id = str(created["match"])
        self.players = payload["players"]
        self.seed_commitment = payload.get("seed_commitment")
        self.seq = 0
        self.head_hash = created.get("hash", GENESIS)
        self.head_time = created.get("time")  # the next event may not be written before it
        self.ended = False
        self.result = None
        self.in_place = in_place
        self._derive, self._derive_seed = None, None  # the seed's derivation (_derivation)
        self._flat_due = None  # the rules' chance spec last found flat (_step_chance)
        self._text_due, self._due_text = None, None  # and the last one written (_derived_text)

    @property
    def in_place(self) -> bool:
        """True: each record changes ``state`` itself (Ruleset.apply_in_place), no copy per
        event; for a fold whose caller reads only the state it stands at, never one it held
        before the last step (a step read, a validation). False (the default): every step
        makes a new state and leaves the one before as it was (the frames of a replay compare
        the two; a live match hands states to bots)."""
        return self._apply == self.ruleset.apply_in_place

    @in_place.setter
    def in_place(self, value: bool) -> None:
        # looked up once: a fold applies every record
        self._apply = self.ruleset.apply_in_place if value else self.ruleset.apply
        # an in-place fold checks and applies an action in one call where the game can (the
        # optional Ruleset.act_in_place), and lends one Event to every apply (apply_in_place)
        self._act = getattr(self.ruleset, "act_in_place", None) if value else None
        self._lent = Event("action", None, {}) if value else None

    @classmethod
    def resume(cls, created: dict, *, seq: int, state, head_hash: str,
               get_ruleset: Callable[[str], Ruleset] = registry.get,
               in_place: bool = False) -> "Folder":
        """A folder standing after event ``seq`` with ``state`` (from a snapshot; with
        ``in_place``, a state nobody else holds)."""
        folder = cls(created, get_ruleset=get_ruleset, in_place=in_place)
        folder.state, folder.seq, folder.head_hash = state, seq, head_hash
        return folder

    def next(self):
        return self.ruleset.next(self.state)

    def advance(self, record: dict) -> None:
        """Apply a stored record without checking it (replays of the service's own log; the
        validator re-checks everything)."""
        self.advance_all((record,))

    def advance_all(self, records: Iterable[dict]) -> None:
        """``advance`` every record in turn. One loop holds the state and the rules' apply in
        locals and writes the folder's head once, after the last record: a fold of thousands of
        events pays no method call and no attribute writes per event (bench/fold.py). If a
        record fails to apply, the folder stands after the record before it, as with
        ``advance`` (with ``in_place``, on the state that record left behind)."""
        state, apply, engine_kinds = self.state, self._apply, _ENGINE_KIND_SET
        # In place, one Event is lent to every apply, its fields rewritten (Ruleset.apply_in_place):
        # no event made and dropped per record.
        lent = self._lent
        fields = None if lent is None else lent.__dict__
        last = None
        try:
            for record in records:
                kind = record["kind"]
                if kind in engine_kinds:
                    if fields is None:
                        state = apply(state, Event(kind, record["seat"], record["payload"]))
                    else:
                        fields["kind"], fields["seat"] = kind, record["seat"]
                        fields["payload"] = record["payload"]
                        state = apply(state, lent)
                elif kind in END_KINDS:
                    self.ended, self.result = True, record["payload"].get("result")
                last = record
        finally:
            if last is not None:
                self.state = state
                self.seq, self.head_hash, self.head_time = last["seq"], last["hash"], last.get("time")

    def step(self, record: dict, *, seed: bytes | None = None) -> None:
        """Check ``record`` against the rules where the fold stands, then apply it."""
        seq = record["seq"]
        if seq != self.seq + 1:
            raise LogError(seq, f"expected seq {self.seq + 1}")
        self._step(seq, record["kind"], record["seat"], record["payload"], seed)
        self.seq = seq
        self.head_hash = record.get("hash", self.head_hash)
        self.head_time = record.get("time", self.head_time)

    def _step(self, seq: int, kind, seat, payload, seed: bytes | None, text: str | None = None) -> None:
        """``step`` of the event after the head, its fields apart: ``validate`` has them in hand
        and checks the seq itself, and keeps no head but the state. ``text``: the payload's
        canonical JSON where validate has written it for the hash (a chance event is then
        checked by one comparison of texts, ``_derived_text``). ``validate`` writes this
        method's action case and its chance case by text out in its own loop, under the same
        conditions: a change here goes there too (tests/games/engine/test_log.py holds the two
        to the same verdicts)."""
        if self.ended:
            raise LogError(seq, "event after the end of the match")
        check = _CHECKS.get(kind) if type(kind) is str else None
        if check is None:
            raise LogError(seq, f"unexpected event kind {kind!r}")
        if not isinstance(payload, dict):
            raise LogError(seq, "payload is not an object")
        act = self._act
        try:
            if (act is not None and kind == "action" and type(seat) is int
                    and 0 <= seat < self.players and "fault" not in payload
                    and "action" in payload and ACTION_KEYS.issuperset(payload)):
                # checked and applied in one call (Ruleset.act_in_place): most records of a
                # validation, so without the table's call
                self.state = act(self.state, seat, payload)
                return
            if not (text is not None and kind == "chance" and seat is None and seed is not None
                    and text == self._derived_text(seq, seed, self.state)):
                check(self, seat, payload, seq, seed)
        except IllegalAction as exc:
            raise LogError(seq, exc.reason) from None
        if kind in _ENGINE_KIND_SET:
            lent = self._lent
            if lent is None:
                self.state = self._apply(self.state, Event(kind, seat, payload))
            else:
                fields = lent.__dict__
                fields["kind"], fields["seat"], fields["payload"] = kind, seat, payload
                self.state = self._apply(self.state, lent)
        else:
            self.ended = True
            self.result = payload.get("result")

    # The checks of ``step``, one a kind (the table _CHECKS after the class): each raises
    # IllegalAction with the reason a record may not stand where the fold is.

    def _step_action(self, seat, payload: dict, seq: int, seed) -> None:
        """An action that ``_step`` did not check and apply in one call (act_in_place)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalAction(f"action names no seat of this match: {seat!r}")
        self._check_action(payload, seat)  # asks the rules who acts now

    def _step_forfeit(self, seat, payload: dict, seq: int, seed) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalAction(f"forfeit names no seat of this match: {seat!r}")
        self._check_forfeit(self.ruleset.next(self.state), payload, seat)

    def _derived_text(self, seq: int, seed: bytes, state) -> str | None:
        """The canonical JSON of the chance payload due now, the rules' spec and the outcome
        derived from ``seed``, or None where none is due (or the rules' spec is not JSON). A
        payload whose canonical JSON is this text is the one ``_step_chance`` accepts: the same
        as the log spells it, key for key and type for type (every chance event of a
        validation; anything else takes ``_step_chance``, which says why)."""
        nxt = self.ruleset.next(state)
        if not isinstance(nxt, Chance):
            return None
        due = nxt.spec
        if due is not self._text_due:  # another spec object of the rules' (mostly one a game)
            try:
                self._due_text = canonical_json(due)
            except (TypeError, ValueError):
                self._due_text = None
            self._text_due = due
        if self._due_text is None:
            return None
        try:
            expected = self._derivation(seed)(seq, due)  # a list of ints (checks the spec first)
        except IllegalAction:
            return None
        return f'{{"outcome":[{",".join(map(str, expected))}],"spec":{self._due_text}}}'

    def _derivation(self, seed: bytes) -> Callable[[int, dict], list[int]]:
        """The chance outcomes ``seed`` derives (chance.Deriver): its bound __call__, kept while
        the seed is the same; a call of the instance itself costs a fifth of a derivation more."""
        if seed != self._derive_seed:
            self._derive = chance.Deriver(seed, self.match_id).__call__
            self._derive_seed = seed
        return self._derive

    def _step_ended(self, seat, payload: dict, seq: int, seed) -> None:
        if seat is not None:
            raise IllegalAction(f"a match_ended event belongs to no seat, got seat {seat!r}")
        _check_keys(payload, {"result", "seed"} | (payload.keys() & {"signature"}), "match_ended")
        nxt = self.ruleset.next(self.state)
        if not isinstance(nxt, Ended):
            raise IllegalAction(f"match_ended but the game goes on ({type(nxt).__name__})")
        if not _same(payload["result"], nxt.result.to_json()):
            raise IllegalAction(f"recorded result {payload['result']} differs from "
                                f"the fold's {nxt.result.to_json()}")

    def _step_aborted(self, seat, payload: dict, seq: int, seed) -> None:
        """No result, whatever the payload claims."""
        if seat is not None:
            raise IllegalAction(f"a match_aborted event belongs to no seat, got seat {seat!r}")
        _check_keys(payload, {"reason", "seed"} | (payload.keys() & {"signature"}), "match_aborted")
        if not isinstance(payload["reason"], str):
            raise IllegalAction("match_aborted needs a reason (text)")

    def _check_action(self, payload: dict, seat: int) -> None:
        """A legal action; one played for a faulted bot ("fault") must be the default action, the
        first legal one (bots/referee.py)."""
        if "action" not in payload or not ACTION_KEYS.issuperset(payload):
            raise IllegalAction(f"an action payload has the key 'action' and optionally "
                                f"{sorted(ACTION_KEYS - {'action'})}, got {sorted(payload)}")
        self.ruleset.check_action(self.state, seat, payload["action"])
        if "fault" in payload:
            fault = payload["fault"]
            if not isinstance(fault, dict) or fault.get("reason") not in WHEN_ASKED_REASONS:
                raise IllegalAction(f"an action's fault names a reason of {WHEN_ASKED_REASONS}")
            if not _same(payload["action"], self.ruleset.legal_actions(self.state, seat)[0]):
                raise IllegalAction("the action played for a faulted bot is not the default "
                                    "(first legal) action")

    def _check_forfeit(self, nxt, payload: dict, seat: int) -> None:
        """Any seat may resign while the game goes on; every other forfeit punishes what the seat
        did when it was asked to act, so it must have been asked; an illegal action must be one."""
        reason = payload.get("reason")
        if reason not in FORFEIT_REASONS:
            raise IllegalAction(f"forfeit reason must be one of {FORFEIT_REASONS}")
        if isinstance(nxt, Ended):
            raise IllegalAction("forfeit after the game is decided")
        if reason in WHEN_ASKED_REASONS and not (isinstance(nxt, ToAct) and seat in nxt.seats):
            raise IllegalAction(f"a {reason!r} forfeit of seat {seat}, which is not to act")
        if reason == "illegal_action" and "sent" in payload:
            try:
                sent = json.loads(payload["sent"]) if isinstance(payload["sent"], str) else payload["sent"]
                self.ruleset.check_action(self.state, seat, sent)
            except (ValueError, RecursionError, IllegalAction):
                return  # evidence that is not a legal action: the forfeit stands
            raise IllegalAction("forfeit for an illegal action, but the action sent is legal")

    def _step_chance(self, seat, payload: dict, seq: int, seed: bytes | None) -> None:
        """No seat, the spec the rules give now, an outcome of its shape and, once the seed is
        revealed, the very outcome derived from it. An outcome equal to its derivation has that
        shape by construction; any other is checked for its shape first, so it is refused for
        the same reason as ever."""
        if seat is not None:
            raise IllegalAction(f"a chance event belongs to no seat, got seat {seat!r}")
        nxt = self.ruleset.next(self.state)
        if not isinstance(nxt, Chance):
            raise IllegalAction(f"chance event but no chance node now ({type(nxt).__name__})")
        if payload.keys() != _CHANCE_KEYS:
            _check_keys(payload, _CHANCE_KEYS, "chance")
        spec, due = payload["spec"], nxt.spec
        if due is not self._flat_due:  # another spec object of the rules' (mostly one a game)
            self._flat_due = due if _flat(due) else None
        # the rules' spec known flat: one look at the payload's (anything else is compared as
        # the log spells it)
        if not ((due is self._flat_due and _same_as_flat(spec, due)) or _same(spec, due)):
            raise IllegalAction(f"chance spec {spec} differs from the rules' {due}")
        if seed is None:
            chance.check_outcome(due, payload["outcome"])
            return
        expected = self._derivation(seed)(seq, due)  # checks the spec first
        outcome = payload["outcome"]
        # a list of exactly ints equal to the derivation's (``_plainly_same`` in C calls)
        if type(outcome) is list and outcome == expected and set(map(type, outcome)) <= _INT_TYPE:
            return
        chance.check_outcome(due, payload["outcome"])
        if not _same(payload["outcome"], expected):
            raise IllegalAction(f"chance outcome {payload['outcome']} is not its derivation "
                                f"from the revealed seed ({expected})")


_CHECKS = {"action": Folder._step_action, "chance": Folder._step_chance,
           "forfeit": Folder._step_forfeit, "match_ended": Folder._step_ended,
           "match_aborted": Folder._step_aborted}  # match_created stands only at seq 0


def _same(a, b) -> bool:
    """Equal as the log spells them (so 2.0 is not 2 and true is not 1)."""
    try:
        if _plainly_same(a, b):
            return True
    except RecursionError:
        pass
    try:
        return canonical_json(a) == canonical_json(b)
    except (TypeError, ValueError):
        return False


_INT_BOUND = 1 << 64  # far inside the digits json writes; a bigger int is left to canonical_json


_INT_TYPE, _STR_TYPE, _STR_INT_TYPES = frozenset((int,)), frozenset((str,)), frozenset((str, int))


def _flat(value) -> bool:
    """A flat object of text and ints (a chance spec): every key exactly a str, every value
    exactly a str or an int, in C calls."""
    return (type(value) is dict and set(map(type, value)) <= _STR_TYPE
            and set(map(type, value.values())) <= _STR_INT_TYPES)


def _same_as_flat(a, flat) -> bool:
    """A sure "same" of ``a`` and an object known ``_flat``, in C calls: equal, and every value
    of ``a`` exactly a str or an int (so no true that equals 1, no 2.0 that equals 2; a key
    equal to a text key is spelled as it is). False means "not sure", as with ``_plainly_same``."""
    return type(a) is dict and a == flat and set(map(type, a.values())) <= _STR_INT_TYPES



def _plainly_same(a, b) -> bool:
    """A sure "same" without writing JSON: ``a`` and ``b`` are strings, bools, null, bounded
    ints, lists and string-keyed objects of them, equal type for type, so their canonical JSON is
    equal. False means "not sure": ``_same`` then compares the canonical JSON."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is int:
        return a == b and -_INT_BOUND < a < _INT_BOUND
    if kind is str or kind is bool or a is None:
        return a == b
    if kind is list:
        if len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if not (_scalar_same(x, y) if type(x) in _SCALARS else _plainly_same(x, y)):
                return False
        return True
    if kind is dict:
        if len(a) != len(b):
            return False
        for key, x in a.items():  # a loop, not all() over a generator: faster on small objects
            if type(key) is not str or key not in b:
                return False
            y = b[key]
            if not (_scalar_same(x, y) if type(x) in _SCALARS else _plainly_same(x, y)):
                return False
        return True
    return False


_SCALARS = frozenset((str, int, bool, type(None)))


def _scalar_same(a, b) -> bool:
    """``_plainly_same`` of a str, int, bool or None (``a``), without its dispatch on containers:
    the members of a chance spec or an outcome, compared once per chance event of a validation."""
    if type(a) is not type(b):
        return False
    if type(a) is int:
        return a == b and -_INT_BOUND < a < _INT_BOUND
    return a == b


def _check_keys(payload: dict, keys: set[str], kind: str) -> None:
    if payload.keys() != keys:
        raise IllegalAction(f"a {kind} payload has exactly the keys {sorted(keys)}, got {sorted(payload)}")


@dataclass
class Report:
    """The validator's verdict; ``first_bad_seq`` and ``reason`` name the first fault."""

    ok: bool
    events: int
    first_bad_seq: int | None = None
    reason: str = ""
    ended: bool = False
    chance_verified: bool = False
    snapshots_checked: int = 0
    notes: list[str] = field(default_factory=list)
    # The end's signature (games/engine/signature.py): verified, unchecked, unsigned, unknown_key
    # or bad; "" while the log has no end. signing_key: the key id the end names.
    signature: str = ""
    signing_key: str | None = None

    def to_json(self) -> dict:
        return {"ok": self.ok, "events": self.events, "first_bad_seq": self.first_bad_seq,
                "reason": self.reason, "ended": self.ended, "chance_verified": self.chance_verified,
                "snapshots_checked": self.snapshots_checked, "notes": self.notes,
                "signature": self.signature, "signing_key": self.signing_key}


def _revealed_seed(last: dict, commitment: str | None) -> tuple[bytes | None, str]:
    """The seed revealed by ``last``, the log's last record, if it ends the match and matches the
    commitment; otherwise None and why (reported at the last record unless an earlier one is bad
    first)."""
    if not isinstance(last, dict) or last.get("kind") not in END_KINDS:
        return None, ""
    try:
        seed = bytes.fromhex(last["payload"]["seed"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None, "the end of the match does not reveal a hex seed"
    if chance.commitment(seed) != commitment:
        return None, "the revealed seed does not match the seed commitment"
    return seed, ""


# A record's fields in one call (validate): a KeyError or TypeError where one is missing.
_RECORD_FIELDS = operator.itemgetter("seq", "match", "prev_hash", "kind", "seat", "payload", "time", "hash")


def validate(records: Iterable[dict], *, last: dict | None = None,
             snapshots: dict[int, object] | None = None,
             keys: Mapping[str, bytes] | None = None,
             get_ruleset: Callable[[str], Ruleset] = registry.get) -> Report:
    """Re-fold a log from event 0: hash chain, legality of every event, chance outcomes against
    the revealed seed, the recorded result, and ``snapshots`` ({seq: encoded state}) against the
    fold. With ``keys`` ({key id: raw Ed25519 public key}), the end of a finished match must
    carry a signature of one of them (games/engine/signature.py). Returns a Report naming the
    first bad seq.

    ``records``: the whole log as a list, or an iterable of its records in order with ``last``,
    its final record, given apart. The seed the end reveals checks every chance outcome on the
    way, so that is all the validator needs ahead: a stream is read once and never held whole
    (replays.services.match_validate reads the event table a chunk at a time; bench/fold.py
    parses a line at a time), and it must end with a record equal to ``last``."""
    if last is None:
        records = records if isinstance(records, list) else list(records)
        if records:
            last, end_index = records[-1], len(records) - 1
    elif isinstance(last, dict) and type(last.get("seq")) is int and last["seq"] >= 0:
        end_index = last["seq"]  # seqs are gap-free from 0: the stream's last index
    else:
        return Report(ok=False, events=0, reason="the last record given has no seq")
    snapshots = dict(snapshots or {})
    report = Report(ok=False, events=0 if last is None else end_index + 1)
    records = iter(records)
    first = next(records, None)
    if first is None:
        report.events, report.reason = 0, "empty log"
        return report
    records = itertools.chain((first,), records)
    try:
        seed, seed_fault = None, ""
        prev_hash = GENESIS
        prev_time = None
        folder = None
        index = -1
        match_id = first.get("match") if isinstance(first, dict) else None
        match_text = encode_basestring(match_id) if isinstance(match_id, str) else None
        canonical = canonical_json
        # the hashed text's head up to the payload, per kind (the match is every record's)
        heads = ({kind: f'{{"kind":{text},"match":{match_text},"payload":'
                  for kind, text in _KIND_TEXTS.items()} if match_text is not None else {})
        sha256, fromisoformat = hashlib.sha256, dt.datetime.fromisoformat
        orjson_text, fields = _orjson_text, _RECORD_FIELDS
        plain_action_keys = _PLAIN_ACTION_KEYS
        step = None  # the folder's step, once match_created has made the folder
        act = None  # and the rules' act_in_place, where the game has it
        ended = False
        for index, record in enumerate(records):
            # the eight fields in one C call; a record that lacks one (or is no object) reads
            # them one by one, and each check below names what is missing as it always did
            try:
                seq, match, chained, kind, seat, payload, time, hash_ = fields(record)
                whole = True
            except (KeyError, TypeError):
                whole = False
                seq = record.get("seq") if isinstance(record, dict) else None
            if type(seq) is not int or seq != index:
                raise LogError(seq, f"expected seq {index} (gap, duplicate or reordering)")
            if not whole:
                match, chained, hash_ = record.get("match"), record.get("prev_hash"), record.get("hash")
            if match != match_id or not isinstance(match, str):
                raise LogError(seq, "event of another match")
            if chained != prev_hash:
                raise LogError(seq, "hash chain broken: prev_hash is not the previous event's hash")
            try:
                # record_hash, with what the chain has already proven written once: the match
                # (every record's is the first's), the seq (its index) and prev_hash (the hex
                # of the hash before it, or GENESIS); the kind's text from a table. A record of
                # other types takes record_hash (tests/games/engine/test_log.py holds the two
                # to the same hash).
                if not whole:  # the first field missing is named (KeyError)
                    kind, seat, payload, time = record["kind"], record["seat"], record["payload"], record["time"]
                head = heads.get(kind) if type(kind) is str else None
                text = None  # the payload's canonical JSON, where orjson wrote it
                if (head is not None and type(time) is str
                        and (seat is None or type(seat) is int)):
                    # canonical_json's orjson path (its text where it cannot differ from
                    # json's), kept for the chance check; else canonical_json's answer
                    if type(payload) is dict:
                        text = orjson_text(payload)
                    expected_hash = sha256(
                        f'{head}{canonical(payload) if text is None else text},'
                        f'"prev_hash":"{prev_hash}","seat":{"null" if seat is None else seat},'
                        f'"seq":{index},"time":{encode_basestring(time)}}}'.encode()).hexdigest()
                else:
                    expected_hash = record_hash(record)
            except (KeyError, TypeError, ValueError) as exc:
                raise LogError(seq, f"malformed record: {exc}") from None
            prev_hash = hash_
            if prev_hash != expected_hash:
                raise LogError(seq, "hash mismatch: the event was changed after it was written")
            # ISO 8601 with a UTC offset, and never before the previous event's time: a forger
            # who re-seals the chain cannot move an event to another day unnoticed
            if not isinstance(time, str):
                raise LogError(seq, f"time {time!r} is not an ISO 8601 text")
            try:
                moment = fromisoformat(time)
            except ValueError:
                moment = None
            if moment is None or moment.tzinfo is None:
                raise LogError(seq, f"time {time!r} is not ISO 8601 with a UTC offset")
            if prev_time is not None and moment < prev_time:
                raise LogError(seq, f"time goes backwards: {time} is before the time of event "
                                    f"{seq - 1} ({prev_time.isoformat()})")
            prev_time = moment
            if step is not None:
                if seed_fault and index == end_index:
                    raise LogError(seq, seed_fault)
                # ``state`` and ``ended`` are the folder's, held in locals: only _step changes
                # ``ended``, and it is handed the state and gives it back
                if (act is not None and kind == "action" and type(seat) is int
                        and 0 <= seat < players and type(payload) is dict
                        and "action" in payload and plain_action_keys.issuperset(payload)
                        and not ended):
                    # Folder._step's first case written out (most records of a validation):
                    # an action checked and applied in one call, without _step's frame
                    try:
                        state = act(state, seat, payload)
                    except IllegalAction as exc:
                        raise LogError(seq, exc.reason) from None
                elif (kind == "chance" and text is not None and seat is None and seed is not None
                        and not ended
                        and text == derived_text(seq, seed, state)):
                    # and its chance case: the very payload the rules and the seed make
                    lent_fields["kind"], lent_fields["seat"], lent_fields["payload"] = kind, None, payload
                    try:
                        state = apply(state, lent)
                    except IllegalAction as exc:
                        raise LogError(seq, exc.reason) from None
                else:
                    folder.state = state
                    step(seq, kind, seat, payload, seed, text)
                    state, ended = folder.state, folder.ended
            else:
                if record.get("seat") is not None:
                    raise LogError(seq, "match_created belongs to no seat")
                folder = Folder(record, get_ruleset=get_ruleset, in_place=True)  # keeps no state
                step = folder._step  # validate has checked the seq
                act, players = folder._act, folder.players
                apply, lent, derived_text = folder._apply, folder._lent, folder._derived_text
                lent_fields = lent.__dict__
                state, ended = folder.state, folder.ended
                seed, seed_fault = _revealed_seed(last, folder.seed_commitment)
                if seed is None and not seed_fault:
                    report.notes.append("the match has not ended: its seed is secret, "
                                        "chance outcomes are unverified")
            if snapshots and seq in snapshots:
                if snapshots.pop(seq) != folder.ruleset.encode(state):
                    raise LogError(seq, "snapshot differs from the fold of the log")
                report.snapshots_checked += 1
            if index == end_index:
                break  # a list's last record; a stream must end here (below)
        if index < end_index:  # a stream that stops short of the last record given
            raise LogError(index + 1, f"the log ends at seq {index}, before the last record "
                                      f"given (seq {end_index})")
        if next(records, None) is not None:
            raise LogError(end_index + 1, f"the log goes on after the last record given "
                                          f"(seq {end_index})")
        if record is not last and record != last:
            raise LogError(end_index, "the log's last record is not the last record given")
        if snapshots:
            raise LogError(min(snapshots), "snapshot beyond the end of the log")
        if ended:  # last: a fault of the fold is named at its own seq first
            from .signature import check_end
            check_end(last, keys=keys, report=report)
        report.ended = ended
        report.chance_verified = seed is not None
        report.ok = True
    except LogError as exc:
        report.first_bad_seq, report.reason = exc.seq, exc.reason
    return report


def read_jsonl(lines: Iterable[str]) -> list[dict]:
    """Records from JSON Lines; a line that is not a JSON object raises LogError with its number."""
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, an integer of 5,000 digits
            raise LogError(None, f"line {number} is not JSON: {exc}") from None
        if not isinstance(record, dict):
            raise LogError(None, f"line {number} is not a JSON object")
        records.append(record)
    return records


EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_UNFINISHED = 0, 1, 2, 3


def main(argv: list[str]) -> int:
    """Validate an exported replay offline: python -m games.engine.log FILE.jsonl

    Exit status: 0 a valid log of a finished match; 1 an invalid log (with --keys: also an end
    that is not signed by one of the keys); 2 bad usage or an unreadable key file; 3 a valid log
    that does not end (a cut file, or a live match), unless --allow-unfinished."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m games.engine.log", description=main.__doc__.split("\n")[0])
    parser.add_argument("replay", help="an exported replay (JSON Lines)")
    parser.add_argument("--allow-unfinished", action="store_true",
                        help="a valid log that does not end (a live match's) exits 0 too")
    parser.add_argument("--keys", action="append", metavar="FILE",
                        help="the service's public keys (the JSON of GET /api/signing-keys/, or "
                             "PEM); the end must then carry a signature of one of them")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage
        return EXIT_USAGE if exc.code else EXIT_OK
    keys = None
    if args.keys:
        from .signature import KeyFileError, read_key_files
        try:
            keys = read_key_files(args.keys)
        except KeyFileError as exc:
            print(f"{parser.prog}: {exc}", file=sys.stderr)
            return EXIT_USAGE
    try:
        with open(args.replay, encoding="utf-8") as fh:
            report = validate(read_jsonl(fh), keys=keys)
    except LogError as exc:
        report = Report(ok=False, events=0, reason=exc.reason)
    except (OSError, UnicodeDecodeError) as exc:
        report = Report(ok=False, events=0, reason=f"cannot read {args.replay}: {exc}")
    if report.ok and not report.ended and not args.allow_unfinished:
        report.notes.append("the log does not end: a cut file or a live match (exit status 3; "
                            "--allow-unfinished accepts it)")
    print(json.dumps(report.to_json(), indent=2))
    if not report.ok:
        return EXIT_INVALID
    return EXIT_OK if report.ended or args.allow_unfinished else EXIT_UNFINISHED


if __name__ == "__main__":
    # Under ``python -m`` this file runs as __main__, a second copy of the module beside the
    # games.engine.log that signature.py imports: its LogError would not be the one raised, and
    # a refused signature would escape main() as a traceback. Run the imported module's main.
    from games.engine import log as _log

    sys.exit(_log.main(sys.argv[1:]))
