"""Swiss system for two-seat games.

Each round players are ranked by points, then seed. Pairing takes the top unpaired player and
tries partners in order: its own score group folded (top half v bottom half), then the nearest
lower scores; a search backtracks so that no rematch happens while some rematch-free pairing of
the whole field exists. With an odd field the bye goes to the lowest-ranked player who has not had
one and for whom the rest can still be paired without a rematch; a bye counts as a win. When every
choice needs a rematch (long events, small fields), a maximum-weight matching decides instead:
first the fewest rematches, then the bye to the lowest-ranked player without one, then the
closest scores (``fewest_rematches``). Seats: whoever has sat first less often sits first;
if equal, whoever sat second last time; if still equal, the higher ranked in odd rounds.
Tie-breaks in order: Buchholz, Buchholz cut 1, Sonneborn-Berger, direct encounter.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import networkx

from .base import Finished, Format, Pairing, Round, Standing, check_best_of, ranked_standings, seed_ranks
from .round_robin import two_player_points


@dataclass
class SwissHistory:
    """What pairing needs to know about the rounds so far."""

    points: dict[int, float]
    opponents: dict[int, set[int]]
    byes: set[int]
    seat_balance: dict[int, int]                      # games in seat 0 minus games in seat 1
    last_seat: dict[int, int] = field(default_factory=dict)


def swiss_history(entries, rounds, outcomes) -> SwissHistory:
    """Fold the rounds so far into points, opponents, byes and seat counts."""
    ids = [entry.id for entry in entries]
    games = two_player_points(rounds, outcomes)
    history = SwissHistory({i: sum(p for _, p in games.get(i, [])) for i in ids},
                           {i: {opp for opp, _ in games.get(i, [])} for i in ids}, set(),
                           {i: 0 for i in ids})
    for round_ in rounds:
        for pairing in round_.pairings:
            if pairing.bye:
                history.byes.add(pairing.seats[0])
                history.points[pairing.seats[0]] += 1.0
                continue
            for seat, entry in enumerate(pairing.seats):
                history.seat_balance[entry] += 1 if seat == 0 else -1
                history.last_seat[entry] = seat
    return history


def partner_preferences(player: int, remaining: list[int], points: dict[int, float]) -> list[int]:
    """Partners for the top remaining player: its score group folded, then the nearest scores."""
    group = [other for other in remaining if points[other] == points[player]]
    target = len(group) // 2
    in_group = sorted(group[1:], key=lambda other: (abs(group.index(other) - target), group.index(other)))
    below = [other for other in remaining if points[other] != points[player]]
    return in_group + sorted(below, key=lambda other: abs(points[other] - points[player]))


def pair_players(remaining: list[int], history: SwissHistory, allow_rematches: bool,
                 failed: set[tuple[int, ...]] | None = None) -> list[tuple[int, int]] | None:
    """Pairs covering `remaining` (in rank order), or None if impossible without a rematch."""
    failed = set() if failed is None else failed
    if not remaining:
        return []
    if tuple(remaining) in failed:
        return None
    player = remaining[0]
    for partner in partner_preferences(player, remaining, history.points):
        if not allow_rematches and partner in history.opponents[player]:
            continue
        rest = pair_players([p for p in remaining[1:] if p != partner], history, allow_rematches, failed)
        if rest is not None:
            return [(player, partner)] + rest
    failed.add(tuple(remaining))
    return None


def choose_bye_and_pairs(ranked: list[int], history: SwissHistory) -> tuple[int | None, list[tuple[int, int]]]:
    """The bye (odd fields) and the pairs, avoiding rematches whenever any choice allows it."""
    if len(ranked) % 2 == 0:
        pairs = pair_players(ranked, history, False)
        return (None, pairs) if pairs is not None else fewest_rematches(ranked, history, [])
    eligible = [player for player in reversed(ranked) if player not in history.byes]
    if not eligible:
        raise ValueError("every entrant has had a bye; too many Swiss rounds for this field")
    for bye in eligible:
        pairs = pair_players([p for p in ranked if p != bye], history, False)
        if pairs is not None:
            return bye, pairs
    return fewest_rematches(ranked, history, eligible)


def fewest_rematches(ranked: list[int], history: SwissHistory,
                     eligible: list[int]) -> tuple[int | None, list[tuple[int, int]]]:
    """The pairing when none is rematch-free: Edmonds' maximum-weight perfect matching over all
    players (and a bye node joined to the `eligible` players, lowest-ranked first). The weights
    are nested so that each criterion outweighs everything after it: no rematch, then the bye's
    rank, then score closeness. Pairs come back in rank order, higher-ranked player first."""
    rank = {player: index for index, player in enumerate(ranked)}
    spread = int(2 * (max(history.points.values()) - min(history.points.values()))) + 1
    closeness_total = (len(ranked) // 2 + 1) * spread  # more than all pairs' closeness together
    bye_step = closeness_total + 1
    no_rematch = bye_step * (len(eligible) + 1)
    graph = networkx.Graph()
    for index, a in enumerate(ranked):
        for b in ranked[index + 1:]:
            closeness = spread - int(2 * abs(history.points[a] - history.points[b]))
            graph.add_edge(a, b, weight=closeness + (0 if b in history.opponents[a] else no_rematch))
    bye_node = object()
    for place, player in enumerate(eligible):  # eligible runs from the lowest rank upwards
        graph.add_edge(bye_node, player, weight=no_rematch + bye_step * (len(eligible) - place))
    matching = networkx.max_weight_matching(graph, maxcardinality=True)
    bye, pairs = None, []
    for a, b in matching:
        if bye_node in (a, b):
            bye = b if a is bye_node else a
        else:
            pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    return bye, sorted(pairs, key=lambda pair: rank[pair[0]])


def seat_order(higher: int, lower: int, history: SwissHistory, number: int) -> tuple[int, int]:
    """Who sits first: fewer first seats so far, then second seat last time, then rank by round parity."""
    balance = history.seat_balance
    if balance[higher] != balance[lower]:
        return (higher, lower) if balance[higher] < balance[lower] else (lower, higher)
    last_higher, last_lower = history.last_seat.get(higher), history.last_seat.get(lower)
    if last_higher != last_lower and last_higher is not None and last_lower is not None:
        return (higher, lower) if last_higher == 1 else (lower, higher)
    return (higher, lower) if number % 2 == 1 else (lower, higher)


def swiss_tiebreaks(entries, rounds, outcomes) -> tuple[dict[int, float], dict[int, dict[str, float]]]:
    """Points and the tie-breaks of every entry (definitions in docs/tournaments.md)."""
    points = swiss_history(entries, rounds, outcomes).points
    games = two_player_points(rounds, outcomes)
    tiebreaks = {}
    for entry in entries:
        played = games.get(entry.id, [])
        opponent_points = sorted(points[opp] for opp, _ in played)
        tiebreaks[entry.id] = {
            "buchholz": float(sum(opponent_points)),
            "buchholz_cut_1": float(sum(opponent_points[1:])),
            "sonneborn_berger": float(sum(points[opp] * scored for opp, scored in played)),
        }
    tied_on = {e.id: (points[e.id],) + tuple(tiebreaks[e.id].values()) for e in entries}
    for entry in entries:
        group = {other for other, key in tied_on.items() if key == tied_on[entry.id]}
        tiebreaks[entry.id]["direct_encounter"] = float(sum(
            scored for opp, scored in games.get(entry.id, []) if opp in group))
    return points, tiebreaks


class Swiss(Format):
    """Swiss pairings by score group with no avoidable rematch and at most one bye each."""

    name = "swiss"
    settings_schema = {
        "rounds": (int, None, "number of rounds (default ceil(log2 n))"),
        "best_of": (int, 1, "games per match (odd)"),
    }

    def __init__(self, rounds: int | None = None, best_of: int = 1):
        check_best_of(best_of)
        if rounds is not None and rounds < 1:
            raise ValueError(f"rounds must be >= 1, got {rounds}")
        self.rounds = rounds
        self.best_of = best_of

    def round_count(self, entries) -> int:
        """The rounds setting, or ceil(log2 n)."""
        return self.rounds if self.rounds is not None else max(1, math.ceil(math.log2(len(entries))))

    def validate_entries(self, entries) -> None:
        """At most as many rounds as a round robin of the field would have (one bye each)."""
        super().validate_entries(entries)
        most = len(entries) - 1 + len(entries) % 2
        if self.round_count(entries) > most:
            raise ValueError(f"{len(entries)} entrants allow at most {most} Swiss rounds")

    def next_round(self, entries, rounds, outcomes):
        """Pair the next round, or Finished after the last."""
        self.validate_entries(entries)
        if len(rounds) >= self.round_count(entries):
            return Finished(self.standings(entries, rounds, outcomes))
        history = swiss_history(entries, rounds, outcomes)
        seeds = seed_ranks(entries)
        ranked = sorted(seeds, key=lambda entry: (-history.points[entry], seeds[entry]))
        bye, pairs = choose_bye_and_pairs(ranked, history)
        number = len(rounds) + 1
        pairings = [Pairing(f"R{number}-{i}", number, seat_order(a, b, history, number), self.best_of)
                    for i, (a, b) in enumerate(pairs, start=1)]
        if bye is not None:
            pairings.append(Pairing(f"R{number}-{len(pairs) + 1}", number, (bye,), bye=True))
        return Round(number, tuple(pairings))

    def standings(self, entries, rounds, outcomes) -> tuple[Standing, ...]:
        """Points (win or bye 1, draw 0.5), then the tie-breaks in order; all equal share a rank."""
        points, tiebreaks = swiss_tiebreaks(entries, rounds, outcomes)
        order = ("buchholz", "buchholz_cut_1", "sonneborn_berger", "direct_encounter")
        return ranked_standings(entries, lambda e: (-points[e],) + tuple(-tiebreaks[e][k] for k in order),
                                points, tiebreaks)
