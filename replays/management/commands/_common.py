import sys
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from replays.models import Match


def get_match(match_id: str) -> Match:
    try:
        return Match.objects.get(pk=match_id)
    except (Match.DoesNotExist, ValidationError, ValueError):
        raise CommandError(f"no match {match_id!r}") from None


def python_command() -> str:
    """How the user calls this Python: the project's .venv relative to here, else "python"."""
    try:
        return str(Path(sys.executable).relative_to(Path.cwd()))
    except ValueError:
        return "python"
