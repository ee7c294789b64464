"""Remote seats through the API (docs/remote.md): registering a remote bot, the long poll and
the stream of acts, the answer, and every refusal of an answer (the envelope, a reason, and
nothing changed); where remote bots may play (tournaments: the organiser's choice)."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from bots.models import BotVersion, RemoteAct
from bots.remote import RemoteSeat
from bots.sandbox import TimeControl
from bots.services import bot_create, match_start

from .conftest import GAME

ACT = {"type": "act", "seat": 0, "view": {"board": "..."}, "legal_actions": [{"move": "a"}, {"move": "b"}]}


@pytest.fixture
def remote_bot(alice):
    return bot_create(owner=alice, name="far-away", game=GAME, remote=True)


@pytest.fixture
def match(remote_bot, builtins):
    """A match of alice's remote bot (seat 0) against the built-in random bot, not driven."""
    return match_start(ruleset=GAME, versions=[remote_bot.versions.get(), builtins["random"]], queue=False,
                       time_control={"move_ms": 60000, "bank_ms": 0})


def published(match, *, turn=1, seat=0, move_ms=60000) -> tuple[RemoteSeat, RemoteAct]:
    """The act a driver's RemoteSeat publishes at ``turn`` (the test stands in for the driver)."""
    version = BotVersion.objects.select_related("bot").get(pk=match.seats[seat]["bot_version"])
    seat_bot = RemoteSeat(match_id=match.pk, version=version, time_control=TimeControl(move_ms=move_ms, bank_ms=0),
                          turn_of=lambda: turn)
    seat_bot.hello({"type": "hello", "protocol": 1, "game": GAME, "seat": seat, "players": 2})
    return seat_bot, seat_bot._publish(dict(ACT, seat=seat))


def answer(client, match, *, seat=0, turn=1, action=None, body=None):
    body = body if body is not None else {"turn": turn, "action": action if action is not None else {"move": "a"}}
    return client.post(f"/api/matches/{match.pk}/seats/{seat}/act/", body, format="json")


def refused(response, status: int, code: str) -> str:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code and error["detail"]
    return error["detail"]


def test_it_registers_a_remote_bot_with_one_codeless_version(alice_client):
    response = alice_client.post("/api/bots/", {"name": "far-away", "game": GAME, "remote": True}, format="json")
    assert response.status_code == 201, response.content
    bot = response.json()
    assert (bot["kind"], bot["remote"], bot["latest_version"]) == ("remote", True, 1)
    version = alice_client.get(f"/api/bots/{bot['id']}/versions/1/").json()
    assert (version["format"], version["runtime"], version["size"], version["check"]) == ("remote", "remote", 0, None)
    named = SimpleUploadedFile("main.py", b"print(1)\n")
    upload = alice_client.post(f"/api/bots/{bot['id']}/versions/", {"file": named}, format="multipart")
    assert "remote bot" in refused(upload, 400, "upload_refused")
    assert alice_client.get(f"/api/bots/{bot['id']}/versions/").json()["count"] == 1
    assert alice_client.get(f"/api/bots/{bot['id']}/versions/1/code/").status_code == 404


def test_every_bot_listing_marks_remote_bots(anon, remote_bot, alice_bot):
    listed = {b["name"]: b for b in anon.get("/api/bots/", {"game": GAME}).json()["results"]}
    assert listed["far-away"]["remote"] is True and listed["merlin"]["remote"] is False
    assert [b["name"] for b in anon.get("/api/bots/", {"kind": "remote"}).json()["results"]] == ["far-away"]


def test_the_long_poll_gives_the_open_act_with_all_a_client_needs(alice_client, bob_client, match):
    assert alice_client.get("/api/remote/next/", {"wait": 0}).json() == {"acts": []}
    _, act = published(match, turn=1)
    acts = alice_client.get("/api/remote/next/", {"wait": 0}).json()["acts"]
    assert len(acts) == 1
    message = acts[0]
    assert message["type"] == "act" and message["match"] == str(match.pk)
    assert (message["seat"], message["turn"]) == (0, 1)
    assert message["legal_actions"] == ACT["legal_actions"] and message["view"] == ACT["view"]
    assert message["clock"] == {"move_ms": 60000, "bank_ms": 0}
    assert message["hello"]["game"] == GAME and message["hello"]["time_control"]["move_ms"] == 60000
    assert message["deadline"]
    assert bob_client.get("/api/remote/next/", {"wait": 0}).json() == {"acts": []}
    assert refused(alice_client.get("/api/remote/next/", {"wait": 61}), 400, "max_value")


def test_the_stream_sends_keepalive_and_act_lines(alice_client, match):
    published(match, turn=1)
    response = alice_client.get("/api/remote/stream/", {"seconds": 1})
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    assert lines[0] == {"type": "keepalive"}
    acts = [line for line in lines if line["type"] == "act"]
    assert [(a["match"], a["seat"], a["turn"]) for a in acts] == [(str(match.pk), 0, 1)]


def test_only_signed_in_users_read_acts_or_answer(anon, match):
    published(match)
    assert anon.get("/api/remote/next/", {"wait": 0}).status_code == 401
    assert anon.get("/api/remote/stream/", {"seconds": 1}).status_code == 401
    assert answer(anon, match).status_code == 401
    assert RemoteAct.objects.get().status == "open"


def test_an_answer_is_taken_once_and_charged_from_the_publication(alice_client, match):
    seat_bot, act = published(match)
    response = answer(alice_client, match, action={"move": "b"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["match"], body["seat"], body["turn"], body["status"]) == (str(match.pk), 0, 1, "answered")
    act.refresh_from_db()
    assert act.status == "answered" and act.answer == {"move": "b"}
    assert body["elapsed_ms"] == int((act.answered_at - act.published_at).total_seconds() * 1000)
    # the driver's seat takes it (the same row, no second publication)
    assert seat_bot._wait(act, _NoBell()).answer == {"move": "b"}
    detail = refused(answer(alice_client, match, action={"move": "a"}), 409, "already_answered")
    assert "turn 1" in detail
    act.refresh_from_db()
    assert act.answer == {"move": "b"}


class _NoBell:
    def wait(self, seconds):
        raise AssertionError("an answered act is not waited for")


@pytest.mark.parametrize("case, status, code", [
    ("wrong turn", 409, "wrong_turn"),
    ("future turn", 409, "wrong_turn"),
    ("no such seat", 404, "no_such_seat"),
    ("someone else's seat", 403, "not_owner"),
    ("not your bot's seat", 403, "not_owner"),
    ("no action", 400, "required"),
    ("turn not a number", 400, "invalid"),
    ("not a JSON object", 400, "invalid"),
])
def test_a_misnamed_or_foreign_answer_is_refused_and_changes_nothing(case, status, code, alice_client, bob_client,
                                                                    match):
    published(match, turn=3)
    client, kwargs = {
        "wrong turn": (alice_client, {"turn": 2}),
        "future turn": (alice_client, {"turn": 4}),
        "no such seat": (alice_client, {"turn": 3, "seat": 2}),
        "someone else's seat": (bob_client, {"turn": 3}),
        "not your bot's seat": (alice_client, {"turn": 3, "seat": 1}),
        "no action": (alice_client, {"body": {"turn": 3}}),
        "turn not a number": (alice_client, {"body": {"turn": "three", "action": {"move": "a"}}}),
        "not a JSON object": (alice_client, {"body": [3]}),
    }[case]
    refused(answer(client, match, **kwargs), status, code)
    act = RemoteAct.objects.get()
    assert (act.status, act.answer, act.answered_at) == ("open", None, None)


def test_an_answer_for_an_unknown_match_is_a_404(alice_client, match):
    import uuid

    response = alice_client.post(f"/api/matches/{uuid.uuid4()}/seats/0/act/", {"turn": 1, "action": 1}, format="json")
    refused(response, 404, "not_found")


def test_a_late_answer_is_refused_and_the_timeout_stands(alice_client, match):
    """docs/remote.md: an answer after the deadline is refused (late); the driver's timeout
    decides the turn."""
    seat_bot, act = published(match, move_ms=1)
    RemoteAct.objects.filter(pk=act.pk).update(deadline=act.published_at)  # the deadline has passed
    assert "deadline" in refused(answer(alice_client, match), 409, "late")
    with pytest.raises(Exception) as fault:
        seat_bot._act(dict(ACT))  # the driver's wait: the turn is timed out
    assert getattr(fault.value, "reason", None) == "timeout"
    act.refresh_from_db()
    assert (act.status, act.answer) == ("timed_out", None)
    refused(answer(alice_client, match), 409, "late")


def test_an_answer_to_a_seat_that_runs_on_the_server_is_refused(alice_client, alice_bot, builtins):
    uploaded = match_start(ruleset=GAME, versions=[alice_bot.versions.get(), builtins["random"]], queue=False)
    refused(answer(alice_client, uploaded), 409, "not_remote")


def test_an_answer_to_a_match_over_is_refused(alice_client, match):
    published(match)
    type(match).objects.filter(pk=match.pk).update(status="aborted")
    refused(answer(alice_client, match), 409, "match_over")
    assert RemoteAct.objects.get().status == "open"


def test_a_tournament_admits_remote_bots_only_when_its_organiser_says_so(organiser, alice_client, remote_bot,
                                                                          builtins):
    created = organiser.post("/api/tournaments/", {"name": "Open cup", "game": GAME, "format": "round-robin"},
                             format="json").json()
    assert created["admits_remote_bots"] is False
    tid = created["id"]
    detail = refused(alice_client.post(f"/api/tournaments/{tid}/entries/", {"bot": remote_bot.pk}, format="json"),
                     409, "remote_not_admitted")
    assert "does not admit remote bots" in detail
    assert organiser.get(f"/api/tournaments/{tid}/entries/").json()["count"] == 0
    assert organiser.patch(f"/api/tournaments/{tid}/", {"admits_remote_bots": True},
                           format="json").json()["admits_remote_bots"] is True
    entered = alice_client.post(f"/api/tournaments/{tid}/entries/", {"bot": remote_bot.pk}, format="json")
    assert entered.status_code == 201 and entered.json()["kind"] == "remote"
    listed = organiser.get(f"/api/tournaments/{tid}/entries/").json()["results"]
    assert [e["kind"] for e in listed] == ["remote"]
    refused(organiser.patch(f"/api/tournaments/{tid}/", {"admits_remote_bots": False}, format="json"),
            409, "remote_entered")
    assert organiser.get(f"/api/tournaments/{tid}/").json()["admits_remote_bots"] is True


def test_every_site_listing_marks_remote_bots(alice, organiser_user, remote_bot, match, builtins):
    """Issue 41.3: "every listing marks them": the bot's page, the owner's page, the match list
    and a tournament's entries show the mark."""
    from django.test import Client

    from tournaments.services_drafts import tournament_draft_create, tournament_entry_add

    tournament = tournament_draft_create(organiser=organiser_user, name="Open cup", game=GAME, format="round-robin",
                                         admits_remote_bots=True)
    tournament_entry_add(tournament=tournament, bot_version=remote_bot.versions.get(), by=alice)
    tournament_entry_add(tournament=tournament, bot_version=builtins["random"], by=organiser_user)
    browser = Client()
    browser.force_login(alice)
    for url in (f"/bots/{remote_bot.pk}/", "/me/", "/matches/", f"/tournaments/{tournament.pk}/"):
        page = browser.get(url).content.decode()
        assert 'class="remote-mark"' in page, url
    other = next(v for name, v in builtins.items() if name != "random")  # in no match with the remote bot
    assert 'class="remote-mark"' not in browser.get(f"/bots/{other.bot_id}/").content.decode()


def test_a_resumed_driver_publishes_the_same_turn_again_and_an_answer_counts_once(alice_client, match):
    """Issue 41.5: "an act is re-sent after recovery; an answer is applied exactly once". The
    driver that takes a dead one's match over asks the same turn: the same row, published again
    with a fresh deadline; answered meanwhile, the answer is taken as it stands, not asked again."""
    _, first = published(match, turn=7)
    again_seat, again = published(match, turn=7)  # the resumed driver's seat
    assert again.pk == first.pk and again.publications == 2
    assert again.published_at >= first.published_at and again.deadline >= first.deadline
    assert [a["turn"] for a in alice_client.get("/api/remote/next/", {"wait": 0}).json()["acts"]] == [7]
    assert answer(alice_client, match, turn=7, action={"move": "b"}).status_code == 200
    third_seat, third = published(match, turn=7)  # a driver killed after the answer came
    assert third.pk == first.pk and third.publications == 2 and third.status == "answered"
    assert third_seat._act(dict(ACT)) == {"move": "b"}
    assert third_seat.last_clock["elapsed_ms"] == int((third.answered_at - third.published_at).total_seconds() * 1000)
    assert RemoteAct.objects.count() == 1


def test_an_act_the_match_moved_past_is_closed(alice_client, match):
    """An open act of an earlier turn (its answer never came and the match moved on: a
    simultaneous phase written by a resumed driver) is closed when the seat is asked again; an
    answer to it is refused."""
    published(match, turn=3)
    published(match, turn=5)
    assert dict(RemoteAct.objects.values_list("turn", "status")) == {3: "closed", 5: "open"}
    assert "no longer asked" in refused(answer(alice_client, match, turn=3), 409, "wrong_turn")


def test_the_driver_stops_waiting_when_the_match_is_aborted(match):
    """A cancelled tournament aborts its matches: a driver waiting on a remote seat stops within
    a second or so instead of waiting out the clock (here a minute)."""
    import time

    from bots.sandbox import BotFault

    seat_bot, _ = published(match, turn=1)
    type(match).objects.filter(pk=match.pk).update(status="aborted")
    started = time.monotonic()
    with pytest.raises(BotFault, match="aborted"):
        seat_bot._act(dict(ACT))
    assert time.monotonic() - started < 30
