"""The registry of rulesets by name. Each game module registers itself on its last line."""
from __future__ import annotations

import importlib

from .protocol import Ruleset

# Game packages shipped with the service, imported on first use of the registry.
BUILTIN_GAMES = ("games.imperial_twing", "games.sorcado", "games.trap_the_wizard", "games.warlock",
                 "games.wizard_kings")

_RULESETS: dict[str, Ruleset] = {}
_loaded = False


class UnknownRuleset(LookupError):
    pass


def register(ruleset: Ruleset) -> Ruleset:
    """Add ``ruleset`` under its spec name (re-registering the same name replaces it)."""
    _RULESETS[ruleset.spec.name] = ruleset
    return ruleset


def _load_builtin() -> None:
    global _loaded
    if not _loaded:
        for module in BUILTIN_GAMES:
            importlib.import_module(module)
        _loaded = True


def get(name: str, version: int | None = None) -> Ruleset:
    """The ruleset registered as ``name`` (at ``version``: the edition a stored match was played
    by, see ``Ruleset.edition``); UnknownRuleset lists the known names or says which version
    this service runs."""
    _load_builtin()
    try:
        ruleset = _RULESETS[name]
    except KeyError:
        raise UnknownRuleset(f"unknown game {name!r}; known games: {', '.join(names())}") from None
    if version is None or version == ruleset.spec.version:
        return ruleset
    older = ruleset.edition(version)
    if older is None:
        raise UnknownRuleset(f"{name} version {version!r} is not available (this service runs "
                             f"{ruleset.spec.version})")
    return older


def names() -> list[str]:
    _load_builtin()
    return sorted(_RULESETS)


def builtin() -> list[Ruleset]:
    """The rulesets the service ships (test-only games registered by tests are left out)."""
    _load_builtin()
    return [_RULESETS[n] for n in sorted(_RULESETS)
            if type(_RULESETS[n]).__module__.split(".")[0] == "games"]
