"""Issue 43.4, the site: a ladder page per game (its leaderboard, the rating chart of its top
bots and its latest matches), and on a bot's page its place on the ladder, with the owner's
switch to take it off or put it back, and each version's ladder rating history and latest
matches."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from ladder.models import LadderEntry, LadderRating, VersionCheck

from ..api.conftest import make_user
from ..bots.conftest import sandbox_required  # noqa: F401  (a fixture)
from .test_ladder_api import GAME, alice_bot, ladder  # noqa: F401  (fixtures)

GOOD = (Path(__file__).resolve().parents[2] / "examples" / "bots" / "random_bot.py").read_bytes()


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_ladder_pages_show_every_ladder_and_its_leaderboard(client, ladder):  # noqa: F811
    listing = client.get("/ladders/").content.decode()
    assert 'href="/ladders/sorcado/"' in listing and "Sorcado" in listing
    page = client.get(f"/ladders/{GAME}/").content.decode()
    assert page.count('class="leaderboard-row"') == 2 and "heuristic" in page and "random" in page
    assert page.count("replay</a>") == 2  # its two matches, each linked to the viewer
    assert client.get("/ladders/warlock/").status_code == 404  # a game without a ladder yet
    assert client.get("/").status_code == 200 and 'href="/ladders/"' in client.get("/").content.decode()


def test_a_bots_page_shows_its_place_and_its_owner_switches_it_off_and_on(ladder, alice_bot):  # noqa: F811
    from ladder.services import ladder_entry_update

    ladder_entry_update(bot=alice_bot)
    alice = _logged_in(alice_bot.owner)
    page = alice.get(f"/bots/{alice_bot.pk}/").content.decode()
    assert '<span class="check-passed">on</span>' in page and "Take it off the ladder" in page
    switched = alice.post(f"/bots/{alice_bot.pk}/ladder/", {"active": "0"})
    assert switched.status_code == 302 and not LadderEntry.objects.get(bot=alice_bot).active
    page = alice.get(f"/bots/{alice_bot.pk}/").content.decode()
    assert "(taken off by its owner)" in page and "Put it back on the ladder" in page
    alice.post(f"/bots/{alice_bot.pk}/ladder/", {"active": "1"})
    assert LadderEntry.objects.get(bot=alice_bot).active


def test_nobody_else_switches_a_bot(ladder, alice_bot, client):  # noqa: F811
    from ladder.services import ladder_entry_update

    ladder_entry_update(bot=alice_bot)
    bob = _logged_in(make_user("bob"))
    assert "Take it off the ladder" not in bob.get(f"/bots/{alice_bot.pk}/").content.decode()
    assert bob.post(f"/bots/{alice_bot.pk}/ladder/", {"active": "0"}).status_code == 403
    anonymous = client.post(f"/bots/{alice_bot.pk}/ladder/", {"active": "0"})
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert LadderEntry.objects.get(bot=alice_bot).active
    assert bob.get(f"/bots/{alice_bot.pk}/ladder/").status_code == 405  # the switch is a POST


def _series(page: str) -> dict[str, dict]:
    """The ladder chart's lines by bot id: games, the ratings its points carry, their y."""
    chart = page.split('<svg id="ladder-chart"')[1].split("</svg>")[0]
    lines = {}
    for bot, games, body in re.findall(r'<g class="series series-\d" data-bot="(\d+)" data-version="\d+" '
                                       r'data-games="(\d+)">(.*?)</g>', chart, re.S):
        points = re.search(r'points="([^"]+)"', body).group(1).split()
        lines[bot] = {"games": int(games), "points": len(points), "ys": [float(p.split(",")[1]) for p in points],
                      "ratings": [float(r) for r in re.findall(r'data-rating="([-0-9.]+)"', body)]}
    return lines


def test_the_ladder_page_charts_the_top_bots_ratings_after_each_of_their_matches(client, ladder):  # noqa: F811
    """Issue 43.4: "a ladder page per game (leaderboard, rating chart over time of the top bots)"."""
    from ladder.selectors import ladder_rating_history
    from ladder.services import ladder_match_finished, ladder_top_up
    from bots.driver import match_drive

    for _ in range(3):
        for made in ladder_top_up(ladder=ladder, in_flight=1, queue=False):
            match_drive(match_id=made.match_id)
            ladder_match_finished(match_id=made.match_id)
    lines = _series(client.get(f"/ladders/{GAME}/").content.decode())
    ratings = {str(r.version.bot_id): r for r in LadderRating.objects.filter(ladder=ladder).select_related("version")}
    assert lines.keys() == ratings.keys() and len(lines) == 2
    history = ladder_rating_history(ladder=ladder)
    for bot, line in lines.items():
        rating = ratings[bot]
        # One point per ladder match of the bot, the last at its rating on the leaderboard.
        assert line["games"] == line["points"] == len(line["ratings"]) == rating.games == 5
        assert line["ratings"] == pytest.approx([p["ordinal"] for p in history[rating.version_id]], abs=1e-4)
        assert line["ratings"][-1] == pytest.approx(rating.conservative, abs=1e-4)
        # Higher ratings are drawn higher (smaller y).
        pairs = list(zip(line["ratings"], line["ys"]))
        assert all((a < b) == (ya > yb) for (a, ya), (b, yb) in zip(pairs, pairs[1:]) if abs(a - b) > 1e-3)


def test_a_ladder_without_a_rated_match_says_so(db, client):
    from ladder.services import ladder_get_or_create

    ladder_get_or_create(game=GAME)
    page = client.get(f"/ladders/{GAME}/").content.decode()
    assert 'id="ladder-chart"' not in page and "No ladder match has been rated yet." in page


def test_a_bots_page_shows_each_versions_ladder_history_and_latest_matches(ladder, settings, sandbox_required):  # noqa: F811
    """Issue 43.4: "a bot's page with each version's check match, ladder rating history and recent
    matches"; 43.2: "A new version starts fresh; its bot's page keeps the old versions' histories"."""
    from bots.driver import match_drive
    from bots.services import bot_create, bot_version_upload
    from ladder.services import ladder_entry_update, ladder_match_finished, ladder_top_up

    settings.ARENA_ALLOW_UNSANDBOXED_BOTS = False
    owner = make_user("alice")
    bot = bot_create(owner=owner, name="rnd", game=GAME)

    def version(content):
        made = bot_version_upload(bot=bot, filename="main.py", content=content)
        VersionCheck.objects.create(version=made, status=VersionCheck.Status.PASSED)
        ladder_entry_update(bot=bot)
        return made

    def play(times):
        for _ in range(times):
            for made in ladder_top_up(ladder=ladder, in_flight=1, queue=False):
                match_drive(match_id=made.match_id)
                ladder_match_finished(match_id=made.match_id)

    LadderEntry.objects.filter(ladder=ladder, bot__name="heuristic").update(active=False)  # bot vs random
    first = version(GOOD)
    play(2)
    second = version(GOOD + b"# v2\n")
    play(1)
    page = _logged_in(owner).get(f"/bots/{bot.pk}/").content.decode()
    old, new = (LadderRating.objects.get(ladder=ladder, version=v) for v in (first, second))
    assert (old.games, new.games) == (2, 1)
    for rating, number in ((old, 1), (new, 2)):
        block = page.split(f'id="version-{number}"')[1].split("</section>")[0]
        assert f"ladder rating {rating.conservative:.2f}" in block and f"{rating.games} ladder games" in block
        chart = block.split(f'<svg id="ladder-chart-v{number}"')[1].split("</svg>")[0]
        drawn = [float(r) for r in re.findall(r'data-rating="([-0-9.]+)"', chart)]
        assert len(drawn) == rating.games and drawn[-1] == pytest.approx(rating.conservative, abs=1e-4)
        # Its latest matches: the ladder matches it played, each linked to the viewer.
        assert block.count('class="match-row"') == rating.games
    assert '<span class="check-passed">passed</span>' in page  # each version's check in the table
