"""Does every read of the load bench's mix use an index? (issue 42, item 4)

Each kind of read of bench/load.py's mix (replay steps, standings, leaderboards, the viewer's
page, frames.json, and the match list) is requested in process (Django's test client) on the
dataset of bench/dataset.py; every SQL statement it runs is captured with its parameters and
EXPLAINed with sequential scans, hash joins and merge joins priced out (``SET enable_seqscan =
off`` ...): a plan that still reads a table whole (a sequential scan, or an index walked with
no condition and no LIMIT) has no index that can serve the statement, whatever the table's size. On a small
table the planner rightly prefers a scan, so the price-out is what makes the answer independent
of how much data the database holds.

Run: ``.venv/bin/python bench/explain.py [--url URL] [--quick]`` (default BENCH_DATASET_URL);
the report on stderr, the findings as JSON on the last line of stdout.
"""
from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PER_KIND = 6


def unindexed(node: dict) -> list[str]:
    """Tables the plan reads whole: a sequential scan, or an index scan with no condition on the
    index (the whole index walked, for its order), unless a LIMIT above it stops it early."""
    found = []
    kind = node.get("Node Type")
    if kind == "Seq Scan":
        found.append(node["Relation Name"])
    elif kind in ("Index Scan", "Index Only Scan") and "Index Cond" not in node:
        found.append(f"{node['Relation Name']} (whole index {node['Index Name']})")
    if kind == "Limit":
        return found  # what is under a LIMIT stops after a few rows
    for child in node.get("Plans", []):
        found.extend(unindexed(child))
    return found


def reads(seeded: dict, rng: random.Random) -> dict[str, list[str]]:
    """PER_KIND paths of each kind of read in the mix (and the match list)."""
    from bench.load import _frames_path, _step_path, _viewer_path

    return {
        "steps": [_step_path(seeded, rng) for _ in range(PER_KIND)],
        "standings": [f"/api/tournaments/{t}/standings/" for t in seeded["tournaments"][:PER_KIND]],
        "leaderboard": [f"/api/leaderboards/{game}/" for game in seeded["games"]],
        "viewer page": [_viewer_path(seeded, rng) for _ in range(PER_KIND)],
        "frames.json": [_frames_path(seeded, rng) for _ in range(PER_KIND)],
        "match list": ["/api/matches/", f"/api/matches/?ruleset={seeded['games'][0]}"],
    }


def explained(paths: dict[str, list[str]]) -> dict:
    """Per kind: the statements run and those whose plan scans a table with scans priced out."""
    from django.db import connection
    from django.test import Client

    client = Client()
    findings = {}
    for kind, kind_paths in paths.items():
        statements = []

        def capture(execute, sql, params, many, context):
            statements.append((sql, params))
            return execute(sql, params, many, context)

        with connection.execute_wrapper(capture):
            for path in kind_paths:
                accept = "text/html" if kind == "viewer page" else "application/json"
                answer = client.get(path, HTTP_ACCEPT=accept)
                if answer.status_code != 200:
                    raise SystemExit(f"{path}: {answer.status_code} {answer.content[:300]!r}")
        scans = {}
        with connection.cursor() as cursor:
            # scans and the joins that read both sides whole priced out: what is left scanning
            # has no index for its filter or its join key
            cursor.execute("SET enable_seqscan = off; SET enable_hashjoin = off; SET enable_mergejoin = off")
            for sql, params in statements:
                if not sql.lstrip().upper().startswith("SELECT"):
                    continue
                cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
                plan = cursor.fetchone()[0]
                for table in unindexed(plan[0]["Plan"] if isinstance(plan, list) else json.loads(plan)[0]["Plan"]):
                    scans.setdefault(table, sql[:300])
            cursor.execute("RESET enable_seqscan; RESET enable_hashjoin; RESET enable_mergejoin")
        findings[kind] = {"statements": len(statements) / len(kind_paths), "scans": scans}
    return findings


def run(url: str, quick: bool = False) -> dict:
    from bench.load import seed_database

    import tempfile

    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ["SECURE_SSL_REDIRECT"] = "0"
    with tempfile.TemporaryDirectory(prefix="arena-bench-explain-") as var_dir:
        os.environ["ARENA_VAR_DIR"] = var_dir  # DEBUG off: the pages' static files collected here
        seeded = seed_database(url, quick=quick)
        from django.core.management import call_command

        call_command("collectstatic", interactive=False, verbosity=0)
        return explained(reads(seeded, random.Random(3)))


def report(findings: dict) -> list[str]:
    lines = ["| read | statements per request | tables scanned with no usable index |",
             "| --- | ---: | --- |"]
    for kind, found in findings.items():
        lines.append(f"| {kind} | {found['statements']:.1f} | {', '.join(sorted(found['scans'])) or 'none'} |")
    return lines


if __name__ == "__main__":
    arguments = sys.argv[1:]
    from bench.load import DATASET_URL

    target = arguments[arguments.index("--url") + 1] if "--url" in arguments else DATASET_URL
    result = run(target, quick="--quick" in arguments)
    print("\n".join(report(result)), file=sys.stderr)
    for kind, found in result.items():
        for table, sql in found["scans"].items():
            print(f"{kind}: {table}: {sql}", file=sys.stderr)
    print(json.dumps(result))
