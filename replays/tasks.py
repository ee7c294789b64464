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


@shared_task(name="replays.sweep_validations")
def sweep_validations() -> int:
    """Queue validate_match for ended matches that have no verdict a while after their end:
    the validation queued at the end was lost with a dying worker (periodic, see settings)."""
    from .selectors import unvalidated_match_ids

    ids = unvalidated_match_ids()
    for match_id in ids:
        validate_match.delay(str(match_id))
    return len(ids)
