"""Trap the Wizard as it stood at an older version, for the matches stored under it
(Ruleset.edition).

Version 1 differed from version 2 only in §2.5: the roll after a six was compulsory, which the
option six="compulsory" of D20 keeps. The edition plays by the version 2 rules with that option
fixed and gives its states (and so its views) the version 1 shape, without the option and the
``again`` field, so a version 1 log, its snapshots and its replay views fold exactly as they
were written.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from games.engine.protocol import option

from . import SPEC, Options, TrapTheWizard


@dataclass(frozen=True)
class OptionsV1(Options):
    """Version 1's options: no ``six`` option, the roll after a six compulsory."""

    six: str = option("compulsory", "version 1: the roll after a six is compulsory",
                      choices=("compulsory",))


class TrapTheWizardV1(TrapTheWizard):
    """Version 1: the version 2 rules with six="compulsory", in version 1's shape."""

    spec = dataclasses.replace(SPEC, version=1)
    Options = OptionsV1

    def options_json(self, options) -> dict:
        data = dataclasses.asdict(options)
        del data["six"]
        return data

    def encode(self, state) -> dict:
        data = super().encode(state)
        del data["again"], data["options"]["six"]
        return data

    def decode(self, data: dict):
        return super().decode({**data, "again": False})


TRAP_THE_WIZARD_V1 = TrapTheWizardV1()
