"""Sorcado's determinize (issue 15.1): a full state that a seat cannot tell from the one it sees.

A seat's view (docs/rules/sorcado.md, "Hidden information and determinize") shows everything
public and all it knows itself; what it cannot see is drawn with the rng:

- the realm cards it does not know (face down, not in its ``known``) and the exploration deck's
  order, dealt from the realm cards no face-up card, ``known`` entry or discard shows. A
  position another seat knows (``known_by``) holds a monster: a look reveals a spell instead of
  learning it (S.1). Only a Divination shows a spell unrevealed, and only under a ban token
  (B.3), which nothing but a Dispel lifts; so where a ban lies or a Dispel has been discarded,
  a position another seat knows may hold a spell too;
- what the other seats know: per ``known_by``, the card the drawn realm puts there;
- the other seats' hands and face-down cards: their faction's mage cards, ``hand_sizes`` of them
  in hand (in the faction's order, as a hand keeps it) and one on each slot ``laid`` names, in
  the order laid;
- the mage shuffles of V.5: each one's first cards have the powers ``draws`` shows, the rest is
  drawn. During the draw no shuffle is shown yet, so none is made: the seats still to shuffle
  are all of them, which is as likely a future as any other.

It reads nothing but the view, the seat, the rng and the content; ``view`` is left as it was.
"""
from __future__ import annotations

import copy

from . import TURN_PHASES
from .content import CONTENT, DISPEL, GRID, HAND_SIZE, MAGE_POWER, REALM_CARDS, SLOTS, SPELLS


def determinize(view: dict, seat: int, rng, content: int) -> dict:
    """A state whose ``view(state, seat)`` is ``view``; ``content``: the version's cards."""
    grid, deck = realm(view, rng)
    hands, placed = mage_cards(view, seat, rng, content)
    over = view["phase"] == "over"
    return {
        "players": view["players"], "options": dict(view["options"]), "content": content,
        "game": view["game"], "phase": view["phase"], "history": copy.deepcopy(view["history"]),
        "grid": grid, "deck": deck, "discard": list(view["discard"]), "pending": view["pending"],
        "bans": list(view["bans"]), "ban_used": list(view["ban_used"]),
        "factions": list(view["factions"]), "hands": hands, "placed": placed,
        "known": knowledge(view, seat, grid), "shuffles": shuffles(view, rng, content),
        "draws": [list(d) for d in view["draws"]], "order": list(view["order"]),
        "seat": view["to_act"] if view["phase"] in TURN_PHASES else None,
        "looked": list(view["looked"]), "freed": list(view["freed"]), "seen": list(view["seen"]),
        "prev_seen": list(view["prev_seen"]), "forfeited": list(view["forfeited"]),
        "scores": list(view["scores"]) if over else None,
        "captures": list(view["captures"]) if over else None,
        "moves": [dict(m, moves=[list(pair) for pair in m["moves"]]) for m in view["moves"]],
    }


def dealt(view: dict) -> bool:
    """V.1: is there a realm? Not before the deal, nor at an end every seat left before it."""
    if view["phase"] == "deal":
        return False
    return view["phase"] != "over" or view["face_up"][0] is not None


def realm(view: dict, rng) -> tuple[list, list]:
    """The grid and the exploration deck: what the seat sees copied, the rest drawn from the
    realm cards it has not seen (D2, D3)."""
    if not dealt(view):
        return [None] * GRID, []
    grid = [up or mine for up, mine in zip(view["face_up"], view["known"])]
    shown = set(grid) | set(view["discard"])
    unseen = [card for card in REALM_CARDS if card not in shown]  # a fixed order, then drawn
    rng.shuffle(unseen)
    hidden = [p for p in range(GRID) if grid[p] is None]
    spell_known = DISPEL in view["discard"]
    known_by, bans = view["known_by"], view["bans"]
    monsters_only = [p for p in hidden if known_by[p] and bans[p] is None and not spell_known]
    taken = [card for card in unseen if card not in SPELLS][:len(monsters_only)]
    for pos, card in zip(monsters_only, taken):
        grid[pos] = card
    rest = [card for card in unseen if card not in taken]
    free = [p for p in hidden if grid[p] is None]
    for pos, card in zip(free, rest):
        grid[pos] = card
    deck = rest[len(free):]
    if len(deck) != view["deck_size"]:
        raise ValueError(f"the view's cards do not add up: {len(deck)} left for a deck of "
                         f"{view['deck_size']}")
    return grid, deck


def knowledge(view: dict, seat: int, grid: list) -> list[list]:
    """D7: per seat the cards it knows: the seat's own from its view, the others' where
    ``known_by`` names them, the card the grid holds there."""
    known = [[None] * GRID for _ in range(view["players"])]
    for pos, seats in enumerate(view["known_by"]):
        for other in seats:
            known[other][pos] = grid[pos]
    known[seat] = list(view["known"])
    return known


def mage_cards(view: dict, seat: int, rng, content: int) -> tuple[list, list]:
    """S.3: per seat its hand and its laid cards; another seat's are drawn from its faction's
    eight (at the end, ``placed`` shows every laid card and the hands are the rest)."""
    hands, placed = [], []
    for other, faction in enumerate(view["factions"]):
        if other == seat:
            hands.append(list(view["hand"]))
            placed.append([list(pair) for pair in view["my_placed"]])
            continue
        cards = CONTENT[content].mage_cards[faction] if faction else ()
        size = view["hand_sizes"][other]
        if "placed" in view:  # W.1: every laid card is face up
            laid = [list(pair) for pair in view["placed"][other]]
            out = {card for _, card in laid}
            hands.append([card for card in cards if card not in out] if size else [])
            placed.append(laid)
            continue
        # in the order laid (``laid``: everyone watched it, D7); a version 1 view has no order
        slots = (view["laid"][other] if "laid" in view
                 else [slot for slot in SLOTS for owner in view["slots"][slot] if owner == other])
        drawn = rng.sample(cards, size + len(slots))
        hand = set(drawn[:size])
        hands.append([card for card in cards if card in hand])
        placed.append([[slot, card] for slot, card in zip(slots, drawn[size:])])
    return hands, placed


def shuffles(view: dict, rng, content: int) -> list:
    """V.5, D6: a mage shuffle per seat that drew, its first cards of the powers ``draws``
    shows (indices into the faction's eight, the hand as it was at the draw); None for a seat
    that showed nothing."""
    made = []
    for faction, shown in zip(view["factions"], view["draws"]):
        if not shown:
            made.append(None)
            continue
        powers = [MAGE_POWER[card] for card in CONTENT[content].mage_cards[faction]]
        rest = list(range(HAND_SIZE))
        rng.shuffle(rest)
        first = []
        for power in shown:
            index = next(i for i in rest if powers[i] == power)
            rest.remove(index)
            first.append(index)
        made.append(first + rest)
    return made
