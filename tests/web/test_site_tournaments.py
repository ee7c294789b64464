"""Issue 39.3, tournaments on the site (web.site_tournaments): an organiser creates a draft, fills
it, starts it and cancels another, from the site, with the API's checks (the same refusals with
their reasons and statuses); a round robin shows a crosstable (a row and a column per entry, the
results linked to their matches, points and tie-breaks) which scrolls inside its box on a phone.
In Chromium: olga organises, alice enters her own bot. Screenshots go to
var/test-artifacts/site-tournament-<name>.png."""
import html
import re

from django.conf import settings as django_settings
from django.test import Client

from bots.services import bot_create, bot_version_upload, builtin_bot_versions
from replays.models import Match
from tournaments.models import Entry, Tournament
from tournaments.selectors import tournament_bracket, tournament_standings
from tournaments.services_drafts import tournament_draft_create, tournament_entry_add

from tests.api.conftest import GOOD_SOURCE, make_user, token_client
from .test_viewer_browser import ARTIFACTS, browser  # noqa: F401 (fixtures)

GAME = "sorcado"


def _tab(browser, live_server, user, width=1280):  # noqa: F811 (the fixture, as an argument)
    """A tab with ``user``'s session; it collects script errors and policy violations."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "url": live_server.url,
                          "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value}])
    tab = context.new_page()
    tab.errors = []
    tab.on("pageerror", lambda exc: tab.errors.append(str(exc)))
    tab.on("console", lambda message: tab.errors.append(message.text)
           if message.type == "error" and "Content Security Policy" in message.text else None)
    return context, tab


def _shot(tab, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"site-tournament-{name}.png"), full_page=True)


def _enter(tab, label):
    tab.select_option("#entry-version", label=label)
    tab.click("#entry-form button[type=submit]")
    tab.wait_for_selector("#entered")


def _play_to_the_end(tournament, *, wait_s=180):
    """Drive every match of ``tournament`` and advance it until it is over. A match a worker
    holds (a broker's run: the start queued it) answers "busy"; the worker plays it meanwhile."""
    import time

    from bots.driver import match_drive
    from tournaments.services import tournament_advance

    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        running = Match.objects.filter(pairing_game__pairing__tournament=tournament, status=Match.Status.RUNNING)
        if not running.exists() and not tournament_advance(tournament_id=tournament.pk, queue=False):
            break
        if [match_drive(match_id=match.pk) for match in running].count("busy") == len(running):
            time.sleep(0.2)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_an_organiser_creates_fills_starts_a_round_robin_and_reads_its_crosstable(browser, live_server, live_db,
                                                                                   settings):
    settings.ARENA_ALLOW_UNSANDBOXED_BOTS = True  # alice's upload runs as a process of its own
    olga, alice = make_user("olga"), make_user("alice")
    owl = bot_create(owner=alice, name="owl", game=GAME)
    bot_version_upload(bot=owl, filename="owl.py", content=GOOD_SOURCE)
    builtin_bot_versions(game=GAME)
    url = live_server.url
    context, tab = _tab(browser, live_server, olga)
    try:
        tab.goto(f"{url}/tournaments/")
        tab.click("#new-tournament")
        tab.wait_for_url(f"{url}/tournaments/new/")
        tab.fill("#id_name", "Autumn round robin")
        tab.select_option("#id_game", GAME)
        tab.select_option("#id_format", "round-robin")
        tab.fill("#id_format_settings", '{"cycles": 0}')
        with tab.expect_response(f"{url}/tournaments/new/") as answer:
            tab.click("#tournament-form button[type=submit]")
        assert answer.value.status == 400 and "cycles" in tab.inner_text("#tournament-errors")
        assert not Tournament.objects.exists()
        tab.fill("#id_format_settings", "")
        tab.click("#tournament-form button[type=submit]")
        tab.wait_for_selector("#entry-form")
        tournament = Tournament.objects.get()
        assert tab.url == f"{url}/tournaments/{tournament.pk}/"
        assert (tournament.organiser, tournament.format, tournament.status) == (olga, "round-robin", "draft")

        # Too few entries: the format's refusal, as the API gives it (409 entries_refused).
        _enter(tab, "random v1 (built-in)")
        with tab.expect_response(f"{url}/tournaments/{tournament.pk}/start/") as answer:
            tab.click("#start-form button[type=submit]")
        api = token_client(olga).post(f"/api/tournaments/{tournament.pk}/start/")
        assert answer.value.status == api.status_code == 409
        assert tab.inner_text("#refusal") == api.json()["error"]["detail"]
        for label in ("heuristic v1 (built-in)", "random v1 (built-in)", "heuristic v1 (built-in)"):
            _enter(tab, label)
        _shot(tab, "draft")

        # alice enters her own bot (the only one her menu offers: built-ins are the organiser's).
        alices, alice_tab = _tab(browser, live_server, alice)
        try:
            alice_tab.goto(f"{url}/tournaments/{tournament.pk}/")
            assert alice_tab.locator("#entry-version option").all_inner_texts() == ["owl v1 (alice)"]
            assert alice_tab.locator("#start-form, #cancel-form").count() == 0
            _enter(alice_tab, "owl v1 (alice)")
            assert not alice_tab.errors, alice_tab.errors
        finally:
            alices.close()
        assert Entry.objects.filter(tournament=tournament).count() == 5

        tab.goto(f"{url}/tournaments/{tournament.pk}/")
        # Started with a broker, as a deployment runs: the first round's matches are queued, and
        # the test plays them (the driver a worker runs), round after round. (Without one the
        # start plays the whole tournament inside the request, on the live server's thread.)
        from config.celery import app

        eager, app.conf.task_always_eager = app.conf.task_always_eager, False
        try:
            tab.click("#start-form button[type=submit]")
            tab.wait_for_selector("#started")
        finally:
            app.conf.task_always_eager = eager
        assert tab.locator("#crosstable").count() == 1  # the first round, the rest of the cells empty
        _play_to_the_end(tournament)
        tab.reload()
        tab.wait_for_selector("#crosstable")
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        assert tab.locator("#bracket").count() == 0  # a crosstable instead of the bracket

        # Every cell holds the row's results against the column, linked to the matches.
        standings = {row["seed"]: row for row in tournament_standings(tournament=tournament)}
        rows = tab.locator("tr.cross-row")
        assert rows.count() == 5
        for i in range(5):
            row = rows.nth(i)
            seed = int(row.get_attribute("data-seed"))
            assert row.locator("td.points").inner_text() == str(standings[seed]["points"]).removesuffix(".0") \
                or float(row.locator("td.points").inner_text()) == standings[seed]["points"]
            for other in range(1, 6):
                cell = row.locator(f"td.cell[data-against='{other}']")
                if other == seed:
                    assert "own" in cell.get_attribute("class") and cell.inner_text() == ""
                    continue
                assert cell.locator("a.result").count() == 1
                assert cell.inner_text() in ("1", "0", "\u00bd")
            points = sum({"1": 1, "\u00bd": 0.5, "0": 0}[t] for t in row.locator("a.result").all_inner_texts())
            assert points == standings[seed]["points"]
        # A result links to its match, whose result agrees.
        first = rows.nth(0).locator("a.result").first
        href = first.get_attribute("href")
        match = Match.objects.get(pk=re.search(r"/matches/([0-9a-f-]{36})/", href).group(1))
        assert match.status == Match.Status.ENDED
        _shot(tab, "crosstable")
        first.click()
        tab.wait_for_selector("#viewer[data-ready='1']")
        assert not tab.errors, tab.errors
    finally:
        context.close()

    # On a phone the crosstable scrolls inside its box: the page does not run off the screen.
    context, phone = _tab(browser, live_server, olga, width=390)
    try:
        phone.goto(f"{url}/tournaments/{tournament.pk}/")
        box, table = phone.locator("#crosstable-wrap").bounding_box(), phone.locator("#crosstable").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert table["width"] > box["width"]
        _shot(phone, "crosstable-phone")
    finally:
        context.close()


def test_an_organiser_cancels_a_draft_and_others_may_not(browser, live_server, live_db):
    olga, mallory = make_user("olga"), make_user("mallory")
    draft = tournament_draft_create(organiser=olga, name="Short-lived", game=GAME, format="single-elimination")
    url = live_server.url
    context, tab = _tab(browser, live_server, olga)
    try:
        tab.goto(f"{url}/tournaments/{draft.pk}/")
        tab.click("#cancel-form button[type=submit]")
        tab.wait_for_selector("#cancelled")
        draft.refresh_from_db()
        assert draft.status == Tournament.Status.CANCELLED
        assert tab.locator("#cancel-form, #start-form, #entry-form").count() == 0
        assert not tab.errors, tab.errors
    finally:
        context.close()
    other = Client()
    other.force_login(mallory)
    second = tournament_draft_create(organiser=olga, name="Still on", game=GAME, format="round-robin")
    for action in ("start", "cancel"):
        response = other.post(f"/tournaments/{second.pk}/{action}/")
        assert response.status_code == 403 and "only the tournament&#x27;s organiser" in response.content.decode()
    second.refresh_from_db()
    assert second.status == Tournament.Status.DRAFT


def test_the_site_refuses_what_the_api_refuses_with_the_same_reason(db):
    olga, alice = make_user("olga"), make_user("alice")
    warlock = bot_create(owner=alice, name="warlocky", game="warlock")
    version = bot_version_upload(bot=warlock, filename="w.py", content=GOOD_SOURCE)
    builtins = builtin_bot_versions(game=GAME)
    draft = tournament_draft_create(organiser=olga, name="Cup", game=GAME, format="round-robin")
    site, api = Client(), token_client(alice)
    site.force_login(alice)
    cases = [  # (site form, API request, status)
        ({"version": version.pk}, {"bot": warlock.pk}, 400),  # another game's bot
        ({"version": builtins["random"].pk}, {"bot": builtins["random"].bot_id}, 403),  # built-ins: the organiser's
    ]
    for form, body, status in cases:
        answer = site.post(f"/tournaments/{draft.pk}/entries/", form)
        reply = api.post(f"/api/tournaments/{draft.pk}/entries/", body, format="json")
        assert answer.status_code == reply.status_code == status, (form, answer.status_code, reply.status_code)
        error = reply.json()["error"]
        reason = error["detail"] if status != 400 else error["fields"]["non_field_errors"][0]
        assert reason in html.unescape(answer.content.decode())
    assert not Entry.objects.filter(tournament=draft).exists()
    finished = tournament_draft_create(organiser=olga, name="Done", game=GAME, format="round-robin")
    Tournament.objects.filter(pk=finished.pk).update(status=Tournament.Status.FINISHED)
    site.force_login(olga)
    assert site.post(f"/tournaments/{finished.pk}/cancel/").status_code == 409
    assert token_client(olga).post(f"/api/tournaments/{finished.pk}/cancel/").status_code == 409
    tournament_entry_add(tournament=draft, bot_version=builtins["random"], by=olga)
    assert site.post(f"/tournaments/{draft.pk}/entries/", {"version": "x"}).status_code == 400
    assert site.get("/tournaments/new/").status_code == 200
    assert Client().get("/tournaments/new/").status_code == 302  # to the login page


def test_the_crosstable_of_a_double_round_robin_lists_both_meetings(db):
    from web.site_tournaments import crosstable

    olga = make_user("olga")
    builtins = builtin_bot_versions(game=GAME)
    tournament = tournament_draft_create(organiser=olga, name="Twice", game=GAME, format="round-robin",
                                         format_settings={"cycles": 2})
    for name in ("random", "heuristic", "random"):
        tournament_entry_add(tournament=tournament, bot_version=builtins[name], by=olga)
    from tournaments.services import tournament_start

    tournament_start(tournament=tournament, queue=False)
    _play_to_the_end(tournament)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("seed").select_related("bot_version__bot"))
    table = crosstable(entries=entries, rounds=tournament_bracket(tournament=tournament),
                       standings=tournament_standings(tournament=tournament))
    for row in table["rows"]:
        for cell in row["cells"]:
            assert len(cell["results"]) == (0 if cell["own"] else 2)  # two cycles: they met twice
        scores = [r["score"] for c in row["cells"] for r in c["results"]]
        assert sum(scores) == row["points"]
    # Each meeting is seen from both sides: a 1 on one side is a 0 on the other.
    rows = {row["seed"]: row for row in table["rows"]}
    for a in rows:
        for b in rows:
            if a != b:
                mine = [r["score"] for r in rows[a]["cells"][b - 1]["results"]]
                theirs = [r["score"] for r in rows[b]["cells"][a - 1]["results"]]
                assert [1 - s for s in mine] == theirs
