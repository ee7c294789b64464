"""Issue 15, done when: "A tournament with search, the heuristic bots and an uploaded bot that
imports games runs under the sandbox from manage.py tournament." The uploaded bot is the one
docs/library.md prints ("The built-in search bot, uploaded"), as printed."""
import re
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command

from bots.services import bot_create, bot_version_upload
from games.engine.log import validate
from replays.models import Event, Match
from replays.selectors import match_records
from tournaments.models import Tournament

from ..bots.conftest import sandbox_required  # noqa: F401  (a fixture)

ROOT = Path(__file__).resolve().parents[2]
GAME = "sorcado"  # short matches: about 36 decisions a seat


def _docs_search_bot() -> bytes:
    text = (ROOT / "docs" / "library.md").read_text()
    [code] = [block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "SearchBot(" in block]
    return code.encode()


def test_search_the_heuristic_bot_and_an_uploaded_bot_importing_games_play_a_tournament(
        db, sandbox_required, settings, capsys):  # noqa: F811
    settings.ARENA_ALLOW_UNSANDBOXED_BOTS = False
    alice = get_user_model().objects.create_user("alice", password="pw-alice-1")
    bot_version_upload(bot=bot_create(owner=alice, name="searcher", game=GAME), filename="main.py",
                       content=_docs_search_bot())
    call_command("tournament", "--game", GAME, "--format", "round-robin",
                 "--bots", "search,heuristic,alice/searcher",
                 "--time-control", '{"move_ms": 100, "bank_ms": 5000}')
    out = capsys.readouterr().out
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED, out[-2000:]
    assert tournament.time_control["move_ms"] == 100
    matches = list(Match.objects.filter(pairing_game__pairing__tournament=tournament))
    assert len(matches) == 3 and all(m.status == Match.Status.ENDED for m in matches)
    seats = {seat["bot"] for m in matches for seat in m.seats}
    assert {"search", "heuristic", "searcher"} <= seats, seats
    # Every seat of every match answered every move itself: no forfeit, no default action
    # played for a fault (the uploaded bot imported the library in the sandbox and kept time).
    assert not Event.objects.filter(match__in=matches, kind="forfeit").exists()
    faults = [e.payload["fault"] for e in Event.objects.filter(match__in=matches, kind="action")
              if "fault" in e.payload]
    assert not faults, faults
    for match in matches:
        report = validate(match_records(match=match))
        assert report.ok, report.to_json()
    assert "Standings" in out and "searcher" in out
