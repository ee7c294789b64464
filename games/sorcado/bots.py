"""The heuristic built-in bot for Sorcado.

It reads only its view: the cards it has looked at (``known``), its hand and face-down cards,
and what is public (who placed a card beside which row or column, ban tokens, factions). For
each realm position it estimates its *control*: its own power beside the position's row and
column minus the strongest opponent's, counting an opponent's face-down card as the average
mage card (3) and, in the corners placement, the slots still to fill at the average of the
hands. The chance to capture a card is a logistic function of control; every decision (look,
swap, place, ban, a spell's choice) picks the option that most raises the expected points.
"""
from __future__ import annotations

import math

from games.engine.bots import Bot

from .content import (BANNER_WINS, CARD, COLUMN_ONLY, MAGE_POWER, REALM_CARDS, ROW_ONLY,
                      corner_slots, position_slots, slot_positions)

AVERAGE_MAGE = 3.0  # every faction's eight cards sum to 24 (content.POWERS)


def capture_chance(control: float) -> float:
    """A logistic guess of winning a contest with this lead in power."""
    return 1.0 / (1.0 + math.exp(-control / 2.0))


class Estimate:
    """What the bot believes about the realm and the slots, from one view."""

    def __init__(self, view: dict):
        self.view, self.seat = view, view["seat"]
        known, discard = view["known"], set(view["discard"])
        pool = [CARD[c].strength for c in REALM_CARDS if c not in known and c not in discard]
        self.unknown_value = sum(pool) / len(pool) if pool else 0.0
        self.mine = self._own_power()
        self.theirs = self._opponent_power()

    def _own_power(self) -> dict[str, float]:
        """Power per slot: cards laid, plus the hand's average on corner slots still to fill."""
        power = {}
        for slot, card in self.view["my_placed"]:
            power[slot] = power.get(slot, 0.0) + MAGE_POWER[card]
        hand = [MAGE_POWER[c] for c in self.view["hand"]]
        corners = self.view["corners"]
        if corners and hand:
            for slot in corner_slots(corners[self.seat]):
                power.setdefault(slot, sum(hand) / len(hand))
        return power

    def _opponent_power(self) -> list[dict[str, float]]:
        """Per opponent, power per slot: the average card for each card laid or still due."""
        view, result = self.view, []
        for other in range(view["players"]):
            if other == self.seat:
                continue
            power = {slot: AVERAGE_MAGE * seats.count(other) for slot, seats in view["slots"].items()}
            if view["corners"] and view["hand_sizes"][other]:
                for slot in corner_slots(view["corners"][other]):
                    if other not in view["slots"][slot]:
                        power[slot] += AVERAGE_MAGE
            result.append(power)
        return result

    def value(self, card: str | None) -> float:
        """The points a realm card is worth: its strength if seen, else the unseen average."""
        return CARD[card].strength if card else self.unknown_value

    def control(self, pos: int, card: str | None, mine: dict | None = None) -> float:
        """Own power beside the lines that count for ``card`` at ``pos`` minus the strongest
        opponent's, with the card's faction modifier and margin (M.1, M.2, M.4)."""
        mine = self.mine if mine is None else mine
        monster = CARD[card] if card else None
        row, column = position_slots(pos)
        slots = (row if not monster or monster.special != COLUMN_ONLY else ()) + \
                (column if not monster or monster.special != ROW_ONLY else ())
        own = sum(mine.get(s, 0.0) for s in slots)
        rival = max((sum(p.get(s, 0.0) for s in slots) for p in self.theirs), default=0.0)
        if monster:
            own += monster.modifiers.get(self.view["factions"][self.seat], 0) - (monster.margin - 1)
        return own - rival

    def expected(self, pos: int, card: str | None = None, mine: dict | None = None,
                 here: bool = True) -> float:
        """Expected points from ``card`` (unseen: None) at ``pos``; ``here``: the card there now."""
        card = self.view["known"][pos] if here else card
        if card and CARD[card].special == BANNER_WINS and self.view["bans"][pos] is not None:
            return CARD[card].strength * (self.view["bans"][pos] == self.seat)
        return self.value(card) * capture_chance(self.control(pos, card, mine))

    def swap_gain(self, a: int, b: int) -> float:
        """Expected points won by exchanging the cards at ``a`` and ``b``."""
        ca, cb = self.view["known"][a], self.view["known"][b]
        before = self.expected(a) + self.expected(b)
        return self.expected(a, cb, here=False) + self.expected(b, ca, here=False) - before


class HeuristicBot(Bot):
    """Looks where a swap can pay or where it knows least, swaps when it pays, lays strong cards
    beside valuable lines, bans what it is winning."""

    name = "heuristic"

    def act(self, message: dict):
        view, legal = message["view"], message["legal_actions"]
        decide = getattr(self, f"decide_{view['phase']}", None)
        choice = decide(Estimate(view), legal) if decide and "seat" in view else None
        return choice if choice in legal else self.rng.choice(legal)

    def decide_faction(self, est: Estimate, legal: list) -> dict:
        return self.rng.choice(legal)

    def decide_look(self, est: Estimate, legal: list) -> dict:
        """First look: a known card worth moving, else the unseen card in the strongest line;
        second look: the best swap partner for the first card."""
        looked = est.view["looked"]
        positions = [a["pos"] for a in legal]
        if looked:
            first = looked[0]
            return _pick(legal, lambda a: est.swap_gain(first, a["pos"])
                         + 0.3 * (est.view["known"][a["pos"]] is None) + 0.01 * self.rng.random())
        best_move = max(((est.swap_gain(a, b), a) for a in positions if est.view["known"][a]
                         for b in positions if b != a), default=(0.0, None))
        if best_move[0] > 0.5:
            return {"type": "look", "pos": best_move[1]}
        unseen = [p for p in positions if est.view["known"][p] is None] or positions
        return {"type": "look",
                "pos": max(unseen, key=lambda p: (abs(est.control(p, None)), self.rng.random()))}

    def decide_swap(self, est: Estimate, legal: list) -> dict:
        a, b = est.view["looked"]
        return {"type": "swap"} if est.swap_gain(a, b) > 0 else {"type": "keep"}

    def decide_place(self, est: Estimate, legal: list) -> dict:
        """The card and slot that most raise the expected points of the slot's line."""
        def gain(action: dict) -> float:
            slot, power = action["slot"], MAGE_POWER[action["card"]]
            after = dict(est.mine)
            after[slot] = power + sum(MAGE_POWER[c] for s, c in est.view["my_placed"] if s == slot)
            return sum(est.expected(p, mine=after) - est.expected(p) for p in slot_positions(slot))
        return _pick(legal, lambda a: gain(a) + 0.001 * self.rng.random())

    def decide_ban(self, est: Estimate, legal: list) -> dict:
        """Ban a basilisk it knows; else protect a valuable card it is winning."""
        def worth(action: dict) -> float:
            if action["type"] == "pass":
                return 2.0
            pos, card = action["pos"], est.view["known"][action["pos"]]
            if card and CARD[card].special == BANNER_WINS:
                return 10.0
            return est.expected(pos) if card else 0.0
        return _pick(legal, worth)

    def decide_divine(self, est: Estimate, legal: list) -> dict:
        """Look under a ban token if possible (nothing else can), else at an unseen card."""
        def worth(action: dict) -> float:
            pos = action["pos"]
            return (est.view["known"][pos] is None) * (1 + (est.view["bans"][pos] is not None)
                                                       + 0.01 * abs(est.control(pos, None)))
        return _pick(legal, worth)

    def decide_transpose(self, est: Estimate, legal: list) -> dict:
        return _pick(legal, lambda a: 0.1 if a["type"] == "keep" else est.swap_gain(a["a"], a["b"]))


def _pick(legal: list, score) -> dict:
    """The legal action with the highest score (the first of equals)."""
    return max(legal, key=score)
