"""Fit the weights of Imperial Twing's search evaluation (games/imperial_twing/search.py,
``WEIGHTS``) from the heuristic bot's games against itself, and print them.

    .venv/bin/python -m bench.evaluation [--games 2000] [--jobs 2]

What it does, all of it fixed so that a run prints the same weights on any machine:

1. **Games**: ``--games`` two-player matches of the heuristic bot against itself, options the
   defaults, match ``i`` with the chance seed sha256("it-eval-<i>") and bot seeds 2i+1, 2i+2. A
   game the turn limit ends level (D24) says nothing of who was ahead and is left out.
2. **Positions**: every state where a seat chooses its turn's action (phase ``action``, T.4) with
   both seats in the game; per position the ``features`` of both seats, the seat to act, and
   whether seat 0 won the match.
3. **Fit**: logistic regression of "seat 0 won" on the difference of the two seats' features,
   with a term for the seat to act (+1 seat 0, -1 seat 1: the tempo, fitted so that it is not
   read into the other weights, and left out of the evaluation, which values each seat on its
   own), no intercept (the seats are alike but for the tempo). Newton's method (iteratively
   reweighted least squares) with a ridge of 0.001, to convergence. The positions are shuffled
   with a fixed seed and split 80/20: the weights are fitted on the 80 and the log-likelihood of
   the 20 is printed beside the train's, with that of objects and ornicles alone and of the
   even guess (log 0.5), so the gain of every feature is read on positions the fit has not seen.

The positions of one game are alike, so the held-out figure flatters a little; it is there to
compare feature sets, not as a promise.
"""
from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = "imperial-twing"
RIDGE = 1e-3
SPLIT_SEED, TRAIN_SHARE = 1, 0.8


def game_positions(index: int) -> list[tuple[list[float], list[float], int, int]]:
    """The positions of self-play game ``index``: (seat 0's features, seat 1's, the seat to act,
    1 if seat 0 won else 0), in WEIGHTS' order; none if the game ended level."""
    from games.engine import registry
    from games.engine.log import Folder
    from games.engine.runner import playout
    from games.imperial_twing.search import WEIGHTS, features
    from games.imperial_twing.table import in_play

    ruleset = registry.get(GAME)
    heuristic = ruleset.builtin_bots()["heuristic"]
    records = playout(ruleset, 2, seed=hashlib.sha256(f"it-eval-{index}".encode()).digest(),
                      bots={0: heuristic(ruleset, 2 * index + 1), 1: heuristic(ruleset, 2 * index + 2)})
    placings = records[-1]["payload"]["result"]["placings"]
    if placings[0] == placings[1]:
        return []
    won = 1 if placings[0] < placings[1] else 0
    folder, found = Folder(records[0], in_place=True), []
    for record in records[1:]:
        folder.advance(record)
        state = folder.state
        if state["phase"] == "action" and state["end"] is None and len(in_play(state)) == 2:
            first, second = features(state, 0), features(state, 1)
            found.append(([first[name] for name in WEIGHTS], [second[name] for name in WEIGHTS],
                          state["actor"], won))
    return found


def design(positions) -> list[tuple[list[float], int]]:
    """Each position as (the features' difference, seat 0 first, then the tempo term; won)."""
    return [([a - b for a, b in zip(first, second)] + [1.0 if actor == 0 else -1.0], won)
            for first, second, actor, won in positions]


def _probability(weights: list[float], x: list[float]) -> float:
    z = sum(w * v for w, v in zip(weights, x))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def fit(rows: list[tuple[list[float], int]], *, ridge: float = RIDGE, steps: int = 50) -> list[float]:
    """Logistic regression without intercept by Newton's method: the weights of ``rows``'
    columns that make the observed outcomes likeliest, with a small ridge on each."""
    size = len(rows[0][0])
    weights = [0.0] * size
    for _ in range(steps):
        gradient = [-ridge * w for w in weights]
        hessian = [[ridge * (i == j) for j in range(size)] for i in range(size)]
        for x, won in rows:
            p = _probability(weights, x)
            for i in range(size):
                gradient[i] += (won - p) * x[i]
                for j in range(size):
                    hessian[i][j] += p * (1 - p) * x[i] * x[j]
        step = _solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return weights


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix`` x = ``vector`` by Gauss-Jordan elimination with partial pivoting."""
    size = len(vector)
    rows = [row[:] + [value] for row, value in zip(matrix, vector)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(size):
            if r != column:
                factor = rows[r][column] / rows[column][column]
                for c in range(column, size + 1):
                    rows[r][c] -= factor * rows[column][c]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def log_likelihood(weights: list[float], rows) -> float:
    """The mean log-likelihood of ``rows``' outcomes under ``weights`` (higher is better)."""
    total = 0.0
    for x, won in rows:
        p = _probability(weights, x)
        total += math.log(p if won else 1 - p)
    return total / len(rows)


def run(games: int, jobs: int) -> dict:
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        per_game = pool.map(game_positions, range(games), chunksize=8)  # in game order
    positions = [position for found in per_game for position in found]
    rows = design(positions)
    random.Random(SPLIT_SEED).shuffle(rows)
    cut = int(len(rows) * TRAIN_SHARE)
    train, test = rows[:cut], rows[cut:]
    weights = fit(train)
    simple = [([x[0], x[1], x[-1]], won) for x, won in rows]  # objects, ornicles, tempo
    simple_weights = fit(simple[:cut])
    return {"games": games, "level": sum(1 for found in per_game if not found),
            "positions": len(rows), "weights": weights,
            "train": log_likelihood(weights, train), "test": log_likelihood(weights, test),
            "test_simple": log_likelihood(simple_weights, simple[cut:]), "even": math.log(0.5)}


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from games.imperial_twing.search import WEIGHTS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=0, help="games played at a time (default: the cores)")
    args = parser.parse_args()
    result = run(args.games, args.jobs or multiprocessing.cpu_count())
    names = list(WEIGHTS) + ["(tempo: the seat to act)"]
    print(f"{result['games']} games ({result['level']} level, left out), {result['positions']:,} positions")
    for name, weight in zip(names, result["weights"]):
        print(f"  {name:>26}: {weight:.3f}")
    print(f"log-likelihood a position: train {result['train']:.3f}, held out {result['test']:.3f}; "
          f"held out with objects and ornicles alone {result['test_simple']:.3f}; "
          f"the even guess {result['even']:.3f}")


if __name__ == "__main__":
    main()
