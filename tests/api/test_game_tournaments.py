"""The newer games in tournaments: free-for-all pod tournaments of Imperial Twing bots at four
seats, of Warlock bots at six and of Wizard Kings bots at seven, from `manage.py tournament` and through the API with uploaded
bots (run in the sandbox) among the built-in ones. Every match of each ends and its log
validates."""
from pathlib import Path

from django.core.management import call_command

from bots.services import bot_create, bot_version_upload, builtin_bot_versions
from replays.models import Match
from replays.services import match_validate
from tournaments.models import Tournament

from .conftest import make_user, token_client

RANDOM_BOT = (Path(__file__).resolve().parents[2] / "examples" / "bots" / "random_bot.py").read_bytes()
TWING = "imperial-twing"
WARLOCK = "warlock"
KINGS = "wizard-kings"


def quick_builtins(game: str) -> dict:
    """The built-in bots but those that think for their whole clock (search: it would take a
    second a move here; tests/tournaments/test_search_tournament.py enters it)."""
    return builtin_bot_versions(game=game, thinking=False)


def all_matches_end_and_validate(tournament, game=TWING, seats=4) -> int:
    matches = Match.objects.filter(ruleset=game, pairing_game__pairing__tournament=tournament)
    assert matches.exists()
    for match in matches:
        assert match.status == Match.Status.ENDED and match.players == seats
        assert match_validate(match=match).ok, f"match {match.pk} does not validate"
    return matches.count()


def test_it_runs_a_four_seat_imperial_twing_pod_tournament_from_the_command(db, capsys):
    call_command("tournament", "--game", TWING, "--format", "pods", "--entrants", "8",
                 "--format-settings", '{"seats": 4, "advance": 2}')
    out = capsys.readouterr().out
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED and tournament.game == TWING
    assert "Standings" in out and "round 2" in out
    assert all_matches_end_and_validate(tournament) == 3  # two pods, then the final pod


def test_it_runs_an_imperial_twing_pod_tournament_through_the_api(db, django_capture_on_commit_callbacks,
                                                                  eager_tasks):
    organiser = token_client(make_user("olga"))
    response = organiser.post("/api/tournaments/", {
        "name": "Orn cup", "game": TWING, "format": "pods", "format_settings": {"seats": 4, "advance": 1},
        "time_control": {"move_ms": 2000}}, format="json")
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    for owner in ("alice", "bob"):
        client = token_client(make_user(owner))
        bot = bot_create(owner=client.user, name=f"{owner}-orn", game=TWING)
        bot_version_upload(bot=bot, filename="random_bot.py", content=RANDOM_BOT)
        assert client.post(f"/api/tournaments/{tid}/entries/", {"bot": bot.pk}, format="json").status_code == 201
    for version in quick_builtins(TWING).values():
        assert organiser.post(f"/api/tournaments/{tid}/entries/", {"bot": version.bot.pk},
                              format="json").status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        started = organiser.post(f"/api/tournaments/{tid}/start/")
    assert started.status_code == 200, started.json()
    assert organiser.get(f"/api/tournaments/{tid}/").json()["status"] == "finished"
    standings = organiser.get(f"/api/tournaments/{tid}/standings/").json()["results"]
    assert sorted(s["bot"] for s in standings) == ["alice-orn", "bob-orn", "heuristic", "random"]
    assert all_matches_end_and_validate(Tournament.objects.get(pk=tid)) == 1
    match = Match.objects.get(ruleset=TWING)
    kinds = list(match.events.values_list("kind", flat=True))
    assert "forfeit" not in kinds and kinds.count("action") > 50  # the uploaded bots played


def test_it_runs_a_six_wizard_warlock_pod_tournament_from_the_command(db, capsys):
    call_command("tournament", "--game", WARLOCK, "--format", "pods", "--entrants", "12",
                 "--format-settings", '{"seats": 6, "min_seats": 6, "advance": 3}')
    out = capsys.readouterr().out
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED and tournament.game == WARLOCK
    assert "Standings" in out and "round 2" in out
    assert all_matches_end_and_validate(tournament, WARLOCK, seats=6) == 3  # two pods, the final


def pod_tournament_through_the_api(capture, game: str, organiser_name: str, cup: str, owners,
                                   suffix: str, seats: int) -> None:
    """One pod of ``seats``: an uploaded random bot (in the sandbox) for each owner and the
    game's built-in bots; it finishes, every entry stands, its match validates and the uploaded
    bots played without a forfeit."""
    organiser = token_client(make_user(organiser_name))
    response = organiser.post("/api/tournaments/", {
        "name": cup, "game": game, "format": "pods",
        "format_settings": {"seats": seats, "advance": 1}, "time_control": {"move_ms": 2000}},
        format="json")
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    for owner in owners:
        client = token_client(make_user(owner))
        bot = bot_create(owner=client.user, name=f"{owner}-{suffix}", game=game)
        bot_version_upload(bot=bot, filename="random_bot.py", content=RANDOM_BOT)
        assert client.post(f"/api/tournaments/{tid}/entries/", {"bot": bot.pk},
                           format="json").status_code == 201
    builtins = quick_builtins(game)
    for version in builtins.values():
        assert organiser.post(f"/api/tournaments/{tid}/entries/", {"bot": version.bot.pk},
                              format="json").status_code == 201
    with capture(execute=True):
        started = organiser.post(f"/api/tournaments/{tid}/start/")
    assert started.status_code == 200, started.json()
    assert organiser.get(f"/api/tournaments/{tid}/").json()["status"] == "finished"
    standings = organiser.get(f"/api/tournaments/{tid}/standings/").json()["results"]
    assert sorted(s["bot"] for s in standings) == sorted(
        [f"{o}-{suffix}" for o in owners] + list(builtins))
    tournament = Tournament.objects.get(pk=tid)
    assert all_matches_end_and_validate(tournament, game, seats=seats) == 1
    match = Match.objects.get(ruleset=game)
    kinds = list(match.events.values_list("kind", flat=True))
    assert "forfeit" not in kinds and kinds.count("action") > 50  # the uploaded bots played


def test_it_runs_a_six_wizard_warlock_pod_tournament_through_the_api(
        db, django_capture_on_commit_callbacks, eager_tasks):
    pod_tournament_through_the_api(django_capture_on_commit_callbacks, WARLOCK, "merlin",
                                   "Limbo cup", ("alice", "bob", "carol", "dave"), "wl", seats=6)


def test_it_runs_a_seven_king_wizard_kings_pod_tournament_from_the_command(db, capsys):
    call_command("tournament", "--game", KINGS, "--format", "pods", "--entrants", "14",
                 "--format-settings", '{"seats": 7, "min_seats": 6, "advance": 3}')
    out = capsys.readouterr().out
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED and tournament.game == KINGS
    assert "Standings" in out and "round 2" in out
    matches = Match.objects.filter(ruleset=KINGS, pairing_game__pairing__tournament=tournament)
    assert sorted(m.players for m in matches) == [6, 7, 7]   # two pods of seven, a final of six
    for match in matches:
        assert match.status == Match.Status.ENDED
        assert match_validate(match=match).ok, f"match {match.pk} does not validate"


def test_it_runs_a_seven_king_wizard_kings_pod_tournament_through_the_api(
        db, django_capture_on_commit_callbacks, eager_tasks):
    pod_tournament_through_the_api(django_capture_on_commit_callbacks, KINGS, "arthur",
                                   "Crown cup", ("alice", "bob", "carol", "dave"), "wk", seats=7)
