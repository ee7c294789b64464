"""Swiss pairing against the FIDE-endorsed Dutch engine: agreement on the golden cases.

`../shared/swiss-golden/` (beside the project) holds reference cases: a TRF-16 history
(`nP_RR_sS_rK.trf`, a P-player, R-round event after K-1 rounds) and the next round as
bbpPairings v6.0.0 (2025 Dutch rules) pairs it (`.out`: the number of boards, then `white black`
a line, `0` as the bye's opponent; an empty file where no legal pairing exists). Each history is
read with `tournaments.formats.trf`, fed to the Swiss format as the format's own rounds and
outcomes, and the format's next round is compared with the reference: pairs as unordered pairs
plus the bye, seats (colours) as ordered pairs (seat 0 = white). The old algorithm (before the
Dutch system: folded score groups, rematch avoidance, seat balance), kept here only for the
comparison, is measured on the same cases in the same run, with the downfloats and the breaks of
the absolute colour rule (a colour difference beyond +-2 or a third colour in a row) that each
pairing makes.

Large fields (issue 40.6): Swiss events of 256 and 512 players played through `Swiss.next_round`
(seeded random results: 45 % white wins, 45 % black wins, 10 % draws), each round timed beside
the reference engine pairing the same history: the history is exported as TRF-16 and the binary
named by ``ARENA_BBP_PAIRINGS`` pairs it (``bbpPairings.exe --dutch FILE -p OUT``, its wall time
including its start); the two pairings are compared too. Then a 1,024-player Swiss end to end
(beside the reference as well when it is given). The reference engine is not part of the
project: build it from its public source outside the repository and name the binary. Without it
the bench reports the project's times alone.

Pure Python, no Django. Run alone: ``.venv/bin/python bench/swiss.py`` prints the report
(``--quick``: every fifth golden case and 3 rounds of the 256-player field; ``--large-only``).
"""
from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tournaments.formats import Entry, Outcome, Swiss  # noqa: E402
from tournaments.formats import trf  # noqa: E402
from tournaments.formats.dutch import BLACK, WHITE, dutch_players  # noqa: E402
from tournaments.formats.matching import max_weight_matching  # noqa: E402
from tournaments.formats.swiss import swiss_pairing, swiss_records  # noqa: E402

GOLDEN = ROOT.parent / "shared" / "swiss-golden"
RANGES = ((8, 9), (16, 17), (32, 33), (64, 64))
TIMING_REPEATS = {"full": 3, "quick": 1}
# (players, rounds, beside the reference engine); quick: the first field, 3 rounds
LARGE_FIELDS = ((256, 9, True), (512, 10, True), (1024, 11, False))
QUICK_ROUNDS = 3
REFERENCE_ENV = "ARENA_BBP_PAIRINGS"


def golden_cases(quick: bool = False) -> list[Path]:
    """The reference histories (every fifth with --quick)."""
    cases = sorted(GOLDEN.glob("*.trf"))
    return cases[::5] if quick else cases


def reference_pairing(case: Path) -> list[tuple[int, int]] | None:
    """The `.out` beside a history: (white, black) pairs, (player, 0) for the bye; None = no pairing."""
    numbers = [int(word) for word in case.with_suffix(".out").read_text().split()]
    if not numbers:
        return None
    return [(numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(numbers[0])]


def run(quick: bool = False, large_only: bool = False) -> dict:
    """Agreement of the shipped and the old Swiss with the reference, by case; timing at 64;
    the large fields beside the reference engine."""
    large = large_fields(quick)
    if large_only:
        return {"large": large}
    if not GOLDEN.is_dir():
        return {"missing": str(GOLDEN), "large": large}
    started = time.perf_counter()
    rows = []
    for case in golden_cases(quick):
        event = trf.parse(case.read_text())
        reference = reference_pairing(case)
        entries, rounds, outcomes, planned = event.to_swiss()
        found = swiss_pairing(swiss_records(entries, rounds, outcomes), rounds_planned=planned)  # as next_round
        ours = list(found.pairs) + ([(found.bye, 0)] if found.bye else [])
        old = old_pairing(event)
        row = {"case": case.name, "players": len(event.players), "fallback": found.fallback,
               "reference": reference is not None}
        for name, pairs in (("ours", ours), ("old", old)):
            row[f"{name}_pairs"] = reference is not None and same_pairs(pairs, reference)
            row[f"{name}_seats"] = reference is not None and set(pairs) == set(reference)
            row[f"{name}_floats"], row[f"{name}_colour_breaks"] = floats_and_breaks(event, pairs)
        if reference is not None:
            row["reference_floats"], row["reference_colour_breaks"] = floats_and_breaks(event, reference)
        rows.append(row)
    timing = time_64(quick)
    return {"rows": rows, "timing": timing, "seconds": time.perf_counter() - started, "quick": quick,
            "large": large}


# ---------------------------------------------------------------- large fields beside the reference engine

def reference_binary() -> str | None:
    """The reference engine's binary named by ARENA_BBP_PAIRINGS, if it is there."""
    path = os.environ.get(REFERENCE_ENV)
    return path if path and os.access(path, os.X_OK) else None


def reference_round(binary: str, history: str) -> tuple[float, set | None]:
    """Wall seconds of the reference engine pairing a TRF history, and its pairs (unordered, the
    bye as {player, 0}); None when it found no pairing."""
    with tempfile.TemporaryDirectory() as folder:
        path, out = Path(folder) / "history.trf", Path(folder) / "pairing.txt"
        path.write_text(history)
        started = time.perf_counter()
        done = subprocess.run([binary, "--dutch", str(path), "-p", str(out)], capture_output=True, text=True)
        seconds = time.perf_counter() - started
        if done.returncode:
            return seconds, None
        numbers = [int(word) for word in out.read_text().split()]
    return seconds, {frozenset(numbers[1 + 2 * i:3 + 2 * i]) for i in range(numbers[0])}


def play_field(players: int, rounds: int, binary: str | None, beside: bool, seed: int = 40) -> list[dict]:
    """A Swiss of `players` entries played round by round with seeded random results; each round
    Swiss.next_round timed, and beside it the reference engine on the same history."""
    rng = random.Random(seed * 1000 + players)
    entries = [Entry(number, number) for number in range(1, players + 1)]
    fmt, played, outcomes, rows = Swiss(rounds=rounds), [], {}, []
    for number in range(1, rounds + 1):
        row = {"round": number}
        if binary and beside:
            history = trf.export(trf.from_swiss(entries, played, outcomes, rounds))
            row["reference"], reference = reference_round(binary, history)
        started = time.perf_counter()
        found = fmt.next_round(entries, played, outcomes)
        row["ours"] = time.perf_counter() - started
        if binary and beside:
            ours = {frozenset(p.seats if not p.bye else (p.seats[0], 0)) for p in found.pairings}
            row["same"] = ours == reference
        rows.append(row)
        print(f"swiss bench: {players} players, round {number}: ours {row['ours']:.2f} s"
              + (f", reference {row['reference']:.2f} s, same pairs {row['same']}" if "reference" in row else ""),
              file=sys.stderr, flush=True)
        played.append(found)
        for pairing in found.pairings:
            if not pairing.bye:
                white, black = pairing.seats
                draw = rng.random()
                outcomes[pairing.key] = Outcome(pairing.key, {white: 1, black: 1} if draw < 0.1 else
                                                {white: 1, black: 2} if draw < 0.55 else {white: 2, black: 1})
    return rows


def large_fields(quick: bool) -> dict:
    """Every round of each large field, ours beside the reference engine (when it is given)."""
    binary = reference_binary()
    fields = LARGE_FIELDS[:1] if quick else LARGE_FIELDS
    result = {"reference": binary, "fields": []}
    for players, rounds, beside in fields:
        started = time.perf_counter()
        rows = play_field(players, QUICK_ROUNDS if quick else rounds, binary, beside)
        result["fields"].append({"players": players, "rounds": rows, "seconds": time.perf_counter() - started})
    return result


def report_large(large: dict) -> list[str]:
    """Markdown: each field's rounds, ours and the reference, with the ratio."""
    if large["reference"]:
        lines = ["", "Large fields: every round of a Swiss played through `Swiss.next_round` with seeded random "
                 "results (45 % white wins, 45 % black wins, 10 % draws), timed beside the reference engine "
                 "(bbpPairings, `--dutch`, given by `ARENA_BBP_PAIRINGS`; its wall time, including its start and "
                 "reading the TRF history) pairing the same history in the same run.", ""]
    else:
        lines = ["", "Large fields: every round of a Swiss played through `Swiss.next_round` with seeded random "
                 f"results. **The reference engine was not given** (`{REFERENCE_ENV}` names no executable), so "
                 "these are the project's times alone.", ""]
    for field in large["fields"]:
        rows = field["rounds"]
        lines += [f"{field['players']} players, {len(rows)} rounds ({field['seconds']:.0f} s in all):", ""]
        if all("reference" in row for row in rows):
            lines += ["| round | ours (s) | reference (s) | ratio | same pairs |",
                      "| ---: | ---: | ---: | ---: | --- |"]
            lines += [f"| {r['round']} | {r['ours']:.2f} | {r['reference']:.2f} | {r['ours'] / r['reference']:.2f}x | "
                      f"{'yes' if r['same'] else 'NO'} |" for r in rows]
            worst = max(rows, key=lambda r: r["ours"] / r["reference"])
            lines += ["", f"Worst ratio: round {worst['round']}, {worst['ours'] / worst['reference']:.2f}x; in all "
                      f"{sum(r['ours'] for r in rows):.1f} s against {sum(r['reference'] for r in rows):.1f} s; "
                      f"the same pairs in {sum(r['same'] for r in rows)} of {len(rows)} rounds.", ""]
        else:
            lines += ["| round | ours (s) |", "| ---: | ---: |"]
            lines += [f"| {r['round']} | {r['ours']:.2f} |" for r in rows]
            lines += ["", f"In all {sum(r['ours'] for r in rows):.1f} s.", ""]
    return lines


def same_pairs(ours: list[tuple[int, int]], reference: list[tuple[int, int]]) -> bool:
    return {frozenset(p) for p in ours} == {frozenset(p) for p in reference}


def floats_and_breaks(event: trf.TrfTournament, pairs: list[tuple[int, int]]) -> tuple[int, int]:
    """Pairs of unequal scores, and players whose colour takes them beyond +-2 or to a third
    colour in a row (the absolute colour rule; topscorers may do so in the last round)."""
    players = {p.number: p for p in dutch_players(event.records())}
    floats = breaks = 0
    for white, black in pairs:
        if not black:
            continue
        floats += players[white].score != players[black].score
        for number, colour in ((white, WHITE), (black, BLACK)):
            colours = players[number].colours + (colour,)
            breaks += abs(sum(colours)) > 2 or (len(colours) >= 3 and len(set(colours[-3:])) == 1)
    return floats, breaks


def time_64(quick: bool) -> dict:
    """Seconds per round at 64 players through Swiss.next_round (best of a few runs per case);
    the old algorithm on the same cases."""
    cases = [c for c in golden_cases(quick) if c.name.startswith("n64_")]
    ours, old = [], []
    for case in cases:
        event = trf.parse(case.read_text())
        entries, rounds, outcomes, planned = event.to_swiss()
        fmt = Swiss(rounds=planned)
        runs = []
        for _ in range(TIMING_REPEATS["quick" if quick else "full"]):
            started = time.perf_counter()
            fmt.next_round(entries, rounds, outcomes)
            runs.append(time.perf_counter() - started)
        ours.append(min(runs))
        started = time.perf_counter()
        old_pairing(event)
        old.append(time.perf_counter() - started)
    return {"cases": len(cases), "ours": ours, "old": old}


def report(result: dict) -> list[str]:
    """Markdown lines."""
    if "rows" not in result:
        lines = [f"**Not run: the reference cases are missing** ({result['missing']} does not exist; "
                 "it lives in the shared folder beside the project)."] if "missing" in result else []
        return lines + report_large(result["large"])
    rows = result["rows"]
    paired = [r for r in rows if r["reference"]]
    stops = [r for r in rows if not r["reference"]]

    def share(selected, key):
        return f"{sum(r[key] for r in selected)}/{len(selected)} ({sum(r[key] for r in selected) / len(selected):.1%})"
    lines = [f"{len(rows)} reference cases from `../shared/swiss-golden` (bbpPairings v6.0.0, 2025 Dutch "
             f"rules){' (quick: every fifth)' if result['quick'] else ''}: {len(paired)} with a reference "
             f"pairing, {len(stops)} where no legal pairing exists. A round agrees on pairs when the "
             "unordered pairs and the bye are the same, on seats when every pair also has the same "
             "player in seat 0 (white).", "",
             "| players | rounds | pairs, ours | seats, ours | pairs, old | seats, old |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for low, high in RANGES:
        selected = [r for r in paired if low <= r["players"] <= high]
        if selected:
            label = f"{low}-{high}" if low != high else f"{low}"
            lines.append(f"| {label} | {len(selected)} | {share(selected, 'ours_pairs')} | "
                         f"{share(selected, 'ours_seats')} | {share(selected, 'old_pairs')} | "
                         f"{share(selected, 'old_seats')} |")
    lines.append(f"| all | {len(paired)} | {share(paired, 'ours_pairs')} | {share(paired, 'ours_seats')} | "
                 f"{share(paired, 'old_pairs')} | {share(paired, 'old_seats')} |")
    fallbacks = [r for r in rows if r["fallback"]]
    lines += ["", f"No legal Dutch pairing (the reference engine stops): {len(stops)} case(s); ours fell back "
              f"to the fewest-rematches matching in {len(fallbacks)} case(s)"
              f"{' (' + ', '.join(r['case'] for r in fallbacks) + ')' if fallbacks else ''}; "
              f"{sum(1 for r in fallbacks if r['reference'])} of them had a reference pairing."]
    totals = {k: sum(r[f"{k}_floats"] for r in paired) for k in ("reference", "ours", "old")}
    breaks = {k: sum(r[f"{k}_colour_breaks"] for r in paired) for k in ("reference", "ours", "old")}
    lines += ["", "Over the rounds with a reference pairing, in the same run:", "",
              "| | reference | ours | old |", "| --- | ---: | ---: | ---: |",
              f"| pairs of unequal scores (floats) | {totals['reference']} | {totals['ours']} "
              f"({totals['ours'] / totals['reference']:.2f}x) | {totals['old']} "
              f"({totals['old'] / totals['reference']:.2f}x) |",
              f"| absolute colour rule broken (players) | {breaks['reference']} | {breaks['ours']} | {breaks['old']} |"]
    timing = result["timing"]
    if timing["ours"]:
        ours, old = timing["ours"], timing["old"]
        lines += ["", f"Time per round at 64 players ({timing['cases']} cases, Swiss.next_round, best of "
                  f"{TIMING_REPEATS['quick' if result['quick'] else 'full']} runs each): best "
                  f"{min(ours) * 1000:.0f} ms, median {statistics.median(ours) * 1000:.0f} ms, worst "
                  f"{max(ours) * 1000:.0f} ms; the old algorithm: median {statistics.median(old) * 1000:.0f} ms."]
    lines += ["", f"({result['seconds']:.1f} s)"]
    return lines + report_large(result["large"])


# ---------------------------------------------------------------- the old algorithm, for comparison

def old_pairing(event: trf.TrfTournament) -> list[tuple[int, int]]:
    """The Swiss pairing before the Dutch system (kept only here): score groups folded, a
    backtracking search for a rematch-free pairing, the bye to the lowest-ranked player without
    one, and seats by first-seat balance, then the last seat, then the round's parity."""
    players = {p.number: p for p in dutch_players(event.records())}
    ranked = sorted(players, key=lambda n: (-players[n].score, n))
    number = event.rounds_played + 1
    bye, pairs = _old_bye_and_pairs(ranked, players)
    seated = [_old_seats(a, b, players, number) for a, b in pairs]
    return seated + ([(bye, 0)] if bye is not None else [])


def _old_partners(player, remaining, players):
    group = [o for o in remaining if players[o].score == players[player].score]
    target = len(group) // 2
    in_group = sorted(group[1:], key=lambda o: (abs(group.index(o) - target), group.index(o)))
    below = [o for o in remaining if players[o].score != players[player].score]
    return in_group + sorted(below, key=lambda o: abs(players[o].score - players[player].score))


def _old_pair(remaining, players, failed):
    if not remaining:
        return []
    if tuple(remaining) in failed:
        return None
    player = remaining[0]
    for partner in _old_partners(player, remaining, players):
        if partner in players[player].opponents:
            continue
        rest = _old_pair([p for p in remaining[1:] if p != partner], players, failed)
        if rest is not None:
            return [(player, partner)] + rest
    failed.add(tuple(remaining))
    return None


def _old_bye_and_pairs(ranked, players):
    if len(ranked) % 2 == 0:
        pairs = _old_pair(ranked, players, set())
        return (None, pairs) if pairs is not None else _old_fewest_rematches(ranked, players, [])
    eligible = [p for p in reversed(ranked) if players[p].bye_eligible]
    for bye in eligible:
        pairs = _old_pair([p for p in ranked if p != bye], players, set())
        if pairs is not None:
            return bye, pairs
    return _old_fewest_rematches(ranked, players, eligible)


def _old_fewest_rematches(ranked, players, eligible):
    rank = {p: i for i, p in enumerate(ranked)}
    scores = [players[p].score for p in ranked]
    spread = max(scores) - min(scores) + 1
    bye_step = (len(ranked) // 2 + 1) * spread + 1
    no_rematch = bye_step * (len(eligible) + 1)
    edges = {}
    for i, a in enumerate(ranked):
        for j in range(i + 1, len(ranked)):
            b = ranked[j]
            edges[(i, j)] = (spread - abs(players[a].score - players[b].score)
                             + (0 if b in players[a].opponents else no_rematch))
    for place, p in enumerate(eligible):
        edges[(rank[p], len(ranked))] = no_rematch + bye_step * (len(eligible) - place)
    bye, pairs = None, []
    for a, b in max_weight_matching(list(range(len(ranked) + 1)), edges, most_pairs=True):
        if b == len(ranked):
            bye = ranked[a]
        else:
            pairs.append((ranked[a], ranked[b]))
    return bye, sorted(pairs, key=lambda pair: rank[pair[0]])


def _old_seats(higher, lower, players, number):
    balance = {p: sum(players[p].colours) for p in (higher, lower)}
    if balance[higher] != balance[lower]:
        return (higher, lower) if balance[higher] < balance[lower] else (lower, higher)
    last = {p: players[p].colours[-1] if players[p].colours else None for p in (higher, lower)}
    if last[higher] != last[lower] and None not in last.values():
        return (higher, lower) if last[higher] == BLACK else (lower, higher)
    return (higher, lower) if number % 2 == 1 else (lower, higher)


if __name__ == "__main__":
    print("\n".join(report(run(quick="--quick" in sys.argv, large_only="--large-only" in sys.argv))))
