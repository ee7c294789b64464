"""Every game publishes JSON Schemas (draft 2020-12) of its view and its actions
(``games/<game>/schema/``, read by ``games.engine.schemas``, served at
``/api/games/{game}/schema/``), and they hold:

- every view (each seat's and the public one) at every step, and every legal action, of the
  suite's random playouts (conftest.detailed: every seat count, half with a resignation) and of
  playouts with each game's main options validates against them;
- they are strict enough to refuse a wrong message;
- the rules page docs/rules/<game>.md names every field the view schema has, and shows every
  action type in an example message that validates: a bot written from the page alone plays.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from games.engine import schemas
from games.engine.protocol import ToAct

from .conftest import (BUILTIN, CASES, GAME_NAMES, PLAYOUTS_TIMEOUT, TEST_GAMES, case_key, case_named,
                       detailed, drive, ruleset_named, seed_for, settable_counts)
from .test_conformance import ROOT

pytestmark = PLAYOUTS_TIMEOUT  # some tests here ask for the playouts first (conftest.playouts)


def folder_of_test_game(name: str) -> Path:
    """The folder of a test game's module, which holds its schemas and its rules page."""
    return Path(sys.modules[type(TEST_GAMES[name]).__module__].__file__).parent


def ships_schemas(name: str) -> bool:
    """Every builtin game must ship its schemas (a module that failed to import fails its tests
    with its story); a test game may (Nim does, Oracle does not). Asked without the registry,
    which holds the test games only while a test runs."""
    return name not in TEST_GAMES or (folder_of_test_game(name) / "schema" / "view.json").is_file()


GAMES = [name for name in GAME_NAMES if ships_schemas(name)]
SCHEMA_CASES = [key for key, (name, _) in CASES.items() if name in GAMES]

# The main options of each game beyond the defaults and its conformance variants, each played at
# its smallest and largest seat count (a count the options cannot seat is skipped).
MAIN_OPTIONS = {
    "trap-the-wizard": [{"six": "compulsory", "joker_return": "keep", "rounds": 2},
                        {"board": "wheel6", "wizards": 1, "rounds": 2}],
    "sorcado": [{"placement": "border", "factions": "by-seat", "tie": "shared"},
                {"freed_look": "s1-and-a1", "replays": 1}],
    "imperial-twing": [{"characters": "choose", "resignation": "free", "protected": "also-traps"}],
    "warlock": [{"double_reflection": "caster", "wander_bonus_in_limbo": True, "lone_swap_cost": 0}],
    "wizard-kings": [{"scoring": "accumulated", "victory_gold": 0, "allies_switch": False}],
}
OPTION_CASES = [(name, options) for name, sets in MAIN_OPTIONS.items() for options in sets]


def check_step(name: str, ruleset, state, players: int, where: str) -> int:
    """Every view of ``state`` and every legal action of the seats to act match the schemas;
    returns the number of actions checked."""
    for viewer in [*range(players), None]:
        view = ruleset.view(state, viewer)
        if not schemas.is_valid(name, "view", view):
            pytest.fail(f"{where}: the view of seat {viewer} does not match the schema: "
                        f"{schemas.errors(name, 'view', view)[:5]}")
    nxt = ruleset.next(state)
    checked = 0
    for seat in (nxt.seats if isinstance(nxt, ToAct) else ()):
        for action in ruleset.legal_actions(state, seat):
            checked += 1
            if not schemas.is_valid(name, "action", action):
                pytest.fail(f"{where}: the legal action {action!r} of seat {seat} does not match "
                            f"the schema: {schemas.errors(name, 'action', action)[:5]}")
    return checked


# -- the schemas themselves ----------------------------------------------------------------------
def walk(schema, path=""):
    """Yield (path, subschema) for every schema inside ``schema``."""
    if isinstance(schema, dict):
        yield path, schema
        for key, value in schema.items():
            if key in ("properties", "$defs", "patternProperties", "dependentSchemas"):
                for name, sub in value.items():
                    yield from walk(sub, f"{path}.{name}")
            elif key in ("items", "additionalProperties", "propertyNames", "not", "then", "else",
                         "contains"):  # an "if" is a condition, no shape of its own
                yield from walk(value, f"{path}.{key}")
            elif key in ("oneOf", "anyOf", "allOf", "prefixItems"):
                for i, sub in enumerate(value):
                    yield from walk(sub, f"{path}.{key}[{i}]")


def property_names(schema) -> set[str]:
    """Every property name the schema defines, at any depth."""
    return {name for _, sub in walk(schema) for name in sub.get("properties", {})}


@pytest.mark.parametrize("name", GAMES)
def test_every_game_ships_a_strict_documented_view_and_action_schema(name):
    for kind in schemas.KINDS:
        schema = schemas._schema(name, kind)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", kind
        schemas.validator(name, kind)  # checked against the meta-schema
        for path, sub in walk(schema):
            for prop, spec in sub.get("properties", {}).items():
                assert spec.get("description", "").strip(), f"{kind}{path}.{prop} has no description"
            if "properties" in sub and "additionalProperties" not in sub and path:
                # a closed object; only a branch combined by oneOf/allOf may leave it to its parent
                pytest.fail(f"{kind}{path}: an object with properties but no additionalProperties")
    assert schemas.view_schema(name) == schemas._schema(name, "view")  # a copy, not the cache
    assert schemas.view_schema(name) is not schemas._schema(name, "view")


def test_a_game_without_schemas_and_an_unknown_game_are_lookup_errors():
    from games.engine import registry

    with pytest.raises(LookupError):
        schemas.view_schema("no-such-game")
    with pytest.raises(schemas.SchemaMissing):
        schemas.action_schema("test-oracle")  # registered by the conformance conftest
    assert "test-oracle" in registry.names()


# -- every view and every legal action of random playouts ----------------------------------------
@pytest.mark.parametrize("key", SCHEMA_CASES)
def test_every_view_and_legal_action_of_the_random_playouts_matches_the_schemas(key):
    case = case_named(key)
    checked = 0
    for summary, driven in detailed(key):
        for seq, state in enumerate(driven.states):
            checked += check_step(case.name, case.ruleset, state, summary.players,
                                  f"{key} playout {summary.index} after seq {seq}")
    assert checked, "no legal action was checked"


@pytest.mark.parametrize("name,options", OPTION_CASES,
                         ids=[case_key(name, options) for name, options in OPTION_CASES])
def test_every_view_and_legal_action_with_the_main_options_matches_the_schemas(name, options):
    ruleset = BUILTIN[name]
    counts = settable_counts(ruleset, options, (ruleset.spec.min_players, ruleset.spec.max_players))
    assert counts, f"{name} {options}: no seat count can be set up"
    for index, players in enumerate(counts):
        seed = seed_for(index, f"schemas {name} {options}")
        first = drive(ruleset, players, seed=seed, bot_seed=index, options=options)
        # the second playout of a count has a seat resign half-way (D15, D19, ...: forfeits)
        half = len(first.records) // 2
        second = drive(ruleset, players, seed=seed, bot_seed=index + 7, options=options,
                       resign={half: players - 1})
        for number, driven in enumerate((first, second)):
            for seq, state in enumerate(driven.states):
                check_step(name, ruleset, state, players,
                           f"{name} {options} {players} players, playout {number}, after seq {seq}")


# -- the schemas refuse wrong messages -----------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_the_schemas_refuse_a_wrong_view_or_action(name):
    ruleset = ruleset_named(name)
    driven = drive(ruleset, ruleset.spec.min_players, seed=seed_for(0, "refuse"), max_events=None)
    state = next(s for s in driven.states if isinstance(ruleset.next(s), ToAct))
    seat = ruleset.next(state).seats[0]
    view, action = ruleset.view(state, seat), ruleset.legal_actions(state, seat)[0]
    schemas.validate_view(name, view)
    schemas.validate_action(name, action)
    assert isinstance(view, dict), "a view is a JSON object (docs/protocol.md)"
    required = sorted(required_fields(schemas._schema(name, "view")) & set(view))
    assert required, "the view schema requires no field of the view"
    wrong_views = [{**view, "no_such_field": 1}, {k: v for k, v in view.items() if k != required[0]},
                   {**view, required[0]: [[{"no": "such value"}]]}, [view], None]
    for wrong in wrong_views:
        assert not schemas.is_valid(name, "view", wrong), f"the view schema accepts {str(wrong)[:200]}"
    wrong_actions = [{"type": "no such action"}, [action], "pass", None]
    if isinstance(action, dict):
        wrong_actions += [{**action, "no_such_field": 1}, {k: v for k, v in action.items() if k != "type"}]
        wrong_actions += [{**action, field: [value]} for field, value in action.items() if field != "type"]
    for wrong in wrong_actions:
        assert not schemas.is_valid(name, "action", wrong), f"the action schema accepts {wrong!r}"
    with pytest.raises(schemas.SchemaMismatch, match="no_such_field") as refused:
        schemas.validate_view(name, {**view, "no_such_field": 1})
    assert refused.value.errors and "Additional properties" in refused.value.errors[0]
    with pytest.raises(schemas.SchemaMismatch):
        schemas.validate_action(name, {"type": "no such action"})


# -- the rules page documents every field and every action ---------------------------------------
def rules_page(name: str) -> str:
    """docs/rules/<game>.md; a test game keeps its page beside its module (rules.md)."""
    if name in TEST_GAMES:
        return (folder_of_test_game(name) / "rules.md").read_text(encoding="utf-8")
    return (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")


def json_blocks(text: str) -> list:
    """The ```json blocks of a page, each parsed as one JSON value or as JSON Lines."""
    values = []
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        try:
            values.append(json.loads(block))
        except json.JSONDecodeError:
            try:
                values.extend(json.loads(line) for line in block.splitlines() if line.strip())
            except json.JSONDecodeError as exc:
                pytest.fail(f"a ```json block is neither JSON nor JSON Lines ({exc}):\n{block[:300]}")
    return values


def example_actions(value) -> list:
    """The actions a page shows: answers ``{"action": ...}``, the ``legal_actions`` of an act
    message, and lists or lines of bare actions."""
    if isinstance(value, list):
        return [a for item in value for a in example_actions(item)]
    if not isinstance(value, dict):
        return []
    if value.get("type") == "act":
        return list(value.get("legal_actions", []))
    if isinstance(value.get("action"), dict):
        return [value["action"]]
    if isinstance(value.get("type"), str) and value["type"] not in ("hello", "result"):
        return [value]
    return []


def required_fields(schema) -> set[str]:
    """The fields a schema requires of an object at its top: its own ``required``, and those
    every branch of a ``oneOf``/``anyOf`` requires, and those of each part of an ``allOf``."""
    required = set(schema.get("required", ()))
    for key in ("oneOf", "anyOf"):
        if schema.get(key):
            required |= set.intersection(*(required_fields(branch) for branch in schema[key]))
    for part in schema.get("allOf", ()):
        required |= required_fields(part)
    return required


def action_types(name: str) -> set[str]:
    """Every action ``type`` the action schema allows, whatever its shape: a ``const`` or an
    ``enum`` of a ``type`` property anywhere in it (a oneOf of one branch a type, one object,
    an anyOf, ...). Empty for a schema whose actions have no ``type``."""
    types = set()
    for _, sub in walk(schemas._schema(name, "action")):
        spec = sub.get("properties", {}).get("type", {})
        types |= {spec["const"]} if "const" in spec else set(spec.get("enum", ()))
    return types


@pytest.mark.parametrize("name", GAMES)
def test_every_view_field_is_named_on_the_rules_page(name):
    text = rules_page(name)
    spans = re.findall(r"`([^`\n]+)`", text)  # `field`, `{"seat", "how"}`, `{key, known}`
    named = {word for span in spans for word in re.findall(r"[a-z_]+", span)}
    named |= set(re.findall(r'"([a-z_]+)"', text))  # ... and the keys of the JSON examples
    missing = sorted(p for p in property_names(schemas._schema(name, "view"))
                     if re.fullmatch(r"[a-z_]+", p) and p not in named)
    assert not missing, (f"docs/rules/{name}.md never names the view fields {missing} (as `field`, "
                         f"or \"field\" in a JSON example)")


@pytest.mark.parametrize("name", GAMES)
def test_every_action_type_has_an_example_on_the_rules_page_that_validates(name):
    examples = example_actions(json_blocks(rules_page(name)))
    for action in examples:
        if not schemas.is_valid(name, "action", action):
            pytest.fail(f"docs/rules/{name}.md shows {action!r}, refused by the action schema: "
                        f"{schemas.errors(name, 'action', action)}")
    assert examples, f"docs/rules/{name}.md shows no example action"
    shown = {a.get("type") for a in examples if isinstance(a, dict)}
    missing = sorted(action_types(name) - shown)
    assert not missing, f"docs/rules/{name}.md has no example message of the action types {missing}"


# -- the API serves them -------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_api_serves_each_games_schemas_publicly(client):
    for name in sorted(BUILTIN):  # the service's games (a test game is no game of the API)
        response = client.get(f"/api/games/{name}/schema/")
        assert response.status_code == 200, name
        assert response["Cache-Control"].startswith("public")
        body = response.json()
        assert body == {"game": name, "version": BUILTIN[name].spec.version,
                        "view": schemas.view_schema(name), "action": schemas.action_schema(name)}
    response = client.get("/api/games/no-such-game/schema/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


# -- the fast validator agrees with the reference -------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_jsonschema_rs_decides_as_jsonschema_does(name):
    """jsonschema_rs (pinned in requirements-test.txt) decides "valid or not" for the suite, about a
    hundred times faster; measured here against jsonschema, the reference implementation of the
    draft, on real views and actions and on wrong ones made from them (a field dropped, a field
    added, a value replaced by one of another type), they must agree every time."""
    import random

    rng = random.Random(13)
    fast = {kind: schemas.fast_validator(name, kind) for kind in schemas.KINDS}
    reference = {kind: schemas.validator(name, kind) for kind in schemas.KINDS}
    assert all(fast.values()), "jsonschema_rs is a test requirement: the suite relies on its speed"
    ruleset = ruleset_named(name)
    [(summary, driven), *_] = detailed(case_key(name, None))
    messages = []
    for state in rng.sample(driven.states, min(40, len(driven.states))):
        for viewer in [*range(summary.players), None]:
            messages.append(("view", ruleset.view(state, viewer)))
        nxt = ruleset.next(state)
        for seat in (nxt.seats if isinstance(nxt, ToAct) else ()):
            messages += [("action", a) for a in ruleset.legal_actions(state, seat)[:5]]
    wrong = []
    for kind, message in messages:
        keys = sorted(message) if isinstance(message, dict) else []
        if keys:
            key = rng.choice(keys)
            wrong.append((kind, {k: v for k, v in message.items() if k != key}))
            wrong.append((kind, {**message, key: rng.choice([None, "x", -1, 1.5, [], {}, True])}))
            wrong.append((kind, {**message, "zz_extra": 0}))
    verdicts = {True: 0, False: 0}
    for kind, message in messages + wrong:
        verdict = reference[kind].is_valid(message)
        assert fast[kind].is_valid(message) == verdict, f"{kind}: the validators disagree on {str(message)[:300]}"
        verdicts[verdict] += 1
    assert verdicts[True] >= len(messages) and verdicts[False] > len(wrong) // 2
