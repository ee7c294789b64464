"""Tournaments as a service: created, advanced exactly once per round, corrected, rated."""
import threading
import time

import pytest
from django.core.management import call_command
from django.db import connection

from bots.driver import match_drive
from bots.services import builtin_bot_versions
from replays.models import Match
from tournaments.models import Correction, Entry, Pairing, Rating, Round, Tournament
from tournaments.selectors import tournament_bracket, tournament_results, tournament_standings
from tournaments.services import (correction_record, ratings_recompute, tournament_advance,
                                  tournament_create, tournament_start)

GAME = "sorcado"  # about 80 events a match: tournaments of it run fast


def _entries(count, names=("heuristic", "random")):
    versions = builtin_bot_versions(game=GAME)
    return [versions[names[i % len(names)]] for i in range(count)]


def _create(fmt="swiss", count=6, settings=None, **kw):
    return tournament_create(name="test", game=GAME, format=fmt, entries=_entries(count),
                             format_settings=settings or {}, **kw)


def _play_out(tournament):
    """What the workers do: play every running match, advance, until nothing is left."""
    for _ in range(500):
        running = Match.objects.filter(pairing_game__pairing__tournament=tournament,
                                       status=Match.Status.RUNNING)
        if not running.exists():
            tournament_advance(tournament_id=tournament.pk, queue=False)
            if not running.exists():
                break
        for match in running:
            match_drive(match_id=match.pk)
    tournament.refresh_from_db()


def test_a_swiss_tournament_runs_to_the_end_with_checkable_standings(db):
    tournament = _create("swiss", 6, {"rounds": 3})
    tournament_start(tournament=tournament, queue=False)
    _play_out(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    assert Round.objects.filter(tournament=tournament).count() == 3
    standings = tournament_standings(tournament=tournament)
    assert sorted(row["entry"] for row in standings) == sorted(Entry.objects.values_list("pk", flat=True))
    # Points recomputed by hand from the bracket: a win 1, a tie 0.5 (byes per the format).
    bracket = tournament_bracket(tournament=tournament)
    by_hand = {row["entry"]: 0.0 for row in standings}
    for round_ in bracket:
        for p in round_["pairings"]:
            if p["bye"]:
                by_hand[p["seats"][0]["entry"]] += 1
                continue
            best = min(p["placings"].values())
            winners = [e for e, place in p["placings"].items() if place == best]
            for entry in winners:
                by_hand[int(entry)] += 1 if len(winners) == 1 else 0.5
    assert {row["entry"]: row["points"] for row in standings} == by_hand
    assert [row["points"] for row in standings] == sorted((r["points"] for r in standings), reverse=True)


def test_advancing_twice_creates_one_next_round(db):
    tournament = _create("round-robin", 4)
    tournament_start(tournament=tournament, queue=False)
    for match in Match.objects.filter(status=Match.Status.RUNNING):
        match_drive(match_id=match.pk)
    first = tournament_advance(tournament_id=tournament.pk, queue=False)
    again = tournament_advance(tournament_id=tournament.pk, queue=False)
    assert len(first) == 2 and again == []
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_round_complete_handler_run_twice_concurrently_creates_one_next_round():
    tournament = _create("round-robin", 6)
    tournament_start(tournament=tournament, queue=False)
    for match in Match.objects.filter(status=Match.Status.RUNNING):
        match_drive(match_id=match.pk)
    barrier, started = threading.Barrier(2), []

    def advance():
        try:
            barrier.wait(timeout=10)
            started.append(len(tournament_advance(tournament_id=tournament.pk, queue=False)))
        finally:
            connection.close()

    threads = [threading.Thread(target=advance) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(started) == [0, 3]
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Pairing.objects.filter(round__number=2).count() == 3


def test_an_adjudication_replaces_the_played_result_with_its_reason(db):
    tournament = _create("single-elimination", 4)
    tournament_start(tournament=tournament, queue=False)
    for match in Match.objects.filter(status=Match.Status.RUNNING):
        match_drive(match_id=match.pk)
    pairing = Pairing.objects.filter(tournament=tournament, bye=False).first()
    played = tournament_results(tournament=tournament).outcomes[pairing.key].placings
    loser = max(played, key=played.get)
    flipped = {str(e): (1 if e == loser else 2) for e in pairing.seats}
    with pytest.raises(ValueError, match="reason"):
        correction_record(tournament=tournament, kind="adjudicate", pairing=pairing, placings=flipped, reason=" ")
    correction_record(tournament=tournament, kind="adjudicate", pairing=pairing, placings=flipped,
                      reason="seat 0 was given the wrong rules options")
    assert tournament_results(tournament=tournament).outcomes[pairing.key].placings[loser] == 1
    assert Correction.objects.get().reason.startswith("seat 0")


def test_a_disqualified_entry_loses_its_undecided_pairings_without_playing(db):
    tournament = _create("round-robin", 4)
    tournament_start(tournament=tournament, queue=False)
    cheat = Entry.objects.get(tournament=tournament, seed=4)
    correction_record(tournament=tournament, kind="disqualify", entry=cheat, reason="shared code with seed 3")
    _play_out(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    standings = tournament_standings(tournament=tournament)
    assert standings[-1]["entry"] == cheat.pk and standings[-1]["disqualified"]
    later = Pairing.objects.filter(tournament=tournament, round__number__gt=1, seats__contains=[cheat.pk]) \
        if connection.vendor == "postgresql" else \
        [p for p in Pairing.objects.filter(tournament=tournament, round__number__gt=1) if cheat.pk in p.seats]
    assert all(not p.pairing_games.exists() for p in later), "a disqualified entry plays no more"


@pytest.mark.parametrize("fmt, settings, message", [
    ("chess-clock", {}, "unknown format"),
    ("pods", {"seats": 9}, "seat"),
])
def test_bad_tournaments_are_refused_with_a_reason(db, fmt, settings, message):
    with pytest.raises(ValueError, match=message):
        _create(fmt, 6, settings)
    assert not Tournament.objects.exists()


def test_ratings_are_recomputed_from_the_whole_history_in_a_stable_order(db):
    tournament = _create("round-robin", 4)
    tournament_start(tournament=tournament, queue=False)
    _play_out(tournament)
    rated = ratings_recompute(game=GAME)
    first = list(Rating.objects.order_by("bot_id").values_list("bot_id", "mu", "sigma", "matches"))
    ended = Match.objects.filter(ruleset=GAME, status=Match.Status.ENDED)
    assert rated == sum(1 for m in ended if len({s["bot_version"] for s in m.seats}) == len(m.seats)) > 0
    assert ratings_recompute(game=GAME) == rated
    assert list(Rating.objects.order_by("bot_id").values_list("bot_id", "mu", "sigma", "matches")) == first
    # Each bot is rated once per match it played against another bot (strength itself is a
    # statistic: see bench/games.py, not a test).
    from bots.models import BotVersion
    bot_of = dict(BotVersion.objects.values_list("pk", "bot_id"))
    played = {}
    for m in ended:
        bots = {bot_of[s["bot_version"]] for s in m.seats}
        if len(bots) == len(m.seats):
            for bot in bots:
                played[bot] = played.get(bot, 0) + 1
    assert dict(Rating.objects.values_list("bot_id", "matches")) == played
    assert all(r.ordinal == pytest.approx(r.mu - 3 * r.sigma) for r in Rating.objects.all())


def test_the_tournament_command_runs_a_tournament_and_prints_standings_and_bracket(db, capsys):
    call_command("tournament", "--game", GAME, "--format", "swiss", "--entrants", "8",
                 "--format-settings", '{"rounds": 3}')
    out = capsys.readouterr().out
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED
    assert "Standings" in out and "Bracket" in out and "round 3" in out


@pytest.mark.postgres
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_tournament_runs_end_to_end_on_a_real_worker(celery_worker_process):
    tournament = _create("single-elimination", 5)
    tournament_start(tournament=tournament)  # queued: the worker plays and advances
    deadline = time.monotonic() + 180
    while Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.FINISHED:
        assert celery_worker_process.poll() is None, "the worker died"
        assert time.monotonic() < deadline, "the tournament did not finish on the worker"
        time.sleep(0.5)
    standings = tournament_standings(tournament=tournament)
    assert len(standings) == 5 and standings[0]["rank"] == 1
    assert not Match.objects.filter(status=Match.Status.RUNNING).exists()
