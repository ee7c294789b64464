"""Writes of the ladder app (docs/ladder.md): check matches, and the ladders.

**Check matches.** A check is made pending in the transaction that stores a new uploaded
version (``version_check_create``, called by bots.services through
settings.VERSION_UPLOADED_HOOKS), its match is created and queued on the ladder queue once that
commits (``version_check_start``), and its verdict is written when the match ends
(``version_check_finish``, announced by the driver through settings.MATCH_END_TASKS); a passed
version goes on its game's ladder (``ladder_entry_update``).

**Ladders.** The matchmaker (``ladder_top_up``, on the beat schedule) keeps
settings.LADDER_MATCHES_IN_FLIGHT matches in flight, paired by ladder.matchmaking; an ended
match is folded into the ladder's openskill ratings exactly once, in the order matches ended
(``ladder_match_finished``); ``ladder_ratings_recompute`` folds the whole history again.

Each step is safe to run twice (row locks, one match per check, ``LadderMatch.applied``) and
the sweeps (ladder.tasks) find what a dying worker left undone.
"""
from __future__ import annotations

import random
import secrets

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from bots.models import Bot, BotVersion
from bots.services import builtin_bot_versions, match_start
from games.engine import registry
from replays.models import Event, Match

from .matchmaking import History, Player, history_of, next_pairings
from .models import Ladder, LadderEntry, LadderMatch, LadderRating, VersionCheck
from .ratings import conservative, rate_match, rating_model

CHECK_OPPONENT = "random"
# A seat's fault, as the log records it: a forfeit, or a move played for the seat after a fault.
FAULTS = Q(kind="forfeit") | Q(kind="action", payload__has_key="fault")
HISTORY_MATCHES = 200  # the ladder's latest matches the matchmaker reads (recent opponents, seats held)


def version_check_create(*, version: BotVersion) -> VersionCheck | None:
    """A pending check for a newly uploaded ``version`` (call inside the transaction that
    stores it), its start queued for when that commits. None for a built-in bot (passed by
    definition) or while ARENA_CHECK_MATCHES is off."""
    from .tasks import check_version

    if version.bot.kind != Bot.Kind.UPLOADED or not settings.ARENA_CHECK_MATCHES:
        return None
    check, _ = VersionCheck.objects.get_or_create(version=version)
    version_id = version.pk
    transaction.on_commit(lambda: check_version.delay(version_id))
    return check


def version_check_start(*, version_id: int) -> VersionCheck | None:
    """Create and queue the check match of a pending check that has none yet (under the
    check's row lock, so two deliveries make one match): ``version`` in seat 0, the game's
    random bot in the others, at the fewest players the game allows, every option at its
    default, the default clock and fault policy; unrated (it tests the version, it does not
    measure it: no rating moves by it). None if the version has no check."""
    from bots.tasks import play_match

    with transaction.atomic():
        check = (VersionCheck.objects.select_for_update().select_related("version__bot")
                 .filter(version_id=version_id).first())
        if check is None or check.status != VersionCheck.Status.PENDING or check.match_id is not None:
            return check
        version = check.version
        game = version.bot.game
        players = registry.get(game).spec.min_players
        opponent = builtin_bot_versions(game=game, thinking=False)[CHECK_OPPONENT]
        match = match_start(ruleset=game, versions=[version] + [opponent] * (players - 1), queue=False,
                            rated=False)
        Match.objects.filter(pk=match.pk).update(queued_at=timezone.now())
        check.match = match
        check.save(update_fields=["match"])
        match_id = str(match.pk)
        transaction.on_commit(lambda: play_match.apply_async((match_id,), queue=settings.CELERY_LADDER_QUEUE))
    return check


def version_check_finish(*, match_id) -> VersionCheck | None:
    """Write the verdict of the check whose match is ``match_id`` once that match is over:
    ``failed`` with the first fault of the version's seat (a forfeit, or a move played for it
    after a fault) or the abort's reason, else ``passed``. A check decided already, or whose
    match still runs, is left as it is."""
    with transaction.atomic():
        check = (VersionCheck.objects.select_for_update().select_related("match", "version__bot")
                 .filter(match_id=match_id, status=VersionCheck.Status.PENDING).first())
        if check is None or check.match.status == Match.Status.RUNNING:
            return check
        check.status, check.reason, check.fault = _verdict(check.match)
        check.finished_at = timezone.now()
        check.save(update_fields=["status", "reason", "fault", "finished_at"])
        if check.status == VersionCheck.Status.PASSED:
            ladder_entry_update(bot=check.version.bot)
    return check


def _verdict(match: Match) -> tuple[str, str, dict | None]:
    """(status, reason, fault evidence) of a check match that is over."""
    if match.status == Match.Status.ABORTED:
        aborted = Event.objects.filter(match=match, kind="match_aborted").values_list("payload", flat=True).first()
        reason = (aborted or {}).get("reason", "no reason recorded")
        return VersionCheck.Status.FAILED, f"the check match was aborted: {reason}", None
    fault = Event.objects.filter(FAULTS, match=match, seat=0).order_by("seq").first()
    if fault is None:
        return VersionCheck.Status.PASSED, "", None
    evidence = dict(fault.payload) if fault.kind == "forfeit" else dict(fault.payload["fault"])
    evidence.pop("seed", None)
    cause = evidence.get("reason", "fault")
    what = "forfeited" if fault.kind == "forfeit" else "faulted and a move was played for it"
    return VersionCheck.Status.FAILED, f"the version {what} at event {fault.seq}: {cause}", \
        dict(evidence, seq=fault.seq)


# -- the ladders ---------------------------------------------------------------------------------

class RemoteNotAdmitted(ValueError):
    """A remote bot (docs/remote.md) for a ladder that does not admit remote bots."""


def ladder_remote_bots_admit(*, ladder: Ladder, admit: bool) -> Ladder:
    """The operator's choice: whether remote bots join ``ladder`` and are paired on it. Closing
    it leaves their entries, unpaired (ladder_top_up), until it is opened again."""
    Ladder.objects.filter(pk=ladder.pk).update(admits_remote_bots=admit)
    ladder.admits_remote_bots = admit
    return ladder


def ladder_get_or_create(*, game: str, seats: int | None = None) -> Ladder:
    """The ladder of ``game`` (created with ``seats`` seats a match, default 2, and entered: the
    game's built-in bots that do not think for their whole clock, and every uploaded bot with a
    passed version). ValueError for an unknown game or seats the game does not take."""
    from bots.services import _game_name

    game = _game_name(game)
    spec = registry.get(game).spec
    seats = seats or max(2, spec.min_players)
    if not spec.min_players <= seats <= spec.max_players:
        raise ValueError(f"{game} takes {spec.min_players}-{spec.max_players} players, not {seats}")
    with transaction.atomic():
        ladder, created = Ladder.objects.get_or_create(game=game, defaults={"seats": seats})
        if created:
            for version in builtin_bot_versions(game=game, thinking=False).values():
                LadderEntry.objects.get_or_create(ladder=ladder, bot=version.bot, defaults={"version": version})
            passed = Bot.objects.filter(game=game, kind=Bot.Kind.UPLOADED,
                                        versions__version_check__status=VersionCheck.Status.PASSED).distinct()
            for bot in passed:
                ladder_entry_update(bot=bot)
    return ladder


def ladder_entry_update(*, bot: Bot) -> LadderEntry | None:
    """Put ``bot``'s newest passed version on its game's ladder (joining it if the bot is not
    on it yet; a bot its owner took off stays off, with the new version ready). None if the game
    has no ladder yet or the bot has no passed version. A remote bot plays its version 1 (no
    check match), on a ladder that admits remote bots only (RemoteNotAdmitted otherwise)."""
    ladder = Ladder.objects.filter(game=bot.game).first()
    newest = (BotVersion.objects.defer("archive")
              .filter(bot=bot, version_check__status=VersionCheck.Status.PASSED).order_by("-number").first())
    if bot.kind == Bot.Kind.REMOTE and ladder is not None:
        if not ladder.admits_remote_bots:
            raise RemoteNotAdmitted(f"{bot.name} is a remote bot and the {ladder.game} ladder does not admit "
                                    "remote bots (admits_remote_bots, the operator's choice)")
        newest = BotVersion.objects.defer("archive").filter(bot=bot).order_by("-number").first()
    if ladder is None or newest is None:
        return None
    with transaction.atomic():
        entry, created = LadderEntry.objects.select_for_update().get_or_create(
            ladder=ladder, bot=bot, defaults={"version": newest})
        if not created and entry.version_id != newest.pk:
            entry.version, entry.faults = newest, 0
            if entry.off_reason:  # taken off for faults: a new version is a fresh start
                entry.active, entry.off_reason = True, ""
            entry.save(update_fields=["version", "faults", "active", "off_reason"])
    return entry


def ladder_entry_set_active(*, entry: LadderEntry, active: bool) -> LadderEntry:
    """The owner takes the bot off the ladder, or puts it back (its matches in flight finish)."""
    entry.active = active
    if active:
        entry.faults, entry.off_reason = 0, ""
    entry.save(update_fields=["active", "faults", "off_reason"])
    return entry


def ladder_top_up(*, ladder: Ladder, in_flight: int | None = None, queue: bool = True) -> list[LadderMatch]:
    """Create the matches that bring ``ladder``'s matches in flight up to ``in_flight``
    (default settings.LADDER_MATCHES_IN_FLIGHT), paired by ladder.matchmaking, each queued on
    the ladder's queue once this commits (``queue=False``: the caller drives them, as
    ``manage.py ladder`` does). Under the ladder's row lock: two matchmakers never overshoot
    the cap."""
    from bots.tasks import play_match

    cap = settings.LADDER_MATCHES_IN_FLIGHT if in_flight is None else in_flight
    made = []
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder.pk)
        running = list(LadderMatch.objects.filter(ladder=ladder, match__status=Match.Status.RUNNING)
                       .values_list("entries", flat=True))
        wanted = cap - len(running)
        if wanted <= 0:
            return []
        busy = {entry for entries in running for entry in entries}
        active = LadderEntry.objects.filter(ladder=ladder, active=True)
        if not ladder.admits_remote_bots:  # closed to them after they joined: left unpaired
            active = active.exclude(bot__kind=Bot.Kind.REMOTE)
        entries = {e.pk: e for e in active.select_related("version__bot")}
        ratings = {r.version_id: r for r in LadderRating.objects.filter(ladder=ladder, version__in=[e.version_id for e in entries.values()])}
        fresh = _model().rating()
        players = [_player(entry, ratings.get(entry.version_id), fresh, entry.pk in busy) for entry in entries.values()]
        pairings = next_pairings(players, seats=ladder.seats, wanted=wanted, history=_history(ladder),
                                 rng=random.Random(secrets.randbits(64)))
        for pairing in pairings:
            match = match_start(ruleset=ladder.game, versions=[entries[key].version for key in pairing],
                                queue=False, rated=False)
            Match.objects.filter(pk=match.pk).update(queued_at=timezone.now())
            made.append(LadderMatch.objects.create(ladder=ladder, match=match, entries=list(pairing)))
        ids = [str(m.match_id) for m in made]
        if queue:
            transaction.on_commit(lambda: [play_match.apply_async((match_id,), queue=settings.CELERY_LADDER_QUEUE)
                                           for match_id in ids])
    return made


def _player(entry: LadderEntry, rating: "LadderRating | None", fresh, busy: bool) -> Player:
    """The matchmaker's view of an entry: its version's rating (``fresh``: a version that has
    not played yet), games and whether it is in a match in flight."""
    return Player(entry.pk, rating.mu if rating else fresh.mu, rating.sigma if rating else fresh.sigma,
                  rating.games if rating else 0, busy)


def _history(ladder: Ladder, window: int = HISTORY_MATCHES) -> History:
    """Each entry's opponents in the ladder's last ``window`` matches and how often it held
    each seat in them (ladder.matchmaking.history_of): a bounded read, however long the ladder
    has run."""
    rows = LadderMatch.objects.filter(ladder=ladder).order_by("-created_at", "-id").values_list("entries", flat=True)
    return history_of(list(reversed(rows[:window])))


def _model():
    return rating_model()


def ladder_match_finished(*, match_id) -> int:
    """Fold every ended ladder match of the ladder of ``match_id`` that the ratings do not hold
    yet into them, in the order the matches ended (end time, then id), each exactly once; an
    aborted match is marked done without a rating. A seat's fault counts toward taking its bot
    off the ladder (settings.LADDER_MAX_FAULTS in a row). Returns the matches folded in."""
    ladder_id = LadderMatch.objects.filter(match_id=match_id).values_list("ladder_id", flat=True).first()
    if ladder_id is None:
        return 0
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder_id)
        due = list(LadderMatch.objects.filter(ladder=ladder, applied=False)
                   .exclude(match__status=Match.Status.RUNNING).select_related("match")
                   .order_by("match__ended_at", "match_id"))
        model, ratings = _model(), {}
        for ladder_match in due:
            _fold(ladder, ladder_match, model, ratings)
            _count_faults(ladder_match)
        LadderMatch.objects.filter(pk__in=[m.pk for m in due]).update(applied=True)
    return len(due)


def _fold(ladder: Ladder, ladder_match: LadderMatch, model, cache: dict) -> bool:
    """Rate one ended ladder match into the ladder's ratings (``cache``: the rows read so far,
    by version id). A match that was aborted, or seats one version twice, rates nobody."""
    match = ladder_match.match
    versions = [seat.get("bot_version") for seat in match.seats]
    if match.status != Match.Status.ENDED or len(set(versions)) != len(versions):
        return False
    rows = []
    for version in versions:
        if version not in cache:
            fresh = model.rating()
            cache[version] = LadderRating.objects.get_or_create(
                ladder=ladder, version_id=version,
                defaults={"mu": fresh.mu, "sigma": fresh.sigma, "conservative": fresh.ordinal()})[0]
        rows.append(cache[version])
    rated = rate_match(model, [(row.mu, row.sigma) for row in rows], match.result["placings"])
    for row, (mu, sigma) in zip(rows, rated):
        row.mu, row.sigma, row.conservative, row.games = mu, sigma, conservative((mu, sigma)), row.games + 1
        row.save(update_fields=["mu", "sigma", "conservative", "games"])
    return True


def _count_faults(ladder_match: LadderMatch) -> None:
    """A seat that faulted adds one to its entry's faults in a row (a clean match resets them);
    at settings.LADDER_MAX_FAULTS the entry is taken off, with the reason."""
    faulted = set(Event.objects.filter(FAULTS, match_id=ladder_match.match_id).values_list("seat", flat=True))
    for seat, entry_id in enumerate(ladder_match.entries):
        entry = LadderEntry.objects.select_for_update().select_related("bot").filter(pk=entry_id).first()
        if entry is None or entry.bot.kind == Bot.Kind.BUILTIN:
            continue
        entry.faults = entry.faults + 1 if seat in faulted else 0
        if entry.faults >= settings.LADDER_MAX_FAULTS and entry.active:
            entry.active = False
            entry.off_reason = (f"taken off after {entry.faults} ladder matches in a row with a fault "
                                f"(the last: match {ladder_match.match_id}); a new version, or putting it "
                                f"back, starts it again")
        entry.save(update_fields=["faults", "active", "off_reason"])


def ladder_ratings_recompute(*, ladder: Ladder) -> int:
    """The ladder's ratings folded again from its whole history (every ended ladder match in
    the order they ended): the same rows an incremental fold left. Returns matches rated."""
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder.pk)
        LadderRating.objects.filter(ladder=ladder).delete()
        model, cache, rated = _model(), {}, 0
        done = (LadderMatch.objects.filter(ladder=ladder).exclude(match__status=Match.Status.RUNNING)
                .select_related("match").order_by("match__ended_at", "match_id"))
        for ladder_match in done:
            rated += _fold(ladder, ladder_match, model, cache)
        done.update(applied=True)
    return rated
