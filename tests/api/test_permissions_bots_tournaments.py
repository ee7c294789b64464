"""Who may do what: every endpoint and method of accounts, bots and tournaments, for anonymous,
alice (owns a bot), bob (owns another), the organiser of the tournament and a staff user.

Public things (bots, version metadata, tournaments) are readable by all; writes to something
public that is not yours are 403; private things (code, tokens) of others are 404. A refused
write changes nothing stored.
"""
import io

import pytest
from django.contrib.auth import get_user_model

from api.models import ApiToken
from bots.models import Bot, BotVersion
from tournaments.models import Correction, Entry, Tournament

from .conftest import GAME, GOOD_SOURCE, filled_draft

ROLES = ["anon", "alice", "bob", "organiser", "staff"]

# (method, url, payload, expected status per role in ROLES order)
MATRIX = [
    ("get", "/api/bots/", None, [200, 200, 200, 200, 200]),
    ("post", "/api/bots/", {"name": "newbot", "game": GAME}, [401, 201, 201, 201, 201]),
    ("get", "/api/bots/{alice_bot}/", None, [200, 200, 200, 200, 200]),
    ("delete", "/api/bots/{alice_bot}/", None, [401, 405, 405, 405, 405]),
    ("get", "/api/bots/{alice_bot}/versions/", None, [200, 200, 200, 200, 200]),
    ("upload", "/api/bots/{alice_bot}/versions/", None, [401, 201, 403, 403, 403]),
    ("get", "/api/bots/{alice_bot}/versions/1/", None, [200, 200, 200, 200, 200]),
    ("get", "/api/bots/{alice_bot}/versions/1/code/", None, [404, 200, 404, 404, 200]),
    ("get", "/api/me/bots/", None, [401, 200, 200, 200, 200]),
    ("get", "/api/tokens/", None, [401, 200, 200, 200, 200]),
    ("post", "/api/tokens/", {"name": "another"}, [401, 201, 201, 201, 201]),
    ("delete", "/api/tokens/{alice_token}/", None, [401, 204, 404, 404, 404]),
    ("post", "/api/users/", {"username": "fresh-{role}", "password": "a-Long-enough-pass-42"},
     [201, 201, 201, 201, 201]),
    ("get", "/api/tournaments/", None, [200, 200, 200, 200, 200]),
    ("post", "/api/tournaments/", {"name": "mine", "game": GAME, "format": "swiss"}, [401, 201, 201, 201, 201]),
    ("get", "/api/tournaments/{draft}/", None, [200, 200, 200, 200, 200]),
    ("patch", "/api/tournaments/{draft}/", {"name": "renamed"}, [401, 403, 403, 200, 403]),
    ("delete", "/api/tournaments/{draft}/", None, [401, 405, 405, 405, 405]),
    ("get", "/api/tournaments/{draft}/entries/", None, [200, 200, 200, 200, 200]),
    ("post", "/api/tournaments/{draft}/entries/", {"bot": "{alice_bot}"}, [401, 201, 403, 403, 403]),
    ("post", "/api/tournaments/{draft}/entries/", {"bot": "{builtin}"}, [401, 403, 403, 201, 403]),
    ("post", "/api/tournaments/{draft}/start/", None, [401, 403, 403, 200, 403]),
    ("post", "/api/tournaments/{draft}/cancel/", None, [401, 403, 403, 200, 403]),
    ("get", "/api/tournaments/{draft}/standings/", None, [200, 200, 200, 200, 200]),
    ("get", "/api/tournaments/{draft}/bracket/", None, [200, 200, 200, 200, 200]),
    ("get", "/api/tournaments/{draft}/rounds/", None, [200, 200, 200, 200, 200]),
    ("get", "/api/tournaments/{draft}/corrections/", None, [200, 200, 200, 200, 200]),
    ("post", "/api/tournaments/{draft}/corrections/", {"kind": "disqualify", "reason": "r", "entry": "{entry}"},
     [401, 403, 403, 201, 403]),
    ("get", f"/api/leaderboards/{GAME}/", None, [200, 200, 200, 200, 200]),
]


@pytest.fixture
def world(alice_client, bob_client, organiser, staff, anon, alice_bot, bob_bot, builtins, organiser_user):
    """Every role's client and the ids the matrix's urls name."""
    draft = filled_draft(organiser_user, builtins, 2)
    ids = {"alice_bot": alice_bot.pk, "draft": draft.pk, "builtin": builtins["random"].bot_id,
           "alice_token": ApiToken.objects.get(user=alice_client.user).pk,
           "entry": Entry.objects.filter(tournament=draft).first().pk}
    clients = {"anon": anon, "alice": alice_client, "bob": bob_client, "organiser": organiser, "staff": staff}
    return clients, ids


def snapshot():
    """Everything a write could change."""
    return (list(Bot.objects.values_list("id", "name", "description")),
            list(BotVersion.objects.values_list("id", "number")),
            list(Tournament.objects.values_list("id", "name", "status", "format")),
            list(Entry.objects.values_list("id", "seed", "bot_version_id")),
            list(Correction.objects.values_list("id")),
            list(ApiToken.objects.values_list("id", "revoked")),
            get_user_model().objects.count())


def fill(value, ids, role):
    if isinstance(value, str):
        value = value.format(role=role, **ids)
        return int(value) if value.isdigit() else value
    if isinstance(value, dict):
        return {k: fill(v, ids, role) for k, v in value.items()}
    return value


def call(client, method, url, payload):
    if method == "upload":  # new bytes (alice_bot's version 1 holds GOOD_SOURCE: that is a 200)
        upload = io.BytesIO(GOOD_SOURCE + b"# a new version\n")
        upload.name = "main.py"
        return client.post(url, {"file": upload}, format="multipart")
    return getattr(client, method)(url, payload, format="json") if payload is not None \
        else getattr(client, method)(url)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("method, url, payload, expected", MATRIX,
                         ids=[f"{m} {u} {p or ''}" for m, u, p, _ in MATRIX])
def test_permission_matrix(world, role, method, url, payload, expected, django_capture_on_commit_callbacks):
    clients, ids = world
    want = expected[ROLES.index(role)]
    before = snapshot()
    with django_capture_on_commit_callbacks(execute=False):  # a start queues matches: not here
        response = call(clients[role], method, fill(url, ids, role), fill(payload, ids, role))
    assert response.status_code == want, (role, response.content[:300])
    if want >= 400:
        assert response.json()["error"]["code"], response.json()
        assert snapshot() == before


def test_lists_never_show_another_users_private_data(world, alice_bot):
    clients, ids = world
    bob = clients["bob"]
    alice_token = ApiToken.objects.get(pk=ids["alice_token"])
    assert alice_token.prefix not in str(bob.get("/api/tokens/").json())
    assert "merlin" not in str(bob.get("/api/me/bots/").json())
    for url in ["/api/bots/", f"/api/bots/{alice_bot.pk}/", f"/api/bots/{alice_bot.pk}/versions/",
                f"/api/bots/{alice_bot.pk}/versions/1/", "/api/tournaments/",
                f"/api/tournaments/{ids['draft']}/entries/"]:
        body = bob.get(url).content
        assert GOOD_SOURCE not in body and b"archive" not in body and b"key_hash" not in body, url


def test_a_session_login_works_like_a_token(alice, bob_bot):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=False)
    client.force_login(alice)
    assert client.get("/api/me/bots/").status_code == 200
    assert client.get(f"/api/bots/{bob_bot.pk}/versions/1/code/").status_code == 404
