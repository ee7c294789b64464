"""Scrimmages (docs/ladder.md, "Scrimmages"): N games on request between one of a user's bots
and any bot (or a set of bots) of its game, rated on the ladder or not, as Battlecode's ranked
and unranked scrimmages. Writes here; ``ScrimmageRefused`` says why a request was refused, and
a refused request stores nothing.

Games cycle through the opponents and alternate the seats (the requester first in game 0,
second in game 1, ...); each has its own fresh seed. A rated scrimmage's games are ladder
matches too (LadderMatch), folded into the ladder's ratings like the matchmaker's; an unrated
one moves no rating anywhere. Its matches go to the ladder's queue.
"""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from bots.models import Bot, BotVersion
from bots.services import match_start
from replays.models import Match

from .models import Ladder, LadderEntry, LadderMatch, Scrimmage, ScrimmageMatch, VersionCheck


class ScrimmageRefused(ValueError):
    """A scrimmage that cannot be played: ``code`` for the API, the message for people."""

    def __init__(self, message: str, *, code: str, status: int = 400):
        super().__init__(message)
        self.code, self.status = code, status


def playable_version(bot: Bot) -> BotVersion | None:
    """What ``bot`` plays with: a built-in or remote bot's version 1, an uploaded bot's newest
    version that passed its check match (None: none has)."""
    versions = BotVersion.objects.defer("archive").filter(bot=bot).order_by("-number")
    if bot.kind in (Bot.Kind.BUILTIN, Bot.Kind.REMOTE):
        return versions.first()
    return versions.filter(version_check__status=VersionCheck.Status.PASSED).first()


def scrimmage_create(*, owner, bot: Bot, opponents: list[Bot], games: int, rated: bool = False,
                     queue: bool = True) -> Scrimmage:
    """Check the request, then create its games at once (queued on the ladder's queue once this
    commits; ``queue=False``: the caller drives them). Raises ScrimmageRefused with the reason:
    someone else's bot, a bot of another game, a version that has not passed its check, a bot
    against itself, too many games, a limit of the owner's reached, a rated scrimmage off the
    ladder."""
    from bots.tasks import play_match

    versions = _checked(owner=owner, bot=bot, opponents=opponents, games=games, rated=rated)
    with transaction.atomic():
        # The owner's scrimmages are counted under a lock on the user's row: two requests at
        # once cannot both slip under a limit.
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        _check_limits(owner=owner, games=games)
        mine, others = versions[0], versions[1:]
        scrimmage = Scrimmage.objects.create(owner=owner, game=bot.game, version=mine,
                                             opponents=[v.pk for v in others], games=games, rated=rated)
        entries = _ladder_entries(bot.game, [mine, *others]) if rated else {}
        ids = []
        for index in range(games):
            other = others[index % len(others)]
            seat = index % 2
            seated = [mine, other] if seat == 0 else [other, mine]
            match = match_start(ruleset=bot.game, versions=seated, queue=False, rated=False)
            Match.objects.filter(pk=match.pk).update(queued_at=timezone.now())
            ScrimmageMatch.objects.create(scrimmage=scrimmage, match=match, index=index, seat=seat)
            if rated:
                LadderMatch.objects.create(ladder=entries[mine.pk].ladder, match=match,
                                           entries=[entries[v.pk].pk for v in seated])
            ids.append(str(match.pk))
        if queue:
            transaction.on_commit(lambda: [play_match.apply_async((i,), queue=settings.CELERY_LADDER_QUEUE)
                                           for i in ids])
    return scrimmage


def _checked(*, owner, bot: Bot, opponents: list[Bot], games: int, rated: bool) -> list[BotVersion]:
    """The requester's version and the opponents' (in order), or ScrimmageRefused."""
    if bot.owner_id is None or bot.owner_id != owner.pk:
        raise ScrimmageRefused(f"{bot.name} is not your bot: a scrimmage is asked for one of your own",
                               code="not_owner", status=403)
    if not opponents:
        raise ScrimmageRefused("name at least one opponent", code="no_opponent")
    top = settings.SCRIMMAGE_MAX_GAMES
    if type(games) is not int or not 1 <= games <= top:
        raise ScrimmageRefused(f"a scrimmage has 1 to {top} games, not {games}", code="too_many_games")
    strangers = [o.name for o in opponents if o.game != bot.game]
    if strangers:
        raise ScrimmageRefused(f"{', '.join(strangers)} play another game than {bot.game}", code="other_game")
    if any(o.pk == bot.pk for o in opponents):
        raise ScrimmageRefused(f"{bot.name} cannot scrimmage against itself", code="against_itself")
    _check_remote(owner=owner, bots=[bot, *opponents], rated=rated)
    versions = []
    for candidate in [bot, *opponents]:
        version = playable_version(candidate)
        if version is None:
            raise ScrimmageRefused(f"{candidate.name} has no version that passed its check match",
                                   code="no_passed_version")
        versions.append(version)
    if rated:
        _ladder_entries(bot.game, versions)
    return versions


def _check_remote(*, owner, bots: list[Bot], rated: bool) -> None:
    """Remote bots (docs/remote.md) play a scrimmage where the game's ladder admits them; an
    unrated one also takes the requester's own remote bots (their owner's client is the one
    asking). Others' remote bots are refused there: nobody asked their clients to play."""
    remote = [b for b in bots if b.kind == Bot.Kind.REMOTE]
    if not remote or Ladder.objects.filter(game=bots[0].game, admits_remote_bots=True).exists():
        return
    foreign = [b.name for b in remote if b.owner_id != owner.pk]
    if rated or foreign:
        names = ", ".join(foreign if not rated else [b.name for b in remote])
        raise ScrimmageRefused(f"{names}: remote bots, and the {bots[0].game} ladder does not admit remote bots "
                               f"({'a rated scrimmage is played on it' if rated else 'only your own remote bots play an unrated scrimmage there'})",
                               code="remote_not_admitted", status=409)


def _check_limits(*, owner, games: int) -> None:
    """SCRIMMAGE_MAX_OPEN open scrimmages, SCRIMMAGE_GAMES_PER_DAY games in any 24 hours."""
    open_now = Scrimmage.objects.filter(owner=owner, status=Scrimmage.Status.OPEN).count()
    if open_now >= settings.SCRIMMAGE_MAX_OPEN:
        raise ScrimmageRefused(f"you have {open_now} open scrimmages; the limit is {settings.SCRIMMAGE_MAX_OPEN} "
                               f"(wait for one to finish)", code="limit_open", status=429)
    since = timezone.now() - dt.timedelta(days=1)
    today = sum(Scrimmage.objects.filter(owner=owner, created_at__gte=since).values_list("games", flat=True))
    if today + games > settings.SCRIMMAGE_GAMES_PER_DAY:
        raise ScrimmageRefused(f"{today} scrimmage games in the last 24 hours and {games} more would pass the "
                               f"limit of {settings.SCRIMMAGE_GAMES_PER_DAY} a day", code="limit_games", status=429)


def _ladder_entries(game: str, versions: list[BotVersion]) -> dict[int, LadderEntry]:
    """The active ladder entries playing these versions (by version id): a rated scrimmage is
    played on the ladder, so each side must be on it with that version."""
    entries = {e.version_id: e for e in LadderEntry.objects.select_related("ladder", "bot")
               .filter(ladder__game=game, active=True, version__in=versions)}
    missing = [v.bot.name for v in versions if v.pk not in entries]
    if missing:
        raise ScrimmageRefused(f"a rated scrimmage is played on the {game} ladder, and {', '.join(missing)} "
                               f"is not on it (with its newest passed version)", code="not_on_ladder")
    if next(iter(entries.values())).ladder.seats != 2:
        raise ScrimmageRefused(f"the {game} ladder plays pods; a scrimmage has two seats", code="not_on_ladder")
    return entries


def scrimmage_match_finished(*, match_id) -> Scrimmage | None:
    """When the last game of a scrimmage is over, the scrimmage is finished."""
    row = ScrimmageMatch.objects.select_related("scrimmage").filter(match_id=match_id).first()
    if row is None:
        return None
    with transaction.atomic():
        scrimmage = Scrimmage.objects.select_for_update().get(pk=row.scrimmage_id)
        if scrimmage.status == Scrimmage.Status.OPEN and not Match.objects.filter(
                scrimmage_match__scrimmage=scrimmage, status=Match.Status.RUNNING).exists():
            scrimmage.status, scrimmage.finished_at = Scrimmage.Status.FINISHED, timezone.now()
            scrimmage.save(update_fields=["status", "finished_at"])
    return scrimmage


def scrimmage_record(*, scrimmage: Scrimmage) -> dict:
    """W-T-L from the requester's seat, and each game: its match, opponent, seat and outcome
    (``win``, ``tie``, ``loss``; ``aborted``; None while it runs)."""
    rows = list(ScrimmageMatch.objects.filter(scrimmage=scrimmage).select_related("match").order_by("index"))
    names = dict(BotVersion.objects.filter(pk__in=scrimmage.opponents).values_list("pk", "bot__name"))
    record, games = {"wins": 0, "ties": 0, "losses": 0, "pending": 0, "aborted": 0}, []
    for row in rows:
        match, outcome = row.match, None
        if match.status == Match.Status.ENDED:
            placings = match.result["placings"]
            mine, theirs = placings[row.seat], placings[1 - row.seat]
            outcome = "win" if mine < theirs else "tie" if mine == theirs else "loss"
            record[{"win": "wins", "tie": "ties", "loss": "losses"}[outcome]] += 1
        elif match.status == Match.Status.ABORTED:
            outcome = "aborted"
            record["aborted"] += 1
        else:
            record["pending"] += 1
        other = match.seats[1 - row.seat]
        games.append({"index": row.index, "match": match.pk, "seat": row.seat, "status": match.status,
                      "opponent": other.get("bot"), "opponent_version": other.get("version"),
                      "outcome": outcome})
    return {"record": record, "games": games, "opponent_names": names}
