"""The engine contract for a game whose state is a plain JSON dict, written once.

Sorcado, Imperial Twing, Warlock and Wizard Kings keep their state as a JSON dict with a
``"phase"`` (``"over"`` at the end), the seats that ``"forfeited"`` and, once over, the scores.
Their rules are module functions that change such a state in place; ``DictRuleset`` is the shell
that turns them into the contract of ``protocol.Ruleset``: ``setup`` builds the options and a
fresh state, ``next`` reads the end, a chance node or the seats to act, ``check`` raises the
rules' refusal, ``apply`` copies the state and applies the event in place, ``view`` is the
public or a seat's view, and ``encode``/``decode`` are deep copies. A game names its rules as
the hooks below (a module function can be a hook as it is: ``refusal = staticmethod(refusal)``)
and writes ``legal_actions`` itself; it may override any method where its rules need more (a
faster copy, a fused check and apply, a view of its own).

Hooks a game must give: ``new_state``, ``acting_seats``, ``refusal``, ``decide``, ``forfeit``,
``public_view``, ``seat_view``, and with chance ``chance_spec`` and ``chance_outcome``. The rest
have defaults. docs/architecture.md ("Adding a game") lists the steps of a new game.
"""
from __future__ import annotations

import copy
from typing import Any, ClassVar, Sequence

from . import chance
from .protocol import (Chance, Ended, Event, IllegalAction, Result, Ruleset, ToAct, forfeiting_seat,
                       options_dict)

ENGINE_KINDS = ("action", "chance", "forfeit")


def short_text(value: Any) -> str:
    """A value as a short text for a reason (at most 60 characters)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class DictRuleset(Ruleset):
    """``Ruleset`` for a game whose state is a JSON dict changed in place by its rules."""

    # Does ``apply`` check an action before it applies it? The contract lets it assume the
    # event passed check_action (protocol.Ruleset.apply); a game whose apply never checked
    # (Sorcado, for fold speed) says False.
    check_in_apply: ClassVar[bool] = True

    # -- hooks: the rules -------------------------------------------------------------------
    def new_state(self, players: int, options: dict) -> dict:
        """The state before the first event; ``options`` as a dict (``options_dict``)."""
        raise NotImplementedError

    def check_options(self, players: int, options) -> None:
        """Raise InvalidOptions for options that cannot be played with ``players`` together
        (``options`` is the Options dataclass); by default every combination is playable."""

    def chance_spec(self, state: dict) -> dict | None:
        """The spec of the chance event due now, or None if none is (a game without chance)."""
        return None

    def acting_seats(self, state: dict) -> Sequence[int]:
        """The seats that must act now (when no chance event is due and the game is not over)."""
        raise NotImplementedError

    def final_scores(self, state: dict) -> list:
        """The per-seat scores of an ended game (``phase`` "over")."""
        return state["scores"]

    def refusal(self, state: dict, seat, action) -> str | None:
        """Why ``action`` is not legal for ``seat`` now, or None if it is; never raises on any
        JSON value (the conformance suite sends garbage)."""
        raise NotImplementedError

    def decide(self, state: dict, seat: int, action) -> None:
        """Apply a checked action of ``seat`` to ``state`` in place."""
        raise NotImplementedError

    def chance_outcome(self, state: dict, outcome) -> None:
        """Apply the outcome of the chance event due now (checked against its spec) in place."""
        raise NotImplementedError

    def forfeit(self, state: dict, seat: int) -> None:
        """Apply the forfeit of ``seat`` (a seat of the match) in place."""
        raise NotImplementedError

    def before_event(self, state: dict) -> None:
        """Called on the state before every event is applied (e.g. to forget a cache)."""

    def after_event(self, state: dict) -> None:
        """Called on the state after every event was applied (e.g. to run the game on to the
        next decision)."""

    def public_view(self, state: dict) -> dict:
        """What every seat and a spectator may know (``view(state, None)``)."""
        raise NotImplementedError

    def seat_view(self, state: dict, seat: int) -> dict:
        """What ``seat`` may know (``view(state, seat)``)."""
        raise NotImplementedError

    def clone(self, state: dict) -> dict:
        """A copy of ``state`` that the rules may change in place (``apply``); a game may copy
        only what its rules change. Default: a deep copy."""
        return copy.deepcopy(state)

    def copy_for(self, state: dict, event: Event) -> dict:
        """The copy that ``apply`` hands to ``apply_in_place`` for ``event``: ``clone``."""
        return self.clone(state)

    short = staticmethod(short_text)  # a value in a reason

    # Does the class override ``before_event`` or ``after_event``? Decided once per class
    # (``__init_subclass__``): ``apply_in_place`` skips the shared no-op hooks of a class that
    # keeps both (every event of a fold paid two calls for nothing).
    _event_hooks: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._event_hooks = (cls.before_event is not DictRuleset.before_event
                            or cls.after_event is not DictRuleset.after_event)

    # -- the contract -----------------------------------------------------------------------
    def setup(self, players: int, options=None) -> dict:
        """Options from JSON (or as given, built already: ``built_options``) checked, then
        ``new_state``."""
        self.check_players(players)
        if not isinstance(options, self.built_options()):
            options = self.options(options)
        self.check_options(players, options)
        return self.new_state(players, options_dict(options))

    def built_options(self) -> tuple[type, type]:
        """The options ``setup`` takes as they are: this ruleset's ``Options``, or the game's
        own (of the first class below DictRuleset that names them), which an edition may build
        from its own and hand on (Warlock's version 2); an edition's Options subclass them or
        stand alone (Imperial Twing's version 2)."""
        game = next(vars(klass)["Options"] for klass in reversed(type(self).__mro__)
                    if issubclass(klass, DictRuleset) and klass is not DictRuleset
                    and "Options" in vars(klass))
        return self.Options, game

    def next(self, state: dict):
        """The end, the chance node due, or the seats that must act now."""
        if state["phase"] == "over":
            return Ended(Result.from_scores(self.final_scores(state),
                                            last=frozenset(state["forfeited"])))
        spec = self.chance_spec(state)
        if spec is not None:
            return Chance(spec)
        return ToAct(tuple(self.acting_seats(state)))

    def check(self, state: dict, seat: int, action) -> None:
        """Raise IllegalAction with the rules' reason (``refusal``)."""
        reason = self.refusal(state, seat, action)
        if reason is not None:
            raise IllegalAction(reason)

    def apply(self, state: dict, event: Event) -> dict:
        """The next state; ``state`` itself is never changed: the event is checked against it
        (``check_in_apply``), then applied in place to a copy (``copy_for``)."""
        if event.kind == "action":
            if self.check_in_apply:
                self.check(state, event.seat, event.payload.get("action"))
        elif event.kind not in ENGINE_KINDS:
            raise IllegalAction(f"an engine never sees {self.short(event.kind)} events")
        return self.apply_in_place(self.copy_for(state, event), event)

    def apply_in_place(self, state: dict, event: Event) -> dict:
        """``apply`` without the copy (Ruleset.apply_in_place): the rules change the state they
        are given, so a fold that owns its state (a search's playout) hands it over as it is."""
        hooks = self._event_hooks
        if hooks:
            self.before_event(state)
        kind = event.kind
        if kind == "action":  # the most frequent kind asked first
            self.decide(state, event.seat, event.payload.get("action"))
        elif kind == "chance":
            self.chance_outcome(state, chance.due_outcome(self.next(state), event.payload))
        elif kind == "forfeit":
            self.forfeit(state, forfeiting_seat(state["players"], event.seat))
        else:
            raise IllegalAction(f"an engine never sees {self.short(kind)} events")
        if hooks:
            self.after_event(state)
        return state

    def view(self, state: dict, seat: int | None) -> dict:
        """What ``seat`` may know; None: the public view."""
        return self.public_view(state) if seat is None else self.seat_view(state, seat)

    def encode(self, state: dict) -> dict:
        """The state is plain JSON already: a deep copy."""
        return copy.deepcopy(state)

    def decode(self, data: dict) -> dict:
        """The inverse of ``encode``."""
        return copy.deepcopy(data)
