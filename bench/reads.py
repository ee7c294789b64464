"""Where a read spends its time: the request path of each read of bench/load.py's mix, profiled.

Issue 42, item 1. The data are bench/load.py's (a finished 8-bot Swiss of Trap the Wizard with
its ratings, on PostgreSQL: BENCH_DATABASE_URL, the cache in Redis: BENCH_CACHE_URL), the
settings production's (DEBUG off). Each read goes through Django's whole WSGI handler in this
process (every middleware, URL resolving, DRF's authentication, permissions and throttles, the
view, its queries, serialization and rendering), without a server or a network in between:

- ``health``: GET /api/health/ (the trivial endpoint: the request path alone);
- ``step``: GET /api/matches/M/steps/N/ at a random step and perspective of a random match;
- ``step, revalidated``: the same with the ETag its first read gave (answered 304);
- ``standings``: GET /api/tournaments/T/standings/;
- ``leaderboard``: GET /api/leaderboards/trap-the-wizard/.

Per read: the mean time of a request unprofiled (best of the repeats, so a busy machine's spells
count less) and its ratio to the health endpoint's; the queries a request makes; and, from a
cProfile run of the same requests, the share of the request spent in each part, each part timed
where the code enters it (time inside a part that another part called is counted in both: a
query made by the authentication is "authentication" and "queries"). The shares are those of
the profiled run, whose overhead inflates many small calls more than a few long ones.

Run alone: ``.venv/bin/python bench/reads.py [--quick]``: the report on stderr, the figures as
JSON on the last line of stdout (bench/run.py runs it in a subprocess).
"""
from __future__ import annotations

import cProfile
import json
import os
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arena_bench")
CACHE_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/8")
SIZES = {"full": (300, 5), "quick": (40, 2)}  # requests per read and repeat, repeats

# The parts of a request, each named by where the code enters it: (name, the files (a path
# ending) and, optionally, the functions of them that count).
PARTS = [
    ("middleware", None),  # the handler's time outside the view: get_response minus _get_response
    ("URL resolving", ("django/urls/resolvers.py", {"resolve"})),
    ("authentication", ("rest_framework/request.py", {"_authenticate"})),
    ("permissions", ("rest_framework/views.py", {"check_permissions", "check_object_permissions"})),
    ("throttles", ("rest_framework/views.py", {"check_throttles"})),
    ("queries", ("django/db/backends/utils.py", {"_execute"})),
    ("ORM", ("django/db/models/", None)),  # building querysets and model rows, its queries included
    ("cache", ("django/core/cache/", None)),
    ("folding (games/)", ("/games/", None)),
    ("serialization", ("rest_framework/serializers.py", None)),
    ("rendering", ("rest_framework/renderers.py", {"render"})),
]


def _entered(stats: pstats.Stats, where: str, names: set | None) -> float:
    """Seconds spent in functions of ``where`` (and ``names``), counted where code outside them
    calls them (so recursion and calls among them count once)."""
    def inside(func) -> bool:
        return where in func[0] and (names is None or func[2] in names)

    total = 0.0
    for func, (_, _, _, _, callers) in stats.stats.items():
        if inside(func):
            total += sum(edge[3] for caller, edge in callers.items() if not inside(caller))
    return total


def _cumulative(stats: pstats.Stats, file_end: str, name: str) -> float:
    return sum(entry[3] for func, entry in stats.stats.items() if func[0].endswith(file_end) and func[2] == name)


def profile_shares(stats: pstats.Stats) -> dict:
    request = _cumulative(stats, "django/core/handlers/base.py", "get_response")
    inner = _cumulative(stats, "django/core/handlers/base.py", "_get_response")
    shares = {"middleware": (request - inner) / request}
    for name, spec in PARTS[1:]:
        shares[name] = _entered(stats, spec[0], spec[1]) / request
    return shares


def setup(quick: bool = False) -> dict:
    """The bench database with load.py's data (its quick dataset with ``quick``), and Django
    configured as production is."""
    os.environ.update(CACHE_URL=CACHE_URL, SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="testserver,127.0.0.1",
                      API_THROTTLE_ANON="100000000/minute", API_THROTTLE_USER="100000000/minute",
                      CACHE_KEY_PREFIX=f"bench-reads-{os.getpid()}")
    from bench.load import seed_database

    return seed_database(DATABASE_URL, quick=quick)


def run(quick: bool = False) -> dict:
    seeded = setup(quick)
    from django.db import connection
    from django.test import Client

    count, repeats = SIZES["quick" if quick else "full"]
    client = Client()
    rng = random.Random(7)
    matches = seeded["matches"]

    def step_path() -> str:
        match, players, events = rng.choice(matches)
        seat = rng.choice([None, *range(players)])
        return f"/api/matches/{match}/steps/{rng.randrange(events)}/" + ("" if seat is None else f"?seat={seat}")

    etags = {}

    def revalidated() -> tuple[str, dict]:
        path = step_path()
        if path not in etags:
            etags[path] = client.get(path).headers["ETag"]
        return path, {"HTTP_IF_NONE_MATCH": etags[path]}

    reads = {
        "health": lambda: ("/api/health/", {}),
        "step": lambda: (step_path(), {}),
        "step, revalidated": revalidated,
        "standings": lambda: (f"/api/tournaments/{seeded['tournament']}/standings/", {}),
        "leaderboard": lambda: ("/api/leaderboards/trap-the-wizard/", {}),
    }
    expected = {"step, revalidated": 304}
    figures = {}
    for name, pick in reads.items():
        requests = [pick() for _ in range(count)]
        for path, headers in requests[:20]:  # warm up: caches, the first folds' imports
            client.get(path, **headers)
        seconds = []
        for _ in range(repeats):
            started = time.perf_counter()
            for path, headers in requests:
                answer = client.get(path, **headers)
            seconds.append((time.perf_counter() - started) / count)
            assert answer.status_code == expected.get(name, 200), (name, path, answer.status_code)
        queries = []

        def counter(execute, sql, params, many, context):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counter):
            for path, headers in requests:
                client.get(path, **headers)
        profiler = cProfile.Profile()
        profiler.enable()
        for path, headers in requests:
            client.get(path, **headers)
        profiler.disable()
        stats = pstats.Stats(profiler)
        figures[name] = {"ms": min(seconds) * 1000, "queries": len(queries) / count,
                         "shares": profile_shares(stats)}
        print(f"{name}: {figures[name]['ms']:.2f} ms, {figures[name]['queries']:.1f} queries", file=sys.stderr)
    health = figures["health"]["ms"]
    for name in figures:
        figures[name]["over_health"] = figures[name]["ms"] / health
    return {"reads": figures, "requests": count, "repeats": repeats, "load": _load()}


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def report(result: dict) -> list[str]:
    names = [name for name, _ in PARTS]
    lines = [
        "| read | ms a request | x health | queries | " + " | ".join(names) + " |",
        "|---|---:|---:|---:|" + "---:|" * len(names),
    ]
    for read, figures in result["reads"].items():
        shares = " | ".join(f"{figures['shares'][name] * 100:.0f} %" for name in names)
        lines.append(f"| {read} | {figures['ms']:.2f} | {figures['over_health']:.1f} | "
                     f"{figures['queries']:.1f} | {shares} |")
    lines += [
        "",
        f"Each read {result['requests']} times through Django's WSGI handler in one process (best of "
        f"{result['repeats']} repeats; no server, no network), on PostgreSQL with the cache in Redis, "
        f"DEBUG off; load average {result['load']} at the end. The parts are shares of the request "
        "in a cProfile run of the same requests, each timed where the code enters it (a query made "
        "by the authentication counts in both); \"middleware\" is the handler's time outside the view.",
    ]
    return lines


if __name__ == "__main__":
    figures = run(quick="--quick" in sys.argv)
    print("\n".join(report(figures)), file=sys.stderr)
    print(json.dumps(figures))
