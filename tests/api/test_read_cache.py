"""Reads served from memory (issue 42, items 2 and 3; docs/caching.md): a cached read is the
read a fresh fold gives, for every perspective; nothing a seat may see is ever served to another
reader; a write that changes standings or a leaderboard is seen by the next read; and the reads
cost the few queries counted here."""
import json
import os
import secrets

import pytest
from django.core.cache import cache, caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from api import caching
from bots import driver
from replays import cursors
from replays.selectors import match_folder, match_records
from tournaments.services import correction_record, ratings_recompute

from .test_matches_api import client_for, played_until_seat_acts, url
from .test_matches_api import ended, live, people, stand_ins, versions  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def shared_cache(settings):
    """On the PostgreSQL + Redis pass (CELERY_BROKER_URL set) the cache is Redis, as deployed
    (CACHE_URL), under a key prefix of this test's, so nothing else's keys are touched."""
    broker = os.environ.get("CELERY_BROKER_URL")
    if broker:
        settings.CACHES = {"default": {"BACKEND": "config.cache.RedisCache",
                                       "LOCATION": broker, "KEY_PREFIX": f"read-cache-test-{secrets.token_hex(8)}"}}
        assert type(caches["default"]).__name__ == "RedisCache"
    yield


def forget():
    """Empty the shared cache and this process's memory of finished matches: the next read is
    computed afresh, as on a cold server. (Redis: a fresh key prefix, since emptying the
    database would empty the broker's queues too.)"""
    if type(caches["default"]).__name__ == "RedisCache":
        caches["default"].key_prefix = f"read-cache-test-{secrets.token_hex(8)}"
    else:
        cache.clear()
    with caching._finished_lock:
        caching._finished.clear()
        caching._known.clear()
        caching._bodies.clear()
        caching._bodies_size = 0
    cursors.forget()


def test_it_serves_a_finished_step_as_a_fresh_fold_gives_it_from_every_perspective(ended, people):
    reader = client_for()
    last = match_folder(match=ended).seq
    for n in (0, 7, last // 2, last):
        for seat in ("", "?seat=0", "?seat=1", "?seat=all"):
            path = url(ended, f"steps/{n}/{seat}")
            forget()
            fresh = reader.get(path)
            with CaptureQueriesContext(connection) as queries:
                cached = client_for(people["carol"]).get(path)
            assert fresh.status_code == 200 and cached.content == fresh.content, path
            assert len(queries) == 0, (path, [q["sql"] for q in queries])  # memory and the cache alone
            assert cached["ETag"] == fresh["ETag"]
    # ... and the fresh read is the fold: the view of seat 1 at the head is the engine's.
    folder = match_folder(match=ended)
    body = reader.get(url(ended, f"steps/{last}/?seat=1")).json()
    assert body["view"] == json.loads(json.dumps(folder.ruleset.view(folder.state, 1)))
    assert body["steps"] == last + 1 and body["event"]["kind"] == "match_ended"


def test_a_fresh_step_read_costs_three_queries_and_its_event_is_the_logs(ended):
    """A step read nothing has cached (the common read of a large archive: a step of any of
    thousands of matches) reads the match, its snapshot and one range of events; the step's
    own event comes from that range, not from a query of its own. Its event is the log's."""
    for n in (0, 5, match_folder(match=ended).seq):
        forget()
        with CaptureQueriesContext(connection) as queries:
            body = client_for().get(url(ended, f"steps/{n}/?seat=all")).json()
        sql = [q["sql"] for q in queries]
        assert len(sql) == 3, sql
        assert ("replays_match" in sql[0] and "replays_snapshot" in sql[1] and "replays_event" in sql[2]), sql
        record = match_records(match=ended, first=n, last=n)[0]
        assert {key: body["event"][key] for key in ("seq", "kind", "hash")} == {
            "seq": n, "kind": record["kind"], "hash": record["hash"]}


def test_a_reader_stepping_on_is_served_from_the_fold_the_last_read_left(ended):
    """People step through a replay: n, n + 1, n + 2. A finished match's fold is kept where a
    step read left it (replays/cursors.py), so the next step costs no query while the events
    read ahead last and one range read when they run out; its bytes are a cold read's, from
    every perspective (the perspective changes at every step: the fold is the same)."""
    last = match_folder(match=ended).seq
    end = min(last, 2 * cursors.AHEAD + 5)
    assert end > cursors.AHEAD + 1, "the match must outlast the events read ahead"
    seats = ("", "?seat=0", "?seat=1", "?seat=all")
    paths = [url(ended, f"steps/{n}/{seats[n % len(seats)]}") for n in range(end + 1)]
    cold = {}
    for path in paths:
        forget()
        cold[path] = client_for().get(path).content
    forget()
    reader = client_for()
    for n, path in enumerate(paths):
        with CaptureQueriesContext(connection) as queries:
            stepped = reader.get(path)
        sql = [q["sql"] for q in queries]
        assert stepped.status_code == 200 and stepped.content == cold[path], path
        # a step stepped on to is kept in this process's memory, not written to the shared cache
        # (its apply costs less than the round trips); the first read, folded cold, is shared
        assert (cache.get(caching._body_key(stepped["ETag"])) is not None) == (n == 0), n
        assert caching.stored_response(stepped["ETag"], shared=False).content == cold[path]
        if n == 0:
            assert len(sql) == 3, sql  # the match, its snapshot, the range (and the events ahead)
        elif n % (cursors.AHEAD + 1) == 0:
            assert len(sql) == 1 and "replays_event" in sql[0], (n, sql)  # the next events ahead
        else:
            assert sql == [], (n, sql)
    # a read that does not follow one (a jump back) folds from the snapshot as before
    with CaptureQueriesContext(connection) as queries:
        jumped = reader.get(url(ended, "steps/3/?seat=1"))
    forget()
    assert len(queries) == 2 and jumped.content == client_for().get(url(ended, "steps/3/?seat=1")).content


def test_a_finished_read_served_once_is_answered_before_the_view_and_not_counted(ended, live, monkeypatch):
    """The innermost middleware (api.caching.FinishedReadsMiddleware) answers a finished read a
    view answered before, a 304 or the body, with the view's headers and bytes, no query and no
    count against the rate limit; a live match's first read goes to the view and is counted."""
    from api.throttles import AnonRateThrottle

    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "4/minute")
    forget()
    reader, step = client_for(), url(ended, "steps/5/?seat=1")
    first = reader.get(step)  # counted: 1
    names = ("ETag", "Cache-Control", "Content-Type", "Vary", "Allow")
    for _ in range(6):
        with CaptureQueriesContext(connection) as queries:
            again = reader.get(step)
            held = reader.get(step, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 200 and again.content == first.content and queries.captured_queries == []
        assert {n: again.get(n) for n in names} == {n: first.get(n) for n in names}
        assert held.status_code == 304 and held["ETag"] == first["ETag"] and not held.content
    # a process that learns of a read by a 304 (a client revalidating first) answers the next
    # 304s before the view; a read of the body still goes to the view once
    forget()  # (the counts too: they are in the cache)
    assert reader.get(step, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304  # counted: 1
    for _ in range(3):
        assert reader.get(step, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert reader.get(step).content == first.content  # counted: 2
    # the limit still counts every read that reached a view: two more, then a refusal
    assert [reader.get(url(ended, f"steps/{n}/")).status_code for n in (7, 8)] == [200, 200]
    assert reader.get(url(ended, "steps/9/")).status_code == 429
    assert reader.get(url(live, "steps/1/")).status_code == 429  # a live read never seen goes to the view
    assert reader.get(step).content == first.content  # ... a finished one read before still is
    assert not any(url(live, "") in key[0] for key in caching._known)
    # a token is always checked by the view: a bad one is refused, whatever the read
    assert reader.get(step, HTTP_AUTHORIZATION="Bearer nosuch.token").status_code == 401


@pytest.mark.parametrize("tail", ["events/?limit=5", "events/?after=10&limit=3", "export/"])
def test_it_serves_finished_events_and_exports_as_read_fresh(ended, tail):
    forget()
    fresh = client_for().get(url(ended, tail))
    with CaptureQueriesContext(connection) as queries:
        cached = client_for().get(url(ended, tail))
    assert fresh.status_code == 200 and cached.content == fresh.content and len(queries) == 0
    assert cached["Content-Type"] == fresh["Content-Type"]
    if tail == "export/":
        assert cached["Content-Disposition"] == fresh["Content-Disposition"]
        assert cached.content.decode().splitlines()[0] == json.dumps(
            match_records(match=ended, last=0)[0], separators=(",", ":"), sort_keys=True)


def test_a_seats_live_view_is_never_served_to_another_seat_or_an_anonymous_reader(live, people):
    c = {"anonymous": client_for(), **{name: client_for(user) for name, user in people.items()}}
    # Bob acts at some point: play on (live) until he has, so his action is hidden from alice.
    bobs = url(live, f"steps/{played_until_seat_acts(live, 1)}/")
    # Bob (the owner) reads the public step first: his own action shown to him, and not kept.
    own = c["bob"].get(bobs)
    assert own.json()["event"]["payload"]["action"] != "redacted" and "ETag" not in own
    for who in ("anonymous", "carol", "alice"):
        shown = c[who].get(bobs)
        assert shown.json()["event"]["payload"] == {"action": "redacted"}, who
        assert shown["Cache-Control"] == "private, no-cache"
    # ... and after everyone else read (and so cached) the redacted one, bob still gets his.
    assert c["bob"].get(bobs).json()["event"]["payload"]["action"] != "redacted"
    assert c["staff"].get(bobs).json()["event"]["payload"]["action"] != "redacted"
    # Seat views and the full state of a live match are neither tagged nor cached.
    head = url(live, f"steps/{live.events.count() - 1}/")
    alices = c["alice"].get(head + "?seat=0")
    assert alices.status_code == 200 and "hand" in alices.json()["view"] and "ETag" not in alices
    for who in ("anonymous", "carol", "bob"):
        assert c[who].get(head + "?seat=0").status_code == 403, who
        assert "hand" not in c[who].get(head).json()["view"], who
    assert c["alice"].get(head + "?seat=all").status_code == 403


def test_a_live_public_step_is_computed_once_per_event_for_every_reader(live, people):
    step = url(live, "steps/3/")
    first_read = client_for().get(step)
    with CaptureQueriesContext(connection) as queries:
        again = client_for(people["carol"]).get(step)
    # carol owns no seat: her seats are looked up (1 query), and the match with its head (1)
    assert again.content == first_read.content and len(queries) == 2, [q["sql"] for q in queries]
    with CaptureQueriesContext(connection) as queries:
        assert client_for().get(step, HTTP_IF_NONE_MATCH=first_read["ETag"]).status_code == 304
    assert len(queries) == 1  # the match and its head
    driver.match_drive(match_id=live.pk, max_events=1)  # the next event
    with CaptureQueriesContext(connection) as queries:
        after = client_for().get(step)
    assert after.status_code == 200 and after["ETag"] != first_read["ETag"]
    assert after.json()["steps"] == first_read.json()["steps"] + 1
    # only the step count changed: the rest was not folded again (the match and its head alone)
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert {**after.json(), "steps": None} == {**first_read.json(), "steps": None}
    assert after.json()["view"] == first_read.json()["view"]  # step 3 itself is as it was
    assert client_for().get(step, HTTP_IF_NONE_MATCH=first_read["ETag"]).status_code == 200


def test_a_live_public_step_spliced_from_its_kept_part_is_the_whole_documents_bytes(live, people):
    """The part of a live public step that no event changes (view, event, next) is kept once per
    step; the document written around it is byte for byte the one rendered whole, and the kept
    part is nobody's seat view."""
    from api.permissions import event_for_viewer
    from api.renderers import json_bytes
    from replays.selectors import folder_next, match_step

    driver.match_drive(match_id=live.pk, max_events=2)
    steps = live.events.count()
    for n in (0, 3, steps - 1):
        forget()
        client_for().get(url(live, f"steps/{n}/"))  # keeps the part
        for who in (None, people["carol"]):  # carol owns no seat: she reads the public step
            with CaptureQueriesContext(connection) as queries:
                body = client_for(who).get(url(live, f"steps/{n}/")).content
            # no fold: the match with its head, and a signed-in reader's seats
            assert len(queries) == (1 if who is None else 2), [q["sql"] for q in queries]
            folder, record = match_step(match=live, upto=n)
            whole = {"match": live.pk, "step": n, "steps": steps, "seat": None,
                     "view": folder.ruleset.view(folder.state, None),
                     "event": event_for_viewer(record, match=live, user=None, seats=set(),
                                               hidden_information=folder.ruleset.spec.hidden_information),
                     "next": folder_next(folder)}
            assert body == json_bytes(whole), (n, who)
    assert client_for().get(url(live, f"steps/{steps}/")).status_code == 404


def test_a_live_public_step_read_again_is_answered_before_the_view_while_the_match_runs(live, people, monkeypatch):
    """An anonymous reader's live public step that a view answered before is answered again by
    FinishedReadsMiddleware (docs/caching.md, "A live match's public step"): the status and head
    from one read, the kept part from memory, the view's bytes and headers, not counted by the
    rate limit; the next event is seen at once (a new count and tag); a signed-in reader goes to
    the view; after the end the finished match's read is served."""
    from django.contrib.auth import get_user_model

    from api.throttles import AnonRateThrottle

    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "3/minute")
    forget()
    step = url(live, "steps/4/")
    first = client_for().get(step)  # the view: counted 1
    names = ("ETag", "Cache-Control", "Content-Type", "Vary", "Allow")
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            again = client_for().get(step)
            held = client_for().get(step, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 200 and again.content == first.content
        assert {n: again.get(n) for n in names} == {n: first.get(n) for n in names}
        assert held.status_code == 304 and held["ETag"] == first["ETag"] and not held.content
        assert len(queries) == 2 and all("replays_snapshot" not in q["sql"] for q in queries.captured_queries)
    driver.match_drive(match_id=live.pk, max_events=1)  # the next event: seen by the next read
    after = client_for().get(step)
    assert after.status_code == 200 and after.json()["steps"] == first.json()["steps"] + 1
    assert after["ETag"] != first["ETag"] and {**after.json(), "steps": 0} == {**first.json(), "steps": 0}
    assert client_for().get(step, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    assert client_for().get(step, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304
    # the view's answer now, read through it by a signed-in reader who owns no seat: the same bytes
    carol = client_for()
    carol.force_login(people["carol"])
    with CaptureQueriesContext(connection) as queries:
        assert carol.get(step).content == after.content
    # the view: her session and user, her seats, the match with its head
    assert len(queries) == 4 and any(get_user_model()._meta.db_table in q["sql"] for q in queries.captured_queries)
    assert [client_for().get(url(live, f"steps/{n}/")).status_code for n in (5, 6, 7)] == [200, 200, 429]
    assert client_for().get(step).content == after.content  # answered before the view: not counted
    # the end: the known live read is no longer answered as live
    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "1000/minute")
    driver.match_drive(match_id=live.pk)
    live.refresh_from_db()
    assert live.status != "running"
    ended_read = client_for().get(step)
    assert ended_read.status_code == 200 and ended_read["Cache-Control"] == caching.FINISHED_CACHE_CONTROL
    assert ended_read.json()["steps"] == live.events.count()


@pytest.fixture
def cup(organiser_user, builtins, eager_tasks, django_capture_on_commit_callbacks):
    """A finished 4-bot round robin of sorcado, rated."""
    from .conftest import filled_draft
    from tournaments.services_drafts import tournament_draft_start

    tournament = filled_draft(organiser_user, builtins, 4)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_draft_start(tournament=tournament)
    tournament.refresh_from_db()
    return tournament


def test_standings_are_computed_once_per_change_and_a_correction_is_seen_at_once(cup, organiser_user):
    from tournaments.models import Entry

    path = f"/api/tournaments/{cup.pk}/standings/"
    before = client_for().get(path)
    assert before.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        again = client_for().get(path, HTTP_IF_NONE_MATCH='"other"')
    assert again.content == before.content and len(queries) == 0
    with CaptureQueriesContext(connection) as queries:
        assert client_for().get(path, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304
    assert len(queries) == 0
    leader = before.json()["results"][0]["entry"]
    correction_record(tournament=cup, kind="disqualify", reason="tests: a late disqualification",
                      entry=Entry.objects.get(pk=leader), created_by=organiser_user)
    after = client_for().get(path)
    assert after["ETag"] != before["ETag"]
    rows = {row["entry"]: row for row in after.json()["results"]}
    assert rows[leader]["disqualified"] is True and after.json()["results"][0]["entry"] != leader
    forget()
    assert client_for().get(path).content == after.content  # as a fresh computation has it


def test_standings_read_again_are_answered_before_the_view_until_a_change(cup, organiser_user, monkeypatch):
    """Generation-cached reads are answered by FinishedReadsMiddleware too once a view answered
    them: the view's bytes and headers, not counted by the rate limit; a change is seen at once
    (the middleware makes the view's own cache read of the tokens and the copy)."""
    from api.throttles import AnonRateThrottle
    from tournaments.models import Entry

    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "3/minute")
    forget()
    reader, path = client_for(), f"/api/tournaments/{cup.pk}/standings/"
    before = reader.get(path)  # counted: 1
    names = ("ETag", "Cache-Control", "Content-Type", "Vary", "Allow")
    for _ in range(5):
        again = reader.get(path)
        assert again.status_code == 200 and again.content == before.content
        assert {n: again.get(n) for n in names} == {n: before.get(n) for n in names}
        assert reader.get(path, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304
    leader = before.json()["results"][0]["entry"]
    correction_record(tournament=cup, kind="disqualify", reason="tests: a late disqualification",
                      entry=Entry.objects.get(pk=leader), created_by=organiser_user)
    after = reader.get(path)  # the copy is stale: the view computes it (counted: 2)
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert {row["entry"]: row for row in after.json()["results"]}[leader]["disqualified"] is True
    assert reader.get(f"/api/tournaments/{cup.pk}/bracket/").status_code == 200  # counted: 3
    assert reader.get(f"/api/tournaments/{cup.pk}/rounds/").status_code == 429  # never cached: the view
    assert reader.get(path).content == after.content  # read again: before the view, not refused


def test_a_match_end_changes_the_cached_bracket(cup):
    from tournaments.models import PairingGame

    path = f"/api/tournaments/{cup.pk}/bracket/"
    before = client_for().get(path)
    match = PairingGame.objects.filter(pairing__tournament=cup).first().match
    # Any write of the tournament's through the services replaces its generation; a match end
    # too, which is checked here without playing another match: the generation changes.
    from replays.generations import generations_of, tournament_scope
    from replays.services import _match_close

    old = generations_of([tournament_scope(cup.pk)])
    _match_close(match=match, kind="match_ended", payload={"result": match.result}, when=match.ended_at)
    assert generations_of([tournament_scope(cup.pk)]) != old
    assert client_for().get(path, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200


def test_the_leaderboard_changes_when_the_ratings_are_recomputed(cup):
    from tournaments.models import Rating

    path = "/api/leaderboards/sorcado/"
    before = client_for().get(path)
    rated = before.json()["count"]
    assert before.status_code == 200 and rated >= 2
    Rating.objects.filter(game="sorcado").delete()  # outside the services: not seen ...
    assert client_for().get(path).content == before.content
    ratings_recompute(game="sorcado")  # ... until the ratings are written by their service
    after = client_for().get(path)
    assert after["ETag"] != before["ETag"] and after.json()["count"] == rated
    assert client_for().get(path).content == after.content


def test_an_unknown_game_has_no_leaderboard_and_nothing_is_cached_for_it(db):
    for _ in range(2):
        response = client_for().get("/api/leaderboards/nothing-such/")
        assert response.status_code == 404 and "ETag" not in response


@pytest.mark.parametrize("query", ["", "?seat=1&from=20&count=10", "?seat=full"])
def test_the_viewers_frames_of_a_finished_match_are_served_as_computed_fresh(ended, people, query):
    path = f"/matches/{ended.pk}/frames.json{query}"
    forget()
    fresh = client_for().get(path)
    with CaptureQueriesContext(connection) as queries:
        cached = client_for(people["bob"]).get(path)
    assert fresh.status_code == 200 and cached.content == fresh.content and len(queries) == 0
    assert cached["ETag"] == fresh["ETag"] and fresh.json()["frames"]


def test_the_viewers_live_frames_are_never_shared(live, people):
    from django.test import Client

    def signed_in(user):
        client = Client()
        client.force_login(user)
        return client

    path = f"/matches/{live.pk}/frames.json?seat=0"
    assert signed_in(people["alice"]).get(path).status_code == 200
    for who in ("bob", "carol"):
        assert signed_in(people[who]).get(path).status_code == 403, who
    assert Client().get(path).status_code == 403
