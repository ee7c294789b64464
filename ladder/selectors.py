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
    from .models import LadderEntry, LadderRating
    from .ratings import fresh_rating

    fresh_mu, fresh_sigma = fresh_rating()
    entries = list(LadderEntry.objects.filter(ladder=ladder, active=True).select_related("bot__owner", "version"))
    ratings = {r.version_id: r for r in LadderRating.objects.filter(ladder=ladder, version__in=[e.version_id for e in entries])}
    rows = []
    for entry in entries:
        rating = ratings.get(entry.version_id)
        mu, sigma = (rating.mu, rating.sigma) if rating else (fresh_mu, fresh_sigma)
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
             "in_flight": ladder.running, "admits_remote_bots": ladder.admits_remote_bots,
             "created_at": ladder.created_at} for ladder in ladders.order_by("game")]


HISTORY_CACHE_SECONDS = 3600  # a fold is kept until another ladder match is folded in (the key says)


def ladder_rating_history(*, ladder) -> dict[int, list[dict]]:
    """Each version's rating after each of its ladder matches, by version id: the fold of the
    ladder's rated matches in the order they ended (ladder.ratings, the fold ladder.services
    stores), so each version's last point is its rating on the leaderboard. A point: ``number`` (the
    ladder's match number, from 1, in that order), ``match``, ``ended_at``, ``mu``, ``sigma``,
    ``ordinal`` (mu - 3 sigma) and ``place``. Cached until the next match is folded in."""
    from django.core.cache import cache
    from django.db.models import Count, Max

    from replays.models import Match

    from .models import LadderMatch
    from .ratings import conservative, fresh_rating, rate_match, rating_model

    folded = LadderMatch.objects.filter(ladder=ladder, applied=True, match__status=Match.Status.ENDED)
    head = folded.aggregate(count=Count("id"), last=Max("match__ended_at"))
    key = f"ladder:rating-history:2:{ladder.pk}:{head['count']}:{head['last'] and head['last'].isoformat()}"
    history = cache.get(key)
    if history is not None:
        return history
    model, ratings, history = rating_model(), {}, {}
    rows = folded.order_by("match__ended_at", "match_id").values_list("match_id", "match__ended_at", "match__seats",
                                                                    "match__result")
    for n, (match_id, ended_at, seats, result) in enumerate(rows, 1):
        versions = [seat.get("bot_version") for seat in seats]
        if len(set(versions)) != len(versions):
            continue  # one version in two seats rates nobody (ladder.services._fold)
        placings = result["placings"]
        rated = rate_match(model, [ratings.get(v) or fresh_rating(model) for v in versions], placings)
        for version, rating, place in zip(versions, rated, placings):
            ratings[version] = rating
            history.setdefault(version, []).append({
                "number": n, "match": str(match_id), "ended_at": ended_at, "mu": rating[0], "sigma": rating[1],
                "ordinal": conservative(rating), "place": place})
    cache.set(key, history, HISTORY_CACHE_SECONDS)
    return history
