"""Fold throughput of the five games: how fast a stored log becomes a
state again.

Per game, a corpus of offline matches (``games.engine.runner.playout``, random bots, fixed
seeds) is exported as JSON Lines, one record per line, as ``replays`` exports a replay. Three
figures over the very same lines, each the best of several repeats:

- floor: ``json.loads`` of every line and nothing else (the cost of merely reading the log);
- fold: ``json.loads`` + ``Folder.advance_all`` of the records, a fresh Folder per match from its
  match_created record, folding in place (what ``replays.selectors.match_folder`` does after a
  snapshot for a step read or a match's state);
- validate: ``json.loads`` + ``games.engine.log.validate`` of each match streamed a record at a
  time, its end parsed first (hash chain, legality of every event, chance outcomes re-derived
  from the revealed seed, the recorded result).

The ratio fold/floor says how much the rules cost on top of reading the log; validate/fold what
checking costs on top of folding. A Sorcado match is short (about 120 events against Trap the
Wizard's 2,500, Wizard Kings' 800, Imperial Twing's 700, Warlock's 300), so each game plays
``CORPUS_SCALE`` times as many matches for a corpus of like size. Issue 16's targets are Trap the
Wizard's and Sorcado's; issue 42's are Imperial Twing's, Warlock's and Wizard Kings'.
The corpus keeps its lines only: records parsed once and kept alive would be walked by every full
garbage collection during the measurements, which no fold or validation of one log does. No
Django here: like the engines and the validator, this runs on a bare Python.
"""
from __future__ import annotations

import hashlib
import json
import os
import statistics
import time
import uuid
from dataclasses import dataclass
from typing import Callable

from games.engine import registry
from games.engine.log import Folder, validate
from games.engine.runner import playout

GAME = "trap-the-wizard"
GAMES = ("trap-the-wizard", "sorcado", "wizard-kings", "imperial-twing",
         "warlock")  # measured by ``run``; the first is the headline
CORPUS_SCALE = {"trap-the-wizard": 1, "sorcado": 20, "wizard-kings": 3, "imperial-twing": 3,
                "warlock": 8}  # matches per match asked for


@dataclass
class Corpus:
    """Offline matches of one game as JSON lines (the sealed records, one line each)."""

    game: str
    lines: list[list[str]]

    @property
    def events(self) -> int:
        return sum(len(match) for match in self.lines)


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
    lines = [[json.dumps(record) for record in play_match(i, game=game, options=options)]
             for i in range(matches)]
    return Corpus(game=game, lines=lines)


def read_only(lines: list[list[str]]) -> None:
    """The floor: parse every line, do nothing with it."""
    loads = json.loads
    for match in lines:
        for line in match:
            loads(line)


def fold(lines: list[list[str]]) -> None:
    """Parse and fold every match: a Folder from match_created, then ``advance_all`` of its
    records (in place: the fold keeps only the state it stands at, as match_folder's readers
    do)."""
    loads = json.loads
    for match in lines:
        Folder(loads(match[0]), in_place=True).advance_all(map(loads, match[1:]))


def validate_all(lines: list[list[str]]) -> None:
    """Parse and fully validate every match, a line at a time as ``fold`` reads it: the end's
    line is parsed first (validate's ``last``: the seed it reveals checks each chance outcome on
    the way), as replays.services.match_validate reads the head before it streams the event
    table. A failed validation is a bug, not a timing."""
    loads = json.loads
    for match in lines:
        report = validate(map(loads, match), last=loads(match[-1]))
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


def measure_interleaved(works: list[tuple[str, Callable[[], None], int]],
                        events: int) -> list[Timing]:
    """Run each (name, work, repeats) its number of times, round by round (floor, fold,
    validate, floor, ...), so that a busy spell of the machine slows all of them alike rather
    than one; keeps every wall-clock time."""
    seconds: list[list[float]] = [[] for _ in works]
    for round_ in range(max(repeats for _, _, repeats in works)):
        for (_, work, repeats), times in zip(works, seconds):
            if round_ < repeats:
                start = time.perf_counter()
                work()
                times.append(time.perf_counter() - start)
    return [Timing(name, events, times) for (name, _, _), times in zip(works, seconds)]


def run(*, matches: int = 200, repeats: int = 5, game: str | None = None,
        options: dict | None = None, with_validate: bool = True) -> dict:
    """Measure every game of GAMES (or only ``game``, which ``options`` then apply to); returns
    the figures of the first game measured, with every game's figures, that one's included,
    under "games" (name -> figures)."""
    if options and game is None:
        raise ValueError("options are a game's: name the game they apply to")
    names = GAMES if game is None else (game,)
    per_game = {name: run_game(name, matches=matches * CORPUS_SCALE.get(name, 1), repeats=repeats,
                               options=options, with_validate=with_validate) for name in names}
    return {**per_game[names[0]], "games": per_game}


def run_game(game: str, *, matches: int, repeats: int, options: dict | None = None,
             with_validate: bool = True) -> dict:
    """Build one game's corpus and measure floor, fold and (optionally) validate on it."""
    started = time.perf_counter()
    corpus = build_corpus(matches, game=game, options=options)
    build_seconds = time.perf_counter() - started
    lines, events = corpus.lines, corpus.events
    fold(lines)  # warm up: imports, caches (the board's lru_cache), before any timing
    works = [("floor: json.loads", lambda: read_only(lines), repeats),
             ("fold: json.loads + Folder.advance_all", lambda: fold(lines), repeats)]
    if with_validate:
        # as many repeats as the others: a best of fewer would favour them
        works.append(("validate: json.loads + log.validate", lambda: validate_all(lines), repeats))
    timings = measure_interleaved(works, events)
    floor, folded = timings[0], timings[1]
    return {
        "game": game, "options": options, "matches": matches, "events": events, "repeats": repeats,
        "events_per_match": events / matches, "build_seconds": build_seconds,
        "bytes_per_event": sum(len(line) for match in lines for line in match) / events,
        "timings": timings,
        "fold_over_floor": folded.best / floor.best,  # how many times slower than reading
        "fold_share_of_floor_rate": folded.rate / floor.rate,
        "validate_over_fold": timings[2].best / folded.best if with_validate else None,
        "load": load_average(),
    }


def load_average() -> str:
    """The 1-minute load average when a game's measurement ended (other work skews it)."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def report(figures: dict) -> list[str]:
    """The fold benchmark as Markdown lines: a summary of the ratios, then a table per game."""
    per_game = figures.get("games") or {figures["game"]: figures}
    lines = ["| game | floor events/s | fold events/s | validate events/s | fold/floor | "
             "validate/fold |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, game in per_game.items():
        floor, folded = game["timings"][0], game["timings"][1]
        validated = game["timings"][2] if len(game["timings"]) > 2 else None
        lines.append(f"| {name} | {floor.rate:,.0f} | {folded.rate:,.0f} | "
                     f"{f'{validated.rate:,.0f}' if validated else '-'} | "
                     f"**{game['fold_share_of_floor_rate']:.3f}** | "
                     f"{f'**{validated.best / folded.best:.2f}**' if validated else '-'} |")
    lines += ["", "fold/floor: the fold's throughput over parsing alone (1 would be free rules); "
                  "validate/fold: the time of a validation over that of the fold it contains."]
    for game in per_game.values():
        lines += ["", f"### {game['game']}", "", *game_report(game)]
    return lines


def game_report(figures: dict) -> list[str]:
    """One game's corpus and timings as Markdown lines."""
    floor = figures["timings"][0]
    validated = figures["timings"][2] if len(figures["timings"]) > 2 else None
    lines = [
        f"Corpus: {figures['matches']} offline matches of `{figures['game']}` (options "
        f"`{json.dumps(figures['options'] or {})}`, random bots, "
        f"fixed seeds, seat counts cycling through the player range), {figures['events']:,} events "
        f"({figures['events_per_match']:.0f} per match, {figures['bytes_per_event']:.0f} bytes of "
        f"JSON per event). Best of {figures['repeats']} repeats"
        + (f" (validate: {len(validated.seconds)})"
           if validated and len(validated.seconds) != figures["repeats"] else "")
        + f"; 1-minute load average {figures.get('load', 'unknown')} at the end.",
        "",
        "| measurement | events/s (best) | best s | median s | vs floor |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for timing in figures["timings"]:
        lines.append(f"| {timing.name} | {timing.rate:,.0f} | {timing.best:.3f} | "
                     f"{timing.median:.3f} | {timing.rate / floor.rate:.3f}x |")
    lines += ["", f"Ratio fold/floor (throughput): **{figures['fold_share_of_floor_rate']:.3f}** "
                  f"(the fold takes {figures['fold_over_floor']:.1f}x the time of parsing alone)"
                  + (f"; validation takes {figures['validate_over_fold']:.2f}x the time of the "
                     f"fold." if validated else ".")]
    return lines
