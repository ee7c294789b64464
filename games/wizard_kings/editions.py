"""Wizard Kings as it stood at an older version, for the matches stored under it
(Ruleset.edition).

Version 4 (issue 38) lays two players' east map turned half round (option ``east_map``, D1):
as printed, the west seat won 57 % of the game to the victory. Versions 1-3 laid both maps as
printed. Their editions' ``Options`` default ``east_map`` to ``printed`` (a stored match's
match_created names the options of its version, which had no ``east_map``), and their
``encode`` leaves the option out of the state's ``options`` and ``decode`` puts it back, so
their logs and snapshots fold exactly as they were written.

Version 3 (issue 38) also made 1.23's two-player game the default: no turn limit but a safety
bound of 40 turns (``turn_limit`` 0, D12); version 2's default was 10 turns for every game. A
stored match names its ``turn_limit`` (match_created holds every option), so its log folds as
written whatever the default; ``OptionsV2`` shows version 2's default.

Version 3 (issue 38) changed two rules: a mountain pass is a mountain hex for 2.32's natives
(D6), so they fight one better there; and in a combat turn only wizards, treasure, a block in the
pursuit round and a block with nothing else to do may ``pass`` (2.22, D60). Version 2 gave a pass
no natives and let every block pass in every round. Its edition marks its states with
``edition: 2``, which ``state.rules_version`` reads where the two rules differ
(``state.home_terrain``, ``battle._may_pass``); ``encode`` leaves the mark out and ``decode``
puts it back, so a version 2 log and its snapshots fold exactly as they were written. A view
carries no mark, so a search bot's states drawn from it (``determinize``) play by version 3:
their moves are legal in version 2 too (version 3 only takes ``pass`` away where it differs).

Version 2 (issue 15.1, perfect recall for ``determinize``) records in each fight which block came
in through which hexside (``fights[hex]["crossed"]``): everyone sees a block cross, and the views
show it. No rule reads it: version 1 plays by the version 2 rules and gives its states the
version 1 shape, without ``crossed``, so a version 1 log and its snapshots fold exactly as they
were written. A version 1 snapshot resumes with ``crossed`` empty (who came where was not on
record), which changes no move and no outcome.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from games.engine.protocol import option

from . import SPEC, Options, WizardKings


@dataclass(frozen=True)
class OptionsV3(Options):
    """Version 3's options: both maps as printed (version 4 turns two players' east map, D1)."""

    east_map: str = option("printed", "1.21 (D1): how two players' east map is laid (versions "
                           "1-3: as printed)", choices=("turned", "printed"))


class WizardKingsV3(WizardKings):
    """Version 3: the rules of version 4, both maps laid as printed."""

    spec = dataclasses.replace(SPEC, version=3)
    Options = OptionsV3

    def encode(self, state: dict) -> dict:
        data = super().encode(state)
        if isinstance(data.get("options"), dict):
            data["options"].pop("east_map", None)
        return data

    def decode(self, data: dict) -> dict:
        state = super().decode(data)
        if isinstance(state.get("options"), dict):
            state["options"].setdefault("east_map", "printed")
        return state


@dataclass(frozen=True)
class OptionsV2(OptionsV3):
    """Version 2's options: every game ended after 10 turns, two players too (version 3's
    default 0 plays 1.23's two-player game to the victory gold, D12). A stored match names its
    ``turn_limit`` anyway (every option is written into match_created), so the default only
    shows what version 2 played."""

    turn_limit: int = option(10, "1.23 (D12): the last turn; then the gold of the cities each "
                             "army holds decides (version 2: 10 for every game)", min=0, max=40)


class WizardKingsV2(WizardKingsV3):
    """Version 2: a pass has no natives, every block may pass in battle, and every game ends
    after 10 turns by default."""

    spec = dataclasses.replace(SPEC, version=2)
    Options = OptionsV2
    RULES = 2           # state["edition"]: the rules its states play by (state.rules_version)

    def setup(self, players: int, options=None) -> dict:
        state = super().setup(players, options)
        state["edition"] = self.RULES
        return state

    def encode(self, state: dict) -> dict:
        data = super().encode(state)
        data.pop("edition", None)
        return data

    def decode(self, data: dict) -> dict:
        state = super().decode(data)
        state["edition"] = self.RULES
        return state


class WizardKingsV1(WizardKingsV2):
    """Version 1: the version 2 rules in version 1's shape."""

    spec = dataclasses.replace(SPEC, version=1)

    def encode(self, state: dict) -> dict:
        data = super().encode(state)
        for fight in (data.get("fights") or {}).values():
            if isinstance(fight, dict):
                fight.pop("crossed", None)
        return data

    def decode(self, data: dict) -> dict:
        state = super().decode(data)
        for fight in (state.get("fights") or {}).values():
            if isinstance(fight, dict):
                fight.setdefault("crossed", {})
        return state


WIZARD_KINGS_V3 = WizardKingsV3()
WIZARD_KINGS_V2 = WizardKingsV2()
WIZARD_KINGS_V1 = WizardKingsV1()
