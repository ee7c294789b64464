"""Issue 39.6, small things a newcomer tripped on: unknown site URLs are the site's own 404 page
(DEBUG on, the default of a local run, as well as off), a missing slash is still added where the
slashed URL is a page; GET /api/ lists the API's entry points, each a route a client can follow.
(The events list's envelope and POST validate/ are in test_matches_api.py, the progress bar in
tests/tournaments/test_command_progress.py.)"""
import pytest
from django.urls import resolve
from rest_framework.test import APIClient

from api.views import ENTRY_POINTS

UNKNOWN = ["/no/such/page/", "/bots/abc/", "/nothing", "/tournaments/x/y/", "/static-ish/file.txt",
           "/tournaments/999999/", "/matches/00000000-0000-0000-0000-000000000000/"]  # no such object


@pytest.mark.parametrize("debug", [False, True])
def test_unknown_urls_are_the_sites_own_404_page_debug_or_not(client, db, settings, debug):
    settings.DEBUG = debug
    for url in UNKNOWN:
        response = client.get(url)
        html = response.content.decode()
        assert response.status_code == 404, url
        assert "<h1>Not found</h1>" in html and 'class="site-nav"' in html, url
        assert "Using the URLconf" not in html and "Page not found at" not in html, url  # Django's debug page
        assert response["Content-Security-Policy"].startswith("default-src 'self'")
    api = client.get("/api/no/such/")
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


def test_a_missing_slash_is_still_added_where_the_slashed_url_is_a_page(client, db):
    for url, target in [("/games", "/games/"), ("/matches?game=sorcado", "/matches/?game=sorcado"),
                        ("/admin", "/admin/")]:
        response = client.get(url)
        assert response.status_code == 301 and response["Location"] == target, (url, response.status_code)
    assert client.get("/nothing").status_code == 404  # /nothing/ is no page either


def test_get_api_lists_every_entry_point_and_each_answers(db):
    anonymous = APIClient()
    response = anonymous.get("/api/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {name for name, _, _ in ENTRY_POINTS}
    assert body["matches"] == {"url": "http://testserver/api/matches/",
                               "description": "every match, newest first, live ones by their public face"}
    for name, route, _ in ENTRY_POINTS:
        path = body[name]["url"].removeprefix("http://testserver")
        assert resolve(path).url_name == route, name
        answer = anonymous.get(path)
        # Open to all (200), for signed-in users (401/403), or POST only (405): never a 404.
        assert answer.status_code in (200, 401, 403, 405), (name, answer.status_code)
    assert anonymous.get("/api/games/").status_code == 200 and anonymous.get("/api/matches/").status_code == 200
