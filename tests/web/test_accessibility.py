"""Every page of the site passes axe-core's checks, and the main pages are usable on a phone
(issue 39, item 9).

axe-core is the npm package package.json pins (python3 dev.py test installs it with `npm ci`);
each page is loaded in Chromium with its data, axe-core is injected into it (a context that
bypasses the page's Content-Security-Policy for that script alone; the policy itself is held by
the other browser tests) and run on the whole document: no violation of impact "serious" or
"critical" may remain. At a 390 px wide viewport (a phone's) the home, a match, a tournament and
a bot page must not scroll sideways (a wide table scrolls inside its own box) and their
screenshots go to var/test-artifacts/phone-<name>.png."""
import json
import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from replays.models import Match

from .test_site_browser import _arena, _user
from .test_viewer_browser import ARTIFACTS, browser  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def axe(browser):
    if not AXE.exists():
        reason = f"axe-core is not installed ({AXE.relative_to(ROOT)}: python3 dev.py test runs npm ci)"
        if os.environ.get("ARENA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"ARENA_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    yield context
    context.close()


def _blocking_violations(tab) -> list[dict]:
    tab.add_script_tag(path=str(AXE))
    found = tab.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [{"rule": v["id"], "impact": v["impact"], "help": v["help"],
             "where": [node["target"] for node in v["nodes"][:5]]}
            for v in found["violations"] if v["impact"] in BLOCKING]


def _pages(arena: dict) -> dict[str, str]:
    finished = Match.objects.filter(status=Match.Status.ENDED).order_by("pk").first()
    heuristic = arena["builtins"]["heuristic"].bot
    return {
        "home": "/", "games": "/games/", "game": "/games/sorcado/", "matches": "/matches/",
        "match": f"/matches/{finished.pk}/", "live-match": f"/matches/{arena['live'].pk}/",
        "tournaments": "/tournaments/", "tournament-draft": f"/tournaments/{arena['draft'].pk}/",
        "tournament-running": f"/tournaments/{arena['running'].pk}/",
        "tournament-finished": f"/tournaments/{arena['finished'].pk}/",
        "bot": f"/bots/{heuristic.pk}/", "ladders": "/ladders/", "ladder": "/ladders/sorcado/",
        "scrimmages": "/scrimmages/", "login": "/login/", "signup": "/signup/", "bots": "/bots/",
        "not-found": "/no-such-page/",
    }


def test_every_page_passes_axe_core_with_no_serious_or_critical_violation(axe, live_server, live_db):
    arena = _arena()
    call_command("ladder", "sorcado", "--matches", "4", stdout=StringIO())
    pages = _pages(arena)
    tab = axe.new_page()
    found = {}
    for name, path in pages.items():
        tab.goto(live_server.url + path, wait_until="load")
        found[name] = _blocking_violations(tab)
    # a chance event as the current one: its muted colour on the highlight (3.8:1 once, seen by
    # the play test when the deal was current)
    tab.goto(live_server.url + pages["match"], wait_until="load")
    tab.click("#events li.kind-chance >> nth=0")
    tab.wait_for_selector("#events li.kind-chance.current")
    found["match-chance-current"] = _blocking_violations(tab)
    # signed in: my page and the owner's view of a bot (its upload form)
    tab.goto(f"{live_server.url}/login/")
    tab.fill("#id_username", "alice")
    tab.fill("#id_password", "alice-Secret-123")
    tab.click("#login-form button[type=submit]")
    tab.wait_for_url(f"{live_server.url}/me/")
    own = arena["live"].seats[1]
    signed_in = {"me": "/me/", "own-bot": f"/bots/{_own_bot_id(own)}/", "new-bot": "/bots/new/",
                 "tokens": "/tokens/", "password": "/password/", "new-tournament": "/tournaments/new/",
                 "play": "/play/", "play-game": "/play/?game=warlock", "play-refused": "/play/?game=sorcado&refused",
                 "play-seat": f"/matches/{_person_match().pk}/"}
    for name, path in signed_in.items():
        if name == "play-refused":  # the form with its refusal shown: seat 3 of a match of two
            tab.goto(live_server.url + "/play/?game=sorcado", wait_until="load")
            tab.select_option("#play-seat", "3")
            tab.click("#play-start")
            tab.wait_for_selector("#play-error")
        else:
            tab.goto(live_server.url + path, wait_until="load")
        found[name] = _blocking_violations(tab)
    failing = {name: violations for name, violations in found.items() if violations}
    assert len(found) == len(pages) + 1 + len(signed_in)
    assert not failing, json.dumps(failing, indent=1)


def _person_match():
    """A running match of alice's in person (seat 0) against the random bot: the viewer with the
    play panel (its picker is tested under axe in tests/web/test_play_browser.py)."""
    from bots.services import builtin_bot_versions, match_start
    from django.contrib.auth import get_user_model
    from ladder.play import person_version

    alice = get_user_model().objects.get(username="alice")
    return match_start(ruleset="sorcado", versions=[person_version(user=alice, game="sorcado"),
                                                    builtin_bot_versions(game="sorcado")["random"]],
                       queue=False, rated=False)


def _own_bot_id(seat: dict) -> int:
    from bots.models import Bot

    return Bot.objects.get(owner__username="alice", name=seat["bot"]).pk


def test_the_main_pages_are_usable_at_a_phone_width(browser, live_server, live_db):
    arena = _arena()
    pages = _pages(arena)
    # bypass_csp: the test reads the layout with a script of its own, which the policy forbids
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
    tab = context.new_page()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    widths, violations = {}, {}
    try:
        for name in ("home", "match", "tournament-running", "bot"):
            tab.goto(live_server.url + pages[name], wait_until="load")
            widths[name] = tab.evaluate("document.documentElement.scrollWidth")
            tab.screenshot(path=str(ARTIFACTS / f"phone-{name}.png"), full_page=True)
            assert tab.locator("nav.site-nav").is_visible(), name
            assert tab.locator("h1").first.is_visible(), name
            if AXE.exists():  # the phone's layout too (a table scrolling in its box must be reachable)
                violations[name] = _blocking_violations(tab)
    finally:
        context.close()
    assert len(widths) == 4 and all(width <= PHONE["width"] for width in widths.values()), widths
    assert not any(violations.values()), json.dumps(violations, indent=1)
