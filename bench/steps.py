"""Step-through latency: GET /api/matches/{id}/steps/{n}/ at random n of a 10,000-event match,
through the whole Django stack (in process), next to reading the same match's events from the
database, in one run on the bench's PostgreSQL database.

A step costs one snapshot read and decode plus fewer than REPLAY_SNAPSHOT_EVERY applies, so its
latency should not depend on n or on the length of the match.
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET_EVENTS = 10_000
REQUESTS = 300


def _long_match():
    """A finished Trap the Wizard match of at least TARGET_EVENTS events (built-in bots)."""
    from bots.services import match_play_builtin

    rounds = 5
    while True:
        match = match_play_builtin(ruleset="trap-the-wizard", bots=["random"] * 6,
                                   options={"rounds": rounds, "turn_limit": 300})
        count = match.events.count()
        if count >= TARGET_EVENTS:
            return match, count
        rounds = min(20, int(rounds * TARGET_EVENTS / count) + 1)


def run() -> dict:
    from bench.append import DEFAULT_URL, database_create, database_reset, django_setup

    url = os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL
    database_create(url)
    django_setup(url)
    database_reset()
    from django.conf import settings
    from django.test import Client

    from replays.selectors import match_records

    settings.ALLOWED_HOSTS = ["*"]
    match, count = _long_match()
    client, rng = Client(), random.Random(7)
    client.get(f"/api/matches/{match.pk}/steps/0/", secure=True)  # warm up
    latencies = []
    for _ in range(REQUESTS):
        n = rng.randrange(count)
        started = time.perf_counter()
        response = client.get(f"/api/matches/{match.pk}/steps/{n}/", secure=True)  # DEBUG off: HTTPS only
        latencies.append(time.perf_counter() - started)
        assert response.status_code == 200, (response.status_code, response.content[:300])
    reads = []
    for _ in range(5):
        started = time.perf_counter()
        match_records(match=match)
        reads.append(time.perf_counter() - started)
    latencies.sort()
    return {"events": count, "requests": REQUESTS, "every": settings.REPLAY_SNAPSHOT_EVERY,
            "p50": statistics.median(latencies), "p99": latencies[int(0.99 * len(latencies)) - 1],
            "read_all": min(reads)}


def report(result: dict) -> list[str]:
    return [f"A finished Trap the Wizard match of {result['events']:,} events (snapshots every "
            f"{result['every']}); {result['requests']} requests at random n through the Django "
            f"stack in process (test client, PostgreSQL).", "",
            "| measurement | ms |", "| --- | ---: |",
            f"| GET steps/{{n}}: p50 | {result['p50'] * 1000:.1f} |",
            f"| GET steps/{{n}}: p99 | {result['p99'] * 1000:.1f} |",
            f"| read all {result['events']:,} events of the match from the database (best of 5) | "
            f"{result['read_all'] * 1000:.1f} |", "",
            f"A step costs {result['p50'] / result['read_all']:.3f}x reading the whole log (p50)."]


if __name__ == "__main__":
    import json
    print(json.dumps(run()))
