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
from schemathesis.specs.openapi.checks import positive_data_acceptance

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


# The remote seats' stream and long poll hold a request open for the time asked (up to an hour)
# or their default (600 s, 30 s), and through WSGI the fuzz reads a response to its end: a valid
# time is cut to the shortest the schema allows, so no case waits; an invalid one is kept (it is
# refused at once). The endpoints' waiting itself is tested in tests/api/test_remote_api.py.
WAITS = {"/api/remote/stream/": ("seconds", 1, 3600), "/api/remote/next/": ("wait", 0, 60)}


def _no_waiting(case) -> None:
    if case.method != "GET" or case.path not in WAITS:
        return
    name, shortest, longest = WAITS[case.path]
    case.query = dict(case.query or {})
    value = case.query.get(name)  # a query's values are text
    if value is None or (isinstance(value, (int, str)) and str(value).isdigit()
                         and shortest <= int(value) <= longest):
        case.query[name] = str(shortest)


@schema.exclude(_needs_a_token).parametrize()
@FUZZ
def test_the_api_matches_its_schema_and_never_fails_with_a_5xx(case):
    _no_waiting(case)
    case.call_and_validate()  # no checks named: all of them


# The one refusal of a schema-valid body the schema states only in words (its rules_options
# description): options of Warlock or Wizard Kings whose matches could outrun the match driver,
# a bound on several options together (bots.driver.events_bound_check).
EVENT_BOUND = "the match driver plays"


@schema.parametrize()
@FUZZ
def test_the_api_matches_its_schema_with_a_token_too(case, bearer):
    _no_waiting(case)
    if (case.method, case.path) != ("POST", "/api/tournaments/"):
        case.call_and_validate(headers={"Authorization": bearer})
        return
    response = case.call_and_validate(headers={"Authorization": bearer}, excluded_checks=[positive_data_acceptance])
    if case.meta.generation.mode.is_positive and response.status_code == 400:
        detail = response.json()["error"]["detail"]
        assert EVENT_BOUND in detail and case.body["game"] in ("warlock", "wizard-kings"), (
            f"a schema-valid body refused: {detail}")
    elif case.meta.generation.mode.is_positive:
        assert response.status_code in (201, 401, 403, 429), response.text
