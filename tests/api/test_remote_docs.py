"""docs/remote.md, "A session with curl": the block runs as written (bash, curl, python3 and the
reference client) against a live server on the embedded defaults, and does what the page says
it prints: the entries marked remote and built-in, the answer taken with its charged time, the
second answer refused, the stream's keepalive and act lines, the match ended by the client."""
import json
import os
import re
import subprocess
from pathlib import Path

from django.contrib.auth import get_user_model

from api.services import token_create
from bots.services import builtin_bot_versions
from replays.models import Event, Match

ROOT = Path(__file__).resolve().parents[2]


def session_block() -> str:
    page = (ROOT / "docs" / "remote.md").read_text()
    section = page.split("## A session with curl", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, flags=re.S).group(1)


def test_the_curl_session_of_docs_remote_md_runs_as_written(live_server, live_db, eager_tasks, settings):
    settings.REMOTE_KEEPALIVE_SECONDS = 1
    user = get_user_model().objects.create_user(username="alice", password="alice-Secret-123")
    _, token = token_create(user=user, name="docs")
    builtin_bot_versions(game="trap-the-wizard")  # as `manage.py builtinbots` leaves them
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", session_block()], cwd=ROOT, capture_output=True,
                          text=True, timeout=240, env=dict(os.environ, ARENA=live_server.url, TOKEN=token))
    until_streams_end()
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    entries = [line for line in lines if isinstance(line, dict) and "seed" in line]
    assert [(e["bot_name"], e["kind"]) for e in entries] == [("far-away", "remote"), ("random", "builtin")]
    answered = next(line for line in lines if isinstance(line, dict) and line.get("status") == "answered")
    assert answered["elapsed_ms"] >= 0
    refusal = next(line for line in lines if isinstance(line, dict) and "error" in line)
    assert refusal["error"]["code"] == "already_answered"
    kinds = [line.get("type") for line in lines if isinstance(line, dict)]
    assert kinds.index("keepalive") < kinds.index("act")
    assert lines[-1][0] == "ended"
    match = Match.objects.get(pk=answered["match"])
    assert match.status == Match.Status.ENDED
    assert not Event.objects.filter(match=match, kind="forfeit").exists()
    assert Event.objects.get(match=match, seq=answered["turn"]).kind == "action"


def until_streams_end(seconds: float = 30) -> None:
    """The live server's streams end (a stream whose client went away ends at its next
    keepalive line) before the test's database goes away under them."""
    import time

    from api.views_remote import open_streams

    deadline = time.monotonic() + seconds
    while open_streams.count and time.monotonic() < deadline:
        time.sleep(0.1)
