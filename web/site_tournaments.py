"""Tournaments organised from the site (issue 39.3): create a draft, enter bots, start it and
cancel it, with the API's input serializer and services (tournament_draft_create,
tournament_entry_add, tournament_draft_start, tournament_cancel) and so the same checks: a
refusal is the tournament's page (or the form) again with the service's reason, under the
status the API gives it (REFUSAL_STATUS). And the crosstable of a round robin, drawn instead
of its bracket: a row and a column per entry, each cell the row's results against the column's
entry (1, ½, 0 by their places; a link to each match), then points and tie-breaks.
"""
from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.db.models import Max
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from bots.models import Bot, BotVersion
from tournaments.models import Tournament
from tournaments.services import tournament_cancel
from tournaments.services_drafts import (DraftRefused, tournament_draft_create, tournament_draft_start,
                                         tournament_entry_add)

from api.serializers_tournaments import FORMAT_CHOICES, TournamentCreateInput
from .site import games_catalogue, site_page
from api.views_tournaments import REFUSAL_STATUS

CROSSTABLE_FORMATS = ("round-robin",)
SCORE_TEXT = {1.0: "1", 0.5: "\u00bd", 0.0: "0"}


# -- the crosstable -----------------------------------------------------------------------------

def _score(mine: int, theirs: int) -> float:
    """The row's score against the column's entry in one pairing, by their places."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def crosstable(*, entries: list, rounds: list[dict], standings: list[dict]) -> dict:
    """Rows of the crosstable: each entry by seed with its cells (one per entry, its own cell
    blank), its points, rank and tie-breaks from ``standings``. A cell lists the row's results
    against that entry, one per pairing they met in (a double round robin meets twice), each
    with the pairing's matches to link; a pairing not decided yet shows its matches only."""
    seeds = [entry.seed for entry in entries]
    by_entry = {entry.pk: entry.seed for entry in entries}
    cells = {(a, b): [] for a in seeds for b in seeds if a != b}
    for rnd in rounds:
        for pairing in rnd["pairings"]:
            if pairing["bye"]:
                continue
            placings = {int(k): v for k, v in (pairing["placings"] or {}).items()}
            seated = [s["entry"] for s in pairing["seats"]]
            for mine in seated:
                for theirs in seated:
                    if mine == theirs or (by_entry.get(mine), by_entry.get(theirs)) not in cells:
                        continue
                    decided = mine in placings and theirs in placings
                    score = _score(placings[mine], placings[theirs]) if decided else None
                    cells[(by_entry[mine], by_entry[theirs])].append({
                        "round": rnd["round"], "score": score, "text": SCORE_TEXT.get(score, "\u2026"),
                        "matches": [str(m) for m in pairing["matches"]]})
    standing = {row["seed"]: row for row in standings}
    breaks = list(standings[0]["tiebreaks"]) if standings else []
    rows = []
    for entry in entries:
        row = standing.get(entry.seed, {})
        rows.append({"entry": entry, "seed": entry.seed,
                     "cells": [{"seed": other, "own": other == entry.seed,
                                "results": cells.get((entry.seed, other), [])} for other in seeds],
                     "points": row.get("points"), "rank": row.get("rank"),
                     "tiebreaks": [row.get("tiebreaks", {}).get(name) for name in breaks]})
    return {"seeds": seeds, "rows": rows, "tiebreaks": breaks}


# -- what the tournament page offers its visitor ------------------------------------------------

def enterable_versions(*, tournament: Tournament, user) -> list[BotVersion]:
    """The latest version of each bot ``user`` may enter into the draft: their own bots of its
    game, and the built-in ones when they organise it (the service decides; this is the menu)."""
    if not user.is_authenticated or tournament.status != Tournament.Status.DRAFT:
        return []
    bots = Bot.objects.filter(game=tournament.game, owner=user)
    if tournament.organiser_id == user.pk:
        bots = bots | Bot.objects.filter(game=tournament.game, kind=Bot.Kind.BUILTIN)
    latest = bots.annotate(latest=Max("versions__number")).filter(latest__isnull=False).values_list("pk", "latest")
    pairs = [(pk, number) for pk, number in latest]
    versions = BotVersion.objects.filter(bot_id__in=[pk for pk, _ in pairs]).defer("archive") \
        .select_related("bot__owner")
    wanted = set(pairs)
    return sorted((v for v in versions if (v.bot_id, v.number) in wanted),
                  key=lambda v: (v.bot.kind != Bot.Kind.BUILTIN, v.bot.name, v.bot_id))


def tournament_actions(request, tournament: Tournament) -> dict:
    """The forms the tournament page shows this visitor: entering bots (a draft), starting it
    (its organiser, a draft) and cancelling it (its organiser, a draft or running)."""
    organiser = request.user.is_authenticated and tournament.organiser_id == request.user.pk
    return {"is_organiser": organiser,
            "enterable": enterable_versions(tournament=tournament, user=request.user),
            "can_start": organiser and tournament.status == Tournament.Status.DRAFT,
            "can_cancel": organiser and tournament.status in (Tournament.Status.DRAFT, Tournament.Status.RUNNING)}


# -- views --------------------------------------------------------------------------------------

def _refusal(request, tournament: Tournament, reason: str, status: int):
    """The tournament page again, the reason above its forms."""
    from .pages import tournament_page_response  # web.pages imports this module

    return tournament_page_response(request, tournament, refusal=reason, status=status)


def _draft_status(code: str) -> int:
    return REFUSAL_STATUS.get(code, 400)


@site_page
@login_required
@require_http_methods(["GET", "POST"])
def tournament_create_page(request):
    """The form for a new draft (name, game, format, its settings as JSON, entries per user),
    checked as POST /api/tournaments/ checks it; the draft's page next, to fill it."""
    context = {"games": games_catalogue(), "formats": FORMAT_CHOICES, "form": request.POST}
    if request.method == "GET":
        return render(request, "site/tournament_new.html", context)
    fields = {name: request.POST[name] for name in ("name", "game", "format") if request.POST.get(name)}
    errors = []
    for name in ("format_settings", "time_control"):
        text = request.POST.get(name, "").strip()
        if text:
            try:
                fields[name] = json.loads(text)
            except json.JSONDecodeError as exc:
                errors.append(f"{name.replace('_', ' ')}: not JSON ({exc.msg} at character {exc.pos})")
    if request.POST.get("entries_per_user"):
        fields["entries_per_user"] = request.POST["entries_per_user"]
    data = TournamentCreateInput(data=fields)
    if not errors and not data.is_valid():
        errors = [f"{field.replace('_', ' ')}: {message}" if field != "non_field_errors" else str(message)
                  for field, messages in data.errors.items()
                  for message in (messages if isinstance(messages, list) else [messages])]
    if not errors:
        try:
            tournament = tournament_draft_create(organiser=request.user, **data.validated_data)
        except DraftRefused as exc:
            errors = [exc.reason]
        else:
            return redirect("tournament-page", tournament.pk)
    return render(request, "site/tournament_new.html", {**context, "errors": errors}, status=400)


def _tournament(tournament_id) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("organiser"), pk=tournament_id)


@site_page
@require_POST
@login_required
def tournament_entry_page(request, tournament_id):
    """Enter the chosen bot version (the form's ``version``: a BotVersion id from the menu)."""
    tournament = _tournament(tournament_id)
    text = request.POST.get("version", "")
    version = BotVersion.objects.defer("archive").select_related("bot__owner").filter(pk=int(text)).first() \
        if text.isascii() and text.isdigit() and len(text) < 19 else None
    if version is None:
        return _refusal(request, tournament, "choose a bot to enter", 400)
    try:
        tournament_entry_add(tournament=tournament, bot_version=version, by=request.user)
    except DraftRefused as exc:
        return _refusal(request, tournament, exc.reason, _draft_status(exc.code))
    return redirect(f"/tournaments/{tournament.pk}/?entered={version.bot_id}")


@site_page
@require_POST
@login_required
def tournament_start_page(request, tournament_id):
    """Start the draft (its organiser): the format checks the entries, the first round is paired
    and its matches queued (played in this request when there is no broker, as by the API)."""
    tournament = _tournament(tournament_id)
    if tournament.organiser_id != request.user.pk:
        return _refusal(request, tournament, "only the tournament's organiser may do this", 403)
    try:
        tournament_draft_start(tournament=tournament, queue=True)
    except DraftRefused as exc:
        return _refusal(request, tournament, exc.reason, _draft_status(exc.code))
    return redirect(f"/tournaments/{tournament.pk}/?started=1")


@site_page
@require_POST
@login_required
def tournament_cancel_page(request, tournament_id):
    """Cancel the tournament (its organiser, a draft or running one): its running matches are
    aborted, none of them rated."""
    tournament = _tournament(tournament_id)
    if tournament.organiser_id != request.user.pk:
        return _refusal(request, tournament, "only the tournament's organiser may do this", 403)
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.RUNNING):
        return _refusal(request, tournament, f"the tournament is already {tournament.status}", 409)
    tournament_cancel(tournament=tournament)
    return redirect(f"/tournaments/{tournament.pk}/?cancelled=1")
