"""The site's pages (web.site) in headless Chromium, as a visitor sees them: each page with real
content (the leaderboard's rows, the rating chart's points, a draft's entries, a running
tournament's progress), a login through the form, the viewer at the seat of the owner's bot, and
logout. The browser, its Content-Security-Policy check and the live database are those of the
viewer's tests (skipped without Chromium unless ARENA_REQUIRE_BROWSER=1). Screenshots go to
var/test-artifacts/site-<name>.png."""
from django.contrib.auth import get_user_model

from bots.services import bot_create, bot_version_upload, builtin_bot_versions, match_play_builtin, match_start
from games.engine import registry
from replays.models import Match
from tournaments.models import Rating
from tournaments.services import ratings_recompute, tournament_advance, tournament_create, tournament_start
from tournaments.services_drafts import tournament_draft_create, tournament_entry_add

from web import site

from .test_viewer_browser import ARTIFACTS, browser, page  # noqa: F401 (fixtures)

GAME = "sorcado"
OWN_SOURCE = b"import sys\nfor line in sys.stdin:\n    pass\n"


def _user(name):
    return get_user_model().objects.create_user(username=name, password=f"{name}-Secret-123")


def _shot(tab, name, full_page=True):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"site-{name}.png"), full_page=full_page)


def _follow(tab, link, url):
    """Click ``link`` and wait until the page it opens, ``url``, has loaded: a locator's count()
    does not wait, so counting right after a click can count the page being left (a CI run on a
    busy machine counted the home page's game rows)."""
    link.click()
    tab.wait_for_url(url, wait_until="load")


def _arena():
    """Rated matches, a finished, a running and a draft tournament, and alice's bot seated in
    a live match (seat 1)."""
    from bots.driver import match_drive

    builtins = builtin_bot_versions(game=GAME)
    for n in range(4):
        match_play_builtin(ruleset=GAME, bots=["heuristic", "random"], bot_seed=n)
    entries = [builtins[name] for name in ("heuristic", "random", "heuristic", "random")]
    finished = tournament_create(name="Winter cup", game=GAME, format="single-elimination", entries=entries)
    tournament_start(tournament=finished, queue=False)
    for _ in range(20):
        running = Match.objects.filter(pairing_game__pairing__tournament=finished, status=Match.Status.RUNNING)
        if not running.exists() and not tournament_advance(tournament_id=finished.pk, queue=False):
            break
        for match in running:
            match_drive(match_id=match.pk)
    running = tournament_create(name="Spring open", game=GAME, format="round-robin", entries=entries)
    tournament_start(tournament=running, queue=False)
    olga, alice = _user("olga"), _user("alice")
    draft = tournament_draft_create(organiser=olga, name="Summer draft", game=GAME, format="round-robin")
    for name in ("random", "heuristic", "random"):
        tournament_entry_add(tournament=draft, bot_version=builtins[name], by=olga)
    merlin = bot_create(owner=alice, name="merlin", game=GAME)
    own = bot_version_upload(bot=merlin, filename="merlin.py", content=OWN_SOURCE)
    live = match_start(ruleset=GAME, versions=[builtins["random"], own], queue=False)
    ratings_recompute(game=GAME)
    return {"finished": finished, "running": running, "draft": draft, "live": live, "builtins": builtins}


def test_it_shows_every_page_of_the_site(page, live_server, live_db):
    arena = _arena()
    url = live_server.url
    page.goto(f"{url}/")
    assert page.locator(".game-card").count() == len(registry.builtin())
    assert page.locator("#game-sorcado ol.top-bots li").count() == 2
    assert page.locator("tr.tournament-row", has_text="Spring open").count() == 1
    assert page.locator("tr.tournament-row", has_text="Winter cup").count() == 1
    assert page.locator("tr.match-row").count() == min(site.RECENT, Match.objects.count())
    assert page.locator(f"tr.match-row a[href='/matches/{arena['live'].pk}/']").count() == 1  # live ones too
    _shot(page, "home")

    _follow(page, page.locator("nav.site-nav a", has_text="Games"), f"{url}/games/")
    assert page.locator("tr.game-row").count() == len(registry.builtin())
    _shot(page, "games")
    _follow(page, page.locator("tr.game-row a", has_text="Sorcado"), f"{url}/games/{GAME}/")
    rows = page.locator("tr.leaderboard-row")
    assert rows.count() == Rating.objects.filter(game=GAME).count() == 2
    best = Rating.objects.filter(game=GAME).select_related("bot").order_by("-ordinal").first()
    assert rows.first.locator("td").nth(1).inner_text() == best.bot.name
    assert page.locator("#rules .rules-text table").count() > 1  # the rules' clause tables, rendered
    _shot(page, "game", full_page=False)  # the rules run for many screens: their start only
    page.locator("#rules").scroll_into_view_if_needed()
    _shot(page, "game-rules", full_page=False)

    _follow(page, page.locator("nav.site-nav a", has_text="Matches"), f"{url}/matches/")
    assert page.locator("tr.match-row").count() == Match.objects.count()  # anonymous: live ones too
    _shot(page, "matches")

    _follow(page, page.locator("nav.site-nav a", has_text="Tournaments"), f"{url}/tournaments/")
    assert page.locator("tr.tournament-row").count() == 3
    _shot(page, "tournaments")
    draft = arena["draft"].pk
    _follow(page, page.locator("tr.tournament-row a", has_text="Summer draft"), f"{url}/tournaments/{draft}/")
    assert page.locator("tr.entry-row").count() == 3
    _shot(page, "tournament-draft")
    page.goto(f"{url}/tournaments/{arena['running'].pk}/")
    assert page.inner_text("#progress").startswith("Round 1: 0 of 2 pairings decided")
    assert page.locator("#crosstable tr.cross-row").count() == 4  # a round robin: its crosstable
    assert page.locator("#crosstable a.result").all_inner_texts() == ["\u2026"] * 4  # two pairings running
    _shot(page, "tournament-running")

    heuristic = arena["builtins"]["heuristic"].bot
    history = site.rating_history(bot=heuristic)
    page.goto(f"{url}/bots/{heuristic.pk}/")
    points = page.locator("svg#rating-chart circle.point")
    assert points.count() == len(history) == Rating.objects.get(bot=heuristic).matches >= 4
    assert len(page.locator("svg#rating-chart polyline.rating-line").get_attribute("points").split()) == len(history)
    box = page.locator("svg#rating-chart").bounding_box()
    assert box["width"] > 300 and box["height"] > 100  # drawn, not collapsed
    _shot(page, "bot")
    points.last.click()  # a point opens its match in the viewer
    page.wait_for_selector("#viewer[data-ready='1']")
    assert page.url.startswith(f"{url}/matches/{history[-1]['match']}/")

    page.goto(f"{url}/no/such/page/")
    assert page.inner_text("h1") == "Not found"
    _shot(page, "404")


def test_it_logs_in_shows_my_page_and_my_seat_of_a_live_match_and_logs_out(page, live_server, live_db):
    arena = _arena()
    url = live_server.url
    page.goto(f"{url}/matches/{arena['live'].pk}/?seat=1")
    page.wait_for_selector("#viewer[data-ready='1'][data-perspective='public']")  # anonymous: the public view
    options = page.locator("#perspective option")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == ["public"]
    page.locator("#log-in").click()
    page.fill("#id_username", "alice")
    page.fill("#id_password", "alice-Secret-123")
    _shot(page, "login")
    page.locator("#login-form button[type=submit]").click()
    # The form's ?next= brings alice back to the match she wanted, now shown to her.
    page.wait_for_selector("#viewer[data-ready='1']")
    assert page.url.startswith(f"{url}/matches/{arena['live'].pk}/")
    page.goto(f"{url}/me/")
    assert page.locator("tr.bot-row").all_inner_texts()[0].startswith("merlin")
    assert page.locator("tr.bot-row").count() == 1
    _shot(page, "me")
    page.locator("a.watch", has_text="my seat 1").click()
    page.wait_for_selector("#viewer[data-ready='1'][data-perspective='1']")
    options = page.locator("#perspective option")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == ["public", "1"]
    _shot(page, "viewer-my-seat")
    page.goto(f"{url}/")
    page.locator("form.logout button").click()
    page.wait_for_selector("#log-in")
    assert page.url == f"{url}/"
    page.goto(f"{url}/me/")
    assert page.url == f"{url}/login/?next=/me/"
