"""A user uploads the example bot, plays it against a built-in bot with one command, and checks
a bot locally with botcheck."""
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from bots.models import BotVersion
from replays.models import Event, Match

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
HOSTILE = Path(__file__).resolve().parent / "hostile"


def test_upload_the_example_bot_and_play_it_against_a_builtin_bot(db, sandbox_required, capsys,
                                                                 tmp_path, settings, eager_tasks,
                                                                 django_capture_on_commit_callbacks):
    settings.BOT_CODE_DIR = tmp_path / "code"
    call_command("uploadbot", str(EXAMPLE), "--game", "trap-the-wizard", "--owner", "alice",
                 "--name", "example")
    assert "alice/example version 1 stored" in capsys.readouterr().out
    with django_capture_on_commit_callbacks(execute=True):
        call_command("play", "trap-the-wizard", "--bots", "alice/example,greedy",
                     "--options", '{"rounds": 1}')
    out = capsys.readouterr().out
    match = Match.objects.get()
    assert match.status == Match.Status.ENDED and "alice/example" in out
    assert match.seats[0]["kind"] == "uploaded" and match.seats[0]["bot"] == "example"
    assert not Event.objects.filter(match=match, kind="forfeit").exists(), "the example bot plays cleanly"
    assert Event.objects.filter(match=match, kind="action", seat=0).exists()
    assert match.validations.get().ok


def test_a_refused_upload_says_why_and_stores_nothing(db, tmp_path):
    bad = tmp_path / "bot.py"
    bad.write_text("def broken(:\n")
    with pytest.raises(CommandError, match="upload refused"):
        call_command("uploadbot", str(bad), "--game", "trap-the-wizard", "--owner", "bob", "--name", "b")
    assert not BotVersion.objects.filter(bot__owner__username="bob").exists()


def test_botcheck_passes_the_example_bot(db, sandbox_required, capsys):
    call_command("botcheck", str(EXAMPLE), "--game", "trap-the-wizard", "--options", '{"rounds": 1}')
    out = capsys.readouterr().out
    assert "no faults" in out and "log:" in out and "valid" in out


def test_botcheck_reports_what_a_garbage_bot_did(db, sandbox_required, capsys):
    with pytest.raises(CommandError, match="fault"):
        call_command("botcheck", str(HOSTILE / "garbage.py"), "--game", "trap-the-wizard",
                     "--options", '{"rounds": 1}')
    assert "garbage" in capsys.readouterr().out


# -- Issue 13.10: "botcheck shows the bot's stderr when there is no fault (-v), lets the author pick
#    the seat and the opponent, names the opponent, and can store the match (--store) so it can be
#    replayed and validated like any other. Output nobody asked for at start-up is explained as
#    such in the fault message."

def test_botcheck_shows_the_bots_stderr_without_a_fault_when_asked(db, sandbox_required, capsys):
    call_command("botcheck", str(EXAMPLE), "--game", "trap-the-wizard", "--options", '{"rounds": 1}')
    quiet = capsys.readouterr().out
    assert "no faults" in quiet and "playing trap-the-wizard" not in quiet
    call_command("botcheck", str(EXAMPLE), "--game", "trap-the-wizard", "--options", '{"rounds": 1}',
                 "--verbosity", "2")
    loud = capsys.readouterr().out
    assert "no faults" in loud and "your bot's stderr" in loud
    assert "playing trap-the-wizard" in loud and "as seat 0 of 2" in loud  # what the bot logged


def test_botcheck_seats_the_bot_where_asked_and_names_the_opponent(db, sandbox_required, capsys):
    call_command("botcheck", str(EXAMPLE), "--game", "trap-the-wizard", "--options", '{"rounds": 1}',
                 "--players", "3", "--seat", "2", "--opponent", "greedy", "-v", "2")
    out = capsys.readouterr().out
    assert "your bot in seat 2; opponent: greedy (built-in bot of trap-the-wizard) in seats 0, 1" in out
    assert "moves by your bot (seat 2)" in out and "as seat 2 of 3" in out
    with pytest.raises(CommandError, match=r"--seat must be in 0\.\.1"):
        call_command("botcheck", str(EXAMPLE), "--game", "trap-the-wizard", "--seat", "2")
    with pytest.raises(CommandError, match="no built-in bot 'deep-blue'; trap-the-wizard has"):
        call_command("botcheck", str(EXAMPLE), "--game", "trap-the-wizard", "--opponent", "deep-blue")


def test_botcheck_stores_the_match_like_any_other(db, sandbox_required, capsys, tmp_path, settings,
                                                  eager_tasks, django_capture_on_commit_callbacks):
    settings.BOT_CODE_DIR = tmp_path / "code"
    with django_capture_on_commit_callbacks(execute=True):
        call_command("botcheck", str(EXAMPLE), "--game", "trap-the-wizard", "--options", '{"rounds": 1}',
                     "--store", "--owner", "carol", "--seat", "1")
    out = capsys.readouterr().out
    match = Match.objects.get()
    assert f"match {match.id}: ended" in out and "stored as carol/random_bot version 1 (new)" in out
    assert match.seats[1]["bot"] == "random_bot"
    assert BotVersion.objects.get(pk=match.seats[1]["bot_version"]).bot.owner.username == "carol"
    assert match.seats[0]["bot"] == "random" and match.seats[0]["kind"] == "builtin"
    assert match.validations.get().ok and not match.unsigned and not match.imported
    call_command("validate", str(match.id))
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["signature"] == "verified"
    # The same bytes again: the same version, a second match.
    call_command("botcheck", str(EXAMPLE), "--game", "trap-the-wizard", "--options", '{"rounds": 1}',
                 "--store", "--owner", "carol")
    assert "carol/random_bot version 1 (the same bytes as before)" in capsys.readouterr().out
    assert BotVersion.objects.filter(bot__owner__username="carol").count() == 1
    assert Match.objects.count() == 2


def test_botcheck_explains_output_at_start_up(db, sandbox_required, capsys):
    with pytest.raises(CommandError, match="fault"):
        call_command("botcheck", str(HOSTILE / "chatty_start.py"), "--game", "trap-the-wizard",
                     "--options", '{"rounds": 1}')
    out = capsys.readouterr().out
    assert "garbage" in out and "output at start-up, before the first act" in out and "write logs to stderr" in out
    assert "loading the opening book" in out  # the evidence


def test_a_resumed_match_gives_an_uploaded_bot_the_bank_its_log_left(db, sandbox_required, tmp_path,
                                                                    settings):
    """Per-decision transcript: every action records the bot's time and remaining bank, and a
    driver that resumes the match (a worker died) goes on with that bank, not a full one."""
    from bots.driver import banks_so_far, match_drive, seat_bot
    from bots.sandbox import TimeControl
    from bots.services import bot_create, bot_version_upload, builtin_bot_versions, match_start
    from django.contrib.auth import get_user_model
    from games.engine import registry

    settings.BOT_CODE_DIR = tmp_path / "code"
    alice = get_user_model().objects.create(username="alice")
    version = bot_version_upload(bot=bot_create(owner=alice, name="slowish", game="trap-the-wizard"),
                                 filename="main.py", content=EXAMPLE.read_bytes())
    match = match_start(ruleset="trap-the-wizard", versions=[version, builtin_bot_versions(
        game="trap-the-wizard")["random"]], time_control={"move_ms": 0, "bank_ms": 60000}, queue=False)
    assert match_drive(match_id=match.pk, max_events=40) == "paused"
    clocks = [e.payload["clock"] for e in Event.objects.filter(match=match, kind="action", seat=0)]
    assert clocks and all(c["bank_ms"] <= 60000 and "elapsed_ms" in c for c in clocks)
    banks = banks_so_far(match)
    assert banks[0] == clocks[-1]["bank_ms"]
    bot = seat_bot(seat=0, info=match.seats[0], ruleset=registry.get("trap-the-wizard"),
                   time_control=TimeControl(move_ms=0, bank_ms=60000), bot_seed=0, bank_ms=banks[0])
    try:
        assert bot.bank_ms == banks[0]
    finally:
        bot.close()
