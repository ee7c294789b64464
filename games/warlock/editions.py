"""Warlock as it stood at older versions, for the matches stored under them (Ruleset.edition).

Version 3 (issue 38) follows the rulebook where version 2 did not: a wizard a wandering
creature attacks may defend with the spell he laid (8.5), learners swap in the balance segment
too (3.3.1, D26), a wizard a creature banished stays in limbo until the balance (4.8.2, 8.5.6,
D27), an identical two-card spell reflects (5.2.2), identical physical spells meet by combat
value in a duel of two (4.6, D8). Each is an option of version 3 whose other value is version
2's rule (``V2_RULES``). Version 2 plays by the version 3 code with those options fixed and
gives its states version 2's shape: without the five options and without
``creature_banished``, so a version 2 log and its snapshots fold exactly as they were written.
A version 2 snapshot decodes with them put back (the options fixed, nobody banished by a
creature: version 2 never reads it).

Version 2 (issue 15.1, perfect recall for ``determinize``) added to the state what everyone
knows of the hidden cards: ``reshuffles``, ``shuffled_in``, ``book_bottom`` and ``known``
(knowledge.py). No rule changed: version 1 plays by the version 2 rules and gives its states
the version 1 shape, without those four keys. A version 1 snapshot decodes with that
bookkeeping empty (what was known then is not on record), which changes no move and no outcome.
"""
from __future__ import annotations

import dataclasses

from games.engine.protocol import option

from . import SPEC, Options, Warlock

# The version 3 options whose other value is the rule version 2 played by.
V2_RULES = {"laid_spell_ward": False, "learn_in_balance": False,
            "creature_limbo_until_balance": False, "identical_pairs_reflect": False,
            "meet_identical": "pass"}
V3_STATE = ("creature_banished",)  # state keys version 3 added
KNOWLEDGE = {"reshuffles": 0, "shuffled_in": {}, "book_bottom": None, "known": []}

# Version 2's options: version 3's less those it fixes (a version 2 match was made with these).
OptionsV2 = dataclasses.make_dataclass(
    "OptionsV2",
    [(f.name, f.type, option(f.default, f.metadata["help"], choices=f.metadata["choices"],
                             min=f.metadata["min"], max=f.metadata["max"]))
     for f in dataclasses.fields(Options) if f.name not in V2_RULES],
    frozen=True)
OptionsV2.__doc__ = "The options of version 2 (version 3's, less those fixed by V2_RULES)."


class WarlockV2(Warlock):
    """Version 2: the version 3 rules with ``V2_RULES`` fixed, in version 2's shape."""

    spec = dataclasses.replace(SPEC, version=2)
    Options = OptionsV2

    def setup(self, players: int, options=None) -> dict:
        """2: as version 3, with version 2's rules fixed among the options."""
        if not isinstance(options, OptionsV2):
            options = self.options(options)
        full = Options(**dataclasses.asdict(options), **V2_RULES)
        return super().setup(players, full)

    def encode(self, state: dict) -> dict:
        data = super().encode(state)
        for key in V2_RULES:
            data["options"].pop(key, None)
        for key in V3_STATE:
            data.pop(key, None)
        return data

    def decode(self, data: dict) -> dict:
        state = super().decode(data)
        state["options"].update(V2_RULES)
        state.setdefault("creature_banished", [False] * state["players"])
        return state


class WarlockV1(WarlockV2):
    """Version 1: the version 2 rules in version 1's shape."""

    spec = dataclasses.replace(SPEC, version=1)

    def encode(self, state: dict) -> dict:
        data = super().encode(state)
        for key in KNOWLEDGE:
            data.pop(key, None)
        return data

    def decode(self, data: dict) -> dict:
        state = super().decode(data)
        for key, empty in KNOWLEDGE.items():
            state.setdefault(key, _fresh(empty))
        return state


def _fresh(value):
    """A new empty container each time (a state's lists and dicts are its own)."""
    return type(value)() if isinstance(value, (list, dict)) else value


WARLOCK_V2 = WarlockV2()
WARLOCK_V1 = WarlockV1()
