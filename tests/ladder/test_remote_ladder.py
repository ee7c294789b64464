"""Remote bots on the ladder and in scrimmages (docs/remote.md, "Where remote bots play"): a
ladder admits them only when its operator says so (default no; a refusal names the reason), a
ladder closed to them again leaves them unpaired; a scrimmage takes the requester's own remote
bot when unrated, anyone's where the ladder admits them; every listing marks them."""
from __future__ import annotations

import pytest
from django.core.management import call_command

from bots.models import Bot
from bots.services import bot_create, builtin_bot_versions
from ladder.models import Ladder, LadderEntry, Scrimmage
from ladder.scrimmages import ScrimmageRefused, scrimmage_create
from ladder.services import RemoteNotAdmitted, ladder_entry_update, ladder_get_or_create, ladder_top_up

from ..api.conftest import make_user, token_client

GAME = "sorcado"


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def remote(alice):
    return bot_create(owner=alice, name="far-away", game=GAME, remote=True)


@pytest.fixture
def builtins(db):
    return {name: version.bot for name, version in builtin_bot_versions(game=GAME).items()}


def test_a_ladder_refuses_remote_bots_by_default_with_the_reason(alice, remote):
    ladder = ladder_get_or_create(game=GAME)
    assert ladder.admits_remote_bots is False
    with pytest.raises(RemoteNotAdmitted, match="does not admit remote bots"):
        ladder_entry_update(bot=remote)
    response = token_client(alice).post(f"/api/ladders/{GAME}/entries/", {"bot": remote.pk}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "remote_not_admitted"
    assert not LadderEntry.objects.filter(bot=remote).exists()


def test_a_ladder_that_admits_remote_bots_pairs_them_and_marks_them(alice, remote, builtins):
    call_command("ladder", GAME, "--matches", "0", "--remote-bots", "admit")
    assert Ladder.objects.get(game=GAME).admits_remote_bots is True
    client = token_client(alice)
    response = client.post(f"/api/ladders/{GAME}/entries/", {"bot": remote.pk}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["kind"] == "remote" and response.json()["version"] == 1
    assert client.get(f"/api/ladders/{GAME}/").json()["admits_remote_bots"] is True
    kinds = {e["bot_name"]: e["kind"] for e in client.get(f"/api/ladders/{GAME}/entries/").json()["results"]}
    assert kinds["far-away"] == "remote" and kinds["random"] == "builtin"
    ladder = Ladder.objects.get(game=GAME)
    # the remote bot and one other on the ladder: their match is the only one to make
    LadderEntry.objects.filter(ladder=ladder).exclude(bot__in=[remote, builtins["random"]]).update(active=False)
    made = ladder_top_up(ladder=ladder, in_flight=10, queue=False)
    entry = LadderEntry.objects.get(bot=remote)
    assert [sorted(m.entries) for m in made] == [sorted([entry.pk, LadderEntry.objects.get(bot=builtins["random"]).pk])]


def test_a_ladder_closed_to_remote_bots_again_leaves_them_unpaired(alice, remote, builtins):
    ladder = ladder_get_or_create(game=GAME)
    call_command("ladder", GAME, "--matches", "0", "--remote-bots", "admit")
    entry = ladder_entry_update(bot=remote)
    LadderEntry.objects.filter(ladder=ladder).exclude(bot__in=[remote, builtins["random"]]).update(active=False)
    call_command("ladder", GAME, "--matches", "0", "--remote-bots", "refuse")
    ladder.refresh_from_db()
    assert ladder_top_up(ladder=ladder, in_flight=10, queue=False) == []  # its one possible match is not made
    call_command("ladder", GAME, "--matches", "0", "--remote-bots", "admit")
    ladder.refresh_from_db()
    assert [entry.pk in m.entries for m in ladder_top_up(ladder=ladder, in_flight=10, queue=False)] == [True]


def test_an_unrated_scrimmage_takes_the_requesters_own_remote_bot(alice, remote, builtins):
    scrimmage = scrimmage_create(owner=alice, bot=remote, opponents=[builtins["random"]], games=2, queue=False)
    assert scrimmage.version == remote.versions.get()


def test_a_scrimmage_refuses_someone_elses_remote_bot_unless_the_ladder_admits_them(alice, bob, remote, builtins):
    from bots.services import bot_version_upload
    from ladder.models import VersionCheck

    mine = bot_create(owner=bob, name="mine", game=GAME)
    version = bot_version_upload(bot=mine, filename="main.py", content=b"import sys\n")
    VersionCheck.objects.create(version=version, status=VersionCheck.Status.PASSED)
    with pytest.raises(ScrimmageRefused, match="far-away: remote bots") as refused:
        scrimmage_create(owner=bob, bot=mine, opponents=[remote], games=1, queue=False)
    assert refused.value.code == "remote_not_admitted" and refused.value.status == 409
    assert not Scrimmage.objects.exists()
    ladder_get_or_create(game=GAME)
    Ladder.objects.filter(game=GAME).update(admits_remote_bots=True)
    assert scrimmage_create(owner=bob, bot=mine, opponents=[remote], games=1, queue=False).games == 1


def test_a_rated_scrimmage_of_a_remote_bot_needs_a_ladder_that_admits_them(alice, remote, builtins):
    ladder_get_or_create(game=GAME)
    with pytest.raises(ScrimmageRefused) as refused:
        scrimmage_create(owner=alice, bot=remote, opponents=[builtins["random"]], games=1, rated=True, queue=False)
    assert refused.value.code == "remote_not_admitted"
    Ladder.objects.filter(game=GAME).update(admits_remote_bots=True)
    ladder_entry_update(bot=remote)
    scrimmage = scrimmage_create(owner=alice, bot=remote, opponents=[builtins["random"]], games=1, rated=True,
                                 queue=False)
    assert scrimmage.rated and Bot.objects.get(pk=remote.pk).kind == "remote"
