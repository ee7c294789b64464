"""games.engine.log: the validator finds the first bad event of a replay, and says why."""
from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import json

import pytest
from hypothesis import given, settings, strategies as st

from games.engine import log, registry
from games.engine.log import GENESIS, Folder, LogError, read_jsonl, record_hash, seal, validate
from games.engine.runner import playout
from tests.conformance.oracle_game import CARDS, ORACLE

SEED = b"validate".ljust(32, b"!")


def get_ruleset(name):
    """The Oracle without the registry (the test game is not a builtin game)."""
    assert name == ORACLE.spec.name, name
    return ORACLE


def check(records, **kwargs):
    """``validate`` of the log as a list, and, where its last record has the seq it should,
    as a stream with that record given apart (as match_validate and bench/fold.py validate):
    every test of this module holds the two to the same verdict. And without orjson, so with
    no payload text to check a chance event by (Folder._derived_text): the same verdict."""
    report = validate(records, get_ruleset=get_ruleset, **kwargs)
    saved, log._orjson = log._orjson, None
    try:
        assert validate(copy.deepcopy(records), get_ruleset=get_ruleset, **kwargs).to_json() == report.to_json()
    finally:
        log._orjson = saved
    last = records[-1] if isinstance(records, list) and records else None
    if isinstance(last, dict) and last.get("seq") == len(records) - 1 and type(last["seq"]) is int:
        streamed = validate(iter(records), last=last, get_ruleset=get_ruleset, **kwargs)
        assert streamed.to_json() == report.to_json()
    return report


@pytest.fixture(scope="module")
def played():
    return playout(ORACLE, 3, seed=SEED, bot_seed=1, match_id="log-test")


@pytest.fixture
def records(played):
    return copy.deepcopy(played)


def first(records, kind, test=lambda record: True) -> int:
    return next(r["seq"] for r in records if r["kind"] == kind and test(r))


def is_bid(record):
    return record["payload"]["action"]["type"] == "bid"


def is_roll(record):
    return record["payload"]["spec"]["kind"] == "dice"


def resealed(records, start):
    """The records with every hash from ``start`` on recomputed, as a forger would."""
    for seq in range(start, len(records)):
        records[seq]["prev_hash"] = records[seq - 1]["hash"] if seq else GENESIS
        records[seq]["hash"] = record_hash(records[seq])
    return records


def states(records):
    """The encoded state after each record."""
    folder = Folder(records[0], get_ruleset=get_ruleset)
    encoded = [ORACLE.encode(folder.state)]
    for record in records[1:]:
        folder.step(record)
        encoded.append(ORACLE.encode(folder.state))
    return encoded


# -- a good log ---------------------------------------------------------------------------------------
def test_a_playout_log_is_valid_ended_and_its_chance_verified(records):
    report = check(records)
    assert report.ok, report.to_json()
    assert report.ended and report.chance_verified
    assert report.events == len(records) and report.first_bad_seq is None
    assert json.loads(json.dumps(report.to_json())) == report.to_json()


def test_a_live_log_validates_but_its_chance_is_unverified(records):
    for end in (1, 2, len(records) // 2, len(records) - 1):
        report = check(records[:end])
        assert report.ok, (end, report.to_json())
        assert not report.ended and not report.chance_verified
        assert report.notes and "secret" in report.notes[0]


def test_an_empty_log_is_not_valid():
    report = check([])
    assert not report.ok and report.reason == "empty log"


# -- tampering without re-hashing: the hash names the record ---------------------------------------
def test_a_changed_payload_is_named_by_its_hash(records):
    k = first(records, "action", is_bid)
    records[k]["payload"]["action"]["card"] = "Z9"
    report = check(records)
    assert (report.ok, report.first_bad_seq) == (False, k)
    assert "hash" in report.reason


@pytest.mark.parametrize("field, value", [("seat", 2), ("kind", "forfeit"), ("time", "2030-01-01"),
                                          ("match", "other")])
def test_a_changed_envelope_field_is_named(records, field, value):
    k = first(records, "action", is_bid)
    records[k][field] = value if records[k][field] != value else 0
    report = check(records)
    assert (report.ok, report.first_bad_seq) == (False, k), report.to_json()


def test_a_broken_chain_is_named(records):
    k = first(records, "chance", is_roll)
    records[k]["prev_hash"] = "f" * 64
    records[k]["hash"] = record_hash(records[k])
    report = check(records)
    assert (report.first_bad_seq, "chain" in report.reason) == (k, True), report.to_json()


# -- tampering and re-hashing from there on: the rules name the record --------------------------------
def test_a_forged_illegal_action_is_named(records):
    k = first(records, "action", is_bid)
    held = states(records)[k - 1]["hands"][records[k]["seat"]]
    records[k]["payload"]["action"]["card"] = next(c for c in CARDS if c not in held)
    report = check(resealed(records, k))
    assert (report.ok, report.first_bad_seq) == (False, k), report.to_json()
    assert "not one of the legal" in report.reason


def test_an_action_by_a_seat_that_does_not_act_is_named(records):
    k = first(records, "action", lambda r: r["payload"]["action"]["type"] == "move")
    records[k]["seat"] = (records[k]["seat"] + 1) % 3
    report = check(resealed(records, k))
    assert report.first_bad_seq == k and "does not act now" in report.reason


def test_a_forged_shuffle_is_named_by_its_derivation(records):
    assert records[1]["kind"] == "chance"
    order = records[1]["payload"]["outcome"]
    order[0], order[1] = order[1], order[0]  # still a permutation: only the seed can tell
    report = check(resealed(records, 1))
    assert (report.ok, report.first_bad_seq) == (False, 1)
    assert "derivation" in report.reason


def test_a_forged_die_roll_is_named_by_its_derivation(records):
    k = first(records, "chance", is_roll)
    roll = records[k]["payload"]["outcome"]
    roll[0] = roll[0] % 6 + 1
    report = check(resealed(records, k))
    assert (report.ok, report.first_bad_seq) == (False, k)
    assert "derivation" in report.reason


# Chance payloads a forger might write in place of a roll: other types that equal the
# outcome or the spec in Python (True == 1, 6.0 == 6), keys added, dropped or renamed.
_FORGED_PAYLOADS = st.sampled_from([
    lambda p: {**p, "outcome": [True if x == 1 else float(x) for x in p["outcome"]]},
    lambda p: {**p, "outcome": [float(x) for x in p["outcome"]]},
    lambda p: {**p, "outcome": [str(x) for x in p["outcome"]]},
    lambda p: {**p, "outcome": p["outcome"] * 2},
    lambda p: {**p, "outcome": p["outcome"][0]},
    lambda p: {**p, "spec": {k: float(v) if type(v) is int else v for k, v in p["spec"].items()}},
    lambda p: {**p, "spec": {k: True if v == 1 else v for k, v in p["spec"].items()}},
    lambda p: {**p, "spec": {**p["spec"], "extra": 0}},
    lambda p: {**p, "note": "x"},
    lambda p: {"outcome": p["outcome"]},
    lambda p: {"spec": p["spec"], "outcomes": p["outcome"]},
    lambda p: {"spec": dict(reversed(list(p["spec"].items()))), "outcome": p["outcome"]},
    lambda p: dict(reversed(list(p.items()))),
])


@settings(max_examples=60, deadline=None, database=None)
@given(forge=_FORGED_PAYLOADS, which=st.integers(0, 10_000))
def test_a_chance_payload_passes_exactly_when_it_is_the_derivation_as_the_log_spells_it(played, forge, which):
    """Validation checks a chance event by comparing the payload's canonical JSON (written for
    its hash) with that of the rules' spec and the derived outcome; check() holds that path to
    the verdict of the checks without it, and here the verdict is ok exactly for a payload the
    same as the original (key order aside)."""
    records = copy.deepcopy(played)
    rolls = [r["seq"] for r in records if r["kind"] == "chance"]
    k = rolls[which % len(rolls)]
    original = records[k]["payload"]
    records[k]["payload"] = forge(copy.deepcopy(original))
    report = check(resealed(records, k))
    same = log.canonical_json(records[k]["payload"]) == log.canonical_json(original)
    assert report.ok == same
    if not same:
        assert report.first_bad_seq == k


def test_a_forged_die_roll_passes_while_the_seed_is_secret(records):
    """Before the end nobody can check a roll against the seed, only against the spec."""
    k = first(records, "chance", is_roll)
    records[k]["payload"]["outcome"] = [records[k]["payload"]["outcome"][0] % 6 + 1]
    live = resealed(records, k)[:k + 1]
    assert check(live).ok
    live[k]["payload"]["outcome"] = [7]
    report = check(resealed(live, k))
    assert report.first_bad_seq == k and "does not fit" in report.reason


def test_a_forged_result_is_named_at_match_ended(records):
    end = len(records) - 1
    records[end]["payload"]["result"]["placings"].reverse()
    report = check(resealed(records, end))
    assert (report.ok, report.first_bad_seq) == (False, end)
    assert "result" in report.reason


def test_a_forged_seed_does_not_match_the_commitment(records):
    end = len(records) - 1
    records[end]["payload"]["seed"] = (b"another seed".ljust(32, b"?")).hex()
    report = check(resealed(records, end))
    assert (report.ok, report.first_bad_seq) == (False, end)
    assert "commitment" in report.reason


@pytest.mark.parametrize("seed", [None, "not hex", 42])
def test_an_end_without_a_hex_seed_is_named(records, seed):
    end = len(records) - 1
    records[end]["payload"]["seed"] = seed
    report = check(resealed(records, end))
    assert report.first_bad_seq == end and "seed" in report.reason


def test_an_event_after_the_end_is_named(records):
    end = len(records) - 1
    records.append(seal(match="log-test", seq=end + 1, kind="forfeit", seat=0,
                        payload={"reason": "resigned"}, time=records[end]["time"],
                        prev_hash=records[end]["hash"]))
    report = check(records)
    assert report.first_bad_seq == end + 1


# -- gaps --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["middle", "last"])
def test_a_deleted_record_leaves_a_named_gap(records, where):
    k = len(records) // 2 if where == "middle" else len(records) - 2
    del records[k]
    report = check(records)
    assert (report.ok, report.first_bad_seq) == (False, k + 1)
    assert f"expected seq {k}" in report.reason and "gap" in report.reason


def test_a_duplicated_record_is_named(records):
    k = len(records) // 2
    records.insert(k, copy.deepcopy(records[k]))
    report = check(records)
    assert report.first_bad_seq == k


# -- snapshots --------------------------------------------------------------------------------------
def test_snapshots_equal_to_the_fold_are_checked(records):
    encoded = states(records)
    snapshots = {seq: encoded[seq] for seq in (0, 5, 10, len(records) - 1)}
    report = check(records, snapshots=snapshots)
    assert report.ok and report.snapshots_checked == 4


def test_a_wrong_snapshot_is_named(records):
    encoded = states(records)
    k = first(records, "chance", is_roll)
    report = check(records, snapshots={2: encoded[2], k: encoded[k - 1]})
    assert (report.ok, report.first_bad_seq) == (False, k)
    assert "snapshot" in report.reason


def test_a_snapshot_beyond_the_end_is_named(records):
    report = check(records[:10], snapshots={12: {}})
    assert report.first_bad_seq == 12 and "beyond" in report.reason


# -- JSON Lines ---------------------------------------------------------------------------------------
def test_an_exported_log_reads_back_equal(records):
    lines = [json.dumps(record) + "\n" for record in records]
    assert read_jsonl(["\n", *lines, "   \n"]) == records


@pytest.mark.parametrize("garbage, number, says", [
    ("{not json", 2, "is not JSON"), ("[1, 2]", 2, "not a JSON object"), ('"text"', 2, "not a JSON object"),
])
def test_read_jsonl_names_the_line_of_garbage(records, garbage, number, says):
    lines = [json.dumps(records[0]), garbage, json.dumps(records[1])]
    with pytest.raises(LogError) as error:
        read_jsonl(lines)
    assert f"line {number}" in error.value.reason and says in error.value.reason


def test_the_command_line_validator(records, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(log, "validate", functools.partial(log.validate, get_ruleset=get_ruleset))
    path = tmp_path / "replay.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert log.main([str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    records[3]["payload"]["action"] = {"type": "pass!"}
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert log.main([str(path)]) == 1
    assert json.loads(capsys.readouterr().out)["first_bad_seq"] == 3
    assert log.main([]) == 2


def test_a_cut_export_is_not_a_pass_for_the_command_line_validator(records, tmp_path, capsys, monkeypatch):
    """Issue 12.6: a truncated export validated with exit status 0 ("ok": true, "ended": false),
    so a user checking a finished match's file by its exit status could not see the cut. A valid
    log that does not end exits 3, unless the user asks for unfinished logs."""
    monkeypatch.setattr(log, "validate", functools.partial(log.validate, get_ruleset=get_ruleset))
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records[:len(records) // 2]), encoding="utf-8")
    assert log.main([str(path)]) == log.EXIT_UNFINISHED == 3
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["ended"] is False
    assert any("does not end" in note for note in report["notes"])
    assert log.main([str(path), "--allow-unfinished"]) == 0


def test_times_never_go_backwards(records):
    """Issue 12.7: a log re-sealed with one event moved to 2020 in the middle of a later match
    was accepted; the validator names the first event whose time is before its predecessor's."""
    for i, record in enumerate(records):  # a match played on 2026-11-23, a second an event
        record["time"] = f"2026-11-23T{i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}.000000+00:00"
    assert check(resealed(records, 0)).ok, "increasing times (and equal ones) are fine"
    k = len(records) // 2
    records[k]["time"] = "2020-01-01T00:00:00.000000+00:00"
    report = check(resealed(records, k))
    assert (report.ok, report.first_bad_seq) == (False, k)
    assert "time goes backwards" in report.reason


@pytest.mark.parametrize("time", [None, 1700000000, "yesterday", "2026-01-01T00:00:00"])
def test_a_time_that_is_not_iso_8601_with_an_offset_is_refused(records, time):
    records[2]["time"] = time
    report = check(resealed(records, 2))
    assert (report.ok, report.first_bad_seq) == (False, 2)


# -- bugs found while writing this suite (each fails until games/engine is fixed) ---------------------
def test_options_that_are_not_an_object_are_reported_not_raised(records):
    """A replay is untrusted input: validate must return a report naming seq 0, not crash
    (options_from_json calls dict() on whatever it gets: "fast" raises ValueError)."""
    records[0]["payload"]["options"] = "fast"
    report = check(resealed(records, 0))
    assert (report.ok, report.first_bad_seq) == (False, 0)


def test_the_first_bad_seq_is_the_first_even_when_the_end_is_also_bad(records):
    """validate checks the revealed seed before folding, so a broken record k is reported as a
    seed problem at the last seq; ARCHITECTURE.md: "a report names the first bad seq"."""
    k = first(records, "action", is_bid)
    records[k]["payload"]["action"]["card"] = "Z9"  # not re-hashed: bad at k
    records[-1]["payload"]["seed"] = "00" * 32  # not re-hashed either
    report = check(records)
    assert report.first_bad_seq == k, report.to_json()



@pytest.mark.parametrize("as_type", [float, bool], ids=["float", "bool"])
def test_a_seat_that_is_no_int_is_named(records, as_type):
    """protocol.Ruleset.check_action compares seats with Python equality: "seat": 0.0 passes as
    seat 0 and crashes the game's check (list index), "seat": false validates as seat 0."""
    k = first(records, "action", lambda r: is_bid(r) and r["seat"] in (0, 1))
    records[k]["seat"] = as_type(records[k]["seat"])
    report = check(resealed(records, k))
    assert (report.ok, report.first_bad_seq) == (False, k)


# -- forged forfeits, defaults and loose spellings (found in review) -----------------------------------
def fold_to(records, seq):
    """The folder standing after event ``seq``."""
    folder = Folder(records[0], get_ruleset=get_ruleset)
    for record in records[1:seq + 1]:
        folder.step(record)
    return folder


def forged(records, seq, kind, seat, payload):
    """The log cut after ``seq`` with one forged event appended, chained and hashed."""
    head = records[seq]
    return records[:seq + 1] + [seal(match=head["match"], seq=seq + 1, kind=kind, seat=seat,
                                     payload=payload, time=head["time"], prev_hash=head["hash"])]


def test_a_fault_forfeit_of_a_seat_that_was_not_asked_is_named(records):
    k = first(records, "action", lambda r: r["seq"] > 5) - 1  # a seat is to act after k
    nxt = fold_to(records, k).next()
    idle = next(s for s in range(3) if s not in nxt.seats)
    report = check(forged(records, k, "forfeit", idle, {"reason": "timeout", "elapsed_ms": 5000}))
    assert (report.ok, report.first_bad_seq) == (False, k + 1)
    assert "not to act" in report.reason


def test_a_fault_forfeit_at_a_chance_node_is_named_but_a_resignation_is_not(records):
    k = first(records, "chance", lambda r: r["seq"] > 5) - 1  # chance comes after k
    report = check(forged(records, k, "forfeit", 0, {"reason": "crash"}))
    assert (report.ok, report.first_bad_seq) == (False, k + 1)
    assert check(forged(records, k, "forfeit", 0, {"reason": "resigned"})).ok


def test_a_forfeit_for_an_illegal_action_that_is_legal_is_named(records):
    k = first(records, "action", is_bid)
    sent = json.dumps(records[k]["payload"]["action"])
    report = check(forged(records, k - 1, "forfeit", records[k]["seat"],
                          {"reason": "illegal_action", "detail": "forged", "sent": sent}))
    assert (report.ok, report.first_bad_seq) == (False, k)
    assert "the action sent is legal" in report.reason
    honest = forged(records, k - 1, "forfeit", records[k]["seat"],
                    {"reason": "illegal_action", "detail": "no such card", "sent": '{"type":"bid","card":"Z9"}'})
    assert check(honest).ok


def test_a_default_action_for_a_faulted_bot_must_be_the_first_legal_one(records):
    folder, k = None, None
    for record in records[1:]:
        if record["kind"] == "action":
            before = fold_to(records, record["seq"] - 1)
            legal = ORACLE.legal_actions(before.state, record["seat"])
            if record["payload"]["action"] != legal[0]:
                folder, k = before, record["seq"]
                break
    assert k is not None, "the playout has an action that is not the first legal one"
    fault = {"reason": "timeout", "strike": 1}
    chosen = {"action": records[k]["payload"]["action"], "fault": fault}
    report = check(forged(records, k - 1, "action", records[k]["seat"], chosen))
    assert (report.ok, report.first_bad_seq) == (False, k)
    default = {"action": ORACLE.legal_actions(folder.state, records[k]["seat"])[0], "fault": fault}
    assert check(forged(records, k - 1, "action", records[k]["seat"], default)).ok


@pytest.mark.parametrize("change", [
    lambda r: r.update(seq=float(r["seq"])),
    lambda r: r["payload"]["spec"].update(sides=float(r["payload"]["spec"]["sides"])),
    lambda r: r["payload"].update(extra=1),
], ids=["seq-2.0", "sides-6.0", "extra-key"])
def test_a_loose_spelling_of_a_chance_event_is_named(records, change):
    k = first(records, "chance", is_roll)
    change(records[k])
    report = check(resealed(records, k))
    assert (report.ok, report.first_bad_seq) == (False, k)


def test_a_result_spelled_loosely_is_named(records):
    records[-1]["payload"]["result"]["placings"] = [float(p) for p in records[-1]["payload"]["result"]["placings"]]
    report = check(resealed(records, len(records) - 1))
    assert (report.ok, report.first_bad_seq) == (False, len(records) - 1)


def test_match_created_belongs_to_no_seat(records):
    records[0]["seat"] = 1
    report = check(resealed(records, 0))
    assert (report.ok, report.first_bad_seq) == (False, 0)


@pytest.mark.parametrize("content", [b"[1, 2]\n", b'{"seq": ' + b"9" * 5000 + b"}\n", b"\xff\xfe{}\n"],
                         ids=["not-an-object", "huge-int", "not-utf8"])
def test_the_command_line_validator_refuses_garbage_with_a_report(tmp_path, capsys, content):
    path = tmp_path / "replay.jsonl"
    path.write_bytes(content)
    assert log.main([str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["reason"]


class _OracleV2(type(ORACLE)):
    """The Oracle after a change of rules: version 2, which still has version 1 as an edition."""

    spec = dataclasses.replace(ORACLE.spec, version=2)

    def edition(self, version):
        return ORACLE if version == 1 else super().edition(version)


def test_a_log_of_an_older_version_folds_by_the_edition_it_was_played_by(played):
    """A match keeps the rules it was played by: after a game's version is bumped, its older logs
    fold and validate with the edition ``Ruleset.edition`` returns; a version the service no
    longer has is refused at seq 0 with both versions named."""
    newer = _OracleV2()
    report = validate(copy.deepcopy(played), get_ruleset=lambda name: newer)
    assert report.ok and report.ended, report.reason
    assert Folder(played[0], get_ruleset=lambda name: newer).ruleset is ORACLE
    unknown = copy.deepcopy(played)
    unknown[0]["payload"]["version"] = 3
    with pytest.raises(LogError, match="version 3 is not available .this service runs 2."):
        Folder(unknown[0], get_ruleset=lambda name: newer)


def test_the_registry_returns_the_edition_a_stored_match_names():
    """registry.get(name, version): the current ruleset, an older edition, or UnknownRuleset."""
    from games.engine import registry
    current = registry.get("sorcado")
    assert registry.get("sorcado", current.spec.version) is current
    with pytest.raises(registry.UnknownRuleset, match="version 99 is not available"):
        registry.get("sorcado", 99)


# -- the validator's fast paths agree with the plain JSON they stand for --------------------------

def dumps(value) -> str:
    """Canonical JSON as the log first wrote it: json.dumps with the canonical settings."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def outcome(write, value):
    """What ``write(value)`` gives: ("ok", text) or ("error", its type and message)."""
    try:
        return "ok", write(value)
    except Exception as exc:  # noqa: BLE001 - the kind of failure is what is compared
        return "error", type(exc), str(exc)


circular: list = []
circular.append(circular)
shared = {"a": [1]}
ODD_VALUES = [1, -0.0, 1e300, float("nan"), float("inf"), True, None, "x\u00e9\ud800\x00", 10**5000,
              {1: 2}, {1: 2, "1": 3}, {"b": (1, 2)}, object(), circular, [shared, {"k": shared}],
              [[[]]], {"z": {"y": [1.5, "w", False]}}]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None, database=None)
@given(value=json_values)
def test_canonical_json_is_json_dumps_with_the_canonical_settings(value):
    """log.canonical_json keeps one encoder per thread instead of json.dumps' new one a call:
    the same text, and the same failures (NaN, circular references, keys that do not sort), also
    after a failure has left the kept encoder mid-way."""
    for odd in [value, *ODD_VALUES, value]:
        assert outcome(log.canonical_json, odd) == outcome(dumps, odd)


def test_record_hash_spells_the_envelope_as_the_encoder_does(played):
    """record_hash writes a well-formed envelope out by hand and encodes only the payload; for
    every record of a playout and for envelopes of odd types and text it hashes what the whole
    record through the encoder hashes, and fails alike on records it cannot write."""
    def whole(record):
        body = {k: record[k] for k in ("match", "seq", "kind", "seat", "payload", "time", "prev_hash")}
        return hashlib.sha256(dumps(body).encode()).hexdigest()

    odd = [dict(match="m\u2028\"\\", seq=True, kind="x", seat=False, payload={}, time="t", prev_hash="p"),
           dict(match="m", seq=1, kind="x", seat=1.0, payload={"a": 1e300}, time="t", prev_hash="p"),
           dict(match="m", seq=True, kind="x", seat=None, payload={}, time="t", prev_hash="p"),
           dict(match="m", seq=1, kind="x", seat=True, payload={}, time="t", prev_hash="p"),
           dict(match=5, seq=-3, kind="\x00", seat=-1, payload=[], time="t", prev_hash=None),
           dict(match="m", seq=2**70, kind="x", seat=None, payload={"k": "\ud800"}, time="t", prev_hash="p"),
           dict(match="m", seq=1, kind="x", seat=None, payload={"a": float("nan")}, time="t", prev_hash="p"),
           dict(match="m", kind="x"), dict(seq=1)]
    for record in [*played, *odd]:
        assert outcome(record_hash, record) == outcome(whole, record)
    assert all(record_hash(record) == record["hash"] for record in played)


@pytest.mark.parametrize("field, value", [
    ("match", 'm"\\\u2028\u00e9\U0001f9d9'), ("time", '2026-11-27T08:00:00+00:00\u2028"'),
    ("time", "2026-11-27T08:00:00\u00e9+00:00"), ("seat", True), ("seat", 1.0), ("seat", -1),
    ("kind", "act\u00efon"), ("kind", 7)])
def test_validate_hashes_a_record_as_record_hash_does(records, field, value):
    """validate writes a well-formed record's canonical JSON itself, from what the chain has
    proven (the match, the seq, prev_hash); a record resealed by record_hash with an odd
    envelope (text to escape, a bool or float seat, an unknown or non-text kind) is never
    reported as changed after it was written: whatever else is wrong with it is reported."""
    targets = range(len(records)) if field == "match" else [3]
    for seq in targets:
        records[seq][field] = value
    report = check(resealed(records, 0 if field == "match" else 3))
    assert "hash" not in (report.reason or ""), report.to_json()
    if field == "match":  # the match names the chance outcomes' derivation: the first is off
        assert records[report.first_bad_seq]["kind"] == "chance"
        assert "is not its derivation from the revealed seed" in report.reason
    else:
        assert (report.ok, report.first_bad_seq) == (False, 3)
    spoiled = 0 if field == "match" else 3  # and a change after sealing is still found
    records[spoiled]["payload"]["spoiled"] = 1
    report = check(records)
    assert (report.ok, report.first_bad_seq, report.reason) == (
        False, spoiled, "hash mismatch: the event was changed after it was written")


@settings(max_examples=150, deadline=None, database=None)
@given(a=json_values, b=json_values)
def test_same_is_equal_canonical_json(a, b):
    """log._same answers most comparisons of a validation (chance specs and outcomes) by walking
    the values type for type; it must say what comparing their canonical JSON says."""
    def same(x, y):
        try:
            return dumps(x) == dumps(y)
        except (TypeError, ValueError):
            return False

    def flat_same(u, v):  # Folder._step_chance's sure "same": the rules' spec v known flat
        return log._flat(v) and log._same_as_flat(u, v)

    for x, y in [(a, b), (a, a), (a, json.loads(json.dumps(a))), (a, [a]), (1, 1.0), (1, True),
                 ((1, 2), [1, 2]), ({1: 1}, {"1": 1}), ({1: 2, "1": 3}, {1: 2, "1": 3}),
                 (2**70, 2**70), ([10**5000], [10**5000]), (-0.0, 0.0),
                 (float("nan"), float("nan")), (float("inf"), float("inf"))]:
        assert log._same(x, y) == same(x, y) and log._same(y, x) == same(y, x), (x, y)
        for u, v in [(x, y), (y, x), ({"k": x}, {"k": y}), ({"k": x, "n": 1}, {"n": 1, "k": y})]:
            assert not flat_same(u, v) or same(u, v), (u, v)  # a sure "same" is right
    spec = {"kind": "dice", "count": 1, "sides": 6}
    assert flat_same(spec, {"sides": 6, "kind": "dice", "count": 1})
    for odd in [{"kind": "dice", "count": True, "sides": 6}, {"kind": "dice", "count": 1.0, "sides": 6},
                {"kind": "dice", "count": 1, "sides": 6, "x": None}, {True: 1}, [spec]]:
        assert not flat_same(odd, spec) and not flat_same(spec, odd), odd
    assert not flat_same({True: 1}, {1: 1}) and {True: 1} == {1: 1}


# Floats whose orjson text is not json's (negative exponents padded by json, small numbers that
# orjson writes without an exponent) and the values orjson writes as null: canonical_json must
# take json's path for each, inside any container.
ORJSON_DIVERGENT = [1e-07, -2.5646073393424127e-06, 4.553849266499795e-05, 1e16, 5e-324,
                    float("nan"), float("inf"), -float("inf"), 2**64, -2**63 - 1, "\ud800"]


@pytest.mark.skipif(log._orjson is None, reason="orjson is not installed (the bare games package)")
def test_canonical_json_takes_json_spelling_where_orjson_differs():
    """The orjson path of canonical_json keeps orjson's text only where it is json's: every
    value orjson writes otherwise (or refuses) gives json.dumps' text or its very error, alone,
    in a list and in an object beside plain members."""
    import orjson

    for value in ORJSON_DIVERGENT:
        for wrapped in (value, [value], {"a": 1, "b": [value, "x"], "c": None}, {"k": {"v": value}}):
            assert outcome(log.canonical_json, wrapped) == outcome(dumps, wrapped), wrapped
    # Guard of the test: orjson does write these differently (else the test proves nothing).
    assert orjson.dumps(1e-07) != dumps(1e-07).encode()
    assert orjson.dumps(float("nan")) == b"null"


def test_canonical_json_spells_every_code_point_as_json_does():
    """Every code point but the lone surrogates, as a key and as a value: canonical_json writes
    json's text, and so does orjson itself (its escapes of control characters and its key order
    are what the fast path keeps unchecked); lone surrogates are refused alike."""
    for start in range(0, 0x110000, 0x800):
        chars = [chr(c) for c in range(start, start + 0x800) if not 0xD800 <= c <= 0xDFFF]
        if chars:
            value = {c: [c, c + "x"] for c in chars}
            assert log.canonical_json(value) == dumps(value)
            if log._orjson is not None:
                assert log._ORJSON_DUMPS(value, option=log._ORJSON_OPTIONS).decode() == dumps(value)
    assert outcome(log.canonical_json, {"\udc00": 1}) == outcome(dumps, {"\udc00": 1})


@pytest.mark.parametrize("game", [r.spec.name for r in registry.builtin()])
def test_advance_all_folds_as_advance_does_record_by_record(game):
    """Folder.advance_all is advance over every record: the same state, head (seq, hash, time),
    end and result, in place or not; for every game the service ships (the registry's)."""
    ruleset = registry.get(game)
    records = playout(ruleset, 2, seed=SEED, bot_seed=3, match_id=f"advance-all-{game}")
    for in_place in (False, True):
        one, many = Folder(records[0], in_place=in_place), Folder(records[0], in_place=in_place)
        for record in records[1:]:
            one.advance(record)
        many.advance_all(iter(records[1:]))
        assert ruleset.encode(many.state) == ruleset.encode(one.state)
        assert (many.seq, many.head_hash, many.head_time, many.ended, many.result) == \
               (one.seq, one.head_hash, one.head_time, True, one.result)
        assert many.seq == records[-1]["seq"]


def test_advance_all_stops_after_the_last_record_that_applied(records):
    """A record the rules cannot apply raises out of advance_all, and the folder stands after
    the record before it, as a fold by advance would."""
    bad = first(records, "chance")
    records[bad]["payload"]["outcome"] = "not an outcome"
    folder = Folder(records[0], get_ruleset=get_ruleset)
    with pytest.raises(Exception):
        folder.advance_all(records[1:])
    assert folder.seq == bad - 1 and folder.head_hash == records[bad - 1]["hash"]
    expected = Folder(records[0], get_ruleset=get_ruleset)
    expected.advance_all(records[1:bad])
    assert ORACLE.encode(folder.state) == ORACLE.encode(expected.state)
    untouched = Folder(records[0], get_ruleset=get_ruleset)
    untouched.advance_all([])
    assert untouched.seq == 0 and untouched.head_hash == records[0]["hash"]


def test_a_stream_must_end_with_the_last_record_given(records):
    """validate(stream, last=...): the seed ``last`` reveals checks the chance outcomes on the
    way, so the stream must end with that very record; a stream that stops short, goes on, or
    ends with another record is refused where it parts from ``last``."""
    end = len(records) - 1
    assert check(records).ok
    assert validate(iter(records), last=copy.deepcopy(records[-1]), get_ruleset=get_ruleset).ok

    short = validate(iter(records[:-2]), last=records[-1], get_ruleset=get_ruleset)
    assert (short.ok, short.first_bad_seq, short.events) == (False, end - 1, end + 1)
    assert short.reason == f"the log ends at seq {end - 2}, before the last record given (seq {end})"

    longer = validate(iter(records), last=records[-3], get_ruleset=get_ruleset)
    assert (longer.ok, longer.first_bad_seq) == (False, end - 1)
    assert longer.reason == f"the log goes on after the last record given (seq {end - 2})"

    other = copy.deepcopy(records[-1])
    other["time"] = "2099-01-01T00:00:00+00:00"
    changed = validate(iter(records), last=other, get_ruleset=get_ruleset)
    assert (changed.ok, changed.first_bad_seq) == (False, end)
    assert changed.reason == "the log's last record is not the last record given"

    for bad in ({"seq": "9"}, {"seq": -1}, ["seq"]):
        refused = validate(iter(records), last=bad, get_ruleset=get_ruleset)
        assert (refused.ok, refused.reason) == (False, "the last record given has no seq")
    empty = validate(iter([]), last=records[-1], get_ruleset=get_ruleset)
    assert (empty.ok, empty.reason, empty.events) == (False, "empty log", 0)


@pytest.mark.parametrize("game", ["trap-the-wizard", "sorcado"])
@pytest.mark.parametrize("forgery", ["other seat", "no such action", "seat out of range",
                                     "after the end"])
def test_validate_refuses_a_forged_action_of_a_game_with_act_in_place_as_the_rules_do(game, forgery):
    """validate checks an action in its own loop by the rules' act_in_place (Folder._step's
    first case written out): a forged action is refused at its seq with the very reason the
    rules' check_action gives where the log stands, or Folder.step's own reason where the
    record never reaches the rules; and the same as a step-by-step Folder says."""
    from games.engine import registry

    ruleset = registry.get(game)
    assert getattr(ruleset, "act_in_place", None) is not None
    records = playout(ruleset, 2, seed=SEED, bot_seed=5, match_id=f"forged-{game}")
    end = len(records) - 1
    k = next(r["seq"] for r in records if r["kind"] == "action" and r["seq"] > end // 2)
    before = Folder(records[0])
    before.advance_all(records[1:k])
    record = records[k]
    if forgery == "other seat":
        record["seat"] = 1 - record["seat"]
    elif forgery == "no such action":
        record["payload"]["action"] = {"type": "no such action"}
    elif forgery == "seat out of range":
        record["seat"] = 2
    else:
        k = end + 1
        records.append(seal(match=record["match"], seq=k, kind="action", seat=record["seat"],
                            payload=record["payload"], time=records[end]["time"],
                            prev_hash=records[end]["hash"]))
    if forgery in ("other seat", "no such action"):
        with pytest.raises(log.IllegalAction) as refused:
            ruleset.check_action(before.state, record["seat"], record["payload"]["action"])
        expected = refused.value.reason
    else:
        expected = {"seat out of range": "action names no seat of this match: 2",
                    "after the end": "event after the end of the match"}[forgery]
    if k <= end:  # a forger re-seals the chain from the changed record on
        resealed(records, k)
    report = validate(records)
    assert (report.ok, report.first_bad_seq, report.reason) == (False, k, expected)
    streamed = validate(iter(records), last=records[-1])
    assert streamed.to_json() == report.to_json()
    stepper = Folder(records[0], in_place=True)
    with pytest.raises(LogError) as stepped:
        for record in records[1:]:
            stepper.step(record)
    assert (stepped.value.seq, stepped.value.reason) == (k, expected)
