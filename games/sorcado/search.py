"""Sorcado's tuning of the generic search bot, played under the name ``search``: a model of how
the other seats lay their cards, in its determinizations.

The generic search (games/engine/search.py) draws what its seat cannot see uniformly among the
states the view allows (games/sorcado/determinize.py): another seat's face-down mage cards are
any of its faction's eight, laid in any order. Sorcado is a game of hidden cards, and what the
generic search lacks against the heuristic bot is what they are, not time: given the true
state in place of a draw, the same search won 147 of 195 deals (75 %) where it won 109 drawing
(BENCHMARKS.md, notes of 2026-11-28).

The view says more than a uniform draw takes in: the order in which every seat laid its cards is
public (D7, the view's ``laid``). A card raises the capture chance of every realm position in
its row and column, a stronger card by more (W.1, W.2), and every place a seat may use is open
from its first card (V.4a, V.4b), so the card that most raises a seat's expected points now is
its strongest, wherever it goes: a seat that plays greedily for points lays its cards strongest
first, 6 5 4 3 3 2 1 0. The heuristic bot does: every seat of 180 of its games against itself
(2-4 players, both placements) laid its cards in that order. A seat may play otherwise: lay a 0
early as a bluff (D20), or keep a strong card to answer a rival's last cards.

This tuning changes one thing: **``BELIEF`` (0.75) of its determinizations believe that model**:
another seat's laid cards are the strongest of its eight, the first laid the strongest (copies
of one power in either order), and its hand is the rest; the other quarter draws as the generic
search does, so that a seat that lays otherwise is never ruled out. Everything else a
determinization holds (the realm, what each seat knows, the mage shuffles) is the generic
draw's, and every determinization is one the view allows: the model only chooses among them
(tests/games/test_sorcado_search.py checks ``view`` of modelled draws against the view they came
from).

Measured by bench/search.py (200 ms of CPU time a move against the heuristic bot, 200 games):
135 wins (67.5 %), where the generic search won 111 (BENCHMARKS.md). Against a heuristic bot
that lays a random card of its hand, where the model is wrong: 47 of 100 deals, the generic
search 55 (23 better, 31 worse; the note of 2026-11-28 there). The iteration, the prior and the rule for leaving it are the
generic search's own code.
"""
from __future__ import annotations

from games.engine.search import SearchBot

from .content import CONTENT, MAGE_POWER

BELIEF = 0.75  # the share of determinizations that lay another seat's strongest cards first


def strongest_first(view: dict, state: dict, seat: int, content: int) -> dict:
    """``state`` (a determinization of ``view`` for ``seat``) with every other seat's laid cards
    the strongest of its faction's, in the order laid, and its hand the rest; changed in place
    and returned. At the end of a game the laid cards are face up and nothing is changed."""
    if "placed" in view or "laid" not in view:  # W.1: all face up; version 1 keeps no order
        return state
    for other, faction in enumerate(view["factions"]):
        slots = view["laid"][other]
        if other == seat or not faction or not slots:
            continue
        cards = CONTENT[content].mage_cards[faction]
        ranked = sorted(cards, key=lambda card: -MAGE_POWER[card])  # stable: copies in order
        laid, kept = ranked[:len(slots)], set(ranked[len(slots):len(slots) + view["hand_sizes"][other]])
        state["placed"][other] = [[slot, card] for slot, card in zip(slots, laid)]
        state["hands"][other] = [card for card in cards if card in kept]  # a hand's own order
    return state


class _Modelled:
    """The rules as this search plays them: the game's own, but ``determinize`` believes the
    model of the module docstring ``BELIEF`` of the time (drawn with the search's own rng).

    The shape of games/engine/tuning.py's ``Evaluated`` (which replaces ``score_now``, not
    ``determinize``); a wrapper for both there would change Imperial Twing's search code, and
    so its bench fingerprint, for no change of its play."""

    def __init__(self, ruleset):
        self.rules = ruleset
        self.next, self.legal_actions = ruleset.next, ruleset.legal_actions
        self.apply_in_place = ruleset.apply_in_place

    def determinize(self, view: dict, seat: int, rng) -> dict:
        state = self.rules.determinize(view, seat, rng)
        if rng.random() < BELIEF:
            strongest_first(view, state, seat, self.rules.spec.version)
        return state

    def __getattr__(self, name):
        return getattr(self.rules, name)


class SorcadoSearchBot(SearchBot):
    """The generic search with the opponent model of the module docstring."""

    def __init__(self, ruleset, seed: int = 0, **kwargs):
        super().__init__(ruleset, seed, **kwargs)  # the prior (heuristic) plays the rules as they are
        self.ruleset = _Modelled(ruleset)

