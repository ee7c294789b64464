"""Issue 43.4, the ladder's pages in headless Chromium (the browser of the viewer's tests; a
failure, not a skip, under ARENA_REQUIRE_BROWSER=1): from the nav to a ladder's leaderboard and
the rating chart of its top bots (drawn with the ratings of the fold), to a bot's page with its
version's chart and latest matches, where its owner, logged in through the form, takes it off the ladder and puts it
back. Screenshots go to var/test-artifacts/ladder-<name>.png."""
import pytest

from bots.driver import match_drive
from bots.services import bot_create, bot_version_upload
from ladder.models import LadderEntry, LadderRating, VersionCheck
from ladder.selectors import ladder_rating_history
from ladder.services import ladder_entry_update, ladder_get_or_create, ladder_match_finished, ladder_top_up

from ..api.conftest import make_user
from ..web.test_site_browser import _follow
from ..web.test_viewer_browser import ARTIFACTS, browser, page  # noqa: F401 (fixtures)

GAME = "sorcado"


def _shot(tab, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"ladder-{name}.png"), full_page=True)


def test_a_visitor_reads_the_ladder_and_an_owner_switches_a_bot_off_and_on(page, live_server, live_db):  # noqa: F811
    alice = make_user("alice")
    mine = bot_create(owner=alice, name="merlin", game=GAME)
    version = bot_version_upload(bot=mine, filename="main.py", content=b"import sys\nfor line in sys.stdin:\n    pass\n")
    VersionCheck.objects.create(version=version, status=VersionCheck.Status.PASSED)
    ladder = ladder_get_or_create(game=GAME)
    LadderEntry.objects.filter(ladder=ladder, bot=mine).update(active=False)  # paired: built-ins only
    for _ in range(3):
        for made in ladder_top_up(ladder=ladder, in_flight=1, queue=False):
            match_drive(match_id=made.match_id)
            ladder_match_finished(match_id=made.match_id)
    LadderEntry.objects.filter(ladder=ladder, bot=mine).update(active=True)
    ladder_entry_update(bot=mine)
    url = live_server.url

    page.goto(f"{url}/")
    _follow(page, page.locator("nav.site-nav a", has_text="Ladders"), f"{url}/ladders/")
    assert page.locator("tr.ladder-row").count() == 1
    _follow(page, page.locator("tr.ladder-row a", has_text="Sorcado"), f"{url}/ladders/{GAME}/")
    rows = page.locator("tr.leaderboard-row")
    assert rows.count() == 3  # heuristic, random and merlin (not played yet: the fresh rating)
    assert [rows.nth(i).locator("td").first.inner_text() for i in range(3)] == ["1", "2", "3"]
    assert page.locator("tr.match-row").count() == 3
    # The rating chart of the top bots, as Chromium draws it: a line a bot, through the rating
    # after each of its ladder matches, the last at its rating on the leaderboard.
    drawn = page.evaluate("""() => Array.from(document.querySelectorAll('#ladder-chart g.series')).map(g => ({
        bot: g.dataset.bot, games: +g.dataset.games,
        points: g.querySelector('polyline').points.numberOfItems,
        ratings: Array.from(g.querySelectorAll('circle')).map(c => +c.dataset.rating),
        visible: g.querySelector('polyline').getBBox().width > 0}))""")
    history = ladder_rating_history(ladder=ladder)
    expected = {str(r.version.bot_id): r for r in LadderRating.objects.filter(ladder=ladder).select_related("version")}
    assert sorted(line["bot"] for line in drawn) == sorted(expected) and len(drawn) == 2
    for line in drawn:
        rating = expected[line["bot"]]
        assert line["games"] == line["points"] == rating.games == 3 and line["visible"]
        assert line["ratings"] == pytest.approx([p["ordinal"] for p in history[rating.version_id]], abs=1e-4)
        assert line["ratings"][-1] == pytest.approx(rating.conservative, abs=1e-4)
    assert page.locator(".chart-legend li").count() == 2
    _shot(page, "leaderboard")
    heuristic = LadderEntry.objects.get(ladder=ladder, bot__name="heuristic")
    _follow(page, page.locator(".chart-legend a", has_text="heuristic"), f"{url}/bots/{heuristic.bot_id}/")
    version_chart = page.locator("#ladder-chart-v1 circle")
    assert [float(v) for v in version_chart.evaluate_all("cs => cs.map(c => c.dataset.rating)")] == \
        pytest.approx([p["ordinal"] for p in history[heuristic.version_id]], abs=1e-4)
    assert page.locator("#version-1 tr.match-row").count() == 3
    _shot(page, "bot-versions")

    page.goto(f"{url}/login/?next=/bots/{mine.pk}/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "alice-Secret-123")
    page.locator("#login-form button[type=submit]").click()
    page.wait_for_url(f"{url}/bots/{mine.pk}/")
    assert "on the Sorcado ladder with v1" in page.inner_text("section.ladder-entry")
    _shot(page, "bot-on")
    page.locator("form.ladder-switch button").click()
    page.wait_for_selector("text=Put it back on the ladder")
    assert "off the Sorcado ladder (taken off by its owner)" in page.inner_text("section.ladder-entry")
    assert not LadderEntry.objects.get(bot=mine).active
    _shot(page, "bot-off")
    page.locator("form.ladder-switch button").click()
    page.wait_for_selector("text=Take it off the ladder")
    assert LadderEntry.objects.get(bot=mine).active
