"""The site for people (web.site) with Django's test client: every page from real matches,
bots and tournaments, open to anonymous visitors without a live match's hidden parts; login and
logout through django.contrib.auth's views with CSRF enforced; my page; the viewer at the seat
of a bot its owner logged in for; the site's own 404; paging; and a bounded number of queries
per list page, whatever its length (no query per row)."""
import json
import re
import sys

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from web import site
from web.pages import CONTENT_SECURITY_POLICY
from bots.driver import match_drive
from bots.services import bot_create, bot_version_upload, builtin_bot_versions, match_play_builtin, match_start
from games.engine import registry
from replays.models import Match
from replays.selectors import match_folder
from tournaments.models import Rating, Tournament
from tournaments.services import ratings_recompute, tournament_create, tournament_start
from tournaments.services_drafts import tournament_draft_create, tournament_entry_add

from .test_pages import OWN_SOURCE, _client, _play_out, _user

GAME = "sorcado"
TITLES = [r.spec.title for r in registry.builtin()]


def _get(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code, response.content[:400])
    assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    return response.content.decode()


@pytest.fixture
def builtins(db):
    return builtin_bot_versions(game=GAME)


@pytest.fixture
def rated(builtins):
    """Three ended matches of heuristic against random, rated."""
    matches = [match_play_builtin(ruleset=GAME, bots=["heuristic", "random"], bot_seed=n) for n in range(3)]
    ratings_recompute(game=GAME)
    return matches


@pytest.fixture
def finished_cup(builtins):
    entries = [builtins[name] for name in ("heuristic", "random", "heuristic", "random")]
    cup = tournament_create(name="Winter cup", game=GAME, format="single-elimination", entries=entries)
    tournament_start(tournament=cup, queue=False)
    _play_out(cup)
    assert cup.status == Tournament.Status.FINISHED
    ratings_recompute(game=GAME)  # on commit in production; the test's transaction never commits
    return cup


@pytest.fixture
def running_cup(builtins):
    """A round robin of four started: round 1's two matches created, not played."""
    entries = [builtins[name] for name in ("heuristic", "random", "heuristic", "random")]
    cup = tournament_create(name="Spring open", game=GAME, format="round-robin", entries=entries)
    tournament_start(tournament=cup, queue=False)
    return cup


@pytest.fixture
def draft_cup(builtins):
    organiser = _user("olga")
    cup = tournament_draft_create(organiser=organiser, name="Summer draft", game=GAME, format="round-robin")
    for name in ("random", "heuristic", "random"):
        tournament_entry_add(tournament=cup, bot_version=builtins[name], by=organiser)
    return cup


@pytest.fixture
def live_match(builtins):
    """A running Sorcado match past the deal and a few looks: hidden cards exist."""
    match = match_start(ruleset=GAME, versions=[builtins["heuristic"], builtins["random"]], queue=False)
    assert match_drive(match_id=match.pk, max_events=12) == "paused"
    match.refresh_from_db()
    return match


# -- pages --------------------------------------------------------------------------------------

def test_it_shows_the_home_page_with_games_tournaments_matches_and_leaderboards(
        rated, finished_cup, running_cup, live_match):
    html = _get(_client(), "/")
    for spec in (r.spec for r in registry.builtin()):
        assert f'href="/games/{spec.name}/">{spec.title}</a>' in html
    assert f'href="/tournaments/{running_cup.pk}/">Spring open</a>' in html
    assert f'href="/tournaments/{finished_cup.pk}/">Winter cup</a>' in html
    for match in rated[-1:]:
        assert f'href="/matches/{match.pk}/"' in html
    # The top of Sorcado's leaderboard: both built-in bots, best first.
    top = list(Rating.objects.filter(game=GAME).order_by("-ordinal", "bot_id"))
    shown = re.findall(r'<li><a href="/bots/(\d+)/">', html.split('id="game-sorcado"')[1].split("</article>")[0])
    assert [int(b) for b in shown] == [r.bot_id for r in top] and len(top) == 2
    # Anonymous visitors see running matches too (docs/live.md), their envelope only.
    assert f'href="/matches/{live_match.pk}/"' in html
    folder = match_folder(match=live_match)
    hidden = set().union(*(folder.ruleset.hidden_items(folder.state, seat) for seat in (None, 0, 1)))
    assert hidden and not [item for item in hidden if item in html]


def test_it_lists_the_games(rated):
    html = _get(_client(), "/games/")
    assert html.count('class="game-row"') == len(TITLES)
    row = html.split('href="/games/sorcado/">Sorcado</a>')[1].split("</tr>")[0]
    assert "chance, hidden information" in row and "<td>2-4</td>" in row
    assert re.search(r'<td class="num">3</td>\s*</tr>', html.split("/games/sorcado/")[1])  # 3 played


def _placeholder():
    """A word in angle brackets in Sorcado's rules page, which a browser would read as a tag."""
    return re.search(r"<([A-Za-z]+)>", (site.RULES_DIR / f"{GAME}.md").read_text()).group(1)


def test_it_shows_a_game_with_its_leaderboard_matches_and_rendered_rules(rated):
    html = _get(_client(), f"/games/{GAME}/")
    ratings = list(Rating.objects.filter(game=GAME).select_related("bot").order_by("-ordinal"))
    rows = re.findall(r'<tr class="leaderboard-row">\s*<td>(\d+)</td>\s*<td><a href="/bots/(\d+)/">', html)
    assert rows == [(str(rank), str(r.bot_id)) for rank, r in enumerate(ratings, start=1)]
    for match in rated:
        assert f'href="/matches/{match.pk}/"' in html
    rules = html.split('id="rules"')[1]
    assert '<div class="rules-text">' in rules and "<table>" in rules and "<td>V.1</td>" in rules
    # Raw HTML of the markdown (a placeholder such as <power>) is escaped, not passed through.
    tag = _placeholder()
    assert f"&lt;{tag}&gt;" in rules and f"<{tag}>" not in rules


def test_a_rules_table_aligns_its_columns_by_class_not_by_the_inline_style_the_policy_refuses(db):
    """Imperial Twing's rules page has right-aligned columns; markdown-it writes them as
    style="text-align:right", which the Content-Security-Policy (no inline style) refuses."""
    rules = _get(_client(), "/games/imperial-twing/").split('id="rules"')[1]
    assert 'class="align-right"' in rules and " style=" not in rules


def test_it_shows_the_rules_as_text_without_a_markdown_library(db, monkeypatch):
    site._rendered_rules.cache_clear()
    monkeypatch.setitem(sys.modules, "markdown_it", None)  # import markdown_it raises ImportError
    try:
        html = _get(_client(), f"/games/{GAME}/")
    finally:
        site._rendered_rules.cache_clear()
    rules = html.split('id="rules"')[1]
    assert '<pre class="rules-text">' in rules and "| V.1 |" in rules and "<table>" not in rules
    tag = _placeholder()
    assert f"&lt;{tag}&gt;" in rules and f"<{tag}>" not in rules


def test_it_lists_matches_that_anyone_may_see_with_filters(rated, finished_cup, live_match):
    anonymous = _get(_client(), "/matches/")
    ended = Match.objects.filter(status=Match.Status.ENDED)
    assert ended.count() == 3 + 3
    assert anonymous.count('class="match-row"') == Match.objects.count()  # the live ones too
    assert f'href="/matches/{live_match.pk}/"' in anonymous
    heuristic = builtin_bot_versions(game=GAME)["heuristic"].bot
    assert f'<a href="/bots/{heuristic.pk}/">heuristic</a>' in anonymous
    cup_match = Match.objects.filter(pairing_game__pairing__tournament=finished_cup).first()
    row = anonymous.split(f'href="/matches/{cup_match.pk}/"')[0].rsplit('<tr class="match-row">', 1)[1]
    assert f'href="/tournaments/{finished_cup.pk}/">Winter cup</a>' in row
    assert 'class="place place-1">1.</span>' in row
    # A spectator, signed in or not, sees the live match by its envelope only: no hidden card of it.
    spectator = _get(_client(_user("sam")), "/matches/")
    assert spectator.count('class="match-row"') == Match.objects.count()
    folder = match_folder(match=live_match)
    hidden = set().union(*(folder.ruleset.hidden_items(folder.state, seat) for seat in (None, 0, 1)))
    assert hidden and not [item for item in hidden if item in spectator or item in anonymous]
    # Filters: by game, by bot; an unknown one is the site's 404.
    assert "No matches yet." in _get(_client(), "/matches/?game=warlock")
    assert _get(_client(), f"/matches/?game={GAME}").count('class="match-row"') == 6 + 1  # the live one too
    random = builtin_bot_versions(game=GAME)["random"]
    seating = [m.pk for m in Match.objects.all() if random.pk in [seat["bot_version"] for seat in m.seats]]
    by_bot = _get(_client(), f"/matches/?bot={random.bot_id}")
    assert sorted(re.findall(r'href="/matches/([0-9a-f-]{36})/"', by_bot)) == sorted(map(str, seating))
    assert seating
    idle = bot_create(owner=_user("ida"), name="idle", game=GAME)
    assert "No matches yet." in _get(_client(), f"/matches/?bot={idle.pk}")
    for query in ("game=chess", "bot=abc", "bot=999999"):
        assert "Not found" in _get(_client(), f"/matches/?{query}", status=404)


def test_it_pages_long_lists(rated, monkeypatch):
    monkeypatch.setattr(site, "PAGE_SIZE", 2)
    first = _get(_client(), "/matches/")
    assert first.count('class="match-row"') == 2 and "page 1 of 2 (3 in all)" in first
    assert 'href="?page=2"' in first
    second = _get(_client(), "/matches/?page=2")
    assert second.count('class="match-row"') == 1 and 'href="?page=1"' in second
    ids = set(re.findall(r'href="/matches/([0-9a-f-]{36})/"', first + second))
    assert ids == {str(m.pk) for m in rated}
    def shown(html):
        return re.findall(r'href="/matches/([0-9a-f-]{36})/"', html)

    assert shown(_get(_client(), "/matches/?page=99")) == shown(second)  # out of range: the last page
    assert shown(_get(_client(), "/matches/?page=abc")) == shown(first)
    # Other parameters are kept in the links.
    assert f'href="?game={GAME}&amp;page=2"' in _get(_client(), f"/matches/?game={GAME}")


def test_it_lists_tournaments_with_filters(finished_cup, running_cup, draft_cup):
    html = _get(_client(), "/tournaments/")
    assert html.count('class="tournament-row"') == 3
    for cup in (finished_cup, running_cup, draft_cup):
        assert f'href="/tournaments/{cup.pk}/">{cup.name}</a>' in html
    drafts = _get(_client(), "/tournaments/?status=draft")
    assert drafts.count('class="tournament-row"') == 1 and "Summer draft" in drafts
    assert "<td>3</td>" in drafts  # its entries
    assert "No tournaments." in _get(_client(), "/tournaments/?game=warlock")
    assert "Not found" in _get(_client(), "/tournaments/?status=bogus", status=404)


def test_it_shows_a_drafts_entries_and_a_running_tournaments_progress(running_cup, draft_cup, finished_cup):
    draft = _get(_client(), f"/tournaments/{draft_cup.pk}/")
    rows = re.findall(r'<tr class="entry-row"><td>(\d+)</td><td><a href="/bots/\d+/">(\w+)</a>', draft)
    assert rows == [("1", "random"), ("2", "heuristic"), ("3", "random")]
    assert "organised by olga" in draft and 'id="bracket"' not in draft
    running = _get(_client(), f"/tournaments/{running_cup.pk}/")
    progress = " ".join(running.split('id="progress">')[1].split("</p>")[0].split())
    assert progress.startswith("Round 1: 0 of 2 pairings decided") and "2 running" in progress
    # A round robin: its crosstable, not a bracket; round 1's pairings are running (…), linked.
    assert 'id="crosstable"' in running and 'id="bracket"' not in running and "Standings" in running
    assert running.count('class="cross-row"') == 4 and running.count(">\u2026</a>") == 4
    finished = _get(_client(), f"/tournaments/{finished_cup.pk}/")
    progress = " ".join(finished.split('id="progress">')[1].split("</p>")[0].split())
    assert progress == "2 rounds · 3 matches ended"
    assert 'id="bracket"' in finished and 'id="crosstable"' not in finished  # an elimination: its bracket
    assert '<nav class="site-nav"' in finished


def test_it_shows_a_bot_with_versions_matches_and_its_rating_over_time(rated, finished_cup):
    owner = _user("alice")
    bot = bot_create(owner=owner, name="merlin", game=GAME, description="Looks twice, swaps never.")
    for n in range(2):
        bot_version_upload(bot=bot, filename="merlin.py", content=OWN_SOURCE + b"#%d\n" % n)
    html = _get(_client(), f"/bots/{bot.pk}/")
    assert "merlin" in html and "by alice" in html and "Looks twice, swaps never." in html
    assert re.findall(r'<tr class="version-row"><td>v(\d+)</td>', html) == ["2", "1"]
    assert "No rated matches yet." in html

    heuristic = builtin_bot_versions(game=GAME)["heuristic"].bot
    rating = Rating.objects.get(game=GAME, bot=heuristic)
    history = site.rating_history(bot=heuristic)
    # The fold is the recompute's: one point per rated match, ending at the stored rating.
    assert len(history) == rating.matches >= 4
    assert history[-1]["ordinal"] == pytest.approx(rating.ordinal, abs=1e-9)
    html = _get(_client(), f"/bots/{heuristic.pk}/")
    chart = html.split('<svg id="rating-chart"')[1].split("</svg>")[0]
    points = re.search(r'<polyline class="rating-line" points="([^"]+)"', chart).group(1).split()
    assert len(points) == len(history) == chart.count('<circle class="point')
    ys = [float(p.split(",")[1]) for p in points]
    ordinals = [p["ordinal"] for p in history]
    # Higher ratings are drawn higher (smaller y), and every point links to its match.
    assert all((a < b) == (ya > yb) for a, b, ya, yb in zip(ordinals, ordinals[1:], ys, ys[1:]) if a != b)
    assert re.findall(r'<a href="/matches/([0-9a-f-]{36})/"><circle', chart) == [p["match"] for p in history]
    assert f"rating {rating.ordinal:.2f}" in html
    # Its own matches only: the cup's final is random against random when both heuristics lose
    # in round 1 (the deal follows from each match's random id).
    versions = set(heuristic.versions.values_list("pk", flat=True))
    own = [m for m in Match.objects.filter(status=Match.Status.ENDED)
           if any(seat.get("bot_version") in versions for seat in m.seats)]
    assert html.split("<h2>Matches</h2>")[1].count('class="match-row"') == len(own) >= 4
    # Another ended match is a new point at once (the cache is keyed by the game's ended matches).
    match_play_builtin(ruleset=GAME, bots=["random", "heuristic"], bot_seed=7)
    assert len(site.rating_history(bot=heuristic)) == len(history) + 1
    assert "Not found" in _get(_client(), "/bots/999999/", status=404)


def test_my_page_lists_only_my_bots_and_tournaments(builtins):
    alice, bob = _user("alice"), _user("bob")
    merlin = bot_create(owner=alice, name="merlin", game=GAME)
    merlin_v1 = bot_version_upload(bot=merlin, filename="m.py", content=OWN_SOURCE)
    bot_create(owner=alice, name="circe", game="warlock")
    morgana = bot_create(owner=bob, name="morgana", game=GAME)
    tournament_draft_create(organiser=alice, name="Alices league", game=GAME, format="round-robin")
    bobs = tournament_draft_create(organiser=bob, name="Bobs open", game=GAME, format="round-robin")
    tournament_draft_create(organiser=bob, name="Bobs private", game=GAME, format="round-robin")
    tournament_entry_add(tournament=bobs, bot_version=merlin_v1, by=alice)

    html = _get(_client(alice), "/me/")
    bots = re.findall(r'<tr class="bot-row"><td><a href="/bots/(\d+)/">(\w+)</a>', html)
    assert sorted(name for _, name in bots) == ["circe", "merlin"]
    organised, entered = html.split("Tournaments I organise")[1].split("Tournaments my bots play in")
    assert "Alices league" in organised and "Bobs" not in organised
    assert "Bobs open" in entered and "Bobs private" not in entered and "Alices league" not in entered
    assert "morgana" not in html
    html = _get(_client(bob), "/me/")
    assert f'href="/bots/{morgana.pk}/">morgana</a>' in html and "merlin" not in html and "circe" not in html
    assert "Bobs private" in html and "Alices league" not in html
    # Anonymous visitors are sent to log in first.
    response = _client().get("/me/")
    assert response.status_code == 302 and response["Location"] == "/login/?next=/me/"


# -- login, logout and the viewer -----------------------------------------------------------------

def _token(html):
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def _login(client, username, next_url=None):
    """Log in through the site's form, as a browser does: the token from the page it got."""
    url = "/login/" + (f"?next={next_url}" if next_url else "")
    form = _get(client, url)
    data = {"username": username, "password": f"{username}-Secret-123", "csrfmiddlewaretoken": _token(form)}
    if next_url:
        data["next"] = next_url
    return client.post("/login/", data)


def test_it_logs_in_and_out_through_the_form_with_csrf_checked(db):
    alice = _user("alice")
    client = Client(enforce_csrf_checks=True)
    form = _get(client, "/login/")
    assert 'id="login-form"' in form and 'name="password"' in form
    # Without the token (or with a wrong one) the login is refused, and nobody is logged in.
    data = {"username": "alice", "password": "alice-Secret-123"}
    assert client.post("/login/", data).status_code == 403
    assert client.post("/login/", {**data, "csrfmiddlewaretoken": "x" * 64}).status_code == 403
    assert client.get("/me/").status_code == 302
    # A wrong password: the form again, with the reason.
    wrong = client.post("/login/", {**data, "password": "nope", "csrfmiddlewaretoken": _token(form)})
    assert wrong.status_code == 200 and "did not match" in wrong.content.decode()
    response = _login(client, "alice")
    assert response.status_code == 302 and response["Location"] == "/me/"
    me = _get(client, "/me/")
    assert "alice" in me and 'action="/logout/"' in me and int(client.session["_auth_user_id"]) == alice.pk
    # Logout: by POST only, with the token.
    assert client.get("/logout/").status_code == 405
    assert client.post("/logout/").status_code == 403
    assert client.get("/me/").status_code == 200  # still logged in
    response = client.post("/logout/", {"csrfmiddlewaretoken": _token(me)})
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/me/").status_code == 302
    assert 'id="log-in"' in _get(client, "/")


def test_it_counts_login_attempts_with_the_apis_password_checks(db, settings):
    _user("alice")
    settings.API_THROTTLE_CREDENTIALS = "3/hour"
    client = Client(enforce_csrf_checks=True)
    token = _token(_get(client, "/login/"))
    wrong = {"username": "alice", "password": "guess", "csrfmiddlewaretoken": token}
    assert [client.post("/login/", wrong).status_code for _ in range(2)] == [200, 200]
    # The API's token creation by password draws on the same count, per address.
    assert client.post("/api/tokens/", {"username": "alice", "password": "guess", "name": "x"},
                       content_type="application/json").status_code in (400, 401, 403)
    refused = client.post("/login/", {**wrong, "password": "alice-Secret-123"})
    assert refused.status_code == 429 and "Too many login attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_any_user_logs_in_not_only_staff(db):
    _user("nina")
    assert _login(Client(enforce_csrf_checks=True), "nina").status_code == 302


def _viewer_data(html):
    start = html.index('<script id="viewer-data" type="application/json">')
    start = html.index(">", start) + 1
    return json.loads(html[start:html.index("</script>", start)])


def test_an_owner_logged_in_sees_their_seat_of_a_live_match_and_another_user_does_not(builtins):
    alice, _ = _user("alice"), _user("bob")
    merlin = bot_create(owner=alice, name="merlin", game=GAME)
    own = bot_version_upload(bot=merlin, filename="m.py", content=OWN_SOURCE)
    match = match_start(ruleset=GAME, versions=[builtins["random"], own], queue=False)
    viewer = f"/matches/{match.pk}/?seat=1"

    owner = Client(enforce_csrf_checks=True)
    response = _login(owner, "alice", next_url=viewer)
    assert response.status_code == 302 and response["Location"] == viewer  # back to the seat
    data = _viewer_data(_get(owner, viewer))
    assert data["perspective"] == "1" and [p["value"] for p in data["perspectives"]] == ["public", "1"]
    assert owner.get(f"/matches/{match.pk}/frames.json?seat=1").status_code == 200
    # My page links the live match at my seat.
    assert f'href="/matches/{match.pk}/?seat=1">watch (my seat 1)</a>' in _get(owner, "/me/")

    other = Client(enforce_csrf_checks=True)
    assert _login(other, "bob").status_code == 302
    html = _get(other, viewer)
    data = _viewer_data(html)
    assert data["perspective"] == "public" and [p["value"] for p in data["perspectives"]] == ["public"]
    assert "is hidden while the match runs" in html
    assert other.get(f"/matches/{match.pk}/frames.json?seat=1").status_code == 403
    # An anonymous visitor sees the public perspective, as bob does (docs/live.md).
    html = _get(Client(), viewer)
    data = _viewer_data(html)
    assert data["perspective"] == "public" and [p["value"] for p in data["perspectives"]] == ["public"]
    assert "is hidden while the match runs" in html
    assert Client().get(f"/matches/{match.pk}/frames.json?seat=1").status_code == 403


# -- the 404 page ---------------------------------------------------------------------------------

def test_it_answers_with_its_own_404_page(db, settings):
    html = _get(_client(), "/no/such/page/", status=404)
    assert "<h1>Not found</h1>" in html and 'class="site-nav"' in html and "/no/such/page/" in html
    assert "<title>Not Found</title>" not in html  # Django's own page
    assert 'class="site-nav"' in _get(_client(), "/tournaments/999999/", status=404)
    api = _client().get("/api/no/such/")
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"
    settings.DEBUG = True  # the site's pages answer with it in DEBUG too
    for url in ("/bots/999999/", "/games/chess/", "/matches/?bot=999999"):
        html = _get(_client(), url, status=404)
        assert "<h1>Not found</h1>" in html and "Using the URLconf" not in html


# -- queries --------------------------------------------------------------------------------------

LIST_PAGES = ["/", "/games/", f"/games/{GAME}/", "/matches/", "/tournaments/", "/me/", "/bots/"]


def _count_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200, url
    return len(queries)


def test_every_list_page_reads_in_a_bounded_number_of_queries(rated, finished_cup, django_assert_max_num_queries):
    """Every list page costs the same number of queries with 1 or many rows of each list: one
    per list (and its count), none per row."""
    alice, builtins = _user("alice"), builtin_bot_versions(game=GAME)

    def more(n):
        """A bot of alice's with a version, a live match of it, a league she organises with it."""
        bot = bot_create(owner=alice, name=f"merlin{n}", game=GAME)
        version = bot_version_upload(bot=bot, filename="m.py", content=OWN_SOURCE + b"#%d\n" % n)
        match_start(ruleset=GAME, versions=[builtins["random"], version], queue=False)
        league = tournament_draft_create(organiser=alice, name=f"league {n}", game=GAME, format="round-robin")
        tournament_entry_add(tournament=league, bot_version=version, by=alice)

    more(0)  # one row in every list: an empty list costs no query for its rows
    heuristic = builtins["heuristic"].bot
    pages = [*LIST_PAGES, f"/bots/{heuristic.pk}/", f"/tournaments/{finished_cup.pk}/"]
    client = _client(alice)
    site.rating_history(bot=heuristic)  # the chart's fold, cached: measured by the next test
    before = {url: _count_queries(client, url) for url in pages}
    # More of everything: bots, versions, matches (some live), tournaments, ratings.
    for n in range(1, 5):
        more(n)
        match_play_builtin(ruleset=GAME, bots=["random", "heuristic"], bot_seed=10 + n)
    ratings_recompute(game=GAME)
    site.rating_history(bot=heuristic)
    after = {url: _count_queries(client, url) for url in pages}
    assert after == before
    # And few: the session and its user, then a count and a page per list, the bots of a page of
    # matches; the tournament page folds its results twice (bracket, standings) as before; a
    # bot's page also reads its ladder entry (one query; its game has no ladder here) and its
    # versions' latest matches with their bots (two: web.site_ladder.version_ladder_rows) and
    # its record (two: its versions, the ended matches seating them: web.site_bots.bot_records);
    # the bot list reads its page's records the same way, and the owners for its filter (one).
    most = {"/": 8, "/games/": 4, f"/games/{GAME}/": 6, "/matches/": 5, "/tournaments/": 4, "/me/": 11,
            "/bots/": 7, f"/bots/{heuristic.pk}/": 16, f"/tournaments/{finished_cup.pk}/": 16}
    for url in pages:
        with django_assert_max_num_queries(most[url]):
            client.get(url)


def test_a_bots_chart_folds_the_history_in_two_queries_once_per_ended_match(rated, django_assert_num_queries):
    heuristic = builtin_bot_versions(game=GAME)["heuristic"].bot
    with django_assert_num_queries(3):  # the game's head, the version->bot map, the matches
        site.rating_history(bot=heuristic)
    with django_assert_num_queries(1):  # cached until another match of the game ends
        site.rating_history(bot=heuristic)
