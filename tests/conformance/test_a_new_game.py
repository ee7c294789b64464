"""Issue 38, "A sixth game should need only its own files": a new game is its package, its
schemas, its rules page and one registry line. Nim (toy_nim/, test-only) is such a game, on
games.engine.dict_ruleset.DictRuleset; conftest.TEST_GAMES is its registry line, and every
generic test of the suite (conformance, determinize, schemas and rules page) plays it, because
each of their lists comes from the registry and the test games, none from a list of names."""
from pathlib import Path

from games.engine import registry
from games.engine.dict_ruleset import DictRuleset
from games.engine.protocol import Ruleset

from . import test_determinize, test_schemas
from .conftest import CASES, GAME_NAMES, TEST_GAMES
from .toy_nim import NIM, Nim

TOY = Path(__file__).resolve().parent / "toy_nim"
SHELL = ("setup", "next", "check", "apply", "apply_in_place", "view", "encode", "decode")


def test_a_new_game_is_its_package_its_schemas_and_its_rules_page():
    files = {str(p.relative_to(TOY)) for p in TOY.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert files == {"__init__.py", "schema/view.json", "schema/action.json", "rules.md"}
    assert isinstance(NIM, DictRuleset)
    written = sorted(method for method in SHELL if method in vars(Nim))
    assert not written, f"the toy writes the shell's {written} itself: DictRuleset should"
    assert all(getattr(Nim, method) is not getattr(Ruleset, method) for method in SHELL)


def test_the_new_game_is_registered_while_a_conformance_test_runs_and_never_shipped():
    assert TEST_GAMES["test-nim"] is NIM  # its one registry line
    assert registry.get("test-nim") is NIM  # registered by conftest.test_games_registered
    assert "test-nim" not in {r.spec.name for r in registry.builtin()}


def test_every_generic_test_plays_the_new_game():
    """Each parametrized test of the suite has a test-nim case (the ``ruleset`` and ``case``
    fixtures of conftest run over GAME_NAMES and CASES): its lists are drawn from the registry
    (conftest.BUILTIN) and the test games."""
    assert "test-nim" in GAME_NAMES and "test-nim" in CASES
    assert "test-nim" in test_determinize.DETERMINIZING
    assert "test-nim" in test_schemas.GAMES and "test-nim" in test_schemas.SCHEMA_CASES
    assert test_schemas.action_types("test-nim") == {"take"}  # a schema that is no oneOf
