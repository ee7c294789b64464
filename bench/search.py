"""The generic search bot (games/engine/search.py) on every game (issue 15).

Per game, three measurements:

1. **Engine throughput**: calls per second of ``apply``, ``legal_actions`` and ``determinize``
   (and ``view``, which the driver calls once a move) on states of random playouts: what one
   search iteration is made of.
2. **Search against the best heuristic bot**: ``GAMES`` two-player games, ``search`` (the bot the
   service plays under that name: the generic SearchBot, or a game's own tuning of it) thinking
   ``THINK_MS`` of CPU time a move against the game's best hand-written bot, seats alternating,
   chance from a fixed seed per game (the same deals for every pairing). Reported: wins, ties,
   losses, the win rate with its 95 % Wilson interval, and search's iterations per second of
   thinking over all its moves.
3. **How much is luck**: the heuristic bot against itself (``GAMES`` games), how often seat 0
   wins; and search thinking ``STRONG_MS`` a move against the heuristic bot (``STRONG_GAMES``
   games), to show whether more thinking still wins more. Each search pairing is also read
   against the heuristic bot's own games on the same deals (the same chance seed, opponent and
   seat): how often search turned a deal's outcome better or worse, with a sign test, so that a
   win rate is not read against 50 % where the deals it was played on lean one way.

The bot's clock here is the CPU time of its process (``time.process_time``), not the wall
clock: a game played beside another on a busy machine gets the same thinking as on an idle one,
so the pool may run a game per core. Each finished game is appended to
``bench/results/search/<game>-<fingerprint>.jsonl``, which the repository keeps (the full run is
hours of games): a run that is stopped goes on where it stopped when started again. The
fingerprint covers the engine's and the game's source and this bench's settings, so a change of
rules, of the bot or of the settings starts the games afresh (not a change of code that no game
here runs: ``NOT_PLAYED``). It does not cover the machine, and
a CPU second is not the same on every machine (Warlock's search ran 616 iterations a second on
one session's machine, 1,600 on the next's): a run goes on from stored games on the machine that
played them, and the report gives the spread of the games' iterations a second, which shows
games of several machines in one pool.

Trap the Wizard is played one round a match (its default is five, about 1,000 decisions): the
rules of a round are those of the match, and a round at 200 ms a move already takes a quarter of
a minute of thinking.
"""
from __future__ import annotations

import ast
import hashlib
import json
import math
import multiprocessing
import os
import random
import time
from pathlib import Path

from games.engine import registry
from games.engine.protocol import Chance, Ended, Event
from games.engine.runner import playout
from games.engine.search import SearchBot, sample_outcome

ROOT = Path(__file__).resolve().parent.parent
STORE = ROOT / "bench" / "results" / "search"  # kept in the repository: hours of games
SEED = b"bench-search".ljust(32, b".")
THINK_MS, STRONG_MS = 200, 1000
GAMES, STRONG_GAMES = 200, 40
BEST = ("heuristic", "greedy")
OPTIONS = {"trap-the-wizard": {"rounds": 1}}  # see the module docstring
THROUGHPUT_STATES = 200


def _seed(index: int) -> bytes:
    return index.to_bytes(4, "big") + SEED[4:]


def best_name(ruleset) -> str:
    bots = ruleset.builtin_bots()
    return next(name for name in BEST if name in bots)


def fingerprint(game: str) -> str:
    """The search bot's and the game's code and data and the settings: a change of any starts
    afresh (the rest of the engine, e.g. the log's hashing, plays no part in who wins). Code is
    taken as its syntax tree without docstrings, so comments and docs change nothing."""
    ruleset = registry.get(game)
    package = Path(__import__(type(ruleset).__module__, fromlist=["x"]).__file__).parent
    digest = hashlib.sha256(json.dumps([THINK_MS, STRONG_MS, OPTIONS.get(game, {})]).encode())
    engine = ROOT / "games" / "engine"
    own = [engine / f"{module}.py" for module in GAME_PARTS if _imports(package, module)]
    # chance.py: the playouts' chance outcomes (chance.sample) are drawn there.
    for path in [engine / "search.py", engine / "chance.py", engine / "protocol.py", *own,
                 *sorted(package.rglob("*"))]:
        if path.is_file() and path.suffix == ".py":
            digest.update(str(path.relative_to(ROOT)).encode() + _code(path.read_text()).encode())
        elif path.is_file() and path.suffix == ".json":
            digest.update(str(path.relative_to(ROOT)).encode() + path.read_bytes())
    return digest.hexdigest()[:16]


# Modules of games/engine that are a game's own code where its package imports them: tuning.py
# (a tuning of the search) and dict_ruleset.py (the Ruleset shell of a dict-state game, whose
# apply every playout runs). Each is taken in only for a game that imports it, so the
# fingerprints of the games that do not stay as they were.
GAME_PARTS = ("tuning", "dict_ruleset")


def _imports(package: Path, module: str) -> bool:
    """Does a module of the game's package import games/engine/<module>.py? Then that module is
    the game's code too."""
    dotted = f"games.engine.{module}"
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module in (dotted, f"engine.{module}"):
                return True  # from games.engine.tuning import ... (or from ..engine.tuning)
            if isinstance(node, ast.ImportFrom) and node.module in ("games.engine", "engine") and any(
                    alias.name == module for alias in node.names):
                return True  # from games.engine import tuning (or from ..engine)
            if isinstance(node, ast.Import) and any(alias.name == dotted for alias in node.names):
                return True
    return False


def _imports_tuning(package: Path) -> bool:
    """Does a module of the game's package import games/engine/tuning.py (a tuning of the
    search)? Then that module is the game's search code too."""
    return _imports(package, "tuning")


# Methods of a ruleset that no game of this bench runs: ``act_in_place`` (optional) is a
# validation's check and apply in one call (games.engine.log.Folder); the search bot plays through
# ``apply_in_place`` and the match loop through ``check_action`` and ``apply``, so its body is left
# out of the fingerprint and a validation made faster does not replay a pool. What it calls stays
# in: a change there changes the fingerprint through that function.
NOT_PLAYED = frozenset({"act_in_place"})


def _code(source: str) -> str:
    """What a Python file does: its syntax tree with docstrings dropped (comments never reach it)
    and the bodies of NOT_PLAYED methods left out."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for method in node.body:
                if isinstance(method, ast.FunctionDef) and method.name in NOT_PLAYED:
                    method.body = [ast.Pass()]
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


# -- 1. engine throughput ---------------------------------------------------------------------------

def _states(ruleset, options: dict, count: int) -> list:
    """Decision states of random two-player playouts, ``count`` of them spread over whole games."""
    rng, states = random.Random(15), []
    opts = ruleset.options(options)
    while len(states) < count * 4:
        state = ruleset.setup(2, opts)
        while True:
            nxt = ruleset.next(state)
            if isinstance(nxt, Ended):
                break
            if isinstance(nxt, Chance):
                state = ruleset.apply(state, Event.chance(nxt.spec, sample_outcome(nxt.spec, rng)))
                continue
            seat = nxt.seats[0]
            states.append((state, seat))
            state = ruleset.apply(state, Event.action(seat, rng.choice(ruleset.legal_actions(state, seat))))
    return rng.sample(states, count)


def throughput(game: str) -> dict:
    """Calls per second of the operations a search iteration is made of."""
    ruleset = registry.get(game)
    states = _states(ruleset, OPTIONS.get(game, {}), THROUGHPUT_STATES)
    legal = [ruleset.legal_actions(state, seat) for state, seat in states]
    events = [Event.action(seat, actions[i % len(actions)])
              for i, ((_, seat), actions) in enumerate(zip(states, legal))]
    views = [ruleset.view(state, seat) for state, seat in states]
    rng = random.Random(1)
    timed = {
        "apply": lambda: [ruleset.apply(state, event) for (state, _), event in zip(states, events)],
        "legal_actions": lambda: [ruleset.legal_actions(state, seat) for state, seat in states],
        "view": lambda: [ruleset.view(state, seat) for state, seat in states],
        "determinize": lambda: [ruleset.determinize(view, seat, rng)
                                for view, (_, seat) in zip(views, states)],
    }
    rates = {}
    for name, run in timed.items():
        best = math.inf
        for _ in range(3):
            started = time.process_time()
            run()
            best = min(best, time.process_time() - started)
        rates[name] = len(states) / best if best > 0 else math.inf
    return rates


# -- 2 and 3. games -----------------------------------------------------------------------------------

PAIRINGS = {  # name -> (games, the bot in the measured seat, its thinking time)
    "search": (GAMES, "search", THINK_MS),
    "self": (GAMES, "best", None),
    "strong": (STRONG_GAMES, "search", STRONG_MS),
}


class _Counting:
    """Mixed into the game's search bot: counts its iterations and thinking time over a game."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.iterations_total, self.seconds_total, self.moves = 0, 0.0, 0

    def act(self, message):
        action = super().act(message)
        if self.last_iterations:
            self.iterations_total += self.last_iterations
            self.seconds_total += self.last_seconds
            self.moves += 1
        return action


def measured(ruleset) -> type:
    """The search bot the service plays for this game (``Ruleset.bots()["search"]``: the generic
    SearchBot, unless a game ships a tuning of its own as ``search``), counting."""
    search = ruleset.bots()["search"]
    if not issubclass(search, SearchBot):
        raise TypeError(f"{ruleset.spec.name}'s search bot is no SearchBot: {search!r}")
    return type("Measured" + search.__name__, (_Counting, search), {})


def play_one(task: tuple[str, str, int]) -> dict:
    """Game ``index`` of ``pairing``: the measured bot in seat index % 2 against the best bot."""
    game, pairing, index = task
    ruleset = registry.get(game)
    best = ruleset.builtin_bots()[best_name(ruleset)]
    _, kind, think = PAIRINGS[pairing]
    seat = index % 2
    mine = (measured(ruleset)(ruleset, 7919 * index + 1, think_ms=think, timer=time.process_time)
            if kind == "search" else best(ruleset, 7919 * index + 1))
    bots = {seat: mine, 1 - seat: best(ruleset, 7919 * index + 2)}
    started = time.process_time()
    records = playout(ruleset, 2, seed=_seed(index), bots=bots, options=OPTIONS.get(game, {}))
    placings = records[-1]["payload"]["result"]["placings"]
    row = {"game": game, "pairing": pairing, "index": index, "seat": seat, "placings": placings,
           "events": len(records), "cpu_s": round(time.process_time() - started, 3)}
    if kind == "search":
        row.update(iterations=mine.iterations_total, think_s=round(mine.seconds_total, 3), moves=mine.moves)
    return row


def _store(game: str) -> Path:
    return STORE / f"{game}-{fingerprint(game)}.jsonl"


def _done(path: Path) -> dict[tuple[str, int], dict]:
    rows = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                rows[(row["pairing"], row["index"])] = row
    return rows


def play(games: list[str], pairings: list[str], *, jobs: int, limit: dict[str, int] | None = None) -> None:
    """Play what is missing of ``pairings`` for ``games``, ``jobs`` games at a time, appending
    each result as it comes: pairing by pairing in the order given (the cheap ones first)."""
    STORE.mkdir(parents=True, exist_ok=True)
    paths = {game: _store(game) for game in games}
    done = {game: _done(paths[game]) for game in games}
    tasks = [(game, pairing, i) for pairing in pairings for game in games
             for i in range((limit or {}).get(pairing, PAIRINGS[pairing][0])) if (pairing, i) not in done[game]]
    if not tasks:
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for finished, row in enumerate(pool.imap_unordered(play_one, tasks), 1):
            with paths[row["game"]].open("a") as out:
                out.write(json.dumps(row) + "\n")
            if finished % 10 == 0 or finished == len(tasks):
                print(f"  search bench: {finished}/{len(tasks)} games", flush=True)


# -- figures ----------------------------------------------------------------------------------------

def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def outcome(row: dict) -> int:
    """The measured seat's outcome of a stored game: 1 a win, 0 a tie, -1 a loss."""
    mine, other = row["placings"][row["seat"]], row["placings"][1 - row["seat"]]
    return (mine < other) - (mine > other)


def sign_test(better: int, worse: int) -> float:
    """Two-sided sign test: the chance of a split at least this uneven between ``better`` and
    ``worse`` were either as likely (ties of the pair left out)."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def paired(rows: list[dict], baseline: list[dict]) -> dict | None:
    """``rows`` (a pairing's games) against ``baseline`` (the best bot against itself) on the same
    deals: the game indices both hold have the same chance seed, the same opponent with the same
    seed and the same seat, so the two differ only by the bot in the measured seat. Reported: the
    pairing's and the baseline's wins, ties and losses on those deals (``mine``, ``base``), and
    the deals where the pairing's outcome was better or worse than the baseline's (a win over a
    tie or a loss, a tie over a loss), with the sign test of that split. A pairing's win rate
    moves with the baseline's on its deals: 40 deals that lean against the seat make a search
    that plays as well as the heuristic bot look weaker than it."""
    by_index = {row["index"]: outcome(row) for row in baseline}
    pairs = [(outcome(row), by_index[row["index"]]) for row in rows if row["index"] in by_index]
    if not pairs:
        return None
    better = sum(a > b for a, b in pairs)
    worse = sum(a < b for a, b in pairs)
    counts = {side: [sum(pair[side] == result for pair in pairs) for result in (1, 0, -1)] for side in (0, 1)}
    return {"deals": len(pairs), "mine": counts[0], "base": counts[1],
            "better": better, "worse": worse, "p": sign_test(better, worse)}


def summary(game: str, pairing: str) -> dict | None:
    stored = _done(_store(game))
    rows = [row for (p, _), row in stored.items() if p == pairing]
    if not rows:
        return None
    outcomes = [outcome(row) for row in rows]
    wins, ties = outcomes.count(1), outcomes.count(0)
    seat0 = sum(row["placings"][0] < row["placings"][1] for row in rows)
    out = {"games": len(rows), "wins": wins, "ties": ties, "losses": len(rows) - wins - ties,
           "interval": wilson(wins, len(rows)), "seat0_wins": seat0,
           "events": sum(r["events"] for r in rows) / len(rows)}
    if "iterations" in rows[0]:
        think = sum(r["think_s"] for r in rows)
        rates = sorted(r["iterations"] / r["think_s"] for r in rows if r["think_s"])
        out.update(iterations_per_s=sum(r["iterations"] for r in rows) / think if think else 0.0,
                   iterations_per_s_spread=(rates[len(rates) // 10], rates[-1 - len(rates) // 10])
                   if rates else (0.0, 0.0),
                   moves=sum(r["moves"] for r in rows) / len(rows),
                   think_per_move_ms=1000 * think / max(1, sum(r["moves"] for r in rows)))
    if pairing != "self":
        out["paired"] = paired(rows, [row for (p, _), row in stored.items() if p == "self"])
    return out


def run(*, games: list[str] | None = None, jobs: int | None = None, quick: bool = False,
        upto: int | None = None) -> dict:
    """``upto``: play at most that many games of each pairing this time (a run in stages: the
    figures are those of the games played so far; 0 plays none and reports what is stored)."""
    games = games or [r.spec.name for r in registry.builtin() if "search" in r.bots()]
    jobs = jobs or os.cpu_count() or 1
    limit = ({"search": 4, "self": 4, "strong": 2} if quick
             else {name: min(count, upto) for name, (count, _, _) in PAIRINGS.items()}
             if upto is not None else None)
    rows = []
    for game in games:
        rows.append({"game": game, "best": best_name(registry.get(game)), "throughput": throughput(game)})
    play(games, ["self", "search"], jobs=jobs, limit=limit)
    for row in rows:
        row["search"], row["self"] = summary(row["game"], "search"), summary(row["game"], "self")
    weak = [row["game"] for row in rows if row["search"] and row["search"]["games"] >= GAMES
            and row["search"]["wins"] < 0.6 * row["search"]["games"]]
    if weak:  # where 200 ms does not reach 60 % in all its games: does thinking longer win more?
        play(weak, ["strong"], jobs=jobs, limit=limit)
    for row in rows:
        row["strong"] = summary(row["game"], "strong")
    return {"rows": rows, "jobs": jobs, "quick": quick}


def report(result: dict) -> list[str]:
    lines = [f"`search` thinks {THINK_MS} ms of CPU time a move (the clock of its process, so "
             f"{result['jobs']} games ran at a time without weakening it) against each game's best "
             f"hand-written bot in two-player games, seats alternating, each game's chance from its own "
             f"fixed seed. Options: defaults, but Trap the Wizard plays one round a match. "
             f"Win rate: wins over games (the goal: 60 %), interval 95 % Wilson; score: wins and "
             f"half the ties over games (a draw is half a win, as in chess ratings).", "",
             "Engine calls per second on states of random two-player playouts (CPU time, best of 3):", "",
             "| game | apply/s | legal_actions/s | view/s | determinize/s |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for row in result["rows"]:
        t = row["throughput"]
        lines.append(f"| {row['game']} | {t['apply']:,.0f} | {t['legal_actions']:,.0f} | {t['view']:,.0f} | "
                     f"{t['determinize']:,.0f} |")
    lines += ["", "| game | pairing | games | wins | ties | losses | win rate (95 % interval) | score | "
                  "iterations/s (a game's, 10th-90th percentile) | moves searched a game |",
              "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in result["rows"]:
        for key, label in (("search", f"search {THINK_MS} ms vs {row['best']}"),
                           ("strong", f"search {STRONG_MS} ms vs {row['best']}")):
            s = row[key]
            if s:
                low, high = s["interval"]
                lines.append(f"| {row['game']} | {label} | {s['games']} | {s['wins']} | {s['ties']} | "
                             f"{s['losses']} | {s['wins'] / s['games']:.1%} ({low:.1%}-{high:.1%}) | "
                             f"{(s['wins'] + s['ties'] / 2) / s['games']:.1%} | "
                             f"{s['iterations_per_s']:,.0f} ({s['iterations_per_s_spread'][0]:,.0f}-"
                             f"{s['iterations_per_s_spread'][1]:,.0f}) | {s['moves']:.0f} |")
    played = [row["search"]["games"] for row in result["rows"] if row["search"]]
    # a game whose games at THINK_MS are all in and under 60 % is due its games at STRONG_MS
    due = [f"{row['game']} ({row['strong']['games'] if row['strong'] else 0} of {STRONG_GAMES} played)"
           for row in result["rows"] if row["search"] and row["search"]["games"] >= GAMES
           and row["search"]["wins"] < 0.6 * row["search"]["games"]
           and (row["strong"] or {}).get("games", 0) < STRONG_GAMES]
    if played and min(played) < GAMES:
        lines += ["", f"A stage of the run: {min(played)}-{max(played)} of the {GAMES} games a game so far "
                      f"(they are kept in bench/results/search; the next run goes on from them). "
                      f"Search at {STRONG_MS} ms is played for a game whose {GAMES} games at {THINK_MS} ms "
                      f"are in and under 60 %; a row at {STRONG_MS} ms before that holds the games so far."]
    if due:
        lines += ["", f"A stage of the run: the games at {STRONG_MS} ms are still to play for "
                      f"{', '.join(due)}; the next run goes on from the games kept in bench/results/search."]
    lines += ["", "Against the best bot in the same seat on the same deals: the best bot against itself "
                  "(the luck table's games) on the deals of each pairing (the same chance seed, opponent "
                  "and seat), and the deals whose outcome search made better or worse (win over tie over "
                  "loss); p: two-sided sign test of that split. A pairing's win rate moves with the "
                  "best bot's on the same deals, so it is read against that, not against 50 %.", "",
              "| game | pairing | deals | best bot in the seat: wins-ties-losses (score) | search: wins-ties-losses "
              "(score) | better | worse | p |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in result["rows"]:
        for key, label in (("search", f"search {THINK_MS} ms"), ("strong", f"search {STRONG_MS} ms")):
            s = row[key]
            pair = (s or {}).get("paired")
            if pair:
                base, mine = ("{}-{}-{} ({:.1%})".format(*c, (c[0] + c[1] / 2) / pair["deals"])
                              for c in (pair["base"], pair["mine"]))
                lines.append(f"| {row['game']} | {label} | {pair['deals']} | {base} | {mine} | "
                             f"{pair['better']} | {pair['worse']} | {pair['p']:.2g} |")
    lines += ["", "Luck: the best bot against itself, how often seat 0 (the first to act) wins.", "",
              "| game | bot | games | seat 0 wins | seat 1 wins | ties |", "| --- | --- | ---: | ---: | ---: | ---: |"]
    for row in result["rows"]:
        s = row["self"]
        if s:
            seat1 = s["games"] - s["seat0_wins"] - s["ties"]
            lines.append(f"| {row['game']} | {row['best']} | {s['games']} | {s['seat0_wins'] / s['games']:.1%} | "
                         f"{seat1 / s['games']:.1%} | {s['ties'] / s['games']:.1%} |")
    return lines


if __name__ == "__main__":
    import argparse
    import sys

    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game (repeatable; default: every game with search)")
    parser.add_argument("--jobs", type=int, default=0, help="games played at a time (default: the cores)")
    parser.add_argument("--quick", action="store_true", help="a few games each, to check that it runs")
    parser.add_argument("--upto", type=int, default=None,
                        help="at most N games of each pairing this time (0: report what is stored)")
    args = parser.parse_args()
    print("\n".join(report(run(games=args.game, jobs=args.jobs or None, quick=args.quick,
                                upto=args.upto))))
