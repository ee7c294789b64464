"""Issue 12: reads of a finished match are immutable, so they carry a validator (ETag) and may
be cached; a live match's reads are neither tagged nor cacheable. And /api/health/ answers."""
import pytest

from bots.services import match_play_builtin
from replays.models import Match


@pytest.fixture
def finished(db):
    return match_play_builtin(ruleset="trap-the-wizard", bots=["random", "random"], options={"rounds": 1})


@pytest.mark.parametrize("path", ["steps/5/", "steps/5/?seat=1", "events/?limit=3", "export/"])
def test_a_finished_read_is_tagged_and_a_matching_revalidation_is_304(client, finished, path,
                                                                      django_assert_max_num_queries):
    url = f"/api/matches/{finished.pk}/{path}"
    first = client.get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "public, max-age=86400"
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    # The revalidation answers before any fold, without a query: the finished match's row and
    # head are in this process's memory since the first read (api/caching.py).
    with django_assert_max_num_queries(0):
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    stale = client.get(url, HTTP_IF_NONE_MATCH='"not-this-one"')
    assert stale.status_code == 200 and stale.content == first.content


def test_different_reads_have_different_tags(client, finished):
    tags = {client.get(f"/api/matches/{finished.pk}/{path}")["ETag"]
            for path in ("steps/4/", "steps/5/", "steps/5/?seat=0", "steps/5/?seat=1", "events/")}
    assert len(tags) == 5


def test_a_live_match_is_never_public_and_only_its_public_step_is_tagged(client, finished, django_user_model):
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.RUNNING)
    client.force_login(django_user_model.objects.create_user("watcher"))  # owns no seat
    response = client.get(f"/api/matches/{finished.pk}/steps/5/")
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-cache"
    # The public step is the same for every reader without a seat: tagged by the head's seq,
    # which the next event changes (tests/api/test_read_cache.py).
    assert response["ETag"] and client.get(
        f"/api/matches/{finished.pk}/steps/5/", HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    assert client.get(f"/api/matches/{finished.pk}/steps/5/", HTTP_IF_NONE_MATCH="*").status_code == 200


def test_the_health_endpoint_answers_without_the_database(db, client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/api/health/")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
