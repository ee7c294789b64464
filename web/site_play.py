"""The play page (docs/play.md): a signed-in person chooses a game, opponents, a seat, a clock
and the game's options, and is sent to their seat in the match's viewer. The form is the
server's (no script): ``?game=`` names the game whose opponents and options it offers. A refusal
shows its reason in the form, and nothing is stored (ladder.play.play_create)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse

from bots.models import Bot
from games.engine import registry
from games.engine.protocol import options_schema
from ladder.play import DEFAULT_CLOCK, PlayRefused, play_create, play_opponents

from .site import game_or_404, games_catalogue, site_page


def option_fields(game: str, posted=None) -> list[dict]:
    """The game's options as form fields: a select for a choice, a checkbox for a yes/no, a
    number or a text box otherwise; each with its default, its help and what was posted."""
    ruleset = registry.get(game)
    fields = []
    for option in options_schema(type(ruleset.options({}))):
        default, name = option["default"], option["name"]
        kind = ("choice" if option.get("choices") else "bool" if isinstance(default, bool)
                else "int" if isinstance(default, int) else "text")
        value = posted.get(f"option-{name}") if posted is not None else None
        fields.append({**option, "min": option.get("min"), "max": option.get("max"), "kind": kind, "field": f"option-{name}", "id": f"play-option-{name}",
                       "value": default if value is None else value,
                       "checked": (value == "1") if posted is not None else bool(default),
                       "choices": [{"value": str(c), "label": str(c) if c != "" else "(none)"}
                                   for c in option.get("choices") or ()]})
    return fields


def _options(game: str, posted) -> dict:
    """The posted options, typed as their defaults (ValueError for a number that is none)."""
    options = {}
    for field in option_fields(game):
        default, text = field["default"], posted.get(field["field"])
        if field["kind"] == "bool":
            options[field["name"]] = text == "1"
        elif text is None:
            continue
        elif isinstance(default, int):
            options[field["name"]] = int(text)
        else:
            options[field["name"]] = text
    return options


def _seconds(posted, name: str, default_ms: int) -> int:
    text = posted.get(name)
    return default_ms if text in (None, "") else int(text) * 1000


@site_page
@login_required
def play_page(request):
    """GET: the games, and for ``?game=`` its form. POST: start the match and go to the seat."""
    games = games_catalogue()
    name = request.POST.get("game") or request.GET.get("game")
    game = game_or_404(name) if name else None
    error, status, posted = "", 200, request.POST if request.method == "POST" else None
    if request.method == "POST" and game is not None:
        try:
            opponents = _opponents(request.POST, game)
            clock = {"move_ms": _seconds(request.POST, "move_seconds", DEFAULT_CLOCK["move_ms"]),
                     "bank_ms": _seconds(request.POST, "bank_seconds", DEFAULT_CLOCK["bank_ms"]),
                     "increment_ms": _seconds(request.POST, "increment_seconds", DEFAULT_CLOCK["increment_ms"])}
            match = play_create(user=request.user, game=game["name"], opponents=opponents,
                                seat=int(request.POST.get("seat", "0")), options=_options(game["name"], request.POST),
                                time_control=clock)
            seat = next(i for i, s in enumerate(match.seats) if s["bot"] == "person" and s["kind"] == "remote")
            return redirect(f"{reverse('match-page', args=[match.pk])}?seat={seat}")
        except PlayRefused as exc:  # a ValueError too: first
            error, status = str(exc), exc.status
        except ValueError:
            error, status = "seats, seconds and numeric options are whole numbers", 400
    context = {"games": games, "game": game, "error": error, "title": "Play"}
    if game is not None:
        spec = registry.get(game["name"]).spec
        chosen = [posted.get(f"opponent-{i}", "") for i in range(1, spec.max_players)] if posted else []
        context.update({
            "opponents": play_opponents(user=request.user, game=game["name"]),
            "opponent_slots": [{"index": i, "required": i < spec.min_players,
                                "chosen": chosen[i - 1] if chosen else ""}
                               for i in range(1, spec.max_players)],
            "seats": list(range(spec.max_players)), "seat": posted.get("seat", "0") if posted else "0",
            "options": option_fields(game["name"], posted),
            "move_seconds": posted.get("move_seconds") if posted else DEFAULT_CLOCK["move_ms"] // 1000,
            "bank_seconds": posted.get("bank_seconds") if posted else DEFAULT_CLOCK["bank_ms"] // 1000,
            "increment_seconds": posted.get("increment_seconds") if posted else 0})
    response = render(request, "site/play.html", context)
    response.status_code = status
    return response


def _opponents(posted, game: dict) -> list[Bot]:
    """The opponents chosen, in seat order (an empty choice is no opponent); ValueError for a
    choice that names no bot."""
    ids = [posted.get(f"opponent-{i}", "") for i in range(1, registry.get(game["name"]).spec.max_players)]
    ids = [int(text) for text in ids if text]
    found = Bot.objects.in_bulk(ids)
    if len(found) != len(set(ids)):
        raise PlayRefused("an opponent chosen is no bot", code="opponent")
    return [found[pk] for pk in ids]
