"""The greedy built-in bot for Trap the Wizard.

The game has no hidden information, so the bot decodes the state from its view and rates each
legal action by looking one move ahead: most enemy wizards caught first, then most enemy wizards
brought home, then a landing field no enemy can reach with its next roll; ties are broken by the
bot's own rng. After a six it always rolls again (§2.5): another roll is another chance to catch.
"""
from __future__ import annotations

from games.engine.bots import Bot

from . import State, captures_on, enemies_held, layout, owner, stacks_on


class GreedyBot(Bot):
    """One-move lookahead: catch, then deliver, then stay out of reach."""

    name = "greedy"

    def act(self, message: dict):
        state = self.ruleset.decode(message["view"]["state"])
        seat = message["seat"]
        rated = [(self.rating(state, seat, action), self.rng.random(), index)
                 for index, action in enumerate(message["legal_actions"])]
        return message["legal_actions"][max(rated)[2]]

    def rating(self, state: State, seat: int, action: dict) -> tuple[int, int, int]:
        """(enemy wizards caught, enemy wizards delivered, 1 if the landing field is safe);
        rolling again after a six rates above passing."""
        if action["type"] == "roll":
            return (0, 0, 1)
        if action["type"] != "move":
            return (0, 0, 0)
        wizard, to = action["wizard"], action["to"]
        lay = layout(state)
        if to == lay.homes[seat]:
            return (0, enemies_held(state, wizard), 1)
        taken = caught_by(state, seat, wizard, to)
        enemies = sum(1 for piece in taken if owner(state, piece) not in (None, seat))
        return (enemies, 0, 0 if threatened(state, seat, to, set(taken)) else 1)


def caught_by(state: State, seat: int, wizard: int, to: int) -> list[int]:
    """The pieces (stacks with their captives) that landing ``wizard`` on ``to`` would take."""
    if not captures_on(state, layout(state), wizard, to):
        return []
    taken = []
    for other in stacks_on(state, to):
        if owner(state, other) != seat:
            taken.append(other)
            taken.extend(state.captives[other])
    return taken


def threatened(state: State, seat: int, field: int, gone: set[int]) -> bool:
    """Could an enemy wizard (not among ``gone``) catch a wizard on ``field`` with its next roll?"""
    lay = layout(state)
    board = lay.board
    for enemy in range(state.joker):
        at = state.fields[enemy]
        if at is None or enemy in gone or owner(state, enemy) == seat:
            continue
        if field in board.threatened[at] and (field not in board.special
                                             or state.joker in state.captives[enemy]):
            return True
    return False

