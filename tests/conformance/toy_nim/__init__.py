"""Nim: a TEST-ONLY toy game that shows what a new game is (docs/architecture.md, "Adding a game").

Its whole engine is this module on games.engine.dict_ruleset.DictRuleset, its schemas in
``schema/`` and its rules page ``rules.md``; tests/conformance/conftest.py registers it (its one
registry line, in TEST_GAMES) and the conformance suite plays it like every game. Never under
games/: the service does not ship it.

Rules (rules.md): a heap of ``heap`` stones; in turn, each seat in play takes 1 to ``max_take``
of them; whoever takes the last stone wins. A forfeited seat leaves the turn order; the last seat
in play wins.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from games.engine.dict_ruleset import DictRuleset
from games.engine.protocol import GameSpec, option


@dataclass(frozen=True)
class Options:
    heap: int = option(7, "R.1: stones on the heap at the start", min=1, max=30)
    max_take: int = option(3, "R.2: the most stones a seat may take in a turn", min=1, max=5)


def in_play(state: dict) -> list[int]:
    return [s for s in range(state["players"]) if s not in state["forfeited"]]


def refusal(state: dict, seat, action) -> str | None:
    """R.2: the seat to act takes 1 to max_take stones, no more than lie on the heap."""
    if state["phase"] != "play" or type(seat) is not int or seat != state["seat"]:
        return f"seat {seat!r} does not act now"
    if not isinstance(action, dict) or action.keys() != {"type", "n"} or action["type"] != "take":
        return 'an action is {"type": "take", "n": <stones>}'
    most = min(state["options"]["max_take"], state["heap"])
    if type(action["n"]) is not int or not 1 <= action["n"] <= most:
        return f"take 1 to {most} stones"
    return None


def pass_turn(state: dict, seat: int) -> None:
    """R.2: the next seat in play after ``seat`` acts; R.3, R.4: the game ends with a winner."""
    seats = in_play(state)
    if state["heap"] == 0 or len(seats) == 1:
        winner = seat if state["heap"] == 0 else seats[0]
        state["phase"], state["seat"] = "over", None
        state["scores"] = [int(s == winner) for s in range(state["players"])]
        return
    state["seat"] = next(s for s in seats if s > seat) if seats[-1] > seat else seats[0]


def take(state: dict, seat: int, action: dict) -> None:
    state["heap"] -= action["n"]
    pass_turn(state, seat)


def forfeit(state: dict, seat: int) -> None:
    """R.4: a forfeited seat leaves the turn order (placed last)."""
    if state["phase"] == "over" or seat in state["forfeited"]:
        return
    state["forfeited"] = sorted(state["forfeited"] + [seat])
    if seat == state["seat"] or len(in_play(state)) == 1:
        pass_turn(state, seat)


class Nim(DictRuleset):
    spec = GameSpec(name="test-nim", title="Nim (test-only)", version=1, min_players=2,
                    max_players=3, chance=False, hidden_information=False, simultaneous=False,
                    rulebook="(tests/conformance/toy_nim/rules.md)")
    Options = Options
    refusal = staticmethod(refusal)
    decide = staticmethod(take)
    forfeit = staticmethod(forfeit)

    def new_state(self, players: int, options: dict) -> dict:
        return {"players": players, "options": options, "phase": "play", "heap": options["heap"],
                "seat": 0, "forfeited": [], "scores": None}

    def acting_seats(self, state: dict) -> tuple:
        return (state["seat"],)

    def legal_actions(self, state: dict, seat: int) -> list:
        if refusal(state, seat, {"type": "take", "n": 1}) is not None:
            return []
        return [{"type": "take", "n": n} for n in range(1, min(state["options"]["max_take"], state["heap"]) + 1)]

    def public_view(self, state: dict) -> dict:  # no hidden information: the view is the state
        return copy.deepcopy(state)

    def seat_view(self, state: dict, seat: int) -> dict:
        return copy.deepcopy(state)

    def determinize(self, view: dict, seat: int, rng) -> dict:
        return copy.deepcopy(view)

    @staticmethod
    def max_events(players: int, options: Options) -> int:
        return 2 + options.heap + players  # every take lowers the heap; a forfeit a seat


NIM = Nim()
