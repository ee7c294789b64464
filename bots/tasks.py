"""Celery tasks of the bots app: they take ids, re-read the database and are safe to run twice.

The match driver knows nothing of the layers above it: when a match ends, ``play_match``
announces it to the tasks that settings.MATCH_END_TASKS names (by default the tournament's
advance), and what an announcement loses to a dying worker, the layers' own sweeps find in the
database (tournaments.sweep_tournaments, replays.sweep_validations).
"""
from celery import shared_task
from celery.utils.log import get_task_logger
from django.conf import settings
from django.utils.module_loading import import_string

# Operators (and bench/recovery.py) follow a match from worker to worker by these lines.
logger = get_task_logger(__name__)


@shared_task(name="bots.play_match")
def play_match(match_id: str) -> str:
    """Drive the match to its end (a second delivery finds the lease taken and returns), then
    announce the end."""
    from .driver import match_drive

    logger.info("match %s: driving", match_id)
    outcome = match_drive(match_id=match_id)
    logger.info("match %s: %s", match_id, outcome)
    if outcome in ("ended", "aborted"):
        match_end_announce(match_id)
    return outcome


def match_end_announce(match_id: str) -> None:
    """Queue each task of settings.MATCH_END_TASKS (dotted paths, as Django names middleware)
    with the match's id (on the control queue)."""
    for path in settings.MATCH_END_TASKS:
        import_string(path).delay(match_id)


@shared_task(name="bots.sweep_stuck_matches")
def sweep_stuck_matches() -> int:
    """Queue play_match again for running matches whose driver died: an expired lease, each
    once per expiry (periodic, see settings). A match still waiting in the queue has no lease and
    is left alone; a message a dying worker had taken comes back from the broker
    (CELERY_BROKER_TRANSPORT_OPTIONS: visibility_timeout). When the broker lost its data (a
    restart without persistence: broker_lost_its_data), every match waiting in the queue lost
    its message and is queued again at once. Otherwise a match no driver has claimed
    MATCH_QUEUE_WAIT_SECONDS after it was queued lost its message and is queued again."""
    from .driver import lost_matches_take, stuck_matches_take

    ids = stuck_matches_take()
    for match_id in ids:
        logger.warning("match %s: its driver stopped renewing the lease; queued again", match_id)
        play_match.delay(str(match_id))
    if broker_lost_its_data():
        waiting = lost_matches_take(wait_seconds=0)
        for match_id in waiting:
            logger.warning("match %s: the broker lost its queued messages (restarted without its data); "
                           "queued again", match_id)
            play_match.delay(str(match_id))
        ids += waiting
    lost = lost_matches_take()
    for match_id in lost:
        logger.warning("match %s: no driver claimed it in the wait after it was queued; queued again",
                       match_id)
        play_match.delay(str(match_id))
    return len(ids) + len(lost)


def broker_marker_key() -> str:
    """A key the sweep keeps in the broker's Redis, one per queue of matches."""
    return f"arena:{settings.CELERY_TASK_DEFAULT_QUEUE}:broker-has-its-data"


def broker_lost_its_data() -> bool:
    """Whether the broker's Redis lost its data since the last sweep: the key the sweep leaves
    there (broker_marker_key) is gone with the queued messages, as after a restart without
    persistence (issue 40, item 10: a queued match waited 124 s for MATCH_QUEUE_WAIT_SECONDS
    after a Redis restart). SET NX both checks and leaves it, so of two sweeps at once only one
    sees the loss. The first sweep of a new broker finds no key either, and queues the waiting
    matches again once: a second message finds its match driven or ended and returns. False
    where tasks run in process or the broker is not Redis."""
    from config.celery import app

    url = settings.CELERY_BROKER_URL or ""
    if app.conf.task_always_eager or not url.startswith(("redis://", "rediss://")):
        return False
    with app.connection_for_write() as connection:
        return bool(connection.default_channel.client.set(broker_marker_key(), "1", nx=True))
