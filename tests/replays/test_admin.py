"""The admin as an audit tool: a tampered match shows as failed; events cannot be edited."""
import pytest
from django.contrib.auth import get_user_model

from replays.models import Event
from replays.services import match_validate

from .test_event_store import _tamper


@pytest.fixture
def auditor_client(client, db):
    staff = get_user_model().objects.create_superuser("auditor", "a@example.invalid", "a long passphrase 42")
    client.force_login(staff)
    return client


def test_the_admin_shows_a_tampered_match_as_failed_with_its_seq(auditor_client, played_match):
    page = auditor_client.get("/admin/replays/match/").content.decode()
    assert "valid" in page and "FAILED" not in page
    seq = played_match.events.filter(kind="chance").order_by("seq")[1].seq
    payload = dict(played_match.events.get(seq=seq).payload)
    payload["outcome"] = [7 - payload["outcome"][0]]
    _tamper(played_match, seq, payload)
    match_validate(match=played_match)
    page = auditor_client.get("/admin/replays/match/").content.decode()
    assert f"FAILED at seq {seq}" in page
    detail = auditor_client.get(f"/admin/replays/match/{played_match.pk}/change/").content.decode()
    assert f"FAILED at seq {seq}" in detail and f"/matches/{played_match.pk}/" in detail


def test_events_are_read_only_in_the_admin(auditor_client, played_match):
    event = played_match.events.get(seq=1)
    assert auditor_client.get("/admin/replays/event/add/").status_code == 403
    response = auditor_client.post(f"/admin/replays/event/{event.pk}/change/", {"kind": "forged"})
    assert response.status_code == 403
    assert auditor_client.post(f"/admin/replays/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Event.objects.get(pk=event.pk).kind == event.kind
