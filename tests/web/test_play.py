"""The play page and a person's seat, without a browser (docs/play.md): who may start a match,
what a bad form gets, what the match is (unrated, a person's remote seat), and who may see and
answer that seat. The browser's whole matches are in tests/web/test_play_browser.py."""
import json

import pytest
from django.test import Client

from bots.models import Bot
from bots.services import bot_create, builtin_bot_versions, match_start
from ladder.play import PERSON, PlayRefused, is_person, person_version, play_create, play_opponents
from replays.models import Match

from tests.api.conftest import make_user
from tests.web.test_pages import _page_data

GAME = "trap-the-wizard"


def _signed_in(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def _form(client, game=GAME) -> dict:
    """The play form's fields as the page renders them (with its CSRF token)."""
    page = client.get(f"/play/?game={game}")
    assert page.status_code == 200
    return {"csrfmiddlewaretoken": str(page.context["csrf_token"]), "game": game}


@pytest.fixture
def random_bot(db):
    return builtin_bot_versions(game=GAME)["random"].bot


def test_it_sends_an_anonymous_visitor_to_log_in_and_starts_nothing(client, random_bot):
    page = client.get("/play/?game=trap-the-wizard")
    assert page.status_code == 302 and page["Location"].startswith("/login/?next=")
    posted = client.post("/play/", {"game": GAME, "opponent-1": random_bot.pk})
    assert posted.status_code == 302 and "/login/" in posted["Location"]
    assert not Match.objects.exists()


def test_it_offers_every_game_and_each_games_opponents_and_options(alice, random_bot):
    client = _signed_in(alice)
    page = client.get("/play/").content.decode()
    for game in ("trap-the-wizard", "sorcado", "warlock", "imperial-twing", "wizard-kings"):
        assert f"/play/?game={game}" in page
    page = client.get(f"/play/?game={GAME}").content.decode()
    assert 'name="option-rounds"' in page and 'name="option-board"' in page
    assert f'<option value="{random_bot.pk}"' in page
    assert client.get(f"/games/{GAME}/").content.decode().count(f'href="/play/?game={GAME}"') == 1


def test_it_starts_an_unrated_match_with_the_person_in_the_seat_chosen(alice, random_bot):
    client = _signed_in(alice)
    form = dict(_form(client), **{"opponent-1": random_bot.pk, "seat": "1", "move_seconds": "90",
                                  "bank_seconds": "300", "option-rounds": "2", "option-wizards": "1"})
    response = client.post("/play/", form)
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/?seat=1"
    assert match.rated is False
    assert match.options["rounds"] == 2 and match.options["wizards"] == 1
    assert match.time_control == {"move_ms": 90_000, "bank_ms": 300_000, "increment_ms": 0}
    person = Bot.objects.get(owner=alice, game=GAME, name=PERSON)
    assert is_person(person) and person.kind == Bot.Kind.REMOTE
    assert [s["bot"] for s in match.seats] == ["random", PERSON]
    assert match.seats[1]["bot_version"] == person.versions.get().pk
    # a second match reuses the same person bot
    client.post("/play/", form)
    assert Bot.objects.filter(owner=alice, name=PERSON).count() == 1 and Match.objects.count() == 2


@pytest.mark.parametrize("fields, reason", [
    ({}, "choose 1-5 opponents, not 0"),
    ({"opponent-1": "999999"}, "an opponent chosen is no bot"),
    ({"seat": "2"}, "your seat is 0-1 in a match of 2, not 2"),
    ({"option-turn_limit": "0"}, "turn_limit"),
    ({"option-wizards": "many"}, "whole numbers"),
    ({"move_seconds": "0"}, "the time of a move is 1-600 seconds"),
    ({"bank_seconds": "99999"}, "the bank is 0-7200 seconds"),
], ids=["no-opponent", "no-such-bot", "seat-out-of-range", "option-refused", "not-a-number", "move-too-short",
        "bank-too-long"])
def test_it_shows_why_a_bad_form_is_refused_and_stores_nothing(alice, random_bot, fields, reason):
    client = _signed_in(alice)
    form = dict(_form(client), **{"opponent-1": str(random_bot.pk)})
    form.update(fields)
    if "opponent-1" in fields or fields == {}:
        form["opponent-1"] = fields.get("opponent-1", "")
    response = client.post(f"/play/?game={GAME}", form)
    assert response.status_code in (400, 409)
    page = response.content.decode()
    assert 'id="play-error"' in page and reason in page.replace("&#x27;", "'")
    assert not Match.objects.exists()
    assert not Bot.objects.filter(owner=alice, name=PERSON).exists()


def test_it_offers_built_in_and_checked_bots_and_only_your_own_remote_bots(alice, bob, random_bot):
    bob_remote = bot_create(owner=bob, name="far", game=GAME, remote=True)
    mine = bot_create(owner=alice, name="near", game=GAME, remote=True)
    unchecked = bot_create(owner=bob, name="fresh", game=GAME)  # no version passed a check match
    person_version(user=bob, game=GAME)
    offered = play_opponents(user=alice, game=GAME)
    assert random_bot in offered and mine in offered
    assert bob_remote not in offered and unchecked not in offered
    assert not any(is_person(b) for b in offered)
    with pytest.raises(PlayRefused, match="far: not offered"):
        play_create(user=alice, game=GAME, opponents=[bob_remote])
    with pytest.raises(PlayRefused, match="fresh: not offered"):
        play_create(user=alice, game=GAME, opponents=[unchecked])
    assert not Match.objects.exists()


def test_an_uploaded_bot_plays_with_its_newest_version_that_passed_its_check(alice, bob, random_bot):
    """Anyone's uploaded bot is offered once a version passed its check match (ladder.md), and
    plays with that version, not a newer one still unchecked."""
    from bots.services import bot_version_upload
    from ladder.models import VersionCheck
    from tests.api.conftest import GOOD_SOURCE

    morgana = bot_create(owner=bob, name="morgana", game=GAME)
    checked = bot_version_upload(bot=morgana, filename="m.py", content=GOOD_SOURCE)
    VersionCheck.objects.create(version=checked, status=VersionCheck.Status.PASSED)
    bot_version_upload(bot=morgana, filename="m.py", content=GOOD_SOURCE + b"\n# v2, unchecked\n")
    assert morgana in play_opponents(user=alice, game=GAME)
    match = play_create(user=alice, game=GAME, opponents=[morgana, random_bot], seat=2)
    assert [s["bot"] for s in match.seats] == ["morgana", "random", PERSON]
    assert match.seats[0]["version"] == checked.number == 1 and match.rated is False


def test_an_uploaded_bot_named_person_is_not_taken_for_the_person(alice, random_bot):
    bot_create(owner=alice, name=PERSON, game=GAME)
    with pytest.raises(PlayRefused, match="rename the bot"):
        play_create(user=alice, game=GAME, opponents=[random_bot])
    assert not Match.objects.exists()


def _person_match(user, game=GAME):
    """A running match of ``user`` in person (seat 0) against the random bot, not driven."""
    opponent = builtin_bot_versions(game=game)["random"]
    return match_start(ruleset=game, versions=[person_version(user=user, game=game), opponent], queue=False,
                       rated=False, time_control={"move_ms": 60_000, "bank_ms": 60_000})


def test_the_viewer_offers_the_seat_to_its_person_and_to_nobody_else(alice, bob, db):
    match = _person_match(alice)
    page = _signed_in(alice).get(f"/matches/{match.pk}/")
    data = _page_data(page)  # as the page's script reads it
    assert data["perspective"] == "0" and data["play"]["seat"] == 0
    assert data["play"]["act_url"] == f"/api/matches/{match.pk}/seats/0/act/"
    assert [p["value"] for p in data["perspectives"]] == ["public", "0"]  # not seat 1's hidden view
    assert 'id="play"' in page.content.decode() and "viewer/play.js" in page.content.decode()
    for visitor in (_signed_in(bob), Client()):
        other = visitor.get(f"/matches/{match.pk}/")
        assert "play" not in _page_data(other) and 'id="play"' not in other.content.decode()
    refused = _signed_in(alice).get(f"/matches/{match.pk}/frames.json?seat=1")
    assert refused.status_code == 403


def test_someone_elses_seat_refuses_their_answer_and_a_session_without_csrf(alice, bob, db):
    match = _person_match(alice)
    url = f"/api/matches/{match.pk}/seats/0/act/"
    body = json.dumps({"turn": 1, "action": {"type": "roll"}})
    stranger = _signed_in(bob)
    token = str(stranger.get("/play/").context["csrf_token"])
    refused = stranger.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_owner"
    no_csrf = _signed_in(alice).post(url, body, content_type="application/json")
    assert no_csrf.status_code == 403 and "CSRF" in no_csrf.json()["error"]["detail"]
    assert Client().post(url, body, content_type="application/json").status_code in (401, 403)


def test_listings_mark_a_persons_seat_by_its_person(alice, bob, db):
    match = _person_match(alice)
    matches = Client().get("/matches/").content.decode()
    assert 'class="person-mark"' in matches and ">alice</a>" in matches
    assert "seat 0: alice in person" in Client().get(f"/matches/{match.pk}/").content.decode()
    person = Bot.objects.get(owner=alice, name=PERSON)
    assert 'class="person-mark"' in Client().get(f"/bots/{person.pk}/").content.decode()
    far = bot_create(owner=bob, name="far", game=GAME, remote=True)
    page = Client().get(f"/bots/{far.pk}/").content.decode()
    assert 'class="remote-mark"' in page and 'class="person-mark"' not in page
