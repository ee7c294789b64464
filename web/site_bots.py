"""The site's bots: the list of every bot (issue 39.2: ``/bots/``, by game and owner, with its
rating and record), and the upload of a bot's next version (issue 44.5): the owner's form on the
bot page, the same service and the same checks as the API's POST /api/bots/<id>/versions/ (the
upload limits, the manifest of its runtime, bots.uploads). A refusal shows its reason on the bot
page with a 400 and stores nothing; an upload goes back to the bot page, where the new version
and its check match are listed."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import F, OuterRef, Subquery
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from bots.models import Bot, BotVersion
from bots.services import BotNameTaken, bot_create, bot_version_upload
from bots.uploads import UploadRefused
from replays.models import Match
from tournaments.models import Rating

from api.selectors import bot_list_public, bot_profile
from api.serializers_bots import BotCreateInput
from .site import _paged, bot_page_context, game_or_404, games_catalogue, seated, site_page
from api.views_bots import upload_limits


# -- the list of bots ---------------------------------------------------------------------------

def bot_records(bot_ids) -> dict[int, dict]:
    """Each bot's record over its ended matches against other bots: a win where it alone is
    placed first, a draw where it shares first place, else a loss (a two-seat match reads as
    W-D-L; a pod counts first places). A match where a bot holds several seats (self-play)
    counts for none of its seats, as the ratings leave it out. Two queries for any page: the
    versions, then the ended matches seating them (seats and result only)."""
    ids = list(bot_ids)
    records = {pk: {"wins": 0, "draws": 0, "losses": 0} for pk in ids}
    version_bot = dict(BotVersion.objects.filter(bot_id__in=ids).values_list("pk", "bot_id"))
    if not version_bot:
        return records
    ended = Match.objects.filter(seated(version_bot), status=Match.Status.ENDED).values_list("seats", "result")
    for seats, result in ended:
        placings = (result or {}).get("placings")
        if not isinstance(placings, list):
            continue
        bots = [version_bot.get(seat.get("bot_version")) if isinstance(seat, dict) else None for seat in seats]
        for position, bot in enumerate(bots):
            if bot is None or bots.count(bot) > 1 or position >= len(placings):
                continue
            firsts = placings.count(1)
            outcome = "losses" if placings[position] != 1 else "wins" if firsts == 1 else "draws"
            records[bot][outcome] += 1
    return records


@site_page
def bot_list(request):
    """Every bot, by game then rating (unrated last); ``?game=`` and ``?owner=`` (a username, or
    ``builtin``) narrow it; an unknown game or owner is a 404, not an empty list."""
    rating = Rating.objects.filter(bot=OuterRef("pk"), game=OuterRef("game"))
    bots = bot_list_public().annotate(ordinal=Subquery(rating.values("ordinal")[:1]),
                                      rated=Subquery(rating.values("matches")[:1]))
    game = request.GET.get("game") or None
    if game is not None:
        game = game_or_404(game)
        bots = bots.filter(game=game["name"])
    owner = request.GET.get("owner") or None
    if owner == "builtin":
        bots = bots.filter(kind=Bot.Kind.BUILTIN)
    elif owner is not None:
        if not get_user_model().objects.filter(username=owner).exists():
            raise Http404("no such owner")
        bots = bots.filter(owner__username=owner)
    page = _paged(request, bots.order_by("game", F("ordinal").desc(nulls_last=True), "name", "id"))
    records = bot_records(bot.pk for bot in page.object_list)
    for bot in page.object_list:
        bot.record = records[bot.pk]
    owners = get_user_model().objects.filter(bots__isnull=False).distinct().order_by("username") \
        .values_list("username", flat=True)
    return render(request, "site/bots.html", {"page": page, "game": game, "owner": owner,
                                              "games": games_catalogue(), "owners": list(owners)})


# -- a new bot ----------------------------------------------------------------------------------

@site_page
@login_required
@require_http_methods(["GET", "POST"])
def bot_create_page(request):
    """The form for a new bot of mine (name, game, description), checked as POST /api/bots/
    checks it (its input serializer, bots.services.bot_create); its page next, to upload its
    first version. A refusal shows its reasons with the API's status (409 for a taken name)."""
    context = {"games": games_catalogue(), "form": request.POST}
    if request.method == "GET":
        return render(request, "site/bot_new.html", context)
    data = BotCreateInput(data={k: request.POST[k] for k in ("name", "game", "description") if k in request.POST})
    if not data.is_valid():
        errors = [f"{field}: {message}" for field, messages in data.errors.items() for message in messages]
        return render(request, "site/bot_new.html", {**context, "errors": errors}, status=400)
    try:
        bot = bot_create(owner=request.user, **data.validated_data)
    except BotNameTaken as exc:
        return render(request, "site/bot_new.html", {**context, "errors": [str(exc)]}, status=409)
    except ValueError as exc:
        return render(request, "site/bot_new.html", {**context, "errors": [str(exc)]}, status=400)
    return redirect("site-bot", bot.pk)


# -- a version uploaded from the bot page -------------------------------------------------------


def _refusal(request, bot, reason: str, status: int):
    """The bot page again, with the reason above the form."""
    return render(request, "site/bot.html", bot_page_context(request, bot, upload_error=reason), status=status)


@site_page
@require_POST
@login_required
def bot_version_upload_page(request, bot_id):
    """Upload the file of the form's ``file`` field as the bot's next version (owner only)."""
    bot = bot_profile(bot_id=bot_id)
    if bot is None:
        raise Http404("no such bot")
    if bot.owner_id != request.user.pk:
        return HttpResponseForbidden("only the bot's owner uploads versions")
    upload = request.FILES.get("file")
    if upload is None:
        return _refusal(request, bot, "choose a file: a .py file, or a .zip with main.py or an arena.json", 400)
    limit = upload_limits().max_upload_bytes
    if upload.size > limit:
        return _refusal(request, bot, f"the upload is over the limit of {limit:,} bytes", 413)
    try:
        version = bot_version_upload(bot=bot, filename=upload.name, content=upload.read())
    except UploadRefused as exc:
        return _refusal(request, bot, exc.reason, 400)
    except ValueError as exc:
        return _refusal(request, bot, str(exc), 400)
    return redirect(f"/bots/{bot.pk}/?uploaded={version.number}")
