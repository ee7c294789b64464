"""bench/dataset.py, bench/growth.py and bench/explain.py (issue 42, items 4 and 6): the matches
they store are the service's (sealed, signed, valid), a grown table's copies keep their hash
chain and signature, and the index check reads a plan as it should. Not timed: the figures are
in BENCHMARKS.md."""
import datetime as dt
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from bench import dataset, explain, growth
from games.engine import signature
from games.engine.log import GENESIS, END_KINDS, Report, canonical_json, record_hash, validate

pytestmark = pytest.mark.no_services

SEATS = [{"bot_version": 1, "bot": "a", "version": 1, "kind": "remote"},
         {"bot_version": 2, "bot": "b", "version": 1, "kind": "remote"}]


@pytest.fixture
def key():
    private = Ed25519PrivateKey.generate()
    raw = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    key_id = signature.key_id(raw)
    return {key_id: raw}, (lambda record: signature.sign(record, private_key=private, key=key_id))


def _played(sign, game="sorcado"):
    return dataset.match_play(game=game, seats=SEATS, seed=b"s" * 32,
                              match_id="7a1f0000-0000-4000-8000-000000000001",
                              started=dt.datetime(2026, 9, 1, tzinfo=dt.timezone.utc), bot_seed=3, sign=sign)


def test_a_dataset_match_is_a_valid_signed_log_of_the_services_seats(key):
    keys, sign = key
    records = _played(sign)
    report = validate(records, keys=keys)
    assert report.ok and report.ended and report.chance_verified, report.reason
    assert report.signature == signature.VERIFIED
    assert records[0]["payload"]["seats"] == SEATS
    times = [r["time"] for r in records]
    assert times == sorted(times) and all(t.endswith("+00:00") for t in times)


def test_the_event_rows_are_the_records_with_the_payload_as_canonical_text(key):
    records = _played(key[1])
    rows = list(dataset.event_rows(records))
    assert [row[:4] for row in rows] == [(r["match"], r["seq"], r["kind"], r["seat"]) for r in records]
    assert [row[4] for row in rows] == [canonical_json(r["payload"]) for r in records]
    assert [row[6:] for row in rows] == [(r["prev_hash"], r["hash"]) for r in records]


def test_snapshots_are_taken_where_event_append_takes_them(key):
    records = _played(key[1], game="warlock")
    seqs = [seq for seq, _ in dataset.snapshots_of(records, 10)]
    assert seqs == [r["seq"] for r in records[1:] if r["seq"] % 10 == 0 and r["kind"] not in END_KINDS]


def test_a_grown_tables_copy_keeps_its_chain_and_its_signature(key):
    keys, sign = key
    records = _played(sign)
    template = growth.Template(records, [], tuple(range(20)))
    copy_id = "7a1f0000-0000-4000-8000-000000000002"
    lines, first, last = template.copy(copy_id, -dt.timedelta(days=100), sign)
    copied, prev = [], GENESIS
    for line in lines:
        match, seq, kind, seat, payload, time, prev_hash, hash_ = line.rstrip("\n").split("\t")
        record = {"match": match, "seq": int(seq), "kind": kind, "seat": None if seat == "\\N" else int(seat),
                  "payload": json.loads(payload.replace("\\\\", "\\")), "time": time,
                  "prev_hash": prev_hash, "hash": hash_}
        assert record["prev_hash"] == prev and record_hash(record) == record["hash"]
        prev = record["hash"]
        copied.append(record)
    assert {r["match"] for r in copied} == {copy_id} and len(copied) == len(records)
    assert dt.datetime.fromisoformat(copied[0]["time"]) == dt.datetime.fromisoformat(records[0]["time"]) - dt.timedelta(days=100)
    report = Report(ok=False, events=len(copied))
    signature.check_end(copied[-1], keys=keys, report=report)  # raises if it does not hold
    assert report.signature == signature.VERIFIED
    assert (first, last) == (copied[0]["time"], copied[-1]["time"])  # the copy's match row's times


def test_the_index_check_flags_scans_and_whole_index_walks_but_not_a_limited_walk():
    plan = {"Node Type": "Nested Loop", "Plans": [
        {"Node Type": "Seq Scan", "Relation Name": "a"},
        {"Node Type": "Index Scan", "Relation Name": "b", "Index Name": "b_pkey"},
        {"Node Type": "Index Scan", "Relation Name": "c", "Index Name": "c_x", "Index Cond": "(x = 1)"},
        {"Node Type": "Limit", "Plans": [{"Node Type": "Index Scan", "Relation Name": "d", "Index Name": "d_t"}]}]}
    assert explain.unindexed(plan) == ["a", "b (whole index b_pkey)"]
