"""Wizard Kings as it stood at an older version, for the matches stored under it
(Ruleset.edition).

Version 2 (issue 15.1, perfect recall for ``determinize``) records in each fight which block came
in through which hexside (``fights[hex]["crossed"]``): everyone sees a block cross, and the views
show it. No rule reads it: version 1 plays by the version 2 rules and gives its states the
version 1 shape, without ``crossed``, so a version 1 log and its snapshots fold exactly as they
were written. A version 1 snapshot resumes with ``crossed`` empty (who came where was not on
record), which changes no move and no outcome.
"""
from __future__ import annotations

import dataclasses

from . import SPEC, WizardKings


class WizardKingsV1(WizardKings):
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


WIZARD_KINGS_V1 = WizardKingsV1()
