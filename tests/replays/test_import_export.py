"""Export and import as JSON Lines; an imported replay is validated before it is stored."""
import datetime as dt
import json
import uuid

import pytest
from django.core.management import CommandError, call_command

from games.engine import registry
from games.engine.log import canonical_json, record_hash
from games.engine.runner import playout
from replays.models import Event, Match, Validation
from replays.services import ImportRefused, match_import


def _offline_log(seed=b"k" * 32):
    """A whole match played offline, stamped like the service stamps its events."""
    clock = iter(range(10**6))
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    return playout(registry.get("trap-the-wizard"), 3, seed=seed, options={"rounds": 1},
                   match_id=str(uuid.uuid4()),
                   time=lambda: (start + dt.timedelta(microseconds=next(clock))).isoformat(timespec="microseconds"))


def _lines(records):
    return [canonical_json(r) + "\n" for r in records]


def test_it_imports_a_valid_replay_and_exports_it_unchanged(db):
    records = _offline_log()
    match = match_import(lines=_lines(records))
    assert match.status == Match.Status.ENDED
    assert match.events.count() == len(records)
    assert match.validations.get().ok
    from replays.selectors import match_records
    assert match_records(match=match) == records


def test_it_refuses_a_tampered_replay_with_its_report_and_stores_nothing(db):
    records = _offline_log()
    seq = next(r["seq"] for r in records if r["kind"] == "action" and r["seq"] > 20)
    records[seq]["payload"]["action"] = {"type": "pass"}
    records[seq]["hash"] = record_hash(records[seq])
    for r in records[seq + 1:]:
        r["prev_hash"] = records[r["seq"] - 1]["hash"]
        r["hash"] = record_hash(r)
    with pytest.raises(ImportRefused) as refused:
        match_import(lines=_lines(records))
    assert refused.value.report["first_bad_seq"] == seq
    assert not Match.objects.exists() and not Event.objects.exists() and not Validation.objects.exists()


@pytest.mark.parametrize("garbage, reason", [
    (["{not json\n"], "line 1 is not JSON"),
    (["[1, 2]\n"], "line 1 is not a JSON object"),
    ([], "empty log"),
])
def test_it_refuses_garbage_with_a_reason(db, garbage, reason):
    with pytest.raises(ImportRefused, match=reason):
        match_import(lines=garbage)
    assert not Match.objects.exists()


def test_it_refuses_a_live_replay_because_its_chance_cannot_be_verified(db):
    records = _offline_log()[:40]
    with pytest.raises(ImportRefused, match="only finished"):
        match_import(lines=_lines(records))
    assert not Match.objects.exists()


def test_importing_the_same_match_twice_changes_nothing(db):
    lines = _lines(_offline_log())
    match = match_import(lines=lines)
    before = list(Event.objects.filter(match=match).values_list("seq", "hash"))
    with pytest.raises(ImportRefused, match="already stored"):
        match_import(lines=lines)
    assert list(Event.objects.filter(match=match).values_list("seq", "hash")) == before
    assert Match.objects.count() == 1


def test_the_commands_play_replay_validate_export_and_import(db, tmp_path, capsys, eager_tasks,
                                                            django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # the end queues validate_match
        call_command("play", "trap-the-wizard", "--players", "2", "--options", '{"rounds": 1}')
    out = capsys.readouterr().out
    match = Match.objects.get()
    assert str(match.id) in out and f"replay {match.id} --step" in out
    # In a test the on-commit callbacks run when the block exits, after the command printed.
    assert "validation: queued" in out and match.validations.get().ok

    call_command("replay", str(match.id), "--step", "5")
    step = json.loads(capsys.readouterr().out)
    assert step["step"] == 5 and step["event"]["seq"] == 5 and "view" in step

    call_command("validate", str(match.id))
    assert json.loads(capsys.readouterr().out)["ok"] is True

    target = tmp_path / "match.jsonl"
    call_command("export", str(match.id), "--output", str(target))
    exported = [json.loads(line) for line in target.read_text().splitlines()]
    assert [r["seq"] for r in exported] == list(range(match.events.count()))

    with pytest.raises(CommandError, match="already stored"):
        call_command("import", str(target))
    with pytest.raises(CommandError, match="unknown game"):
        call_command("play", "chess", "--players", "2")
    with pytest.raises(CommandError, match="no match"):
        call_command("validate", "not-a-uuid")
