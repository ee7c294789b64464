"""Fold throughput of Trap the Wizard: how fast a stored log becomes a state again.

A corpus of offline matches (``games.engine.runner.playout``, random bots, fixed seeds) is
exported as JSON Lines, one record per line, as ``replays`` exports a replay. Three figures over
the very same lines, each the best of several repeats:

- floor: ``json.loads`` of every line and nothing else (the cost of merely reading the log);
- fold: ``json.loads`` + ``Folder.advance`` of every record, a fresh Folder per match from its
  match_created record (what ``replays.selectors.match_folder`` does after a snapshot);
- validate: ``json.loads`` + ``games.engine.log.validate`` of each match (hash chain, legality of
  every event, chance outcomes re-derived from the revealed seed, the recorded result).

The ratio fold/floor says how much the rules cost on top of reading the log. No Django here:
like the engines and the validator, this runs on a bare Python.
"""
from __future__ import annotations

import hashlib
import json
import statistics
import time
import uuid
from dataclasses import dataclass
from typing import Callable

from games.engine import registry
from games.engine.log import Folder, validate
from games.engine.runner import playout

GAME = "trap-the-wizard"


@dataclass
class Corpus:
    """Offline matches of one game: their sealed records and the same records as JSON lines."""

    game: str
    logs: list[list[dict]]
    lines: list[list[str]]

    @property
    def events(self) -> int:
        return sum(len(log) for log in self.logs)


def match_seed(index: int) -> bytes:
    """The fixed secret seed of corpus match ``index`` (a corpus is the same on every run)."""
    return hashlib.sha256(f"spellbound-bench-{index}".encode()).digest()


def match_uuid(index: int, *, round_: int = 0) -> str:
    """A fixed UUID for corpus match ``index`` (the event table keys matches by UUID)."""
    return str(uuid.UUID(int=(round_ << 32) | index))


def players_for(ruleset, index: int) -> int:
    """Seat counts cycle through the game's whole player range, so the corpus mixes them."""
    low, high = ruleset.spec.min_players, ruleset.spec.max_players
    return low + index % (high - low + 1)


def play_match(index: int, *, game: str = GAME, options: dict | None = None) -> list[dict]:
    """The sealed log of corpus match ``index``: random bots, fixed seeds, the same every run."""
    ruleset = registry.get(game)
    return playout(ruleset, players_for(ruleset, index), seed=match_seed(index), bot_seed=index,
                   options=options, match_id=match_uuid(index))


def build_corpus(matches: int, *, game: str = GAME, options: dict | None = None) -> Corpus:
    """Play ``matches`` offline matches of ``game`` with random bots and fixed seeds."""
    logs = [play_match(i, game=game, options=options) for i in range(matches)]
    lines = [[json.dumps(record) for record in log] for log in logs]
    return Corpus(game=game, logs=logs, lines=lines)


def read_only(lines: list[list[str]]) -> None:
    """The floor: parse every line, do nothing with it."""
    loads = json.loads
    for match in lines:
        for line in match:
            loads(line)


def fold(lines: list[list[str]]) -> None:
    """Parse and fold every match: a Folder from match_created, then advance per record."""
    loads = json.loads
    for match in lines:
        folder = Folder(loads(match[0]))
        advance = folder.advance
        for line in match[1:]:
            advance(loads(line))


def validate_all(lines: list[list[str]]) -> None:
    """Parse and fully validate every match; a failed validation is a bug, not a timing."""
    loads = json.loads
    for match in lines:
        report = validate([loads(line) for line in match])
        if not report.ok:
            raise AssertionError(f"corpus match failed validation: {report.to_json()}")


@dataclass
class Timing:
    """Repeated wall-clock timings of one measurement over ``events`` events."""

    name: str
    events: int
    seconds: list[float]

    @property
    def best(self) -> float:
        return min(self.seconds)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def rate(self) -> float:
        """Events per second at the best repeat."""
        return self.events / self.best


def measure(name: str, work: Callable[[], None], events: int, repeats: int) -> Timing:
    """Run ``work`` ``repeats`` times and keep every wall-clock time."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        seconds.append(time.perf_counter() - start)
    return Timing(name, events, seconds)


def run(*, matches: int = 200, repeats: int = 5, game: str = GAME, options: dict | None = None,
        with_validate: bool = True) -> dict:
    """Build the corpus and measure floor, fold and (optionally) validate on it; returns figures."""
    started = time.perf_counter()
    corpus = build_corpus(matches, game=game, options=options)
    build_seconds = time.perf_counter() - started
    lines, events = corpus.lines, corpus.events
    fold(lines)  # warm up: imports, caches (the board's lru_cache), before any timing
    timings = [measure("floor: json.loads", lambda: read_only(lines), events, repeats),
               measure("fold: json.loads + Folder.advance", lambda: fold(lines), events, repeats)]
    if with_validate:
        timings.append(measure("validate: json.loads + log.validate", lambda: validate_all(lines),
                               events, max(1, repeats - 2)))
    floor, folded = timings[0], timings[1]
    return {
        "game": game, "options": options, "matches": matches, "events": events, "repeats": repeats,
        "events_per_match": events / matches, "build_seconds": build_seconds,
        "bytes_per_event": sum(len(line) for match in lines for line in match) / events,
        "timings": timings,
        "fold_over_floor": folded.best / floor.best,  # how many times slower than reading
        "fold_share_of_floor_rate": folded.rate / floor.rate,
    }


def report(figures: dict) -> list[str]:
    """The fold benchmark as Markdown lines."""
    floor = figures["timings"][0]
    lines = [
        f"Corpus: {figures['matches']} offline matches of `{figures['game']}` (options "
        f"`{json.dumps(figures['options'] or {})}`, random bots, "
        f"fixed seeds, seat counts cycling through the player range), {figures['events']:,} events "
        f"({figures['events_per_match']:.0f} per match, {figures['bytes_per_event']:.0f} bytes of "
        f"JSON per event). Best of {figures['repeats']} repeats (validate: "
        f"{len(figures['timings'][-1].seconds)}).",
        "",
        "| measurement | events/s (best) | best s | median s | vs floor |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for timing in figures["timings"]:
        lines.append(f"| {timing.name} | {timing.rate:,.0f} | {timing.best:.3f} | "
                     f"{timing.median:.3f} | {timing.rate / floor.rate:.3f}x |")
    lines += ["", f"Ratio fold/floor (throughput): **{figures['fold_share_of_floor_rate']:.3f}** "
                  f"(the fold takes {figures['fold_over_floor']:.1f}x the time of parsing alone)."]
    return lines
