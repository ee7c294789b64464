"""Issue 13.8: "The admin is an audit tool but allows rewriting the truth: an ended match's clock,
fault policy and driver fields can be edited, and pairings, rounds and ratings can be added and
changed by hand. Anything that is a fold of the logs or a recorded fact is read-only there;
changes go through the services that record them (corrections)."
"""
import pytest
from django.contrib.auth import get_user_model

from bots.driver import match_drive
from replays.models import Match
from tournaments.models import Correction, Pairing, PairingGame, Rating, Round, Tournament
from tournaments.services import ratings_recompute, tournament_start

from .test_services import _create, _play_out


@pytest.fixture
def auditor(client, db):
    staff = get_user_model().objects.create_superuser("auditor", "a@example.invalid", "a long passphrase 42")
    client.force_login(staff)
    client.user = staff
    return client


@pytest.fixture
def finished(db):
    tournament = _create("round-robin", 3)
    tournament_start(tournament=tournament, queue=False)
    _play_out(tournament)
    ratings_recompute(game=tournament.game)
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def _refused(client, url, data):
    """The admin refuses the write: a 403, or a view-only page that saves nothing."""
    return client.post(url, data).status_code == 403


def test_an_ended_matchs_clock_fault_policy_and_driver_fields_cannot_be_edited(auditor, finished):
    match = Match.objects.filter(pairing_game__pairing__tournament=finished).first()
    before = (match.time_control, match.fault_policy, match.driver_token, match.status, match.result)
    url = f"/admin/replays/match/{match.pk}/change/"
    page = auditor.get(url)
    assert page.status_code == 200  # still shown, with its verdict and viewer link
    html = page.content.decode()
    assert 'name="time_control"' not in html and 'name="fault_policy"' not in html
    assert 'name="driver_token"' not in html and 'name="status"' not in html
    assert _refused(auditor, url, {"time_control": '{"move_ms": 1}', "fault_policy": "{}",
                                    "driver_token": "x", "status": "aborted"})
    match.refresh_from_db()
    assert (match.time_control, match.fault_policy, match.driver_token, match.status, match.result) == before
    assert auditor.get("/admin/replays/match/add/").status_code == 403


@pytest.mark.parametrize("model", ["round", "pairing", "pairinggame", "rating", "tournament"])
def test_rounds_pairings_their_games_ratings_and_tournaments_cannot_be_added_changed_or_deleted(
        auditor, finished, model):
    row = {"round": Round, "pairing": Pairing, "pairinggame": PairingGame, "rating": Rating,
           "tournament": Tournament}[model].objects.order_by("pk").first()
    assert row is not None
    base = f"/admin/tournaments/{model}/"
    assert auditor.get(base).status_code == 200  # the list is there to audit
    assert auditor.get(f"{base}{row.pk}/change/").status_code == 200  # view-only
    assert auditor.get(f"{base}add/").status_code == 403
    before = {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields}
    assert _refused(auditor, f"{base}{row.pk}/change/", {"number": 99, "key": "forged", "seats": "[1]",
                                                          "mu": 50, "sigma": 1, "ordinal": 47, "matches": 0,
                                                          "status": "draft", "name": "forged"})
    assert _refused(auditor, f"{base}{row.pk}/delete/", {"post": "yes"})
    row.refresh_from_db()
    assert {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields} == before


def test_a_correction_is_recorded_through_the_service_with_the_auditor_as_its_author(auditor, db):
    tournament = _create("round-robin", 4)
    tournament_start(tournament=tournament, queue=False)
    pairing = Pairing.objects.filter(tournament=tournament).order_by("pk").first()
    entry = tournament.entries.order_by("seed").first()
    response = auditor.post("/admin/tournaments/correction/add/", {
        "tournament": tournament.pk, "kind": "adjudicate", "pairing": pairing.pk,
        "placings": '{"%d": 1, "%d": 2}' % tuple(pairing.seats), "reason": "the arbiter's decision"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    correction = Correction.objects.get(tournament=tournament)
    assert correction.created_by == auditor.user and correction.placings == {
        str(pairing.seats[0]): 1, str(pairing.seats[1]): 2}
    # What the service refuses, the admin refuses with the service's reason, and stores nothing.
    refused = auditor.post("/admin/tournaments/correction/add/", {
        "tournament": tournament.pk, "kind": "adjudicate", "pairing": pairing.pk,
        "placings": '{"%d": 1}' % entry.pk, "reason": "half a result"})
    assert refused.status_code == 200
    assert "placings must give a place &gt;= 1 to each of entries" in refused.content.decode()
    assert Correction.objects.filter(tournament=tournament).count() == 1
    # And a recorded correction is never edited or deleted.
    url = f"/admin/tournaments/correction/{correction.pk}/"
    assert _refused(auditor, url + "change/", {"reason": "rewritten"})
    assert _refused(auditor, url + "delete/", {"post": "yes"})
    correction.refresh_from_db()
    assert correction.reason == "the arbiter's decision"


def test_the_admin_cancels_a_tournament_through_the_service(auditor, db):
    tournament = _create("round-robin", 4)
    tournament_start(tournament=tournament, queue=False)
    response = auditor.post("/admin/tournaments/tournament/", {
        "action": "cancel", "_selected_action": [tournament.pk]})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and tournament.cancelled_at is not None
    assert tournament.finished_at is None
    # Issue 40, item 5: its matches are aborted (not played on to a rated end) with the reason.
    matches = Match.objects.filter(pairing_game__pairing__tournament=tournament)
    assert matches.count() == 2 and not matches.exclude(status=Match.Status.ABORTED).exists()
    for match in matches:
        assert match_drive(match_id=match.pk) == "not running"
        assert match.events.order_by("-seq").first().payload["reason"] == f"tournament {tournament.pk} was cancelled"
