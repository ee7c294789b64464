"""The site's upload of a bot's next version (issue 44.5): the owner's form on the bot page, the
same service and the same checks as the API's POST /api/bots/<id>/versions/ (the upload limits,
the manifest of its runtime, bots.uploads). A refusal shows its reason on the bot page with a 400
and stores nothing; an upload goes back to the bot page, where the new version and its check
match are listed."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from bots.services import bot_version_upload
from bots.uploads import UploadRefused

from .selectors import bot_profile
from .site import bot_page_context, site_page
from .views_bots import upload_limits


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
