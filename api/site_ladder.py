"""The site's ladder pages (docs/ladder.md): every game's ladder, one ladder's leaderboard and
latest matches, and the owner's switch on a bot's page that takes it off its ladder or puts it
back (the same service as the API's PATCH)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from ladder.models import Ladder, LadderEntry
from ladder.selectors import ladder_leaderboard, ladder_summaries
from ladder.services import ladder_entry_set_active

from .site import GAME_RECENT, _paged, _title, game_or_404, match_rows, matches_shown, site_page


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
    board = _paged(request, ladder_leaderboard(ladder=ladder))
    latest = matches_shown(request.user).filter(ladder_match__ladder=ladder)[:GAME_RECENT]
    return render(request, "site/ladder.html", {"game": game, "ladder": ladder, "board": board,
                                                "matches": match_rows(latest)})


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
