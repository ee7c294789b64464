"""Writes for tournaments: create, start, advance (exactly once per round), correct, rate.

Standings and brackets are folds of match results (tournaments.selectors); nothing here edits
a result by hand. Organiser corrections are recorded rows with a reason.
"""
from __future__ import annotations

import datetime as dt
import time
from collections import Counter

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from bots.models import Bot, BotVersion
from bots.services import match_start
from replays.generations import generation_bump, leaderboard_scope, tournament_scope
from replays.models import Match
from replays.services import AppendConflict, match_abort

from . import formats
from .models import Correction, Entry, Pairing, PairingGame, Rating, Round, Tournament
from .selectors import rating_fold, tournament_results


def format_for(tournament: Tournament) -> "formats.Format":
    return formats.FORMATS[tournament.format].from_settings(tournament.format_settings)


def tournament_create(*, name: str, game: str, format: str, entries: list[BotVersion],
                      format_settings: dict | None = None, rules_options: dict | None = None,
                      time_control: dict | None = None, fault_policy: dict | None = None,
                      organiser=None, admits_remote_bots: bool = False) -> Tournament:
    """A draft tournament with its entries seeded in the order given (first = seed 1).
    Raises ValueError with the reason for anything a format or the game cannot take."""
    from .services_drafts import MAX_ENTRIES, checked_settings  # the one place settings are validated

    fields = checked_settings(name=name, game=game, format=format, format_settings=format_settings,
                              rules_options=rules_options, time_control=time_control,
                              fault_policy=fault_policy, admits_remote_bots=admits_remote_bots)
    if len(entries) < 2:
        raise ValueError("a tournament needs at least two entries")
    if len(entries) > MAX_ENTRIES:
        raise ValueError(f"a tournament takes at most {MAX_ENTRIES} entries, got {len(entries)}")
    strangers = sorted({v.bot.name for v in entries if v.bot.game != fields["game"]})
    if strangers:
        raise ValueError(f"bot(s) {', '.join(strangers)} play another game than {game}")
    # One entry per uploaded bot, as tournament_entry_add allows it (a built-in bot may fill any
    # number of seats: it has no owner whose chances a second entry would double).
    remote = sorted({v.bot.name for v in entries if v.bot.kind == Bot.Kind.REMOTE})
    if remote and not fields["admits_remote_bots"]:
        raise ValueError(f"{', '.join(remote)}: remote bots, and this tournament does not admit remote bots "
                         "(admits_remote_bots)")
    uploaded = Counter(v.bot for v in entries if v.bot.kind != Bot.Kind.BUILTIN)
    twice = sorted(bot.name for bot, count in uploaded.items() if count > 1)
    if twice:
        raise ValueError(f"{', '.join(twice)} is already entered: an uploaded bot enters a tournament "
                         "once (built-in bots may fill several seats)")
    # The field is known here, so a field the format cannot run (5 entrants for pods of 3-4,
    # more Swiss rounds than opponents) is refused before anything is stored. The seeds stand
    # in for the entry ids, which validate_entries only needs to be unique.
    formats.FORMATS[fields["format"]].from_settings(fields["format_settings"]).validate_entries(
        [formats.Entry(id=seed, seed=seed) for seed in range(1, len(entries) + 1)])
    with transaction.atomic():
        tournament = Tournament.objects.create(organiser=organiser, **fields)
        Entry.objects.bulk_create([Entry(tournament=tournament, bot_version=version, seed=seed)
                                   for seed, version in enumerate(entries, start=1)])
    return tournament


class TournamentNotDraft(ValueError):
    """The tournament was started (or cancelled) already."""


def tournament_start(*, tournament: Tournament, queue: bool = True) -> list[Match]:
    """Draft -> running, and the first round's matches (queued on commit when ``queue``).
    Raises TournamentNotDraft unless a draft, and ValueError with the format's reason if it
    cannot run these entries; either way nothing changes."""
    # One transaction under the row lock: the status flips only together with the first round,
    # so a refusal cannot leave a running tournament that has no rounds and never will.
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != Tournament.Status.DRAFT:
            raise TournamentNotDraft(f"tournament {tournament.pk} is {locked.status}, not a draft")
        format_for(locked).validate_entries(
            [formats.Entry(id=pk, seed=seed) for pk, seed in
             Entry.objects.filter(tournament=locked).values_list("pk", "seed")])
        locked.status = Tournament.Status.RUNNING
        locked.save(update_fields=["status"])
        generation_bump(tournament_scope(locked.pk))
        started = tournament_advance(tournament_id=locked.pk, queue=queue)
    tournament.status = Tournament.Status.RUNNING
    return started


def tournament_cancel(*, tournament: Tournament) -> list:
    """Draft or running -> cancelled, and every match of it still running aborted with the
    reason in its log (``match_aborted``): an aborted match has no result, so nothing of it is
    rated. Returns the ids of the matches aborted.

    Under the tournament's row lock (no advance starts a match beside it) the status flips and
    each running match's lease is taken from its driver: a driver at work stops at its next
    renewal (LeaseLost), a queued one finds the match held ("busy") and, once it is aborted,
    not running. Then each abort is appended; a driver still appending wins a seq now and then
    (AppendConflict), and the abort is tried again until that driver has stopped."""
    reason = f"tournament {tournament.pk} was cancelled"
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().filter(
            pk=tournament.pk, status__in=[Tournament.Status.DRAFT, Tournament.Status.RUNNING]).first()
        if locked is None:
            return []
        locked.status, locked.cancelled_at = Tournament.Status.CANCELLED, timezone.now()
        locked.save(update_fields=["status", "cancelled_at"])
        generation_bump(tournament_scope(locked.pk))
        running = Match.objects.filter(pairing_game__pairing__tournament=locked, status=Match.Status.RUNNING)
        ids = list(running.values_list("pk", flat=True))
        running.update(driver_token=CANCELLED_TOKEN, driver_lease_until=timezone.now() + dt.timedelta(days=1))
    tournament.status, tournament.cancelled_at = locked.status, locked.cancelled_at
    return [pk for pk in ids if _match_abort_on_cancel(pk, reason)]


CANCELLED_TOKEN = "cancelled"  # the driver token of a cancelled tournament's match until its abort


def _match_abort_on_cancel(match_id, reason: str) -> bool:
    """Abort a running match of a cancelled tournament; False if it ended first. The match row
    is locked FOR UPDATE first: a driver's append takes a key-share lock on it (the foreign
    key), so no append of its commits while the abort is written (it fails after, on the seq
    the abort took, and the driver stops). A driver caught mid-append when the lock is taken
    deadlocks with the abort; PostgreSQL ends one of the two, and the abort is tried again."""
    from django.conf import settings

    deadline = time.monotonic() + 2 * getattr(settings, "MATCH_LEASE_SECONDS", 30)
    while True:
        try:
            with transaction.atomic():
                match = Match.objects.select_for_update().get(pk=match_id)
                if match.status != Match.Status.RUNNING:
                    return False
                match_abort(match=match, reason=reason)
                return True
        except (AppendConflict, DatabaseError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def tournament_advance(*, tournament_id, queue: bool = True, wait: bool = True) -> list[Match]:
    """Start what the results so far call for: the next game of an undecided series, else the
    next round once every pairing of the current one is decided, else finish the tournament.
    Safe to run twice at once: it holds the tournament's row lock and rounds are unique. With
    ``wait`` off it does nothing while another transaction holds that lock (the holder is
    advancing it already, or will be seen by the next sweep)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(skip_locked=not wait) \
            .filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Tournament.Status.RUNNING:
            return []
        generation_bump(tournament_scope(tournament.pk))  # a round, a game or the finish may follow
        results = tournament_results(tournament=tournament)
        started = [_start_game(tournament, pairing, number, queue)
                   for pairing, number in results.games_to_start]
        if started or results.games_running:
            return started
        nxt = format_for(tournament).next_round(results.entries, results.rounds, results.outcomes)
        if isinstance(nxt, formats.Finished):
            tournament.status, tournament.finished_at = Tournament.Status.FINISHED, timezone.now()
            tournament.save(update_fields=["status", "finished_at"])
            transaction.on_commit(lambda: _queue_ratings(tournament.game))
            return []
        round_row = Round.objects.create(tournament=tournament, number=nxt.number)
        matches = []
        for p in nxt.pairings:
            pairing = Pairing.objects.create(round=round_row, tournament=tournament, key=p.key,
                                             seats=list(p.seats), games=p.games, bye=p.bye)
            if not p.bye and not results.decided_without_play(p):
                matches.append(_start_game(tournament, pairing, 1, queue))
        if not matches:  # a round of byes and forfeited pairings only: go on at once
            transaction.on_commit(lambda: _queue_advance(tournament_id, queue))
        return matches


def _start_game(tournament: Tournament, pairing: Pairing, number: int, queue: bool) -> Match:
    """Game ``number`` of the pairing's series, seats rotated as the format says."""
    spec = formats.Pairing(key=pairing.key, round=pairing.round.number, seats=tuple(pairing.seats),
                           games=pairing.games, bye=pairing.bye)
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=pairing.seats).select_related("bot_version__bot")}
    versions = [entries[entry_id].bot_version for entry_id in spec.seats_for_game(number)]
    match = match_start(ruleset=tournament.game, versions=versions, options=tournament.rules_options,
                        time_control=tournament.time_control, fault_policy=tournament.fault_policy,
                        queue=queue)
    PairingGame.objects.create(pairing=pairing, number=number, match=match)
    return match


def _queue_advance(tournament_id, queue: bool) -> None:
    from .tasks import advance_tournament

    if queue:
        advance_tournament.delay(tournament_id)


def tournaments_sweep() -> dict:
    """Make good what lost tasks left owed (call from the periodic sweep): every running
    tournament whose results call for a start (a series game, the next round, the finish) is
    advanced, without waiting for a tournament another transaction holds; each game with a
    finished tournament whose ratings were never recomputed gets its ratings recomputed; and a
    match of a cancelled tournament whose abort never landed (the cancelling process died, or
    its abort gave up) is aborted now: the cancel's day-long lease keeps drivers off it, but
    only until then, and it would stay running all that time."""
    aborted = [match_id for match_id, tournament_id in Match.objects.filter(
        status=Match.Status.RUNNING, pairing_game__pairing__tournament__status=Tournament.Status.CANCELLED,
    ).values_list("pk", "pairing_game__pairing__tournament_id")
        if _match_abort_on_cancel(match_id, f"tournament {tournament_id} was cancelled")]
    # Ratings first: a tournament this sweep finishes has its recompute queued on commit, and
    # only if that is lost does the next sweep see it owed.
    games = sorted(set(Tournament.objects.filter(status=Tournament.Status.FINISHED, rated=False)
                       .values_list("game", flat=True)))
    for game in games:
        ratings_recompute(game=game)
    advanced = started = 0
    for tournament in Tournament.objects.filter(status=Tournament.Status.RUNNING):
        results = tournament_results(tournament=tournament)
        if results.games_to_start or not results.games_running:
            started += len(tournament_advance(tournament_id=tournament.pk, wait=False))
            advanced += 1
    return {"advanced": advanced, "matches_started": started, "ratings_recomputed": games,
            "cancelled_matches_aborted": len(aborted)}


def _queue_ratings(game: str) -> None:
    from .tasks import recompute_ratings

    recompute_ratings.delay(game)


def correction_check(*, tournament: Tournament, kind: str, reason: str, entry: Entry | None = None,
                     pairing: Pairing | None = None, placings: dict | None = None) -> dict | None:
    """Why a correction would be refused (ValueError), else its placings keyed by entry id as
    text; the admin's form asks this before it records."""
    if not reason or not reason.strip():
        raise ValueError("a correction needs a reason")
    if kind in (Correction.Kind.DISQUALIFY, Correction.Kind.WITHDRAW):
        if entry is None or entry.tournament_id != tournament.pk:
            raise ValueError(f"{kind} needs an entry of this tournament")
    elif kind == Correction.Kind.ADJUDICATE:
        if pairing is None or pairing.tournament_id != tournament.pk:
            raise ValueError("adjudicate needs a pairing of this tournament")
        if not isinstance(placings, dict) or not placings or \
                not all(str(k).isdigit() for k in placings) or \
                sorted(map(int, placings)) != sorted(pairing.seats) or \
                not all(type(p) is int and p >= 1 for p in placings.values()):
            raise ValueError(f"placings must give a place >= 1 to each of entries {pairing.seats}")
        placings = {str(k): v for k, v in placings.items()}
    else:
        raise ValueError("kind must be disqualify, withdraw or adjudicate")
    return placings


def correction_record(*, tournament: Tournament, kind: str, reason: str, entry: Entry | None = None,
                      pairing: Pairing | None = None, placings: dict | None = None,
                      created_by=None) -> Correction:
    """Record an organiser's correction with its reason: a disqualification (the entry loses
    every pairing not yet decided and ranks last), a withdrawal (the same, but its results stand
    in the standings; both leave the entry out of every later Swiss round) or an adjudicated
    pairing result."""
    placings = correction_check(tournament=tournament, kind=kind, reason=reason, entry=entry,
                                pairing=pairing, placings=placings)
    generation_bump(tournament_scope(tournament.pk))
    return Correction.objects.create(tournament=tournament, kind=kind, entry=entry, pairing=pairing,
                                     placings=placings, reason=reason.strip(), created_by=created_by)


def ratings_recompute(*, game: str) -> int:
    """Every ended match of ``game`` played here (not imported) rated with openskill
    (Plackett-Luce, placings as ranks) in a stable order (end time, then match id); the stored
    ratings replaced. A match where one bot holds several seats is not rated at all, and counted
    as ``self_play`` on that bot's rating. Returns matches rated.
    Recomputes of one game run one at a time (see _ratings_lock)."""
    ratings, counts, self_play, rated = {}, {}, {}, 0
    with transaction.atomic():
        # Locked before the matches are read: a second recompute then waits, reads the history
        # including whatever ended meanwhile, and replaces the first one's rows; without the
        # lock both delete, both insert, and one fails on the (game, bot) unique constraint.
        _ratings_lock(game)
        # Every tournament finished by now has its matches in what is read below: its ratings
        # are done (the sweep recomputes a game while one of its tournaments is not).
        Tournament.objects.filter(game=game, status=Tournament.Status.FINISHED, rated=False) \
            .update(rated=True)
        Rating.objects.filter(game=game).delete()
        generation_bump(leaderboard_scope(game))
        for _, bots, was_rated in rating_fold(game=game, ratings=ratings):
            if was_rated:
                for bot in bots:
                    counts[bot] = counts.get(bot, 0) + 1
                rated += 1
            elif None not in bots:  # a bot against itself: nothing to learn
                for bot in {b for b in bots if bots.count(b) > 1}:
                    self_play[bot] = self_play.get(bot, 0) + 1
        Rating.objects.bulk_create([Rating(game=game, bot_id=bot, mu=r.mu, sigma=r.sigma,
                                           ordinal=r.ordinal(), matches=counts[bot],
                                           self_play=self_play.get(bot, 0))
                                    for bot, r in ratings.items()])
    return rated


def _ratings_lock(game: str) -> None:
    """Serialise rating recomputes of ``game`` until the transaction ends; call inside one,
    before anything is read. PostgreSQL: a transaction-level advisory lock keyed by the game (no
    row to lock exists before the first ratings). Elsewhere (SQLite) the delete that follows is
    the lock: it takes the database's one write lock, and a second writer waits for it."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"tournaments.ratings:{game}"])
