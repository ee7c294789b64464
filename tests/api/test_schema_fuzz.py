"""schemathesis against the OpenAPI schema, with every check it has: no 5xx, documented status
codes and content types, responses valid against the schema, schema-violating requests refused,
schema-valid ones accepted, public reads marked public. Positive and negative cases, bounded and
derandomised so a run is fast and the same every time (in process through WSGI);
ARENA_FUZZ_EXAMPLES=200 explores deeper. Every operation is run with a user's API token, which
reaches the writes (a tournament's create body per game and format, scrimmages, ...) past the
401, and the public ones anonymously too."""
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from config.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Requests go straight to the WSGI app, which closes database connections when a request
    ends; inside a test transaction that would close the test's own connection (on PostgreSQL).
    Django's test client detaches the same handlers."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def _data(db):
    """A finished match and the built-in bots, so reads have something to return."""
    from bots.services import match_play_builtin

    match_play_builtin(ruleset="sorcado", bots=["heuristic", "random"])


FUZZ = settings(max_examples=int(os.environ.get("ARENA_FUZZ_EXAMPLES", "8")), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.filter_too_much])


@pytest.fixture
def bearer(db) -> str:
    """A fresh user's API token."""
    from django.contrib.auth import get_user_model

    from api.services import token_create

    user = get_user_model().objects.create_user(username="fuzzer", password="fuzzer-Secret-123")
    _, plaintext = token_create(user=user, name="fuzz")
    return f"Bearer {plaintext}"


def _needs_a_token(ctx) -> bool:
    """An operation whose security has no anonymous alternative: without a token it answers 401
    whatever the request, which the token run's ignored_auth check sends too."""
    return {} not in ctx.operation.definition.raw.get("security", [{}])


@schema.exclude(_needs_a_token).parametrize()
@FUZZ
def test_the_api_matches_its_schema_and_never_fails_with_a_5xx(case):
    case.call_and_validate()  # no checks named: all of them


@schema.parametrize()
@FUZZ
def test_the_api_matches_its_schema_with_a_token_too(case, bearer):
    case.call_and_validate(headers={"Authorization": bearer})
