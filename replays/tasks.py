"""Celery tasks of the event store: they take ids, re-read state and are safe to run twice."""
from celery import shared_task

from .models import Match


@shared_task(name="replays.validate_match")
def validate_match(match_id: str) -> dict:
    """Validate a match's whole log and store the verdict (running it twice stores two equal
    verdicts, which is harmless: the latest is the status)."""
    from .services import match_validate

    match = Match.objects.get(pk=match_id)
    return match_validate(match=match).report
