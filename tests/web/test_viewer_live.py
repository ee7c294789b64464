"""Following a running match in the replay viewer, in headless Chromium (the fixtures and the
rules of tests/web/test_viewer_browser.py: the site's own Content-Security-Policy, no script
evaluated in the page, screenshots in var/test-artifacts/). The match is driven from the test a
few events at a time; the page, opened once, must show each new step without a reload, from
exactly the perspectives its user may see, and the result once the match is over."""
import json
import re
from contextlib import nullcontext
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection
from django.test import Client, override_settings

from bots.driver import match_drive
from bots.services import bot_create, bot_version_upload, builtin_bot_versions, match_start
from replays.models import Match
from replays.selectors import match_event_count, match_folder

from .test_viewer_browser import ARTIFACTS, browser  # noqa: F401 (fixtures)

EXAMPLE_BOT = Path(__file__).resolve().parents[2] / "examples" / "bots" / "random_bot.py"
STEP_WAIT_MS = 15_000  # the viewer polls every LIVE_POLL_MS (1 s); a busy machine may be slow


def _signed_in_page(browser, live_server, user):  # noqa: F811 (the fixture, as an argument)
    """A browser tab with the session of ``user`` (Client.force_login's cookie), which fails
    the test on any script error or policy violation, and counts the page loads."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    tab = context.new_page()
    tab.errors, tab.loads = [], []
    tab.on("pageerror", lambda exc: tab.errors.append(str(exc)))
    tab.on("console", lambda message: tab.errors.append(message.text)
           if message.type == "error" and "Content Security Policy" in message.text else None)
    tab.on("load", lambda _: tab.loads.append(tab.url))
    return context, tab


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user(username="olivia", password="olivia-Secret-123")


@pytest.fixture
def live_sorcado(owner, settings):
    """A running Sorcado match, past the deal and the first looks, whose seat 1 is a bot
    ``owner`` uploaded (examples/bots/random_bot.py, run as its own process; outside the
    sandbox, which not every test machine can start); seat 0 is the built-in heuristic bot."""
    settings.ARENA_ALLOW_UNSANDBOXED_BOTS = True
    mine = bot_create(owner=owner, name="olivias", game="sorcado")
    uploaded = bot_version_upload(bot=mine, filename="random_bot.py", content=EXAMPLE_BOT.read_bytes())
    heuristic = builtin_bot_versions(game="sorcado")["heuristic"]
    match = match_start(ruleset="sorcado", versions=[heuristic, uploaded], queue=False)
    assert match_drive(match_id=match.pk, max_events=12) == "paused"
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    return match


def _steps(tab, steps):
    """Wait until the viewer knows ``steps`` steps and, following the match, draws the last."""
    tab.wait_for_selector(f"#viewer[data-steps='{steps}'][data-step='{steps - 1}']:not([data-loading])",
                          timeout=STEP_WAIT_MS)


def _secrets_of_seat_0(match):
    """Seat 0's cards that seat 1 does not know, as the page would write them."""
    folder = match_folder(match=match)
    return sorted(folder.ruleset.hidden_items(folder.state, 0) - folder.ruleset.hidden_items(folder.state, 1))


def test_it_follows_a_running_match_to_its_end_as_its_seats_owner_sees_it(browser, live_server, live_db,
                                                                         owner, live_sorcado):
    match = live_sorcado
    context, tab = _signed_in_page(browser, live_server, owner)
    try:
        tab.goto(f"{live_server.url}/matches/{match.pk}/?seat=1")
        tab.wait_for_selector("#viewer[data-ready='1']")
        steps = match_event_count(match=match)
        # A running match opens at its last step, as the owner's seat sees it, marked live.
        _steps(tab, steps)
        assert tab.locator("#viewer").get_attribute("data-perspective") == "1"
        assert tab.locator("#perspective option").all_inner_texts()[0] == "public"
        assert [tab.locator("#perspective option").nth(i).get_attribute("value")
                for i in range(tab.locator("#perspective option").count())] == ["public", "1"]
        assert tab.inner_text("#status") == "running" and tab.is_visible("#live")
        assert tab.locator("#result").is_hidden()
        assert tab.locator("#board .hand-label").count() == 1
        # The match goes on, a few events at a time: each new step shows without a reload, and
        # the URL follows it.
        for more in (1, 3, 5):
            assert _drive(match, more) == "paused"
            steps = match_event_count(match=match)
            _steps(tab, steps)
            assert tab.inner_text("#counter") == f"step {steps - 1} / {steps - 1}"
            assert tab.locator("#events li").count() == steps
            assert f"step={steps - 1}" in tab.url and "seat=1" in tab.url
            seen = " ".join(tab.text_content(sel) or "" for sel in ("#board", "#info", "#raw", "#events"))
            secrets = _secrets_of_seat_0(match)
            assert secrets and not [c for c in secrets if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", seen)]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / "viewer-live-running.png"), full_page=True)
        # Stepping back stops the following; the new steps still arrive.
        tab.click("#back")
        tab.wait_for_selector(f"#viewer[data-step='{steps - 2}']")
        assert _drive(match, 2) == "paused"
        steps = match_event_count(match=match)
        tab.wait_for_selector(f"#viewer[data-steps='{steps}']", timeout=STEP_WAIT_MS)
        assert tab.locator("#viewer").get_attribute("data-step") == str(steps - 4)
        tab.locator("body").press("End")
        _steps(tab, steps)
        # To the end: the last step, the result and the status; every perspective opens.
        assert _drive(match) == "ended"
        match.refresh_from_db()
        steps = match_event_count(match=match)
        tab.wait_for_selector("#viewer[data-status='ended']", timeout=STEP_WAIT_MS)
        _steps(tab, steps)
        assert tab.inner_text("#status") == "ended" and tab.is_hidden("#live")
        result = tab.inner_text("#result")
        for seat, (place, score) in enumerate(zip(match.result["placings"], match.result["scores"])):
            assert re.search(rf"seat {seat}: \w+ v1 {place}(st|nd|rd|th) \(score {score}\)", result), result
        assert "phase: over" in tab.text_content("#board")
        assert tab.locator("#events li").last.inner_text().startswith("match ended: placings")
        values = [tab.locator("#perspective option").nth(i).get_attribute("value")
                  for i in range(tab.locator("#perspective option").count())]
        assert values == ["public", "1", "0", "full"]
        assert "The match is over" in tab.inner_text("#notices")
        tab.screenshot(path=str(ARTIFACTS / "viewer-live-ended.png"), full_page=True)
        # One page load from the first step to the last.
        assert len(tab.loads) == 1, tab.loads
        # And the full state, now open, is there at the last step.
        tab.select_option("#perspective", "full")
        tab.wait_for_selector("#viewer[data-perspective='full']:not([data-loading])")
        assert tab.locator("#board g.card.face-down").count() == 0
        assert not tab.errors, tab.errors
    finally:
        context.close()


def test_it_shows_a_spectator_the_public_perspective_of_a_running_match_and_says_why(
        browser, live_server, live_db, live_sorcado):
    spectator = get_user_model().objects.create_user(username="sam", password="sam-Secret-123")
    context, tab = _signed_in_page(browser, live_server, spectator)
    try:
        steps = match_event_count(match=live_sorcado)
        tab.goto(f"{live_server.url}/matches/{live_sorcado.pk}/?seat=0&step=3")
        tab.wait_for_selector("#viewer[data-ready='1']")
        tab.wait_for_selector("#viewer[data-step='3'][data-perspective='public']")
        assert "Seat 0’s perspective is hidden while the match runs" in tab.inner_text("#notices")
        assert [tab.locator("#perspective option").nth(i).get_attribute("value")
                for i in range(tab.locator("#perspective option").count())] == ["public"]
        assert "seat=public" in tab.url and "step=3" in tab.url
        assert tab.locator("#board .hand-label").count() == 0
        # The frames of seat 0 are refused to this user, as by the API.
        refused = tab.request.get(f"{live_server.url}/matches/{live_sorcado.pk}/frames.json?seat=0")
        assert refused.status == 403
        # The public perspective follows the match too.
        assert _drive(live_sorcado, 2) == "paused"
        tab.locator("body").press("End")
        _steps(tab, steps + 2)
        text = tab.text_content("#events")
        deal = next(json.dumps(e.payload["outcome"], separators=(",", ":"))
                    for e in live_sorcado.events.filter(kind="chance").order_by("seq")[:1])
        assert deal not in text and "chance: shuffle (hidden)" in text
        tab.screenshot(path=str(ARTIFACTS / "viewer-live-spectator.png"), full_page=True)
        assert not tab.errors, tab.errors
    finally:
        context.close()


def test_an_anonymous_visitor_sees_what_a_signed_in_spectator_sees_as_the_api_shows_it(live_server, live_db,
                                                                                       live_sorcado):
    anonymous, spectator = Client(), Client()
    spectator.force_login(get_user_model().objects.create_user(username="sam", password="sam-Secret-123"))
    for url in (f"/matches/{live_sorcado.pk}/frames.json?seat=public", f"/api/matches/{live_sorcado.pk}/",
                f"/api/matches/{live_sorcado.pk}/steps/5/"):
        shown = anonymous.get(url)
        assert shown.status_code == 200 and shown.json() == spectator.get(url).json(), url
    assert anonymous.get(f"/matches/{live_sorcado.pk}/frames.json?seat=0").status_code == 403
    assert anonymous.get(f"/api/matches/{live_sorcado.pk}/events/").status_code == 403


# -- an anonymous visitor follows a match as it is played (issue 39.4) ---------------------------

FOLLOW_WAIT_S = 60  # generous: the viewer polls every second, the machine may be busy
SQLITE_RETRIES = 50  # _drive: SQLite in memory only
OPENED_AT = 150  # past the first page of frames (PAGE_FRAMES = 100), as the report's step 119 of 197


@pytest.fixture
def long_match(live_db):
    """A running Trap the Wizard match (hundreds of events) of two built-in bots, OPENED_AT
    events into it."""
    versions = builtin_bot_versions(game="trap-the-wizard")
    match = match_start(ruleset="trap-the-wizard", versions=[versions["greedy"], versions["random"]], queue=False)
    assert match_drive(match_id=match.pk, max_events=OPENED_AT - 1) == "paused"
    assert match_event_count(match=match) == OPENED_AT
    return match


def _anonymous_tab(browser):  # noqa: F811 (the fixture, as an argument)
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    tab = context.new_page()
    tab.errors = []
    tab.on("pageerror", lambda exc: tab.errors.append(str(exc)))
    tab.on("console", lambda message: tab.errors.append(message.text)
           if message.type == "error" and "Content Security Policy" in message.text else None)
    return context, tab


def _drive(match, max_events=None) -> str:
    """match_drive while a page of the live server is open, as a worker and the sweep would run
    it. On SQLite in memory, the default test database, the live server's thread shares the
    test's one connection, and a write can meet a read of the server's in progress on it:
    "database table is locked", which no deployment meets (PostgreSQL, or a SQLite file with a
    connection per thread). The driver then fails as a worker's would and is run again, as the
    sweep would run it (at most SQLITE_RETRIES times); on any other database a failure fails the
    test. Returns the driver's outcome ("paused", "ended", ...)."""
    shared = connection.vendor == "sqlite" and connection.is_in_memory_db()
    retried, target = 0, None
    # Each "locked" failure counts as a driver's failure: the retries are not the match's fault.
    patient = override_settings(MATCH_DRIVE_ATTEMPTS=SQLITE_RETRIES + 5) if shared else nullcontext()
    with patient:
        return _drive_retrying(match, max_events, shared)


def _drive_retrying(match, max_events, shared) -> str:
    retried, target = 0, None
    while True:
        try:
            if target is None and max_events is not None:
                target = match_event_count(match=match) + max_events
            # A failed driver may have appended some events first: the retry plays the rest.
            remaining = None if target is None else target - match_event_count(match=match)
            if remaining == 0:
                return "paused"
            outcome = match_drive(match_id=match.pk, max_events=remaining)
        except OperationalError as exc:
            if not shared or "locked" not in str(exc) or retried >= SQLITE_RETRIES:
                raise
            retried += 1
            continue
        if outcome == "busy" and shared and retried < SQLITE_RETRIES:  # a lease left by a failed driver
            retried += 1
            Match.objects.filter(pk=match.pk).update(driver_token="", driver_lease_until=None)
            continue
        return outcome


def _play_slowly(match, tab, *, events=3, pause_ms=150):
    """Play ``match`` to its end a few events at a time with a pause between (a slow-ish pair of
    bots), while ``tab`` stays open; between two moves, note the step the viewer shows when it
    shows the last step it knows of a match still running. Returns those steps.

    The test's own thread plays (the driver a worker runs), through _drive."""
    seen = set()
    while True:
        outcome = _drive(match, events)
        if outcome != "paused":
            break
        tab.wait_for_timeout(pause_ms)  # the page polls meanwhile
        viewer = tab.locator("#viewer")
        step, steps, status = (viewer.get_attribute(f"data-{name}") for name in ("step", "steps", "status"))
        if status == "running" and int(step) == int(steps) - 1:
            seen.add(int(step))
    return seen


def test_an_anonymous_visitor_follows_a_match_played_meanwhile_to_its_end(browser, live_server, long_match,
                                                                          settings):
    settings.MATCH_DRIVE_ATTEMPTS = SQLITE_RETRIES + 5  # _play_slowly's retries are not the match's fault
    match = long_match
    context, tab = _anonymous_tab(browser)
    try:
        tab.goto(f"{live_server.url}/matches/{match.pk}/")
        tab.wait_for_selector("#viewer[data-ready='1']")
        # It opens at the latest step, from the public perspective (the only one offered).
        _steps(tab, OPENED_AT)
        assert [tab.locator("#perspective option").nth(i).get_attribute("value")
                for i in range(tab.locator("#perspective option").count())] == ["public"]
        # The step shown advances while the match is played: at least twice past the step it
        # opened at, each time the last step known, the match still running (the page polls
        # every second and the match lasts several: a followed viewer is seen many times).
        seen = _play_slowly(match, tab)
        assert len({step for step in seen if step > OPENED_AT - 1}) >= 2, f"the viewer did not follow: {seen}"
        match.refresh_from_db()
        assert match.status == Match.Status.ENDED
        steps = match_event_count(match=match)
        tab.wait_for_selector("#viewer[data-status='ended']", timeout=FOLLOW_WAIT_S * 1000)
        _steps(tab, steps)
        assert tab.inner_text("#counter") == f"step {steps - 1} / {steps - 1}"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / "viewer-live-anonymous.png"), full_page=True)
        assert not tab.errors, tab.errors
    finally:
        context.close()


def test_it_keeps_following_when_a_page_fetched_for_the_board_brings_new_steps(browser, live_server, long_match):
    """The report's viewer stuck at step 119 of 197: the page of frames before the step shown,
    fetched when the viewer opened, came back with a step count grown meanwhile; the viewer then
    took itself for a reader of an old step and stopped following. Here that page's request is
    held until the match has gone on, so its answer is the first to bring the new steps."""
    match = long_match
    context, tab = _anonymous_tab(browser)
    held = []

    def go_on_first(route):
        held.append(route.request.url)
        assert _drive(match, 7) == "paused"
        route.continue_()

    try:
        tab.route(re.compile(r".*/frames\.json\?.*&from=0&.*"), go_on_first)
        tab.goto(f"{live_server.url}/matches/{match.pk}/")
        tab.wait_for_selector("#viewer[data-ready='1']")
        _steps(tab, OPENED_AT + 7)
        assert len(held) == 1
        assert _drive(match, 4) == "paused"  # and it goes on following
        _steps(tab, OPENED_AT + 11)
        assert not tab.errors, tab.errors
    finally:
        context.close()
