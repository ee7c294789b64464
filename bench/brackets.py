"""Losers'-bracket rematches of double elimination: the shipped drop order against the old one.

A rematch is a losers'-bracket match between two entrants who have already met (necessarily in
the winners' bracket). The shipped order is Challonge's (`double_elimination.drop_order`); the
old order, kept here only for the comparison, dropped W(j)'s losers in natural order for odd j
and reversed for even j. Full brackets (16, 32, 64 entrants, no byes).

Results model: every match is won by the higher seed with probability p, else by the lower seed,
independently; p = 0.5 (coin flips) and p = 0.75; both orders use the same random draws (fixed
seeds), one per match in bracket order. Also the issue's reproduction: 32 entrants, the higher seed wins every match
except that 32 beats 1 and then 16; where is the first losers'-bracket rematch?

Pure Python, no Django. Run alone: ``.venv/bin/python bench/brackets.py`` prints the report.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tournaments.formats import DoubleElimination, Entry, Finished, Outcome  # noqa: E402
from tournaments.formats.double_elimination import Node, bracket_nodes  # noqa: E402

SIZES = (16, 32, 64)
HIGHER_SEED_WINS = (0.5, 0.75)
EVENTS = {"full": 4000, "quick": 200}

Decide = Callable[[str, int, int], int]      # (node key, seed a, seed b) -> the winner's seed


def old_drop_order(round_: int, count: int) -> list[int]:
    """The drop order before Challonge's: natural for odd W rounds, reversed for even ones."""
    natural = list(range(1, count + 1))
    return natural if round_ % 2 else natural[::-1]


def with_drop_order(nodes: list[Node], order: Callable[[int, int], list[int]]) -> list[Node]:
    """The same bracket with every W(j) -> L(2j-2) drop re-pointed by `order` (j >= 2)."""
    counts: dict[str, int] = {}
    for node in nodes:
        stage = node.key.split("-")[0]
        counts[stage] = counts.get(stage, 0) + 1
    rewired = []
    for node in nodes:
        first, second = node.sources
        l_round = int(node.key[1:].split("-")[0]) if node.key.startswith("L") else 0
        if l_round >= 2 and l_round % 2 == 0:            # L(2j-2) takes W(j)'s loser as source 2
            w_round = l_round // 2 + 1
            l_index = int(node.key.split("-")[1])
            drop = order(w_round, counts[f"W{w_round}"])[l_index - 1]
            second = ("loser", f"W{w_round}-{drop}")
        rewired.append(Node(node.key, (first, second)))
    return rewired


def losers_rematches(nodes: list[Node], decide: Decide) -> list[str]:
    """Play a full bracket (seed = entrant) node by node; the keys of the L matches that were
    rematches. Node order is a valid play order: every W node comes before every L node."""
    winner: dict[str, int] = {}
    loser: dict[str, int] = {}
    met: set[frozenset[int]] = set()
    rematches = []
    for node in nodes:
        a, b = (ref if kind == "seed" else (winner if kind == "winner" else loser)[ref]
                for kind, ref in node.sources)
        if node.key.startswith("L") and frozenset((a, b)) in met:
            rematches.append(node.key)
        met.add(frozenset((a, b)))
        winner[node.key] = decide(node.key, a, b)
        loser[node.key] = b if winner[node.key] == a else a
    return rematches


def higher_seed_wins_with(p: float, rng: random.Random) -> Decide:
    """The results model: the higher seed (lower number) wins with probability p."""
    return lambda key, a, b: min(a, b) if rng.random() < p else max(a, b)


def reproduction(key: str, a: int, b: int) -> int:
    """The issue's reproduction: 32 beats 1 and then 16; otherwise the higher seed wins."""
    return 32 if {a, b} in ({1, 32}, {16, 32}) else min(a, b)


def first_rematch_round(rematches: list[str]) -> int | None:
    """The earliest losers' round (the r of L<r>) with a rematch, or None."""
    return min((int(key[1:].split("-")[0]) for key in rematches), default=None)


def reproduction_with_the_format() -> int | None:
    """The reproduction played through the shipped DoubleElimination itself (not the node walk)."""
    entries = [Entry(seed, seed) for seed in range(1, 33)]
    fmt, rounds, outcomes = DoubleElimination(), [], {}
    met, rematches = set(), []
    while not isinstance(result := fmt.next_round(entries, rounds, outcomes), Finished):
        rounds.append(result)
        for pairing in (p for p in result.pairings if not p.bye):
            a, b = pairing.seats
            if pairing.key.startswith("L") and frozenset((a, b)) in met:
                rematches.append(pairing.key)
            met.add(frozenset((a, b)))
            won = reproduction(pairing.key, a, b)
            outcomes[pairing.key] = Outcome(pairing.key, {won: 1, (b if won == a else a): 2})
    return first_rematch_round(rematches)


def run(quick: bool = False) -> dict:
    """Rematches per event for each size, model and order; the reproduction, old and new."""
    events = EVENTS["quick" if quick else "full"]
    started = time.perf_counter()
    rows = []
    for size in SIZES:
        new = bracket_nodes(size)
        orders = {"old": with_drop_order(new, old_drop_order), "new": new}
        for p in HIGHER_SEED_WINS:
            row = {"size": size, "p": p, "events": events}
            for name, nodes in orders.items():
                rng = random.Random(f"brackets-{size}-{p}")      # the same events under both orders
                found = [losers_rematches(nodes, higher_seed_wins_with(p, rng)) for _ in range(events)]
                row[name] = sum(map(len, found)) / events
                row[f"{name}_events_with_one"] = sum(1 for keys in found if keys) / events
            rows.append(row)
    old32 = with_drop_order(bracket_nodes(32), old_drop_order)
    repro = {"old": first_rematch_round(losers_rematches(old32, reproduction)),
             "new": first_rematch_round(losers_rematches(bracket_nodes(32), reproduction)),
             "new_through_the_format": reproduction_with_the_format()}
    return {"rows": rows, "reproduction": repro, "seconds": time.perf_counter() - started}


def report(result: dict) -> list[str]:
    """Markdown lines."""
    def round_name(value: int | None) -> str:
        return "none" if value is None else f"L{value}"
    events = result["rows"][0]["events"]
    lines = [f"Full brackets; every match won by the higher seed with probability p; {events:,} "
             f"events per row (fixed seeds, the same random draws under both orders). A rematch is "
             f"a losers'-bracket match between two entrants who met before. Old: W(j) drops "
             f"natural for odd j, reversed for even j. New: Challonge's order "
             f"(`double_elimination.drop_order`; tests check it against drops observed on "
             f"Challonge's own 64- and 256-slot brackets).", "",
             "| slots | p | rematches/event, old | new | events with a rematch, old | new |",
             "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in result["rows"]:
        lines.append(f"| {row['size']} | {row['p']} | {row['old']:.2f} | {row['new']:.2f} | "
                     f"{row['old_events_with_one']:.0%} | {row['new_events_with_one']:.0%} |")
    repro = result["reproduction"]
    lines += ["", "Reproduction (32 entrants; the higher seed wins except that 32 beats 1 and then 16): "
              f"first losers'-bracket rematch, old order {round_name(repro['old'])}, new order "
              f"{round_name(repro['new'])} (through DoubleElimination itself: "
              f"{round_name(repro['new_through_the_format'])}).",
              "", f"({result['seconds']:.1f} s)"]
    return lines


if __name__ == "__main__":
    print("\n".join(report(run(quick="--quick" in sys.argv))))
