"""Issue 43.3, scrimmages: "A signed-in user asks for N games (1 to a documented maximum)
between one of their bots and any bot (or a set of bots) of a game, rated on the ladder or not
... A scrimmage shows W-T-L and links every replay. Limits per user (open scrimmages, games a
day) keep one user from filling the queue; a refusal names the limit. A request for a bot of
another game, a version that has not passed its check, someone else's bot as one's own, or too
many games is refused with a 4xx and its reason, changing nothing."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from bots.driver import match_drive
from bots.services import bot_create, bot_version_upload, builtin_bot_versions
from ladder.models import LadderMatch, LadderRating, Scrimmage, ScrimmageMatch, VersionCheck
from ladder.scrimmages import ScrimmageRefused, scrimmage_create, scrimmage_match_finished, scrimmage_record
from ladder.services import ladder_entry_update, ladder_get_or_create, ladder_match_finished
from replays.models import Match

from ..api.conftest import make_user, token_client
from ..bots.conftest import sandbox_required  # noqa: F401  (a fixture)

GAME = "sorcado"
ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "examples" / "bots" / "random_bot.py").read_bytes()  # answers every act


def _passed_bot(user, name, game=GAME):
    """A bot of ``user`` with a version whose check passed (the check's own tests play it)."""
    bot = bot_create(owner=user, name=name, game=game)
    version = bot_version_upload(bot=bot, filename="main.py", content=SOURCE + f"# {name}\n".encode())
    VersionCheck.objects.create(version=version, status=VersionCheck.Status.PASSED)
    return bot


def _play(scrimmage):
    for row in ScrimmageMatch.objects.filter(scrimmage=scrimmage).order_by("index"):
        match_drive(match_id=row.match_id)
        ladder_match_finished(match_id=row.match_id)
        scrimmage_match_finished(match_id=row.match_id)


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def builtins(db):
    return {name: version.bot for name, version in builtin_bot_versions(game=GAME).items()}


def test_games_cycle_through_the_opponents_alternate_seats_and_give_w_t_l(alice, builtins, settings, sandbox_required):  # noqa: F811
    mine = _passed_bot(alice, "mine")
    scrimmage = scrimmage_create(owner=alice, bot=mine, opponents=[builtins["random"], builtins["heuristic"]],
                                 games=4, queue=False)
    rows = list(ScrimmageMatch.objects.filter(scrimmage=scrimmage).select_related("match").order_by("index"))
    assert [r.seat for r in rows] == [0, 1, 0, 1]
    assert [r.match.seats[1 - r.seat]["bot"] for r in rows] == ["random", "heuristic", "random", "heuristic"]
    assert [r.match.seats[r.seat]["bot"] for r in rows] == ["mine"] * 4
    assert len({r.match.seed_commitment for r in rows}) == 4  # each game its own seed
    _play(scrimmage)
    shown = scrimmage_record(scrimmage=scrimmage)
    record = shown["record"]
    assert record["wins"] + record["ties"] + record["losses"] == 4 and record["pending"] == 0
    for game in shown["games"]:
        match = Match.objects.get(pk=game["match"])
        mine_place, theirs = match.result["placings"][game["seat"]], match.result["placings"][1 - game["seat"]]
        assert game["outcome"] == ("win" if mine_place < theirs else "tie" if mine_place == theirs else "loss")
    assert Scrimmage.objects.get(pk=scrimmage.pk).status == Scrimmage.Status.FINISHED
    # Unrated: no rating moved anywhere.
    assert not LadderMatch.objects.exists() and not Match.objects.filter(rated=True).exists()


def test_a_rated_scrimmage_is_played_on_the_ladder(alice, builtins, settings, sandbox_required):  # noqa: F811
    ladder = ladder_get_or_create(game=GAME)
    mine = _passed_bot(alice, "mine")
    with pytest.raises(ScrimmageRefused, match="is not on it") as refused:
        scrimmage_create(owner=alice, bot=mine, opponents=[builtins["random"]], games=2, rated=True, queue=False)
    assert refused.value.code == "not_on_ladder"
    ladder_entry_update(bot=mine)
    scrimmage = scrimmage_create(owner=alice, bot=mine, opponents=[builtins["random"]], games=2, rated=True, queue=False)
    _play(scrimmage)
    assert LadderMatch.objects.filter(ladder=ladder, applied=True).count() == 2
    assert LadderRating.objects.get(ladder=ladder, version__bot=mine).games == 2


def test_refusals_name_their_reason_and_store_nothing(alice, builtins, settings):
    bob = make_user("bob")
    mine, theirs = _passed_bot(alice, "mine"), _passed_bot(bob, "theirs")
    other_game = _passed_bot(alice, "tw", game="trap-the-wizard")
    unchecked = bot_create(owner=alice, name="new", game=GAME)
    bot_version_upload(bot=unchecked, filename="main.py", content=SOURCE)
    settings.SCRIMMAGE_MAX_GAMES = 20
    cases = [
        (dict(bot=theirs, opponents=[builtins["random"]], games=2), "not_owner", "is not your bot"),
        (dict(bot=mine, opponents=[other_game], games=2), "other_game", "play another game"),
        (dict(bot=mine, opponents=[unchecked], games=2), "no_passed_version", "passed its check"),
        (dict(bot=unchecked, opponents=[builtins["random"]], games=2), "no_passed_version", "passed its check"),
        (dict(bot=mine, opponents=[builtins["random"]], games=21), "too_many_games", "1 to 20 games"),
        (dict(bot=mine, opponents=[builtins["random"]], games=0), "too_many_games", "1 to 20 games"),
        (dict(bot=mine, opponents=[mine], games=2), "against_itself", "against itself"),
        (dict(bot=mine, opponents=[], games=2), "no_opponent", "at least one opponent"),
    ]
    for kwargs, code, words in cases:
        with pytest.raises(ScrimmageRefused, match=words) as refused:
            scrimmage_create(owner=alice, queue=False, **kwargs)
        assert refused.value.code == code
    assert not Scrimmage.objects.exists() and not Match.objects.exists()


def test_the_limits_per_user_are_named_when_reached(alice, builtins, settings):
    settings.SCRIMMAGE_MAX_OPEN, settings.SCRIMMAGE_GAMES_PER_DAY = 2, 5
    mine = _passed_bot(alice, "mine")
    scrimmage_create(owner=alice, bot=mine, opponents=[builtins["random"]], games=2, queue=False)
    with pytest.raises(ScrimmageRefused, match="limit of 5 a day") as refused:
        scrimmage_create(owner=alice, bot=mine, opponents=[builtins["random"]], games=4, queue=False)
    assert (refused.value.code, refused.value.status) == ("limit_games", 429)
    scrimmage_create(owner=alice, bot=mine, opponents=[builtins["random"]], games=2, queue=False)
    with pytest.raises(ScrimmageRefused, match="2 open scrimmages; the limit is 2") as refused:
        scrimmage_create(owner=alice, bot=mine, opponents=[builtins["random"]], games=1, queue=False)
    assert refused.value.code == "limit_open"
    assert Scrimmage.objects.count() == 2 and Match.objects.count() == 4


def test_the_api_creates_lists_and_shows_a_scrimmage_and_refuses_with_reasons(alice, builtins, settings, sandbox_required):  # noqa: F811
    mine = _passed_bot(alice, "mine")
    api = token_client(alice)
    created = api.post("/api/scrimmages/", {"bot": mine.pk, "opponents": [builtins["random"].pk], "games": 2},
                       format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["bot_name"], body["games"], body["rated"], body["status"]) == ("mine", 2, False, "open")
    assert body["record"] == {"wins": 0, "ties": 0, "losses": 0, "pending": 2, "aborted": 0}
    assert [g["outcome"] for g in body["results"]] == [None, None] and body["opponents"] == ["random"]
    _play(Scrimmage.objects.get(pk=body["id"]))
    shown = api.get(f"/api/scrimmages/{body['id']}/").json()
    assert shown["status"] == "finished" and shown["record"]["pending"] == 0
    assert sum(shown["record"][k] for k in ("wins", "ties", "losses")) == 2
    assert [g["match"] for g in shown["results"]] == [g["match"] for g in body["results"]]
    assert api.get("/api/scrimmages/").json()["results"][0]["id"] == body["id"]
    bob = token_client(make_user("bob"))
    assert bob.get(f"/api/scrimmages/{body['id']}/").status_code == 404  # someone else's
    refused = bob.post("/api/scrimmages/", {"bot": mine.pk, "opponents": [builtins["random"].pk], "games": 2},
                       format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_owner"
    missing = api.post("/api/scrimmages/", {"bot": mine.pk, "opponents": [999999], "games": 2}, format="json")
    # Issue 40, item 11: an id the schema accepts that names no bot: not found
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_such_bot"
    assert Scrimmage.objects.count() == 1


def test_the_site_form_asks_for_a_scrimmage_and_its_page_shows_w_t_l(alice, builtins, settings, sandbox_required):  # noqa: F811
    mine = _passed_bot(alice, "mine")
    client = Client()
    client.force_login(alice)
    refused = client.post("/scrimmages/", {"bot": mine.pk, "opponents": [mine.pk], "games": "2"})
    assert refused.status_code == 400 and "cannot scrimmage against itself" in refused.content.decode()
    made = client.post("/scrimmages/", {"bot": mine.pk, "opponents": [builtins["random"].pk], "games": "2"})
    assert made.status_code == 302
    scrimmage = Scrimmage.objects.get()
    _play(scrimmage)
    page = client.get(made["Location"]).content.decode()
    record = scrimmage_record(scrimmage=scrimmage)["record"]
    assert f'<span id="record">{record["wins"]}-{record["ties"]}-{record["losses"]}</span>' in page
    assert page.count('class="game-result"') == 2
    assert all(str(row.match_id) in page for row in ScrimmageMatch.objects.filter(scrimmage=scrimmage))
    assert "scrimmage-row" in client.get("/scrimmages/").content.decode()
    assert Client().get("/scrimmages/").status_code == 302  # sign in first


def test_manage_py_scrimmage_plays_and_prints_w_t_l(alice, builtins, settings, capsys, sandbox_required):  # noqa: F811
    _passed_bot(alice, "mine")
    call_command("scrimmage", GAME, "--bot", "alice/mine", "--against", "random,heuristic", "--games", "2")
    out = capsys.readouterr().out
    scrimmage = Scrimmage.objects.get()
    record = scrimmage_record(scrimmage=scrimmage)["record"]
    assert f"W-T-L {record['wins']}-{record['ties']}-{record['losses']}" in out
    assert out.count("replay: /matches/") == 2 and scrimmage.status == Scrimmage.Status.FINISHED


def test_the_documented_scrimmage_has_the_fields_the_api_gives(alice, builtins):
    import json
    import re

    text = (ROOT / "docs" / "ladder.md").read_text()
    [documented] = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S) if '"record"' in b]
    mine = _passed_bot(alice, "mine")
    real = token_client(alice).post("/api/scrimmages/", {"bot": mine.pk, "opponents": [builtins["random"].pk],
                                                         "games": 1}, format="json").json()
    assert set(documented) == set(real) and set(documented["record"]) == set(real["record"])
    assert set(documented["results"][0]) == set(real["results"][0])
