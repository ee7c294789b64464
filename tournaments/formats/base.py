"""Shared types and helpers of the tournament formats (pure Python, no Django).

A format is a pure function from (entries, rounds so far, outcomes so far) to the next round or
to `Finished`. Nothing here reads a clock or a random number generator: the same input always
gives the same output, and every tie is broken by seed (then by entry id). See docs/tournaments.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from games.engine.protocol import json_type_name


@dataclass(frozen=True)
class Entry:
    """An entrant; seed 1 is the strongest. Seeds need only be ordered (ties broken by id).
    A withdrawn entry (withdrawn or disqualified by the organiser) keeps its results; the Swiss
    pairs it in no later round (FIDE C.04.1: a withdrawn player is not paired)."""

    id: int
    seed: int
    withdrawn: bool = False


@dataclass(frozen=True)
class Pairing:
    """One match or series (or a bye, which has one seat and is never played)."""

    key: str
    round: int
    seats: tuple[int, ...]
    games: int = 1
    bye: bool = False

    def seats_for_game(self, game: int) -> tuple[int, ...]:
        """Seat order of game `game` (1-based): game 1 is `seats`, each next game rotates by one."""
        if game < 1 or game > self.games:
            raise ValueError(f"game {game} is outside this series of {self.games}")
        shift = (game - 1) % len(self.seats)
        return self.seats[shift:] + self.seats[:shift]


@dataclass(frozen=True)
class Outcome:
    """The result of a pairing after its series: entry id -> place (1 = first; equal = tie).
    `forfeit`: decided without play (a withdrawal or disqualification), which the Swiss counts as
    FIDE counts a forfeit: the points, but no game (no colour, and the two may meet again)."""

    key: str
    placings: dict[int, int]
    forfeit: bool = False


@dataclass(frozen=True)
class Round:
    number: int
    pairings: tuple[Pairing, ...]


@dataclass(frozen=True)
class Standing:
    entry: int
    rank: int
    points: float
    tiebreaks: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Finished:
    standings: tuple[Standing, ...]


def series_outcome(pairing: Pairing, game_placings: list[dict[int, int]],
                   seeds: dict[int, int]) -> Outcome | None:
    """The outcome of a series, or None while it is undecided.

    Two seats: the first to win games // 2 + 1 games (= ceil(N/2) for odd N) wins; a drawn game
    counts for nobody. A series of one game is that game (a draw stays a draw). A longer series
    still level after all N games goes to the higher seed. More seats: all N games are played and
    places follow the summed pod points of each game (equal sums share a place).
    """
    if len(pairing.seats) == 2:
        return _two_seat_series_outcome(pairing, game_placings, seeds)
    if len(game_placings) < pairing.games:
        return None
    totals = {entry: 0.0 for entry in pairing.seats}
    for placings in game_placings:
        for entry, points in pod_points(placings).items():
            totals[entry] += points
    return Outcome(pairing.key, places_from_scores(totals))


def _two_seat_series_outcome(pairing: Pairing, game_placings: list[dict[int, int]],
                             seeds: dict[int, int]) -> Outcome | None:
    """Best of N between two seats (see `series_outcome`)."""
    first, second = pairing.seats
    if pairing.games == 1:
        return Outcome(pairing.key, dict(game_placings[0])) if game_placings else None
    wins = {first: 0, second: 0}
    for placings in game_placings:
        if placings[first] != placings[second]:
            wins[first if placings[first] < placings[second] else second] += 1
    needed = pairing.games // 2 + 1
    leader = max(pairing.seats, key=lambda entry: (wins[entry], -seeds.get(entry, 0)))
    other = second if leader == first else first
    if wins[leader] >= needed or (len(game_placings) >= pairing.games and wins[leader] > wins[other]):
        return Outcome(pairing.key, {leader: 1, other: 2})
    if len(game_placings) < pairing.games:
        return None
    better = min(pairing.seats, key=lambda entry: (seeds.get(entry, 0), entry))
    return Outcome(pairing.key, {better: 1, (second if better == first else first): 2})


def pod_points(placings: dict[int, int]) -> dict[int, float]:
    """Placing points of one game or pod of s seats: place p earns (s - p) / (s - 1).

    A winner earns 1 and the last 0; players sharing a place share the average of those points.
    For two seats this is the usual win 1, draw 0.5, loss 0.
    """
    size = len(placings)
    if size < 2:
        return {entry: 1.0 for entry in placings}
    order = sorted(placings, key=lambda entry: placings[entry])
    points: dict[int, float] = {}
    for entry in order:
        sharing = [i for i, other in enumerate(order) if placings[other] == placings[entry]]
        points[entry] = sum((size - 1 - i) / (size - 1) for i in sharing) / len(sharing)
    return points


def places_from_scores(scores: dict[int, float]) -> dict[int, int]:
    """Competition places (1, 1, 3, ...) from scores, higher score better."""
    return {entry: 1 + sum(1 for other in scores.values() if other > score)
            for entry, score in scores.items()}


def winner_and_loser(outcome: Outcome, seeds: dict[int, int]) -> tuple[int, int]:
    """Winner and loser of a two-seat outcome; a tie goes to the higher seed (lower number)."""
    first, second = sorted(outcome.placings, key=lambda entry: (outcome.placings[entry],
                                                                seeds[entry], entry))
    return first, second


def seeded(entries: Iterable[Entry]) -> list[Entry]:
    """Entries strongest first: by seed, then by id."""
    return sorted(entries, key=lambda entry: (entry.seed, entry.id))


def seed_ranks(entries: Iterable[Entry]) -> dict[int, int]:
    """Entry id -> position 1..n in seed order (seed ties broken by id)."""
    return {entry.id: position for position, entry in enumerate(seeded(entries), start=1)}


def ranked_standings(entries: list[Entry], sort_key: Callable[[int], tuple],
                     points: dict[int, float],
                     tiebreaks: dict[int, dict[str, float]] | None = None) -> tuple[Standing, ...]:
    """Standings ordered by `sort_key` (smaller first); equal keys share a rank, listed by seed."""
    ranks = seed_ranks(entries)
    order = sorted(ranks, key=lambda entry: (sort_key(entry), ranks[entry]))
    standings = []
    for position, entry in enumerate(order, start=1):
        tied = standings and sort_key(standings[-1].entry) == sort_key(entry)
        rank = standings[-1].rank if tied else position
        standings.append(Standing(entry, rank, points.get(entry, 0.0),
                                  dict((tiebreaks or {}).get(entry, {}))))
    return tuple(standings)


def check_entries(entries: list[Entry], minimum: int = 2) -> None:
    """Raise ValueError unless the entry ids are unique and there are at least `minimum`."""
    ids = [entry.id for entry in entries]
    if len(set(ids)) != len(ids):
        raise ValueError("entry ids must be unique")
    if len(ids) < minimum:
        raise ValueError(f"this format needs at least {minimum} entrants, got {len(ids)}")


class Format:
    """Base of every format: settings with defaults, validation, and the two questions."""

    name = ""
    # setting name -> (type, default, description); subclasses fill it in.
    settings_schema: dict[str, tuple[type, Any, str]] = {}

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> "Format":
        """Build the format from a settings dict; raise ValueError with a reason when it is bad."""
        unknown = set(settings) - set(cls.settings_schema)
        if unknown:
            raise ValueError(f"unknown settings for {cls.name}: {', '.join(sorted(unknown))}")
        values = {}
        for name, (kind, default, _) in cls.settings_schema.items():
            value = settings.get(name, default)
            if value is not None and (not isinstance(value, kind) or isinstance(value, bool) != (kind is bool)):
                raise ValueError(f"{cls.name}: setting {name} must be {json_type_name(kind)}, got {value!r}")
            values[name] = value
        return cls(**values)

    def settings(self) -> dict[str, Any]:
        """The settings this format was built with (the from_settings round trip)."""
        return {name: getattr(self, name) for name in self.settings_schema}

    def validate_entries(self, entries: list[Entry]) -> None:
        """Raise ValueError if this format cannot run with these entries."""
        check_entries(entries)

    def next_round(self, entries: list[Entry], rounds: list[Round],
                   outcomes: dict[str, Outcome]) -> Round | Finished:
        raise NotImplementedError

    def standings(self, entries: list[Entry], rounds: list[Round],
                  outcomes: dict[str, Outcome]) -> tuple[Standing, ...]:
        raise NotImplementedError


def check_best_of(best_of: int) -> None:
    """A series is best of an odd number of games, so a majority always exists."""
    if best_of < 1 or best_of % 2 == 0:
        raise ValueError(f"best_of must be an odd number >= 1, got {best_of}")
