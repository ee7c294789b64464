"""Imperial Twing's cards, objects, events and the Orn die as data (docs/rules/imperial-twing.md,
"Content").

The rulebook (shared/rulebooks/imperial-twing.de.md) names the card types, the nine magic objects
with their powers and the die, but prints no card values and no event texts: every number and
text here is a design decision (D20-D26) recorded with its reason in the rules doc.

Card ids carry what a card is, so a bot reads a card from its id alone:
``SP-<element>-<power><copy>`` a spell, ``CR-<element>-<power>-<name>`` a creature,
``MT-<element>-<power>-<name>`` a mount, ``CAT-<n>`` and ``CAT-miromon`` cats, ``TRAP-<n>`` traps,
``OBJ-<name>`` objects, ``EV-<name>`` events. Every id is distinct, so a leak of a hidden card
is a plain text search (tests/conformance).
"""
from __future__ import annotations

from dataclasses import dataclass

# -- the four elements and their characters ("Charaktere: Werde eine Legende") -----------------
ELEMENTS = ("fire", "water", "life", "air")
CHARACTERS = {
    "water": "Die Hexe des plätschernden Bächleins",
    "fire": "Der Magier des zündelnden Streichholzes",
    "life": "Die Zauberin des malerischen Blumentopfs",
    "air": "Der Hexer der lauen See Brise",
}

# -- the Orn die ("Die Orn-Würfel"): a 12-sided die, -4..+4 and three symbols --------------------
SUN, CROSS, SPIRAL = "sun", "cross", "spiral"
DIE_FACES = (-4, -3, -2, -1, 0, 1, 2, 3, 4, SUN, CROSS, SPIRAL)  # outcome k (1..12) is face k-1
DIE_SIDES = len(DIE_FACES)


def die_face(outcome: int):
    """The face a chance outcome 1..12 shows."""
    return DIE_FACES[outcome - 1]


def die_rank(face) -> int:
    """The start roll's order (D3): sun above +4, cross below -4, the spiral counts 0."""
    if face == SUN:
        return 5
    if face == CROSS:
        return -5
    return 0 if face == SPIRAL else face


def inverted(face):
    """Miromon: a critical failure becomes a critical success and back, -4 becomes 4, an event
    becomes 0 (no event)."""
    if face == SUN:
        return CROSS
    if face == CROSS:
        return SUN
    return 0 if face == SPIRAL else -face


# -- play cards (blue backs): 106 cards (D20) ------------------------------------------------------
# Per element: 14 spells whose powers 1,1,1,2,2,2,3,3,3,4,4,5,5,6 sum to 42, five creatures
# (1, 2, 3, 3, 4) and two mounts (Wolpertinger 2, Kriegsross 4). The elements are mirror images,
# so no character is stronger on paper; the four characters differ only in their colour.
SPELL_POWERS = (1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6)
CREATURE_NAMES = {
    "fire": ("salamander", "glutkobold", "phoenix", "lavahund", "feuerdrache"),
    "water": ("wassergeist", "nixe", "krake", "seeschlange", "leviathan"),
    "life": ("pilzling", "dryade", "waldschrat", "einhorn", "baumriese"),
    "air": ("windgeist", "harpyie", "greif", "sturmfalke", "donnervogel"),
}
CREATURE_POWERS = (1, 2, 3, 3, 4)
MOUNTS = (("wolpertinger", 2), ("kriegsross", 4))  # "Reittiere (M): Wolpertinger und Kriegsross"
CATS = 12        # eleven cats and Miromon, the white cat (D21)
TRAPS = 10       # D21
MIROMON = "CAT-miromon"


@dataclass(frozen=True)
class Card:
    """A play card: kind is spell, creature, mount, cat or trap; element and power for the
    first three (cats and traps have neither)."""

    id: str
    kind: str
    element: str | None = None
    power: int = 0


def _play_cards() -> tuple[Card, ...]:
    cards = []
    for element in ELEMENTS:
        seen: dict[int, int] = {}
        for power in SPELL_POWERS:
            seen[power] = seen.get(power, 0) + 1
            cards.append(Card(f"SP-{element}-{power}{'abc'[seen[power] - 1]}", "spell", element, power))
        for name, power in zip(CREATURE_NAMES[element], CREATURE_POWERS):
            cards.append(Card(f"CR-{element}-{power}-{name}", "creature", element, power))
        for name, power in MOUNTS:
            cards.append(Card(f"MT-{element}-{power}-{name}", "mount", element, power))
    cards += [Card(f"CAT-{n}", "cat") for n in range(1, CATS)] + [Card(MIROMON, "cat", "air")]
    cards += [Card(f"TRAP-{n}", "trap") for n in range(1, TRAPS + 1)]
    return tuple(cards)


PLAY_CARDS = _play_cards()
CARD = {card.id: card for card in PLAY_CARDS}
PLAY_IDS = tuple(card.id for card in PLAY_CARDS)


# What the rules ask of a card thousands of times a match, looked up once per card id.
IS_SPELL = {card.id: card.kind == "spell" for card in PLAY_CARDS}
ELEMENT = {card.id: card.element for card in PLAY_CARDS}
POWER = {card.id: card.power for card in PLAY_CARDS}
IS_CAT = {card.id: card.kind == "cat" for card in PLAY_CARDS}
IS_TRAP = {card.id: card.kind == "trap" for card in PLAY_CARDS}
IS_CREATURE = {card.id: card.kind in ("creature", "mount") for card in PLAY_CARDS}  # retinue
# The same as sets, so that "does this hand hold a spell (a cat, a trap)?" is one C call
# (``SPELLS.isdisjoint(hand)``): the fold asks it of every hand at almost every step.
SPELLS = frozenset(card.id for card in PLAY_CARDS if card.kind == "spell")
CATS_SET = frozenset(card.id for card in PLAY_CARDS if card.kind == "cat")
TRAPS_SET = frozenset(card.id for card in PLAY_CARDS if card.kind == "trap")
# The spells of each element: "does this hand hold a spell of the side's colour?" (F.3) is one
# C call too (``SPELLS_OF[colour].isdisjoint(hand)``).
SPELLS_OF = {element: frozenset(card.id for card in PLAY_CARDS
                                if card.kind == "spell" and card.element == element)
             for element in {card.element for card in PLAY_CARDS}}


def is_spell(card_id: str) -> bool:
    return IS_SPELL[card_id]


def is_creature(card_id: str) -> bool:
    """Creatures and mounts: both join the retinue ("Gefolge")."""
    return CARD[card_id].kind in ("creature", "mount")


# -- magic objects (green backs): the nine of "Die Kräfte der magischen Gegenstände" -------------
TEDDY, PANTS, HAT, CLOVER, DOLL = "OBJ-teddy", "OBJ-pants", "OBJ-hat", "OBJ-clover", "OBJ-doll"
BOOTS, BRA, SOCKS, CUP = "OBJ-boots", "OBJ-bra", "OBJ-socks", "OBJ-cup"
OBJECTS = {
    TEDDY: "Teddy der Qualen: one extra creature of any colour in your attack or defence",
    PANTS: "Höschen des Schutzes: your critical failure counts as 0",
    HAT: "Hut der Möglichkeiten: when you defend against an attack, you may re-roll once",
    CLOVER: "Riesiges rotes Kleeblatt: when you attack, you may re-roll once",
    DOLL: "Puppe der Klarheit: events you draw do not affect you",
    BOOTS: "Stiefel der Sicherheit: your opponents cannot use traps against you",
    BRA: "BH des Schicksals: your opponents' critical successes count as 0 against you",
    SOCKS: "Socken der Gewissheit: your opponents cannot use cats against you",
    CUP: "Tasse der Lahmheit: your opponents cannot use mounted creatures against you",
}
OBJECT_IDS = tuple(OBJECTS)


# -- events (red backs): 16 cards (D22) ------------------------------------------------------------
@dataclass(frozen=True)
class EventCard:
    """An event: ``scope`` self (the seat that drew it), all (every seat in play) or others
    (every other seat in play, or every other side of the fight for fight effects); ``effect``
    ornicles, bonus (to the side's total in this fight), draw, object (the top of the object
    deck), flee (the strongest unit of the side returns to the retinue), steal (an ornicle from
    each opponent in the fight) or quake (the fight ends in a tie)."""

    id: str
    name: str
    text: str
    scope: str
    effect: str
    amount: int = 0


EVENTS = (
    EventCard("EV-blessing", "Segen des Orn", "You gain 1 ornicle.", "self", "ornicles", 1),
    EventCard("EV-rain", "Kristallregen", "Every player gains 1 ornicle.", "all", "ornicles", 1),
    EventCard("EV-leak", "Ornleck", "You lose 1 ornicle.", "self", "ornicles", -1),
    EventCard("EV-tax", "Kaiserliche Steuer", "Every player loses 1 ornicle.", "all", "ornicles", -1),
    EventCard("EV-tailwind", "Rückenwind", "+2 to your total in this fight.", "self", "bonus", 2),
    EventCard("EV-headwind", "Gegenwind", "-2 to your total in this fight.", "self", "bonus", -2),
    EventCard("EV-surge", "Ornwoge", "+3 to your total in this fight.", "self", "bonus", 3),
    EventCard("EV-fizzle", "Verpuffung", "-3 to your total in this fight.", "self", "bonus", -3),
    EventCard("EV-storm", "Ornsturm", "-2 to every other side's total in this fight.", "others",
              "bonus", -2),
    EventCard("EV-find", "Fundstück", "Take the top magic object of its deck.", "self", "object", 1),
    EventCard("EV-inspiration", "Eingebung", "Draw 2 play cards.", "self", "draw", 2),
    EventCard("EV-library", "Offene Bibliothek", "Every player draws 1 play card.", "all", "draw", 1),
    EventCard("EV-oracle", "Orakel", "Draw 1 play card.", "self", "draw", 1),
    EventCard("EV-flight", "Kreaturenflucht",
              "Your strongest creature in this fight flees back to your retinue.", "self", "flee"),
    EventCard("EV-magpie", "Diebische Elster", "Take 1 ornicle from each opponent in this fight.",
              "self", "steal", 1),
    EventCard("EV-quake", "Erdbeben", "The fight ends in a tie.", "all", "quake"),
)
EVENT = {event.id: event for event in EVENTS}
EVENT_IDS = tuple(event.id for event in EVENTS)

ORNICLES = 30  # "30 Orn-Kristalle"
