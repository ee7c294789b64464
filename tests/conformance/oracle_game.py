"""Oracle: a small TEST-ONLY game that carries everything the engine contract must carry.

It is not a real rulebook and is never registered under games/; tests/conformance/conftest.py
registers it as "test-oracle". A match, for 2-7 seats and ``rounds`` rounds:

1. Deal (chance, the first event): a shuffle of the 40 cards. Each seat gets ``rounds`` face-down
   cards only it knows; 3 cards lie face-down in the centre; the rest stay face-down, unused.
2. Each round, in seat order (starting one seat later each round), a seat may peek at one centre
   card ({"type": "peek", "centre": i}) or pass. Everyone sees *that* it peeked at slot i; only
   the peeker learns the card.
3. Sealed bid (simultaneous): every seat in play bids a card from its hand ({"type": "bid",
   "card": "B7"}), one event per seat. Pending bids stay hidden until all have bid; then all bids
   are revealed and the highest (rank, then suit A<B<C<D) wins the trick.
4. The trick winner rolls one die (chance) and gets that many steps; each step moves one of its
   2 tokens onto a centre slot ({"type": "move", "token": t, "to": j}); {"type": "end"} ends the
   turn (the only action once the steps are spent).

Score: tricks won plus the rank of the centre card under each of the seat's tokens. A forfeited
seat leaves play (its pending bid is withdrawn) and is placed last; when one seat is left in
play, the match ends. Events are bounded: see ``max_events``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from games.engine.protocol import (Chance, Ended, GameSpec, IllegalAction, Result, Ruleset,
                                   ToAct, option)

SUITS = "ABCD"
CARDS = [f"{suit}{rank}" for suit in SUITS for rank in range(1, 11)]  # "A1" .. "D10", all distinct
CENTRE = 3
TOKENS = 2


def rank(card: str) -> int:
    return int(card[1:])


def strength(card: str) -> tuple[int, int]:
    """Bids compare by rank, then by suit (A < B < C < D), so no two bids tie."""
    return rank(card), SUITS.index(card[0])


@dataclass(frozen=True)
class OracleOptions:
    rounds: int = option(3, "Rounds played; also the hand size.", min=1, max=5)


class Oracle(Ruleset):
    """The rules of Oracle; the state is a plain JSON dict and ``apply`` works on a deep copy."""

    spec = GameSpec(name="test-oracle", title="Oracle (test-only)", version=1, min_players=2,
                    max_players=7, chance=True, hidden_information=True, simultaneous=True,
                    rulebook="(tests/conformance/oracle_game.py)")
    Options = OracleOptions

    # -- contract -------------------------------------------------------------------------------
    def setup(self, players, options):
        """Before the deal: nothing dealt, every seat in play."""
        self.check_players(players)
        return {"players": players, "rounds": options.rounds, "round": 0, "phase": "deal",
                "hands": [[] for _ in range(players)], "centre": [], "unused": [],
                "peeks": [[] for _ in range(players)], "to_peek": [],
                "bids": [None] * players, "revealed": [None] * players, "won": [0] * players,
                "tokens": [[None] * TOKENS for _ in range(players)],
                "in_play": [True] * players, "winner": None, "steps": 0}

    def next(self, state):
        """Deal and roll are chance nodes; peek and move one seat; the bid all seats still to bid."""
        phase = state["phase"]
        if phase == "deal":
            return Chance({"kind": "shuffle", "n": len(CARDS)})
        if phase == "over":
            return Ended(Result.from_scores(self.scores(state), last=frozenset(
                seat for seat, playing in enumerate(state["in_play"]) if not playing)))
        if phase == "peek":
            return ToAct((state["to_peek"][0],))
        if phase == "bid":
            return ToAct(tuple(seat for seat in range(state["players"])
                               if state["in_play"][seat] and state["bids"][seat] is None))
        if phase == "roll":
            return Chance({"kind": "dice", "count": 1, "sides": 6})
        return ToAct((state["winner"],))

    def legal_actions(self, state, seat):
        """The whole action list of the current decision (small in every phase)."""
        nxt = self.next(state)
        if not isinstance(nxt, ToAct) or seat not in nxt.seats:
            return []
        if state["phase"] == "peek":
            return [{"type": "pass"}] + [{"type": "peek", "centre": i} for i in range(CENTRE)
                                         if i not in state["peeks"][seat]]
        if state["phase"] == "bid":
            return [{"type": "bid", "card": card} for card in state["hands"][seat]]
        moves = [{"type": "move", "token": t, "to": j} for t in range(TOKENS) for j in range(CENTRE)
                 if state["steps"] > 0 and state["tokens"][seat][t] != j]
        return moves + [{"type": "end"}]

    def check(self, state, seat, action):
        """Strict: the action must equal a legal one as JSON (so True is not 1, 1.0 is not 1)."""
        legal = self.legal_actions(state, seat)
        if any(_same_json(action, candidate) for candidate in legal):
            return
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(f"an action is an object with a string 'type', got {action!r}")
        kinds = sorted({candidate["type"] for candidate in legal})
        if action["type"] not in kinds:
            raise IllegalAction(f"{action['type']!r} is not possible now; possible: {kinds}")
        raise IllegalAction(f"{action!r} is not one of the legal {action['type']!r} actions now")

    def apply(self, state, event):
        """The next state; ``state`` itself is never changed."""
        state = copy.deepcopy(state)
        if event.kind == "forfeit":
            self._forfeit(state, event.seat)
        elif event.kind == "chance":
            self._chance(state, event.payload["outcome"])
        elif event.kind == "action":
            self._act(state, event.seat, event.payload["action"])
        else:
            raise IllegalAction(f"an engine never sees {event.kind!r} events")
        return state

    def view(self, state, seat):
        """Public: everything but cards; a seat also sees its hand, its peeks and its pending bid."""
        over = state["phase"] == "over"
        view = {"phase": state["phase"], "round": state["round"], "rounds": state["rounds"],
                "in_play": state["in_play"], "won": state["won"], "tokens": state["tokens"],
                "hand_sizes": [len(hand) for hand in state["hands"]], "peeks": state["peeks"],
                "has_bid": [bid is not None for bid in state["bids"]],
                "revealed": state["revealed"], "winner": state["winner"], "steps": state["steps"],
                "centre": state["centre"] if over else [None] * len(state["centre"])}
        if seat is not None:
            view["seat"] = seat
            view["hand"] = state["hands"][seat]
            view["my_bid"] = state["bids"][seat]
            view["peeked"] = {str(i): state["centre"][i] for i in state["peeks"][seat]}
        return copy.deepcopy(view)

    def encode(self, state):
        return copy.deepcopy(state)

    def decode(self, data):
        return copy.deepcopy(data)

    # -- test hooks (see tests/conformance/test_conformance.py) ----------------------------------
    def hidden_items(self, state, seat):
        """Cards ``seat`` knows privately; for ``None``, the cards nobody knows."""
        over = state["phase"] == "over"
        if seat is None:
            peeked = {i for peeks in state["peeks"] for i in peeks}
            unseen = [] if over else [c for i, c in enumerate(state["centre"]) if i not in peeked]
            return set(state["unused"]) | set(unseen)
        known = set(state["hands"][seat]) | ({state["bids"][seat]} - {None})
        return known if over else known | {state["centre"][i] for i in state["peeks"][seat]}

    @staticmethod
    def max_events(players: int, options) -> int:
        """Created, deal, ended; a forfeit per seat; per round: peeks, bids, a roll, 6 moves, end."""
        return 3 + players + options.rounds * (2 * players + 8)

    # -- rules ----------------------------------------------------------------------------------
    def scores(self, state):
        """Tricks won plus the rank of the centre card under each token."""
        return [state["won"][seat] + sum(rank(state["centre"][slot]) for slot in tokens
                                         if slot is not None)
                for seat, tokens in enumerate(state["tokens"])]

    def _chance(self, state, outcome):
        """Deal: hands of ``rounds`` cards, then the centre, the rest unused. Roll: the steps."""
        if state["phase"] == "deal":
            deck = [CARDS[i] for i in outcome]
            size = state["rounds"]
            state["hands"] = [deck[s * size:(s + 1) * size] for s in range(state["players"])]
            dealt = state["players"] * size
            state["centre"], state["unused"] = deck[dealt:dealt + CENTRE], deck[dealt + CENTRE:]
            self._start_round(state)
        elif state["phase"] == "roll":
            state["steps"], state["phase"] = outcome[0], "move"
        else:
            raise IllegalAction(f"no chance event in phase {state['phase']}")

    def _act(self, state, seat, action):
        """Peek/pass, bid, move/end: the current decision (already checked)."""
        kind = action["type"]
        if kind in ("peek", "pass"):
            if kind == "peek":
                state["peeks"][seat].append(action["centre"])
            state["to_peek"].pop(0)
            if not state["to_peek"]:
                state["phase"] = "bid"
        elif kind == "bid":
            state["hands"][seat].remove(action["card"])
            state["bids"][seat] = action["card"]
            self._resolve_bids_if_complete(state)
        elif kind == "move":
            state["tokens"][seat][action["token"]] = action["to"]
            state["steps"] -= 1
        else:  # end
            self._end_round(state)

    def _start_round(self, state):
        """Peeks go round the seats in play, starting one seat later each round."""
        players = state["players"]
        order = [(state["round"] + i) % players for i in range(players)]
        state["to_peek"] = [seat for seat in order if state["in_play"][seat]]
        state["phase"], state["winner"], state["steps"] = "peek", None, 0

    def _resolve_bids_if_complete(self, state):
        """Once every seat in play has bid, reveal all bids; the strongest wins the trick."""
        bids = [(bid, seat) for seat, bid in enumerate(state["bids"])
                if state["in_play"][seat] and bid is not None]
        if len(bids) < sum(state["in_play"]):
            return
        winner = max(bids, key=lambda bid_seat: strength(bid_seat[0]))[1]
        state["revealed"], state["bids"] = state["bids"], [None] * state["players"]
        state["won"][winner] += 1
        state["winner"], state["phase"] = winner, "roll"

    def _end_round(self, state):
        state["round"] += 1
        if state["round"] == state["rounds"]:
            state["phase"] = "over"
        else:
            self._start_round(state)

    def _forfeit(self, state, seat):
        """The seat leaves play: out of the peek order, its pending bid back to its hand; a
        trick winner's turn ends; one seat left in play ends the match."""
        if not state["in_play"][seat] or state["phase"] == "over":
            return
        state["in_play"][seat] = False
        if state["bids"][seat] is not None:
            state["hands"][seat].append(state["bids"][seat])
            state["bids"][seat] = None
        if sum(state["in_play"]) <= 1:
            state["phase"] = "over"
        elif state["phase"] == "peek":
            state["to_peek"] = [other for other in state["to_peek"] if other != seat]
            if not state["to_peek"]:
                state["phase"] = "bid"
        elif state["phase"] == "bid":
            self._resolve_bids_if_complete(state)
        elif state["phase"] in ("roll", "move") and state["winner"] == seat:
            self._end_round(state)


def _same_json(a, b) -> bool:
    """Equal as JSON values: unlike ==, True differs from 1 and 1.0 from 1."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    return a == b


ORACLE = Oracle()
