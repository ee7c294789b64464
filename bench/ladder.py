"""The ladder's matchmaking measured (issue 43, "Measured"): convergence against a round robin,
and fairness and throughput over a simulated hour.

Offline: the matches are real Sorcado matches played by the games package's runner (no
database, no broker), but the pairings are ladder/matchmaking.py's ``next_pairings`` with the
History the service builds (``history_of`` over the last 200 matches) and the ratings are
ladder/ratings.py's fold, the very code ladder.services runs. Pure Python, deterministic for a
given seed: every match's seed and every bot's seed come from the run's own random stream.

**The bots, of a known order of strength.** Sorcado's ``heuristic`` bot wins about 95 % of its
games against ``random``; a bot of strength ``p`` plays the heuristic's move with probability
``p`` and a uniformly random legal move otherwise (``MixedBot``), so strength rises with ``p``
and its budget is a probability, not a clock: a busy machine cannot reorder the bots. Four
classes, p = 0, 1/3, 2/3, 1 (0 is ``random``, 1 is ``heuristic``), three copies each: 12 bots.
The copies of a class are equally strong, so the known order is an order of classes, and
Kendall's tau is taken over the pairs of bots of different classes only (54 of the 66 pairs;
a pair is concordant when the ranking puts the stronger class first, discordant when it puts it
last, and a tie in the ranking counts as neither). The reference measurement below plays each
class against the next one up to show that the order holds.

**Pods of four have a lineup of their own.** In a pod of four Sorcado tells these classes
apart far less well than in a two-player game (a pod's placings are mostly luck): in pods of
two bots of each class the stronger pair scores only about 0.53 against the next class down
(0.67-0.70 with two players), and p = 0 and p = 1/3 are nearly equal (a Plackett-Luce fit to
2,500 pods of four drawn at random: strengths -0.17, -0.13, +0.03, +0.27 for p = 0, 1/3, 2/3,
1). With those two classes as distinct, tau 0.85 needs most of their 9 pairs ordered, which no
ranking of 480 pods does reliably (a round robin's tau then wanders between 0.5 and 0.9: its
first reaching 0.85 is a lucky crossing). So pods of four play three classes that a pod can
tell apart, p = 0, 2/3 and 1, four copies each (12 bots, 48 pairs of different classes); the
reference measurement plays them, and the near-tie of 0 and 1/3, in pods of four.

(The search bot at fixed iteration counts was the first choice. In Sorcado it is weak at budgets
a benchmark can afford: in a pilot, 8 and 32 iterations a move won 1 of 6 games each against
the heuristic bot at 0.27 and 0.93 s a game, so neither its place among the others nor a
cheap run could be had; a first-legal bot's place is unknown too.)

**Convergence.** One run: the ladder's matchmaker keeps ``CAP`` matches in flight (each a free
bot's next match; the oldest ends first) until ``matches`` have ended, ranking the bots by mu -
3 sigma (the leaderboard) every ``CHECK_EVERY`` matches; a round robin of the same bots plays
the same number of matches (every pairing, or every pod of four, in a random order each cycle,
seats rotating), ranked by its standings (mean score a match, 1 for a win, 0 for a loss, ties
shared; in a pod of four 1, 2/3, 1/3, 0 by place) and, as a check, by the same openskill fold.
Reported: the matches each needed until Kendall's tau first reached TAU (0.85) and until it
stayed there to the end of the run, median over the runs with its 95 % interval, and the round
robin's tau at the ladder's count. Two players, then pods of four.

**Enough runs to tell the two apart: a bank of real matches.** One run's count scatters widely
(pods: from 60 to past 480 matches), so a median of 31 runs has a 95 % interval some 100
matches wide, wider than the difference it is to show. Playing hundreds of runs live would take
hours, so most runs draw their matches from a bank: for every seating of the classes (16
seatings of two, 81 pods of four) ``BANK`` real matches played once, each run's match of that
seating being one of them drawn at random. That is exact in what matters: a match's outcome
depends on nothing but the classes in its seats (copies of a class are the same bot, bots keep
no memory between matches, every match has a fresh seed), so a drawn match is a sample of the
outcome the live match would have had; only the bank's finite size stands between the two, and
the live runs, fewer, are measured beside the banked ones as the check.

**Fairness and throughput.** An hour on a simulated clock: the beat tops the ladder up every
LADDER_SECONDS (10 s) to CAP_HOUR matches in flight; a match lasts MOVE_SECONDS (0.1 s) a
recorded event (fast bots); the ratings fold each match when it ends. Reported: every bot's
share of the matches that started once every rating had settled (sigma below SETTLED_SIGMA)
against the mean share, the most matches ever in flight, and the matchmaker's own time per
scheduled match (``history_of`` and ``next_pairings``, CPU time) against one openskill update
of a two-player match measured in the same run.

Run alone: ``nice -n 10 .venv/bin/python bench/ladder.py [--quick]`` prints the report; the
whole bench runs in some minutes on two cores (``--quick``: a few seconds, for a test).
"""
from __future__ import annotations

import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.engine import registry  # noqa: E402  (after the sys.path line above)
from games.engine.bots import Bot, RandomBot  # noqa: E402
from games.engine.runner import playout  # noqa: E402
from ladder.matchmaking import Player, history_of, next_pairings  # noqa: E402
from ladder.ratings import conservative, fresh_rating, rate_match, rating_model  # noqa: E402

GAME = "sorcado"
STRENGTHS = (0.0, 1 / 3, 2 / 3, 1.0)
COPIES = 3
# Pods of four: three classes of four copies (see the module docstring: 0 and 1/3 are nearly
# equal in a pod of four, and the order of the four classes is not what a pod can tell apart).
LINEUPS = {2: (STRENGTHS, COPIES), 4: ((0.0, 2 / 3, 1.0), 4)}
TAU = 0.85
CAP = 2  # matches in flight (settings.LADDER_MATCHES_IN_FLIGHT's default)
HISTORY_MATCHES = 200  # ladder.services.HISTORY_MATCHES
SIZES = {  # per seat count: (matches a run, live runs, check every, banked runs, bank per
    # seating); reference games per class pair
    "full": {2: (480, 15, 12, 400, 300), 4: (480, 15, 12, 400, 150), "reference": 200, "hour": 3600},
    "quick": {2: (24, 1, 12, 2, 1), 4: (12, 1, 12, 2, 1), "reference": 2, "hour": 120},
}
LADDER_SECONDS = 10.0  # settings.LADDER_SECONDS's default: the beat
MOVE_SECONDS = 0.1  # simulated time a recorded event takes (fast bots)
CAP_HOUR = 4
SETTLED_SIGMA = 5.0  # three fifths of a fresh 25/3 (ladder/ratings.py: beta 25/2, no drift)
FAIR = 0.25  # every share within 25 % of the mean
PROCESSES = 2  # the convergence runs are independent: two at a time (two cores)


class MixedBot(Bot):
    """The heuristic bot's move with probability ``strength``, else a uniformly random legal
    move (its own seeded stream decides which)."""

    def __init__(self, ruleset, seed: int = 0, *, strength: float):
        super().__init__(ruleset, seed)
        self.strength = strength
        self.name = f"mixed-{strength:g}"
        self.heuristic = ruleset.builtin_bots()["heuristic"](ruleset, seed + 1)

    def hello(self, message: dict) -> None:
        super().hello(message)
        self.heuristic.hello(message)

    def act(self, message: dict):
        if self.rng.random() < self.strength:
            return self.heuristic.act(message)
        return self.rng.choice(message["legal_actions"])


def lineup(seats: int = 2) -> list[float]:
    """Each bot's strength, by key, for matches of ``seats``: the copies of each class."""
    classes, copies = LINEUPS[seats]
    return [strength for strength in classes for _ in range(copies)]


def play(ruleset, strengths: list[float], rng: random.Random) -> tuple[list[int], int]:
    """One match of bots of ``strengths`` (by seat), seeded from ``rng``: (placings, events)."""
    bots = {seat: (RandomBot(ruleset, rng.randrange(2 ** 31)) if strength == 0
                   else MixedBot(ruleset, rng.randrange(2 ** 31), strength=strength))
            for seat, strength in enumerate(strengths)}
    records = playout(ruleset, len(strengths), seed=rng.randbytes(32), bots=bots)
    return records[-1]["payload"]["result"]["placings"], len(records)


def kendall_tau(ranking: list[int], strengths: list[float]) -> float:
    """Kendall's tau between ``ranking`` (keys, best first; equal scores given as the same
    position are not distinguished here: callers rank by score and pass ``scores``) and the
    known order, over pairs of bots of different classes."""
    position = {key: i for i, key in enumerate(ranking)}
    concordant = discordant = pairs = 0
    for a in range(len(strengths)):
        for b in range(a + 1, len(strengths)):
            if strengths[a] == strengths[b]:
                continue
            pairs += 1
            stronger, weaker = (a, b) if strengths[a] > strengths[b] else (b, a)
            if position[stronger] < position[weaker]:
                concordant += 1
            else:
                discordant += 1
    return (concordant - discordant) / pairs


def ranked(scores: dict[int, float]) -> list[int]:
    """Keys best first; equal scores in key order (a tie is broken the same way every time)."""
    return sorted(scores, key=lambda key: (-scores[key], key))


def score(placings: list[int]) -> list[float]:
    """A match's score by seat: 1 for the best place, 0 for the worst, ties sharing."""
    players = len(placings)
    return [sum(1 for other in placings if other > place) / (players - 1)
            + 0.5 * (sum(1 for other in placings if other == place) - 1) / (players - 1) for place in placings]


def ladder_run(ruleset, strengths, *, seats: int, matches: int, check_every: int, rng: random.Random,
               cap: int = CAP, play_one=None) -> list[tuple[int, float]]:
    """The ladder's matchmaker playing ``matches`` matches: (matches played, tau) at each check.
    ``play_one`` plays a match (``play``'s signature; default ``play``: live)."""
    play_one = play_one or play
    model, keys = rating_model(), range(len(strengths))
    ratings = {key: fresh_rating(model) for key in keys}
    games = {key: 0 for key in keys}
    made: list[tuple[int, ...]] = []
    in_flight: list[tuple[int, ...]] = []
    taus = []
    played = 0
    while played < matches:
        busy = {key for pairing in in_flight for key in pairing}
        players = [Player(key, *ratings[key], games[key], key in busy) for key in keys]
        for pairing in next_pairings(players, seats=seats, wanted=cap - len(in_flight),
                                     history=history_of(made[-HISTORY_MATCHES:]), rng=rng):
            made.append(pairing)
            in_flight.append(pairing)
        pairing = in_flight.pop(0)
        placings, _ = play_one(ruleset, [strengths[key] for key in pairing], rng)
        for key, rating in zip(pairing, rate_match(model, [ratings[key] for key in pairing], placings)):
            ratings[key], games[key] = rating, games[key] + 1
        played += 1
        if played % check_every == 0:
            taus.append((played, kendall_tau(ranked({k: conservative(r) for k, r in ratings.items()}), strengths)))
    return taus


def round_robin_run(ruleset, strengths, *, seats: int, matches: int, check_every: int,
                    rng: random.Random, play_one=None) -> list[tuple[int, float, float]]:
    """A round robin of the same bots for ``matches`` matches: every pairing (or pod) once a
    cycle in a random order, seats rotating from match to match (pods are listed weakest
    first: without the rotation the weaker bot would always sit first); (matches, tau of the
    standings, tau of the openskill fold) at each check. ``play_one`` as ladder_run's."""
    from itertools import combinations

    play_one = play_one or play

    model, keys = rating_model(), range(len(strengths))
    ratings = {key: fresh_rating(model) for key in keys}
    points = {key: 0.0 for key in keys}
    played_by = {key: 0 for key in keys}
    pods = list(combinations(keys, seats))
    taus, played = [], 0
    while played < matches:
        order = pods[:]
        rng.shuffle(order)
        for pod in order:
            turn = played % seats  # seats rotate match by match: no class keeps the same seat
            seated = pod[turn:] + pod[:turn]
            placings, _ = play_one(ruleset, [strengths[key] for key in seated], rng)
            for key, value in zip(seated, score(placings)):
                points[key] += value
                played_by[key] += 1
            for key, rating in zip(seated, rate_match(model, [ratings[key] for key in seated], placings)):
                ratings[key] = rating
            played += 1
            if played % check_every == 0:
                standings = {key: points[key] / max(played_by[key], 1) for key in keys}
                taus.append((played, kendall_tau(ranked(standings), strengths),
                             kendall_tau(ranked({k: conservative(r) for k, r in ratings.items()}), strengths)))
            if played == matches:
                break
    return taus


def reached(taus: list[tuple], column: int = 1) -> tuple[int | None, int | None]:
    """(the first count at which tau >= TAU, the count from which it stayed there), None if never."""
    first = next((row[0] for row in taus if row[column] >= TAU), None)
    held = None
    for row in reversed(taus):
        if row[column] < TAU:
            break
        held = row[0]
    return first, held


def reference(ruleset, games: int, rng: random.Random, seats: int = 2) -> list[dict]:
    """Each class against the next one up: two players with seats alternating, or pods of two
    of each seated at random; the stronger's mean score and its 95 % interval."""
    rows = []
    pairs = list(zip(STRENGTHS, STRENGTHS[1:])) + ([] if seats == 2 else [(0.0, 2 / 3)])
    for weak, strong in pairs:
        points = []
        for i in range(games):
            if seats == 2:
                seated = [strong, weak] if i % 2 == 0 else [weak, strong]
            else:
                seated = [weak, weak, strong, strong]
                rng.shuffle(seated)
            placings, _ = play(ruleset, seated, rng)
            points.append(statistics.mean(value for strength, value in zip(seated, score(placings))
                                          if strength == strong))
        rows.append({"weak": weak, "strong": strong, "games": games, "seats": seats,
                     "score": statistics.mean(points),
                     "interval": 1.96 * statistics.stdev(points) / len(points) ** 0.5 if games > 1 else 0.0})
    return rows


def _one_run(ruleset_name: str, seats: int, matches: int, check_every: int, run: int, banked: bool = False) -> dict:
    """One run of the ladder and of the round robin (a process of its own; seeded by ``run``),
    live or drawing its matches from the process's bank (``_BANK``, see ``convergence``)."""
    ruleset, strengths = registry.get(ruleset_name), lineup(seats)
    play_one = _draw if banked else play
    if not banked:
        print(f"ladder bench: {seats} players, live run {run + 1} ...", file=sys.stderr, flush=True)
    ladder = ladder_run(ruleset, strengths, seats=seats, matches=matches, check_every=check_every,
                        rng=random.Random(f"ladder-{seats}-{run}"), play_one=play_one)
    robin = round_robin_run(ruleset, strengths, seats=seats, matches=matches, check_every=check_every,
                            rng=random.Random(f"round-robin-{seats}-{run}"), play_one=play_one)
    first, _ = reached(ladder)
    at = dict((n, tau) for n, tau, _ in robin)
    return {"ladder": reached(ladder), "robin": reached(robin), "robin_openskill": reached(robin, 2),
            "robin_tau_at_ladder": at.get(first) if first else None,
            "ladder_tau_end": ladder[-1][1], "robin_tau_end": robin[-1][1], "robin_openskill_tau_end": robin[-1][2]}


def _bank_seating(ruleset_name: str, seating: tuple[float, ...], per_seating: int) -> list[list[int]]:
    """``per_seating`` live matches of the classes ``seating`` (by seat): their placings."""
    ruleset, rng = registry.get(ruleset_name), random.Random(f"bank-{seating}")
    return [play(ruleset, list(seating), rng)[0] for _ in range(per_seating)]


def bank(ruleset, seats: int, per_seating: int, processes: int = 1) -> dict[tuple[float, ...], list[list[int]]]:
    """For every seating of the classes of ``lineup(seats)`` (each class in any seat: 16 of two
    players, 81 pods of four), the placings of ``per_seating`` live matches."""
    from itertools import product

    print(f"ladder bench: banking {seats}-player matches ...", file=sys.stderr, flush=True)
    seatings = list(product(LINEUPS[seats][0], repeat=seats))
    jobs = [(ruleset.spec.name, seating, per_seating) for seating in seatings]
    if processes > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(processes) as pool:
            return dict(zip(seatings, pool.map(_bank_seating, *zip(*jobs))))
    return dict(zip(seatings, (_bank_seating(*job) for job in jobs)))


_BANK: dict = {}


def _use_bank(matches_bank: dict) -> None:
    _BANK.clear()
    _BANK.update(matches_bank)


def _draw(ruleset, strengths: list[float], rng: random.Random) -> tuple[list[int], int]:
    """``play`` from the bank: one of the banked matches of this seating, drawn by ``rng``."""
    placings = _BANK[tuple(strengths)]
    return list(placings[rng.randrange(len(placings))]), 0


def convergence(ruleset, seats: int, matches: int, runs: int, check_every: int, processes: int = 1,
                banked: dict | None = None) -> dict:
    """``runs`` runs of the ladder and of the round robin at ``seats`` seats, on ``processes``
    processes (each run is seeded by its number: the same figures however many), live, or
    drawing their matches from ``banked`` (``bank``'s)."""
    jobs = [(ruleset.spec.name, seats, matches, check_every, run, banked is not None) for run in range(runs)]
    if processes > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(processes, initializer=_use_bank, initargs=(banked or {},)) as pool:
            rows = list(pool.map(_one_run, *zip(*jobs), chunksize=max(1, runs // (4 * processes))))
    else:
        _use_bank(banked or {})
        rows = [_one_run(*job) for job in jobs]
    return {"seats": seats, "matches": matches, "runs": runs, "check_every": check_every, "rows": rows,
            "banked": None if banked is None else len(next(iter(banked.values())))}


def hour(ruleset, seconds: float, rng: random.Random) -> dict:
    """The beat's matchmaker over ``seconds`` of simulated time (see the module docstring)."""
    model, strengths = rating_model(), lineup()
    keys = range(len(strengths))
    ratings = {key: fresh_rating(model) for key in keys}
    games = {key: 0 for key in keys}
    made, running = [], []  # running: (end time, pairing, placings)
    started_at: list[tuple[float, tuple[int, ...]]] = []
    most, settled_at, cost, scheduled, now = 0, None, 0.0, 0, 0.0
    while now < seconds:
        for end in sorted(r for r in running if r[0] <= now):  # the ends the beat's period saw
            running.remove(end)
            _, pairing, placings = end
            for key, rating in zip(pairing, rate_match(model, [ratings[key] for key in pairing], placings)):
                ratings[key], games[key] = rating, games[key] + 1
        if settled_at is None and all(sigma < SETTLED_SIGMA for _, sigma in ratings.values()):
            settled_at = now
        busy = {key for _, pairing, _ in running for key in pairing}
        players = [Player(key, *ratings[key], games[key], key in busy) for key in keys]
        began = time.process_time()
        pairings = next_pairings(players, seats=2, wanted=CAP_HOUR - len(running),
                                 history=history_of(made[-HISTORY_MATCHES:]), rng=rng)
        cost += time.process_time() - began
        scheduled += len(pairings)
        for pairing in pairings:
            made.append(pairing)
            started_at.append((now, pairing))
            placings, events = play(ruleset, [strengths[key] for key in pairing], rng)
            running.append((now + events * MOVE_SECONDS, pairing, placings))
        most = max(most, len(running))
        now += LADDER_SECONDS
    window = [pairing for at, pairing in started_at if settled_at is not None and at >= settled_at]
    shares = {key: sum(key in pairing for pairing in window) for key in keys}
    mean = statistics.mean(shares.values()) if window else 0.0
    update = _update_cost(model)
    return {"seconds": seconds, "matches": len(started_at), "settled_at": settled_at, "window": len(window),
            "shares": shares, "mean": mean, "worst": max(abs(s - mean) / mean for s in shares.values()) if mean else None,
            "most_in_flight": most, "cap": CAP_HOUR, "cost_per_match": cost / max(scheduled, 1),
            "update": update, "strengths": strengths}


def _update_cost(model, repeats: int = 2000) -> float:
    """CPU seconds of one openskill update of a two-player match (the ratings' own fold step)."""
    ratings = [fresh_rating(model), fresh_rating(model)]
    began = time.process_time()
    for i in range(repeats):
        ratings = rate_match(model, ratings, [1, 2] if i % 2 else [2, 1])
    return (time.process_time() - began) / repeats


def run(quick: bool = False) -> dict:
    """Every figure of the report."""
    sizes = SIZES["quick" if quick else "full"]
    ruleset = registry.get(GAME)
    started = time.perf_counter()
    result = {"quick": quick, "reference": reference(ruleset, sizes["reference"], random.Random("reference")),
              "reference_4": reference(ruleset, sizes["reference"], random.Random("reference-4"), seats=4)}
    processes = 1 if quick else PROCESSES
    for seats in (2, 4):
        matches, runs, check_every, banked_runs, per_seating = sizes[seats]
        result[f"convergence_{seats}"] = convergence(ruleset, seats, matches, runs, check_every,
                                                     processes=processes)
        result[f"banked_{seats}"] = convergence(ruleset, seats, matches, banked_runs, check_every,
                                                processes=processes,
                                                banked=bank(ruleset, seats, per_seating, processes))
    result["hour"] = hour(ruleset, sizes["hour"], random.Random("hour"))
    result["seconds"] = time.perf_counter() - started
    return result


def _ordered(values: list) -> list[float]:
    """The counts in order, a run that never reached as infinitely late."""
    return sorted(math.inf if value is None else value for value in values)


def median_count(values: list) -> float:
    """The median of the counts reached, a run that never reached counting as later than any
    (leaving it out would flatter the ranking that missed more often)."""
    return statistics.median(_ordered(values)) if values else math.inf


def interval(values: list) -> tuple[float, float]:
    """A 95 % interval of the median count: the order statistics n/2 -+ 1.96 sqrt(n)/2 (the
    binomial interval of a median, which assumes nothing of the counts' distribution)."""
    ordered = _ordered(values)
    n = len(ordered)
    half = 1.96 * math.sqrt(n) / 2
    low, high = max(math.floor(n / 2 - half), 1), min(math.ceil(n / 2 + half) + 1, n)
    return ordered[low - 1], ordered[high - 1]


def _count(value: float) -> str:
    return "never" if value == math.inf else f"{value:.0f}"


def report(result: dict) -> list[str]:
    """Markdown lines."""
    def pairs(seats):
        classes, copies = LINEUPS[seats]
        bots = len(classes) * copies
        return bots * (bots - 1) // 2 - len(classes) * copies * (copies - 1) // 2
    four, copies4 = LINEUPS[4]
    lines = [f"Sorcado; {len(lineup())} bots: {len(STRENGTHS)} strength classes (a bot of strength p plays the heuristic bot's "
             f"move with probability p, else a random legal move; p = 0 is `random`, 1 is `heuristic`), "
             f"{COPIES} copies each; for pods of four {len(lineup(4))} bots: the classes p = "
             + ", ".join(f"{p:.2f}" for p in four) + f", {copies4} copies each (in a pod of four p = 0 and "
             f"1/3 are nearly equal: see the pods' known order below). Kendall's tau against the known order over "
             f"the {pairs(2)} (pods: {pairs(4)}) pairs of bots of "
             f"different classes (copies are equally strong). Pairings by ladder/matchmaking.py, ratings by ladder/ratings.py (the service's "
             f"code), matches played offline by the games runner; {CAP} matches in flight. Round robin: "
             f"every pairing (pod) once a cycle in a random order, ranked by its standings (mean score "
             f"a match); its openskill column ranks the same matches by mu - 3 sigma.", "",
             "The known order, each class against the next one up: two players with seats alternating, and "
             "pods of four (two bots of each class, seated at random; the stronger pair's mean score):", "",
             "| players | weaker p | stronger p | games | stronger's mean score (95 % interval) |",
             "| ---: | ---: | ---: | ---: | ---: |"]
    for row in result["reference"] + result["reference_4"]:
        lines.append(f"| {row['seats']} | {row['weak']:.2f} | {row['strong']:.2f} | {row['games']} | "
                     f"{row['score']:.3f} ± {row['interval']:.3f} |")
    for seats in (2, 4):
        conv, banked = result[f"convergence_{seats}"], result[f"banked_{seats}"]
        rows, drawn = conv["rows"], banked["rows"]

        def cell(runs, key, column=0):
            values = [r[key][column] for r in runs]
            low, high = interval(values)
            never = sum(value is None for value in values)
            return (f"{_count(median_count(values))} ({_count(low)}-{_count(high)}"
                    + (f"; {never} of {len(values)} never)" if never else ")"))
        lines += ["", f"Convergence, {seats} players{' (pods of four)' if seats == 4 else ''}: runs of "
                  f"{conv['matches']} matches each, tau checked every {conv['check_every']} matches; matches "
                  f"until tau >= {TAU}, median over the runs (95 % interval). {banked['runs']} runs drew their "
                  f"matches from a bank of {banked['banked']} live matches of each seating of the classes; "
                  f"{conv['runs']} runs played every match live, as the check:", "",
                  f"| ranking | first reached ({banked['runs']} banked runs) | held from then to the end (banked) "
                  f"| tau at the end (banked, median) | first reached ({conv['runs']} live runs) |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        for label, key, end_key, column in (("ladder (matchmaker, mu - 3 sigma)", "ladder", "ladder_tau_end", 0),
                                            ("round robin (standings)", "robin", "robin_tau_end", 0),
                                            ("round robin (openskill)", "robin_openskill", "robin_openskill_tau_end", 0)):
            lines.append(f"| {label} | {cell(drawn, key)} | {cell(drawn, key, 1)} | "
                         f"{statistics.median(r[end_key] for r in drawn):.3f} | {cell(rows, key)} |")
        ladder_median = median_count([r["ladder"][0] for r in drawn])
        robin_median = median_count([r["robin"][0] for r in drawn])
        ladder_high = interval([r["ladder"][0] for r in drawn])[1]
        robin_low = interval([r["robin"][0] for r in drawn])[0]
        verdict = "holds" if ladder_median <= robin_median and ladder_median < math.inf else "does NOT hold"
        lines += ["", f"The goal, the ladder first reaching tau {TAU} after no more matches than the round robin "
                  f"(banked medians, {_count(ladder_median)} against {_count(robin_median)}), {verdict}"
                  + ("; the two intervals do not overlap." if ladder_high < robin_low else
                     "; the two intervals overlap." if verdict == "holds" else ".")]
        at = [r["robin_tau_at_ladder"] for r in rows if r["robin_tau_at_ladder"] is not None]
        ratios = [r["ladder"][0] / r["robin"][0] for r in rows if r["ladder"][0] and r["robin"][0]]
        lines += ["", "Live runs (ladder / round robin, first reached): "
                  + ", ".join(f"{r['ladder'][0] or 'never'} / {r['robin'][0] or 'never'}" for r in rows)
                  + (f"; ladder/round robin {statistics.median(ratios):.2f} (median)" if ratios else "")
                  + (f"; the round robin's tau when the ladder first reached {TAU}: "
                     + ", ".join(f"{t:.3f}" for t in at) if at else "") + "."]
    hour_ = result["hour"]
    lines += ["", f"Fairness and throughput: {hour_['seconds'] / 60:.0f} simulated minutes, the beat every "
              f"{LADDER_SECONDS:g} s topping up to {hour_['cap']} matches in flight, a match lasting "
              f"{MOVE_SECONDS} s an event (fast bots); {hour_['matches']} matches started."]
    if hour_["settled_at"] is None:
        lines.append(f"The ratings never all settled (sigma < {SETTLED_SIGMA}).")
    else:
        mean, shares = hour_["mean"], hour_["shares"]
        lines += [f"Every rating had settled (sigma < {SETTLED_SIGMA}) at minute {hour_['settled_at'] / 60:.1f}; "
                  f"of the {hour_['window']} matches started from then, each bot played (mean {mean:.1f}):", "",
                  "| bot (strength p) | " + " | ".join(f"{hour_['strengths'][k]:.2f}" for k in sorted(shares)) + " |",
                  "| --- | " + " | ".join("---:" for _ in shares) + " |",
                  "| matches | " + " | ".join(str(shares[k]) for k in sorted(shares)) + " |", "",
                  f"Largest distance from the mean share: {hour_['worst']:.1%} (the bound: {FAIR:.0%}); "
                  f"{'within' if hour_['worst'] <= FAIR else 'NOT within'} it."]
    cost, update = hour_["cost_per_match"], hour_["update"]
    lines += ["", f"Most matches in flight at once: {hour_['most_in_flight']} (the cap: {hour_['cap']}). "
              f"The matchmaker's own cost (history_of and next_pairings, CPU time): {cost * 1e6:,.0f} µs a "
              f"scheduled match, {cost / update:.1f}x one openskill update of a two-player match "
              f"({update * 1e6:,.0f} µs) measured in the same run.", "",
              f"({result['seconds']:.0f} s{', --quick' if result['quick'] else ''})"]
    return lines


if __name__ == "__main__":
    print("\n".join(report(run(quick="--quick" in sys.argv))))
