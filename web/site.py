"""The site for people: a home page, the games with their rules and leaderboards, the lists of
tournaments and matches, a page per bot (its rating over time drawn server-side), "my page",
login and logout, and a 404 page of the site's own.

Server-rendered like the viewer (web.pages) and under its Content-Security-Policy: no script
and nothing from outside, so the rating chart is inline SVG. Every page is open to anonymous
visitors and shows no more than the API shows them: the matches of api.permissions'
matches_visible_to (every match, a live one by its envelope), never a live match's hidden parts
(no page here folds a running match; the viewer shows its public view, docs/live.md). Lists are pages of
PAGE_SIZE rows read in a fixed number of queries, whatever the page holds.
"""
from __future__ import annotations

import functools
from pathlib import Path

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist
from django.core.paginator import Paginator
from django.db.models import Count, F, Max, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber
from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.safestring import mark_safe

from bots.models import Bot, BotVersion
from games.engine import registry
from ladder.models import LadderEntry
from ladder.play import PERSON
from ladder.selectors import ladder_leaderboard
from replays.models import Match
from tournaments.models import Entry, Rating, Tournament
from tournaments.selectors import rating_fold

from api.errors import json_not_found
from .pages import CONTENT_SECURITY_POLICY, _spread, with_content_security_policy
from api.permissions import matches_visible_to
from api.selectors import bot_profile, leaderboard_ranked
from api.serializers_matches import seat_bots
from api.views_accounts import CredentialThrottle

PAGE_SIZE = 50  # rows of a list page, as the API's default limit
RECENT = 10  # matches and tournaments on the home page
BOARD_TOP = 5  # rows of each game's leaderboard on the home page
GAME_RECENT = 20  # matches on a game's page (the match list has the rest)
RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"
# The rating chart: a plot of CHART_WIDTH x CHART_HEIGHT inside the margins; at most CHART_MARKS
# points are drawn as marks (each a link to its match), the line goes through all of them.
CHART_WIDTH, CHART_HEIGHT, CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 640, 200, 56, 16, 14, 30
CHART_MARKS = 200
# The fold behind a chart is the game's whole rated history; it is kept per bot until another
# match of the game ends (the cache key names the game's count of ended matches and last end).
HISTORY_CACHE_SECONDS = 3600


# -- pages and errors ---------------------------------------------------------------------------

def not_found_page(request, reason: str = ""):
    """The site's 404: the site's frame with a way back, not Django's page (whose DEBUG
    version lists every route)."""
    response = render(request, "site/404.html", {"reason": reason}, status=404)
    response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response


# A page of the site: under the viewer's Content-Security-Policy, and a missing object (an Http404
# raised inside) answered with the site's 404 page, DEBUG or not: handler404 serves only with
# DEBUG off, and a visitor following a stale link should see the site either way. The viewer's
# pages (web.pages) are wrapped the same way.
site_page = with_content_security_policy


def page_not_found(request, exception=None):
    """handler404: the API's JSON envelope under /api/ (api.errors), the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return json_not_found(request, exception)
    return not_found_page(request)


def unknown_page(request, path=""):
    """Any URL no route of the site matches (the last route): the site's 404, DEBUG or not
    (handler404 serves only with DEBUG off, and DEBUG is on by default for a local run). Being
    a route, it makes every path "valid" to CommonMiddleware, which then no longer adds a
    missing slash; so it does: a path without one whose slashed form is a page of its own is
    redirected there, as APPEND_SLASH would."""
    if settings.APPEND_SLASH and not request.path_info.endswith("/"):
        try:
            slashed = resolve(f"{request.path_info}/")
        except Resolver404:
            slashed = None
        if slashed is not None and slashed.url_name != "site-unknown":
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(f"{request.path}/" + (f"?{query}" if query else ""))
    return not_found_page(request)


def _paged(request, items, *, param: str = "page"):
    """Page ``?<param>=`` of ``items``, PAGE_SIZE rows (a COUNT and the page's rows). A number
    that is none or out of range shows the nearest page: an old link still lands somewhere.
    ``prev_query``/``next_query`` are the links to its neighbours, the other parameters kept
    (a page may have several lists, each paged by its own parameter)."""
    page = Paginator(items, PAGE_SIZE).get_page(request.GET.get(param))
    page.prev_query = _query_with(request, param, page.number - 1) if page.has_previous() else None
    page.next_query = _query_with(request, param, page.number + 1) if page.has_next() else None
    return page


def _query_with(request, name: str, value) -> str:
    """The request's query string with ``name`` set to ``value``."""
    query = request.GET.copy()
    query[name] = value
    return f"?{query.urlencode()}"


# -- games --------------------------------------------------------------------------------------

def _game(spec) -> dict:
    return {"name": spec.name, "title": spec.title, "version": spec.version,
            "players": (f"{spec.min_players}" if spec.min_players == spec.max_players
                        else f"{spec.min_players}-{spec.max_players}"),
            "traits": [t for t, on in (("chance", spec.chance), ("hidden information", spec.hidden_information),
                                       ("simultaneous moves", spec.simultaneous)) if on]}


def games_catalogue() -> list[dict]:
    """The games the service ships, by name (registry.builtin: test-only games left out)."""
    return [_game(ruleset.spec) for ruleset in registry.builtin()]


def game_or_404(name: str) -> dict:
    try:
        spec = registry.get(name).spec
    except registry.UnknownRuleset:
        raise Http404("no such game") from None
    if spec.name not in {r.spec.name for r in registry.builtin()}:
        raise Http404("no such game")
    return _game(spec)


def _title(ruleset: str) -> str:
    return registry.get(ruleset).spec.title if ruleset in registry.names() else ruleset


@functools.lru_cache(maxsize=16)
def _rendered_rules(path: Path, mtime: float) -> tuple[str, bool]:
    """The rules page as HTML and True, rendered by markdown-it-py when it is installed; else its
    text and False (the template shows it preformatted). Raw HTML in the markdown is escaped,
    not passed through: the page is ours, but escaping costs nothing."""
    text = path.read_text(encoding="utf-8")
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        return text, False
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    for token in tokens:
        # A table column's alignment is an inline style, which the site's Content-Security-Policy
        # refuses (the browser reports each cell): a class of site.css says it instead.
        align = (token.attrs or {}).get("style", "")
        if align.startswith("text-align:"):
            del token.attrs["style"]
            token.attrSet("class", "align-" + align.split(":", 1)[1])
    return md.renderer.render(tokens, md.options, {}), True


def game_rules(name: str) -> dict | None:
    """docs/rules/<game>.md for the game page: ``{"html"}`` rendered or ``{"text"}`` as it is;
    None for a game without a rules page. Rendered once per file version (lru_cache)."""
    path = RULES_DIR / f"{name}.md"
    if not path.is_file():
        return None
    body, rendered = _rendered_rules(path, path.stat().st_mtime)
    return {"html": mark_safe(body)} if rendered else {"text": body}


def leaderboard_tops(*, top: int = BOARD_TOP) -> dict[str, list[Rating]]:
    """The best ``top`` ratings of every game in one query (a window per game), by game name."""
    order = [F("ordinal").desc(), F("bot_id").asc()]
    rows = Rating.objects.select_related("bot", "bot__owner") \
        .annotate(rank=Window(RowNumber(), partition_by=[F("game")], order_by=order)) \
        .filter(rank__lte=top).order_by("game", "rank")
    tops: dict[str, list[Rating]] = {}
    for row in rows:
        tops.setdefault(row.game, []).append(row)
    return tops


# -- matches ------------------------------------------------------------------------------------

def matches_shown(user):
    """The matches ``user`` may know of (api.permissions), newest first, with the tournament of
    each in the same query; never the seed."""
    return matches_visible_to(user).select_related("pairing_game__pairing__tournament") \
        .defer("seed", "driver_token").order_by("-created_at", "-id")


def seated(version_ids) -> Q:
    """Matches with a seat played by one of ``version_ids`` (seats are JSON: a key lookup per
    position works on SQLite and PostgreSQL alike, as the API's bot filter does)."""
    ids = list(version_ids)
    most = max(registry.get(name).spec.max_players for name in registry.names())
    q = Q(pk__in=[])
    for position in range(most):
        q |= Q(**{f"seats__{position}__bot_version__in": ids})
    return q


def _tournament_of(match: Match) -> Tournament | None:
    try:
        return match.pairing_game.pairing.tournament
    except ObjectDoesNotExist:
        return None


def match_rows(matches, *, own_versions=frozenset()) -> list[dict]:
    """Rows of a match table: game, status, each seat's bot (one query for the whole page) with
    its place once the match ended, the tournament, and the first seat played by one of
    ``own_versions`` (my page links the viewer to that seat's perspective)."""
    matches = list(matches)
    known = seat_bots({s.get("bot_version") for m in matches for s in m.seats
                       if isinstance(s, dict) and type(s.get("bot_version")) is int})
    rows = []
    for match in matches:
        placings = (match.result or {}).get("placings") if match.status == Match.Status.ENDED else None
        seats = []
        for i, seat in enumerate(match.seats):
            seat = seat if isinstance(seat, dict) else {}
            bot = known.get(seat.get("bot_version"), {}).get("bot") or {"id": None, "name": seat.get("bot"),
                                                                        "owner": None}
            seats.append({"seat": i, "bot": bot, "version": seat.get("version"), "kind": seat.get("kind"),
                          "person": seat.get("kind") == "remote" and seat.get("bot") == PERSON and bool(bot["owner"]),
                          "place": placings[i] if isinstance(placings, list) and i < len(placings) else None})
        own = next((i for i, s in enumerate(match.seats)
                    if isinstance(s, dict) and s.get("bot_version") in own_versions), None)
        rows.append({"match": match, "title": _title(match.ruleset), "seats": seats,
                     "tournament": _tournament_of(match), "own_seat": own})
    return rows


# -- ratings over time --------------------------------------------------------------------------

def rating_history(*, bot: Bot) -> list[dict]:
    """The bot's openskill rating after each of its rated matches, oldest first: ``{"match",
    "ended_at", "ordinal", "mu", "sigma", "place"}``. No history is stored (Rating is a cache
    of the last recompute), so this is tournaments.selectors.rating_fold, the fold
    ratings_recompute stores the end of, read step by step (the matches of other bots move its
    opponents' ratings): the last point is the rating a recompute now would store. Cached until
    another match of the game ends."""
    ended = Match.objects.filter(ruleset=bot.game, status=Match.Status.ENDED, imported=False)
    head = ended.aggregate(count=Count("id"), last=Max("ended_at"))
    key = f"site:rating-history:1:{bot.pk}:{head['count']}:{head['last'] and head['last'].isoformat()}"
    history = cache.get(key)
    if history is None:
        ratings, history = {}, []
        for match, bots, rated in rating_fold(game=bot.game, ratings=ratings):
            if rated and bot.pk in bots:
                rating = ratings[bot.pk]
                history.append({"match": str(match.pk), "ended_at": match.ended_at, "ordinal": rating.ordinal(),
                                "mu": rating.mu, "sigma": rating.sigma,
                                "place": match.result["placings"][bots.index(bot.pk)]})
        cache.set(key, history, HISTORY_CACHE_SECONDS)
    return history


def _tick(value: float) -> str:
    return f"{value:.1f}"


def rating_chart(history: list[dict]) -> dict | None:
    """Coordinates for the SVG line chart of ``history``'s ordinals (x: the bot's rated matches
    in order, y: the rating), with three labelled levels; None without a point."""
    if not history:
        return None
    values = [point["ordinal"] for point in history]
    low, high = min(values), max(values)
    if high - low < 1:  # a flat line sits in the middle of a band one point wide
        low, high = (low + high) / 2 - 0.5, (low + high) / 2 + 0.5
    last = max(len(history) - 1, 1)

    def x(i):
        return CHART_LEFT + (CHART_WIDTH * i / last if len(history) > 1 else CHART_WIDTH / 2)

    def y(v):
        return CHART_TOP + CHART_HEIGHT * (high - v) / (high - low)

    points = [(x(i), y(v)) for i, v in enumerate(values)]
    marks = [{"x": f"{px:.1f}", "y": f"{py:.1f}", "n": i + 1, **history[i]}
             for i, (px, py) in _spread(list(enumerate(points)), CHART_MARKS)]
    levels = [{"y": f"{y(v):.1f}", "label": _tick(v)} for v in (high, (low + high) / 2, low)]
    return {"width": CHART_LEFT + CHART_WIDTH + CHART_RIGHT, "height": CHART_TOP + CHART_HEIGHT + CHART_BOTTOM,
            "left": CHART_LEFT, "right": CHART_LEFT + CHART_WIDTH, "bottom": CHART_TOP + CHART_HEIGHT,
            "line": " ".join(f"{px:.1f},{py:.1f}" for px, py in points), "marks": marks, "levels": levels,
            "count": len(history), "first": _tick(values[0]), "now": _tick(values[-1])}


# -- tournaments --------------------------------------------------------------------------------

def tournaments_listed():
    return Tournament.objects.select_related("organiser").annotate(entry_count=Count("entries")) \
        .order_by("-created_at", "-id")


def tournament_overview(*, tournament: Tournament, rounds: list[dict]) -> dict:
    """What the tournament page (web.pages.tournament_page) shows besides the bracket: its
    entries by seed (all a draft has to show) and, once started, its progress: the round it is
    in, how many of that round's pairings are decided, and its matches by status. ``rounds`` is
    tournament_bracket's answer, which the page has read already. Two queries."""
    entries = list(Entry.objects.filter(tournament=tournament).order_by("seed")
                   .select_related("bot_version__bot__owner"))
    progress = None
    if rounds:
        current = rounds[-1]["pairings"]
        counts = dict(Match.objects.filter(pairing_game__pairing__tournament=tournament)
                      .values_list("status").annotate(n=Count("id")).order_by())
        progress = {"round": rounds[-1]["round"], "pairings": len(current),
                    "decided": sum(1 for p in current if p["bye"] or p["placings"] is not None),
                    "ended": counts.get(Match.Status.ENDED, 0), "running": counts.get(Match.Status.RUNNING, 0),
                    "aborted": counts.get(Match.Status.ABORTED, 0)}
    return {"entries": entries, "progress": progress}


# -- views --------------------------------------------------------------------------------------

@site_page
def home(request):
    """The front door: the games, tournaments running and recently finished, the latest
    matches the visitor may see, and the top of each game's leaderboard."""
    games = games_catalogue()
    tops = leaderboard_tops()
    for game in games:
        game["top"] = tops.get(game["name"], [])
    running = tournaments_listed().filter(status=Tournament.Status.RUNNING)[:RECENT]
    finished = tournaments_listed().filter(status=Tournament.Status.FINISHED).order_by("-finished_at", "-id")[:RECENT]
    return render(request, "site/home.html", {
        "games": games, "running": running, "finished": finished,
        "matches": match_rows(matches_shown(request.user)[:RECENT])})


@site_page
def game_list(request):
    """The five games with their player ranges and traits, and how much each has been played."""
    games = games_catalogue()
    ended = dict(Match.objects.filter(status=Match.Status.ENDED).values_list("ruleset")
                 .annotate(n=Count("id")).order_by())
    bots = dict(Bot.objects.values_list("game").annotate(n=Count("id")).order_by())
    for game in games:
        game["ended"], game["bots"] = ended.get(game["name"], 0), bots.get(game["name"], 0)
    return render(request, "site/games.html", {"games": games})


@site_page
def game_detail(request, name):
    """One game: its facts, leaderboard (a page of it: ranks count over the whole board), the
    latest matches, and its rules page."""
    game = game_or_404(name)
    board = _paged(request, leaderboard_ranked(game=game["name"]))
    matches = match_rows(matches_shown(request.user).filter(ruleset=game["name"])[:GAME_RECENT])
    return render(request, "site/game.html", {"game": game, "board": board, "matches": matches,
                                              "rules": game_rules(game["name"])})


@site_page
def match_list(request):
    """Every match the visitor may see, newest first; ``?game=`` and ``?bot=`` narrow it (an
    unknown game or bot is a 404, not an empty list that looks like no matches)."""
    matches = matches_shown(request.user)
    game = request.GET.get("game") or None
    bot = None
    if game is not None:
        game = game_or_404(game)
        matches = matches.filter(ruleset=game["name"])
    if request.GET.get("bot"):
        text = request.GET["bot"]
        bot = Bot.objects.filter(pk=int(text)).first() if text.isascii() and text.isdigit() and len(text) < 19 else None
        if bot is None:
            raise Http404("no such bot")
        matches = matches.filter(seated(bot.versions.values_list("pk", flat=True)))
    page = _paged(request, matches)
    return render(request, "site/matches.html", {"page": page, "rows": match_rows(page.object_list),
                                                 "game": game, "bot": bot, "games": games_catalogue()})


@site_page
def tournament_list(request):
    """Every tournament, newest first; ``?status=`` and ``?game=`` narrow it."""
    tournaments = tournaments_listed()
    status = request.GET.get("status") or None
    if status is not None:
        if status not in Tournament.Status.values:
            raise Http404("no such status")
        tournaments = tournaments.filter(status=status)
    game = request.GET.get("game") or None
    if game is not None:
        game = game_or_404(game)
        tournaments = tournaments.filter(game=game["name"])
    return render(request, "site/tournaments.html", {
        "page": _paged(request, tournaments), "status": status, "game": game,
        "statuses": Tournament.Status.values, "games": games_catalogue()})


@site_page
def bot_detail(request, bot_id):
    """A bot: who owns it, its versions, its rating now and over time (chart), its matches."""
    bot = bot_profile(bot_id=bot_id)
    if bot is None:
        raise Http404("no such bot")
    return render(request, "site/bot.html", bot_page_context(request, bot))


def bot_page_context(request, bot: Bot, **extra) -> dict:
    """What the bot page shows (bot_detail, and the upload form's answer: web.site_bots)."""
    versions = _paged(request, BotVersion.objects.filter(bot=bot).defer("archive")
                      .select_related("version_check").order_by("-number"),
                      param="versions")
    history = rating_history(bot=bot)
    matches = matches_shown(request.user).filter(seated(bot.versions.values_list("pk", flat=True)))
    page = _paged(request, matches)
    entry = LadderEntry.objects.select_related("version", "ladder").filter(bot=bot).first()
    ladder_row = next((row for row in ladder_leaderboard(ladder=entry.ladder) if row["entry"].pk == entry.pk),
                      None) if entry and entry.active else None
    from .site_bots import bot_records
    from .site_ladder import version_ladder_rows

    return {
        "version_rows": version_ladder_rows(versions=versions.object_list, ladder=entry and entry.ladder,
                                            user=request.user),
        "entry": entry, "ladder_row": ladder_row, "is_owner": request.user.is_authenticated and bot.owner_id == request.user.pk,
        "bot": bot, "title": _title(bot.game), "versions": versions,
        "rating": next((r for r in bot.ratings.all() if r.game == bot.game), None),
        "history": history, "chart": rating_chart(history), "page": page,
        "rows": match_rows(page.object_list), "record": bot_records([bot.pk])[bot.pk], **extra}


@site_page
@login_required
def my_page(request):
    """The signed-in user's bots (latest version, rating), the tournaments they organise and
    those their bots play in, and their bots' latest matches, live ones included, each linked
    to the viewer at their own seat's perspective (which the viewer shows them while it runs)."""
    user = request.user
    rating = Rating.objects.filter(bot=OuterRef("pk"), game=OuterRef("game"))
    bots = Bot.objects.filter(owner=user).annotate(
        latest_version=Max("versions__number"), ordinal=Subquery(rating.values("ordinal")[:1]),
        rated=Subquery(rating.values("matches")[:1])).order_by("game", "name", "id")
    own_versions = set(BotVersion.objects.filter(bot__owner=user).values_list("pk", flat=True))
    entered = tournaments_listed().filter(
        pk__in=Entry.objects.filter(bot_version__bot__owner=user).values("tournament_id"))
    matches = matches_shown(user).filter(seated(own_versions))[:GAME_RECENT]
    return render(request, "site/me.html", {
        "bots": _paged(request, bots, param="bots"),
        "organised": _paged(request, tournaments_listed().filter(organiser=user), param="organised"),
        "entered": _paged(request, entered, param="entered"),
        "matches": match_rows(matches, own_versions=own_versions)})


class LoginView(auth_views.LoginView):
    """Django's login, its attempts counted with the API's password checks (CredentialThrottle:
    per client address, API_THROTTLE_CREDENTIALS), so the form is no unthrottled way to guess
    a password. Over the rate: a 429 with the form and how long to wait."""

    template_name = "site/login.html"
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        throttle = CredentialThrottle()
        if not throttle.allow_request(request, None):
            wait = throttle.wait()
            minutes = max(1, round((wait or 60) / 60))
            return self.render_to_response(self.get_context_data(throttled_minutes=minutes), status=429)
        return super().post(request, *args, **kwargs)


login_view = site_page(LoginView.as_view())
# Django 5's LogoutView answers POST only (a link could log anyone out); the nav posts a form
# with the CSRF token, and LOGOUT_REDIRECT_URL takes the visitor home.
logout_view = site_page(auth_views.LogoutView.as_view())
