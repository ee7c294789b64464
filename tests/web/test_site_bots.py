"""Issue 39.2, the bots on the site: /bots/ lists every bot, filterable by game and by owner, with
its rating and its record (W-D-L over its ended matches); a bot's page has its record, its
versions (size, upload time), its rating and its matches. In Chromium a visitor filters the list
with its form and opens a bot; with Django's client, the records against the matches' results and
the filters' refusals. Screenshots go to var/test-artifacts/site-bots-<name>.png."""
import re

from bots.services import bot_create, bot_version_upload, builtin_bot_versions, match_play_builtin
from replays.models import Match
from tournaments.services import ratings_recompute

from web.site_bots import bot_records

from tests.api.conftest import GOOD_SOURCE, make_user
from .test_viewer_browser import ARTIFACTS, browser, page  # noqa: F401 (fixtures)

GAME = "sorcado"


def _played(count=4):
    """``count`` ended Sorcado matches of the built-in heuristic and random bots, rated."""
    builtin_bot_versions(game=GAME)
    matches = [match_play_builtin(ruleset=GAME, bots=["heuristic", "random"], bot_seed=n) for n in range(count)]
    for match in matches:
        match.refresh_from_db()
        assert match.status == Match.Status.ENDED
    ratings_recompute(game=GAME)
    return matches


def _expected_record(matches, seat):
    """The record of the bot in ``seat`` of each match, read from the results."""
    wins = sum(1 for m in matches if m.result["placings"][seat] == 1 and m.result["placings"].count(1) == 1)
    draws = sum(1 for m in matches if m.result["placings"][seat] == 1 and m.result["placings"].count(1) > 1)
    return {"wins": wins, "draws": draws, "losses": len(matches) - wins - draws}


def test_the_records_are_the_matches_results(db):
    matches = _played()
    builtins = builtin_bot_versions(game=GAME)
    heuristic, random = builtins["heuristic"].bot, builtins["random"].bot
    records = bot_records([heuristic.pk, random.pk])
    assert records[heuristic.pk] == _expected_record(matches, 0)
    assert records[random.pk] == _expected_record(matches, 1)
    assert sum(records[heuristic.pk].values()) == len(matches) == sum(records[random.pk].values())
    # Self-play counts for neither seat; a running match for nobody.
    match_play_builtin(ruleset=GAME, bots=["random", "random"], bot_seed=9)
    assert bot_records([random.pk])[random.pk] == records[random.pk]


def test_it_lists_every_bot_and_filters_by_game_and_owner(client, db):
    _played(2)
    alice = make_user("alice")
    owl = bot_create(owner=alice, name="owl", game="warlock")
    bot_version_upload(bot=owl, filename="owl.py", content=GOOD_SOURCE)
    every = client.get("/bots/").content.decode()
    listed = set(map(int, re.findall(r'<tr class="bot-row" data-bot="(\d+)">', every)))
    from bots.models import Bot

    assert listed == set(Bot.objects.values_list("pk", flat=True))
    only_alice = client.get("/bots/?owner=alice").content.decode()
    assert re.findall(r'data-bot="(\d+)"', only_alice) == [str(owl.pk)]
    builtin = client.get(f"/bots/?owner=builtin&game={GAME}").content.decode()
    assert set(map(int, re.findall(r'data-bot="(\d+)"', builtin))) == {
        v.bot_id for v in builtin_bot_versions(game=GAME).values()}
    assert "owl" not in client.get(f"/bots/?game={GAME}").content.decode()
    for query in ("game=chess", "owner=nobody"):
        response = client.get(f"/bots/?{query}")
        assert response.status_code == 404 and 'class="site-nav"' in response.content.decode()


def test_a_visitor_filters_the_bots_and_opens_one(page, live_server, live_db):  # noqa: F811
    matches = _played()
    alice = make_user("alice")
    owl = bot_create(owner=alice, name="owl", game=GAME)
    bot_version_upload(bot=owl, filename="owl.py", content=GOOD_SOURCE)
    heuristic = builtin_bot_versions(game=GAME)["heuristic"].bot
    url = live_server.url
    page.goto(f"{url}/")
    page.locator("nav.site-nav a", has_text="Bots").click()
    page.wait_for_url(f"{url}/bots/")
    row = page.locator(f"tr.bot-row[data-bot='{heuristic.pk}']")
    expected = _expected_record(matches, 0)
    assert row.locator("td.record").inner_text() == f"{expected['wins']}-{expected['draws']}-{expected['losses']}"
    assert row.locator("td.rating").inner_text() != "unrated"
    assert page.locator(f"tr.bot-row[data-bot='{owl.pk}'] td.rating").inner_text() == "unrated"
    _shot(page, "list")
    page.select_option("#filter-owner", "alice")
    page.click("#bot-filters button[type=submit]")
    page.wait_for_url(re.compile(r".*/bots/\?game=&owner=alice$"))
    assert page.locator("tr.bot-row").count() == 1
    page.locator("tr.bot-row a", has_text="owl").click()
    page.wait_for_url(f"{url}/bots/{owl.pk}/")
    version = page.locator("tr.version-row")
    assert version.count() == 1 and version.locator("td.num").inner_text() == f"{len(GOOD_SOURCE)}\xa0bytes"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", version.locator("td.when").inner_text())
    assert page.inner_text("#record").startswith("record 0-0-0")
    page.goto(f"{url}/bots/{heuristic.pk}/")
    assert page.inner_text("#record").startswith(f"record {expected['wins']}-{expected['draws']}-{expected['losses']}")
    shown = {re.search(r"/matches/([0-9a-f-]{36})/", href).group(1)
             for href in (link.get_attribute("href") for link in page.locator("tr.match-row a[href^='/matches/']").all())}
    assert shown == {str(m.pk) for m in matches}
    _shot(page, "heuristic")


def _shot(tab, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"site-bots-{name}.png"), full_page=True)


def test_a_signed_up_visitor_creates_a_bot_and_uploads_its_first_version(page, live_server, live_db):  # noqa: F811
    from bots.models import Bot, BotVersion

    url = live_server.url
    page.goto(f"{url}/signup/")
    page.fill("#id_username", "nora")
    page.fill("#id_password", "quill-Lantern-42")
    page.fill("#id_password_again", "quill-Lantern-42")
    page.click("#signup-form button[type=submit]")
    page.wait_for_url(f"{url}/me/")
    page.click("#create-bot")
    page.wait_for_url(f"{url}/bots/new/")
    from django.contrib.auth import get_user_model

    bot_create(owner=get_user_model().objects.get(username="nora"), name="owl", game=GAME)
    page.fill("#id_name", "owl")  # a name nora has for this game already: the API's 409
    page.select_option("#id_game", GAME)
    with page.expect_response(f"{url}/bots/new/") as answer:
        page.click("#bot-form button[type=submit]")
    assert answer.value.status == 409 and "you already have a bot named 'owl'" in page.inner_text("#bot-errors")
    page.fill("#id_name", "nightjar")
    page.click("#bot-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/bots/\d+/$"))
    bot = Bot.objects.get(name="nightjar")
    page.wait_for_url(f"{url}/bots/{bot.pk}/")
    assert (bot.owner.username, bot.game) == ("nora", GAME)
    page.set_input_files("#upload-file", files=[{"name": "main.py", "mimeType": "text/x-python",
                                                 "buffer": GOOD_SOURCE}])
    page.click("#upload-form button[type=submit]")
    page.wait_for_url(f"{url}/bots/{bot.pk}/?uploaded=1")
    assert BotVersion.objects.get(bot=bot).size == len(GOOD_SOURCE)
    _shot(page, "created")
