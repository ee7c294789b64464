"""Celery tasks of the ladder app: they take ids, re-read the database and are safe to run
twice. They run on the control queue; the matches they start run on the ladder queue
(settings.CELERY_LADDER_QUEUE), which has workers of its own."""
from celery import shared_task
from celery.utils.log import get_task_logger

logger = get_task_logger(__name__)


@shared_task(name="ladder.check_version")
def check_version(version_id: int) -> str:
    """Start the check match of a newly uploaded version."""
    from .services import version_check_start

    check = version_check_start(version_id=version_id)
    return "no check" if check is None else f"{check.status}, match {check.match_id}"


@shared_task(name="ladder.match_ended")
def match_ended(match_id: str) -> str:
    """A match ended (bots.play_match announces every end): the verdict if it was a check
    match, the ratings if it was a ladder match (a rated scrimmage's games are), the
    scrimmage's end if it was its last game."""
    from .scrimmages import scrimmage_match_finished
    from .services import ladder_match_finished, version_check_finish

    check = version_check_finish(match_id=match_id)
    folded = ladder_match_finished(match_id=match_id)
    scrimmage = scrimmage_match_finished(match_id=match_id)
    return (f"check: {check.status if check else '-'}; ladder matches rated: {folded}; "
            f"scrimmage: {scrimmage.status if scrimmage else '-'}")


@shared_task(name="ladder.matchmake")
def matchmake() -> int:
    """Top every ladder up to its matches in flight (periodic, see settings), and fold in any
    ended ladder match (and finish any scrimmage) whose end announcement was lost. Returns the
    matches created."""
    from replays.models import Match

    from .models import Ladder, LadderMatch
    from .services import ladder_match_finished, ladder_top_up

    lost = LadderMatch.objects.filter(applied=False).exclude(match__status=Match.Status.RUNNING) \
        .values_list("match_id", flat=True).first()
    if lost is not None:
        ladder_match_finished(match_id=lost)  # folds every due match of that ladder
    _sweep_scrimmages()
    return sum(len(ladder_top_up(ladder=ladder)) for ladder in Ladder.objects.all())


@shared_task(name="ladder.sweep_version_checks")
def sweep_version_checks() -> int:
    """What a dying worker or a lost message left undone (periodic, see settings): start the
    pending checks that have no match, and decide those whose match is over."""
    from django.conf import settings

    from replays.models import Match

    from .models import VersionCheck

    if not settings.ARENA_CHECK_MATCHES:
        return 0
    from .services import version_check_finish, version_check_start

    pending = VersionCheck.objects.filter(status=VersionCheck.Status.PENDING)
    unstarted = list(pending.filter(match__isnull=True).values_list("version_id", flat=True))
    over = list(pending.exclude(match__isnull=True).exclude(match__status=Match.Status.RUNNING)
                .values_list("match_id", flat=True))
    for version_id in unstarted:
        logger.warning("version %s: its check match was never started; starting it", version_id)
        version_check_start(version_id=version_id)
    for match_id in over:
        logger.warning("match %s: a check match ended without its verdict; deciding it", match_id)
        version_check_finish(match_id=match_id)
    return len(unstarted) + len(over)


def _sweep_scrimmages() -> int:
    """Finish the open scrimmages none of whose games still runs (their last end's
    announcement was lost)."""
    from replays.models import Match

    from .models import Scrimmage, ScrimmageMatch
    from .scrimmages import scrimmage_match_finished

    done = Scrimmage.objects.filter(status=Scrimmage.Status.OPEN).exclude(
        matches__match__status=Match.Status.RUNNING)
    last = [ScrimmageMatch.objects.filter(scrimmage=s).values_list("match_id", flat=True).last() for s in done]
    for match_id in last:
        if match_id is not None:
            scrimmage_match_finished(match_id=match_id)
    return len(last)
