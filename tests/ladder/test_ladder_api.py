"""Issue 43.2 and 43.4 over the REST API: the ladders and their leaderboards are public; "A
bot's newest passed version is on its game's ladder unless its owner takes it off (API and
site)"; a request on someone else's bot is refused with its reason, changing nothing."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from bots.driver import match_drive
from bots.services import bot_create, bot_version_upload
from ladder.models import LadderEntry, VersionCheck
from ladder.services import ladder_get_or_create, ladder_match_finished, ladder_top_up

from ..api.conftest import make_user, token_client

GAME = "sorcado"


@pytest.fixture
def ladder(db):
    ladder = ladder_get_or_create(game=GAME)
    for _ in range(2):
        for made in ladder_top_up(ladder=ladder, in_flight=1, queue=False):
            match_drive(match_id=made.match_id)
            ladder_match_finished(match_id=made.match_id)
    return ladder


@pytest.fixture
def alice_bot(db):
    """alice's bot with a version whose check passed (recorded here: the check's own tests play it)."""
    alice = make_user("alice")
    bot = bot_create(owner=alice, name="mine", game=GAME)
    version = bot_version_upload(bot=bot, filename="main.py", content=b"import sys\nfor line in sys.stdin:\n    pass\n")
    VersionCheck.objects.create(version=version, status=VersionCheck.Status.PASSED)
    return bot


def test_the_ladders_and_their_leaderboards_are_public(client, ladder):
    listed = client.get("/api/ladders/").json()["results"]
    assert listed == [client.get(f"/api/ladders/{GAME}/").json()]
    assert (listed[0]["game"], listed[0]["seats"], listed[0]["entries"], listed[0]["matches"],
            listed[0]["in_flight"]) == (GAME, 2, 2, 2, 0)
    rows = client.get(f"/api/ladders/{GAME}/leaderboard/").json()["results"]
    assert [row["rank"] for row in rows] == [1, 2]
    assert {row["bot_name"] for row in rows} == {"heuristic", "random"}
    assert rows[0]["conservative"] == pytest.approx(rows[0]["mu"] - 3 * rows[0]["sigma"])
    assert rows[0]["conservative"] >= rows[1]["conservative"] and {row["games"] for row in rows} == {2}
    assert set(rows[0]) == {"rank", "bot", "bot_name", "owner", "kind", "version", "mu", "sigma",
                            "conservative", "games"}
    missing = client.get("/api/ladders/no-such-game/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_an_owner_enters_takes_off_and_puts_back_their_bot(ladder, alice_bot):
    alice = token_client(alice_bot.owner)
    joined = alice.post(f"/api/ladders/{GAME}/entries/", {"bot": alice_bot.pk}, format="json")
    assert joined.status_code == 201, joined.json()
    assert (joined.json()["active"], joined.json()["version"]) == (True, 1)
    off = alice.patch(f"/api/ladders/{GAME}/entries/{alice_bot.pk}/", {"active": False}, format="json")
    assert off.status_code == 200 and off.json()["active"] is False
    assert alice_bot.pk not in [row["bot"] for row in alice.get(f"/api/ladders/{GAME}/leaderboard/").json()["results"]]
    back = alice.post(f"/api/ladders/{GAME}/entries/", {"bot": alice_bot.pk}, format="json")
    assert back.status_code == 200 and back.json()["active"] is True


def test_someone_elses_bot_and_a_bot_without_a_passed_version_are_refused(ladder, alice_bot):
    bob = token_client(make_user("bob"))
    entered = token_client(alice_bot.owner).post(f"/api/ladders/{GAME}/entries/", {"bot": alice_bot.pk}, format="json")
    assert entered.status_code == 201
    before = list(LadderEntry.objects.values_list("id", "active", "version_id"))
    for response in (bob.patch(f"/api/ladders/{GAME}/entries/{alice_bot.pk}/", {"active": False}, format="json"),
                     bob.post(f"/api/ladders/{GAME}/entries/", {"bot": alice_bot.pk}, format="json")):
        assert response.status_code == 403 and response.json()["error"]["code"] == "not_owner"
    random_entry = LadderEntry.objects.get(bot__name="random")
    refused = bob.patch(f"/api/ladders/{GAME}/entries/{random_entry.bot_id}/", {"active": False}, format="json")
    assert refused.status_code == 403  # nobody owns a built-in bot's entry
    unchecked = bot_create(owner=bob.user, name="new", game=GAME)
    bot_version_upload(bot=unchecked, filename="main.py", content=b"import sys\n")
    early = bob.post(f"/api/ladders/{GAME}/entries/", {"bot": unchecked.pk}, format="json")
    assert early.status_code == 400 and early.json()["error"]["code"] == "no_passed_version"
    assert "passed its check" in early.json()["error"]["detail"]
    other_game = bot_create(owner=bob.user, name="tw", game="trap-the-wizard")
    wrong = bob.post(f"/api/ladders/{GAME}/entries/", {"bot": other_game.pk}, format="json")
    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "no_such_bot"
    anonymous = APIClient().patch(
        f"/api/ladders/{GAME}/entries/{alice_bot.pk}/", {"active": False}, format="json")
    assert anonymous.status_code in (401, 403)
    assert list(LadderEntry.objects.values_list("id", "active", "version_id")) == before


def test_the_documented_messages_have_the_fields_the_api_gives(client, ladder, alice_bot):
    """docs/ladder.md's example of a ladder, a leaderboard row and an entry."""
    import json
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "ladder.md").read_text()
    examples = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S)]
    [documented_ladder] = [e for e in examples if "in_flight" in e]
    [documented_row] = [e for e in examples if "conservative" in e]
    [documented_entry] = [e for e in examples if "off_reason" in e]
    entered = token_client(alice_bot.owner).post(f"/api/ladders/{GAME}/entries/", {"bot": alice_bot.pk}, format="json")
    assert set(documented_ladder) == set(client.get(f"/api/ladders/{GAME}/").json())
    assert set(documented_row) == set(client.get(f"/api/ladders/{GAME}/leaderboard/").json()["results"][0])
    assert set(documented_entry) == set(entered.json())
