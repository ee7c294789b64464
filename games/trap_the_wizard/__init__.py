"""Trap the Wizard, after the rulebook shared/rulebooks/trap-the-wizard.de.txt.

Clauses are cited as §P.S (paragraph P, sentence S) and decisions where the text is silent as
D1..D20; both are listed, with the German text, in docs/rules/trap-the-wizard.md. Each seat moves
its wizards round a wheel (board.py) by the roll of one die; a wizard that lands on enemy wizards
carries them off, and scores them by bringing them home or by still holding them when the round
ends. Five rounds make a match.

A state is a frozen dataclass of tuples: ``apply`` copies only the tuples it changes. Matches
stored under version 1 fold by the edition in editions.py.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from games.engine.bots import RandomBot
from games.engine.protocol import (Chance, Ended, Event, GameSpec, IllegalAction, InvalidOptions,
                                   Result, Ruleset, ToAct, forfeiting_seat, option)
from games.engine.registry import register

from .board import Layout, arms_for, board_json, layout_for

DIE = {"kind": "dice", "count": 1, "sides": 6}
SIX = 6
MOVE_KEYS = frozenset(("type", "wizard", "to", "steps"))
PASS = {"type": "pass"}
ROLL = {"type": "roll"}

SPEC = GameSpec(name="trap-the-wizard", title="Trap the Wizard", version=2, min_players=2,
                max_players=6, chance=True, hidden_information=False, simultaneous=False,
                rulebook="trap-the-wizard.de.txt")
ROLL_DUE = Chance(DIE)  # what ``next`` says at every roll: frozen, so one instance serves all
TO_ACT = tuple(ToAct((seat,)) for seat in range(SPEC.max_players))  # ... and at every decision


@dataclass(frozen=True)
class Options:
    """The variants; every default is the rulebook's value or a documented decision."""

    board: str = option("auto", "D1: the wheel (auto: wheel4 for 2-4 players, wheel6 for 5-6)",
                        choices=("auto", "wheel4", "wheel6"))
    rim_between: int = option(7, "D1: ordinary fields between neighbouring start fields", min=1, max=20)
    spoke_between: int = option(5, "D1: fields on a spoke between start field and centre", min=1, max=20)
    wizards: int = option(3, "§1.1: wizards per player", min=1, max=6)
    rounds: int = option(5, "§5.3: rounds in a match", min=1, max=20)
    turn_limit: int = option(300, "D13: die rolls after which a stuck round is scored as it stands",
                             min=1, max=100_000)
    joker_return: str = option("centre", "D7: where the joker goes when its carrier returns home "
                               "(§3.4): back to the centre, or kept by the carrier",
                               choices=("centre", "keep"))
    six: str = option("optional", "§2.5, D20: after a six the player may roll again or pass "
                      "(optional), or must roll again (compulsory)", choices=("optional", "compulsory"))


@dataclass(frozen=True)
class State:
    """A match between events. Pieces are wizards (seat s owns s*wizards .. s*wizards+wizards-1)
    and then the joker; a piece is free (``fields`` names its field), carried (in one free
    wizard's ``captives``) or out of the game (neither)."""

    players: int
    options: Options
    round: int  # 1-based
    rolls: int  # die rolls made this round (D13)
    turn: int  # the seat that rolls or moves
    roll: int | None  # the die being played; None: the die must be rolled
    remaining: int  # steps of the roll still to move
    moved: tuple[int, ...]  # wizards that returned home with this roll (§2.4: "another" wizard)
    fields: tuple[int | None, ...]
    captives: tuple[tuple[int, ...], ...]
    delivered: tuple[int, ...]  # per seat: enemy wizards brought home this round (§3.4, §5.2)
    history: tuple[tuple[int, ...], ...]  # per finished round: points per seat
    forfeited: tuple[int, ...]
    ended: bool = False
    again: bool = False  # §2.5, D20: a six is played out; the seat rolls again or passes

    @functools.cached_property
    def joker(self) -> int:
        """The joker's piece id (cached in the instance: read on every rule check)."""
        return self.players * self.options.wizards

    @functools.cached_property
    def layout(self) -> Layout:
        """The board and seating (cached in the instance, and handed on by ``_with``: the
        lru_cache of ``layout_for`` costs a hash of four arguments on every look)."""
        o = self.options
        return layout_for(o.board, o.rim_between, o.spoke_between, self.players)


# -- looking at a state -------------------------------------------------------------------------

def layout(state: State) -> Layout:
    """The board and seating of this match (cached per option set)."""
    return state.layout


def owner(state: State, piece: int) -> int | None:
    """The seat a wizard belongs to; None for the joker, which belongs to nobody (§4.2)."""
    return None if piece == state.joker else piece // state.options.wizards


def free_wizards(state: State, seat: int) -> list[int]:
    """§1.1: the seat's wizards standing on the board (neither captive nor out of the game)."""
    first = seat * state.options.wizards
    return [w for w in range(first, first + state.options.wizards) if state.fields[w] is not None]


def seats_with_free_wizards(state: State) -> set[int]:
    """§5.1: the players who are still "übrig" (have a wizard on the board)."""
    per_seat = state.options.wizards
    return {w // per_seat for w in range(state.joker) if state.fields[w] is not None}


def one_seat_left(state: State) -> bool:
    """§5.1: at most one player is still "übrig". Asked after every move, so it counts free
    wizards (all of them, and the mover's seat's) rather than collecting seats."""
    per_seat, fields, joker = state.options.wizards, state.fields, state.joker
    first = state.turn * per_seat
    own = per_seat - fields[first:first + per_seat].count(None)
    if own:  # every free wizard is one of the seat's own, or another seat is left too
        return own == joker - fields[:joker].count(None)
    return len(seats_with_free_wizards(state)) <= 1


def stacks_on(state: State, field: int) -> list[int]:
    """§3.1: the free wizards on ``field``; each is a stack with whatever it carries (D19)."""
    return [w for w in range(state.joker) if state.fields[w] == field]


def occupancy(state: State) -> dict[int, list[int]]:
    """§3.1: the stacks on every occupied field, computed once per decision."""
    occupied: dict[int, list[int]] = {}
    for wizard, field in enumerate(state.fields[:state.joker]):
        if field is not None:
            occupied.setdefault(field, []).append(wizard)
    return occupied


def enemies_held(state: State, wizard: int) -> int:
    """§3.3, §5.2: the enemy wizards ``wizard`` holds (the joker and own wizards are none, D8)."""
    joker, per_seat = state.joker, state.options.wizards
    seat = wizard // per_seat
    return sum(1 for c in state.captives[wizard] if c != joker and c // per_seat != seat)


def captures_on(state: State, lay: Layout, wizard: int, field: int) -> bool:
    """§1.3, §4.3: enemies are caught on any field but a special one, unless the mover holds
    the joker."""
    return field not in lay.board.special or state.joker in state.captives[wizard]


def held_enemies(state: State, seat: int) -> int:
    """§5.2: enemy wizards held by the seat's free wizards (D12: they count as caught)."""
    return sum(enemies_held(state, w) for w in free_wizards(state, seat))


def totals(state: State) -> list[int]:
    """§5.3: match points, the sum over the finished rounds."""
    return [sum(points[s] for points in state.history) for s in range(state.players)]


# -- legality -----------------------------------------------------------------------------------

def landing_refusal(state: State, lay: Layout, wizard: int, to: int, steps: int,
                    occupied: dict[int, list[int]]) -> str | None:
    """§2.1, §3.1-§3.3, D5: why ``wizard`` may not end a move of ``steps`` on ``to`` (None: it may)."""
    seat = wizard // state.options.wizards
    if to == lay.homes[seat]:
        if not enemies_held(state, wizard):
            return (f"wizard {wizard} holds no enemy wizard, so it may not return to its start "
                    f"field {to} (§3.3)")
        return None
    if steps != state.remaining:
        return (f"only a wizard returning to its start field may stop short: move exactly "
                f"{state.remaining} steps (§2.1)")
    if to in lay.home_owner:
        return f"field {to} is the start field of seat {lay.home_owner[to]} (D5)"
    stacks = occupied.get(to, ())
    if captures_on(state, lay, wizard, to):
        stacks = [w for w in stacks if w // state.options.wizards == seat]
    if len(stacks) >= 2:
        return f"field {to} holds two stacks (§3.1)"
    return None


def move_refusal(state: State, seat: int, wizard: int, to: int, steps: int) -> str | None:
    """§2.1-§2.4: why seat may not move ``wizard`` ``steps`` steps to ``to`` now (None: it may)."""
    lay = state.layout
    if not 0 <= wizard <= state.joker:
        return f"no piece {wizard} (wizards are 0..{state.joker - 1})"
    if wizard == state.joker:
        return f"piece {wizard} is the joker, which belongs to nobody and never moves by itself (§4.2)"
    if wizard // state.options.wizards != seat:
        return f"wizard {wizard} belongs to seat {wizard // state.options.wizards}"
    origin = state.fields[wizard]
    if origin is None:
        return f"wizard {wizard} is not on the board (captive or out of the game)"
    if wizard in state.moved:
        return f"wizard {wizard} returned home with this roll; the rest is for another wizard (§2.4)"
    if not 0 <= to < lay.board.size:
        return f"no field {to} (fields are 0..{lay.board.size - 1})"
    if not 1 <= steps <= state.remaining:
        return f"steps must be 1..{state.remaining} (the steps left to move), got {steps}"
    if to not in lay.board.reach[origin][steps]:
        return f"no path of exactly {steps} steps from {origin} to {to} (§2.1, D4)"
    stacks = stacks_on(state, to) if to in state.fields else []  # most fields stand empty
    return landing_refusal(state, lay, wizard, to, steps, {to: stacks})


def acts(state: State) -> bool:
    """Is it a seat's decision (not the die's)? A roll to play, or a six's choice (§2.5, D20)."""
    return not state.ended and (state.roll is not None or state.again)


def action_refusal(state: State, seat, action) -> str | None:
    """Why ``action`` is not legal for ``seat`` now (None: it is); never raises on any JSON."""
    if not acts(state) or type(seat) is not int or seat != state.turn:
        return f"seat {_short(seat)} does not act now"
    return _acting_refusal(state, seat, action)


def _acting_refusal(state: State, seat: int, action) -> str | None:
    """``action_refusal`` once ``seat`` is known to act now."""
    if not isinstance(action, dict):
        return f"an action is a JSON object with a type, got {_short(action)}"
    if state.again:
        if action in (ROLL, PASS):
            return None
        return (f"after a six you roll again {ROLL} or pass {PASS} (§2.5, D20), "
                f"got {_short(action)}")
    kind = action.get("type")
    if kind == "pass" and len(action) == 1:
        if state.moved:
            return None
        return ("pass declines the rest of a roll after a return home (§2.4) or the roll after a "
                "six (§2.5); a move is due (D9)")
    if kind != "move":
        return (f"an action is {{'type': 'move', 'wizard', 'to', 'steps'}} or {{'type': 'pass'}}, "
                f"got {_short(action)}")
    if action.keys() != MOVE_KEYS:
        return f"a move has exactly the keys {sorted(MOVE_KEYS)}, got {_short(sorted(map(str, action)))}"
    for key in ("wizard", "to", "steps"):
        if type(action[key]) is not int:
            return f"{key} must be an integer, got {_short(action[key])}"
    return move_refusal(state, seat, action["wizard"], action["to"], action["steps"])


def _short(value) -> str:
    """A repr short enough for a reason, whatever garbage a bot sent."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def move_actions(state: State) -> list[dict]:
    """§2.1-§2.4: every move of the seat to act, in a stable order."""
    return list(_moves(state))


def has_move(state: State) -> bool:
    """D9, D10: can the seat to act move at all? ``_moves``' rules (§2.1-§2.4, §3.1-§3.3, D5)
    asked as a yes/no that stops at the first move and builds no move, reason or occupancy map:
    every die roll of a fold asks it (tests/games/test_trap_the_wizard.py holds it to ``_moves``
    over random positions)."""
    remaining = state.remaining
    if remaining < 1:
        return False
    lay, seat, per_seat, fields = state.layout, state.turn, state.options.wizards, state.fields
    first = seat * per_seat
    for wizard in range(first, first + per_seat):
        origin = fields[wizard]
        if origin is None or wizard in state.moved:
            continue
        # §2.3, §3.3: home with any steps up to the rest, if the wizard holds an enemy wizard
        if (state.captives[wizard] and lay.home_steps[seat][origin] <= remaining
                and enemies_held(state, wizard)):
            return True
        for to in lay.landings[origin][remaining]:  # D5: never on a start field but one's own
            if to not in fields:  # nobody there, not even the joker: room for the wizard
                return True
            if captures_on(state, lay, wizard, to):  # §3.1: enemies caught take no room
                stacks = fields[first:first + per_seat].count(to)
            else:
                stacks = fields[:state.joker].count(to)
            if stacks < 2:  # §3.1: two stacks at most
                return True
    return False


def _moves(state: State):
    """The legal moves of the seat to act, one at a time."""
    lay, seat = layout(state), state.turn
    home, occupied = lay.homes[seat], occupancy(state)
    for wizard in free_wizards(state, seat):
        if wizard in state.moved:
            continue
        reach = lay.board.reach[state.fields[wizard]]
        for steps in range(1, state.remaining + 1):
            if steps == state.remaining:
                targets = sorted(reach[steps])
            else:  # §2.3: only a return home may use fewer steps than are left
                targets = (home,) if home in reach[steps] else ()
            for to in targets:
                if landing_refusal(state, lay, wizard, to, steps, occupied) is None:
                    yield {"type": "move", "wizard": wizard, "to": to, "steps": steps}


# -- changing a state ---------------------------------------------------------------------------

def _with(state: State, **changes) -> State:
    """A copy of ``state`` with ``changes``: dataclasses.replace re-runs __init__ and costs a
    good share of a fold, while the tuples here (and the cached joker and layout) are shared as
    they are. A copied __dict__ is set whole: a frozen dataclass refuses attribute writes, and
    filling an empty __dict__ key by key costs more."""
    copy = object.__new__(State)
    attributes = state.__dict__.copy()
    attributes.update(changes)
    object.__setattr__(copy, "__dict__", attributes)
    return copy


def _put(state: State, **changes) -> State:
    """``_with`` for a state its caller owns (apply_in_place): ``changes`` are written into
    ``state`` itself, the frozen dataclass notwithstanding, and no copy is made."""
    state.__dict__.update(changes)
    return state


def new_round(players: int, options: Options, number: int, history: tuple, forfeited: tuple) -> State:
    """§1.1, §4.1, D14: every wizard of a seat in play on its start field, the joker in the centre;
    round r opens with seat (r-1) mod n, or the next seat still in play."""
    lay = layout_for(options.board, options.rim_between, options.spoke_between, players)
    fields = tuple(None if seat in forfeited else lay.homes[seat]
                   for seat in range(players) for _ in range(options.wizards)) + (lay.board.centre,)
    first = next(seat for seat in (s % players for s in range(number - 1, number - 1 + players))
                 if seat not in forfeited)
    return State(players=players, options=options, round=number, rolls=0, turn=first, roll=None,
                 remaining=0, moved=(), fields=fields, captives=((),) * len(fields),
                 delivered=(0,) * players, history=history, forfeited=forfeited)


def roll_die(state: State, outcome, put=_with) -> State:
    """§1.2, §2.5, D10: the die gives the steps to move; with no legal move the roll is over."""
    if state.ended or state.roll is not None or state.again:
        raise IllegalAction("no die roll is due now")
    if not (isinstance(outcome, list) and len(outcome) == 1 and type(outcome[0]) is int
            and 1 <= outcome[0] <= SIX):
        raise IllegalAction(f"a die outcome is [1..6], got {_short(outcome)}")
    die = outcome[0]
    if put is _put:  # in place: the four fields written straight into the state (every roll of a fold)
        attributes = state.__dict__
        attributes["roll"] = attributes["remaining"] = die
        attributes["moved"], attributes["rolls"] = (), attributes["rolls"] + 1
    else:
        state = put(state, roll=die, remaining=die, moved=(), rolls=state.rolls + 1)
    return state if has_move(state) else end_roll(state, fresh=True)


def move(state: State, wizard: int, to: int, steps: int, put=_with) -> State:
    """§2.1-§2.4: the wizard walks; it returns home (§3.4) or lands and captures (§1.3, §4.3).
    ``put``: _with (a new state) or _put (``state`` itself changes, apply_in_place)."""
    lay = state.layout
    if to == lay.homes[wizard // state.options.wizards]:
        fields, captives = list(state.fields), list(state.captives)
        scored = return_home(state, lay, wizard, fields, captives)
        fields[wizard] = to
        seat, delivered = state.turn, state.delivered
        state = put(state, fields=tuple(fields), captives=tuple(captives),
                      delivered=delivered[:seat] + (delivered[seat] + scored,) + delivered[seat + 1:],
                      remaining=state.remaining - steps, moved=state.moved + (wizard,))
    elif to in state.fields:  # a wizard stands there or the joker lies there
        fields, captives = list(state.fields), list(state.captives)
        capture(state, lay, wizard, to, fields, captives)
        fields[wizard] = to
        state = put(state, fields=tuple(fields), captives=tuple(captives), remaining=0)
        return after_move(state)
    else:  # an empty field: nothing to take, the captives stay as they are
        fields = state.fields
        fields = fields[:wizard] + (to,) + fields[wizard + 1:]
        if put is _put:  # in place, as in roll_die
            attributes = state.__dict__
            attributes["fields"], attributes["remaining"] = fields, 0
        else:
            state = put(state, fields=fields, remaining=0)
    return after_move(state, took=False)


def return_home(state: State, lay: Layout, wizard: int, fields: list, captives: list) -> int:
    """§3.4, D7: enemy captives leave the game (scored), own ones are freed onto the start field,
    the joker goes back to the centre (or stays, joker_return="keep"); the count scored."""
    seat, scored, kept = state.turn, 0, ()
    for piece in state.captives[wizard]:
        if piece == state.joker:
            if state.options.joker_return == "keep":
                kept = (piece,)
            else:
                fields[piece] = lay.board.centre
        elif piece // state.options.wizards == seat:
            fields[piece] = lay.homes[seat]
        else:
            scored += 1
    captives[wizard] = kept
    return scored


def capture(state: State, lay: Layout, wizard: int, to: int, fields: list, captives: list) -> None:
    """§1.3, §4.3, D7, D18: landing takes each enemy stack on ``to`` with all it carries (not on
    a special field without the joker), and the joker wherever it lies."""
    taken: list[int] = []
    if captures_on(state, lay, wizard, to):
        for other in stacks_on(state, to):
            if other // state.options.wizards != state.turn:
                taken.append(other)
                taken.extend(captives[other])
                captives[other], fields[other] = (), None
    if fields[state.joker] == to:
        taken.append(state.joker)
        fields[state.joker] = None
    if taken:
        captives[wizard] = captives[wizard] + tuple(taken)


def after_move(state: State, *, took: bool = True) -> State:
    """§5.1, §2.4: the round ends when one player is left; else the rest of a roll is offered
    while some other wizard can use it exactly, and is lost otherwise. ``state`` is the one
    ``move`` has just made. ``took=False``: the move took no wizard off the board (a walk onto
    an empty field, a return home), so the seats left are those before it, more than one (the
    round would have ended), and §5.1 is not asked again."""
    if took and one_seat_left(state):
        return end_round(state)
    if state.remaining > 0 and has_move(state):
        return state
    return end_roll(state, fresh=True)


def end_roll(state: State, *, fresh: bool = False) -> State:
    """§2.5, D10, D11, D13, D20: after a six the player may roll again (or must, six=
    "compulsory"); else the next seat with a free wizard rolls. A round that reaches turn_limit
    rolls is scored as it stands. ``fresh``: ``state`` was made by the apply under way and
    nobody holds it yet, so it is finished in place rather than copied again (most moves)."""
    if state.rolls >= state.options.turn_limit:
        return end_round(state)
    again = state.roll == SIX and state.turn not in state.forfeited
    turn = state.turn if again else next_seat(state, state.turn)
    again = again and state.options.six == "optional"
    if fresh:
        attributes = state.__dict__
        attributes["turn"], attributes["roll"], attributes["remaining"] = turn, None, 0
        attributes["moved"], attributes["again"] = (), again
        return state
    return _with(state, turn=turn, roll=None, remaining=0, moved=(), again=again)


def choose_again(state: State, action: dict, put=_with) -> State:
    """§2.5, D20: "darf er noch einen Spielzug machen": the seat rolls again, or passes the turn."""
    if action == ROLL:
        return put(state, again=False)
    return put(state, again=False, turn=next_seat(state, state.turn))


def next_seat(state: State, after: int) -> int:
    """D11: the next seat in turn order that is in play and has a free wizard."""
    players, per_seat, fields = state.players, state.options.wizards, state.fields
    for k in range(1, players + 1):
        seat = (after + k) % players
        first = seat * per_seat
        if fields[first:first + per_seat].count(None) < per_seat:  # a free wizard (§5.1)
            return seat
    return after


def end_round(state: State) -> State:
    """§5.1-§5.3, D12, D16: score the round; then the next round, or the end of the match."""
    points = tuple(state.delivered[s] + held_enemies(state, s) for s in range(state.players))
    history = state.history + (points,)
    if state.round >= state.options.rounds or state.players - len(state.forfeited) < 2:
        return _with(state, history=history, ended=True, roll=None, remaining=0, moved=(),
                     again=False)
    return new_round(state.players, state.options, state.round + 1, history, state.forfeited)


def forfeit(state: State, seat: int) -> State:
    """D15: the seat leaves: its free wizards and the own wizards they hold leave the board,
    enemy wizards they hold go free onto their owners' start fields, the joker to the centre."""
    if state.ended or seat in state.forfeited:
        return state
    lay = layout(state)
    fields, captives = list(state.fields), list(state.captives)
    for wizard in free_wizards(state, seat):
        for piece in state.captives[wizard]:
            holder = owner(state, piece)
            if holder is None:
                fields[piece] = lay.board.centre
            elif holder != seat and holder not in state.forfeited:
                fields[piece] = lay.homes[holder]
        fields[wizard], captives[wizard] = None, ()
    state = _with(state, fields=tuple(fields), captives=tuple(captives),
                  forfeited=tuple(sorted(state.forfeited + (seat,))))
    if state.players - len(state.forfeited) < 2 or len(seats_with_free_wizards(state)) <= 1:
        return end_round(state)
    if state.turn == seat or (state.roll is not None and not has_move(state)):
        return end_roll(state)
    return state


# -- the ruleset --------------------------------------------------------------------------------

class TrapTheWizard(Ruleset):
    """The engine contract for Trap the Wizard."""

    spec = SPEC
    Options = Options

    def setup(self, players: int, options: Options | None = None) -> State:
        self.check_players(players)
        if not isinstance(options, Options):
            options = self.options(options)
        if players > arms_for(options.board, players):
            raise InvalidOptions(f"board {options.board} seats at most its arms, not {players} players")
        return new_round(players, options, 1, (), ())

    def next(self, state: State):
        if state.ended:
            return Ended(Result.from_scores(totals(state), last=frozenset(state.forfeited)))
        if not acts(state):
            return ROLL_DUE
        return TO_ACT[state.turn]

    def check_action(self, state: State, seat: int, action) -> None:
        """Ruleset.check_action without building ``next`` when the seat is the one to act (a
        validation checks every action): ``check`` alone then decides, as it would there."""
        if acts(state) and type(seat) is int and seat == state.turn:
            reason = _acting_refusal(state, seat, action)
            if reason is not None:
                raise IllegalAction(reason)
            return None
        return super().check_action(state, seat, action)

    def legal_actions(self, state: State, seat: int) -> list:
        if not acts(state) or type(seat) is not int or seat != state.turn:
            return []
        if state.again:
            return [dict(ROLL), dict(PASS)]
        return move_actions(state) + ([dict(PASS)] if state.moved else [])

    def check(self, state: State, seat: int, action) -> None:
        reason = action_refusal(state, seat, action)
        if reason is not None:
            raise IllegalAction(reason)

    def apply(self, state: State, event: Event) -> State:
        """The state after ``event``. An action must have passed check_action (the service, the
        runner and log.Folder all check first): apply does not check it twice, for fold speed."""
        kind = event.kind
        if kind == "chance":
            return roll_die(state, event.payload.get("outcome"))
        if kind == "forfeit":
            return forfeit(state, forfeiting_seat(state.players, event.seat))
        if kind != "action":
            raise IllegalAction(f"unknown event kind {kind!r}")
        action = event.payload.get("action")
        if state.again:
            return choose_again(state, action)
        if action == PASS:
            return end_roll(state)
        return move(state, action["wizard"], action["to"], action["steps"])

    def apply_in_place(self, state: State, event: Event) -> State:
        """``apply`` writing into ``state`` (Ruleset.apply_in_place): the die rolls, moves and
        passes of a fold change the state they stand on instead of a copy; a forfeit (rare)
        takes ``apply``."""
        kind = event.kind
        if kind == "chance":
            return roll_die(state, event.payload.get("outcome"), _put)
        if kind != "action":
            return self.apply(state, event)
        action = event.payload.get("action")
        if state.again:
            return choose_again(state, action, _put)
        if action == PASS:
            return end_roll(state, fresh=True)
        return move(state, action["wizard"], action["to"], action["steps"], _put)

    def act_in_place(self, state: State, seat: int, payload: dict) -> State:
        """Ruleset.act_in_place (optional): a move checked and made in one call, the checks of
        ``_acting_refusal`` that let a well-formed move of the seat to act through are asked
        here once, then ``move_refusal`` decides and ``move`` walks (every move of a
        validation). Anything else takes the two calls."""
        action = payload["action"]
        if (type(action) is dict and type(seat) is int and seat == state.turn
                and state.roll is not None and not state.again and not state.ended
                and action.keys() == MOVE_KEYS and action["type"] == "move"):
            wizard, to, steps = action["wizard"], action["to"], action["steps"]
            if type(wizard) is int and type(to) is int and type(steps) is int:
                # Most moves of a log: an own wizard on the board, not yet moved this roll,
                # walks the whole roll to an empty field that is nobody's start field. The
                # layout's landings are exactly those fields (a path of that many steps, D5:
                # no start field), so ``move_refusal``'s checks all pass; ``move`` walks it.
                per_seat, fields = state.options.wizards, state.fields
                if (steps == state.remaining and wizard // per_seat == seat  # none below 0
                        and to not in fields and wizard not in state.moved):
                    origin = fields[wizard]
                    if origin is not None and to in state.layout.landings[origin][steps]:
                        return move(state, wizard, to, steps, _put)
                reason = move_refusal(state, seat, wizard, to, steps)
                if reason is not None:
                    raise IllegalAction(reason)
                return move(state, wizard, to, steps, _put)
        self.check_action(state, seat, action)
        return self.apply_in_place(state, Event("action", seat, payload))

    def determinize(self, view: dict, seat: int, rng) -> State:
        """No hidden information: the view carries the whole state (``rng`` draws nothing)."""
        return self.decode(view["state"])

    def score_now(self, state: State) -> list[int]:
        """§5.2, §5.3, D12: the match points so far plus what the round would score now (the
        enemy wizards each seat has brought home or holds); a forfeited seat scores below all."""
        points = [total + state.delivered[s] + held_enemies(state, s)
                  for s, total in enumerate(totals(state))]
        return [-1 if s in state.forfeited else p for s, p in enumerate(points)]

    def view(self, state: State, seat: int | None) -> dict:
        """No hidden information: the whole state, the match points and the board to draw."""
        return {"state": self.encode(state), "joker": state.joker, "scores": totals(state),
                "board": board_json(layout(state))}

    def encode(self, state: State) -> dict:
        return {"players": state.players, "options": dict(state.options.__dict__),
                "round": state.round, "rolls": state.rolls, "turn": state.turn, "roll": state.roll,
                "remaining": state.remaining, "moved": list(state.moved), "fields": list(state.fields),
                "captives": [list(c) for c in state.captives], "delivered": list(state.delivered),
                "history": [list(h) for h in state.history], "forfeited": list(state.forfeited),
                "ended": state.ended, "again": state.again}

    def decode(self, data: dict) -> State:
        return State(players=data["players"], options=self.options(data["options"]),
                     round=data["round"], rolls=data["rolls"], turn=data["turn"], roll=data["roll"],
                     remaining=data["remaining"], moved=tuple(data["moved"]),
                     fields=tuple(data["fields"]), captives=tuple(tuple(c) for c in data["captives"]),
                     delivered=tuple(data["delivered"]),
                     history=tuple(tuple(h) for h in data["history"]),
                     forfeited=tuple(data["forfeited"]), ended=data["ended"], again=data["again"])

    def edition(self, version: int):
        """Version 1 (before D20: the roll after a six was compulsory) for the matches stored
        under it."""
        if version == 1:
            from .editions import TRAP_THE_WIZARD_V1
            return TRAP_THE_WIZARD_V1
        return super().edition(version)

    @staticmethod
    def max_events(players: int, options: Options) -> int:
        """D13: at most turn_limit rolls a round; a roll is its chance event, at most one move
        per wizard (a wizard that returns home moves no more with that roll, and any other move
        ends the roll), one pass and the choice after a six (D20); plus one forfeit a seat and
        the envelope."""
        return 2 + players + options.rounds * options.turn_limit * (options.wizards + 3)

    # -- hooks of the balance benchmark (bench/balance.py) ----------------------------------
    @staticmethod
    def seat_roles(state: State) -> list[str]:
        """What sets the seats apart: the arm of the wheel each sits on (D3); with a free arm
        (3 players on wheel4, 5 on wheel6) the seats beside the gap differ from the others."""
        lay = layout(state)
        return [f"arm {lay.board.starts.index(home)}" for home in lay.homes]

    @staticmethod
    def seat_positions(state: State) -> list[int]:
        """D14: seat 0 opens the first round and the turn runs in seat order (later rounds
        rotate the opener)."""
        return list(range(state.players))

    @staticmethod
    def ended_by_bound(state: State) -> bool:
        """D13: the turn limit, not §5.1, ended the last round and so the match: two seats or
        more still had free wizards when it was scored."""
        return (state.ended and state.rolls >= state.options.turn_limit
                and len(seats_with_free_wizards(state)) >= 2)

    def builtin_bots(self) -> dict[str, type]:
        """The built-in bots by name."""
        from .bots import GreedyBot
        return {"random": RandomBot, "greedy": GreedyBot}

    def bots(self) -> dict[str, type]:
        """Ruleset.bots, with this game's tuning of the generic search as ``search``
        (games/trap_the_wizard/search.py: a short playout and an evaluation at its cut)."""
        from .search import TrapSearchBot
        return {**super().bots(), "search": TrapSearchBot}


register(TrapTheWizard())
