"""Per game: random playouts per second, and how often its best built-in bot beats random.

Strength is a benchmark, not a test: it is a statistic over many games. Seats alternate so the
first-player advantage cancels out; a tie counts as no win.
"""
from __future__ import annotations

import time

from games.engine import registry
from games.engine.bots import RandomBot
from games.engine.runner import playout

SEED = b"bench-games".ljust(32, b".")
BEST = ("heuristic", "greedy")


def _seed(i: int) -> bytes:
    return i.to_bytes(4, "big") + SEED[4:]


def playouts_per_second(ruleset, players: int, count: int) -> tuple[float, float]:
    """(playouts/s, events per playout) of random bots at ``players`` seats."""
    started, events = time.perf_counter(), 0
    for i in range(count):
        events += len(playout(ruleset, players, seed=_seed(i), bot_seed=i))
    elapsed = time.perf_counter() - started
    return count / elapsed, events / count


def win_rate(ruleset, bot_class, games: int) -> tuple[int, int, int]:
    """(wins, ties, losses) of ``bot_class`` against RandomBot in two-player games."""
    wins = ties = 0
    for i in range(games):
        seat = i % 2
        bots = {seat: bot_class(ruleset, 2 * i), 1 - seat: RandomBot(ruleset, 2 * i + 1)}
        placings = playout(ruleset, 2, seed=_seed(10_000 + i), bots=bots)[-1]["payload"]["result"]["placings"]
        if placings[seat] == 1 and placings[1 - seat] == 1:
            ties += 1
        elif placings[seat] == 1:
            wins += 1
    return wins, ties, games - wins - ties


def run(*, playouts: int = 20, games: int = 200) -> dict:
    rows = []
    for ruleset in registry.builtin():
        spec = ruleset.spec
        speed = {n: playouts_per_second(ruleset, n, playouts)
                 for n in range(spec.min_players, spec.max_players + 1)}
        bots = ruleset.builtin_bots()
        best = next((name for name in BEST if name in bots), None)
        strength = (best, *win_rate(ruleset, bots[best], games)) if best else None
        rows.append({"game": spec.name, "speed": speed, "strength": strength, "games": games})
    return {"rows": rows, "playouts": playouts}


def report(result: dict) -> list[str]:
    lines = [f"Random bots, {result['playouts']} playouts per seat count; strength: the game's best "
             f"built-in bot against random in two-player games, seats alternating.", "",
             "| game | seats | playouts/s | events/playout |", "| --- | ---: | ---: | ---: |"]
    for row in result["rows"]:
        for players, (rate, events) in row["speed"].items():
            lines.append(f"| {row['game']} | {players} | {rate:,.1f} | {events:,.0f} |")
    lines += ["", "| game | bot | games | wins | ties | losses | win rate |",
              "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for row in result["rows"]:
        if row["strength"]:
            name, wins, ties, losses = row["strength"]
            lines.append(f"| {row['game']} | {name} vs random | {row['games']} | {wins} | {ties} | "
                         f"{losses} | {wins / row['games']:.1%} |")
    return lines
