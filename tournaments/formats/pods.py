"""Free-for-all pods for games of 3-7 seats: elimination pods and Swiss-style pods.

Pod sizes: the fewest pods of at most `seats` players, sizes differing by at most one (larger pods
first), never below `min_seats`; a count that cannot be split so is refused with a reason.
Placing points in a pod of s: place p earns (s - p) / (s - 1) (ties share the average).

Elimination pods (`Pods`): stage 1 snake-seeds everyone into pods; the top `advance` of each pod
(by place, then seed) go on and are snake-seeded again by (place, seed); when at most `seats`
remain they play one final pod. If fewer than `min_seats` would reach the final, the best of the
rest (by place, then seed) are added as wildcards. Standings: furthest stage, then place there.

Swiss pods (`SwissPods`): a fixed number of rounds; each round players sorted by points (then
seed) are cut into consecutive pods, then (`avoid_repeats`, on by default) players are traded
between neighbouring pods while a trade lowers the earlier meetings inside the pods, nobody
moving more than one pod from its place in the score order. Standings: points, then opponents' points, then seed.
Seats: inside a pod, seats go by first-seat balance (first seats so far minus the share, games /
pod size summed over the entry's pods), lowest first, then by the latest average seat; a series
rotates seats each game. So over an event an entry has at most ceil(share) + 1 first seats,
unless it gained on its share while already above it, next to pod-mates at least as far above
theirs (then no order could help; docs/tournaments.md has the proof and the figures).
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from .base import (Finished, Format, Pairing, Round, Standing, pod_points, ranked_standings,
                   seed_ranks)


def pod_sizes(count: int, seats: int, min_seats: int) -> list[int] | None:
    """Balanced pod sizes for `count` players, or None when no split fits min_seats..seats."""
    pods = -(-count // seats)
    if pods == 0 or count < pods * min_seats:
        return None
    return [count // pods + (1 if index < count % pods else 0) for index in range(pods)]


def snake_pods(ordered: list[int], sizes: list[int]) -> list[list[int]]:
    """Deal players (best first) into pods in snake order: 1..c, c..1, ...; full pods are skipped."""
    pods: list[list[int]] = [[] for _ in sizes]
    forward = True
    remaining = list(ordered)
    while remaining:
        for index in (range(len(sizes)) if forward else reversed(range(len(sizes)))):
            if remaining and len(pods[index]) < sizes[index]:
                pods[index].append(remaining.pop(0))
        forward = not forward
    return pods


def repeats_in(pod: list[int], met: dict[int, Counter]) -> int:
    """Earlier meetings of the pairs in `pod` (a pair that met twice counts twice)."""
    return sum(met[a][b] for index, a in enumerate(pod) for b in pod[index + 1:])


def fewer_repeats(pods: list[list[int]], met: dict[int, Counter], points: dict[int, float]) -> list[list[int]]:
    """Swap players between neighbouring pods while a swap lowers the earlier meetings inside the
    pods; each player stays within one pod of where the score order put it. The best swap goes
    first: most meetings removed, then the closest points, then the earliest pods and players."""
    home = {player: index for index, pod in enumerate(pods) for player in pod}
    pods = [list(pod) for pod in pods]
    while True:
        best = None
        for index in range(len(pods) - 1):
            upper, lower = pods[index], pods[index + 1]
            before = repeats_in(upper, met) + repeats_in(lower, met)
            for a in upper:
                for b in lower:
                    if abs(home[a] - (index + 1)) > 1 or abs(home[b] - index) > 1:
                        continue
                    new_upper = [b if p == a else p for p in upper]
                    new_lower = [a if p == b else p for p in lower]
                    gain = before - repeats_in(new_upper, met) - repeats_in(new_lower, met)
                    key = (-gain, abs(points[a] - points[b]))
                    if gain > 0 and (best is None or key < best[0]):
                        best = (key, index, new_upper, new_lower)
        if best is None:
            return pods
        _, index, pods[index], pods[index + 1] = best


def first_seats_in_series(seat: int, size: int, games: int) -> int:
    """How many games of a series of `games` the entry in `seat` (0-based) of a pod of `size`
    starts in first seat: seats rotate by one each game (`Pairing.seats_for_game`)."""
    return len(range(seat, games, size))


def seat_order(pod: list[int], history: dict[int, list[tuple[int, int, int]]]) -> tuple[int, ...]:
    """Seat order of a new pod: the entry furthest below its share of first seats sits first.

    An entry's share is games / size summed over its pods so far; its balance is the first seats
    it had minus that share (exact fractions). Seats go by balance, lowest first; equal balances
    go to whoever has sat latest on average (seat / (size - 1) in game 1), then pod order.
    """
    def key(entry: int) -> tuple[Fraction, Fraction]:
        past = history.get(entry, [])
        balance = sum((first_seats_in_series(seat, size, games) - Fraction(games, size)
                       for seat, size, games in past), Fraction(0))
        lateness = sum((Fraction(seat, size - 1) for seat, size, _ in past), Fraction(0))
        return balance, -lateness / max(1, len(past))
    return tuple(sorted(pod, key=key))


def seat_history_of(rounds: list[Round]) -> dict[int, list[tuple[int, int, int]]]:
    """Entry id -> (seat in game 1, pod size, games) of each pod it has been seated in."""
    history: dict[int, list[tuple[int, int, int]]] = {}
    for round_ in rounds:
        for pairing in round_.pairings:
            for seat, entry in enumerate(pairing.seats):
                history.setdefault(entry, []).append((seat, len(pairing.seats), pairing.games))
    return history


class PodSettings(Format):
    """Settings shared by both pod formats."""

    def check_pod_settings(self, seats: int, min_seats: int, best_of: int) -> None:
        """Raise ValueError unless 2 <= min_seats <= seats <= 7 and best_of >= 1."""
        if not 2 <= seats <= 7:
            raise ValueError(f"seats must be between 2 and 7, got {seats}")
        if not 2 <= min_seats <= seats:
            raise ValueError(f"min_seats must be between 2 and seats ({seats}), got {min_seats}")
        if best_of < 1:
            raise ValueError(f"best_of must be >= 1, got {best_of}")

    def make_pods(self, number: int, ordered: list[int], rounds: list[Round], snake: bool,
                  regroup=lambda pods: pods) -> Round:
        """A round of pods keyed P<round>-<pod> from players best first (`regroup` may then
        trade players between the pods)."""
        sizes = pod_sizes(len(ordered), self.seats, self.min_seats)
        if sizes is None:
            raise ValueError(f"{len(ordered)} players cannot be split into pods of "
                             f"{self.min_seats}-{self.seats}")
        if snake:
            pods = snake_pods(ordered, sizes)
        else:
            starts = [sum(sizes[:i]) for i in range(len(sizes))]
            pods = [ordered[start:start + size] for start, size in zip(starts, sizes)]
        pods = regroup(pods)
        history = seat_history_of(rounds)
        return Round(number, tuple(Pairing(f"P{number}-{i}", number, seat_order(pod, history), self.best_of)
                                   for i, pod in enumerate(pods, start=1)))


class Pods(PodSettings):
    """Elimination pods: top `advance` of each pod go on until one final pod decides."""

    name = "pods"
    settings_schema = {
        "seats": (int, 4, "players per pod (the game's maximum seats to use)"),
        "advance": (int, 2, "how many of each pod go on to the next stage"),
        "min_seats": (int, 3, "the game's minimum seats: no pod is ever smaller"),
        "best_of": (int, 1, "games per pod (all are played; places by summed placing points)"),
    }

    def __init__(self, seats: int = 4, advance: int = 2, min_seats: int = 3, best_of: int = 1):
        self.check_pod_settings(seats, min_seats, best_of)
        if not 1 <= advance < min_seats:
            raise ValueError(f"advance must be between 1 and min_seats - 1 ({min_seats - 1}), got {advance}")
        self.seats, self.advance, self.min_seats, self.best_of = seats, advance, min_seats, best_of

    def stage_counts(self, count: int) -> list[int]:
        """How many players each stage has, from `count` down to the final pod (or ValueError)."""
        counts = [count]
        while counts[-1] > self.seats:
            sizes = pod_sizes(counts[-1], self.seats, self.min_seats)
            if sizes is None:
                raise ValueError(f"{counts[-1]} players cannot be split into pods of "
                                 f"{self.min_seats}-{self.seats}")
            counts.append(max(self.min_seats, len(sizes) * self.advance))
        return counts

    def validate_entries(self, entries) -> None:
        """Needs at least min_seats entrants and a pod split at every stage."""
        super().validate_entries(entries)
        if len(entries) < self.min_seats:
            raise ValueError(f"pods need at least min_seats ({self.min_seats}) entrants")
        self.stage_counts(len(entries))

    def next_round(self, entries, rounds, outcomes):
        """Stage 1 by seed; each next stage from the last stage's top finishers (plus wildcards)."""
        self.validate_entries(entries)
        seeds = seed_ranks(entries)
        counts = self.stage_counts(len(entries))
        if len(rounds) == len(counts):
            return Finished(self.standings(entries, rounds, outcomes))
        if not rounds:
            return self.make_pods(1, sorted(seeds, key=seeds.get), rounds, snake=True)
        finishers = self.stage_finishers(rounds[-1], outcomes, seeds)
        advancing = [entry for entry, place, _ in finishers if place <= self.advance]
        wildcards = [entry for entry, place, _ in finishers if place > self.advance]
        chosen = advancing + wildcards[:counts[len(rounds)] - len(advancing)]
        return self.make_pods(len(rounds) + 1, chosen, rounds, snake=True)

    def stage_finishers(self, round_: Round, outcomes, seeds) -> list[tuple[int, int, int]]:
        """(entry, rank in its pod, place) of a stage, best first: by place, then seed."""
        finishers = []
        for pairing in round_.pairings:
            placings = outcomes[pairing.key].placings
            in_pod = sorted(pairing.seats, key=lambda entry: (placings[entry], seeds[entry]))
            finishers += [(entry, index, placings[entry]) for index, entry in enumerate(in_pod, start=1)]
        return sorted(finishers, key=lambda item: (item[1], item[2], seeds[item[0]]))

    def standings(self, entries, rounds, outcomes) -> tuple[Standing, ...]:
        """Furthest stage reached, then place in that stage's pod; points = summed placing points."""
        stage = {entry.id: 0 for entry in entries}
        place = {entry.id: 0 for entry in entries}
        points = {entry.id: 0.0 for entry in entries}
        for round_ in rounds:
            for pairing in round_.pairings:
                outcome = outcomes.get(pairing.key)
                for entry in pairing.seats:
                    stage[entry] = round_.number
                    place[entry] = outcome.placings[entry] if outcome else 0
                for entry, earned in (pod_points(outcome.placings).items() if outcome else ()):
                    points[entry] += earned
        return ranked_standings(entries, lambda e: (-stage[e], place[e]), points,
                                {e: {"stage": float(stage[e]), "place": float(place[e])} for e in stage})


class SwissPods(PodSettings):
    """Open play: a fixed number of rounds of pods grouped by current score."""

    name = "swiss-pods"
    settings_schema = {
        "seats": (int, 4, "players per pod (the game's maximum seats to use)"),
        "rounds": (int, 3, "number of rounds"),
        "min_seats": (int, 3, "the game's minimum seats: no pod is ever smaller"),
        "best_of": (int, 1, "games per pod (all are played; places by summed placing points)"),
        "avoid_repeats": (bool, True, "trade players between neighbouring pods to avoid repeat pod-mates"),
    }

    def __init__(self, seats: int = 4, rounds: int = 3, min_seats: int = 3, best_of: int = 1,
                 avoid_repeats: bool = True):
        self.check_pod_settings(seats, min_seats, best_of)
        if rounds < 1:
            raise ValueError(f"rounds must be >= 1, got {rounds}")
        self.seats, self.rounds, self.min_seats, self.best_of = seats, rounds, min_seats, best_of
        self.avoid_repeats = avoid_repeats

    def validate_entries(self, entries) -> None:
        """The field must split into pods of min_seats..seats."""
        super().validate_entries(entries)
        if pod_sizes(len(entries), self.seats, self.min_seats) is None:
            raise ValueError(f"{len(entries)} entrants cannot be split into pods of "
                             f"{self.min_seats}-{self.seats}")

    def next_round(self, entries, rounds, outcomes):
        """Pods of players in (points, seed) order, cut consecutively; Finished after the last round."""
        self.validate_entries(entries)
        if len(rounds) >= self.rounds:
            return Finished(self.standings(entries, rounds, outcomes))
        seeds = seed_ranks(entries)
        points, met = self.points_and_opponents(entries, rounds, outcomes)
        ordered = sorted(seeds, key=lambda entry: (-points[entry], seeds[entry]))
        if not self.avoid_repeats:
            return self.make_pods(len(rounds) + 1, ordered, rounds, snake=False)
        meetings = {entry: Counter(others) for entry, others in met.items()}
        return self.make_pods(len(rounds) + 1, ordered, rounds, snake=False,
                              regroup=lambda pods: fewer_repeats(pods, meetings, points))

    def points_and_opponents(self, entries, rounds, outcomes):
        """Placing points per entry and the pod-mates it has met (with repetition)."""
        points = {entry.id: 0.0 for entry in entries}
        met: dict[int, list[int]] = {entry.id: [] for entry in entries}
        for round_ in rounds:
            for pairing in round_.pairings:
                if pairing.key in outcomes:
                    for entry, earned in pod_points(outcomes[pairing.key].placings).items():
                        points[entry] += earned
                for entry in pairing.seats:
                    met[entry] += [other for other in pairing.seats if other != entry]
        return points, met

    def standings(self, entries, rounds, outcomes) -> tuple[Standing, ...]:
        """Points, then the summed points of every pod-mate met; all equal share a rank."""
        points, met = self.points_and_opponents(entries, rounds, outcomes)
        opponents = {entry: sum(points[other] for other in others) for entry, others in met.items()}
        return ranked_standings(entries, lambda e: (-points[e], -opponents[e]), points,
                                {e: {"opponents_points": opponents[e]} for e in points})
