"""Double elimination: a winners' bracket, a losers' bracket and a grand final.

The winners' bracket is the single-elimination bracket (byes to the top seeds in round 1, keys
W<r>-<i>). Its losers drop into the losers' bracket (keys L<r>-<i>): L1 pairs the W1 losers
(L1-i takes W1-(2i-1) and W1-2i); each even round L(2j-2) meets the winners of L(2j-3) against
the losers of W(j), and each odd round L(2j-1) halves the field. Where a slot is empty (a bye
upstream) the other player advances without a match.

Drop order (Challonge's, as observed on challonge.com brackets of 64 and 256 slots and written up
in tournament-js/duel issue #11): L(2j-2)-i takes the loser of W(j)-d(i), where d depends on
j mod 4 only, for every bracket size (c = the number of W(j) matches):

    j = 2, 6, 10, ...   reversed:                d(i) = c + 1 - i
    j = 3, 7, 11, ...   each half reversed:      1..c/2 -> c/2..1, c/2+1..c -> c..c/2+1
    j = 4, 8, 12, ...   halves swapped:          1..c/2 -> c/2+1..c and back
    j = 5, 9, 13, ...   natural:                 d(i) = i

Each order is its own inverse, so it reads the same from the winners' side. Changing the order
from round to round keeps a dropped player away from the players it has already beaten for
longer (rematches per event, against the old reversed/natural alternation: bench/brackets.py).

The winners' and losers' champions meet in GF1 (the winners' champion in seat 0); if the losers'
champion wins it and `grand_final_reset` is on, GF2 decides with the seats swapped. A round is
every match whose two players are known, so W and L matches run side by side; a tie sends the
higher seed on.
"""
from __future__ import annotations

from dataclasses import dataclass

from .base import Finished, Format, Pairing, Round, Standing, check_best_of, ranked_standings, seed_ranks, winner_and_loser
from .single_elimination import bracket_order, bracket_size, seeded

Source = tuple[str, object]          # ("seed", position) | ("winner", key) | ("loser", key)


@dataclass(frozen=True)
class Node:
    key: str
    sources: tuple[Source, Source]


def drop_order(round_: int, count: int) -> list[int]:
    """Challonge's drop order: for L matches 1..count of the L round that W<round_> feeds, the W
    match whose loser drops there (see the module docstring for the four orders)."""
    natural, half = list(range(1, count + 1)), count // 2
    step = round_ % 4
    if step == 2:
        return natural[::-1]
    if step == 3:
        return natural[:half][::-1] + natural[half:][::-1]
    if step == 0:
        return natural[half:] + natural[:half]
    return natural


def bracket_nodes(size: int) -> list[Node]:
    """Every winners' and losers' bracket match (and GF1) for a bracket of `size` slots."""
    order = bracket_order(size)
    nodes = [Node(f"W1-{i + 1}", (("seed", order[2 * i]), ("seed", order[2 * i + 1]))) for i in range(size // 2)]
    depth = size.bit_length() - 1
    for r in range(2, depth + 1):
        nodes += [Node(f"W{r}-{i}", (("winner", f"W{r - 1}-{2 * i - 1}"), ("winner", f"W{r - 1}-{2 * i}")))
                  for i in range(1, size // 2 ** r + 1)]
    if depth == 1:
        losers_champion: Source = ("loser", "W1-1")
    else:
        nodes += [Node(f"L1-{i}", (("loser", f"W1-{2 * i - 1}"), ("loser", f"W1-{2 * i}")))
                  for i in range(1, size // 4 + 1)]
        for j in range(2, depth + 1):
            count = size // 2 ** j
            drops = drop_order(j, count)
            nodes += [Node(f"L{2 * j - 2}-{i}", (("winner", f"L{2 * j - 3}-{i}"), ("loser", f"W{j}-{drops[i - 1]}")))
                      for i in range(1, count + 1)]
            if j < depth:
                nodes += [Node(f"L{2 * j - 1}-{i}", (("winner", f"L{2 * j - 2}-{2 * i - 1}"),
                                                     ("winner", f"L{2 * j - 2}-{2 * i}")))
                          for i in range(1, count // 2 + 1)]
        losers_champion = ("winner", f"L{2 * depth - 2}-1")
    return nodes + [Node("GF1", (("winner", f"W{depth}-1"), losers_champion))]


@dataclass
class BracketState:
    """Who won and lost each resolved node (None = nobody), the round it was settled in, and the
    nodes ready to play."""

    winner: dict[str, int | None]
    loser: dict[str, int | None]
    settled: dict[str, int]
    ready: list[tuple[str, tuple[int, int]]]


def resolve(nodes: list[Node], positions: dict[int, int], played: dict[str, int], outcomes, seeds,
            number: int) -> BracketState:
    """Walk the nodes in order, resolving played matches and walkovers, collecting the nodes
    ready for round `number` (both players known and settled in an earlier round)."""
    state = BracketState({}, {}, {}, [])

    def player(source: Source) -> tuple[bool, int | None, int]:
        kind, ref = source
        if kind == "seed":
            return True, positions.get(ref), 0
        table = state.winner if kind == "winner" else state.loser
        return (ref in table), table.get(ref), state.settled.get(ref, 0)

    for node in nodes:
        (known_a, a, when_a), (known_b, b, when_b) = player(node.sources[0]), player(node.sources[1])
        if not (known_a and known_b):
            continue
        if a is None or b is None:
            state.winner[node.key], state.loser[node.key] = (a if b is None else b), None
            # a round-1 bye is shown (and so "played") in round 1
            state.settled[node.key] = max(when_a, when_b, 1 if node.key.startswith("W1-") else 0)
        elif node.key in outcomes:
            state.winner[node.key], state.loser[node.key] = winner_and_loser(outcomes[node.key], seeds)
            state.settled[node.key] = played[node.key]
        elif node.key not in played and max(when_a, when_b) < number:
            state.ready.append((node.key, (a, b)))
    return state


class DoubleElimination(Format):
    """Two losses and you are out; the grand final may be reset."""

    name = "double-elimination"
    settings_schema = {
        "grand_final_reset": (bool, True, "play GF2 if the losers' bracket champion wins GF1"),
        "best_of": (int, 1, "games per match (odd)"),
    }

    def __init__(self, grand_final_reset: bool = True, best_of: int = 1):
        check_best_of(best_of)
        self.grand_final_reset = grand_final_reset
        self.best_of = best_of

    def bracket_state(self, entries, rounds, outcomes) -> BracketState:
        """Resolve the bracket from the rounds and outcomes so far."""
        seeds = seed_ranks(entries)
        positions = {position: entry.id for position, entry in enumerate(seeded(entries), start=1)}
        played = {p.key: r.number for r in rounds for p in r.pairings}
        return resolve(bracket_nodes(bracket_size(len(entries))), positions, played, outcomes, seeds,
                       len(rounds) + 1)

    def next_round(self, entries, rounds, outcomes):
        """Every ready match (round 1 also lists the byes); then GF2 if needed; else Finished."""
        self.validate_entries(entries)
        number = len(rounds) + 1
        state = self.bracket_state(entries, rounds, outcomes)
        pairings = [Pairing(key, number, seats, self.best_of) for key, seats in state.ready]
        if not rounds:
            order = bracket_order(bracket_size(len(entries)))
            positions = {position: entry.id for position, entry in enumerate(seeded(entries), start=1)}
            pairings += [Pairing(f"W1-{i + 1}", 1, (positions[min(order[2 * i], order[2 * i + 1])],), bye=True)
                         for i in range(len(order) // 2) if max(order[2 * i], order[2 * i + 1]) > len(entries)]
            pairings.sort(key=lambda p: int(p.key.split("-")[1]))
        if not pairings and self.needs_reset(state, rounds, outcomes):
            seats = next(p.seats for r in rounds for p in r.pairings if p.key == "GF1")
            # swapped, so that each finalist sits first in one of the two grand finals
            pairings = [Pairing("GF2", number, seats[::-1], self.best_of)]
        if not pairings:
            return Finished(self.standings(entries, rounds, outcomes))
        return Round(number, tuple(pairings))

    def needs_reset(self, state: BracketState, rounds, outcomes) -> bool:
        """GF2 is due if reset is on, GF1 was won by the losers' champion, and GF2 is not yet played."""
        if not self.grand_final_reset or "GF1" not in state.winner or "GF2" in outcomes:
            return False
        gf1 = next(p for r in rounds for p in r.pairings if p.key == "GF1")
        return state.winner["GF1"] == gf1.seats[1]

    def standings(self, entries, rounds, outcomes) -> tuple[Standing, ...]:
        """Champion, runner-up, then by the losers' round of elimination (later is better).

        Players still in rank above the eliminated, those with fewer losses first.
        """
        seeds = seed_ranks(entries)
        losses = {entry.id: 0 for entry in entries}
        out_stage = {entry.id: 10 ** 6 for entry in entries}   # L round of elimination; 1000 = grand final
        wins = {entry.id: 0.0 for entry in entries}
        for round_ in rounds:
            for pairing in round_.pairings:
                if pairing.bye or pairing.key not in outcomes:
                    continue
                winner, loser = winner_and_loser(outcomes[pairing.key], seeds)
                wins[winner] += 1
                losses[loser] += 1
                final = pairing.key.startswith("GF")
                if losses[loser] >= 2 or (pairing.key == "GF1" and not self.grand_final_reset):
                    out_stage[loser] = 1000 if final else int(pairing.key[1:].split("-")[0])
        return ranked_standings(entries, lambda e: (-out_stage[e], losses[e]), wins,
                                {e: {"losses": float(losses[e])} for e in losses})
