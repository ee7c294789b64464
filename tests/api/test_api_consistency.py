"""One API: every list pages the same way, bodies are checked the same way, the schema says what
the server does, and every /api/ URL answers JSON (issues 12.8, 13.11 and 13.12)."""
import pytest
from drf_spectacular.generators import SchemaGenerator

from .conftest import GAME

LISTS = ["/api/games/", f"/api/leaderboards/{GAME}/", "/api/tournaments/{draft}/entries/",
         "/api/tournaments/{draft}/standings/", "/api/tournaments/{draft}/bracket/",
         "/api/tournaments/{draft}/rounds/", "/api/tournaments/{draft}/corrections/",
         "/api/tokens/", "/api/bots/", "/api/matches/", "/api/tournaments/"]


@pytest.fixture
def schema(db):
    return SchemaGenerator().get_schema(request=None, public=True)


@pytest.fixture
def two_entries(draft, alice_client, alice_bot, organiser, builtins):
    """The draft with alice's bot and a built-in bot entered."""
    assert alice_client.post(f"/api/tournaments/{draft.pk}/entries/", {"bot": alice_bot.pk},
                             format="json").status_code == 201
    assert organiser.post(f"/api/tournaments/{draft.pk}/entries/", {"bot": builtins["random"].bot.pk},
                          format="json").status_code == 201
    return draft


# -- 13.11: every list honours limit/offset with the same envelope ------------------------------

@pytest.mark.parametrize("path", LISTS)
def test_it_pages_every_list_in_one_envelope(path, alice_client, two_entries):
    response = alice_client.get(path.format(draft=two_entries.pk), {"limit": 1})
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert len(body["results"]) <= 1


def test_it_honours_limit_and_offset_on_entries(anon, two_entries):
    first = anon.get(f"/api/tournaments/{two_entries.pk}/entries/?limit=1").json()
    second = anon.get(f"/api/tournaments/{two_entries.pk}/entries/?limit=1&offset=1").json()
    assert first["count"] == 2 and [r["seed"] for r in first["results"] + second["results"]] == [1, 2]


def test_it_ranks_the_leaderboard_over_the_whole_board_whatever_the_page(anon, builtins):
    from tournaments.models import Rating

    for ordinal, name in enumerate(["random", "heuristic"]):
        Rating.objects.create(bot=builtins[name].bot, game=GAME, mu=25, sigma=8, ordinal=ordinal, matches=1)
    page = anon.get(f"/api/leaderboards/{GAME}/?limit=1&offset=1").json()
    assert page["count"] == 2 and [(r["rank"], r["bot_name"]) for r in page["results"]] == [(2, "random")]


@pytest.mark.parametrize("query", ["limit=abc", "limit=0", "limit=201", "offset=-1", "offset=x",
                                   "offset=9223372036854775608",
                                   "limit=", "offset="])  # empty: not a number (issue 40, item 11)
def test_it_refuses_a_bad_limit_or_offset_with_a_400_naming_it(anon, query):
    response = anon.get(f"/api/bots/?{query}")
    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == [query.partition("=")[0]]


def test_it_refuses_an_empty_typed_filter(anon):
    response = anon.get("/api/matches/?created_before=")
    assert response.status_code == 400 and "created_before" in response.json()["error"]["fields"]


# -- 13.12: unknown fields, JSON type names, fields filled --------------------------------------

def test_it_refuses_unknown_body_fields_and_names_them(alice_client, alice_bot, draft):
    response = alice_client.post(f"/api/tournaments/{draft.pk}/entries/", {"bot": alice_bot.pk, "seed": -4},
                                 format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unknown_field"
    assert list(response.json()["error"]["fields"]) == ["seed"]
    assert draft.entries.count() == 0


def test_it_names_json_types_and_the_field_in_a_settings_error(organiser):
    response = organiser.post("/api/tournaments/", {"name": "cup", "game": GAME, "format": "swiss",
                                                    "format_settings": {"rounds": "three"}}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["fields"] == {"format_settings": ["rounds must be an integer, got a string"]}
    assert "a int" not in error["detail"] and "must be an integer" in error["detail"]


def test_it_fills_fields_for_a_settings_error_the_service_finds(organiser):
    response = organiser.post("/api/tournaments/", {"name": "cup", "game": GAME, "format": "swiss",
                                                    "time_control": {"move_ms": 0}}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] and "move_ms" in response.json()["error"]["detail"]


def test_it_takes_json_bodies_only_except_the_upload(organiser):
    response = organiser.post("/api/tournaments/", "name=cup&game=sorcado&format=swiss",
                              content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415 and response.json()["error"]["code"] == "unsupported_media_type"


# -- 12.8: the schema says what the server does ---------------------------------------------------

PUBLIC = ["/api/games/", "/api/leaderboards/{game}/", "/api/tournaments/{tournament_id}/standings/",
          "/api/tournaments/{tournament_id}/bracket/", "/api/tournaments/{tournament_id}/rounds/",
          "/api/tournaments/{tournament_id}/trf/"]


@pytest.mark.parametrize("path", PUBLIC)
def test_its_schema_marks_public_reads_public(schema, path):
    assert {} in schema["paths"][path]["get"]["security"]


def test_its_schema_says_listing_tokens_needs_a_user(schema, anon):
    assert {} not in schema["paths"]["/api/tokens/"]["get"]["security"]
    assert anon.get("/api/tokens/").status_code == 401


def test_its_schema_states_the_page_bounds_and_id_filters(schema):
    parameters = {p["name"]: p["schema"] for p in schema["paths"]["/api/matches/"]["get"]["parameters"]}
    assert parameters["limit"]["maximum"] == 200 and parameters["offset"]["minimum"] == 0
    assert parameters["bot"] == {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}


def test_its_schema_has_no_bare_list_and_closed_request_bodies(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            body = operation.get("responses", {}).get("200", {}).get("content", {}).get("application/json")
            assert not body or body["schema"].get("type") != "array", (method, path)
    bodies = [c for name, c in schema["components"]["schemas"].items() if name.endswith("InputRequest")]
    assert bodies and all(c["additionalProperties"] is False for c in bodies)


def test_it_answers_json_for_every_unknown_api_url(anon):
    for path in ["/api/nope/", "/api/bots/abc/", "/api/tournaments/1/nope/", "/api"]:
        response = anon.get(path)
        assert response.status_code in (301, 404), path
        if response.status_code == 404:
            assert response["Content-Type"] == "application/json", path
            assert response.json()["error"]["code"] == "not_found"


# -- 13.19: "API and CLI agree: the CLI refuses a duplicate entry as the API does; 'who acts next'
#    has one shape." -------------------------------------------------------------------------------

def test_the_cli_refuses_an_uploaded_bot_entered_twice_as_the_api_does(alice, alice_bot, builtins):
    from django.core.management import CommandError, call_command

    from tournaments.models import Tournament

    ref = f"{alice.username}/{alice_bot.name}"
    with pytest.raises(CommandError, match=f"{alice_bot.name} is already entered"):
        call_command("tournament", "--game", GAME, "--format", "round-robin", "--bots", f"{ref},random,{ref}")
    assert not Tournament.objects.exists()  # nothing stored
    # Built-in bots may still fill several seats, through the CLI as through the API's organiser.
    call_command("tournament", "--game", GAME, "--format", "round-robin", "--bots", "random,random,random")
    assert Tournament.objects.get().entries.count() == 3


def test_who_acts_next_has_one_shape_in_the_api_and_the_cli(anon, builtins, capsys):
    import json

    from django.core.management import call_command

    from bots.services import match_play_builtin

    match = match_play_builtin(ruleset=GAME, bots=["random", "random"])
    steps = anon.get(f"/api/matches/{match.pk}/steps/0/").json()["steps"]
    kinds = set()
    for n in range(steps):
        api = anon.get(f"/api/matches/{match.pk}/steps/{n}/").json()["next"]
        call_command("replay", str(match.pk), "--step", str(n))
        cli = json.loads(capsys.readouterr().out)["next"]
        assert cli == api, f"step {n}"
        kinds.add(api["kind"])
        if n > 40 and {"act", "chance"} <= kinds:
            break
    assert {"act", "chance"} <= kinds
    call_command("replay", str(match.pk), "--step", str(steps - 1))
    last = json.loads(capsys.readouterr().out)["next"]
    assert last == anon.get(f"/api/matches/{match.pk}/steps/{steps - 1}/").json()["next"]
    match.refresh_from_db()
    assert last["kind"] == "ended" and last["result"] == match.result
