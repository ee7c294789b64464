"""Run every benchmark in one go: ``python3 dev.py bench`` (or ``.venv/bin/python bench/run.py``).

    bench/run.py            print the figures and ratios (Markdown)
    bench/run.py --write    ... and rewrite BENCHMARKS.md with them
    bench/run.py --quick    smaller corpora, for checking that the benchmarks run
    bench/run.py --only fold|append
    bench/run.py --only balance --game wizard-kings --players 2 --games 1000 --write
                            re-run one game's balance for some player counts only; --write
                            replaces just those tables in BENCHMARKS.md
    bench/run.py --only search --upto 30 --write
                            the search bot's games in stages (each game is kept in
                            bench/results/search; a later run goes on from there)

``fold`` needs nothing but Python. ``append`` needs PostgreSQL: BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/arena_bench) names a database of its own, created if missing
and emptied on each run; DATABASE_URL is ignored so a run never touches the service's data.

BENCHMARKS.md is generated, except the hand-written text between the NOTES markers, which a
``--write`` keeps as it is.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import os
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import append as append_bench  # noqa: E402  (after the sys.path line above)
from bench import balance as balance_bench  # noqa: E402
from bench import brackets as brackets_bench  # noqa: E402
from bench import fold as fold_bench  # noqa: E402
from bench import ladder as ladder_bench  # noqa: E402
from bench import load as load_bench  # noqa: E402
from bench import explain as explain_bench  # noqa: E402
from bench import games as games_bench  # noqa: E402
from bench import growth as growth_bench  # noqa: E402
from bench import protocol as protocol_bench  # noqa: E402
from bench import reads as reads_bench  # noqa: E402
from bench import recovery as recovery_bench  # noqa: E402
from bench import remote as remote_bench  # noqa: E402
from bench import search as search_bench  # noqa: E402
from bench import steps as steps_bench  # noqa: E402
from bench import swiss as swiss_bench  # noqa: E402
from bench import tournament as tournament_bench  # noqa: E402
from bench import viewer as viewer_bench  # noqa: E402

BENCHMARKS = ROOT / "BENCHMARKS.md"
NOTES_START, NOTES_END = "<!-- NOTES: hand-written, kept by --write -->", "<!-- /NOTES -->"
SIZES = {  # (fold matches, fold repeats, durable events, no-flush events, append rounds)
    "full": (20, 5, 800, 2000, 7),  # append: 7 rounds, the best of each method (a VM's neighbours)
    "quick": (3, 2, 300, 700, 1),
}
GAMES_SIZES = {"full": {"playouts": 20, "games": 200}, "quick": {"playouts": 3, "games": 20}}
BALANCE_SIZES = {"full": 1000, "quick": 20}
BALANCE_HEADING = "## Balance by self-play (bench/balance.py)"
# Further benchmarks: name -> (heading, module, how it runs: "in process" or the script that runs
# in a subprocess of its own and prints its figures as JSON on its last line).
EXTRA = {
    "brackets": ("## Double elimination: losers'-bracket rematches (bench/brackets.py)",
                 brackets_bench, "in process"),
    "recovery": ("## Recovery: workers killed under a running tournament (bench/recovery.py)",
                 recovery_bench, "recovery.py"),
    "ladder": ("## The ladder: convergence against a round robin, fairness and throughput (bench/ladder.py)",
               ladder_bench, "in process"),
    "load": ("## Load: 200 clients against the production server (bench/load.py)", load_bench, "load.py"),
    "reads": ("## Where a read spends its time (bench/reads.py)", reads_bench, "reads.py"),
    "search": ("## The search bot against each game's best bot (bench/search.py)", search_bench,
               "in process"),
    "swiss": ("## Swiss: FIDE Dutch pairings against the reference engine (bench/swiss.py)",
              swiss_bench, "in process"),
    "viewer": ("## Opening a replay in the viewer, short and long match, in Chromium (bench/viewer.py)",
               viewer_bench, "viewer.py"),
    "explain": ("## Every read of the load mix uses an index (bench/explain.py)", explain_bench, "explain.py"),
    "growth": ("## Growth: the event store at 20 million events (bench/growth.py)", growth_bench, "growth.py"),
    "remote": ("## Remote seats: the clock's fairness on the loopback (bench/remote.py)", remote_bench, "remote.py"),
}


def machine() -> dict:
    """What the figures were measured on."""
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = "unknown"
    try:
        match = re.search(r"MemTotal:\s+(\d+) kB", Path("/proc/meminfo").read_text())
        memory = f"{int(match.group(1)) / 1024 ** 2:.1f} GiB" if match else memory
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": memory, "load": load_average(),
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "os": platform.platform()}


def load_average() -> str:
    """The 1-minute load average: other work on the machine skews every figure."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def reading(fold: dict | None, append: dict | None) -> list[str]:
    """Sentences computed from the figures (so they never disagree with the tables)."""
    lines = []
    if fold:
        floor, folded = fold["timings"][0], fold["timings"][1]
        lines.append(f"- Folding a stored log runs at {folded.rate:,.0f} events/s: "
                     f"{fold['fold_over_floor']:.1f}x the time of merely parsing its JSON "
                     f"({floor.rate:,.0f} lines/s), so the rules, not the JSON, dominate a fold.")
        if len(fold["timings"]) > 2:
            validated = fold["timings"][2]
            lines.append(f"- Full validation (hashes, legality, chance re-derived) runs at "
                         f"{validated.rate:,.0f} events/s, {folded.rate / validated.rate:.1f}x "
                         f"slower than the fold.")
    for mode in (append or {}).get("modes", []):
        by_name = {r.name: r for r in mode["results"]}
        service = by_name[append_bench.SERVICE]
        lines.append(f"- {mode['mode']}: the service appends {service.rate:,.0f} events/s "
                     f"({1000 / service.rate:.2f} ms each), service/floor "
                     f"{mode['service_over_floor']:.2f} (the floor's INSERT prepared: "
                     f"{mode['service_over_floor_prepared']:.2f}), service/eventsourcing "
                     f"{mode['service_over_eventsourcing']:.2f}.")
        if mode["breakdown"]:
            steps = mode["breakdown"]["steps"]
            wall = mode["breakdown"]["wall_per_event"]
            top = sorted(steps.items(), key=lambda kv: -kv[1])[:3]
            lines.append("  Largest steps of event_append: " + "; ".join(
                f"{name} {seconds * 1e6:,.0f} µs ({seconds / wall:.0%})" for name, seconds in top)
                + ".")
    return lines


def markdown(*, when: str, command: str, host: dict, fold: dict | None, append: dict | None,
             notes: str, games: dict | None = None, protocol: dict | None = None,
             tournament: dict | None = None, steps: dict | None = None,
             balance: dict | None = None, extra: dict | None = None) -> str:
    """The whole of BENCHMARKS.md."""
    server = append["server"]["server_version"] if append else "not measured"
    lines = [
        "# Benchmarks", "",
        "Generated by `python3 dev.py bench --write` (bench/run.py); only the Notes section is "
        "written by hand. The code of each benchmark says exactly what it measures: "
        "bench/fold.py, bench/append.py, bench/protocol.py, bench/steps.py, bench/tournament.py, "
        "bench/games.py, bench/balance.py.", "",
        "## Machine and run", "",
        f"- CPU: {host['cpu']}, {host['cores']} cores; RAM {host['memory']}",
        f"- {host['python']} on {host['os']}",
        f"- PostgreSQL {server}",
        f"- 1-minute load average: {host['load']} when the run started, {load_average()} "
        f"when it ended",
        f"- command: `{command}`",
        f"- date: {when}",
    ]
    if fold:
        lines += ["", "## Fold throughput (bench/fold.py)", "", *fold_bench.report(fold)]
    if append:
        lines += ["", "## Append throughput on PostgreSQL (bench/append.py)", "",
                  *append_bench.report(append)]
    if protocol:
        lines += ["", "## Bot protocol: in process against sandboxed subprocesses (bench/protocol.py)", "",
                  *protocol_bench.report(protocol)]
    if steps:
        lines += ["", "## Step-through latency through the API (bench/steps.py)", "",
                  *steps_bench.report(steps)]
    if tournament:
        lines += ["", "## Tournament throughput with one and two workers (bench/tournament.py)", "",
                  *tournament_bench.report(tournament)]
    if games:
        lines += ["", "## Games: playout speed and bot strength (bench/games.py)", "",
                  *games_bench.report(games)]
    for name, figures in (extra or {}).items():
        heading, module, _ = EXTRA[name]
        lines += ["", heading, "", *module.report(figures)]
    if balance:
        lines += ["", BALANCE_HEADING, "", *balance_bench.report(balance)]
    lines += ["", "## Reading", "", *reading(fold, append), "", "## Notes", "",
              NOTES_START, notes.strip("\n"), NOTES_END, ""]
    return "\n".join(lines)


def kept_notes() -> str:
    """The hand-written notes of the current BENCHMARKS.md, if any."""
    if not BENCHMARKS.exists():
        return "(none yet)"
    text = BENCHMARKS.read_text(encoding="utf-8")
    start, end = text.find(NOTES_START), text.find(NOTES_END)
    if start < 0 or end < start:
        return "(none yet)"
    return text[start + len(NOTES_START):end]


def replace_section(text: str, heading: str, body: list[str], run_line: str) -> str:
    """``text`` with the section under ``heading`` replaced by ``body`` (added before
    "## Reading" if absent), and ``run_line`` in "Machine and run" saying when it was re-run."""
    lines = text.split("\n")
    if heading in lines:
        start = lines.index(heading)
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    else:
        start = end = lines.index("## Reading")
    lines[start:end] = [heading, "", *body, ""]
    machine_at = lines.index("## Machine and run")
    section_end = next(i for i in range(machine_at + 1, len(lines)) if lines[i].startswith("## "))
    same_run = run_line.partition(": re-run alone by")[0]   # a re-run of the same scope replaces it
    kept = [i for i in range(machine_at, section_end) if not lines[i].startswith(f"- {heading[3:]}:")
            and lines[i].partition(": re-run alone by")[0] != same_run]
    block = [lines[i] for i in kept]
    while block and not block[-1]:
        block.pop()
    lines[machine_at:section_end] = [*block, run_line, ""]
    return "\n".join(lines)


SECTION_HEADINGS = {"fold": "## Fold throughput (bench/fold.py)",
                    "append": "## Append throughput on PostgreSQL (bench/append.py)",
                    "protocol": "## Bot protocol: in process against sandboxed subprocesses (bench/protocol.py)",
                    "steps": "## Step-through latency through the API (bench/steps.py)",
                    "tournament": "## Tournament throughput with one and two workers (bench/tournament.py)",
                    "games": "## Games: playout speed and bot strength (bench/games.py)",
                    "balance": BALANCE_HEADING}


def carried_sections(text: str, old_text: str, skipped: list[str]) -> str:
    """``text`` (a new BENCHMARKS.md) with the sections of the ``skipped`` benchmarks taken over
    from ``old_text`` as they were, and a line in "Machine and run" saying so."""
    old_lines = old_text.split("\n")
    for name in skipped:
        heading = SECTION_HEADINGS.get(name) or EXTRA[name][0]
        if heading not in old_lines:
            continue
        start = old_lines.index(heading) + 1
        end = next((i for i in range(start, len(old_lines)) if old_lines[i].startswith("## ")),
                   len(old_lines))
        body = old_lines[start:end]
        while body and not body[0]:
            body = body[1:]
        text = replace_section(text, heading, body,
                               f"- {heading[3:]}: not re-run; kept from the previous run")
    return text


def merged_balance(text: str, body: list[str], games: list[str],
                   player_counts: list[int] | None = None) -> list[str]:
    """The balance section's ``body`` for ``games`` merged with the existing tables of the games
    not re-run (each table starts with "### <game>[, <variant>], <n> players:"), ordered by game;
    with ``player_counts``, a re-run game keeps its tables of the other player counts, and each
    game's tables stay ordered by variant, then player count."""
    lines = text.split("\n")
    if BALANCE_HEADING not in lines:
        return body
    start = lines.index(BALANCE_HEADING) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))

    def tables(section: list[str]) -> tuple[list[str], list[list[str]]]:
        heads = [i for i, line in enumerate(section) if line.startswith("### ")]
        blocks = [section[a:b] for a, b in zip(heads, heads[1:] + [len(section)])]
        return section[:heads[0]] if heads else section, [trimmed(block) for block in blocks]

    def trimmed(block: list[str]) -> list[str]:
        """A table followed by one blank line (the last one of a section may have had two)."""
        while block and not block[-1]:
            block = block[:-1]
        return [*block, ""]

    def heading(block: list[str]) -> tuple[str, str, int]:
        """(game, variant, players) of a table: "### sorcado, placement=corners, 2 players: ..."."""
        name, _, rest = block[0][4:].partition(":")[0].rpartition(", ")
        game, _, variant = name.partition(", ")
        return game, variant, int(rest.split()[0])

    intro, fresh = tables(body)
    _, old = tables(lines[start:end])
    kept = [b for b in old if heading(b)[0] not in games
            or (player_counts and heading(b)[2] not in player_counts)]
    variants = list(dict.fromkeys(heading(b)[:2] for b in old + fresh))
    blocks = sorted(kept + fresh, key=lambda b: (heading(b)[0], variants.index(heading(b)[:2]),
                                                heading(b)[2]))
    return [*intro, *[line for block in blocks for line in block]]


def in_subprocess(script: str, *, quick: bool = False) -> dict:
    """Run bench/<script> in its own process (it configures Django for itself, e.g. with a
    broker, before the settings are read) and return the JSON it prints last."""
    done = subprocess.run([sys.executable, str(ROOT / "bench" / script), *(["--quick"] if quick else [])],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite BENCHMARKS.md")
    parser.add_argument("--quick", action="store_true", help="small sizes, to check it runs")
    parser.add_argument("--upto", type=int, default=None,
                        help="search: at most N games of each pairing this run (0: report the games "
                             "bench/results/search holds); the full bench is hours of games")
    parser.add_argument("--game", action="append", default=[],
                        help="with --only balance: re-run these games only (repeatable); --write "
                             "keeps the other games' tables")
    parser.add_argument("--players", action="append", type=int, default=[], metavar="N",
                        help="balance: play only these player counts (repeatable); --write keeps "
                             "the tables of the other counts")
    parser.add_argument("--games", type=int, metavar="N",
                        help=f"balance: self-play games per player count (default "
                             f"{BALANCE_SIZES['full']}, {BALANCE_SIZES['quick']} with --quick)")
    parser.add_argument("--only", choices=("fold", "append", "games", "protocol", "tournament", "steps",
                                           "balance", *EXTRA), help="run one benchmark")
    parser.add_argument("--skip", action="append", default=[], metavar="NAME",
                        help="leave a benchmark out of a full run (repeatable); with --write its "
                             "section of BENCHMARKS.md is kept as it is")
    args = parser.parse_args(argv)
    if (args.players or args.games) and args.only not in (None, "balance"):
        parser.error("--players and --games apply to the balance benchmark only")
    if args.games is not None and args.games < 1:
        parser.error("--games needs at least 1")
    if args.write and args.only in ("fold", "append", "protocol", "tournament", "steps"):
        # These sections are written with the whole run: one alone would drop the others.
        parser.error(f"--only {args.only} --write would rewrite BENCHMARKS.md without the other "
                     f"benchmarks: re-run it in a full run with --write and --skip for the ones to "
                     f"keep, or --only {args.only} without --write")
    fold_matches, fold_repeats, durable, no_flush, rounds = SIZES["quick" if args.quick else "full"]
    started = time.perf_counter()
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    host = machine()
    fold = append = games = protocol = tournament = steps = balance = None
    extra: dict = {}

    def wanted(name: str) -> bool:
        return args.only == name or (args.only is None and name not in args.skip)

    if wanted("fold"):
        print("fold: playing the corpus and timing it ...", file=sys.stderr, flush=True)
        fold = fold_bench.run(matches=fold_matches, repeats=fold_repeats)
        print("\n".join(["## Fold", "", *fold_bench.report(fold), ""]), flush=True)
    if wanted("append"):
        print("append: PostgreSQL, every method on the same events ...", file=sys.stderr, flush=True)
        append = append_bench.run(durable_events=durable, no_flush_events=no_flush, rounds=rounds)
        print("\n".join(["## Append", "", *append_bench.report(append), ""]), flush=True)
    if wanted("protocol"):
        print("protocol: the same match in process and in subprocesses ...", file=sys.stderr, flush=True)
        protocol = protocol_bench.run(repeats=1 if args.quick else 3)
        print("\n".join(["## Protocol", "", *protocol_bench.report(protocol), ""]), flush=True)
    if wanted("tournament"):
        print("tournament: 64 entrants on real workers, one then two ...", file=sys.stderr, flush=True)
        tournament = in_subprocess("tournament.py")
        print("\n".join(["## Tournament", "", *tournament_bench.report(tournament), ""]), flush=True)
    if wanted("steps"):
        print("steps: latency of steps/{n} in a 10,000-event match ...", file=sys.stderr, flush=True)
        steps = in_subprocess("steps.py")
        print("\n".join(["## Steps", "", *steps_bench.report(steps), ""]), flush=True)
    if wanted("games"):
        print("games: playouts and bot strength ...", file=sys.stderr, flush=True)
        games = games_bench.run(**GAMES_SIZES["quick" if args.quick else "full"])
        print("\n".join(["## Games", "", *games_bench.report(games), ""]), flush=True)
    if wanted("balance"):
        print("balance: self-play of every game whose seats differ ...", file=sys.stderr, flush=True)
        balance = balance_bench.run(games=args.games or BALANCE_SIZES["quick" if args.quick else "full"],
                                    names=args.game or None, player_counts=args.players or None)
        print("\n".join(["## Balance", "", *balance_bench.report(balance), ""]), flush=True)
    for name, (heading, module, how) in EXTRA.items():
        if wanted(name):
            print(f"{name}: ...", file=sys.stderr, flush=True)
            staged = {"upto": args.upto} if name == "search" and args.upto is not None else {}
            extra[name] = (module.run(quick=args.quick, **staged) if how == "in process"
                           else in_subprocess(how, quick=args.quick))
            print("\n".join([heading, "", *module.report(extra[name]), ""]), flush=True)
    print("\n".join(["## Reading", "", *reading(fold, append)]))
    print(f"\n(all benchmarks: {time.perf_counter() - started:.0f} s)", file=sys.stderr)
    if args.write and args.only in ("games", "balance", *EXTRA) and BENCHMARKS.exists():
        # One benchmark re-run: its section is replaced, the others (and their run) are kept.
        command = "python3 dev.py bench " + " ".join(argv)
        if args.only in EXTRA:
            section = EXTRA[args.only][1].report(extra[args.only])
        else:
            section = ({"games": games_bench.report(games)} if args.only == "games"
                       else {"balance": balance_bench.report(balance)})[args.only]
        if args.only == "balance" and (args.game or args.players):
            rerun = args.game or [r.spec.name for r in balance_bench.balanced_games()]
            section = merged_balance(BENCHMARKS.read_text(encoding="utf-8"), section, rerun,
                                     args.players or None)
        heading = (EXTRA[args.only][0] if args.only in EXTRA
                   else "## Games: playout speed and bot strength (bench/games.py)"
                   if args.only == "games" else BALANCE_HEADING)
        counts = f", {', '.join(map(str, sorted(args.players)))} players" if args.players else ""
        which = (f" ({', '.join(args.game)}{counts})" if args.only == "balance" and args.game
                 else f" ({counts[2:]})" if args.only == "balance" and counts else "")
        run_line = (f"- {heading[3:]}{which}: re-run alone by `{command.strip()}` on {when}, load "
                    f"{host['load']} at the start, {load_average()} at the end")
        BENCHMARKS.write_text(replace_section(BENCHMARKS.read_text(encoding="utf-8"), heading,
                                              section, run_line), encoding="utf-8")
        print(f"updated {BENCHMARKS.relative_to(ROOT)}", file=sys.stderr)
    elif args.write:
        command = "python3 dev.py bench " + " ".join(argv)
        text = markdown(when=when, command=command.strip(), host=host, fold=fold, append=append,
                        notes=kept_notes(), games=games, protocol=protocol, tournament=tournament,
                        steps=steps, balance=balance, extra=extra)
        if args.skip and BENCHMARKS.exists():
            text = carried_sections(text, BENCHMARKS.read_text(encoding="utf-8"), args.skip)
        BENCHMARKS.write_text(text, encoding="utf-8")
        print(f"wrote {BENCHMARKS.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
