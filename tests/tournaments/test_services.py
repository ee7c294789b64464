"""Tournaments as a service: created, advanced exactly once per round, corrected, rated."""
import re
import threading
import time

import pytest
from django.core.management import call_command
from django.db import connection

from bots.driver import match_drive
from bots.services import builtin_bot_versions
from games.engine import registry
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


def _played_round_robin():
    """A round robin of four built-in bots, started and played to its end."""
    tournament = _create("round-robin", 4)
    tournament_start(tournament=tournament, queue=False)
    _play_out(tournament)
    return tournament


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
    tournament = _played_round_robin()
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
    # Issue 13.20: "leaderboards say whether a bot's matches against itself count". They do not,
    # and each rating says how many there were.
    against_itself = {}
    for m in ended:
        bots = [bot_of[s["bot_version"]] for s in m.seats]
        for bot in {b for b in bots if bots.count(b) > 1}:
            against_itself[bot] = against_itself.get(bot, 0) + 1
    assert against_itself  # heuristic met heuristic in this round robin
    assert {bot: n for bot, n in Rating.objects.values_list("bot_id", "self_play") if n} == against_itself


def test_an_imported_match_never_changes_ratings(db):
    """Its seats name bot versions of the service it came from: here they are other bots."""
    tournament = _played_round_robin()
    ratings_recompute(game=GAME)
    before = list(Rating.objects.order_by("bot_id").values_list("bot_id", "mu", "sigma", "matches"))
    rated = next(m for m in Match.objects.filter(ruleset=GAME, status=Match.Status.ENDED)
                 if len({seat["bot_version"] for seat in m.seats}) == len(m.seats))  # not self-play
    Match.objects.create(ruleset=GAME, ruleset_version=rated.ruleset_version, options=rated.options,
                         players=rated.players, seats=rated.seats, seed=b"x" * 32,
                         seed_commitment="0" * 64, status=Match.Status.ENDED, imported=True,
                         result={**rated.result, "placings": rated.result["placings"][::-1]},
                         ended_at=rated.ended_at)
    ratings_recompute(game=GAME)
    assert list(Rating.objects.order_by("bot_id").values_list("bot_id", "mu", "sigma", "matches")) == before


def test_the_tournament_command_runs_a_tournament_and_prints_standings_and_bracket(db, capsys):
    call_command("tournament", "--game", GAME, "--format", "swiss", "--entrants", "8",
                 "--format-settings", '{"rounds": 3}')
    out = capsys.readouterr().out
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED
    assert "Standings" in out and "Bracket" in out and "round 3" in out
    # Without --bots: every built-in bot but those that think for their whole clock (search).
    entered = {e.bot_version.bot.builtin_name for e in tournament.entries.select_related("bot_version__bot")}
    assert entered == {name for name, bot in registry.get(GAME).bots().items() if not bot.thinks}
    assert "search" not in entered and "heuristic" in entered


def test_the_bracket_labels_entries_by_seed_not_by_entry_id(db, capsys):
    """Issue 13.15: "Brackets and CLI output label entries by seed, not by entry id ('owl #9'
    had seed 1)." """
    _create("round-robin", 4)  # entry ids 1-4 taken: the command's entries' ids differ from their seeds
    call_command("tournament", "--game", GAME, "--format", "single-elimination", "--entrants", "4")
    out = capsys.readouterr().out
    tournament = Tournament.objects.get(status=Tournament.Status.FINISHED)
    entries = {e.pk: e.seed for e in tournament.entries.all()}
    assert all(pk != seed for pk, seed in entries.items())
    bracket = tournament_bracket(tournament=tournament)
    first = bracket[0]["pairings"][0]
    assert [s["seed"] for s in first["seats"]] == [entries[s["entry"]] for s in first["seats"]]
    lines = out.split("Bracket", 1)[1].splitlines()
    for pairing in (p for r in bracket for p in r["pairings"] if not p["bye"]):
        line = next(x for x in lines if x.strip().startswith(pairing["key"] + " "))
        seeds = [s["seed"] for s in pairing["seats"]]
        assert " v ".join(f"(seed {seed})" for seed in seeds) in re.sub(r"\S+ \(seed", "(seed", line)
        winner = min(pairing["placings"], key=pairing["placings"].get)
        assert f"seed {entries[int(winner)]}: 1" in line
        assert "#" not in line


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


# -- regressions: starts, limits, disqualifications, concurrent ratings ------------------------

def _draft(fmt, count, settings):
    """A draft built step by step as the API does (create, then enter), so the format sees the
    field only at the start."""
    from django.contrib.auth import get_user_model

    from tournaments.services_drafts import tournament_draft_create, tournament_entry_add

    organiser = get_user_model().objects.create_user(username="organiser")
    draft = tournament_draft_create(organiser=organiser, name="draft", game=GAME, format=fmt,
                                    format_settings=settings)
    for version in _entries(count):
        tournament_entry_add(tournament=draft, bot_version=version, by=organiser)
    return draft


FIELDS_THE_FORMAT_REFUSES = [
    ("swiss", {"rounds": 10}, 4, "at most 3 Swiss rounds"),
    ("pods", {}, 5, "cannot be split into pods"),
]


@pytest.mark.parametrize("fmt, settings, count, reason", FIELDS_THE_FORMAT_REFUSES)
def test_it_keeps_a_refused_start_a_draft_without_rounds(db, fmt, settings, count, reason):
    draft = _draft(fmt, count, settings)
    with pytest.raises(ValueError, match=reason):
        tournament_start(tournament=draft, queue=False)
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.DRAFT
    assert not Round.objects.filter(tournament=draft).exists() and not Match.objects.exists()


@pytest.mark.parametrize("fmt, settings, count, reason", FIELDS_THE_FORMAT_REFUSES)
def test_it_refuses_a_field_the_format_cannot_run_before_creating_anything(db, fmt, settings, count, reason):
    with pytest.raises(ValueError, match=reason):
        _create(fmt, count, settings)
    assert not Tournament.objects.exists() and not Entry.objects.exists()


@pytest.mark.parametrize("fmt, entrants, settings, reason", [
    ("swiss", "4", '{"rounds": 10}', "at most 3 Swiss rounds"),
    ("round-robin", "2", '{"best_of": 40001}', "best_of is at most 99"),
])
def test_it_refuses_a_tournament_command_with_a_reason_and_leaves_no_row(db, fmt, entrants, settings, reason):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=reason):
        call_command("tournament", "--game", GAME, "--format", fmt, "--entrants", entrants,
                     "--format-settings", settings)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("fmt, settings, time_control, reason", [
    ("round-robin", {"best_of": 40001}, None, "best_of is at most 99"),
    ("single-elimination", {"best_of": 101}, None, "best_of is at most 99"),
    ("pods", {"best_of": 100}, None, "best_of is at most 99"),
    ("round-robin", {"cycles": 10 ** 7}, None, "cycles is at most 10"),
    ("swiss", {"rounds": 10 ** 6}, None, "rounds is at most 1000"),
    ("swiss-pods", {"rounds": 1001}, None, "rounds is at most 1000"),
    ("round-robin", {}, {"move_ms": 10 ** 9}, "move_ms is at most 60000 ms"),
    ("round-robin", {}, {"bank_ms": 600_001}, "bank_ms is at most 600000 ms"),
    ("round-robin", {}, {"increment_ms": 60_001}, "increment_ms is at most 60000 ms"),
])
def test_it_refuses_settings_beyond_their_limits_with_a_reason(db, fmt, settings, time_control, reason):
    from tournaments.services_drafts import checked_settings

    with pytest.raises(ValueError, match=reason):
        checked_settings(name="t", game=GAME, format=fmt, format_settings=settings, time_control=time_control)
    with pytest.raises(ValueError, match=reason):
        _create(fmt, 4, settings, time_control=time_control)
    assert not Tournament.objects.exists()


def test_it_accepts_settings_at_their_limits(db):
    from tournaments.services_drafts import checked_settings

    fields = checked_settings(name="t", game=GAME, format="round-robin",
                              format_settings={"best_of": 99, "cycles": 10},
                              time_control={"move_ms": 60_000, "bank_ms": 600_000, "increment_ms": 60_000})
    assert fields["format_settings"] == {"best_of": 99, "cycles": 10}
    assert fields["time_control"]["bank_ms"] == 600_000


@pytest.mark.parametrize("spec, reason", [
    ({"name": 7, "game": GAME, "format": "swiss", "bots": ["random", "heuristic"]}, "name must be a string"),
    ({"game": GAME, "format": "swiss", "format_settings": [3], "bots": ["random", "heuristic"]},
     "format_settings must be an object"),
    ({"game": GAME, "format": "swiss", "rules_options": "fast", "bots": ["random", "heuristic"]},
     "rules_options must be an object"),
    ({"game": GAME, "format": "swiss", "bots": "random,heuristic"}, "bots must be a list"),
    ({"game": GAME, "format": "swiss"}, "the spec lacks bots"),
    (["random", "heuristic"], "the spec must be a JSON object"),
])
def test_it_turns_bad_spec_file_values_into_a_command_error(db, tmp_path, spec, reason):
    import json

    from django.core.management.base import CommandError

    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(CommandError, match=reason):
        call_command("tournament", "--spec", str(path))
    assert not Tournament.objects.exists()


def test_it_ranks_the_best_kept_entry_first_after_disqualifying_the_leader(db):
    tournament = _played_round_robin()
    before = tournament_standings(tournament=tournament)
    leader = Entry.objects.get(pk=before[0]["entry"])
    correction_record(tournament=tournament, kind="disqualify", entry=leader, reason="shared code")
    after = tournament_standings(tournament=tournament)
    kept = [row for row in after if not row["disqualified"]]
    assert [row["entry"] for row in kept] == [row["entry"] for row in before[1:]]
    # Ranked again by position: the best kept entry is 1, and entries the format had tied stay tied.
    expected = []
    for position, row in enumerate(before[1:], start=1):
        tied = position > 1 and before[position - 1]["rank"] == row["rank"]
        expected.append(expected[-1] if tied else position)
    assert [row["rank"] for row in kept] == expected and expected[0] == 1
    assert (after[-1]["entry"], after[-1]["rank"], after[-1]["disqualified"]) == (leader.pk, 4, True)


def test_it_counts_the_earliest_disqualification_of_an_entry(db):
    tournament = _create("round-robin", 4)
    tournament_start(tournament=tournament, queue=False)
    cheat = Entry.objects.get(tournament=tournament, seed=1)
    correction_record(tournament=tournament, kind="disqualify", entry=cheat, reason="shared code")
    for match in Match.objects.filter(status=Match.Status.RUNNING):
        match_drive(match_id=match.pk)  # round 1 is played on after the disqualification
    key = next(p.key for p in Pairing.objects.filter(tournament=tournament, round__number=1)
               if cheat.pk in p.seats)
    voided = tournament_results(tournament=tournament).outcomes[key].placings
    assert voided[cheat.pk] == 2, "the first disqualification voids what was played after it"
    correction_record(tournament=tournament, kind="disqualify", entry=cheat, reason="said again")
    assert tournament_results(tournament=tournament).outcomes[key].placings == voided
    assert Correction.objects.filter(entry=cheat).count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_runs_two_rating_recomputes_of_a_game_at_once(monkeypatch):
    """Both recomputes reach the insert together unless the second waits for the first."""
    from bots.services import match_play_builtin

    for _ in range(2):
        match_play_builtin(ruleset=GAME, bots=["heuristic", "random"])
    ratings_recompute(game=GAME)  # rows exist, as after any earlier tournament
    expected = sorted(Rating.objects.values_list("bot_id", "mu", "sigma", "matches"))
    barrier, insert = threading.Barrier(2, timeout=3), Rating.objects.bulk_create

    def bulk_create_together(objs, *args, **kwargs):
        try:
            barrier.wait()
        except threading.BrokenBarrierError:  # the other one waits for the lock: go on alone
            pass
        return insert(objs, *args, **kwargs)

    monkeypatch.setattr(Rating.objects, "bulk_create", bulk_create_together)
    errors, rated = [], []

    def recompute():
        try:
            rated.append(ratings_recompute(game=GAME))
        except Exception as exc:
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=recompute) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == [] and rated == [2, 2]
    assert sorted(Rating.objects.values_list("bot_id", "mu", "sigma", "matches")) == expected


def test_a_tournament_whose_options_outrun_the_match_driver_is_refused_with_the_reason(db):
    """Issue 40, item 12: options that let a match run longer than the driver plays one
    (bots.driver.MAX_EVENTS) are refused when the tournament is created, not found out a
    million events into its first match."""
    from tournaments.services_drafts import DraftRefused

    versions = builtin_bot_versions(game="trap-the-wizard")
    with pytest.raises(DraftRefused, match="more than the 1,000,000 the match driver plays"):
        tournament_create(name="long", game="trap-the-wizard", format="round-robin",
                          entries=[versions["greedy"], versions["random"]],
                          rules_options={"rounds": 20, "turn_limit": 100_000})
    assert not Tournament.objects.exists()
