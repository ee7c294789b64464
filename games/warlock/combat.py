"""Warlock combat: which cards make a spell (a *play*), what a play is worth, and what a defence
does against an attack (rulebook sections 5, 8.1-8.4). Pure functions over card ids.

A play is a list of card ids cast as one spell (5.2): one card; a wielder and a weapon
([wielder, weapon], 8.1.2, 8.2); the Priest and his Holy Staff ([priest, staff], 8.4); or a
weapon alone, which the wizard wields himself (8.1.1). A threat is an attack play on its way:
``{"cards", "caster", "colour", "points", "sender", "target", ...}``; ``colour`` and ``points``
are the caster's, because a spell's value depends on who cast it (5.2.4), wherever it flies.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from .content import CARD_IDS, PHYSICAL, TABLES, kind

SUCCESS = ("A", "R", "R†")  # what a defence may end in once the colour conditions are read


# A card's role and spell by id, looked up once (combat asks it thousands of times a match).
_ROLE = {card: kind(card).role for card in CARD_IDS}
_KEY = {card: kind(card).key for card in CARD_IDS}
_PAIR_SHAPE = {("wielder", "weapon"): "pair", ("priest", "staff"): "priest"}


def _role(card: str) -> str:
    """The role of a card's spell (``content.kind`` for an id outside the book)."""
    found = _ROLE.get(card)
    return found if found is not None else kind(card).role


role_of = _role  # for the rules (duel.has_defence)


def _spell_key(card: str) -> str:
    """The key of a card's spell (``content.kind`` for an id outside the book)."""
    found = _KEY.get(card)
    return found if found is not None else kind(card).key


def shape(cards: list[str]) -> str:
    """"single", "armed" (a weapon the wizard wields himself, 8.1.1), "pair" (wielder and
    weapon, 8.1.2) or "priest" (Priest with Holy Staff, 8.4); "" for no spell."""
    if len(cards) == 1:
        return "armed" if _role(cards[0]) == "weapon" else "single"
    if len(cards) == 2:
        return _PAIR_SHAPE.get((_role(cards[0]), _role(cards[1])), "")
    return ""


def value(cards: list[str], colour: str, points: int) -> int | None:
    """5.2.4, 8.1.1, 8.1.2: the combat value of a physical play cast by a wizard of ``colour``
    with ``points`` combat points; None if it has none (5.3) or is magic."""
    form = shape(cards)
    spells = [kind(c) for c in cards]
    if form == "armed":
        return points + spells[0].value(colour)
    if form == "pair":
        return spells[0].value(colour) + spells[1].value(colour)
    if form == "single" and spells[0].realm == PHYSICAL:
        return spells[0].value(colour)
    return None


def row(cards: list[str]) -> tuple[str, str] | None:
    """The table and row an attack play is fought in (5.2.1, 5.2.3): its own card's; a wielder's
    unless he carries a Magic Bow (8.1.2); the Priest's for Priest and Staff (8.4); none for an
    armed wizard, who is fought by combat value only (5.4)."""
    form = shape(cards)
    if form == "armed":
        return None
    if form == "pair":
        key = cards[1] if kind(cards[1]).key == "magic-bow" else cards[0]
        return PHYSICAL, kind(key).key
    spell = kind(cards[0])
    return spell.realm, spell.key


def table_code(attack: list[str], defence: list[str]) -> str | None:
    """The table's entry for a one-card defence in the attack's row, if any."""
    where = row(attack)
    if where is None or len(defence) != 1:
        return None
    table, key = where
    return TABLES[table].get(key, {}).get(kind(defence[0]).key)


def condition_holds(code: str, attack_colour: str, defence_colour: str) -> str | None:
    """5.7: a conditional code read as "A" when its condition holds, else None."""
    if code == "AW":
        return "A" if defence_colour == "white" else None
    if code == "AS":
        return "A" if defence_colour == "black" else None
    if code == "A*":
        return "A" if attack_colour == "white" else None
    if code == "A†":
        return "A" if attack_colour == "black" else None
    return code


def identical(attack: list[str], defence: list[str], pairs: bool = True) -> bool:
    """5.2.2: ``defence`` is the same spell as ``attack``: one card of the same spell or, since a
    wielder with his weapon and the Priest with the Holy Staff are one spell each (8.1.2, 8.4),
    the same two spells (``pairs``; option ``identical_pairs_reflect``). Never an armed wizard,
    who is fought by combat value only (5.4)."""
    form = shape(attack)
    if form != "single" and not (pairs and form in ("pair", "priest")):
        return False
    return shape(defence) == form and [kind(c) for c in defence] == [kind(c) for c in attack]


def value_repels(threat: dict, defence: list[str], colour: str, points: int) -> bool:
    """5.2.4: ``defence`` has at least the combat value of ``threat`` (both have one)."""
    attack_value = value(threat["cards"], threat["colour"], threat["points"])
    defence_value = value(defence, colour, points)
    return attack_value is not None and defence_value is not None and defence_value >= attack_value


def result(threat: dict, defence: list[str], colour: str, points: int, *,
           pairs: bool = True) -> str | None:
    """What ``defence`` (cast by a wizard of ``colour``/``points``) does against ``threat``:
    "A", "R", "R†" or None (no defence). The four ways of 5.2 in this order: the table entry
    (5.2.1, 5.2.3), an identical spell (5.2.2, both reflected; ``pairs``: two-card spells too,
    see ``identical``), an equal or higher combat value (5.2.4); with the exceptions 5.3 (no
    value: table only) and 5.4 (armed wizard: value only). A pure function of the card ids,
    spells (never which copy), colours and points, so it is kept (``_result``)."""
    return _result(tuple([_spell_key(c) for c in threat["cards"]]), threat["colour"],
                   threat["points"], tuple([_spell_key(c) for c in defence]), colour, points, pairs)


@lru_cache(maxsize=1 << 16)
def _result(attack: tuple[str, ...], attack_colour: str, attack_points: int,
            defence: tuple[str, ...], colour: str, points: int, pairs: bool) -> str | None:
    """``result`` of immutable arguments: the threat taken apart, each card named by its spell
    (and worked out with the first copy of each)."""
    return _fresh_result({"cards": [f"WL-{key}-1" for key in attack], "colour": attack_colour,
                          "points": attack_points}, [f"WL-{key}-1" for key in defence], colour,
                         points, pairs=pairs)


def _fresh_result(threat: dict, defence: list[str], colour: str, points: int, *,
                  pairs: bool = True) -> str | None:
    """``result`` worked out, not looked up (tests/games/warlock compare the two)."""
    attack = threat["cards"]
    if not shape(defence):
        return None
    code = table_code(attack, defence)
    if code is not None:
        code = condition_holds(code, threat["colour"], colour)
        if code is not None:
            return code
    if identical(attack, defence, pairs) and (
            kind(attack[0]).realm != PHYSICAL
            or value(attack, threat["colour"], threat["points"]) is not None):
        return "R†"  # 5.2.2; not for a physical spell without value (5.3)
    return "A" if value_repels(threat, defence, colour, points) else None


def candidate_plays(hand: list[str]) -> list[list[str]]:
    """Every play a hand can make, once per distinct card id combination, in a stable order:
    singles, then wielder+weapon and Priest+Staff pairs."""
    plays = [[c] for c in hand]
    roles = [_role(c) for c in hand]
    for (a, role_a), (b, role_b) in combinations(zip(hand, roles), 2):
        if (role_a, role_b) in _PAIR_SHAPE:
            plays.append([a, b])
        if (role_b, role_a) in _PAIR_SHAPE:
            plays.append([b, a])
    return plays


def cost(cards: list[str]) -> int:
    """4.1.6: the energy a play costs (every card of it)."""
    return sum(kind(c).cost for c in cards)


def is_attack(cards: list[str]) -> bool:
    """5.1, 8.1, 8.4: attack spells, weapons (armed or wielded) and Priest with Staff."""
    form = shape(cards)
    if form in ("armed", "pair", "priest"):
        return True
    return form == "single" and kind(cards[0]).attack


def attack_plays(hand: list[str], energy: int) -> list[list[str]]:
    """3.3.3, 4.9: the attack plays the wizard can pay for (witch plays are added by the rules
    module, 8.3.2)."""
    return [p for p in candidate_plays(hand) if is_attack(p) and cost(p) <= energy]


def defence_plays(hand: list[str], energy: int, threat: dict, colour: str, points: int,
                  *, free: bool = False, pairs: bool = True) -> list[list[str]]:
    """5.2, 5.5: the plays that would defend against ``threat`` and that the wizard can pay for
    (``free``: conjured by the Witch, 8.3.1; ``pairs`` as in ``result``)."""
    return [p for p in candidate_plays(hand)
            if (free or cost(p) <= energy)
            and result(threat, p, colour, points, pairs=pairs) in SUCCESS]


def has_defence_play(hand: list[str], energy: int, threat: dict, colour: str, points: int,
                     *, free: bool = False, pairs: bool = True, witch: bool = True) -> bool:
    """``bool(defence_plays(...))`` without the list, stopping at the first defence; with
    ``witch`` False, a play led by a Witch does not count (as ``duel.defence_options``). The
    plays of ``candidate_plays`` (singles, then pairs) asked of the kept ``_result`` directly,
    each card's spell, role and cost read once (``fresh_has_defence_play`` is the code it
    stands for, tests/games/test_warlock_fast_paths.py compares the two)."""
    attack = tuple([_spell_key(c) for c in threat["cards"]])
    attack_colour, attack_points = threat["colour"], threat["points"]
    cards = [_CARD.get(c) or (kind(c).key, kind(c).role, kind(c).cost) for c in hand]
    for key, role, price in cards:
        if (witch or role != "witch") and (free or price <= energy) and _result(
                attack, attack_colour, attack_points, (key,), colour, points, pairs) in SUCCESS:
            return True
    for (key_a, role_a, price_a), (key_b, role_b, price_b) in combinations(cards, 2):
        if not (free or price_a + price_b <= energy):
            continue
        if (role_a, role_b) in _PAIR_SHAPE and _result(
                attack, attack_colour, attack_points, (key_a, key_b), colour, points,
                pairs) in SUCCESS:
            return True
        if (role_b, role_a) in _PAIR_SHAPE and _result(
                attack, attack_colour, attack_points, (key_b, key_a), colour, points,
                pairs) in SUCCESS:
            return True
    return False


_CARD = {card: (kind(card).key, kind(card).role, kind(card).cost) for card in CARD_IDS}


def fresh_has_defence_play(hand: list[str], energy: int, threat: dict, colour: str,
                           points: int, *, free: bool = False, pairs: bool = True,
                           witch: bool = True) -> bool:
    """``has_defence_play`` as it was written: every candidate play in turn, through
    ``cost`` and ``result``."""
    for p in candidate_plays(hand):
        if not witch and _role(p[0]) == "witch":
            continue
        if (free or cost(p) <= energy) and result(threat, p, colour, points, pairs=pairs) in SUCCESS:
            return True
    return False


def witch_repels(threat: dict, colour: str) -> bool:
    """8.3: the Witch herself defends where the magic table lists her."""
    code = table_code(threat["cards"], ["WL-witch-1"])
    return code is not None and condition_holds(code, threat["colour"], colour) == "A"
