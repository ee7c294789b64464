"""Single elimination: one loss and you are out.

The bracket has P = the next power of two >= n slots in the standard seeding order (1 v P, then
the bracket is folded so seeds 1 and 2 can only meet in the final). Slots past n are byes, which
therefore go to the top seeds and only in round 1. An optional third-place match between the
semi-final losers is played alongside the final (only when both semi-finals were played).
A tied outcome sends the higher seed through.
"""
from __future__ import annotations

from .base import (Entry, Finished, Format, Outcome, Pairing, Round, Standing, check_best_of,
                   ranked_standings, seed_ranks, seeded, winner_and_loser)

THIRD_PLACE_KEY = "3P"


def bracket_size(count: int) -> int:
    """The smallest power of two >= count."""
    size = 1
    while size < count:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket slot order for a power-of-two size: 4 -> [1, 4, 2, 3]."""
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order)
        order = [seed for top in order for seed in (top, doubled + 1 - top)]
    return order


def first_round(entries: list[Entry], best_of: int, prefix: str = "R", number: int = 1) -> list[Pairing]:
    """Round 1 of a bracket: slot pairs in bracket order; a slot facing an empty one is a bye."""
    by_position = {position: entry.id for position, entry in enumerate(seeded(entries), start=1)}
    order = bracket_order(bracket_size(len(entries)))
    pairings = []
    for index in range(len(order) // 2):
        present = [by_position[seed] for seed in order[2 * index:2 * index + 2] if seed in by_position]
        key = f"{prefix}1-{index + 1}"
        pairings.append(Pairing(key, number, tuple(present), best_of if len(present) == 2 else 1,
                                bye=len(present) == 1))
    return pairings


def advancing(pairings: list[Pairing], outcomes: dict[str, Outcome], seeds: dict[int, int]) -> list[int]:
    """Winners of a bracket round, in slot order (a bye's sole seat advances)."""
    return [pairing.seats[0] if pairing.bye else winner_and_loser(outcomes[pairing.key], seeds)[0]
            for pairing in pairings]


class SingleElimination(Format):
    """Single elimination with byes to the top seeds and an optional third-place match."""

    name = "single-elimination"
    settings_schema = {
        "third_place": (bool, False, "play a match for third place between the semi-final losers"),
        "best_of": (int, 1, "games per match (odd)"),
    }

    def __init__(self, third_place: bool = False, best_of: int = 1):
        check_best_of(best_of)
        self.third_place = third_place
        self.best_of = best_of

    def next_round(self, entries, rounds, outcomes):
        """Round 1 from the seeding, then the winners of the last round pair off in slot order."""
        self.validate_entries(entries)
        if not rounds:
            return Round(1, tuple(first_round(entries, self.best_of)))
        seeds = seed_ranks(entries)
        bracket = [p for p in rounds[-1].pairings if p.key != THIRD_PLACE_KEY]
        winners = advancing(bracket, outcomes, seeds)
        if len(winners) == 1:
            return Finished(self.standings(entries, rounds, outcomes))
        number = len(rounds) + 1
        pairings = [Pairing(f"R{number}-{i + 1}", number, (winners[2 * i], winners[2 * i + 1]), self.best_of)
                    for i in range(len(winners) // 2)]
        if len(winners) == 2 and self.third_place:
            losers = [winner_and_loser(outcomes[p.key], seeds)[1] for p in bracket if not p.bye]
            if len(losers) == 2:
                pairings.append(Pairing(THIRD_PLACE_KEY, number, tuple(losers), self.best_of))
        return Round(number, tuple(pairings))

    def standings(self, entries, rounds, outcomes) -> tuple[Standing, ...]:
        """Rank by the round reached (later is better); the final and third-place results order the top."""
        seeds = seed_ranks(entries)
        out_round = {entry.id: len(rounds) + 1 for entry in entries}
        bonus = {entry.id: 0 for entry in entries}
        wins = {entry.id: 0.0 for entry in entries}
        for round_ in rounds:
            for pairing in round_.pairings:
                if pairing.bye or pairing.key not in outcomes:
                    continue
                winner, loser = winner_and_loser(outcomes[pairing.key], seeds)
                wins[winner] += 1
                if pairing.key == THIRD_PLACE_KEY:
                    bonus[winner] = 1
                else:
                    out_round[loser] = round_.number
        # The round an entry last played: the one it was knocked out in, else the latest round
        # (the champion's is the final's, not one past it); ``out_round`` only ranks.
        return ranked_standings(entries, lambda e: (-out_round[e], -bonus[e]), wins,
                                {e: {"round_reached": min(out_round[e], len(rounds))} for e in out_round})
