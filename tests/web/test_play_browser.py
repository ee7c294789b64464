"""A person plays a whole match of each of the five games in headless Chromium (issue 41, item 4;
docs/play.md): the play page starts an unrated match against the built-in random bot, the
viewer offers the seat's legal actions in its picker, and the test chooses among them (a seeded
random choice in each of the picker's fields) until the result shows. The answers travel the
remote seats' path (the long poll, the answer endpoint with the session and its CSRF token);
the match is driven as the deployment drives it: in a thread of the server's process on the
embedded defaults, by a real Celery worker on PostgreSQL + Redis.

Each match is kept short with the game's documented options (docs/rules/<game>.md), chosen so
the person decides a few to a few dozen times: Trap the Wizard on the smallest wheel with one
wizard and one round; Imperial Twing to its turn limit's least (10); Sorcado without replays of
a tie; Warlock over one round; Wizard Kings to one turn. The person's clock is generous (10
minutes a move, an hour's bank): a busy machine never makes the person lose on time. No test
evaluates script in the page (the site's Content-Security-Policy holds), and nothing is timed."""
import logging
import os
import random
import re
import threading

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from playwright.sync_api import Error as PlaywrightError

from bots.models import Bot
from bots.remote import sqlite_patient
from bots.services import _drive_in_a_thread
from bots.services import builtin_bot_versions
from ladder.play import PERSON
from replays.models import Event, Match
from replays.selectors import match_folder
from tournaments.models import Rating
from tournaments.services import ratings_recompute

from .test_accessibility import AXE, BLOCKING
from .test_viewer_browser import ARTIFACTS, browser  # noqa: F401 (fixtures)
from .test_viewer_live import _signed_in_page

# Documented options that keep each match short (see the module's docstring).
SHORT = {
    "trap-the-wizard": {"board": "wheel4", "rim_between": "1", "spoke_between": "1", "wizards": "1", "rounds": "1"},
    "imperial-twing": {"turn_limit": "10"},
    "sorcado": {"tie": "shared"},
    "warlock": {"max_rounds": "1"},
    "wizard-kings": {"turn_limit": "1"},
}
DECISION_WAIT_MS = 120_000  # the bot's move, the driver's append and the long poll, on a busy machine
MOST_DECISIONS = 400


@pytest.fixture
def match_runner(request, live_db, settings):
    """What drives the play page's matches: on PostgreSQL + Redis a real Celery worker (the
    test fails if it cannot start), on the embedded defaults a thread of the server's process.

    On SQLite in memory, the default test database, the server's threads share one connection,
    and the driver's write can meet a read of the viewer's in progress on it: "database table is
    locked", which no deployment meets (PostgreSQL, or a SQLite file with a connection per
    thread). The driver then fails as a worker's would, and here a sweep of the test's own runs
    it again as the periodic sweep would (tests/web/test_viewer_live.py does the same).

    The failure can also come before the driver records it (its claim, or its release after a
    failure, meets the lock too): the match then keeps a lease held ahead for the person's whole
    clock and no "failed:" token. So the sweep also drives again a running match that has had no
    driver thread on two sweeps in a row (not one: between a match's start and its thread's, a
    match has none), with its lease cleared. A second driver of a match that has one finds the
    lease taken ("busy"), or the append refuses its fork; neither changes the log."""
    if os.environ.get("CELERY_BROKER_URL"):
        yield request.getfixturevalue("celery_worker_process")
        return
    if not (connection.vendor == "sqlite" and connection.is_in_memory_db()):
        yield None
        return
    settings.MATCH_DRIVE_ATTEMPTS = 1000  # each "locked" failure counts as a driver's failure
    stop = threading.Event()

    def running():
        return sqlite_patient(lambda: list(Match.objects.filter(status=Match.Status.RUNNING)
                                           .values_list("pk", "driver_token")))

    def sweep():
        driverless = set()
        while not stop.wait(1.0):
            try:
                threads = {thread.name for thread in threading.enumerate() if thread.is_alive()}
                matches = running()
                for pk, token in matches:
                    if token.startswith("failed:"):
                        _drive_in_a_thread(str(pk))
                now_driverless = {pk for pk, token in matches
                                  if f"match-{pk}" not in threads and not token.startswith("failed:")}
                for pk in now_driverless & driverless:
                    sqlite_patient(lambda: Match.objects.filter(pk=pk, status=Match.Status.RUNNING)
                                   .update(driver_lease_until=None))
                    _drive_in_a_thread(str(pk))
                driverless = now_driverless - driverless
            except Exception:  # the sweep itself must not die of a lock: log it and sweep again
                logging.getLogger(__name__).exception("the test's sweep failed; it sweeps again")
        connection.close()

    sweeper = threading.Thread(target=sweep, name="test-sweep", daemon=True)
    sweeper.start()
    yield None
    stop.set()
    sweeper.join()


@pytest.fixture
def player(live_db):
    return get_user_model().objects.create_user(username="pat", password="pat-Secret-123")


def _start(tab, live_server, game: str, *, via_nav=False):
    """From the game's page by its "play it yourself" link (or from the home page by the nav's
    Play link and the game's link), fill the play page's form: the built-in random bot, seat 0,
    a generous clock, SHORT's options."""
    random_bot = builtin_bot_versions(game=game)["random"].bot
    if via_nav:
        tab.goto(f"{live_server.url}/")
        tab.click("#nav-play")
        tab.wait_for_url(re.compile(r".*/play/$"))
        tab.click(f"#play-games a[href='/play/?game={game}']")
    else:
        tab.goto(f"{live_server.url}/games/{game}/")
        tab.click("#play-game")
    tab.wait_for_url(re.compile(rf".*/play/\?game={game}$"))
    tab.select_option("#play-opponent-1", str(random_bot.pk))
    tab.fill("#play-move", "600")
    tab.fill("#play-bank", "3600")
    for name, value in SHORT[game].items():
        field = tab.locator(f"#play-option-{name}")
        if field.get_attribute("type") == "number":
            field.fill(value)
        else:
            field.select_option(value)
    tab.click("#play-start")
    tab.wait_for_url(re.compile(r".*/matches/[0-9a-f-]+/\?seat=0.*"))
    return Match.objects.get(pk=re.search(r"/matches/([0-9a-f-]+)/", tab.url).group(1))


def _decide(tab, rng: random.Random, *, board_click: bool) -> str | None:
    """Choose one of the offered actions: on the board where it offers a target (when asked), then
    a random value in each open field of the picker, and send it. Returns the field the board
    click chose (#play's data-pinned), if one did."""
    pinned = None
    if board_click and tab.locator("#board .pickable").count():
        for attempt in range(5):
            targets = tab.locator("#board .pickable")
            if not targets.count():
                break
            try:
                # force: on a map, a hex's outline lies under its city, blocks and marks; the
                # click lands on the topmost, and the page resolves it to the hex (docs/play.md)
                targets.nth(rng.randrange(targets.count())).click(force=True, timeout=10_000)
                break
            except PlaywrightError:
                # The board was drawn again between finding the target and clicking it (the
                # long poll's answer redraws it): "not visible" or detached. Find it anew.
                if attempt == 4:
                    raise
        pinned = tab.get_attribute("#play", "data-pinned")
    while tab.locator("#play-fields select.open").count():
        select = tab.locator("#play-fields select.open").first
        # option 0 reads "choose (n)"; the others are the values the legal actions still have
        select.select_option(index=rng.randrange(1, select.locator("option").count()))
    tab.click("#play-send")
    return pinned


def _play_to_the_end(tab, rng: random.Random, *, board_click=False, during=None, pinned=None) -> int:
    """Answer every act offered until the match is over; the number of answers sent. ``pinned``
    (a list) gets the field of each answer a board click chose."""
    sent = 0
    for _ in range(MOST_DECISIONS):
        tab.wait_for_selector("#play[data-state='choose'], #play[data-state='over']", timeout=DECISION_WAIT_MS)
        if tab.get_attribute("#play", "data-state") == "over":
            return sent
        turn = tab.get_attribute("#play", "data-turn")
        assert re.fullmatch(r"[0-9]+:[0-5][0-9]", tab.inner_text("#play-clock"))
        if during is not None:
            during(sent)
        field = _decide(tab, rng, board_click=board_click)
        if field and pinned is not None:
            pinned.append(field)
        tab.wait_for_selector(f"#play:not([data-state='sending']):not([data-turn='{turn}']), "
                              "#play[data-state='over']", timeout=DECISION_WAIT_MS)
        sent += 1
    raise AssertionError(f"the match asked the person more than {MOST_DECISIONS} times")


def _ended_as_played(match: Match, sent: int) -> None:
    """The match ended, unrated, with every one of the person's answers an action of theirs (no
    fault: nothing timed out or was refused), and no rating for anyone."""
    match.refresh_from_db()
    assert match.status == Match.Status.ENDED and match.rated is False
    assert match.seats[0]["bot"] == PERSON and match.seats[0]["kind"] == "remote"
    mine = Event.objects.filter(match=match, kind="action", seat=0)
    assert mine.count() == sent > 0
    assert not any("fault" in e.payload for e in mine)
    assert not Event.objects.filter(match=match, kind="forfeit").exists()
    ratings_recompute(game=match.ruleset)
    person = Bot.objects.get(game=match.ruleset, name=PERSON)
    assert not Rating.objects.filter(bot=person).exists()


def _result_shown(tab, match: Match) -> None:
    tab.wait_for_selector("#result:not([hidden])", timeout=DECISION_WAIT_MS)
    assert "result:" in tab.inner_text("#result")
    assert tab.locator("#play-picker").is_hidden()


# Where the board makes a click natural (docs/play.md): the fields a click on it chooses.
BOARD_FIELDS = {"wizard-kings": {"to", "hex"}}


@pytest.mark.parametrize("game", ["imperial-twing", "warlock", "wizard-kings"])
def test_a_person_plays_a_whole_match_in_the_browser(game, browser, live_server, match_runner, player):
    """A whole match through the picker; on Wizard Kings' map a click on a hex chooses where a
    block is placed or goes (the "hex" or "to" of the legal actions) whenever one is offered."""
    context, tab = _signed_in_page(browser, live_server, player)
    pinned = []
    try:
        match = _start(tab, live_server, game)
        sent = _play_to_the_end(tab, random.Random(game), board_click=game in BOARD_FIELDS, pinned=pinned)
        _result_shown(tab, match)
        tab.screenshot(path=str(_artifact(f"play-{game}.png")), full_page=True)
        assert not tab.errors, "\n".join(tab.errors)
    finally:
        context.close()
    _ended_as_played(match, sent)
    if game in BOARD_FIELDS:
        assert pinned and set(pinned) <= BOARD_FIELDS[game], pinned


def test_a_person_plays_trap_the_wizard_by_clicks_on_the_board(browser, live_server, match_runner, player):
    """The wheel's fields choose a move's destination: a click on a field the legal moves reach
    narrows the picker to the moves there. While the picker is offered, the page passes axe."""
    context, tab = _signed_in_page(browser, live_server, player)
    checked, pinned = [], []

    def accessible(sent):
        if checked or not tab.locator("#play-fields select").count():
            return
        checked.append(_axe_violations(browser, live_server, tab.url, context.cookies()))

    try:
        match = _start(tab, live_server, "trap-the-wizard", via_nav=True)
        sent = _play_to_the_end(tab, random.Random(3), board_click=True, during=accessible, pinned=pinned)
        _result_shown(tab, match)
        assert not tab.errors, tab.errors
    finally:
        context.close()
    _ended_as_played(match, sent)
    moves = [e.payload["action"] for e in Event.objects.filter(match=match, kind="action", seat=0)]
    assert any(isinstance(a, dict) and a.get("type") == "move" for a in moves), moves
    assert pinned and set(pinned) == {"to"}, pinned
    assert checked == [[]], checked


def test_a_person_plays_sorcado_and_the_page_shows_no_card_the_seat_may_not_know(browser, live_server,
                                                                                match_runner, player):
    """Sorcado's hands and face-down cards are hidden information: at every decision the page
    (the board of the seat's perspective and the act's legal actions) names none of the cards
    the other seat knows and this seat does not. A click on a slot of the board chooses where a
    card is placed, whenever a placement is offered."""
    context, tab = _signed_in_page(browser, live_server, player)
    leaks, pinned = [], []

    def secrets_hidden(sent):
        folder = sqlite_patient(lambda: match_folder(match=match))
        secrets = sorted(folder.ruleset.hidden_items(folder.state, 1) - folder.ruleset.hidden_items(folder.state, 0))
        page = tab.content()
        leaks.extend(card for card in secrets if card in page)
        assert tab.locator("#perspective option[value='1']").count() == 0

    try:
        match = _start(tab, live_server, "sorcado")
        sent = _play_to_the_end(tab, random.Random(5), during=secrets_hidden, board_click=True, pinned=pinned)
        _result_shown(tab, match)
        assert not tab.errors, tab.errors
    finally:
        context.close()
    assert leaks == []
    _ended_as_played(match, sent)
    # A click on one of the seat's slots chose where a card is placed.
    assert pinned and set(pinned) == {"slot"}, pinned


def _artifact(name: str):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


def _axe_violations(browser, live_server, url: str, cookies: list[dict]) -> list[dict]:
    """axe-core's serious and critical violations on ``url`` in a tab of the same session (a
    context that lets the test's axe script in, as tests/web/test_accessibility.py does)."""
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed ({AXE})")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    try:
        cookie = next(c for c in cookies if c["name"] == settings.SESSION_COOKIE_NAME)
        context.add_cookies([{"name": cookie["name"], "value": cookie["value"], "url": live_server.url}])
        tab = context.new_page()
        tab.goto(url, wait_until="load")
        tab.wait_for_selector("#play[data-state='choose']", timeout=DECISION_WAIT_MS)
        tab.add_script_tag(path=str(AXE))
        found = tab.evaluate("axe.run(document, {resultTypes: ['violations']})")
        return [{"rule": v["id"], "impact": v["impact"], "where": [n["target"] for n in v["nodes"][:5]]}
                for v in found["violations"] if v["impact"] in BLOCKING]
    finally:
        context.close()

