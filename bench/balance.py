"""Balance by self-play, for every game whose seats differ (characters, factions, armies).

The game's best built-in bot plays itself; for each player count the benchmark reports the win
rate of each role (what ``seat_roles(state)`` names: a character's element, a faction) and of
each position in the order of play (``seat_positions(state)``: 0 moves first), with Wilson 95 %
intervals, and how often a bound rather than the rules ended the match (``ended_by_bound``).
A game whose options change the balance lists the variants to measure with a
``balance_options()`` hook (Sorcado: both placements); each is a table of its own.
A shared first place counts as a fraction of a win for each seat sharing it. Games without the
hooks are skipped. Roles are dealt by the game itself (Imperial Twing draws characters at
random), so every role meets every other and every position over the run.
"""
from __future__ import annotations

import math
import multiprocessing
import time
from collections import defaultdict

from games.engine import registry
from games.engine.log import Folder
from games.engine.runner import playout

SEED = b"bench-balance".ljust(32, b".")
BEST = ("heuristic", "greedy")


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if not games:
        return 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def balanced_games() -> list:
    return [r for r in registry.builtin() if hasattr(r, "seat_roles") and hasattr(r, "seat_positions")]


def one_game(args) -> tuple[list[str], list[int], list[float], bool, int]:
    """(roles, positions, win shares, ended by a bound, events) of self-play game ``index``."""
    name, players, index, options = args
    ruleset = registry.get(name)
    bots = ruleset.builtin_bots()
    best = bots[next(b for b in BEST if b in bots)]
    seats = {s: best(ruleset, index * 10 + s) for s in range(players)}
    records = playout(ruleset, players, seed=index.to_bytes(4, "big") + bytes([players]) + SEED[5:],
                      bots=seats, match_id=f"balance-{players}-{index}", options=options,
                      max_events=ruleset.max_events(players, ruleset.options(options)))
    folder = Folder(records[0], get_ruleset=registry.get)
    for record in records[1:-1]:
        folder.step(record)
    placings = records[-1]["payload"]["result"]["placings"]
    winners = [s for s in range(players) if placings[s] == 1]
    shares = [1 / len(winners) if s in winners else 0.0 for s in range(players)]
    state = folder.state
    return (ruleset.seat_roles(state), ruleset.seat_positions(state), shares,
            ruleset.ended_by_bound(state), len(records))


def run(*, games: int = 1000, names: list[str] | None = None,
        player_counts: list[int] | None = None) -> dict:
    """``games`` self-play games for every player count of every game (only the games in
    ``names`` and the counts in ``player_counts`` when given; a count a game does not allow is
    skipped for that game)."""
    results = []
    for ruleset in balanced_games():
        name = ruleset.spec.name
        if names and name not in names:
            continue
        variants = ruleset.balance_options() if hasattr(ruleset, "balance_options") else [{}]
        counts = [p for p in range(ruleset.spec.min_players, ruleset.spec.max_players + 1)
                  if not player_counts or p in player_counts]
        for options, players in [(o, p) for o in variants for p in counts]:
            started = time.perf_counter()
            jobs = [(name, players, i, options) for i in range(games)]
            with multiprocessing.get_context("fork").Pool(2) as pool:
                rows = pool.map(one_game, jobs, chunksize=8)
            by_role, by_position = defaultdict(lambda: [0.0, 0]), defaultdict(lambda: [0.0, 0])
            for roles, positions, shares, _, _ in rows:
                for seat in range(players):
                    by_role[roles[seat]][0] += shares[seat]
                    by_role[roles[seat]][1] += 1
                    by_position[positions[seat]][0] += shares[seat]
                    by_position[positions[seat]][1] += 1
            results.append({"game": name, "players": players, "games": games, "options": options,
                            "bound": sum(r[3] for r in rows),
                            "events": sum(r[4] for r in rows) / games,
                            "seconds": time.perf_counter() - started,
                            "roles": {k: tuple(v) for k, v in sorted(by_role.items())},
                            "positions": {k: tuple(v) for k, v in sorted(by_position.items())}})
    return {"results": results}


def _row(label: str, wins: float, seats: int, even: float) -> str:
    low, high = wilson(wins, seats)
    rate = wins / seats if seats else 0.0
    return (f"| {label} | {seats} | {rate:.1%} | {low:.1%}-{high:.1%} | "
            f"{(rate - even) * 100:+.1f} |")


def report(result: dict) -> list[str]:
    lines = ["Self-play of each game's best built-in bot. Win rate per role and per position in "
             "the order of play (0 moves first), Wilson 95 % intervals, and the difference from "
             "the even share (1/players) in points.", ""]
    for r in result["results"]:
        even = 1 / r["players"]
        variant = "".join(f", {k}={v}" for k, v in r.get("options", {}).items())
        lines += [f"### {r['game']}{variant}, {r['players']} players: {r['games']} games, "
                  f"{r['bound']} ({r['bound'] / r['games']:.1%}) ended by the bound, "
                  f"{r['events']:.0f} events a game, {r['seconds']:.0f} s", "",
                  "| role / position | seats | win rate | 95 % interval | vs even |",
                  "| --- | --- | --- | --- | --- |"]
        lines += [_row(role, *r["roles"][role], even) for role in r["roles"]]
        lines += [_row(f"position {p}", *r["positions"][p], even) for p in r["positions"]]
        lines.append("")
    return lines


if __name__ == "__main__":
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print("\n".join(report(run(games=count, names=sys.argv[2:] or None))))
