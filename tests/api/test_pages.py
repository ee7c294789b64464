"""The server-rendered pages with Django's test client: the viewer's rights (hidden information
of a live match never leaves the server), frames.json (one frame per event) and the bracket."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from api.pages import match_frames
from bots.driver import match_drive
from bots.services import bot_create, bot_version_upload, builtin_bot_versions, match_play_builtin, match_start
from replays.models import Match
from replays.selectors import match_event_count, match_records
from tournaments.models import PairingGame
from tournaments.services import tournament_advance, tournament_create, tournament_start

OWN_SOURCE = b"import sys\nfor line in sys.stdin:\n    pass\n"


def _user(name, **extra):
    return get_user_model().objects.create_user(username=name, password=f"{name}-Secret-123", **extra)


def _client(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def finished_sorcado(db):
    return match_play_builtin(ruleset="sorcado", bots=["heuristic", "random"])


@pytest.fixture
def live_sorcado(db):
    """A running Sorcado match past the deal and a few looks: hidden cards exist."""
    versions = builtin_bot_versions(game="sorcado")
    match = match_start(ruleset="sorcado", versions=[versions["heuristic"], versions["random"]], queue=False)
    assert match_drive(match_id=match.pk, max_events=12) == "paused"
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    return match


@pytest.fixture
def owner_and_live_match(db):
    """A running match whose seat 1 is a bot of the returned user."""
    owner = _user("olivia")
    bot = bot_create(owner=owner, name="mine", game="sorcado")
    own = bot_version_upload(bot=bot, filename="mine.py", content=OWN_SOURCE)
    builtin = builtin_bot_versions(game="sorcado")["random"]
    return owner, match_start(ruleset="sorcado", versions=[builtin, own], queue=False)


def _frames(client, match, seat):
    return client.get(f"/matches/{match.pk}/frames.json", {"seat": seat})


def _page_data(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="viewer-data" type="application/json">') + len(
        '<script id="viewer-data" type="application/json">')
    return json.loads(html[start:html.index("</script>", start)])


def test_it_shows_a_finished_match_to_anyone_with_every_perspective(finished_sorcado):
    response = _client().get(f"/matches/{finished_sorcado.pk}/")
    assert response.status_code == 200
    # The page runs only its own scripts: a bot or tournament name that slipped through the
    # escaping could not run anything.
    assert response["Content-Security-Policy"].startswith("default-src 'self';")
    assert "object-src 'none'" in response["Content-Security-Policy"]
    data = _page_data(response)
    assert [p["value"] for p in data["perspectives"]] == ["public", "0", "1", "full"]
    assert len(data["frames"]) == match_event_count(match=finished_sorcado)
    for seat in ("public", "0", "1", "full"):
        body = _frames(_client(), finished_sorcado, seat)
        assert body.status_code == 200, seat
        assert len(body.json()["frames"]) == match_event_count(match=finished_sorcado)


def test_it_gives_one_frame_per_event_with_the_views_of_one_fold(finished_sorcado):
    ruleset_views = match_frames(match=finished_sorcado, perspective="0")
    records = match_records(match=finished_sorcado)
    assert [f["seq"] for f in ruleset_views] == [r["seq"] for r in records]
    assert "view" in ruleset_views[0] and all("changed" in f for f in ruleset_views[1:])
    # The rebuilt last view is the seat's view of the final state.
    from replays.selectors import match_folder
    folder = match_folder(match=finished_sorcado)
    view = dict(ruleset_views[0]["view"])
    for frame in ruleset_views[1:]:
        view.update(frame["changed"])
        for key in frame.get("removed", []):
            view.pop(key)
    assert view == folder.ruleset.view(folder.state, 0)


def test_it_hides_a_live_match_from_anonymous_users(live_sorcado):
    assert _client().get(f"/matches/{live_sorcado.pk}/").status_code == 404
    for seat in ("public", "0", "full"):
        assert _frames(_client(), live_sorcado, seat).status_code == 404


def test_it_offers_a_spectator_only_the_public_perspective_of_a_live_match(live_sorcado):
    spectator = _client(_user("sam"))
    response = spectator.get(f"/matches/{live_sorcado.pk}/")
    assert response.status_code == 200
    data = _page_data(response)
    assert [p["value"] for p in data["perspectives"]] == ["public"]
    for seat in ("0", "1", "full"):
        assert _frames(spectator, live_sorcado, seat).status_code == 403
    public = _frames(spectator, live_sorcado, "public")
    assert public.status_code == 200
    assert len(public.json()["frames"]) == match_event_count(match=live_sorcado)


def test_it_leaks_no_hidden_card_of_a_live_match_to_a_spectator(live_sorcado):
    folder_state = match_records(match=live_sorcado)
    deal = next(r for r in folder_state if r["kind"] == "chance")
    from replays.selectors import match_folder
    folder = match_folder(match=live_sorcado)
    hidden = folder.ruleset.hidden_items(folder.state, None)
    assert hidden
    spectator = _client(_user("sam"))
    page = spectator.get(f"/matches/{live_sorcado.pk}/").content.decode()
    frames = _frames(spectator, live_sorcado, "public").content.decode()
    for card in hidden:
        assert card not in page and card not in frames, card
    assert json.dumps(deal["payload"]["outcome"]) not in page + frames


def test_it_offers_an_owner_the_seats_of_their_bots_while_the_match_runs(owner_and_live_match):
    owner, match = owner_and_live_match
    client = _client(owner)
    data = _page_data(client.get(f"/matches/{match.pk}/"))
    assert [p["value"] for p in data["perspectives"]] == ["public", "1"]
    assert _frames(client, match, "1").status_code == 200
    assert _frames(client, match, "0").status_code == 403
    assert _frames(client, match, "full").status_code == 403


def test_it_offers_staff_everything_while_the_match_runs(live_sorcado):
    staff = _client(_user("stella", is_staff=True))
    data = _page_data(staff.get(f"/matches/{live_sorcado.pk}/"))
    assert [p["value"] for p in data["perspectives"]] == ["public", "0", "1", "full"]
    assert _frames(staff, live_sorcado, "full").status_code == 200


def test_it_answers_404_for_an_unknown_perspective_or_match(finished_sorcado):
    assert _frames(_client(), finished_sorcado, "7").status_code == 404
    assert _client().get("/matches/00000000-0000-0000-0000-000000000000/").status_code == 404


def test_it_answers_a_json_400_for_a_perspective_that_is_no_seat_number(finished_sorcado):
    client = _client()
    client.raise_request_exception = False
    # str.isdigit() holds for "²" (int() raised: a 500) and "١" (read as seat 1).
    for seat in ("nobody", "²", "١", "-1", "9" * 5000):
        response = _frames(client, finished_sorcado, seat)
        assert response.status_code == 400, seat
        assert response.json()["error"]["code"] == "bad_seat"
    assert _frames(client, finished_sorcado, "01").json()["perspective"] == "1"


def test_it_draws_a_trap_the_wizard_match(db):
    match = match_play_builtin(ruleset="trap-the-wizard", bots=["greedy", "random"], options={"rounds": 1})
    response = _client().get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    assert b"viewer/renderers.js" in response.content and b"Trap the Wizard" in response.content
    assert len(_page_data(response)["frames"]) == match_event_count(match=match)


def _play_out(tournament):
    for _ in range(200):
        running = Match.objects.filter(pairing_game__pairing__tournament=tournament, status=Match.Status.RUNNING)
        if not running.exists():
            if not tournament_advance(tournament_id=tournament.pk, queue=False):
                break
        for match in running:
            match_drive(match_id=match.pk)
    tournament.refresh_from_db()


def test_it_links_every_match_of_a_tournament(db):
    versions = builtin_bot_versions(game="sorcado")
    entries = [versions[name] for name in ("heuristic", "random", "heuristic", "random")]
    tournament = tournament_create(name="Cup", game="sorcado", format="single-elimination", entries=entries)
    tournament_start(tournament=tournament, queue=False)
    _play_out(tournament)
    page = _client().get(f"/tournaments/{tournament.pk}/")
    html = page.content.decode()
    assert page["Content-Security-Policy"].startswith("default-src 'self';")
    ids = list(PairingGame.objects.filter(pairing__tournament=tournament).values_list("match_id", flat=True))
    assert len(ids) >= 3
    for match_id in ids:
        assert f'href="/matches/{match_id}/"' in html
    assert "<svg" in html and "Standings" in html
