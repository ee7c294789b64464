"""The engine contract: what every ruleset implements, and the values it exchanges.

A ruleset is a set of pure functions over a state (ARCHITECTURE.md, "Engine contract"):

- ``setup(players, options) -> state``; ``encode``/``decode`` make a state JSON and back.
- ``next(state)`` says what happens now: ``ToAct`` (one seat, or several at once for a
  simultaneous secret choice), ``Chance`` (a spec the service derives an outcome for) or ``Ended``.
- ``legal_actions(state, seat)`` lists the actions of the current decision. Games whose whole turn
  is too large to list (Wizard Kings moves many blocks) split the turn into small decisions, each
  one an event: "move this block there", ..., "end turn". ``check`` is the authority either way.
- ``check(state, seat, action)`` raises ``IllegalAction`` with a reason a bot author can read.
- ``apply(state, event)`` returns the next state; deterministic, no clock, no randomness, no I/O,
  and it never mutates its argument (replays keep old states).
- ``view(state, seat)`` is exactly what that seat may know; ``seat=None`` is the public view.

Events seen by an engine have the kinds ``action``, ``chance`` and ``forfeit``; the service
envelope (``match_created``, ``match_ended``, ``match_aborted``) never reaches ``apply``.
"""
from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

Json = Any  # a value that json.dumps accepts: dict, list, str, int, bool, None


class IllegalAction(ValueError):
    """An action (or chance outcome, or event) that the rules do not allow where it stands."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class InvalidOptions(ValueError):
    """Options that name an unknown variant or a value out of range."""


@dataclass(frozen=True)
class GameSpec:
    """The declarative game type (OpenSpiel's GameType): what kind of game this is."""

    name: str  # registry name, e.g. "trap-the-wizard"
    title: str
    version: int  # stored on every match; bump when behaviour changes
    min_players: int
    max_players: int
    chance: bool
    hidden_information: bool
    simultaneous: bool
    rulebook: str  # file in shared/rulebooks


@dataclass(frozen=True)
class Event:
    """An event as an engine sees it: ``action`` (payload {"action": ...}), ``chance``
    (payload {"spec": ..., "outcome": ...}) or ``forfeit`` (payload {"reason": ...})."""

    kind: str
    seat: int | None
    payload: dict

    def __init__(self, kind: str, seat: int | None, payload: dict):
        # The generated __init__ of a frozen dataclass calls object.__setattr__ once a field;
        # writing __dict__ directly halves the cost, and a fold makes one Event per record.
        fields = self.__dict__
        fields["kind"], fields["seat"], fields["payload"] = kind, seat, payload

    @staticmethod
    def action(seat: int, action: Json) -> "Event":
        return Event("action", seat, {"action": action})

    @staticmethod
    def chance(spec: dict, outcome: Json) -> "Event":
        return Event("chance", None, {"spec": spec, "outcome": outcome})

    @staticmethod
    def forfeit(seat: int, reason: str, **evidence: Json) -> "Event":
        return Event("forfeit", seat, {"reason": reason, **evidence})


@dataclass(frozen=True)
class ToAct:
    """These seats must act now; more than one means a simultaneous secret choice, each seat's
    action is its own event and the engine keeps earlier ones hidden until all have chosen."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class Chance:
    """A chance node. ``spec`` is JSON (see games.engine.chance) and is recorded in the event."""

    spec: dict


@dataclass(frozen=True)
class Result:
    """Per-seat score and placing (1 = first; equal placings are ties)."""

    scores: tuple[float | int, ...]
    placings: tuple[int, ...]

    def to_json(self) -> dict:
        return {"scores": list(self.scores), "placings": list(self.placings)}

    @staticmethod
    def from_scores(scores: list[int | float], *, last: frozenset[int] = frozenset()) -> "Result":
        """Placings by descending score, ties sharing a place; seats in ``last`` (forfeited)
        are placed after every other seat."""
        def key(seat: int):
            return (seat in last, -scores[seat])
        placings = [1 + sum(1 for other in range(len(scores)) if key(other) < key(seat))
                    for seat in range(len(scores))]
        return Result(tuple(scores), tuple(placings))


@dataclass(frozen=True)
class Ended:
    result: Result


Next = ToAct | Chance | Ended


def option(default: Any, help: str, *, choices: tuple | None = None,
           min: int | None = None, max: int | None = None) -> Any:
    """A named rules option with its default; ``help`` cites the clause it concerns."""
    return field(default=default, metadata={"help": help, "choices": choices, "min": min, "max": max})


def options_schema(options_type: type) -> list[dict]:
    """The options of a ruleset as data, for the catalogue and the docs."""
    return [{"name": f.name, "default": f.default, **{k: v for k, v in f.metadata.items() if v is not None}}
            for f in dataclasses.fields(options_type)]


# Python type -> the JSON type a client sent or should send, with its article (bool before int:
# True is an int to Python, a boolean to JSON).
JSON_TYPE_NAMES = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
                   dict: "an object", list: "an array", type(None): "null"}


def json_type_name(kind: type) -> str:
    """``int`` -> "an integer": the name a JSON client (a bot author, an API user) knows it by."""
    return next((name for python, name in JSON_TYPE_NAMES.items() if issubclass(kind, python)), kind.__name__)


@functools.cache
def _option_fields(options_type: type) -> dict[str, dataclasses.Field]:
    """The fields of an options dataclass by name, looked up once a type: every fold of a log
    reads its match's options again (a Sorcado match is about 120 events)."""
    return {f.name: f for f in dataclasses.fields(options_type)}


def options_dict(options) -> dict:
    """``dataclasses.asdict`` of an options dataclass, without its deep copies: every option is
    a str, int, float or bool (options_from_json builds no other)."""
    return {name: getattr(options, name) for name in _option_fields(type(options))}


def options_from_json(options_type: type, raw: dict | None):
    """Build a frozen options dataclass from JSON, refusing unknown names and bad values."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InvalidOptions(f"options must be a JSON object, got {type(raw).__name__}")
    raw = dict(raw)
    known = _option_fields(options_type)
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise InvalidOptions(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(known)}")
    for name, value in raw.items():
        f = known[name]
        if type(value) is not type(f.default):
            raise InvalidOptions(f"option {name} must be {json_type_name(type(f.default))}, got {value!r}")
        meta = f.metadata
        if meta.get("choices") is not None and value not in meta["choices"]:
            raise InvalidOptions(f"option {name} must be one of {list(meta['choices'])}, got {value!r}")
        if meta.get("min") is not None and value < meta["min"]:
            raise InvalidOptions(f"option {name} must be at least {meta['min']}, got {value}")
        if meta.get("max") is not None and value > meta["max"]:
            raise InvalidOptions(f"option {name} must be at most {meta['max']}, got {value}")
    return options_type(**raw)


def forfeiting_seat(players: int, seat) -> int:
    """The seat a forfeit event names, which must be a seat of the match (IllegalAction)."""
    if type(seat) is not int or not 0 <= seat < players:  # True == 1 in Python: refused
        text = repr(seat)
        raise IllegalAction(f"forfeit names no seat of this match: {text[:60]}")
    return seat


class Ruleset:
    """Base class of a game's rules. Subclasses set ``spec`` and ``Options`` and implement the
    abstract methods; the helpers here are shared by every game.

    Optional: ``act_in_place(state, seat, payload) -> state``, ``check_action`` of
    ``payload["action"]`` and ``apply_in_place`` of that action event in one call, for a game
    whose check and apply look at the same things (Trap the Wizard's moves, Sorcado's turns).
    It raises IllegalAction as check_action does, with the same reason, and then leaves
    ``state`` as it was; an in-place fold that checks (log.Folder.step, every validation) calls
    it for each action where the game has it (the conformance suite holds it to the two calls)."""

    spec: ClassVar[GameSpec]
    Options: ClassVar[type]

    # -- the contract -----------------------------------------------------------------------
    def setup(self, players: int, options) -> Any:
        """The state before the first event."""
        raise NotImplementedError

    def next(self, state) -> Next:
        """Who or what moves now."""
        raise NotImplementedError

    def legal_actions(self, state, seat: int) -> list:
        """The actions ``seat`` may take in the current decision (empty if it need not act)."""
        raise NotImplementedError

    def check(self, state, seat: int, action: Json) -> None:
        """Raise IllegalAction with a reason unless ``action`` is legal for ``seat`` now.
        The default compares with legal_actions as JSON (in Python True == 1 == 1.0); games
        override it for sharper reasons."""
        def spelling(value):
            return json.dumps(value, sort_keys=True, default=repr)
        if spelling(action) not in {spelling(a) for a in self.legal_actions(state, seat)}:
            raise IllegalAction(f"{action!r} is not a legal action for seat {seat} now")

    def apply(self, state, event: Event):
        """The state after ``event``; must not mutate ``state``. It may assume the event passed
        ``check_action`` (the service checks before it appends, the validator before it folds)."""
        raise NotImplementedError

    def apply_in_place(self, state, event: Event):
        """``apply`` for a caller that holds the only reference to ``state`` and never looks at
        it again (a fold that keeps only its latest state: log.Folder with ``in_place``): it may
        change ``state`` and return it, and saves the copy ``apply`` makes per event. Same
        assumption as ``apply`` (the event passed ``check_action``), same result (the conformance
        suite holds the two to equal states over random playouts). The event is lent for the
        call: such a fold hands one Event object to every call, its fields rewritten, so keep
        what its payload holds if need be, never the event itself. Default: ``apply``."""
        return self.apply(state, event)

    def view(self, state, seat: int | None) -> dict:
        """What ``seat`` may know (``None``: the public view), as JSON."""
        raise NotImplementedError

    def determinize(self, view: dict, seat: int, rng) -> Any:
        """A full state whose ``view(state, seat)`` equals ``view``, with everything hidden from
        ``seat`` (cards not seen, blocks not revealed, deck order, other seats' secret choices)
        drawn with ``rng`` (a random.Random) consistently with what the view says; it depends on
        nothing but ``view`` and ``rng``, and may be played on to the end. A search bot samples
        the states the seat cannot tell apart this way (games/engine/search.py). A game without
        hidden information returns the state its view describes. Raises NotImplementedError for
        a game that does not have it (the conformance suite requires it of every registered
        game)."""
        raise NotImplementedError(f"{self.spec.name} cannot determinize a view yet")

    def score_now(self, state) -> list[float]:
        """Each seat's score were the game scored as it stands, by the rules' own count (match
        points so far, what a round's scoring would give now): higher is better, equal is a
        tie. A search bot (games/engine/search.py) cuts its random playouts short and places
        the seats by it, where playing on to the end says little about the move searched.
        Optional: without it, playouts run to the end of the game."""
        raise NotImplementedError

    def encode(self, state) -> Json:
        raise NotImplementedError

    def decode(self, data: Json):
        raise NotImplementedError

    def edition(self, version: int) -> "Ruleset | None":
        """The rules as they stood at ``version``, for matches played before a change of rules or
        content (their logs fold by the rules they were played by); None if this service no
        longer has that version. A game that changes its rules bumps ``spec.version`` and
        returns its older editions here."""
        return self if version == self.spec.version else None

    def card_catalogue(self) -> dict[str, dict]:
        """What the printed cards of this edition say, by card id (the content of the box, the
        same for everyone), for a viewer to write on a card it draws face up; {} for a game
        without cards to describe."""
        return {}

    def builtin_bots(self) -> dict[str, type]:
        """The bots this game ships, by name; every game has at least ``random``. The service
        plays ``bots()``: these and the generic ``search`` bot."""
        from .bots import RandomBot
        return {"random": RandomBot}

    def bots(self) -> dict[str, type]:
        """Every built-in bot that plays this game, by name: the game's own (``builtin_bots``)
        and, for every game that can ``determinize``, the generic search bot ``search``
        (games/engine/search.py), registered here once for every game, present and future."""
        from .search import SearchBot
        bots = dict(self.builtin_bots())
        if type(self).determinize is not Ruleset.determinize:
            bots.setdefault(SearchBot.name, SearchBot)
        return bots

    # -- shared helpers -----------------------------------------------------------------------
    def options(self, raw: dict | None = None):
        """Options from JSON with defaults filled in (raises InvalidOptions)."""
        return options_from_json(self.Options, raw)

    def options_json(self, options) -> dict:
        return options_dict(options)

    def check_players(self, players: int) -> None:
        spec = self.spec
        if not isinstance(players, int) or not spec.min_players <= players <= spec.max_players:
            raise InvalidOptions(
                f"{spec.name} takes {spec.min_players}-{spec.max_players} players, got {players!r}")

    def check_action(self, state, seat: int, action: Json) -> None:
        """The service's check: the seat must be one that acts now, then the game's own check."""
        nxt = self.next(state)
        if not isinstance(nxt, ToAct):
            raise IllegalAction(f"no seat acts now ({type(nxt).__name__.lower()})")
        if type(seat) is not int or seat not in nxt.seats:  # 1.0 == 1 and True == 1 in Python
            raise IllegalAction(f"seat {seat} does not act now; seats to act: {list(nxt.seats)}")
        self.check(state, seat, action)
