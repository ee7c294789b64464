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
