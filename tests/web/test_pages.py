"""The server-rendered pages with Django's test client: the viewer's rights (hidden information
of a live match never leaves the server), frames.json (pages of frames whose patches rebuild the
view of every step, bounded whatever the length of the match) and the bracket."""
import copy
import json
import re
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from web.pages import PAGE_FRAMES, match_frames
from bots.driver import match_drive
from bots.services import bot_create, bot_version_upload, builtin_bot_versions, match_play_builtin, match_start
from games.engine import registry
from games.engine.log import Folder, canonical_json
from replays.models import Match
from replays.selectors import match_event_count, match_folder, match_records
from tournaments.models import PairingGame
from tournaments.services import tournament_advance, tournament_create, tournament_start

from tests.api.test_hidden_information import HIDDEN, forbidden_items, leaks

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


def _frames(client, match, seat, **page):
    return client.get(f"/matches/{match.pk}/frames.json", {"seat": seat, **page})


def _every_page(client, match, seat, count=PAGE_FRAMES) -> list[dict]:
    """Every page of frames of one perspective, from step 0 to the head."""
    pages = []
    while not pages or pages[-1]["frames"]:
        response = _frames(client, match, seat, **{"from": count * len(pages), "count": count})
        assert response.status_code == 200, response.content[:300]
        pages.append(response.json())
    return pages


def _patched(view, ops):
    """``view`` with a frame's patch applied, as viewer.js applies it."""
    top = {"v": copy.deepcopy(view)}
    for op in ops:
        *path, key = ["v", *op["at"]]
        node = top
        for step in path:
            node = node[step]
        if "del" in op:
            del node[key]
        elif "add" in op:
            node[key] = node[key] + op["add"]
        else:
            node[key] = op["set"]
    return top["v"]


def _views(page) -> list:
    """The whole view of every step of a page."""
    views, view = [], page["base"]
    for frame in page["frames"]:
        view = frame["view"] if "view" in frame else _patched(view, frame["patch"])
        views.append(view)
    return views


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
    events = match_event_count(match=finished_sorcado)
    assert data["events"] == events
    assert len(data["first_page"]["frames"]) == min(events, PAGE_FRAMES)
    for seat in ("public", "0", "1", "full"):
        frames = [f for page in _every_page(_client(), finished_sorcado, seat) for f in page["frames"]]
        assert [f["seq"] for f in frames] == list(range(events)), seat


def test_it_pages_frames_whose_patches_rebuild_the_view_of_every_step(finished_sorcado):
    records = match_records(match=finished_sorcado)
    folder = Folder(records[0])
    states = []
    for record in records:
        if record["seq"] > 0:
            folder.advance(record)
        states.append(folder.state)
    ruleset = folder.ruleset
    # Pages of 9 steps: each starts at a step the fold reaches from a snapshot.
    for seat in ("public", "0", "full"):
        def truth(n):
            if seat == "full":
                return {**ruleset.view(states[n], None), "full_state": ruleset.encode(states[n])}
            return ruleset.view(states[n], None if seat == "public" else int(seat))

        pages = _every_page(_client(), finished_sorcado, seat, count=9)
        assert pages[0]["base"] is None and "view" in pages[0]["frames"][0]
        for page in pages[:-1]:
            assert page["from"] == page["frames"][0]["seq"]
            if page["from"]:
                assert page["base"] == truth(page["from"] - 1)
                assert all("patch" in f for f in page["frames"])
            assert _views(page) == [truth(f["seq"]) for f in page["frames"]], (seat, page["from"])
        assert pages[-1]["frames"] == [] and pages[-1]["events"] == len(records)


def test_it_shows_an_anonymous_visitor_a_live_match_from_the_public_perspective_only(live_sorcado):
    # docs/live.md: anyone watches a live match, through its public view.
    response = _client().get(f"/matches/{live_sorcado.pk}/")
    assert response.status_code == 200
    assert [p["value"] for p in _page_data(response)["perspectives"]] == ["public"]
    assert _frames(_client(), live_sorcado, "public").status_code == 200
    for seat in ("0", "1", "full"):
        assert _frames(_client(), live_sorcado, seat).status_code == 403


def test_it_offers_a_spectator_only_the_public_perspective_of_a_live_match(live_sorcado):
    spectator = _client(_user("sam"))
    response = spectator.get(f"/matches/{live_sorcado.pk}/")
    assert response.status_code == 200
    data = _page_data(response)
    assert [p["value"] for p in data["perspectives"]] == ["public"]
    for seat in ("0", "1", "full"):
        assert _frames(spectator, live_sorcado, seat).status_code == 403
    frames = [f for page in _every_page(spectator, live_sorcado, "public") for f in page["frames"]]
    assert len(frames) == match_event_count(match=live_sorcado)


def test_it_leaks_no_hidden_card_of_a_live_match_to_a_spectator(live_sorcado):
    folder_state = match_records(match=live_sorcado)
    deal = next(r for r in folder_state if r["kind"] == "chance")
    from replays.selectors import match_folder
    folder = match_folder(match=live_sorcado)
    hidden = folder.ruleset.hidden_items(folder.state, None)
    assert hidden
    spectator = _client(_user("sam"))
    page = spectator.get(f"/matches/{live_sorcado.pk}/").content.decode()
    frames = "".join(json.dumps(page) for page in _every_page(spectator, live_sorcado, "public", count=5))
    for card in hidden:
        assert card not in page and card not in frames, card
    assert json.dumps(deal["payload"]["outcome"]) not in page + frames


@pytest.mark.parametrize("game", HIDDEN)
def test_it_pages_no_seat_anothers_hidden_items_of_a_live_match(game, db):
    # Staff may ask for every perspective of a live match; what each frame shows is still only
    # what that perspective may know at that step (its view, its redacted event line).
    ruleset = registry.get(game)
    players = max(2, ruleset.spec.min_players)
    version = builtin_bot_versions(game=game)["random"]
    match = match_start(ruleset=game, versions=[version] * players, queue=False)
    assert match_drive(match_id=match.pk, max_events=40) == "paused"
    records = match_records(match=match)
    folder, states = Folder(records[0]), []
    for record in records:
        if record["seq"] > 0:
            folder.advance(record)
        states.append(folder.state)
    staff = _client(_user("stella", is_staff=True))
    for seat, mine in [("public", set()), *((str(s), {s}) for s in range(players))]:
        for page in _every_page(staff, match, seat, count=7):
            shown = [(page["from"] - 1, page["base"]), *((f["seq"], f) for f in page["frames"])]
            for n, text in ((n, canonical_json(part)) for n, part in shown if part is not None):
                forbidden = forbidden_items(ruleset, states[n], players, mine)
                assert not leaks(text, forbidden), (seat, n, leaks(text, forbidden))
        if mine:  # the search finds what may be shown: the seat's own items, in its own view
            head = _frames(staff, match, seat, **{"from": len(records) - 1}).json()
            own, held = canonical_json(_views(head)[-1]), ruleset.hidden_items(states[-1], *mine)
            assert leaks(own, held) == sorted(held)


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


def test_it_answers_a_json_400_for_a_page_that_is_no_page(finished_sorcado):
    client = _client()
    for page in ({"from": "-1"}, {"from": "x"}, {"from": "1" * 5000}, {"from": "²"},
                 {"count": "0"}, {"count": str(PAGE_FRAMES + 1)}, {"count": "ten"}):
        response = _frames(client, finished_sorcado, "public", **page)
        assert response.status_code == 400, page
        assert response.json()["error"]["code"] == "bad_page"
    past = _frames(client, finished_sorcado, "public", **{"from": "999999"}).json()
    assert past["frames"] == [] and past["events"] == match_event_count(match=finished_sorcado)


def test_it_lets_the_browser_keep_a_finished_matchs_frames(finished_sorcado):
    client = _client()
    first = _frames(client, finished_sorcado, "0", **{"from": "10", "count": "20"})
    assert first["Cache-Control"] == "public, max-age=86400"
    again = client.get(f"/matches/{finished_sorcado.pk}/frames.json",
                       {"seat": "0", "from": "10", "count": "20"}, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    other = _frames(client, finished_sorcado, "1", **{"from": "10", "count": "20"})
    assert other.status_code == 200 and other["ETag"] != first["ETag"]


def test_it_revalidates_a_live_matchs_frames_and_changes_them_as_it_goes(live_sorcado):
    staff = _client(_user("stella", is_staff=True))
    before = _frames(staff, live_sorcado, "full")
    assert before["Cache-Control"] == "private, no-cache"
    assert match_drive(match_id=live_sorcado.pk, max_events=3) == "paused"
    after = staff.get(f"/matches/{live_sorcado.pk}/frames.json", {"seat": "full"},
                      headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert len(after.json()["frames"]) == len(before.json()["frames"]) + 3
    # The rights come first: a conditional request for a hidden perspective is refused.
    spectator = _client(_user("sam"))
    hidden = spectator.get(f"/matches/{live_sorcado.pk}/frames.json", {"seat": "0"},
                           headers={"If-None-Match": after["ETag"]})
    assert hidden.status_code == 403


@pytest.fixture
def long_match(db):
    """A finished Trap the Wizard match of six random bots: 1,050-1,320 events (twenty plays)."""
    match = match_play_builtin(ruleset="trap-the-wizard", bots=["random"] * 6,
                               options={"rounds": 2, "turn_limit": 300})
    assert match_event_count(match=match) > 8 * PAGE_FRAMES
    return match


PAGE_BYTES = 64_000  # 100 steps of six-seat Trap the Wizard: about 27 kB in public, 42 kB in full


def test_it_serves_a_long_match_in_pages_of_bounded_size_and_work(long_match, settings,
                                                                  django_assert_max_num_queries):
    events = match_event_count(match=long_match)
    client = _client()
    page = client.get(f"/matches/{long_match.pk}/")
    assert len(page.content) < 2 * PAGE_BYTES  # the page embeds only its first page of frames
    assert _page_data(page)["events"] == events
    applies = []
    advance = Folder.advance

    def counted(folder, record):
        applies.append(record["seq"])
        advance(folder, record)

    for seat in ("public", "full"):
        for first in (0, events // 2 - 7, events - PAGE_FRAMES, events - 1):
            applies.clear()
            with mock.patch.object(Folder, "advance", counted), django_assert_max_num_queries(10):
                response = _frames(client, long_match, seat, **{"from": first})
            body = response.json()
            assert [f["seq"] for f in body["frames"]] == list(range(first, min(first + PAGE_FRAMES, events)))
            assert len(response.content) < PAGE_BYTES, (seat, first, len(response.content))
            # From the snapshot before the page, not from event 0.
            assert len(applies) < settings.REPLAY_SNAPSHOT_EVERY + PAGE_FRAMES
    # The last page ends the match as the fold of the whole log does.
    folder = match_folder(match=long_match)
    last = _frames(client, long_match, "public", **{"from": events - 3}).json()
    assert _views(last)[-1] == folder.ruleset.view(folder.state, None)


def test_it_draws_a_trap_the_wizard_match(db):
    match = match_play_builtin(ruleset="trap-the-wizard", bots=["greedy", "random"], options={"rounds": 1})
    response = _client().get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    assert b"viewer/renderers.js" in response.content and b"Trap the Wizard" in response.content
    assert len(_page_data(response)["first_page"]["frames"]) == min(match_event_count(match=match), PAGE_FRAMES)


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
    # Issue 13.15: entries are labelled by seed, not by entry id.
    for entry in tournament.entries.all():
        assert f"seed {entry.seed}</tspan>" in html
    assert "#</tspan>" not in html and not re.search(r">#\d+</tspan>", html)
    assert "<svg" in html and "Standings" in html


def test_the_viewer_page_of_a_finished_match_takes_its_frames_from_frames_json_cached_page(finished_sorcado):
    """Opening a finished replay folds its page of frames at most once for everyone: the page
    carries the frames.json body of the same page (written by the first opening if missing),
    equal to a fresh fold's frames, and frames.json then serves that very page from memory."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from api import caching

    cache.clear()
    with caching._finished_lock:
        caching._finished.clear(), caching._known.clear(), caching._bodies.clear()
        caching._bodies_size = 0
    events = match_event_count(match=finished_sorcado)
    step = min(events - 1, PAGE_FRAMES + 7)
    first = step // PAGE_FRAMES * PAGE_FRAMES
    for seat in ("public", "1"):
        opened = _page_data(_client().get(f"/matches/{finished_sorcado.pk}/?step={step}&seat={seat}"))
        fresh = match_frames(match=finished_sorcado, perspective=seat, first=first)
        assert opened["first_page"] == json.loads(json.dumps(fresh)) and opened["step"] == step
        with CaptureQueriesContext(connection) as queries:
            again = _page_data(_client().get(f"/matches/{finished_sorcado.pk}/?step={step}&seat={seat}"))
        assert again["first_page"] == opened["first_page"]
        assert not any("replays_snapshot" in q["sql"] for q in queries)  # no fold the second time
        # the match, its head and perspectives from memory: the tournament's link alone is read
        assert len(queries) == 1 and "tournaments_tournament" in queries[0]["sql"]
        with CaptureQueriesContext(connection) as queries:
            page = _client().get(f"/matches/{finished_sorcado.pk}/frames.json?seat={seat}&from={first}")
        assert page.status_code == 200 and len(queries) <= 1  # the match with its head, the first time
        assert not any("replays_snapshot" in q["sql"] for q in queries)  # no fold
        assert {k: v for k, v in page.json().items() if k in ("from", "base", "frames")} == opened["first_page"]
        again = _client().get(f"/matches/{finished_sorcado.pk}/frames.json?seat={seat}&from={first}")
        names = ("ETag", "Cache-Control", "Content-Type", "Vary")
        assert again.content == page.content and {n: again.get(n) for n in names} == {n: page.get(n) for n in names}


def test_the_viewer_pages_data_is_escaped_as_json_script_escapes_it():
    """The page's data is JSON inside a <script> element, built around the cached page of frames
    without decoding it (web.pages._script_json): no text in it (a name, a result, an event
    line) can close the element or open a tag, as with Django's json_script."""
    from web.pages import _script_json

    hostile = '</script><script>alert("&")</script><!--'
    html = str(_script_json({"seats": [hostile], "step": 3},
                            first_page=json.dumps({"frames": [{"text": hostile}]}).encode()))
    assert not any(c in html for c in "<>&")
    assert json.loads(html) == {"seats": [hostile], "step": 3, "first_page": {"frames": [{"text": hostile}]}}


def test_the_viewer_page_reads_a_cached_page_of_frames_of_another_key_order(finished_sorcado):
    """A page of frames stored by another writer (its envelope not first) still gives the page:
    decoded, less the envelope (web.pages._first_page)."""
    from django.core.cache import cache

    from api import caching
    from web.pages import _first_page, _frames_etag

    cache.clear()
    with caching._finished_lock:
        caching._finished.clear(), caching._known.clear(), caching._bodies.clear()
        caching._bodies_size = 0
    match = caching.match_read(finished_sorcado.pk)
    head = {"seq": match.head_seq, "hash": match.head_hash}
    fresh = match_frames(match=match, perspective="public", first=0)
    reordered = {**fresh, "events": head["seq"] + 1, "match": str(match.pk), "perspective": "public",
                 "status": match.status, "result": match.result}
    from django.http import HttpResponse

    caching.store(_frames_etag(match, head, "public", 0, PAGE_FRAMES),
                  HttpResponse(json.dumps(reordered), content_type="application/json"))
    assert json.loads(_first_page(match, head, "public", 0)) == json.loads(json.dumps(fresh))


def _view_patch_reference(before, after, at=(), ops=None):
    """web.pages.view_patch as it was before it skipped equal children itself (one call each)."""
    from web.pages import _json_key

    ops = [] if ops is None else ops
    if before == after:
        return ops
    if isinstance(before, dict) and isinstance(after, dict):
        ops.extend({"at": [*at, _json_key(key)], "del": 1} for key in before if key not in after)
        for key, value in after.items():
            if key in before:
                _view_patch_reference(before[key], value, (*at, _json_key(key)), ops)
            else:
                ops.append({"at": [*at, _json_key(key)], "set": value})
    elif (isinstance(before, list) and isinstance(after, list) and len(after) > len(before)
          and after[:len(before)] == before):
        ops.append({"at": list(at), "add": after[len(before):]})
    elif (isinstance(before, list) and isinstance(after, list) and len(after) == len(before)
          and 2 * sum(b != a for b, a in zip(before, after)) <= len(after)):
        for index, (old, new) in enumerate(zip(before, after)):
            _view_patch_reference(old, new, (*at, index), ops)
    else:
        ops.append({"at": list(at), "set": after})
    return ops


@pytest.mark.parametrize("game", ["trap-the-wizard", "sorcado", "wizard-kings", "imperial-twing", "warlock"])
def test_a_frames_patch_is_the_patch_of_the_reference_between_every_two_views(game):
    """view_patch skips equal children without calling itself: the operations (and their order)
    are the reference's for the public and seat 0's views of every step of random playouts."""
    from games.engine import registry
    from tests.games.playouts import playout_states
    from web.pages import view_patch

    ruleset, compared = registry.get(game), 0
    for seed in range(2):
        for seat in (None, 0):
            before = None
            for n, state in enumerate(playout_states(game, 2, seed)):
                if n > 400:
                    break
                view = ruleset.view(state, seat)
                if before is not None:
                    assert view_patch(before, view) == _view_patch_reference(before, view)
                    compared += before != view
                before = view
    assert compared > 100
