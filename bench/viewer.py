"""The replay viewer in headless Chromium: time from navigation to the board drawn for the
10,000-event match of bench/steps.py beside a match of about 100 events, the bytes of that first
view, and the time to step to the last step; next to the data the old viewer put in its page
(every frame of the match) for the same match.

The viewer fetches frames a page (web.pages.PAGE_FRAMES steps) at a time around the step shown,
so opening and stepping should not depend on the length of the match.

Run alone: ``.venv/bin/python bench/viewer.py [--quick]``: the report on stderr, the figures as
JSON on the last line of stdout (bench/run.py runs it in a subprocess, as bench/steps.py, since it
configures Django for itself). The bench database of bench/append.py is used
(BENCH_DATABASE_URL), DEBUG off as in production, served over plain HTTP by Django's threaded
live server (static files from the apps, no collectstatic); Chromium is Debian's
/usr/bin/chromium (ARENA_CHROMIUM) driven by Playwright, as tests/web/test_viewer_browser.py.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("ARENA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHORT_EVENTS = 100
LOADS = {"full": 9, "quick": 3}
SERVER_REQUESTS = {"full": 40, "quick": 10}


def _short_match():
    """A finished Trap the Wizard match of the long one's six random bots, its round cut short
    (D13's turn limit), as near SHORT_EVENTS events as ten plays give: the same board and views,
    a hundredth of the log."""
    from bots.services import match_play_builtin

    best = None
    for _ in range(10):
        match = match_play_builtin(ruleset="trap-the-wizard", bots=["random"] * 6,
                                   options={"rounds": 1, "turn_limit": SHORT_EVENTS // 2})
        count = match.events.count()
        if best is None or abs(count - SHORT_EVENTS) < abs(best[1] - SHORT_EVENTS):
            best = match, count
    return best


def old_frames_bytes(match) -> tuple[int, float]:
    """The size of the public frames the old viewer embedded in its page (every frame: the
    first view whole, then the top-level keys that changed, as JSON in the page) and the seconds
    its server took to fold them from event 0."""
    from django.core.serializers.json import DjangoJSONEncoder

    from web.pages import event_summary
    from games.engine.log import Folder
    from replays.selectors import match_records

    started = time.perf_counter()
    records = match_records(match=match)
    folder, frames, before = Folder(records[0]), [], None
    for record in records:
        if record["seq"] > 0:
            folder.advance(record)
        view = folder.ruleset.view(folder.state, None)
        frame = {"seq": record["seq"], "kind": record["kind"], "seat": record["seat"],
                 "text": event_summary(record, redact=False)}
        if before is None:
            frame["view"] = view
        else:
            frame["changed"] = {k: v for k, v in view.items() if k not in before or before[k] != v}
            removed = [k for k in before if k not in view]
            if removed:
                frame["removed"] = removed
        frames.append(frame)
        before = view
    size = len(json.dumps({"frames": frames}, cls=DjangoJSONEncoder).encode())
    return size, time.perf_counter() - started


def _server_times(match, events: int, requests: int) -> dict:
    """In process (test client): the viewer's page, and frames.json pages at random steps."""
    from django.test import Client

    from web.pages import PAGE_FRAMES

    client, rng = Client(), random.Random(7)
    client.get(f"/matches/{match.pk}/")  # warm up
    pages, frames = [], []
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get(f"/matches/{match.pk}/")
        pages.append(time.perf_counter() - started)
        assert response.status_code == 200, response.status_code
        first = rng.randrange(events) // PAGE_FRAMES * PAGE_FRAMES
        started = time.perf_counter()
        response = client.get(f"/matches/{match.pk}/frames.json", {"seat": "public", "from": first})
        frames.append(time.perf_counter() - started)
        assert response.status_code == 200, response.status_code
    return {"page_p50": statistics.median(pages), "frames_p50": statistics.median(frames)}


def _live_server():
    """Django's threaded live server on a free port, static files from the apps' directories."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread

    server = LiveServerThread("127.0.0.1", StaticFilesHandler)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    return server


def _bytes(requests) -> int:
    """What the responses to ``requests`` took on the wire (headers and body; none if failed)."""
    total = 0
    for request in requests:
        if request.failure:
            continue
        sizes = request.sizes()
        total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    return total


def _load(chromium, url: str, events: int) -> dict:
    """One first visit (a fresh context: nothing cached) of the viewer at ``url``: the time to
    the board drawn as the page reports it (data-ready-ms, from navigation), the bytes fetched,
    then End (the last step, its page fetched) and one step back (a page already here)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    asked, finished = [], []
    tab.on("request", lambda request: asked.append(request))
    tab.on("requestfinished", lambda request: finished.append(request))
    tab.on("requestfailed", lambda request: finished.append(request))
    started = time.perf_counter()
    tab.goto(url)
    tab.wait_for_selector("#viewer[data-ready='1']")
    wall = time.perf_counter() - started
    ready_ms = float(tab.get_attribute("#viewer", "data-ready-ms"))
    tab.wait_for_load_state("networkidle")  # the prefetch of the next page
    assert len(finished) == len(asked), "a request still on its way"
    page = next(r for r in finished if r.resource_type == "document")
    document, document_ms = _bytes([page]), page.timing["responseEnd"]
    frames = _bytes(r for r in finished if "frames.json" in r.url)
    total = _bytes(finished)
    seen = len(finished)
    tab.locator("body").press("End")
    tab.wait_for_selector(f"#viewer[data-step='{events - 1}']:not([data-loading])")
    last_ms = float(tab.get_attribute("#viewer", "data-step-ms"))
    while len(finished) < len(asked):  # the page before the last, fetched after it
        tab.wait_for_timeout(10)
    last_bytes, last_requests = _bytes(finished[seen:]), len(finished) - seen
    tab.locator("body").press("ArrowLeft")
    tab.wait_for_selector(f"#viewer[data-step='{events - 2}']:not([data-loading])")
    back_ms = float(tab.get_attribute("#viewer", "data-step-ms"))
    context.close()
    return {"ready_ms": ready_ms, "wall_ms": wall * 1000, "document_ms": document_ms,
            "document": document, "frames": frames,
            "total": total, "last_ms": last_ms, "last_bytes": last_bytes,
            "last_requests": last_requests, "back_ms": back_ms}


def _summary(loads: list[dict]) -> dict:
    def best_median(key):
        values = [load[key] for load in loads]
        return {"best": min(values), "median": statistics.median(values)}

    first = loads[0]
    return {"loads": len(loads), "ready_ms": best_median("ready_ms"), "wall_ms": best_median("wall_ms"),
            "document_ms": best_median("document_ms"),
            "last_ms": best_median("last_ms"), "back_ms": best_median("back_ms"),
            "document": first["document"], "frames": first["frames"], "total": first["total"],
            "last_bytes": first["last_bytes"], "last_requests": first["last_requests"]}


def run(quick: bool = False) -> dict:
    from bench.append import DEFAULT_URL, database_create, database_reset, django_setup

    if not os.access(CHROMIUM, os.X_OK):  # before minutes of matches are played for it
        raise SystemExit(f"bench/viewer.py: no Chromium at {CHROMIUM} (ARENA_CHROMIUM); "
                         f"python3 dev.py bench installs Debian's chromium where it may")
    size = "quick" if quick else "full"
    url = os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL
    database_create(url)
    os.environ["SECURE_SSL_REDIRECT"] = "0"  # plain HTTP on the loopback, all else as production
    django_setup(url)
    from django.conf import settings

    # Before anything reads them: no collectstatic manifest here, the static files come from
    # the apps (the live server's handler); the page names them unhashed.
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    settings.ALLOWED_HOSTS = ["*"]
    database_reset()
    from web.pages import PAGE_FRAMES
    from bench.steps import _long_match

    long_match, long_events = _long_match()
    short_match, short_events = _short_match()
    old_bytes, old_seconds = old_frames_bytes(long_match)
    matches = (("short", short_match, short_events), ("long", long_match, long_events))
    results = {name: {"events": events, **_server_times(match, events, SERVER_REQUESTS[size])}
               for name, match, events in matches}
    from playwright.sync_api import sync_playwright

    server = _live_server()
    try:
        with sync_playwright() as driver:
            chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            base = f"http://127.0.0.1:{server.port}/matches"
            _load(chromium, f"{base}/{short_match.pk}/", short_events)  # warm up
            for name, match, events in matches:
                loads = [_load(chromium, f"{base}/{match.pk}/", events) for _ in range(LOADS[size])]
                results[name].update(_summary(loads))
            chromium.close()
    finally:
        server.terminate()
    return {**results, "page_frames": PAGE_FRAMES, "old_bytes": old_bytes, "old_seconds": old_seconds}


def report(result: dict) -> list[str]:
    short, long = result["short"], result["long"]

    def kb(n):
        return f"{n / 1024:,.1f}"

    rows = [("board drawn, from navigation (page's data-ready-ms): best", "ready_ms", "best"),
            ("board drawn: median", "ready_ms", "median"),
            ("of which the page's response (its last byte, from the request): median", "document_ms", "median"),
            ("the same seen from Playwright (goto to the ready attribute): median", "wall_ms", "median"),
            ("End: the last step drawn, its page fetched (data-step-ms): median", "last_ms", "median"),
            ("one step back from the last (a page already here): median", "back_ms", "median")]
    lines = [f"The replay viewer in headless Chromium (Debian's), a fresh browser context per load "
             f"(nothing cached), {long['loads']} loads each after one warm-up, served by Django's "
             f"threaded live server on PostgreSQL with DEBUG off. Two finished Trap the Wizard "
             f"matches of six random bots: {short['events']:,} events (one round cut short by the "
             f"turn limit) and {long['events']:,} events (bench/steps.py's). "
             f"The page embeds the first {result['page_frames']} steps; further steps come from "
             f"frames.json a page of {result['page_frames']} at a time.", "",
             f"| measurement | {short['events']:,} events | {long['events']:,} events |",
             "| --- | ---: | ---: |"]
    for label, key, which in rows:
        lines.append(f"| {label}, ms | {short[key][which]:.0f} | {long[key][which]:.0f} |")
    lines += [f"| first view: the page (HTML with the first page of frames), kB | {kb(short['document'])} | "
              f"{kb(long['document'])} |",
              f"| first view: the next page, prefetched (frames.json), kB | {kb(short['frames'])} | "
              f"{kb(long['frames'])} |",
              f"| first view: everything (with the scripts and style), kB | {kb(short['total'])} | "
              f"{kb(long['total'])} |",
              f"| End: fetched, kB (requests) | {kb(short['last_bytes'])} ({short['last_requests']}) | "
              f"{kb(long['last_bytes'])} ({long['last_requests']}) |",
              f"| in process (test client): the page, p50, ms | {short['page_p50'] * 1000:.1f} | "
              f"{long['page_p50'] * 1000:.1f} |",
              f"| in process: a frames.json page at a random step, p50, ms | "
              f"{short['frames_p50'] * 1000:.1f} | {long['frames_p50'] * 1000:.1f} |", "",
              f"Before paging, the page embedded every "
              f"frame of the match: {result['old_bytes'] / 1024 ** 2:,.1f} MB of public frames for "
              f"this match, folded from event 0 in {result['old_seconds']:.1f} s on each load of "
              f"the page, {result['old_bytes'] / long['document']:,.0f}x the page now."]
    return lines


if __name__ == "__main__":
    figures = run(quick="--quick" in sys.argv[1:])
    print("\n".join(report(figures)), file=sys.stderr)
    print(json.dumps(figures))
