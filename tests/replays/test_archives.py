"""Archived logs (replays/archives.py, docs/scaling.md): a finished match's events leave the event
table for a compressed archive with their hash chain and signature intact, and every read gives
the same records, states and steps as before; a changed archive is refused with the reason, and
nothing is lost on the way."""
import gzip
import json

import pytest
from django.core.management import call_command
from django.db import DatabaseError, transaction

from games.engine.log import canonical_json, record_hash
from replays import archives
from replays.archives import ArchiveRefused, match_archive, matches_to_archive
from replays.models import Event, MatchArchive, Snapshot
from replays.selectors import (match_event_count, match_head, match_record_stream, match_records,
                               state_at)
from replays.services import match_create, match_validate

from .test_event_store import _disable_append_only_trigger, _tamper


def _archive_trigger_lifted():
    """Tests only: let the test change a stored archive, as an attacker with DB access could."""
    _disable_append_only_trigger("replays_matcharchive", postgres="replays_matcharchive_kept",
                                 sqlite="replays_matcharchive_no_update")


def _archive_rewritten(match, records, *, digest=True):
    """Store ``records`` as the match's archive bytes (and their digest unless told not to)."""
    _archive_trigger_lifted()
    data = archives.archive_bytes(records)
    fields = {"data": data}
    if digest:
        import hashlib
        fields["sha256"] = hashlib.sha256(data).hexdigest()
        fields["head_hash"] = records[-1]["hash"]
    MatchArchive.objects.filter(pk=match.pk).update(**fields)
    archives._archive_read.cache_clear()  # another process, which never read the old bytes


def _encoded_states(match, steps):
    engine_encode = __import__("games.engine", fromlist=["registry"]).registry.get(match.ruleset).encode
    return [canonical_json(engine_encode(state_at(match=match, n=n))) for n in steps]


def test_it_archives_a_finished_match_and_reads_back_the_same_log_states_and_steps(played_match, client):
    records = match_records(match=played_match)
    steps = sorted({0, 1, len(records) // 3, len(records) // 2, len(records) - 2, len(records) - 1})
    states = _encoded_states(played_match, steps)
    pages = {n: client.get(f"/api/matches/{played_match.pk}/steps/{n}/?seat=1").json() for n in steps[:3]}
    export = client.get(f"/api/matches/{played_match.pk}/export/").content
    snapshots = Snapshot.objects.filter(match=played_match).count()

    archive = match_archive(match=played_match)

    assert not Event.objects.filter(match=played_match).exists()  # the rows left the table
    assert archive.events == len(records) and archive.head_hash == records[-1]["hash"]
    assert len(archive.data) < len(export) / 3  # compressed
    archives._archive_read.cache_clear()  # read back as a fresh process would
    assert match_records(match=played_match) == records  # nothing lost, nothing changed
    assert list(match_record_stream(match=played_match, last=len(records) - 1)) == records
    assert match_records(match=played_match, first=5, last=9) == records[5:10]
    assert match_head(match=played_match) == {"seq": len(records) - 1, "hash": records[-1]["hash"]}
    assert match_event_count(match=played_match) == len(records)
    assert _encoded_states(played_match, steps) == states  # replay steps identical
    assert Snapshot.objects.filter(match=played_match).count() == snapshots  # kept for step reads
    for n, page in pages.items():
        assert client.get(f"/api/matches/{played_match.pk}/steps/{n}/?seat=1").json() == page
    assert client.get(f"/api/matches/{played_match.pk}/export/").content == export
    verdict = match_validate(match=played_match)  # chain, rules, chance, result and signature
    assert verdict.ok and verdict.report["signature"] == "verified", verdict.report
    listed = client.get("/api/matches/").json()["results"]
    assert next(m for m in listed if m["id"] == str(played_match.pk))["steps"] == len(records)


def test_the_archive_is_the_exported_log_gzipped(played_match):
    records = match_records(match=played_match)
    archive = match_archive(match=played_match)
    text = gzip.decompress(bytes(archive.data)).decode()
    assert text == "".join(canonical_json(r) + "\n" for r in records)  # manage.py export's lines


def test_a_running_match_is_not_archived(db):
    match = match_create(ruleset="trap-the-wizard", players=2)
    with pytest.raises(ArchiveRefused) as refused:
        match_archive(match=match)
    assert "running" in refused.value.reason
    assert Event.objects.filter(match=match).count() == 1 and not MatchArchive.objects.exists()


def test_a_match_is_archived_once(played_match):
    match_archive(match=played_match)
    with pytest.raises(ArchiveRefused) as refused:
        match_archive(match=played_match)
    assert "archived already" in refused.value.reason


def test_a_log_that_does_not_validate_is_not_archived_and_keeps_its_events(played_match):
    records = match_records(match=played_match)
    _tamper(played_match, 5, {"action": "something else"})
    with pytest.raises(ArchiveRefused) as refused:
        match_archive(match=played_match)
    assert refused.value.reason.startswith("seq 5: hash mismatch"), refused.value.reason
    assert len(match_records(match=played_match)) == len(records)
    assert not MatchArchive.objects.exists()


def test_an_archive_changed_with_its_digest_and_chain_resealed_is_refused_by_the_signature(played_match):
    records = match_records(match=played_match)
    match_archive(match=played_match)
    forged = [dict(r) for r in records]
    forged[3]["time"] = forged[2]["time"]  # any change, the chain re-sealed from there on
    for i in range(3, len(forged)):
        forged[i]["prev_hash"] = forged[i - 1]["hash"]
        forged[i]["hash"] = record_hash(forged[i])
    _archive_rewritten(played_match, forged)
    with pytest.raises(ArchiveRefused) as refused:
        match_records(match=played_match)
    assert "signature" in refused.value.reason, refused.value.reason
    verdict = match_validate(match=played_match)  # the validator names it too
    assert not verdict.ok and verdict.reason.startswith("archive: ") and "signature" in verdict.reason


@pytest.mark.parametrize("change, reason", [
    ("bytes", "do not have the digest"),
    ("payload", "seq 4: hash mismatch"),
    ("cut", "holds"),
])
def test_a_changed_archive_is_refused_with_the_reason(played_match, change, reason):
    records = match_records(match=played_match)
    match_archive(match=played_match)
    changed = [dict(r) for r in records]
    if change == "bytes":
        changed[4]["payload"] = {"action": "other"}
        _archive_rewritten(played_match, changed, digest=False)
    elif change == "payload":
        changed[4]["payload"] = {"action": "other"}
        _archive_rewritten(played_match, changed)
    else:
        _archive_rewritten(played_match, changed[:-1])
    with pytest.raises(ArchiveRefused) as refused:
        match_records(match=played_match, first=0, last=2)
    assert reason in refused.value.reason, refused.value.reason


def test_the_database_keeps_events_until_the_archive_exists_and_keeps_the_archive(played_match):
    """Migration 0009: DELETE of an event passes only for an archived match; an archive row is
    write-once."""
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(match=played_match).delete()
    assert Event.objects.filter(match=played_match).exists()
    match_archive(match=played_match)
    with pytest.raises(DatabaseError), transaction.atomic():
        MatchArchive.objects.filter(pk=played_match.pk).update(events=1)
    with pytest.raises(DatabaseError), transaction.atomic():
        MatchArchive.objects.filter(pk=played_match.pk).delete()
    assert MatchArchive.objects.get(pk=played_match.pk).events == match_event_count(match=played_match)


def test_the_archive_command_archives_matches_that_ended_long_enough_ago(played_match, capsys):
    assert matches_to_archive(older_than_days=1) == []  # it ended just now
    assert matches_to_archive(older_than_days=0) == [played_match.pk]
    call_command("archive", "--older-than", "0")
    out = capsys.readouterr().out
    assert f"{played_match.pk}: " in out and "events archived" in out
    assert MatchArchive.objects.filter(pk=played_match.pk).exists()
    assert matches_to_archive(older_than_days=0) == []
    json.dumps(match_records(match=played_match))  # still readable
