"""Issue 43.4, the site: a ladder page per game (its leaderboard and latest matches), and on a
bot's page its place on the ladder, with the owner's switch to take it off or put it back."""
from __future__ import annotations

from django.test import Client

from ladder.models import LadderEntry

from ..api.conftest import make_user
from .test_ladder_api import GAME, alice_bot, ladder  # noqa: F401  (fixtures)


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
