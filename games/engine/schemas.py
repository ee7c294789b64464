"""The JSON Schemas (draft 2020-12) of each game's view and actions, kept as data.

``games/<package>/schema/view.json`` describes what ``view(state, seat)`` returns, for every seat
and for the public view (``seat=None``), in every phase; ``schema/action.json`` describes one
action: an entry of ``legal_actions`` and a bot's answer. They are the machine-readable half of
the game's rules page (docs/rules/<game>.md), which says in words what each field means. The API
serves them (``GET /api/games/{game}/schema/``) and the conformance suite validates every view
and every legal action of its random playouts against them (tests/conformance/test_schemas.py).

They describe the version the service runs (``spec.version``); matches stored under an older
edition keep that edition's views.

Reading a schema needs the standard library only. Validating needs the ``jsonschema`` package,
imported on first use: the ``games`` package itself depends on nothing (pyproject.toml), and a
sandboxed bot that imports the engines never pays for it. Where ``jsonschema_rs`` is installed too
(the test dependencies bring it, with schemathesis) it decides whether a message is valid, about a
hundred times faster, which is what lets the conformance suite check every view of its playouts;
the reasons for a refusal always come from ``jsonschema``.
"""
from __future__ import annotations

import copy
import json
import sys
from functools import lru_cache
from pathlib import Path

from . import registry

KINDS = ("view", "action")


class SchemaMissing(LookupError):
    """The game is registered but ships no schema of that kind (e.g. a test-only game)."""


class SchemaMismatch(ValueError):
    """A message that its game's schema refuses; ``errors`` lists every reason, each with the
    path of the offending value (``state.roll: 7 is greater than the maximum of 6``)."""

    def __init__(self, game: str, kind: str, errors: list[str]):
        shown = "; ".join(errors[:5]) + (f"; ... {len(errors) - 5} more" if len(errors) > 5 else "")
        super().__init__(f"{game} {kind} does not match its schema: {shown}")
        self.errors = errors


def schema_path(game: str, kind: str) -> Path:
    """Where the schema of ``kind`` ("view" or "action") of the registered game ``game`` lies:
    ``schema/<kind>.json`` beside the module that defines its ruleset."""
    if kind not in KINDS:
        raise ValueError(f"a schema is one of {KINDS}, not {kind!r}")
    module = sys.modules[type(registry.get(game)).__module__]
    return Path(module.__file__).resolve().parent / "schema" / f"{kind}.json"


@lru_cache(maxsize=None)
def _schema(game: str, kind: str) -> dict:
    path = schema_path(game, kind)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SchemaMissing(f"{game} has no {kind} schema ({path.name})") from None
    return json.loads(text)


def view_schema(game: str) -> dict:
    """The JSON Schema of ``game``'s views (a copy: change it freely)."""
    return copy.deepcopy(_schema(game, "view"))


def action_schema(game: str) -> dict:
    """The JSON Schema of one of ``game``'s actions (a copy: change it freely)."""
    return copy.deepcopy(_schema(game, "action"))


@lru_cache(maxsize=None)
def validator(game: str, kind: str):
    """A checked, cached jsonschema validator of ``game``'s schema of ``kind``."""
    from jsonschema import Draft202012Validator  # only validation needs the package

    schema = _schema(game, kind)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@lru_cache(maxsize=None)
def fast_validator(game: str, kind: str):
    """A cached ``jsonschema_rs`` validator of the same schema, or None without that package."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    validator(game, kind)  # the schema is checked against the meta-schema either way
    return jsonschema_rs.Draft202012Validator(_schema(game, kind))


def is_valid(game: str, kind: str, message) -> bool:
    """Does ``message`` match the schema of ``kind`` (by the fastest validator at hand)?"""
    fast = fast_validator(game, kind)
    return (fast or validator(game, kind)).is_valid(message)


def errors(game: str, kind: str, message) -> list[str]:
    """Every reason the schema of ``kind`` refuses ``message`` (empty: it is valid)."""
    found = sorted(validator(game, kind).iter_errors(message), key=lambda e: list(e.absolute_path))
    return [f"{'.'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
            for error in found]


def validate(game: str, kind: str, message) -> None:
    """Raise SchemaMismatch unless ``message`` matches the schema of ``kind``."""
    if not is_valid(game, kind, message):  # the reasons are looked for only on a failure
        raise SchemaMismatch(game, kind, errors(game, kind, message) or ["refused by jsonschema_rs"])


def validate_view(game: str, view) -> None:
    """Raise SchemaMismatch unless ``view`` (any seat's or the public one) matches the schema."""
    validate(game, "view", view)


def validate_action(game: str, action) -> None:
    """Raise SchemaMismatch unless ``action`` matches the schema of ``game``'s actions."""
    validate(game, "action", action)
