"""games.engine.protocol: options, results and the service's check of who acts."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from games.engine.protocol import (Chance, Ended, Event, GameSpec, IllegalAction, InvalidOptions,
                                   Result, Ruleset, ToAct, option, options_dict, options_from_json,
                                   options_schema)


@dataclass(frozen=True)
class Options:
    rounds: int = option(3, "§1: rounds", min=1, max=9)
    board: str = option("small", "§2: the board", choices=("small", "large"))
    jokers: bool = option(True, "§3: with jokers")
    handicap: float = option(0.5, "D1: komi", min=0, max=10)


# -- options ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw", [None, {}])
def test_no_options_give_the_defaults(raw):
    assert options_from_json(Options, raw) == Options()


def test_named_options_override_the_defaults():
    options = options_from_json(Options, {"rounds": 9, "board": "large", "jokers": False, "handicap": 2.5})
    assert options == Options(rounds=9, board="large", jokers=False, handicap=2.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.rounds = 4


def test_unknown_options_are_refused_naming_them_and_the_known_ones():
    with pytest.raises(InvalidOptions) as refused:
        options_from_json(Options, {"speed": 1, "rounds": 2, "colour": "red"})
    assert str(refused.value) == "unknown option(s) colour, speed; known: rounds, board, jokers, handicap"


@pytest.mark.parametrize("name, value, kind", [
    ("rounds", "3", "an integer"), ("rounds", 3.0, "an integer"), ("rounds", True, "an integer"),
    ("rounds", None, "an integer"), ("board", 1, "a string"), ("board", ["small"], "a string"),
    ("jokers", 1, "a boolean"), ("jokers", "true", "a boolean"), ("handicap", "0.5", "a number"),
])
def test_options_of_the_wrong_type_are_refused(name, value, kind):
    """The type is named as JSON names it (issue 13.12: "must be an integer", not "must be int")."""
    with pytest.raises(InvalidOptions) as refused:
        options_from_json(Options, {name: value})
    assert str(refused.value) == f"option {name} must be {kind}, got {value!r}"


@pytest.mark.parametrize("raw, message", [
    ({"rounds": 0}, "option rounds must be at least 1, got 0"),
    ({"rounds": -5}, "option rounds must be at least 1, got -5"),
    ({"rounds": 10}, "option rounds must be at most 9, got 10"),
    ({"handicap": 10.5}, "option handicap must be at most 10, got 10.5"),
    ({"handicap": -0.1}, "option handicap must be at least 0, got -0.1"),
    ({"board": "huge"}, "option board must be one of ['small', 'large'], got 'huge'"),
    ({"board": "Small"}, "option board must be one of ['small', 'large'], got 'Small'"),
])
def test_options_out_of_range_or_off_choice_are_refused(raw, message):
    with pytest.raises(InvalidOptions) as refused:
        options_from_json(Options, raw)
    assert str(refused.value) == message


def test_the_edges_of_a_range_are_allowed():
    assert options_from_json(Options, {"rounds": 1}).rounds == 1
    assert options_from_json(Options, {"rounds": 9}).rounds == 9


def test_options_schema_lists_each_option_with_its_default_and_limits():
    assert options_schema(Options) == [
        {"name": "rounds", "default": 3, "help": "§1: rounds", "min": 1, "max": 9},
        {"name": "board", "default": "small", "help": "§2: the board", "choices": ("small", "large")},
        {"name": "jokers", "default": True, "help": "§3: with jokers"},
        {"name": "handicap", "default": 0.5, "help": "D1: komi", "min": 0, "max": 10},
    ]


@pytest.mark.parametrize("raw", ["fast", [["rounds", 2]], 5, ["rounds"]])
def test_options_that_are_not_an_object_are_refused(raw):
    """Bug: dict(raw) turns [["rounds", 2]] into options and "fast" into a ValueError; options
    come from JSON (a replay's match_created, an API body) and must be an object."""
    with pytest.raises(InvalidOptions):
        options_from_json(Options, raw)


# -- results ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scores, last, placings", [
    ([3, 5, 1], (), (2, 1, 3)),
    ([3, 5, 5, 1], (), (3, 1, 1, 4)),  # a tie shares the place, the next place is skipped
    ([2, 2, 2], (), (1, 1, 1)),
    ([0.5, 1.5, 0.5], (), (2, 1, 2)),
    ([9, 5, 5], {0}, (3, 1, 1)),  # a forfeited seat places after every other, whatever its score
    ([1, 1, 7], {0, 1}, (2, 2, 1)),  # forfeited seats among themselves: by score, ties shared
    ([4, 1, 7, 3], {2, 3}, (1, 2, 3, 4)),
    ([5, 5], {0, 1}, (1, 1)),
])
def test_placings_by_score_with_ties_and_forfeits(scores, last, placings):
    result = Result.from_scores(scores, last=frozenset(last))
    assert result.placings == placings
    assert result.scores == tuple(scores)
    assert result.to_json() == {"scores": list(scores), "placings": list(placings)}


# -- events -------------------------------------------------------------------------------------------
def test_events_carry_their_payloads():
    assert Event.action(2, {"type": "pass"}) == Event("action", 2, {"action": {"type": "pass"}})
    assert Event.chance({"kind": "dice", "count": 1, "sides": 6}, [4]) == Event(
        "chance", None, {"spec": {"kind": "dice", "count": 1, "sides": 6}, "outcome": [4]})
    assert Event.forfeit(1, "timeout", after_ms=5000) == Event(
        "forfeit", 1, {"reason": "timeout", "after_ms": 5000})


def test_an_illegal_action_carries_its_reason():
    error = IllegalAction("seat 3 does not act now")
    assert error.reason == str(error) == "seat 3 does not act now"
    assert isinstance(error, ValueError)


# -- who acts -------------------------------------------------------------------------------------------
class Relay(Ruleset):
    """A tiny game whose state *is* the answer of next(); each acting seat may say its number."""

    spec = GameSpec(name="test-relay", title="Relay", version=1, min_players=2, max_players=4,
                    chance=False, hidden_information=False, simultaneous=True, rulebook="-")
    Options = Options

    def next(self, state):
        return state

    def legal_actions(self, state, seat):
        if isinstance(state, ToAct) and seat in state.seats:
            return [{"say": seat}]
        return []


RELAY = Relay()


@pytest.mark.parametrize("seat", [0, 2])
def test_check_action_accepts_a_legal_action_of_a_seat_that_acts(seat):
    RELAY.check_action(ToAct((0, 2)), seat, {"say": seat})


@pytest.mark.parametrize("seat", [1, 3, -1, None, "0", [0]])
def test_check_action_refuses_a_seat_that_does_not_act_now(seat):
    with pytest.raises(IllegalAction) as refused:
        RELAY.check_action(ToAct((0, 2)), seat, {"say": 0})
    assert refused.value.reason == f"seat {seat} does not act now; seats to act: [0, 2]"


@pytest.mark.parametrize("seat", [0.0, 2.0, False], ids=repr)
def test_check_action_refuses_a_seat_that_is_no_int(seat):
    """Bug: ``seat not in nxt.seats`` is Python equality, so a record with "seat": 0.0 or false
    passes as seat 0 (Folder.step checks action records this way) and reaches apply as is."""
    with pytest.raises(IllegalAction):
        RELAY.check_action(ToAct((0, 2)), seat, {"say": int(seat)})


@pytest.mark.parametrize("state, named", [
    (Chance({"kind": "dice", "count": 1, "sides": 6}), "chance"),
    (Ended(Result.from_scores([1, 2])), "ended"),
])
def test_check_action_refuses_everyone_when_nobody_acts(state, named):
    for seat in range(4):
        with pytest.raises(IllegalAction) as refused:
            RELAY.check_action(state, seat, {"say": seat})
        assert refused.value.reason == f"no seat acts now ({named})"


def test_the_default_check_refuses_what_is_not_listed_with_a_reason():
    with pytest.raises(IllegalAction) as refused:
        RELAY.check(ToAct((0,)), 0, {"say": 1})
    assert "{'say': 1}" in refused.value.reason and "seat 0" in refused.value.reason


@pytest.mark.parametrize("action", [{"say": True}, {"say": 1.0}], ids=["bool", "float"])
def test_the_default_check_compares_as_json_not_as_python(action):
    """Bug: the default check is ``action in legal_actions``, and in Python True == 1 == 1.0, so
    {"say": true} and {"say": 1.0} pass for {"say": 1}. They get recorded as sent; a game that
    indexes with the value then breaks (list[1.0] raises TypeError) in apply, in the runner and
    in every later validation of the log."""
    with pytest.raises(IllegalAction):
        RELAY.check_action(ToAct((1,)), 1, action)


@pytest.mark.parametrize("players", [1, 5, 0, -2, "3", 2.0, None])
def test_check_players_refuses_counts_out_of_the_range(players):
    with pytest.raises(InvalidOptions) as refused:
        RELAY.check_players(players)
    assert str(refused.value) == f"test-relay takes 2-4 players, got {players!r}"


def test_ruleset_options_fill_in_the_defaults_and_round_trip_as_json():
    options = RELAY.options({"rounds": 4})
    assert RELAY.options_json(options) == {"rounds": 4, "board": "small", "jokers": True, "handicap": 0.5}
    assert RELAY.options(RELAY.options_json(options)) == options


def test_options_json_is_asdict_for_every_game():
    """options_dict (Ruleset.options_json) copies the fields, no asdict deep copy: right only while every
    option of every game is a str, int, float or bool, which options_from_json also demands."""
    from games.engine import registry

    for ruleset in registry.builtin():
        for f in dataclasses.fields(ruleset.Options):
            assert type(f.default) in (str, int, float, bool), (ruleset.spec.name, f.name)
        options = ruleset.options({})
        assert ruleset.options_json(options) == dataclasses.asdict(options) == options_dict(options)
        assert ruleset.options(ruleset.options_json(options)) == options
