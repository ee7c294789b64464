"""Swiss system for two-seat games: the FIDE (Dutch) system, Handbook C.04.3 (2025 rules).

Seat 0 moves first, so it plays the part of white. Pairing numbers are the seed order; players
are ranked by points, then pairing number (A.2). Each round is paired by `dutch.dutch_pairing`
(score brackets, moved-down players, the absolute criteria C.1-C.3, completion C.4, the quality
criteria C.5-C.21, the rules' candidate order, the colour allocation E.1-E.5 with white on board 1
in round 1). The pairing-allocated bye (odd fields) is worth a win, 1 point, and goes to nobody
twice. A series (best_of > 1) counts as one game: its seat 0 is the colour.

When no pairing satisfies C.1-C.3 at all (long events on small fields: the Dutch rules then have
no answer), `fewest_rematches` pairs the round instead, a maximum-weight matching with nested
weights: the fewest rematches, then the fewest pairs of players with the same absolute colour
preference, then the bye to the lowest-ranked player without one, then the closest scores; seats
still follow E.1-E.5. Tie-breaks: Buchholz, Buchholz cut 1, Sonneborn-Berger, direct encounter.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .base import Finished, Format, Pairing, Round, Standing, check_best_of, pod_points, ranked_standings, seed_ranks
from .dutch import (BLACK, WHITE, DutchPairing, DutchPlayer, NoDutchPairing, RoundRecord, allocate_colours, baku_accelerations,
                    board_key, dutch_pairing, dutch_players)
from .matching import max_weight_matching
from .round_robin import two_player_points


def swiss_records(entries, rounds, outcomes) -> dict[int, list[RoundRecord]]:
    """Each entry's rounds (by pairing number = seed order) as the Dutch rules read them: seat 0
    is white, a series is one game, a bye is the pairing-allocated bye worth 1 point, a pairing
    decided without play is a forfeit (points, no game), and a round an entry was not paired in
    (it had withdrawn) an absence: no game, no points (TRF-16 `0000 - -`)."""
    number = seed_ranks(entries)
    records: dict[int, list[RoundRecord]] = {number[e.id]: [] for e in entries}
    for index, round_ in enumerate(rounds):
        for pairing in round_.pairings:
            if pairing.bye:
                records[number[pairing.seats[0]]].append(RoundRecord(2, pairing_bye=True))
                continue
            outcome = outcomes.get(pairing.key)
            points = pod_points(outcome.placings) if outcome else {}
            white, black = pairing.seats
            for entry, opponent, colour in ((white, black, WHITE), (black, white, BLACK)):
                half_points = round(2 * points.get(entry, 0.0))
                records[number[entry]].append(RoundRecord(half_points, forfeit=True) if outcome and outcome.forfeit
                                              else RoundRecord(half_points, number[opponent], colour))
        for rows in records.values():
            if len(rows) == index:
                rows.append(RoundRecord(0))
    return records


@dataclass(frozen=True)
class SwissPairing:
    """One round by pairing numbers: (white, black) pairs in board order, the bye, and whether
    the fallback made it (no pairing satisfied C.1-C.3)."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    fallback: bool = False


def swiss_pairing(records: dict[int, list[RoundRecord]], *, rounds_planned: int, initial_colour: int = WHITE,
                  absent: frozenset[int] = frozenset(),
                  accelerations: dict[int, list[int]] | None = None) -> SwissPairing:
    """The Dutch pairing of the next round (without the `absent` players; on scores with the
    `accelerations`' virtual points), or the fallback when none exists."""
    players = dutch_players(records, absent, accelerations)
    if not players:
        return SwissPairing((), None)
    played = max((len(rows) for rows in records.values()), default=0)
    try:
        found: DutchPairing = dutch_pairing(players, rounds_played=played, rounds_planned=rounds_planned,
                                            initial_colour=initial_colour)
        return SwissPairing(found.pairs, found.bye)
    except NoDutchPairing:
        return fewest_rematches(players, initial_colour)


def fewest_rematches(players: list[DutchPlayer], initial_colour: int = WHITE) -> SwissPairing:
    """The fallback when C.1-C.3 allow no pairing: Edmonds' maximum-weight matching over all
    players, plus a bye node joined to the players without a bye (lowest-ranked first). The
    weights are nested so that each criterion outweighs everything after it: no rematch, no
    two players with the same absolute colour preference, the bye's rank, score closeness.
    (Should everyone have had a bye, which the format's round limit prevents, anyone may.)"""
    ranked = sorted(players, key=lambda p: (-p.score, p.number))
    rank = {p.number: i for i, p in enumerate(ranked)}
    spread = max(p.score for p in ranked) - min(p.score for p in ranked) + 1
    closeness_total = (len(ranked) // 2 + 1) * spread     # more than all pairs' closeness together
    eligible = [p for p in reversed(ranked) if p.bye_eligible] if len(ranked) % 2 else []
    if len(ranked) % 2 and not eligible:      # only from a TRF history: the format never runs out
        eligible = list(reversed(ranked))
    bye_step = closeness_total + 1
    colour_step = bye_step * (len(eligible) + 1)
    no_rematch = colour_step * (len(ranked) // 2 + 2)       # more than every pair and the bye together
    edges = {}
    for i, a in enumerate(ranked):
        for j in range(i + 1, len(ranked)):
            b = ranked[j]
            clash = a.absolute and b.absolute and a.preference == b.preference
            edges[(i, j)] = (spread - abs(a.score - b.score) + (0 if clash else colour_step)
                             + (0 if b.number in a.opponents else no_rematch))
    bye_node = len(ranked)
    for place, player in enumerate(eligible):
        edges[(rank[player.number], bye_node)] = no_rematch + colour_step + bye_step * (len(eligible) - place)
    matching = max_weight_matching(list(range(len(ranked) + 1)), edges, most_pairs=True)
    bye, pairs = None, []
    for a, b in matching:
        if b == bye_node:
            bye = ranked[a].number
        else:
            pairs.append((ranked[a], ranked[b]))
    pairs.sort(key=lambda pair: board_key(pair[0], pair[1], rank))
    return SwissPairing(tuple(allocate_colours(a, b, rank, initial_colour) for a, b in pairs), bye, True)


def swiss_tiebreaks(entries, rounds, outcomes) -> tuple[dict[int, float], dict[int, dict[str, float]]]:
    """Points and the tie-breaks of every entry (definitions in docs/tournaments.md)."""
    games = two_player_points(rounds, outcomes)
    points = {e.id: sum(p for _, p in games.get(e.id, [])) for e in entries}
    for round_ in rounds:
        for pairing in round_.pairings:
            if pairing.bye:
                points[pairing.seats[0]] += 1.0
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
    """The FIDE Dutch system with seat 0 as white; at most one bye each."""

    name = "swiss"
    settings_schema = {
        "rounds": (int, None, "number of rounds (default ceil(log2 n))"),
        "best_of": (int, 1, "games per match (odd)"),
        "acceleration": (str, None, "\"baku\": the FIDE Baku acceleration (C.04.5.1); default none"),
    }
    settings_choices = {"acceleration": ("baku",)}  # the values a text setting may take (the API's schema)

    def __init__(self, rounds: int | None = None, best_of: int = 1, acceleration: str | None = None):
        check_best_of(best_of)
        if rounds is not None and rounds < 1:
            raise ValueError(f"rounds must be >= 1, got {rounds}")
        if acceleration not in (None, "baku"):
            raise ValueError(f"acceleration must be \"baku\" or absent, got {acceleration!r}")
        self.rounds = rounds
        self.best_of = best_of
        self.acceleration = acceleration

    def accelerations(self, entries) -> dict[int, list[int]] | None:
        """Virtual half-points by pairing number and round (see baku_accelerations), or None."""
        if self.acceleration != "baku":
            return None
        return baku_accelerations(len(entries), self.round_count(entries))

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
        """Pair the next round (boards in order, the bye last), or Finished after the last.
        Withdrawn entries are not paired (their missed rounds are absences, see swiss_records)."""
        self.validate_entries(entries)
        if len(rounds) >= self.round_count(entries):
            return Finished(self.standings(entries, rounds, outcomes))
        numbers = seed_ranks(entries)
        withdrawn = frozenset(numbers[e.id] for e in entries if e.withdrawn)
        found = swiss_pairing(swiss_records(entries, rounds, outcomes), rounds_planned=self.round_count(entries),
                              absent=withdrawn, accelerations=self.accelerations(entries))
        by_number = {number: entry for entry, number in numbers.items()}
        number = len(rounds) + 1
        pairings = [Pairing(f"R{number}-{board}", number, (by_number[white], by_number[black]), self.best_of)
                    for board, (white, black) in enumerate(found.pairs, start=1)]
        if found.bye is not None:
            pairings.append(Pairing(f"R{number}-{len(pairings) + 1}", number, (by_number[found.bye],), bye=True))
        return Round(number, tuple(pairings))

    def standings(self, entries, rounds, outcomes) -> tuple[Standing, ...]:
        """Points (win or bye 1, draw 0.5), then the tie-breaks in order; all equal share a rank."""
        points, tiebreaks = swiss_tiebreaks(entries, rounds, outcomes)
        order = ("buchholz", "buchholz_cut_1", "sonneborn_berger", "direct_encounter")
        return ranked_standings(entries, lambda e: (-points[e],) + tuple(-tiebreaks[e][k] for k in order),
                                points, tiebreaks)
