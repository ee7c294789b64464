"""A database of realistic size for the load bench (issue 42, item 4), built by the bench.

Real matches, played in process by the engines with their built-in bots, stored as the service
stores them: every record sealed by ``games.engine.log.sealed`` (the code ``event_append`` seals
with), the payload written as the canonical text ``event_append`` hands PostgreSQL, the end signed
with the service's current key (``replays.signing``: the same ``signature.sign``), a snapshot
every REPLAY_SNAPSHOT_EVERY events (the encoded state after the event, as ``event_append`` writes
it) and a validation verdict from ``games.engine.log.validate`` of the very log. Only the writing
differs: rows are bulk-loaded with COPY (psycopg 3) instead of one INSERT per event, so the
stored rows are the ones the service writes, chain and signature intact.

What it builds (``build``): 200 remote bots of 50 owners (40 per game), ``MATCHES`` finished,
rated matches of all five games between them (over a million events), their ratings (the
leaderboards, ``tournaments.services.ratings_recompute``), and 20 tournaments played through the
service (the ``tournament`` command: real pairings, matches and standings). A database that
already holds the dataset (its marker row) is kept: building takes minutes.

Run alone: ``.venv/bin/python bench/dataset.py [--quick] [--url URL]``.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import multiprocessing
import os
import random
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.engine import chance, registry  # noqa: E402
from games.engine.log import (END_KINDS, GENESIS, Folder, canonical_json, created_payload,  # noqa: E402
                              sealed, validate)
from games.engine.runner import MatchRunner  # noqa: E402

# Matches per game: the long games (Trap the Wizard about 1,700 events, Wizard Kings 1,300) carry
# the events, the short ones (Sorcado 80, Warlock 150) the match count.
MATCHES = {"full": {"trap-the-wizard": 300, "wizard-kings": 300, "imperial-twing": 250,
                    "warlock": 250, "sorcado": 250},
           "quick": {"trap-the-wizard": 2, "wizard-kings": 1, "imperial-twing": 2, "warlock": 3,
                     "sorcado": 4}}
BOTS_PER_GAME = {"full": 40, "quick": 4}
OWNERS = {"full": 50, "quick": 4}
TOURNAMENTS = {"full": 20, "quick": 1}
# (game, format, entrants, format settings, rules options): small, so the driver plays them fast
TOURNAMENT_KINDS = [("sorcado", "swiss", 8, {"rounds": 3}, {}),
                    ("warlock", "round-robin", 4, {}, {}),
                    ("trap-the-wizard", "single-elimination", 4, {}, {"rounds": 1}),
                    ("imperial-twing", "round-robin", 4, {}, {})]
MARKER = "bench_dataset"  # a one-row table naming what was built
EVENT_COLUMNS = ("match_id", "seq", "kind", "seat", "payload", "time", "prev_hash", "hash")
MATCH_COLUMNS = ("id", "ruleset", "ruleset_version", "options", "players", "seats", "seed",
                 "seed_commitment", "status", "result", "time_control", "fault_policy",
                 "driver_token", "driver_lease_until", "queued_at", "rated", "created_at",
                 "ended_at", "imported", "unsigned")
EPOCH = dt.datetime(2026, 9, 1, tzinfo=dt.timezone.utc)


def _iso(moment: dt.datetime) -> str:
    return moment.isoformat(timespec="microseconds")  # as replays.services._iso writes a time


def match_play(*, game: str, seats: list[dict], seed: bytes, match_id: str, started: dt.datetime,
               bot_seed: int, sign=None) -> list[dict]:
    """One match played by the game's built-in bots (random on every seat, one seat in two the
    game's heuristic or greedy bot where it is cheap) under ``seats`` (the service's seat
    objects), sealed as the service seals it, an event every 0.2-2 s from ``started``. ``sign``:
    (record without signature) -> the end's signature, as replays.signing signs."""
    ruleset = registry.get(game)
    builtin = ruleset.builtin_bots()
    rng = random.Random(bot_seed)
    bots = {}
    for seat in range(len(seats)):
        name = "random"
        if game in ("sorcado", "warlock", "imperial-twing") and seat % 2 == 1:
            name = "heuristic"
        bots[seat] = builtin[name](ruleset, bot_seed * 10 + seat)
    clock = [started]

    def now() -> str:
        clock[0] += dt.timedelta(milliseconds=rng.randrange(200, 2000))
        return _iso(clock[0])

    options = ruleset.options(None)
    created = sealed(match=match_id, seq=0, kind="match_created", seat=None, time=_iso(started),
                     prev_hash=GENESIS,
                     payload=created_payload(ruleset=ruleset, options=options, players=len(seats),
                                             seats=seats, seed_commitment=chance.commitment(seed)))[0]
    records = [created]

    def append(kind, seat, payload, state):
        head = records[-1]
        when = now()
        if kind in END_KINDS and sign is not None:
            unsigned = {"match": match_id, "seq": head["seq"] + 1, "kind": kind, "seat": seat,
                        "payload": payload, "time": when, "prev_hash": head["hash"]}
            payload = {**payload, "signature": sign(unsigned)}
        records.append(sealed(match=match_id, seq=head["seq"] + 1, kind=kind, seat=seat,
                              payload=payload, time=when, prev_hash=head["hash"])[0])
        return records[-1]

    MatchRunner(Folder(created), seed=seed, bots=bots, append=append).run()
    return records


def snapshots_of(records: list[dict], every: int) -> list[tuple[int, str]]:
    """(seq, encoded state as JSON text) after every ``every``-th event but an end, as
    event_append writes them."""
    folder = Folder(records[0])
    encode = folder.ruleset.encode
    out = []
    for record in records[1:]:
        folder.advance(record)
        if record["seq"] % every == 0 and record["kind"] not in END_KINDS:
            out.append((record["seq"], canonical_json(encode(folder.state))))
    return out


def event_rows(records: list[dict]):
    """The event table's rows of a log (EVENT_COLUMNS), the payload as its canonical text."""
    for r in records:
        yield (r["match"], r["seq"], r["kind"], r["seat"], canonical_json(r["payload"]),
               r["time"], r["prev_hash"], r["hash"])


# -- playing in worker processes (the engines need no Django) --------------------------------------

_SIGNER = None


def _worker_init(pem: bytes, key_id: str) -> None:
    global _SIGNER
    from cryptography.hazmat.primitives import serialization

    from games.engine import signature

    private_key = serialization.load_pem_private_key(pem, password=None)
    _SIGNER = lambda record: signature.sign(record, private_key=private_key, key=key_id)  # noqa: E731


def _play_job(job: dict) -> dict:
    """Play one match and check it: its log, snapshots and validation report."""
    records = match_play(game=job["game"], seats=job["seats"], seed=job["seed"],
                         match_id=job["match"], started=job["started"], bot_seed=job["bot_seed"],
                         sign=_SIGNER)
    report = validate(records)
    if not report.ok:
        raise RuntimeError(f"match {job['match']}: {report.reason}")
    return {**job, "records": records, "snapshots": snapshots_of(records, job["every"]),
            "report": report.to_json()}


def jobs_plan(versions: dict[str, list], counts: dict[str, int], *, every: int, seed: int = 42) -> list[dict]:
    """One job per match: a game, two to four seats of distinct bots of that game, a secret
    seed, a start in the 90 days after EPOCH."""
    rng = random.Random(seed)
    jobs = []
    for game, count in counts.items():
        spec = registry.get(game).spec
        for _ in range(count):
            players = rng.choice([n for n in (2, 2, 2, 3, 4) if spec.min_players <= n <= spec.max_players])
            chosen = rng.sample(versions[game], players)
            jobs.append({"game": game, "match": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                         "seed": rng.randbytes(32), "bot_seed": rng.getrandbits(31), "every": every,
                         "seats": [{"bot_version": v["id"], "bot": v["name"], "version": 1,
                                    "kind": "remote"} for v in chosen],
                         "started": EPOCH + dt.timedelta(seconds=rng.randrange(90 * 86400))})
    rng.shuffle(jobs)
    return jobs


def play_all(jobs: list[dict], pem: bytes, key_id: str, processes: int | None = None):
    """Every job's match, played on ``processes`` worker processes (default: every core)."""
    with multiprocessing.get_context("fork").Pool(processes or os.cpu_count(), _worker_init,
                                                  (pem, key_id)) as pool:
        yield from pool.imap_unordered(_play_job, jobs, chunksize=4)


# -- the database ----------------------------------------------------------------------------------

def copy_rows(cursor, table: str, columns: tuple, rows) -> int:
    """COPY ``rows`` into ``table`` (psycopg 3's COPY FROM STDIN); returns how many."""
    count = 0
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def match_row(played: dict) -> tuple:
    """The Match row of a played job (MATCH_COLUMNS), as match_start and the end write it."""
    records = played["records"]
    created, end = records[0], records[-1]
    payload = created["payload"]
    return (created["match"], payload["ruleset"], payload["version"], canonical_json(payload["options"]),
            payload["players"], canonical_json(payload["seats"]), played["seed"],
            payload["seed_commitment"], "ended", canonical_json(end["payload"]["result"]), "{}", "{}",
            "", None, None, True, created["time"], end["time"], False, False)


def matches_store(played_matches, *, cursor) -> dict:
    """COPY the matches, their events, snapshots and validations; returns counts."""
    matches = events = snapshots = 0
    batch = []

    def flush():
        nonlocal matches, events, snapshots
        if not batch:
            return
        matches += copy_rows(cursor, "replays_match", MATCH_COLUMNS, (match_row(p) for p in batch))
        events += copy_rows(cursor, "replays_event", EVENT_COLUMNS,
                            (row for p in batch for row in event_rows(p["records"])))
        snapshots += copy_rows(cursor, "replays_snapshot", ("match_id", "seq", "state"),
                               ((p["match"], seq, state) for p in batch for seq, state in p["snapshots"]))
        copy_rows(cursor, "replays_validation",
                  ("match_id", "ok", "events", "first_bad_seq", "reason", "report", "created_at"),
                  ((p["match"], True, p["report"]["events"], None, "", json.dumps(p["report"]),
                    p["records"][-1]["time"]) for p in batch))
        batch.clear()

    for played in played_matches:
        batch.append(played)
        if len(batch) >= 50:
            flush()
    flush()
    return {"matches": matches, "events": events, "snapshots": snapshots}


def bots_create(*, per_game: int, owners: int, games) -> dict[str, list[dict]]:
    """``per_game`` remote bots of each of ``games``, of ``owners`` owners, version 1 each:
    {game: [{id, name}]} (the dataset: 40 per game, 200 bots, 50 owners)."""
    from django.contrib.auth import get_user_model

    from bots.models import Bot, BotVersion

    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"owner{i:02d}", email=f"owner{i:02d}@example.com")
         for i in range(owners)])
    versions: dict[str, list[dict]] = {}
    for game in games:
        bots = Bot.objects.bulk_create([
            Bot(owner=users[i % len(users)], name=f"{game.split('-')[0]}-{i:02d}", game=game,
                kind=Bot.Kind.REMOTE) for i in range(per_game)])
        rows = BotVersion.objects.bulk_create([
            BotVersion(bot=bot, number=1, format=BotVersion.Format.REMOTE,
                       sha256=hashlib.sha256(f"remote:{bot.pk}".encode()).hexdigest(), size=0,
                       filename="", archive=None, file_count=0, unpacked_size=0, runtime="remote")
            for bot in bots])
        versions[game] = [{"id": v.pk, "name": v.bot.name} for v in rows]
    return versions


def tournaments_play(size: str) -> list[int]:
    """TOURNAMENTS small tournaments played through the service (the tournament command)."""
    from django.core.management import call_command

    from tournaments.models import Tournament

    ids = []
    with open(os.devnull, "w") as quiet:
        for i in range(TOURNAMENTS[size]):
            game, fmt, entrants, settings_, options = TOURNAMENT_KINDS[i % len(TOURNAMENT_KINDS)]
            call_command("tournament", game=game, format=fmt, entrants=entrants,
                         format_settings=json.dumps(settings_), options=json.dumps(options),
                         stdout=quiet, stderr=quiet)
            ids.append(Tournament.objects.latest("pk").pk)
    return ids


def built(cursor) -> dict | None:
    """What the database holds already (the marker row), or None."""
    cursor.execute(f"SELECT to_regclass('{MARKER}') IS NOT NULL")
    if not cursor.fetchone()[0]:
        return None
    cursor.execute(f"SELECT facts FROM {MARKER}")
    row = cursor.fetchone()
    return json.loads(row[0]) if row else None


def build(url: str, *, quick: bool = False, processes: int | None = None) -> dict:
    """The dataset in the database ``url`` (created if missing), unless it is there already."""
    from bench.append import database_create, django_setup

    size = "quick" if quick else "full"
    database_create(url)
    django_setup(url)
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0, interactive=False)
    with connection.cursor() as cursor:
        facts = built(cursor)
    if facts is not None and facts.get("size") == size:
        return facts
    started = time.perf_counter()
    with connection.cursor() as cursor:  # from nothing: every table the dataset fills
        cursor.execute("SELECT string_agg(quote_ident(tablename), ', ') FROM pg_tables WHERE schemaname = "
                       "'public' AND tablename <> 'django_migrations' AND tablename NOT LIKE 'django_content%' "
                       "AND tablename <> 'auth_permission'")
        cursor.execute(f"TRUNCATE {cursor.fetchone()[0]} CASCADE")
        cursor.execute(f"DROP TABLE IF EXISTS {MARKER}")
    from cryptography.hazmat.primitives import serialization

    from replays.signing import signing_key_current
    from tournaments.services import ratings_recompute

    key, private_key = signing_key_current()
    pem = private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    versions = bots_create(per_game=BOTS_PER_GAME[size], owners=OWNERS[size], games=MATCHES[size])
    jobs = jobs_plan(versions, MATCHES[size], every=settings.REPLAY_SNAPSHOT_EVERY)
    played = 0

    def progress(stream):
        nonlocal played
        for item in stream:
            played += 1
            if played % 100 == 0:
                print(f"dataset: {played}/{len(jobs)} matches played", file=sys.stderr, flush=True)
            yield item

    with connection.cursor() as wrapper:
        counts = matches_store(progress(play_all(jobs, pem, key.key_id, processes)),
                               cursor=wrapper.cursor)
    played_seconds = time.perf_counter() - started
    call_command("builtinbots", verbosity=0, stdout=open(os.devnull, "w"))
    tournaments = tournaments_play(size)
    for game in MATCHES[size]:
        ratings_recompute(game=game)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # autocommit: as after any bulk load
    from bots.models import Bot
    from replays.models import Event, Match
    from tournaments.models import Rating

    facts = {"size": size, "matches": Match.objects.count(), "events": Event.objects.count(),
             "bulk_loaded": counts, "bots": Bot.objects.count(), "tournaments": tournaments,
             "ratings": Rating.objects.count(), "seconds": time.perf_counter() - started,
             "playing_seconds": played_seconds}
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {MARKER} (facts text NOT NULL)")
        cursor.execute(f"INSERT INTO {MARKER} VALUES (%s)", [json.dumps(facts)])
    return facts


def read_targets(*, per_game: int = 60, seed: int = 7) -> dict:
    """What the load bench's clients read: finished matches of every game (id, players, events),
    the tournaments and the games with leaderboards."""
    from replays.models import Match
    from replays.selectors import match_head
    from tournaments.models import Tournament

    rng = random.Random(seed)
    matches = []
    for game in MATCHES["full"]:
        rows = list(Match.objects.filter(ruleset=game, status=Match.Status.ENDED).order_by("id"))
        for match in rng.sample(rows, min(per_game, len(rows))):
            matches.append((str(match.pk), match.players, match_head(match=match)["seq"] + 1))
    return {"matches": matches, "games": list(MATCHES["full"]),
            "tournaments": list(Tournament.objects.order_by("pk").values_list("pk", flat=True))}


if __name__ == "__main__":
    from bench.append import DEFAULT_URL

    arguments = sys.argv[1:]
    url = arguments[arguments.index("--url") + 1] if "--url" in arguments else (
        os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL)
    print(json.dumps(build(url, quick="--quick" in arguments)))
