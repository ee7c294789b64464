"""What a seat knows of the cards it cannot see, and ``determinize`` (issue 15.1).

Copies of a spell look alike (card ids are the engine's; a cut shows the spell, never the id,
D24), so what a seat knows of a hidden card is its spell and where it may be:

- the unseen cards are the 128 less those the seat sees: its hand, the discard pile, the spells
  on the table;
- each came from a shuffle: the deal (0) or a reshuffle of the discard pile, which everyone saw
  (n). The book holds cards of the newest shuffle only, and everyone can count how many cards of
  each shuffle a hand holds (cards drawn since, less those that left it face up);
- the spell cut to the bottom of the book (D24) while it lies there, and who drew it then.

``shuffles_view`` writes this into a seat's view (the field ``shuffles``); ``determinize`` deals
the unseen cards at random within it, then draws the secret choices other seats have made.
"""
from __future__ import annotations

from collections import Counter

from . import rules
from .content import CARD_IDS, kind
from .core import clone, shuffle_of

IDS_OF = {}  # spell -> its card ids, in the order of CARD_IDS
for _card in CARD_IDS:
    IDS_OF.setdefault(kind(_card).key, []).append(_card)

DEALS = 8  # deals drawn until every pending decision has a choice, before one is seeded



# -- the view ------------------------------------------------------------------------------------

def shuffles_view(state: dict, seat: int) -> list[dict]:
    """Per shuffle that still has cards in a hand or the book: how many each hand holds, how many
    the book holds, the spells of those ``seat`` has not seen, and ``seat``'s own."""
    players, groups = state["players"], {}

    def group(number: int) -> dict:
        if number not in groups:
            groups[number] = {"shuffle": number, "hands": [0] * players, "book": 0,
                              "unseen": Counter(), "mine": []}
        return groups[number]

    for holder, hand in enumerate(state["hands"]):
        for card in hand:
            entry = group(shuffle_of(state, card))
            entry["hands"][holder] += 1
            if holder == seat:
                entry["mine"].append(card)
            else:
                entry["unseen"][kind(card).key] += 1
    if state["deck"]:
        entry = group(state["reshuffles"])
        entry["book"] = len(state["deck"])
        entry["unseen"].update(kind(card).key for card in state["deck"])
    return [dict(groups[n], unseen=dict(sorted(groups[n]["unseen"].items())))
            for n in sorted(groups)]


def flow_view(state: dict) -> dict:
    """The engine's public bookkeeping, enough with the rest of the view to rebuild the state."""
    return {"tasks": clone(state["tasks"]), "threats": clone(state["threats"]),
            "walks": clone(state["walks"]), "owed": list(state["owed"]),
            "banished_at": list(state["banished_at"]),
            "creature_banished": list(state["creature_banished"]), "left_at": list(state["left_at"]),
            "reflections": state["reflections"], "next_threat": state["next_threat"],
            "reshuffles": state["reshuffles"], "book_bottom": state["book_bottom"],
            "known": [{"seat": s, "spell": spell, "shuffle": n} for s, spell, n in state["known"]]}


# -- determinize ---------------------------------------------------------------------------------

def determinize(view: dict, seat: int, rng) -> dict:
    """A state ``seat`` cannot tell from the one its view was made of: the public part copied,
    the unseen cards dealt at random within what the seat knows, the secret choices other seats
    have made drawn from their legal actions."""
    state = public_state(view)
    pools = Pools(view, seat)
    state["shuffled_in"] = pools.shuffled_in()
    pending = pending_choices(state, seat)
    for attempt in range(DEALS + len(pending)):
        pools.deal(state, rng)
        stuck = [(task, holder) for task, holder in pending
                 if not rules.options_for(state, task, holder)]
        if not stuck:
            break
        if attempt >= DEALS - 1:  # a hand that rarely comes up at random: seed it, deal again
            for task, holder in stuck:
                pools.seed(state, task, holder, rng)
    if view["my_choice"] is not None:
        state["choices"][str(seat)] = clone(view["my_choice"]["action"])
    draw_choices(state, view, seat, rng)
    return state


def public_state(view: dict) -> dict:
    """Everything of the state the view shows (the hidden cards and choices come later)."""
    flow = view["flow"]
    return {
        "players": view["players"], "options": dict(view["options"]), "round": view["round"],
        "segment": view["segment"], "phase": "over" if view["phase"] == "over" else "play",
        "wizard": [None if w is None else w["name"] for w in view["wizards"]],
        "energy": list(view["energy"]), "hands": [], "deck": [], "discard": list(view["discard"]),
        "owed": list(flow["owed"]), "out": [not inside for inside in view["in_game"]],
        "left_at": list(flow["left_at"]), "forfeited": list(view["forfeited"]),
        "role": list(view["roles"]), "banished_at": list(flow["banished_at"]),
        "creature_banished": list(flow["creature_banished"]),
        "exhausted": list(view["exhausted"]), "dm": view["duel_master"],
        "next_dm": view["next_duel_master"], "circle": list(view["circle"]), "choices": {},
        "threats": clone(flow["threats"]), "walks": clone(flow["walks"]),
        "cut": None if view["cut"] is None else dict(view["cut"]),
        "reflections": flow["reflections"], "next_threat": flow["next_threat"],
        "log": clone(view["log"]),
        "scores": None if view["scores"] is None else list(view["scores"]),
        "end_reason": view["end_reason"], "tasks": clone(flow["tasks"]),
        "reshuffles": flow["reshuffles"], "shuffled_in": {}, "book_bottom": flow["book_bottom"],
        "known": [[fact["seat"], fact["spell"], fact["shuffle"]] for fact in flow["known"]],
    }


def pending_choices(state: dict, seat: int) -> list[tuple[dict, int]]:
    """The decisions of other seats that only a hand holding the right cards can have: the one
    under way (a defence wave, a ward, a Witch's spell: the rules made them because the seat
    could act) and the Witch spells waiting behind it (8.3: she was cast because she could)."""
    tasks = state["tasks"]
    if state["phase"] == "over" or not tasks:
        return []
    head, pending = tasks[0], []
    if head["kind"] in rules.SIMULTANEOUS:
        pending += [(head, s) for s in head["seats"] if s != seat]
    elif head["kind"] in rules.DECISIONS and head["seat"] != seat:
        pending.append((head, head["seat"]))
    pending += [(task, task["seat"]) for task in tasks[1:]
                if task["kind"] == "conjure" and task["seat"] != seat]
    return pending


def draw_choices(state: dict, view: dict, seat: int, rng) -> None:
    """The secret choices other seats have made in the decision under way (3.1, 3.3.3, 3.3.4):
    drawn from what their determinized hands allow."""
    decision = view["decision"]
    if decision is None or "chosen" not in decision:
        return
    task = state["tasks"][0]
    for holder in decision["chosen"]:
        if holder != seat:
            state["choices"][str(holder)] = rng.choice(rules.options_for(state, task, holder))


class Pools:
    """The unseen cards of each shuffle, as card ids, and where the view says they are."""

    def __init__(self, view: dict, seat: int):
        self.seat, self.players = seat, view["players"]
        self.hand = list(view["hand"])
        self.groups = view["shuffles"]
        self.cards = self._cards_by_shuffle(view)
        self.reserved = self._known_places(view)

    def _cards_by_shuffle(self, view: dict) -> dict[int, list[str]]:
        """Card ids for the unseen spells of each shuffle: any unseen copy will do (copies of a
        spell are alike), taken in a fixed order so that the ids depend on the view only."""
        seen = set(self.hand) | set(view["discard"])
        _card_ids(view["flow"], seen)
        free = {spell: [c for c in ids if c not in seen] for spell, ids in IDS_OF.items()}
        cards = {}
        for group in self.groups:
            cards[group["shuffle"]] = [free[spell].pop() for spell, count in
                                       sorted(group["unseen"].items()) for _ in range(count)]
        return cards

    def _known_places(self, view: dict) -> dict[int, list[tuple[int | None, str]]]:
        """Per shuffle, (holder, card) placed before the deal: a spell known to be in a hand,
        and the spell cut to the bottom of the book (holder None)."""
        reserved = {n: [] for n in self.cards}
        flow = view["flow"]
        for fact in flow["known"]:
            if fact["seat"] != self.seat:
                self._reserve(reserved, fact["shuffle"], fact["seat"], fact["spell"])
        if flow["book_bottom"] is not None and view["deck_size"]:
            self._reserve(reserved, flow["reshuffles"], None, flow["book_bottom"])
        return reserved

    def _reserve(self, reserved: dict, number: int, holder: int | None, spell: str) -> None:
        """Set aside a card of ``spell`` from shuffle ``number`` for ``holder`` (None: the book)."""
        taken = {card for _, card in reserved[number]}
        card = next(c for c in self.cards[number] if kind(c).key == spell and c not in taken)
        reserved[number].append((holder, card))

    def shuffled_in(self) -> dict[str, int]:
        """The reshuffle each card in a hand or the book came from (0, the deal, left out)."""
        mine = {n["shuffle"]: n["mine"] for n in self.groups}
        return {card: number for number, cards in self.cards.items() if number
                for card in [*cards, *mine[number]]}

    def deal(self, state: dict, rng) -> None:
        """Fill the other hands and the book: the reserved cards first, the rest shuffled."""
        hands = [[] for _ in range(self.players)]
        hands[self.seat] = list(self.hand)
        deck = []
        for group in self.groups:
            number = group["shuffle"]
            reserved = self.reserved[number]
            taken = {card for _, card in reserved}
            rest = [c for c in self.cards[number] if c not in taken]
            rng.shuffle(rest)
            counts = list(group["hands"])
            bottom = []
            for holder, card in reserved:
                if holder is None:
                    bottom.append(card)
                else:
                    hands[holder].append(card)
                    counts[holder] -= 1
            start = 0
            for holder in range(self.players):
                if holder != self.seat and counts[holder]:
                    hands[holder] += rest[start:start + counts[holder]]
                    start += counts[holder]
            deck += rest[start:] + bottom  # only the newest shuffle has cards left over
        state["hands"], state["deck"] = hands, deck

    def seed(self, state: dict, task: dict, holder: int, rng) -> None:
        """Reserve for ``holder`` one or two unseen cards that give it a legal choice in ``task``
        (a hand holding them has one: more cards only add plays)."""
        room = {g["shuffle"]: g["hands"][holder] - self._held(g["shuffle"], holder)
                for g in self.groups}
        singles = {}  # one card per spell and shuffle will do
        for number, cards in self.cards.items():
            taken = {card for _, card in self.reserved[number]}
            for card in cards:
                if room[number] > 0 and card not in taken:
                    singles.setdefault((number, kind(card).key), (number, card))
        singles = list(singles.values())
        rng.shuffle(singles)
        pairs = [(a, b) for i, a in enumerate(singles) for b in singles[i + 1:]
                 if a[0] != b[0] or room[a[0]] >= 2]
        hand = state["hands"][holder]
        for choice in [(single,) for single in singles] + pairs:
            state["hands"][holder] = [card for _, card in choice]
            if rules.options_for(state, task, holder):
                for number, card in choice:
                    self.reserved[number].append((holder, card))
                break
        state["hands"][holder] = hand

    def _held(self, number: int, holder: int) -> int:
        """Cards of shuffle ``number`` reserved for ``holder`` so far."""
        return sum(1 for h, _ in self.reserved[number] if h == holder)


def _card_ids(value, into: set) -> None:
    """Every card id inside a JSON value (the spells on the table)."""
    if isinstance(value, str):
        if value.startswith("WL-"):
            into.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _card_ids(item, into)
    elif isinstance(value, list):
        for item in value:
            _card_ids(item, into)
