"""Warlock as it stood at an older version, for the matches stored under it (Ruleset.edition).

Version 2 (issue 15.1, perfect recall for ``determinize``) added to the state what everyone
knows of the hidden cards: ``reshuffles``, ``shuffled_in``, ``book_bottom`` and ``known``
(knowledge.py). No rule changed: version 1 plays by the version 2 rules and gives its states
the version 1 shape, without those four keys, so a version 1 log and its snapshots fold exactly
as they were written. A version 1 snapshot decodes with that bookkeeping empty (what was known
then is not on record), which changes no move and no outcome.
"""
from __future__ import annotations

import dataclasses

from . import SPEC, Warlock

KNOWLEDGE = {"reshuffles": 0, "shuffled_in": {}, "book_bottom": None, "known": []}


class WarlockV1(Warlock):
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


WARLOCK_V1 = WarlockV1()
