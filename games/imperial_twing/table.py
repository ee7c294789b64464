"""Imperial Twing: the table around the fights. Seats and the order of play, drawing cards,
the hand limits, ornicles, magic objects and leaving the game.

Every function takes the plain JSON state dict and changes it in place; ``apply`` calls them on a
copy (``clone``). Clauses are cited as in docs/rules/imperial-twing.md.
"""
from __future__ import annotations

from .content import (ELEMENT, ELEMENTS, IS_CAT, IS_CREATURE, IS_SPELL, IS_TRAP, SPELLS,
                      is_creature, is_spell)

MAX_COLOURS, MAX_SPELLS, MAX_ACTIVE = 3, 15, 3  # "Regel für maximale Zauberfarbe"; 3 active objects


# -- the rules version ------------------------------------------------------------------------

def rules_version(state: dict) -> int:
    """The version of the rules a state is played by (docs/rules/imperial-twing.md, "Versions"):
    a version 3 state names it (``version``); versions 1 and 2 (editions.py) kept no such key,
    so their logs and snapshots fold to the states they wrote."""
    return state.get("version", 2)


# -- seats ----------------------------------------------------------------------------------------

def in_play(state: dict) -> list[int]:
    """The seats still in the game, in seat order."""
    left = state["left"]
    if not left:
        return list(range(state["players"]))
    gone = {entry[0] for entry in left}
    return [s for s in range(state["players"]) if s not in gone]


def play_order(state: dict, start: int) -> list[int]:
    """The seats in play in the direction of play, beginning with ``start`` (B.2: the start
    player chooses the direction)."""
    n, step = state["players"], state["direction"]
    if not state["left"]:
        return [(start + step * i) % n for i in range(n)]
    seats = set(in_play(state))
    return [(start + step * i) % n for i in range(n) if (start + step * i) % n in seats]


def next_seat(state: dict, seat: int) -> int | None:
    """The next seat in play after ``seat`` in the direction of play."""
    n, step = state["players"], state["direction"]
    if not state["left"]:
        return (seat + step) % n
    seats = set(in_play(state))
    for i in range(1, n + 1):
        other = (seat + step * i) % n
        if other in seats:
            return other
    return None


# -- cards ------------------------------------------------------------------------------------------

_is_spell, _is_cat = IS_SPELL.__getitem__, IS_CAT.__getitem__
_is_trap = IS_TRAP.__getitem__
_element = ELEMENT.__getitem__


def spells_in_hand(state: dict, seat: int) -> list[str]:
    return list(filter(_is_spell, state["hands"][seat]))


def cats_in_hand(state: dict, seat: int) -> list[str]:
    return list(filter(_is_cat, state["hands"][seat]))


def traps_in_hand(state: dict, seat: int) -> list[str]:
    return list(filter(_is_trap, state["hands"][seat]))


def colours_in_hand(state: dict, seat: int) -> list[str]:
    """The spell colours a seat holds, in the fixed element order."""
    held = set(map(_element, filter(_is_spell, state["hands"][seat])))
    return [e for e in ELEMENTS if e in held]


def queue_draw(state: dict, seat: int, count: int, mode: str = "plain") -> None:
    """Queue ``count`` draws for ``seat`` (mode plain, or until_spell: T.3's immediate draw)."""
    if count > 0:
        state["draws"].append({"seat": seat, "count": count, "mode": mode})


def spell_findable(state: dict) -> bool:
    """A spell lies in the deck or the discard pile, so drawing until a spell can end (D8)."""
    return not (SPELLS.isdisjoint(state["deck"]) and SPELLS.isdisjoint(state["discard"]))


def draw_one(state: dict, task: dict) -> None:
    """T.1, V.6: a drawn creature joins the retinue; a spell, cat or trap goes to the hand; in
    an until_spell draw every card that is no spell is discarded at once (V.7, T.3)."""
    seat, card = task["seat"], state["deck"].pop(0)
    if task["mode"] == "until_spell":
        if is_spell(card):
            state["hands"][seat].append(card)
            task["count"] = 0
        else:
            state["discard"].append(card)
        return
    task["count"] -= 1
    (state["retinues"] if is_creature(card) else state["hands"])[seat].append(card)


def process_draws(state: dict) -> bool:
    """Carry out the queued draws; False when the deck is empty and the discard pile must be
    shuffled first (D7). A draw that cannot be made (no cards anywhere, or no spell left to find)
    is dropped (D8). ``draw_one`` written out: the lists are held in locals (none of them is
    replaced while the queue runs)."""
    draws, deck, hands = state["draws"], state["deck"], state["hands"]
    left = state["left"]
    gone = {entry[0] for entry in left} if left else ()
    while draws:
        task = draws[0]
        seat = task["seat"]
        if task["count"] <= 0 or seat in gone:
            draws.pop(0)
            continue
        until_spell = task["mode"] == "until_spell"
        if until_spell and (not SPELLS.isdisjoint(hands[seat]) or not spell_findable(state)):
            draws.pop(0)
            continue
        if not deck:
            if state["discard"]:
                return False
            draws.pop(0)
            continue
        card = deck.pop(0)
        if until_spell:
            if IS_SPELL[card]:
                hands[seat].append(card)
                task["count"] = 0
            else:
                state["discard"].append(card)
            continue
        task["count"] -= 1
        (state["retinues"] if IS_CREATURE[card] else hands)[seat].append(card)
    return True


def queue_spell_draws(state: dict) -> None:
    """T.3: a seat without a spell in hand draws until it has one, "immer sofort"; outside a
    fight (D9), the seat whose turn it is first. Asked before every step outside a fight, it
    looks for a seat without a spell before it works out the order (mostly there is none)."""
    hands = state["hands"]
    if state["left"]:
        if not any(SPELLS.isdisjoint(hands[seat]) for seat in in_play(state)):
            return
    elif not any(map(SPELLS.isdisjoint, hands)):  # every seat is in play: one C call
        return
    start = state["seat"] if state["seat"] is not None else 0
    seats = in_play(state)
    findable = None  # asked once: queueing a draw changes no pile
    for seat in play_order(state, start) if start in seats else seats:
        if SPELLS.isdisjoint(hands[seat]):
            if findable is None:
                findable = spell_findable(state)
            if findable:
                queue_draw(state, seat, 1, "until_spell")


def reshuffle(state: dict, outcome: list[int]) -> None:
    """D7: the discard pile, shuffled by the chance outcome, becomes the new deck."""
    pile = state["discard"]
    state["deck"], state["discard"] = [pile[i] for i in outcome], []
    state["reshuffles"] += 1


def over_limit(state: dict) -> tuple[int, str] | None:
    """H.1-H.3: the first seat (in play order) holding more than three spell colours or more
    than fifteen spells, and which limit it breaks. Asked before every step outside a fight,
    it asks each hand once (``breaks_limit``) before it works out the order of play."""
    hands = state["hands"]
    if state["left"]:
        if not any(breaks_limit(hands[seat]) for seat in in_play(state)):
            return None
    else:
        for hand in hands:  # a hand of three cards or fewer breaks no limit
            if len(hand) > MAX_COLOURS and breaks_limit(hand):
                break
        else:
            return None
    return first_over_limit(state)


def breaks_limit(hand: list[str]) -> bool:
    """H.1-H.3 for one hand: more than three spell colours (four spells at least) or more than
    fifteen spells."""
    spells = sum(map(_is_spell, hand))  # counted in C: True is 1
    if spells <= MAX_COLOURS:
        return False
    return spells > MAX_SPELLS or len(set(map(_element, filter(_is_spell, hand)))) > MAX_COLOURS


def first_over_limit(state: dict) -> tuple[int, str] | None:
    """``over_limit`` seat by seat in play order: the first seat over a limit, and which."""
    start = state["seat"] if state["seat"] in in_play(state) else None
    for seat in play_order(state, start) if start is not None else in_play(state):
        if len(colours_in_hand(state, seat)) > MAX_COLOURS:
            return seat, "colours"
        if len(spells_in_hand(state, seat)) > MAX_SPELLS:
            return seat, "spells"
    return None


# -- ornicles -------------------------------------------------------------------------------------

def gain_ornicles(state: dict, seat: int, count: int) -> int:
    """Ornicles from the supply, as many as it still holds (D10); returns how many."""
    count = max(0, min(count, state["supply"]))
    state["supply"] -= count
    state["ornicles"][seat] += count
    return count


def lose_ornicles(state: dict, seat: int, count: int) -> int:
    """Ornicles back to the supply; never below zero (D10)."""
    count = max(0, min(count, state["ornicles"][seat]))
    state["ornicles"][seat] -= count
    state["supply"] += count
    return count


def move_ornicles(state: dict, giver: int, taker: int, count: int) -> int:
    count = max(0, min(count, state["ornicles"][giver]))
    state["ornicles"][giver] -= count
    state["ornicles"][taker] += count
    return count


# -- magic objects --------------------------------------------------------------------------------

def owned_objects(state: dict, seat: int) -> list[str]:
    return state["active"][seat] + state["aside"][seat]


def has_active(state: dict, seat: int, obj: str) -> bool:
    """O.1: only the (at most three) active objects work."""
    return obj in state["active"][seat]


def gain_object(state: dict, seat: int, obj: str) -> None:
    """O.1, D12: a new object is active while fewer than three are, else it is set aside in view
    of all; its owner may rearrange them in a later turn."""
    (state["active"] if len(state["active"][seat]) < MAX_ACTIVE else state["aside"])[seat].append(obj)


def lose_object(state: dict, seat: int, obj: str) -> None:
    """The object leaves ``seat``; a set-aside object fills the free active place, and an
    endgame ends for a seat left with fewer than three objects (G.8)."""
    for pile in (state["active"], state["aside"]):
        if obj in pile[seat]:
            pile[seat].remove(obj)
    if len(state["active"][seat]) < MAX_ACTIVE and state["aside"][seat]:
        state["active"][seat].append(state["aside"][seat].pop(0))
    if len(owned_objects(state, seat)) < 3:
        state["in_endgame"][seat] = False


def refill_row(state: dict) -> None:
    """C.2: a bought object is replaced by the top of the object deck, if any is left."""
    while len(state["object_row"]) < 2 and state["object_deck"]:
        state["object_row"].append(state["object_deck"].pop(0))


# -- leaving -----------------------------------------------------------------------------------------

def leave(state: dict, seat: int, how: str, batch: int) -> None:
    """A.1-A.4, G.2, D14: a seat leaves (resigned, beaten in the endgame, or forfeited): its
    cards are discarded and its ornicles go back to the supply; a forfeiting seat's objects
    leave the game with it (what a resigning seat gives away was given before)."""
    if seat not in in_play(state):
        return
    state["discard"] += state["hands"][seat] + state["retinues"][seat]
    state["hands"][seat], state["retinues"][seat] = [], []
    lose_ornicles(state, seat, state["ornicles"][seat])
    state["removed_objects"] += owned_objects(state, seat)
    state["active"][seat], state["aside"][seat] = [], []
    state["in_endgame"][seat] = False
    state["left"].append([seat, how, batch])
    if how == "forfeit":
        state["forfeited"].append(seat)
    state["draws"] = [t for t in state["draws"] if t["seat"] != seat]

