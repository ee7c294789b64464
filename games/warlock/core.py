"""Warlock state helpers shared by the rules: reading a state, cards, energy, limbo, leaving.

A state is a plain JSON dict (see rules.new_state). Every function here changes the state it is
given; ``Warlock.apply`` hands the rules a copy (``clone``).
"""
from __future__ import annotations

import pickle

from .content import HAND_SIZE, WIZARD, kind

LEARNING_FEE = 10      # 4.5
LEARNING_COST = 3      # 3.3.1, 4.7
BONUS = 30             # 4.1.3
RETURN_COST = 30       # 4.8.2, 4.8.4
TWO_WIZARD_GAP = 50    # 4.2.3
SEGMENTS = 6           # 3.3.2: segments 1-6, then the balance (7)


def alive(state: dict) -> list[int]:
    """6: the seats still in the game."""
    return [s for s, out in enumerate(state["out"]) if not out]


def wizard(state: dict, seat: int):
    """The wizard card a seat drew (2)."""
    return WIZARD[state["wizard"][seat]]


def left_of(state: dict, seat: int, among) -> int | None:
    """The next seat clockwise (to the left, D15: seat s+1 sits left of s) that is in ``among``."""
    n = state["players"]
    for step in range(1, n + 1):
        other = (seat + step) % n
        if other in among:
            return other
    return None


def not_in_limbo(state: dict) -> list[int]:
    """8.5.5: the wizards a wandering creature may meet."""
    return [s for s in alive(state) if state["role"][s] != "limbo"]


def victim_of(state: dict, seat: int) -> int:
    """4.1.1: everyone attacks the wizard to his left in the arena."""
    circle = state["circle"]
    return circle[(circle.index(seat) + 1) % len(circle)]


def stamp(state: dict) -> int:
    """When something happens, as one number: round and segment (6: the same segment)."""
    return state["round"] * 10 + state["segment"]


def log(state: dict, **entry) -> None:
    """The public record of this round and the last (views show it). It names spells, never
    card ids: a card may go back into the book with a reshuffle, and then nobody may know where
    it is."""
    state["log"].append({"round": state["round"], "segment": state["segment"], **entry})


def names(cards) -> list[str]:
    """Spell names of cards, for the public record."""
    return [kind(c).key for c in cards]


def discard(state: dict, cards) -> None:
    """4.1.7: spent spells go to the discard pile."""
    state["discard"].extend(cards)


def owe(state: dict, seat: int, count: int = 1) -> None:
    """A seat is owed ``count`` cards from the spell book, drawn before anything else happens."""
    state["owed"].extend([seat] * count)


def draw_owed(state: dict) -> bool:
    """Draw owed cards; False while the book is empty but the discard pile is not (a reshuffle,
    2, is the next chance event). With both empty the debt lapses (D7)."""
    while state["owed"]:
        seat = state["owed"][0]
        if state["out"][seat]:
            state["owed"].pop(0)
            continue
        if not state["deck"]:
            if state["discard"]:
                return False
            state["owed"] = []
            return True
        state["owed"].pop(0)
        state["hands"][seat].append(state["deck"].pop(0))
        if not state["deck"] and state["book_bottom"] is not None:
            # everyone saw that spell cut to the bottom (D24): now they know who holds it
            state["known"].append([seat, state["book_bottom"], state["reshuffles"]])
            state["book_bottom"] = None
    return True


def reshuffle(state: dict, outcome: list[int]) -> None:
    """2: when the book is used up, the discard pile is shuffled into a new book. Everyone saw
    that pile, so which cards may be in the new book is public: each card remembers the
    reshuffle that last put it into the book (``shuffled_in``)."""
    pile = state["discard"]
    state["deck"], state["discard"] = [pile[i] for i in outcome], []
    state["reshuffles"] += 1
    for card in pile:
        state["shuffled_in"][card] = state["reshuffles"]
    log(state, event="reshuffle", cards=len(pile))


def shuffle_of(state: dict, card: str) -> int:
    """The shuffle a card in a hand or the book came from: 0 the deal, n the n-th reshuffle."""
    return state["shuffled_in"].get(card, 0)


def refill(state: dict, seat: int) -> None:
    """4.8: a banished wizard fills his hand up to seven."""
    owe(state, seat, max(0, HAND_SIZE - len(state["hands"][seat]) - state["owed"].count(seat)))


def take(state: dict, seat: int, cards) -> None:
    """Cards leave a hand (cast, conjured, learned away). A spell everyone knew this hand held
    (``known``) is forgotten once a card of that spell and shuffle leaves it: nobody can tell
    whether it was that one."""
    for card in cards:
        state["hands"][seat].remove(card)
        fact = [seat, kind(card).key, shuffle_of(state, card)]
        if fact in state["known"]:
            state["known"].remove(fact)


def pay(state: dict, seat: int, amount: int) -> bool:
    """4.1.6: pay when casting; D3: energy never goes below zero. True if it is all spent, which
    banishes the wizard (4.8 b)."""
    state["energy"][seat] = max(0, state["energy"][seat] - amount)
    return state["energy"][seat] == 0


def banish(state: dict, seat: int, threat: dict | None = None) -> None:
    """4.1.2, 4.8: into limbo at once: out of the duel, hand refilled to seven; the wizard who
    directly caused it earns 30 energy (4.1.3) unless 4.1.4 or 8.5.4 says no."""
    if state["out"][seat] or state["role"][seat] == "limbo":
        return
    state["role"][seat], state["banished_at"][seat] = "limbo", state["segment"]
    if threat is not None and threat["walking"]:  # 8.5.6 (D27): sent by a wandering creature
        state["creature_banished"][seat] = True
    if seat in state["circle"]:
        state["circle"].remove(seat)
    refill(state, seat)
    log(state, event="banished", seat=seat)
    if threat is not None and threat["sender"] != seat:  # nobody earns for banishing himself
        reward(state, threat)


def reward(state: dict, threat: dict) -> None:
    """4.1.3 the 30-energy bonus to the sender; 4.1.4 none for an attack that spent the caster's
    whole energy; 8.5.4 a wanderer's creator gets none while in limbo himself (option, D1)."""
    sender = threat["sender"]
    if sender is None or state["out"][sender] or threat.get("no_bonus"):
        return
    if (threat.get("walking") and sender == threat["caster"] and state["role"][sender] == "limbo"
            and not state["options"]["wander_bonus_in_limbo"]):
        return
    state["energy"][sender] += BONUS
    log(state, event="bonus", seat=sender, energy=BONUS)


def leave(state: dict, seat: int) -> None:
    """4.8.5, 6: the wizard leaves the game; his cards go to the discard pile."""
    if state["out"][seat]:
        return
    state["out"][seat], state["left_at"][seat], state["role"][seat] = True, stamp(state), "out"
    discard(state, state["hands"][seat])
    state["hands"][seat] = []
    state["known"] = [fact for fact in state["known"] if fact[0] != seat]
    state["owed"] = [s for s in state["owed"] if s != seat]
    if seat in state["circle"]:
        state["circle"].remove(seat)
    log(state, event="left", seat=seat)


def leave_if_broke(state: dict) -> None:
    """4.8.5: a banished wizard who cannot pay 30 energy to return leaves the game at once
    (D18: a return that would leave him with nothing is no return)."""
    if "limbo" not in state["role"]:
        return  # nobody is banished (the interpreter asks before every task)
    for seat in alive(state):
        if state["role"][seat] == "limbo" and state["energy"][seat] <= RETURN_COST:
            leave(state, seat)


def return_from_limbo(state: dict, seat: int) -> None:
    """4.8.2-4.8.4: back for 30 energy; during the duel he learns for the rest of it (4.8.3)."""
    pay(state, seat, RETURN_COST)
    state["role"][seat], state["banished_at"][seat] = "away", None
    log(state, event="returned", seat=seat)


def is_over(state: dict) -> bool:
    """True once the match has ended (6, D5)."""
    return state["phase"] == "over"


def end_game(state: dict, reason: str) -> None:
    """6, D25: the last wizard in the game wins; wizards who left in the same segment share a
    place. D5: at the round limit the wizards still in the game place by energy."""
    state["phase"], state["tasks"] = "over", []
    scores = []
    for seat in range(state["players"]):
        if state["out"][seat]:
            scores.append(state["left_at"][seat])
        else:
            scores.append(10_000 + (state["energy"][seat] if reason == "round limit" else 0))
    state["scores"], state["end_reason"] = scores, reason


def standing_scores(state: dict) -> list[int]:
    """6, D5, D25: the scores the round limit would give as the match stands: a wizard who left
    the stamp of his leaving, one in the game 10,000 + his energy, less the 30 that a wizard in
    limbo pays to return by the balance at the latest (4.8.3, 4.8.4; he has more than 30, or
    he would have left, 4.8.5); a forfeited seat below all (D12)."""
    scores = []
    for seat in range(state["players"]):
        if seat in state["forfeited"]:
            scores.append(-1)
        elif state["out"][seat]:
            scores.append(state["left_at"][seat])
        else:
            limbo = RETURN_COST if state["role"][seat] == "limbo" else 0
            scores.append(10_000 + state["energy"][seat] - limbo)
    return scores


def check_end(state: dict) -> bool:
    """6: one wizard left (or none, when the last two leave together)."""
    if not is_over(state) and state["out"].count(False) <= 1:
        end_game(state, "last wizard")
    return is_over(state)


def push(state: dict, *tasks: dict) -> None:
    """Put tasks in front of the list, in the order given."""
    state["tasks"][0:0] = list(tasks)


def clockwise_from(state: dict, seat: int) -> list[int]:
    """All seats clockwise from ``seat`` (D15), ``seat`` first."""
    n = state["players"]
    return [(seat + i) % n for i in range(n)]


def clone(state: dict) -> dict:
    """A deep copy: apply never changes the state it is given. The state is plain JSON, which a
    pickle round trip copies several times faster than copy.deepcopy; every apply of a fold and
    of a search's playouts starts here (bench/search.py measures apply)."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


_SCALARS = (str, int, bool, type(None), float)


def copy_action(action):
    """``clone`` of an action (a JSON value): a dict of plain values and lists of strings, as
    every Warlock action is, copied directly; anything else through ``clone``. What
    ``Warlock.decide`` hands the rules (tests/games/test_warlock_fast_paths.py)."""
    if type(action) is not dict:
        return clone(action)
    copy = {}
    for key, value in action.items():
        kind_ = type(value)
        if kind_ is list:
            for item in value:
                if type(item) is not str:
                    return clone(action)
            copy[key] = value.copy()
        elif kind_ in _SCALARS:
            copy[key] = value
        else:
            return clone(action)
    return copy


# The state's values that hold plain values only (rules.new_state): a shallow copy is a deep one.
_FLAT = frozenset(("options", "wizard", "energy", "deck", "discard", "owed", "out", "left_at",
                   "forfeited", "role", "banished_at", "creature_banished", "exhausted", "circle",
                   "scores", "shuffled_in"))
_ROWS = frozenset(("hands", "known"))  # lists of lists of plain values


def clone_state(state: dict) -> dict:
    """``clone`` of a state, key for key in its order, but for the log's entries: the flat
    lists and dicts (the spell book above all) by slicing, the hands and facts row by row, the
    log as a new list of the same entries (no rule changes an entry once written, a test
    holds it), the rest (tasks, threats, walks, choices, cut) through one pickle round trip;
    what ``apply`` copies (bench/search.py)."""
    nested = clone({key: value for key, value in state.items()
                    if key not in _FLAT and key not in _ROWS and key != "log"
                    and isinstance(value, (list, dict))})
    copy = {}
    for key, value in state.items():
        if key in _FLAT:
            copy[key] = value.copy() if value is not None else None
        elif key in _ROWS:
            copy[key] = [row.copy() for row in value]
        elif key == "log":
            copy[key] = value.copy()
        else:
            copy[key] = nested.get(key, value)
    return copy
