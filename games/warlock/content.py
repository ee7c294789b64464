"""Warlock content as data: the six wizard cards, the 128-card spell book and both combat tables.

The rulebook (shared/rulebooks/warlock.de.md) prints none of these values; they are designed in
docs/rules/warlock.md ("Content") to agree with every example the text gives:

- 4.6: Crows (black caster) and Dwarves (white caster) both have combat value 5, so in a duel of
  two each repels the other and they cancel; a Black Knight cast by a black wizard is worth 4, a
  Magic Sword wielded by Quorm (white, 3 combat points) is worth 4 + 3 = 7.
- 5.2.1: Invisibility appears in the "Magischer Kampf" rows of exactly Cannon, Darkness,
  Invisibility, Petrify and Vacuum.
- 5.2.3: Siren Song appears in the "Physischer Kampf" rows of exactly Black Knight, Dwarves,
  Giant, Hero, Super-Hero and White Knight, and in the Magic Bow row: a wielder carrying a bow
  is fought in the bow's row (8.1.2), so "with and without bow" holds for every wielder.
- 5.2.5: a Cannon may answer a Cannon (identical spell, 5.2.2); Vacuum and Invisibility repel it.
- 8.3.3: the Witch repels the Thunderclap.
- Intro: Wings dodge a cannonball, a Shield throws back a Siren Song, Invisibility saves from
  Petrify.

Card ids are ``WL-<key>-<copy>`` (``WL-crows-3``): distinct, and never part of another id or of
any other text a view shows, so a leak is a text search.
"""
from __future__ import annotations

from dataclasses import dataclass

MAGIC, PHYSICAL = "magic", "physical"
WHITE, BLACK = "white", "black"


@dataclass(frozen=True)
class Wizard:
    """A wizard card (2): colour and combat points (KP), used when he wields a weapon (8.1.1)."""

    key: str
    colour: str
    points: int


# Two of each colour share the values 2-4; Quorm's 3 is fixed by example 4.6. The colours have
# equal totals (9 each), so drawing a colour is no advantage in itself.
WIZARDS = (Wizard("quorm", WHITE, 3), Wizard("morcus", WHITE, 2), Wizard("anvar", WHITE, 4),
           Wizard("thulsa", BLACK, 3), Wizard("mephisto", BLACK, 4), Wizard("stileppo", BLACK, 2))
WIZARD = {w.key: w for w in WIZARDS}


@dataclass(frozen=True)
class Spell:
    """One kind of spell card.

    ``attack``: may be cast as an attack on its own (red symbol, 5.1); ``white``/``black``: its
    combat value when cast by a wizard of that colour (physical cards only, None = no value,
    5.3); ``number``: what a cut of the spell book reads (8.5: 10 or more sets a creature
    wandering); ``role``: "weapon" (8.1), "wielder" (8.2), "witch" (8.3), "priest" (8.4),
    "staff" (8.4.1), "wanderer" (8.5) or "".
    """

    key: str
    german: str
    count: int
    realm: str
    attack: bool
    cost: int
    white: int | None = None
    black: int | None = None
    number: int = 1
    role: str = ""

    def value(self, colour: str) -> int | None:
        """Combat value when cast by a wizard of ``colour`` (5.2.4)."""
        return self.white if colour == WHITE else self.black


# Costs rise with what a spell can do: pure defences 3-6, attacks 5-9, the Dragon 11. Values
# lean by colour (White Knight, Golden Sword for white; Black Knight, Black Sword for black).
# Cut numbers: 39 of the 128 cards read 10 or more (about 30 %): a creature wanders now and
# then, and a wizard on its way is attacked about one time in three.
SPELLS = (
    # -- magic (star) --------------------------------------------------------------------------
    Spell("lightning", "Blitz", 6, MAGIC, True, 8, number=12),
    Spell("thunderclap", "Donnerschlag", 6, MAGIC, True, 6, number=11),
    Spell("cannon", "Kanone", 6, MAGIC, True, 7, number=9),
    Spell("darkness", "Dunkelheit", 6, MAGIC, True, 5, number=4),
    Spell("invisibility", "Unsichtbarkeit", 6, MAGIC, True, 5, number=5),
    Spell("petrify", "Versteinern", 4, MAGIC, True, 9, number=13),
    Spell("vacuum", "Luftleere", 5, MAGIC, True, 6, number=6),
    Spell("wings", "Flügel", 5, MAGIC, False, 3, number=2),
    Spell("shield", "Schild", 6, MAGIC, False, 4, number=3),
    Spell("mirror", "Zauberspiegel", 4, MAGIC, False, 6, number=8),
    Spell("witch", "Hexe", 4, MAGIC, False, 6, number=14, role="witch"),
    Spell("priest", "Priester", 3, MAGIC, False, 5, number=10, role="priest"),
    Spell("holy-staff", "Heiliger Stab", 3, MAGIC, False, 4, number=7, role="staff"),
    # -- physical (circle) ----------------------------------------------------------------------
    Spell("crows", "Krähen", 5, PHYSICAL, True, 5, white=4, black=5, number=5),
    Spell("dwarves", "Zwerge", 5, PHYSICAL, True, 5, white=5, black=4, number=6),
    Spell("goblins", "Goblins", 4, PHYSICAL, True, 4, white=3, black=4, number=3, role="wanderer"),
    Spell("trolls", "Trolle", 3, PHYSICAL, True, 6, white=5, black=6, number=7, role="wanderer"),
    Spell("giant", "Riese", 3, PHYSICAL, True, 8, white=7, black=7, number=10, role="wanderer"),
    Spell("dragon", "Drache", 2, PHYSICAL, True, 11, white=9, black=9, number=14, role="wanderer"),
    Spell("black-knight", "Schwarzer Ritter", 4, PHYSICAL, True, 5, white=3, black=4, number=8,
          role="wielder"),
    Spell("white-knight", "Weißer Ritter", 4, PHYSICAL, True, 5, white=4, black=3, number=8,
          role="wielder"),
    Spell("hero", "Held", 4, PHYSICAL, True, 4, white=4, black=3, number=4, role="wielder"),
    Spell("super-hero", "Super-Held", 2, PHYSICAL, True, 7, white=6, black=5, number=12,
          role="wielder"),
    Spell("anti-hero", "Anti-Held", 3, PHYSICAL, True, 4, number=9),
    Spell("siren-song", "Sirengesang", 4, PHYSICAL, True, 4, number=2),
    Spell("swordsman", "Schwertkämpfer", 3, PHYSICAL, True, 6, white=5, black=5, number=6),
    # weapons (8.1): an attack only as an armed wizard or in a wielder's hand
    Spell("magic-spear", "Magischer Speer", 3, PHYSICAL, True, 3, white=2, black=3, number=1,
          role="weapon"),
    Spell("golden-sword", "Goldenes Schwert", 3, PHYSICAL, True, 4, white=4, black=2, number=11,
          role="weapon"),
    Spell("black-sword", "Schwarzes Schwert", 3, PHYSICAL, True, 4, white=2, black=4, number=11,
          role="weapon"),
    Spell("magic-trident", "Magischer Dreizack", 3, PHYSICAL, True, 4, white=3, black=3, number=1,
          role="weapon"),
    Spell("magic-sword", "Magisches Schwert (Zauberschwert)", 3, PHYSICAL, True, 4, white=4,
          black=3, number=2, role="weapon"),
    Spell("magic-bow", "Magischer Bogen", 3, PHYSICAL, True, 3, white=3, black=3, number=13,
          role="weapon"),
)
SPELL = {s.key: s for s in SPELLS}

# The spell book: every copy its own id, in the order of SPELLS (a shuffle permutes this list).
CARD_IDS = tuple(f"WL-{s.key}-{i + 1}" for s in SPELLS for i in range(s.count))
HAND_SIZE = 7


def kind(card: str) -> Spell:
    """The spell of a card id (``WL-black-knight-2`` -> Black Knight): looked up once a card
    (combat asks it hundreds of times an event), read from the id for any other text."""
    found = _KIND.get(card)
    return found if found is not None else SPELL[card[3:card.rindex("-")]]


_KIND = {card: SPELL[card[3:card.rindex("-")]] for card in CARD_IDS}


# -- the tables (5.2.1, 5.2.3): attack row -> {defending spell: result code (5.7)} ---------------
# Codes: A repelled; AW / AS repelled if the defender is white / black; A* / A† repelled if the
# attack was cast by a white / black wizard; R reflected, the reflector names a new victim;
# R† both spells back to their casters. Every magic attack has at least three defences and one
# reflection, so a hand of seven usually holds an answer; the conditional codes make the colour
# of a wizard matter beyond combat values.
MAGIC_TABLE = {
    "lightning": {"shield": "A", "mirror": "R", "wings": "AW", "darkness": "AS"},
    "thunderclap": {"witch": "A", "shield": "A", "mirror": "R", "wings": "A*"},
    "cannon": {"invisibility": "A", "vacuum": "A", "wings": "A", "shield": "A†", "mirror": "R"},
    "darkness": {"invisibility": "A", "witch": "A", "mirror": "R", "wings": "AW"},
    "invisibility": {"invisibility": "R†", "darkness": "A", "witch": "AS", "mirror": "R"},
    "petrify": {"invisibility": "A", "mirror": "R", "witch": "AW", "shield": "AS"},
    "vacuum": {"invisibility": "A", "wings": "A", "witch": "A", "mirror": "R"},
    # the Priest with his Holy Staff (8.4) is fought in the Priest's row
    "priest": {"mirror": "R", "darkness": "A", "witch": "AS", "shield": "A*"},
}
PHYSICAL_TABLE = {
    "siren-song": {"shield": "R", "crows": "A", "wings": "A"},  # intro: it bounces off a shield
    "anti-hero": {"hero": "A", "super-hero": "A", "white-knight": "AW", "black-knight": "AS"},
    "black-knight": {"siren-song": "A", "shield": "A†"},
    "white-knight": {"siren-song": "A", "shield": "A*"},
    "hero": {"siren-song": "A", "anti-hero": "A"},
    "super-hero": {"siren-song": "A", "anti-hero": "R"},
    "dwarves": {"siren-song": "A", "darkness": "A"},
    "crows": {"wings": "A", "darkness": "AS"},
    "goblins": {"anti-hero": "A", "crows": "AW"},
    "trolls": {"anti-hero": "A†", "mirror": "R", "white-knight": "AW"},
    "giant": {"siren-song": "A", "mirror": "R", "anti-hero": "R†"},
    "dragon": {"mirror": "R", "super-hero": "A", "wings": "AS"},
    "swordsman": {"shield": "A", "crows": "A†"},
    "magic-bow": {"siren-song": "A", "shield": "A"},  # 8.1.2: a wielder with a bow
}
TABLES = {MAGIC: MAGIC_TABLE, PHYSICAL: PHYSICAL_TABLE}

assert len(CARD_IDS) == 128, len(CARD_IDS)
assert len(set(CARD_IDS)) == len(CARD_IDS)
