"""Imperial Twing as it stood at an older version, for the matches stored under it
(Ruleset.edition).

Version 1 differed from version 2 only where D14 calls a fight off or a supporter forfeits (see
"Versions" in docs/rules/imperial-twing.md): it kept no ``revealed`` (the spells a called-off
fight gives back to a hand, which every seat saw; issue 15.1, perfect recall for determinize),
and the card a forfeiting seat had supported with left the game instead of going to the discard
pile with its other cards. ``forfeit`` and ``apply`` read the edition's ``spec.version``; the
state keeps one shape in both versions (``revealed`` is there only while it names a card), so
a version 1 log and its snapshots fold exactly as they were written. Its views are version 2's
of those states (``revealed`` empty).
"""
from __future__ import annotations

import dataclasses

from . import SPEC, ImperialTwing


class ImperialTwingV1(ImperialTwing):
    """Version 1: no ``revealed``; a forfeiting supporter's card is lost (D14)."""

    spec = dataclasses.replace(SPEC, version=1)


IMPERIAL_TWING_V1 = ImperialTwingV1()
