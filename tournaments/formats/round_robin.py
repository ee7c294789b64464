"""Round robin by the circle method, in the order of the FIDE Berger tables (C.05 Annex 1).

Players are numbered 1..n by seed; an odd field gets a dummy n+1, and facing the dummy is a bye
(worth nothing: everybody gets exactly one per cycle). Round 1 pairs 1 v n, 2 v n-1, ...; each next
round adds n/2 (mod n-1, within 1..n-1) to every other number, keeps each pair's seat order, and
alternates player n between seat 1 (odd rounds) and seat 0 (even rounds). The first-listed player
has seat 0 (white). Even-numbered cycles repeat the first with seats swapped.

Across cycles (FIDE C.05 Annex 1: "for a double round tournament it is recommended to reverse
the order of the last two rounds of the first cycle"): every cycle followed by another plays its
last two rounds in reverse order, so that nobody has the same seat three rounds running across a
cycle boundary. With three rounds a cycle (3 or 4 players) reversing a middle cycle's last two
rounds would bring its second round next to the boundary before it, so there every odd cycle
reverses its last two rounds (the last one too) and every even cycle keeps the table's order.
Within a cycle the Berger tables never give a seat three times running.
"""
from __future__ import annotations

from .base import (Finished, Format, Pairing, Round, Standing, check_best_of, pod_points,
                   ranked_standings, seeded)


def berger_rounds(count: int) -> list[list[tuple[int, int]]]:
    """Berger tables for player numbers 1..count (count even): rounds of (seat 0, seat 1) pairs."""
    half, moving = count // 2, count - 1
    first = [(1 + i, count - i) for i in range(half)]
    rounds = [first]
    for number in range(2, count):
        shifted = [tuple(_shift(player, half, moving, count) for player in pair) for pair in rounds[-1]]
        with_last = shifted[0][0] if shifted[0][1] == count else shifted[0][1]
        shifted[0] = (count, with_last) if number % 2 == 0 else (with_last, count)
        rounds.append([tuple(pair) for pair in shifted])
    return rounds


def cycle_round_order(rounds_per_cycle: int, cycle: int, cycles: int) -> list[int]:
    """Indexes into the Berger rounds in the order cycle `cycle` (0-based) of `cycles` plays them.

    FIDE C.05 Annex 1 for double round tournaments, extended to any number of cycles (see the
    module docstring; tested for 2-32 players and 1-10 cycles).
    """
    order = list(range(rounds_per_cycle))
    reversed_end = order[:-2] + order[-1:-3:-1]
    if cycles == 1 or rounds_per_cycle < 3:
        return order
    if rounds_per_cycle == 3:
        return reversed_end if cycle % 2 == 0 else order
    return reversed_end if cycle < cycles - 1 else order


def _shift(player: int, half: int, moving: int, count: int) -> int:
    """Move one number around the circle: player n stays, the others advance by n/2 mod n-1."""
    if player == count:
        return count
    return (player - 1 + half) % moving + 1


def two_player_points(rounds: list[Round], outcomes) -> dict[int, list[tuple[int, float]]]:
    """Entry id -> [(opponent, points scored)] over every decided two-seat pairing."""
    games: dict[int, list[tuple[int, float]]] = {}
    for round_ in rounds:
        for pairing in round_.pairings:
            if pairing.bye or pairing.key not in outcomes:
                continue
            points = pod_points(outcomes[pairing.key].placings)
            first, second = pairing.seats
            games.setdefault(first, []).append((second, points[first]))
            games.setdefault(second, []).append((first, points[second]))
    return games


class RoundRobin(Format):
    """Everyone meets everyone once per cycle; seats balanced by the Berger tables."""

    name = "round-robin"
    settings_schema = {
        "cycles": (int, 1, "how many times everyone meets everyone (even cycles swap seats)"),
        "best_of": (int, 1, "games per match (odd)"),
    }

    def __init__(self, cycles: int = 1, best_of: int = 1):
        check_best_of(best_of)
        if cycles < 1:
            raise ValueError(f"cycles must be >= 1, got {cycles}")
        self.cycles = cycles
        self.best_of = best_of

    def schedule(self, entries) -> list[list[tuple[int, int | None]]]:
        """Every round of every cycle as (seat 0, seat 1) entry ids; None is the bye dummy."""
        players = [entry.id for entry in seeded(entries)]
        count = len(players) + len(players) % 2
        by_number = {number: players[number - 1] if number <= len(players) else None
                     for number in range(1, count + 1)}
        cycle = [[(by_number[a], by_number[b]) for a, b in pairs] for pairs in berger_rounds(count)]
        swapped = [[(b, a) for a, b in pairs] for pairs in cycle]
        return [(cycle if index % 2 == 0 else swapped)[round_index]
                for index in range(self.cycles)
                for round_index in cycle_round_order(len(cycle), index, self.cycles)]

    def next_round(self, entries, rounds, outcomes):
        """The next Berger round, or Finished after the last round of the last cycle."""
        self.validate_entries(entries)
        schedule = self.schedule(entries)
        if len(rounds) >= len(schedule):
            return Finished(self.standings(entries, rounds, outcomes))
        number = len(rounds) + 1
        pairings = []
        for index, (first, second) in enumerate(schedule[number - 1], start=1):
            key = f"R{number}-{index}"
            if first is None or second is None:
                pairings.append(Pairing(key, number, (first if second is None else second,), bye=True))
            else:
                pairings.append(Pairing(key, number, (first, second), self.best_of))
        return Round(number, tuple(pairings))

    def standings(self, entries, rounds, outcomes) -> tuple[Standing, ...]:
        """Points (win 1, draw 0.5), then Sonneborn-Berger, then wins; equal on all three share a rank."""
        games = two_player_points(rounds, outcomes)
        points = {e.id: sum(p for _, p in games.get(e.id, [])) for e in entries}
        tiebreaks = {e.id: {
            "sonneborn_berger": sum(points[opp] * p for opp, p in games.get(e.id, [])),
            "wins": float(sum(1 for _, p in games.get(e.id, []) if p == 1.0)),
        } for e in entries}
        return ranked_standings(entries, lambda e: (-points[e], -tiebreaks[e]["sonneborn_berger"],
                                                    -tiebreaks[e]["wins"]), points, tiebreaks)
