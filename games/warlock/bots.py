"""The heuristic built-in bot for Warlock.

It reads only its view and its legal actions. Ideas, each a rule of thumb a player would use:
duel whenever it can attack (learning costs 10 + 3 a segment and pays the duellists), pick and
redirect towards the weakest wizard (a banishment earns 30), attack and defend as cheaply as
possible (energy decides the balance, 3.3.5 and 4.2.3), wait in limbo until the balance (a
return costs the same 30 later and spares the learning fees), learn away the cards that do the
least, and stop learning when it may.
"""
from __future__ import annotations

from games.engine.bots import Bot

from . import combat
from .content import MAGIC_TABLE, PHYSICAL_TABLE, kind

# How many kinds of card answer each attack row (a rough "hard to defend" score).
ANSWERS = {key: len(row) for key, row in {**MAGIC_TABLE, **PHYSICAL_TABLE}.items()}
DEFENCE_KEYS = {d for row in list(MAGIC_TABLE.values()) + list(PHYSICAL_TABLE.values()) for d in row}


def usefulness(card: str) -> float:
    """How much a card in hand is worth keeping: defences and strong attacks most."""
    spell = kind(card)
    score = 0.0
    if spell.key in DEFENCE_KEYS:
        score += 2.0
    if spell.attack and spell.role != "weapon":
        score += 1.5 + (4 - ANSWERS.get(spell.key, 4)) * 0.3
    if spell.white is not None:
        score += max(spell.white, spell.black) * 0.2
    if spell.role in ("staff", "priest"):
        score -= 1.0
    return score - spell.cost * 0.05


class HeuristicBot(Bot):
    """Plays by the rules of thumb in the module doc."""

    name = "heuristic"

    def act(self, message: dict):
        view, legal = message["view"], message["legal_actions"]
        kind_ = legal[0]["type"]
        chooser = getattr(self, f"_{kind_}", None)
        choice = chooser(view, legal) if chooser else None
        return choice if choice in legal else legal[0]

    # -- decisions ---------------------------------------------------------------------------
    def _decide(self, view, legal):
        """Duel whenever the hand can attack: learning costs 10 now (paid to the duellists) and
        3 a segment, while a duellist's spells cost only what he casts."""
        hand = view["hand"]
        attacks = combat.attack_plays(hand, view["energy"][self.seat])
        return {"type": "decide", "choice": "duel" if attacks else "learn"}

    def _weakest(self, view, seats):
        return min(seats, key=lambda s: (view["energy"][s], s))

    def _pick(self, view, legal):
        victim = self._weakest(view, [a["victim"] for a in legal])
        return {"type": "pick", "victim": victim}

    def _redirect(self, view, legal):
        return {"type": "redirect", "victim": self._weakest(view, [a["victim"] for a in legal])}

    def _return(self, view, legal):
        return {"type": "wait"}

    def _swap(self, view, legal):
        swaps = [a for a in legal if a["type"] == "swap"]
        stop = {"type": "stop"}
        if stop in legal:
            return stop
        return min(swaps, key=lambda a: usefulness(a["card"]))

    def _stop(self, view, legal):
        return {"type": "stop"}

    def _attack(self, view, legal):
        """The cheapest attack, the Witch first (her spell is free); among equals the one
        fewest cards answer."""
        def price(action):
            cards = action["cards"]
            if kind(cards[0]).role == "witch":
                return -1.0
            where = combat.row(cards)
            answers = ANSWERS.get(where[1], 0) if where else 0
            return combat.cost(cards) + 0.1 * answers
        return min(legal, key=price)

    def _mock(self, view, legal):
        return legal[0]

    def _defend(self, view, legal):
        """The cheapest defence (the Witch counts as her own cost only). Against a wandering
        creature the spell it laid this segment (8.5) counts at what it cost: using it costs no
        energy now but gives up an attack worth about that much; a hand spell wins a tie."""
        return min(legal, key=lambda a: combat.cost(a["cards"]))

    def _conjure(self, view, legal):
        defences = [a for a in legal if a["as"] == "defence"]
        if defences:
            return defences[0]
        return max(legal, key=lambda a: combat.cost(a["cards"]))

    def _influence(self, view, legal):
        return {"type": "influence", "choice": "defend"}

