"""Export and import as JSON Lines; an imported replay is validated before it is stored."""
import datetime as dt
import json
import uuid

import pytest
from django.core.management import CommandError, call_command

from games.engine import registry, signature
from games.engine.log import canonical_json, record_hash
from games.engine.runner import playout
from replays.models import Event, Match, Validation
from replays.services import ImportRefused, match_import
from replays.signing import signing_key_current


def _offline_log(seed=b"k" * 32, match_id=None, **playout_options):
    """A whole match played offline, stamped like the service stamps its events."""
    clock = iter(range(10**6))
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    ruleset = registry.get("trap-the-wizard")
    return playout(ruleset, 3, seed=seed, options={"rounds": 1}, match_id=match_id or str(uuid.uuid4()),
                   time=lambda: (start + dt.timedelta(microseconds=next(clock))).isoformat(timespec="microseconds"),
                   **playout_options)


def _resealed(records):
    """The records with their hash chain rebuilt after a change (a forger's second step)."""
    for r in records:
        r["prev_hash"] = records[r["seq"] - 1]["hash"] if r["seq"] else r["prev_hash"]
        r["hash"] = record_hash(r)
    return records


def _signed(records):
    """The records with their end signed by this service's current key, as event_append signs
    the ends it writes: an offline playout standing for an export of this service, so that a
    test of a check after the signature's reaches that check."""
    key, private_key = signing_key_current()
    end = records[-1]
    end["payload"]["signature"] = signature.sign(end, private_key=private_key, key=key.key_id)
    end["hash"] = record_hash(end)
    return records


def _lines(records):
    return [canonical_json(r) + "\n" for r in records]


def test_it_imports_a_valid_replay_and_exports_it_unchanged(db):
    records = _signed(_offline_log())
    match = match_import(lines=_lines(records))
    assert match.status == Match.Status.ENDED
    assert match.events.count() == len(records)
    assert match.validations.get().ok
    from replays.selectors import match_records
    assert match_records(match=match) == records


def test_it_refuses_a_tampered_replay_with_its_report_and_stores_nothing(db):
    # A fixed match id makes the chance, and so the log, the same on every run; the forged action
    # replaces a move (a pass in place of a pass would forge nothing: the log would stay honest).
    records = _signed(_offline_log(match_id="6f1c1d2e-0000-4000-8000-00000000f0e5"))
    seq = next(r["seq"] for r in records
               if r["kind"] == "action" and r["seq"] > 20 and r["payload"]["action"]["type"] != "pass")
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
    lines = _lines(_signed(_offline_log()))
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


@pytest.mark.parametrize("spelling", [str.upper, lambda m: m.replace("-", ""), lambda m: "urn:uuid:" + m,
                                      lambda m: "offline"], ids=["upper", "no-dashes", "urn", "not-a-uuid"])
def test_it_refuses_a_match_id_the_database_would_respell(db, spelling):
    records = _signed(_offline_log(match_id=spelling(str(uuid.uuid4()))))  # chance derives from the id
    with pytest.raises(ImportRefused, match="canonical form"):
        match_import(lines=_lines(records))
    assert not Match.objects.exists()


@pytest.mark.parametrize("seats", ["nope", [], [1, 2, 3], [{}, {}], [{"bot_version": "abc"}, {}, {}],
                                   [{"bot": "x", "owner": "y"}, {}, {}], [{"version": True}, {}, {}]])
def test_it_refuses_seats_the_service_would_not_write(db, seats):
    records = _offline_log()
    records[0]["payload"]["seats"] = seats
    with pytest.raises(ImportRefused, match="seats must be a list of one object per player"):
        match_import(lines=_lines(_signed(_resealed(records))))
    assert not Match.objects.exists()


def test_an_imported_match_is_marked_and_an_aborted_one_has_no_result(db):
    records = _offline_log()[:30]
    end = records[-1]["seq"] + 1
    records.append({"match": records[0]["match"], "seq": end, "kind": "match_aborted", "seat": None,
                    "payload": {"reason": "server shut down", "seed": (b"k" * 32).hex()},
                    "time": "2026-01-01T00:00:01.000000+00:00", "prev_hash": records[-1]["hash"]})
    match = match_import(lines=_lines(_signed(_resealed(records))))
    assert (match.imported, match.status, match.result) == (True, Match.Status.ABORTED, None)
    assert not match.unsigned and match.validations.get().report["signature"] == "verified"


def test_it_refuses_an_aborted_match_that_claims_a_result(db):
    records = _offline_log()[:30]
    records.append({"match": records[0]["match"], "seq": 30, "kind": "match_aborted", "seat": None,
                    "payload": {"reason": "x", "seed": (b"k" * 32).hex(),
                                "result": {"placings": [1, 2, 3], "scores": [9, 0, 0]}},
                    "time": "2026-01-01T00:00:01.000000+00:00", "prev_hash": records[-1]["hash"]})
    with pytest.raises(ImportRefused, match="match_aborted payload has exactly the keys"):
        match_import(lines=_lines(_resealed(records)))
    assert not Match.objects.exists()


def test_a_forfeit_with_bot_bytes_survives_the_database_and_validates_again(db):
    """What a hostile bot sent is stored as text; the stored copy hashes as exported (on
    PostgreSQL too, whose jsonb refuses NUL and rewrites numbers like 1e16)."""
    from bots.referee import FaultPolicy, RefereeRunner
    from games.engine.bots import RandomBot
    from replays.services import match_validate
    from tests.bots.test_referee import BadBytesBot

    ruleset = registry.get("trap-the-wizard")
    bots = {0: BadBytesBot(ruleset, action={"wizard": 1e16, "to": "\x00\ud800"}),
            1: BadBytesBot(ruleset, evidence={"detail": "\x00", "sent": "\x00\ud800"}),
            2: RandomBot(ruleset, 2)}
    records = _offline_log(bots=bots, runner=RefereeRunner, policy=FaultPolicy())
    assert [r["payload"]["reason"] for r in records if r["kind"] == "forfeit"] == ["illegal_action", "garbage"]
    match = match_import(lines=_lines(_signed(records)))
    assert match_validate(match=match).ok


@pytest.mark.postgres
def test_it_refuses_a_replay_the_database_would_not_give_back_as_written(db):
    """A float such as 1e16 in a payload comes back from jsonb as an integer: the stored copy
    would no longer hash the same, so the import is refused and nothing is kept."""
    from bots.referee import FaultPolicy, RefereeRunner
    from bots.sandbox import BotFault
    from games.engine.bots import Bot, RandomBot

    class FloatEvidenceBot(Bot):
        name = "float-evidence"

        def act(self, message):
            raise BotFault("garbage", {"elapsed_ms": 1e16})

    ruleset = registry.get("trap-the-wizard")
    records = _offline_log(bots={0: FloatEvidenceBot(ruleset), 1: RandomBot(ruleset, 1), 2: RandomBot(ruleset, 2)},
                           runner=RefereeRunner, policy=FaultPolicy())
    with pytest.raises(ImportRefused, match="does not give this event back as written"):
        match_import(lines=_lines(_signed(records)))
    assert not Match.objects.exists() and not Event.objects.exists()
