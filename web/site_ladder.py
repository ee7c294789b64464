"""The site's ladder pages (docs/ladder.md): every game's ladder, one ladder's leaderboard and
latest matches, and the owner's switch on a bot's page that takes it off its ladder or puts it
back (the same service as the API's PATCH)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from ladder.models import Ladder, LadderEntry, LadderRating
from ladder.selectors import ladder_leaderboard, ladder_rating_history, ladder_summaries
from ladder.services import ladder_entry_set_active

from .pages import _spread
from .site import (CHART_BOTTOM, CHART_HEIGHT, CHART_LEFT, CHART_MARKS, CHART_RIGHT, CHART_TOP, CHART_WIDTH,
                   GAME_RECENT, _paged, _tick, _title, game_or_404, match_rows, matches_shown, rating_chart,
                   seated, site_page)

CHART_BOTS = 5  # the leaderboard's top bots drawn on a ladder's rating chart
VERSION_RECENT = 5  # matches listed under each version on a bot's page
VERSION_RECENT_READ = 200  # ... taken from the bot's latest matches (one query, whatever the page holds)


@site_page
def ladder_list(request):
    """Every game's ladder: its bots, matches made and in flight."""
    rows = [dict(row, title=_title(row["game"])) for row in ladder_summaries()]
    return render(request, "site/ladders.html", {"ladders": rows})


@site_page
def ladder_detail(request, name):
    """One ladder: the leaderboard (mu - 3 sigma) and the latest ladder matches."""
    game = game_or_404(name)
    ladder = Ladder.objects.filter(game=game["name"]).first()
    if ladder is None:
        raise Http404(f"{game['title']} has no ladder yet")
    rows = ladder_leaderboard(ladder=ladder)
    board = _paged(request, rows)
    latest = matches_shown(request.user).filter(ladder_match__ladder=ladder)[:GAME_RECENT]
    history = ladder_rating_history(ladder=ladder)
    series = [{"bot": row["bot"], "version": row["version"], "points": history[row["entry"].version_id]}
              for row in rows if history.get(row["entry"].version_id)][:CHART_BOTS]
    return render(request, "site/ladder.html", {"game": game, "ladder": ladder, "board": board,
                                                "matches": match_rows(latest), "chart": ladder_chart(series)})


def ladder_chart(series: list[dict]) -> dict | None:
    """Coordinates for the SVG chart of several bots' ratings on one ladder (web.site's chart,
    one line a bot): x the ladder's match number (its rated matches in the order they ended, so
    the lines share one time axis), y the conservative rating mu - 3 sigma after each of the
    bot's matches; None without a point. ``series``: ``{"bot", "version", "points"}`` with the
    points of ladder.selectors.ladder_rating_history."""
    if not series:
        return None
    values = [p["ordinal"] for s in series for p in s["points"]]
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = (low + high) / 2 - 0.5, (low + high) / 2 + 0.5
    first = min(p["number"] for s in series for p in s["points"])
    last = max(p["number"] for s in series for p in s["points"])

    def x(n):
        return CHART_LEFT + (CHART_WIDTH * (n - first) / (last - first) if last > first else CHART_WIDTH / 2)

    def y(v):
        return CHART_TOP + CHART_HEIGHT * (high - v) / (high - low)

    lines = []
    for index, line in enumerate(series):
        points = [(x(p["number"]), y(p["ordinal"])) for p in line["points"]]
        marks = [{"x": f"{px:.1f}", "y": f"{py:.1f}", "k": i + 1, **line["points"][i]}
                 for i, (px, py) in _spread(list(enumerate(points)), CHART_MARKS // len(series))]
        lines.append({"index": index, "bot": line["bot"], "version": line["version"], "marks": marks,
                      "line": " ".join(f"{px:.1f},{py:.1f}" for px, py in points),
                      "games": len(line["points"]), "now": line["points"][-1]["ordinal"]})
    levels = [{"y": f"{y(v):.1f}", "label": _tick(v)} for v in (high, (low + high) / 2, low)]
    return {"width": CHART_LEFT + CHART_WIDTH + CHART_RIGHT, "height": CHART_TOP + CHART_HEIGHT + CHART_BOTTOM,
            "left": CHART_LEFT, "right": CHART_LEFT + CHART_WIDTH, "levels": levels, "series": lines,
            "first": first, "last": last}


def version_ladder_rows(*, versions, ladder, user) -> list[dict]:
    """For each of ``versions`` (a page of a bot's versions): its rating on ``ladder`` (the
    bot's; None if it never joined one) now and after each of its ladder matches (the chart),
    and its latest matches. A fixed number of queries: the ladder's fold (cached) and ratings,
    and the versions' latest VERSION_RECENT_READ matches (and their bots), shared out by
    version."""
    versions = list(versions)
    history = ladder_rating_history(ladder=ladder) if ladder else {}
    ratings = ({r.version_id: r for r in LadderRating.objects.filter(ladder=ladder, version__in=versions)}
               if ladder else {})
    recent = list(matches_shown(user).filter(seated([v.pk for v in versions]))[:VERSION_RECENT_READ])
    mine: dict[int, list] = {v.pk: [] for v in versions}
    for match in recent:
        for version_id in {s.get("bot_version") for s in match.seats if isinstance(s, dict)} & mine.keys():
            if len(mine[version_id]) < VERSION_RECENT:
                mine[version_id].append(match)
    rows_by_match = {row["match"].pk: row for row in match_rows({m for ms in mine.values() for m in ms})}
    return [{"version": v, "rating": ratings.get(v.pk), "chart": rating_chart(history.get(v.pk, [])),
             "chart_id": f"ladder-chart-v{v.number}",
             "matches": [rows_by_match[m.pk] for m in mine[v.pk]]} for v in versions]


@require_POST
@login_required
def ladder_entry_toggle(request, bot_id):
    """The owner's switch: off the ladder, or back on (then to the bot's page)."""
    entry = LadderEntry.objects.select_related("bot").filter(bot_id=bot_id).first()
    if entry is None:
        raise Http404("this bot is on no ladder")
    if entry.bot.owner_id != request.user.pk:
        return HttpResponseForbidden("only the bot's owner takes it off its ladder or puts it back")
    ladder_entry_set_active(entry=entry, active=request.POST.get("active") == "1")
    return redirect("site-bot", bot_id=bot_id)


@site_page
@login_required
def scrimmage_list(request):
    """The signed-in user's scrimmages, and the form that asks for a new one (a refusal is shown
    with its reason, and nothing is stored)."""
    from bots.models import Bot
    from django.conf import settings
    from ladder.models import Scrimmage
    from ladder.scrimmages import ScrimmageRefused, scrimmage_create, scrimmage_record

    mine = Bot.objects.filter(owner=request.user).order_by("game", "name")
    everyone = Bot.objects.select_related("owner").order_by("game", "kind", "name")
    error, status = "", 200
    if request.method == "POST":
        try:
            bot = mine.get(pk=int(request.POST.get("bot", "0")))
            opponents = list(everyone.filter(pk__in=[int(pk) for pk in request.POST.getlist("opponents")]))
            games = int(request.POST.get("games", "0"))
            scrimmage = scrimmage_create(owner=request.user, bot=bot, opponents=opponents, games=games,
                                         rated=request.POST.get("rated") == "1")
            return redirect("site-scrimmage", scrimmage_id=scrimmage.pk)
        except ScrimmageRefused as exc:  # a ValueError too: first
            error, status = str(exc), exc.status
        except (ValueError, Bot.DoesNotExist):
            error, status = "choose one of your bots, its opponents and a number of games", 400
    scrimmages = [dict(scrimmage=s, **scrimmage_record(scrimmage=s))
                  for s in Scrimmage.objects.filter(owner=request.user).select_related("version__bot")[:50]]
    response = render(request, "site/scrimmages.html", {
        "mine": mine, "everyone": everyone, "scrimmages": scrimmages, "error": error,
        "max_games": settings.SCRIMMAGE_MAX_GAMES, "posted": request.POST})
    response.status_code = status
    return response


@site_page
@login_required
def scrimmage_detail(request, scrimmage_id):
    """One of the user's scrimmages: W-T-L and every game, linked to its replay."""
    from ladder.models import Scrimmage
    from ladder.scrimmages import scrimmage_record

    scrimmage = Scrimmage.objects.select_related("version__bot").filter(pk=scrimmage_id, owner=request.user).first()
    if scrimmage is None:
        raise Http404("no such scrimmage of yours")
    return render(request, "site/scrimmage.html", {"scrimmage": scrimmage, "title": _title(scrimmage.game),
                                                   **scrimmage_record(scrimmage=scrimmage)})
