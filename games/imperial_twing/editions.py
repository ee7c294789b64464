"""Imperial Twing as it stood at older versions, for the matches stored under them
(Ruleset.edition; see "Versions" in docs/rules/imperial-twing.md).

Version 2 differed from version 3 in five rules (issue 38): a duel's next fight began at once,
so a fighter whose only spell went into a fight drew none for the next (T.3, D9, D13); an
earthquake the Doll's holder drew still tied the fight (O.6, D22); one defender's Cup barred
the endgame attacker's riders and one defender's Socks its cats against every defender (O.9,
O.10, D18); and the turn limit scored 100 + 10 x objects + ornicles (D25). Version 3 states
name their version (``version``, read by ``table.rules_version``); a state without it plays
by version 2's rules, so a version 2 log and its snapshots fold exactly as they were written.
Version 2 had no ``socks`` option: its editions take the options it had (``OptionsV2``), so
the options a version 2 state carries are the ones it wrote.

Version 1 differed from version 2 only where D14 calls a fight off or a supporter forfeits: it
kept no ``revealed`` (the spells a called-off fight gives back to a hand, which every seat
saw; issue 15.1, perfect recall for determinize), and the card a forfeiting seat had supported
with left the game instead of going to the discard pile with its other cards. ``forfeit`` and
``apply`` read the edition's ``spec.version``; the state keeps one shape in versions 1 and 2
(``revealed`` is there only while it names a card).

The views of old states are version 3's of those states (``revealed`` empty in version 1, no
``held`` die in either).
"""
from __future__ import annotations

import dataclasses

from . import SPEC, ImperialTwing, Options

VERSION_3_OPTIONS = ("socks",)  # the options version 3 added


def _older_options(name: str, dropped: tuple[str, ...]) -> type:
    """``Options`` without the options added since (each keeps its default, help and range)."""
    return dataclasses.make_dataclass(
        name, [(f.name, f.type, dataclasses.field(default=f.default, metadata=f.metadata))
               for f in dataclasses.fields(Options) if f.name not in dropped],
        frozen=True, namespace={"__doc__": f"The options of {name[-2:]}: {Options.__doc__}"})


OptionsV2 = _older_options("OptionsV2", VERSION_3_OPTIONS)


class ImperialTwingV2(ImperialTwing):
    """Version 2: a duel's fights back to back, the Doll's earthquake ties, one Cup or Socks
    among the endgame defenders bars riders or cats against all, 10 an object at the bound."""

    spec = dataclasses.replace(SPEC, version=2)
    Options = OptionsV2


class ImperialTwingV1(ImperialTwingV2):
    """Version 1: version 2 with no ``revealed`` and a forfeiting supporter's card lost (D14)."""

    spec = dataclasses.replace(SPEC, version=1)


IMPERIAL_TWING_V2 = ImperialTwingV2()
IMPERIAL_TWING_V1 = ImperialTwingV1()
