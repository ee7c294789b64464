"""Reads of the ladder app."""
from __future__ import annotations

from .models import VersionCheck


def version_check_of(*, version) -> VersionCheck | None:
    """The check of ``version`` (None: a built-in bot, or uploaded while checks were off)."""
    return VersionCheck.objects.filter(version=version).first()


def version_check_line(*, version) -> str:
    """The check in words, for the command line."""
    if version.format == "builtin":
        return "check match: passed (a built-in bot, by definition)"
    check = version_check_of(version=version)
    if check is None:
        return "check match: none (uploaded while ARENA_CHECK_MATCHES was off)"
    if check.status == VersionCheck.Status.PENDING:
        return f"check match: pending (match {check.match_id or 'not started yet'}; a ladder worker plays it)"
    if check.status == VersionCheck.Status.PASSED:
        return f"check match: passed (match {check.match_id})"
    return f"check match: failed (match {check.match_id}): {check.reason}"


def ladder_leaderboard(*, ladder) -> list[dict]:
    """The ladder's active entries, best first by the conservative rating (mu - 3 sigma of the
    version they play with; an entry whose version has not played yet is at the fresh rating),
    each with its rank, games and uncertainty."""
    from openskill.models import PlackettLuce

    from .models import LadderEntry, LadderRating

    fresh = PlackettLuce().rating()
    entries = list(LadderEntry.objects.filter(ladder=ladder, active=True).select_related("bot__owner", "version"))
    ratings = {r.version_id: r for r in LadderRating.objects.filter(ladder=ladder, version__in=[e.version_id for e in entries])}
    rows = []
    for entry in entries:
        rating = ratings.get(entry.version_id)
        mu, sigma = (rating.mu, rating.sigma) if rating else (fresh.mu, fresh.sigma)
        rows.append({"entry": entry, "bot": entry.bot, "version": entry.version.number, "mu": mu, "sigma": sigma,
                     "conservative": mu - 3 * sigma, "games": rating.games if rating else 0})
    rows.sort(key=lambda row: (-row["conservative"], row["entry"].pk))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows


def ladder_summaries() -> list[dict]:
    """Every ladder with its active bots, matches made and matches in flight."""
    from django.db.models import Count, Q

    from replays.models import Match

    from .models import Ladder

    ladders = Ladder.objects.annotate(
        active=Count("entries", filter=Q(entries__active=True), distinct=True),
        made=Count("matches", distinct=True),
        running=Count("matches", filter=Q(matches__match__status=Match.Status.RUNNING), distinct=True))
    return [{"game": ladder.game, "seats": ladder.seats, "entries": ladder.active, "matches": ladder.made,
             "in_flight": ladder.running, "created_at": ladder.created_at} for ladder in ladders.order_by("game")]
