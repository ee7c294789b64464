"""Celery tasks of the bots app: they take ids, re-read the database and are safe to run twice."""
from celery import shared_task


@shared_task(name="bots.play_match")
def play_match(match_id: str) -> str:
    """Drive the match to its end (a second delivery finds the lease taken and returns), then
    let its tournament, if any, go on."""
    from tournaments.tasks import match_finished

    from .driver import match_drive

    outcome = match_drive(match_id=match_id)
    # "not running" too: a worker that died between writing the end and queueing
    # match_finished has its task delivered again (acks_late), and only this second delivery
    # can still move the tournament on. match_finished is idempotent, so queueing it once more
    # for a match ended long ago costs one advance that finds nothing to do.
    if outcome in ("ended", "aborted", "not running"):
        match_finished.delay(match_id)
    return outcome


@shared_task(name="bots.sweep_stuck_matches")
def sweep_stuck_matches() -> int:
    """Queue play_match again for running matches whose driver died (periodic, see settings)."""
    from .driver import stuck_match_ids

    ids = stuck_match_ids()
    for match_id in ids:
        play_match.delay(str(match_id))
    return len(ids)
