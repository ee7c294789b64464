"""Acceptance test of the documentation: one bot per game, written from docs/protocol.md and
docs/rules/*.md only (tests/bots/from_docs/), plays a whole match under botcheck without a fault
and never misses a field the rules page documents."""
import json
import time
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine import registry


FROM_DOCS = Path(__file__).resolve().parent / "from_docs"
MARK = "MISSING-DOC-FIELD"

# botcheck options that keep a match short, by game (option names from the rules pages). Every
# game the service ships (the registry's) is played, by tests/bots/from_docs/<its package>.py.
SHORT_OPTIONS = {
    "trap-the-wizard": {"rounds": 1},
    "sorcado": {"tie": "shared"},
    "imperial-twing": {"turn_limit": 30},
    "warlock": {"max_rounds": 5},
    "wizard-kings": {"turn_limit": 2},
}
GAMES = [(r.spec.name, type(r).__module__.split(".")[-1] + ".py",
          ["--options", json.dumps(SHORT_OPTIONS[r.spec.name])] if r.spec.name in SHORT_OPTIONS else [])
         for r in registry.builtin()]


@pytest.mark.parametrize("game,bot,options", GAMES, ids=[g[0] for g in GAMES])
def test_a_bot_written_from_the_docs_plays_a_whole_match(db, sandbox_required, capsys, game, bot,
                                                         options):
    path = FROM_DOCS / bot
    assert path.is_file(), f"{game} has no bot written from its docs ({path.relative_to(FROM_DOCS.parent)})"
    started = time.monotonic()
    call_command("botcheck", str(path), "--game", game, "--players", "2", "-v", "2", *options)
    out = capsys.readouterr().out
    elapsed = time.monotonic() - started
    print(f"{game}: {elapsed:.1f}s")
    assert "no faults" in out, out[-3000:]
    assert "your bot's stderr" in out, out[-3000:]
    assert MARK not in out, f"a documented field was missing from a real view:\n{out[-3000:]}"
    assert "BOT-ERROR" not in out, f"the bot fell back after an error:\n{out[-3000:]}"
    assert "fallbacks=0" in out, out[-3000:]  # the bot's own end-of-match line
