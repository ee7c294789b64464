"""Sorcado's cards and table geometry as data (docs/rules/sorcado.md, "Content").

The rulebook (shared/rulebooks/sorcado.de.md, "Inhalt") counts the cards but prints no values:
every number here is a design decision (D20-D24) recorded with its reason in the rules doc.
Card ids are distinct strings no other text in a view can contain (``DEM-6a``, ``MON-lich``,
``SPL-divination``), so a leak of a hidden card is a plain text search (tests/conformance, D24).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

# -- factions and mage cards (V.3, D20) ---------------------------------------------------------
FACTIONS = ("demonologist", "necromancer", "techno-mage", "elementalist")
CODES = {"demonologist": "DEM", "necromancer": "NEC", "techno-mage": "TEC", "elementalist": "ELE"}

# Eight power values per faction. Version 2 (D20): every faction holds the same eight values,
# summing to 24. Version 1 gave the factions different spreads of the same total, and the top
# cards won the contested lines: the Demonologist's two 6s beat the Techno-Mage's 4s (issue 14's
# self-play: 52.5 % against 3.1 % of the wins at four players). The factions now differ only in
# the monsters that favour them (D22). Zeros are bluffs: a face-down card is a card.
POWERS = dict.fromkeys(FACTIONS, (0, 1, 2, 3, 3, 4, 5, 6))
POWERS_V1 = {
    "demonologist": (0, 1, 1, 2, 3, 5, 6, 6),  # all or nothing
    "necromancer": (1, 2, 2, 3, 3, 4, 4, 5),   # a steady host
    "techno-mage": (2, 2, 3, 3, 3, 3, 4, 4),   # engineered evenness
    "elementalist": (0, 1, 2, 3, 3, 4, 5, 6),  # one of everything
}


def _mage_ids(faction: str, powers: dict) -> tuple[str, ...]:
    """``DEM-6a``, ``DEM-6b``: faction code, power, a letter per copy of that power. An id names
    its power, so an id means the same card in every version."""
    ids, copies = [], {}
    for power in powers[faction]:
        copies[power] = copies.get(power, 0) + 1
        ids.append(f"{CODES[faction]}-{power}{'abcdefgh'[copies[power] - 1]}")
    return tuple(ids)


MAGE_CARDS = {faction: _mage_ids(faction, POWERS) for faction in FACTIONS}
MAGE_CARDS_V1 = {faction: _mage_ids(faction, POWERS_V1) for faction in FACTIONS}
MAGE_POWER = {card: int(card.split("-")[1][:-1])
              for cards in (MAGE_CARDS, MAGE_CARDS_V1) for f in FACTIONS for card in cards[f]}
MAGE_FACTION = {card: f for cards in (MAGE_CARDS, MAGE_CARDS_V1) for f in FACTIONS
                for card in cards[f]}
HAND_SIZE = 8
BAN_CARDS = {faction: f"BAN-{CODES[faction]}" for faction in FACTIONS}  # played face up (B.1)


# -- monsters and spells (M.1-M.4, E.1, D21-D23) -----------------------------------------------
ROW_ONLY = "row_only"           # only the monster's row counts (its column is ignored)
COLUMN_ONLY = "column_only"     # only its column counts
LOWEST_WINS = "lowest_wins"     # the lowest positive total captures it, ties discard
BANNER_WINS = "banner_wins"     # a ban token on it gives it to the token's owner
TWO_CARDS = "needs_two_cards"   # the winner needs two or more mage cards in its lines
SPECIALS = (ROW_ONLY, COLUMN_ONLY, LOWEST_WINS, BANNER_WINS, TWO_CARDS)


@dataclass(frozen=True)
class Monster:
    """A monster card: strength (M.3), winning margin (M.1), faction modifiers (M.2), special
    condition (M.4). A margin of 1 is the plain rule W.2: strictly more than the next player."""

    id: str
    name: str
    strength: int
    margin: int = 1
    modifiers: dict = field(default_factory=dict)
    special: str | None = None


# Strengths 1-6 (59 in all), margins 2-3 on the strong ones (D21). Version 2's faction
# modifiers (D22) are one pattern turned round the four factions: the 4-cycle Demonologist ->
# Necromancer -> Techno-Mage -> Elementalist -> Demonologist maps the monster list onto itself
# (Imp -> Skeleton -> Clockwork Spider -> Salamander; Banshee <-> Gargoyle; Archfiend -> Lich ->
# Iron Colossus -> Storm Titan), so no faction is favoured by the content: each has one +2 at
# strength 2, +1 and -1 at strength 3, and +2 and -2 at strength 6.
MONSTERS = (
    Monster("MON-kobold", "Kobold", 1, special=LOWEST_WINS),
    Monster("MON-imp", "Imp", 2, modifiers={"demonologist": 2}),
    Monster("MON-skeleton", "Skeleton", 2, modifiers={"necromancer": 2}),
    Monster("MON-clockwork-spider", "Clockwork Spider", 2, modifiers={"techno-mage": 2}),
    Monster("MON-salamander", "Salamander", 2, modifiers={"elementalist": 2}),
    Monster("MON-troll", "Troll", 3, margin=2),
    Monster("MON-banshee", "Banshee", 3, modifiers={"demonologist": 1, "techno-mage": 1,
                                                    "necromancer": -1, "elementalist": -1}),
    Monster("MON-gargoyle", "Gargoyle", 3, modifiers={"necromancer": 1, "elementalist": 1,
                                                      "demonologist": -1, "techno-mage": -1}),
    Monster("MON-sea-serpent", "Sea Serpent", 4, special=ROW_ONLY),
    Monster("MON-wyvern", "Wyvern", 4, special=COLUMN_ONLY),
    Monster("MON-basilisk", "Basilisk", 4, special=BANNER_WINS),
    Monster("MON-hydra", "Hydra", 5, special=TWO_CARDS),
    Monster("MON-lich", "Lich", 6, margin=3, modifiers={"necromancer": 2, "techno-mage": -2}),
    Monster("MON-iron-colossus", "Iron Colossus", 6, margin=3,
            modifiers={"techno-mage": 2, "elementalist": -2}),
    Monster("MON-storm-titan", "Storm Titan", 6, margin=3,
            modifiers={"elementalist": 2, "demonologist": -2}),
    Monster("MON-archfiend", "Archfiend", 6, margin=3,
            modifiers={"demonologist": 2, "necromancer": -2}),
)

# Version 1's monsters: the same cards, six of them with other strengths or modifiers (their
# modifiers summed to +1/+3/+1/+3 a faction).
_CHANGED_V1 = (
    Monster("MON-banshee", "Banshee", 3, modifiers={"necromancer": 1, "demonologist": -1}),
    Monster("MON-gargoyle", "Gargoyle", 3, modifiers={"elementalist": 1, "techno-mage": -1}),
    Monster("MON-lich", "Lich", 5, margin=2, modifiers={"necromancer": 2, "elementalist": -2}),
    Monster("MON-iron-colossus", "Iron Colossus", 6, margin=3,
            modifiers={"techno-mage": 2, "demonologist": -2}),
    Monster("MON-storm-titan", "Storm Titan", 6, margin=3,
            modifiers={"elementalist": 2, "techno-mage": -2}),
    Monster("MON-archfiend", "Archfiend", 7, margin=3,
            modifiers={"demonologist": 2, "necromancer": -2}),
)
MONSTERS_V1 = tuple(next((v1 for v1 in _CHANGED_V1 if v1.id == m.id), m) for m in MONSTERS)

DIVINATION = "SPL-divination"        # Weissagung: look at any face-down card, banned ones too
WHIRLWIND = "SPL-whirlwind"          # Wirbelsturm: the spell's row turns one place (forced)
TRANSPOSITION = "SPL-transposition"  # Vertauschung: swap two unbanned cards unseen, or not
DISPEL = "SPL-dispel"                # Bannbruch: every ban token leaves the realm
SPELLS = (DIVINATION, WHIRLWIND, TRANSPOSITION, DISPEL)
SPELL_POINTS = 3  # E.1: "Jeder Zauberspruch ... zaehlt DREI (3) Punkte"

# A spell still in the realm at the scoring is contested like a plain monster (D16).
SPELL_AS_MONSTER = {spell: Monster(spell, spell[4:].title(), SPELL_POINTS) for spell in SPELLS}
CARD = {m.id: m for m in MONSTERS} | SPELL_AS_MONSTER
CARD_V1 = {m.id: m for m in MONSTERS_V1} | SPELL_AS_MONSTER


@dataclass(frozen=True)
class Content:
    """One version's cards: each faction's mage cards and what each realm card says."""

    mage_cards: dict
    card: dict


CONTENT = {1: Content(MAGE_CARDS_V1, CARD_V1), 2: Content(MAGE_CARDS, CARD)}  # by ruleset version

# V.1-V.2: the order a "shuffle 20" outcome indexes; 16 go to the realm, 4 to the exploration deck
# (the same ids in the same order in every version).
REALM_CARDS = tuple(m.id for m in MONSTERS_V1) + SPELLS
GRID = 16
SIDE = 4

# -- the table: positions 0..15 row by row, border slots beside rows and columns (S.3) ----------
# T<c>/B<c> lie above/below column c, L<r>/R<r> left/right of row r.
SLOTS = tuple(f"{side}{i}" for side in "TBLR" for i in range(SIDE))
CORNERS_BY_PLAYERS = {2: ("TL", "BR"), 3: ("TL", "TR", "BR"), 4: ("TL", "TR", "BR", "BL")}  # D4


def slot_positions(slot: str) -> tuple[int, ...]:
    """S.3: the four realm positions of the row or column a slot lies beside."""
    side, index = slot[0], int(slot[1])
    if side in "TB":
        return tuple(r * SIDE + index for r in range(SIDE))
    return tuple(index * SIDE + c for c in range(SIDE))


def position_slots(pos: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """W.1: the slots of a position's row (L, R) and of its column (T, B)."""
    row, col = divmod(pos, SIDE)
    return (f"L{row}", f"R{row}"), (f"T{col}", f"B{col}")


# slot -> (True for a row's slot, False for a column's; the row or column), per position_slots
SLOT_LINES = {slot: (slot[0] in "LR", int(slot[1])) for slot in SLOTS}


@functools.lru_cache(maxsize=None)  # a check of every placement asks it
def corner_slots(corner: str) -> tuple[str, ...]:
    """V.4a: the eight slots on the two sides that meet at ``corner``."""
    return tuple(f"{side}{i}" for side in corner for i in range(SIDE))  # "TL": top and left


# -- what a monster card's text says about capturing it (W.1-W.3, M.1-M.4, D15-D17) ------------

def line_totals(monster: Monster, row: list[list[int]], column: list[list[int]],
                factions: list) -> tuple[list[int], list[int]]:
    """W.1, M.2, D15: per seat, the power of its cards in the lines that count and how many cards
    that is; a faction modifier applies only to a seat with a card there."""
    totals, counts = [], []
    for seat, faction in enumerate(factions):
        powers = (row[seat] if monster.special != COLUMN_ONLY else []) + \
                 (column[seat] if monster.special != ROW_ONLY else [])
        totals.append(sum(powers) + (monster.modifiers.get(faction, 0) if powers else 0))
        counts.append(len(powers))
    return totals, counts


def captor(monster: Monster, row: list[list[int]], column: list[list[int]], factions: list,
           banner: int | None) -> int | None:
    """W.2, W.3, M.1-M.4, D15, D17: the seat that captures ``monster`` (None: it is discarded).
    ``row``/``column`` give each seat's mage powers beside the monster's row and column."""
    if monster.special == BANNER_WINS and banner is not None:
        return banner
    return _captor_by_totals(monster, *line_totals(monster, row, column, factions))


def _captor_by_totals(monster: Monster, totals: list[int], counts: list[int]) -> int | None:
    """``captor`` once each seat's total and card count in the lines that count are known."""
    if monster.special == LOWEST_WINS:
        positive = sorted((t, s) for s, t in enumerate(totals) if counts[s] and t > 0)
        if not positive or (len(positive) > 1 and positive[0][0] == positive[1][0]):
            return None
        return positive[0][1]
    # The best total (the last seat of those with it, as a descending sort of (total, seat)
    # puts it first) and the next total, which equals the best in a tie; two seats at least.
    ordered = sorted(totals)
    best, second = ordered[-1], ordered[-2]
    seat = len(totals) - 1 - totals[::-1].index(best)
    if best <= 0 or best - second < monster.margin:
        return None
    if monster.special == TWO_CARDS and counts[seat] < 2:
        return None
    return seat


def open_slots(placement: str, players: int, seat: int, placed: list[list]) -> list[str]:
    """V.4a, D4: the seat's two corner sides, one card of its own a slot; V.4b, D5: any border
    slot holding fewer than two cards of all players. ``placed``: per seat, [slot, card] pairs."""
    if placement == "corners":
        used = {slot for slot, _ in placed[seat]}
        return [slot for slot in corner_slots(CORNERS_BY_PLAYERS[players][seat]) if slot not in used]
    count = dict.fromkeys(SLOTS, 0)
    for cards in placed:
        for slot, _ in cards:
            count[slot] += 1
    return [slot for slot in SLOTS if count[slot] < 2]


def _line_powers(cards: list) -> tuple[list[list[int]], list[list[int]]]:
    """W.1: a seat's mage powers beside each row (slots L, R) and each column (T, B), from its
    [slot, card] pairs; computed once per scoring, not once per position."""
    rows, columns = [[] for _ in range(SIDE)], [[] for _ in range(SIDE)]
    for slot, card in cards:
        if slot in SLOT_LINES:
            across, index = SLOT_LINES[slot]
            (rows if across else columns)[index].append(MAGE_POWER[card])
    return rows, columns


def realm_scores(grid: list[str], placed: list[list], factions: list,
                 bans: list, card_of: dict = CARD) -> tuple[list, list[int]]:
    """W.1-W.3, E.1: the captor of each realm card (None: discarded) and each seat's points,
    monster strengths plus three a spell."""
    captures, scores = [], [0] * len(placed)
    # Per seat, the sum and count of its powers beside each row and column, once per scoring:
    # ``captor`` sums the same lists again for each of the sixteen positions (line_totals).
    lines = []
    for cards in placed:
        rows, columns = _line_powers(cards)
        lines.append(([sum(p) for p in rows], [len(p) for p in rows],
                      [sum(p) for p in columns], [len(p) for p in columns]))
    for pos, realm in enumerate(grid):
        row, column = divmod(pos, SIDE)
        monster = card_of[realm]
        if monster.special == BANNER_WINS and bans[pos] is not None:
            seat = bans[pos]
        else:  # each seat's powers in the lines that count (M.4, D17: a row or a column only)
            if monster.special == ROW_ONLY:
                totals = [line[0][row] for line in lines]
                counts = [line[1][row] for line in lines]
            elif monster.special == COLUMN_ONLY:
                totals = [line[2][column] for line in lines]
                counts = [line[3][column] for line in lines]
            else:
                totals = [line[0][row] + line[2][column] for line in lines]
                counts = [line[1][row] + line[3][column] for line in lines]
            modifiers = monster.modifiers
            if modifiers:  # M.2, D15: a faction's modifier counts only where the seat has a card
                totals = [total + modifiers.get(faction, 0) if count else total
                          for total, count, faction in zip(totals, counts, factions)]
            seat = _captor_by_totals(monster, totals, counts)
        captures.append(seat)
        if seat is not None:
            scores[seat] += monster.strength
    return captures, scores
