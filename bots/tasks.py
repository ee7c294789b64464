"""Celery tasks of the bots app: they take ids, re-read the database and are safe to run twice."""
from celery import shared_task


@shared_task(name="bots.play_match")
def play_match(match_id: str) -> str:
    """Drive the match to its end (a second delivery finds the lease taken and returns)."""
    from tournaments.tasks import match_finished

    from .driver import match_drive

    outcome = match_drive(match_id=match_id)
    if outcome == "ended":
        match_finished.delay(match_id)  # the tournament, if any, goes on
    return outcome


@shared_task(name="bots.sweep_stuck_matches")
def sweep_stuck_matches() -> int:
    """Queue play_match again for running matches whose driver died (periodic, see settings)."""
    from .driver import stuck_match_ids

    ids = stuck_match_ids()
    for match_id in ids:
        play_match.delay(str(match_id))
    return len(ids)
