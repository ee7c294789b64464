"""Shared API fixtures: an anonymous client, alice and bob (bot owners), an organiser and a
staff user, each client authenticated by a real API token; a bot of alice's with a version."""
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache, caches
from rest_framework.test import APIClient

from api.services import token_create
from bots.services import bot_create, bot_version_upload, builtin_bot_versions
from tournaments.services_drafts import tournament_draft_create, tournament_entry_add

GAME = "sorcado"
GOOD_SOURCE = b"import sys\nfor line in sys.stdin:\n    pass\n"


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Password hashing is deliberately slow; five users a test need not be."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_throttles():
    """Throttle counters live in the cache; every test starts with none. A Redis cache is
    never cleared: clearing it empties its whole database, which a test that reads through
    Redis shares with the broker (tests/api/test_read_cache.py: the broker's database, under a
    key prefix of the test's own, so its counters start afresh anyway). Cleared at a test's
    end, it emptied the database under every other test process of the pass: their queued
    tasks, and the bodies another read-cache test had just stored."""
    _clear_unless_shared()
    yield
    _clear_unless_shared()


def _clear_unless_shared():
    if type(caches["default"]).__name__ != "RedisCache":
        cache.clear()


def make_user(username, **extra):
    return get_user_model().objects.create_user(username=username, password=f"{username}-Secret-123", **extra)


def token_client(user) -> APIClient:
    client = APIClient()
    _, plaintext = token_create(user=user, name="tests")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plaintext}")
    client.user = user
    return client


@pytest.fixture
def anon(db):
    return APIClient()


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def organiser_user(db):
    return make_user("olga")


@pytest.fixture
def staff_user(db):
    return make_user("stella", is_staff=True)


@pytest.fixture
def alice_client(alice):
    return token_client(alice)


@pytest.fixture
def bob_client(bob):
    return token_client(bob)


@pytest.fixture
def organiser(organiser_user):
    return token_client(organiser_user)


@pytest.fixture
def staff(staff_user):
    return token_client(staff_user)


@pytest.fixture
def alice_bot(alice):
    bot = bot_create(owner=alice, name="merlin", game=GAME)
    bot_version_upload(bot=bot, filename="merlin.py", content=GOOD_SOURCE)
    return bot


@pytest.fixture
def bob_bot(bob):
    bot = bot_create(owner=bob, name="morgana", game=GAME)
    bot_version_upload(bot=bot, filename="morgana.py", content=GOOD_SOURCE)
    return bot


@pytest.fixture
def builtins(db):
    return builtin_bot_versions(game=GAME)


@pytest.fixture
def draft(organiser_user):
    """A round-robin draft of the organiser's, no entries yet."""
    return tournament_draft_create(organiser=organiser_user, name="Spring cup", game=GAME, format="round-robin")


def filled_draft(organiser_user, builtins, count: int, fmt="round-robin", settings=None):
    """A draft of ``count`` built-in entries."""
    tournament = tournament_draft_create(organiser=organiser_user, name=f"cup of {count}", game=GAME,
                                         format=fmt, format_settings=settings or {})
    names = sorted(builtins)
    for i in range(count):
        tournament_entry_add(tournament=tournament, bot_version=builtins[names[i % len(names)]],
                             by=organiser_user)
    return tournament
