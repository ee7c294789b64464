"""GET /api/signing-keys/: the public keys an auditor checks an export with, offline."""
import json

import pytest
from rest_framework.test import APIClient

from bots.services import match_play_builtin
from games.engine import log, signature
from replays import signing


@pytest.fixture
def ended(db, django_capture_on_commit_callbacks, eager_tasks):
    """A finished match of built-in bots: its end signed by the service's first key."""
    with django_capture_on_commit_callbacks(execute=True):
        return match_play_builtin(ruleset="trap-the-wizard", bots=["random", "random"],
                                  options={"rounds": 1}, bot_seed=3)


def test_it_lists_no_key_before_anything_is_signed(db):
    response = APIClient().get("/api/signing-keys/")
    assert response.status_code == 200 and response.json()["results"] == []


def test_it_lists_every_key_to_anyone_and_old_ones_after_rotation(ended, django_capture_on_commit_callbacks):
    first = APIClient().get("/api/signing-keys/").json()["results"]
    assert len(first) == 1
    assert set(first[0]) == {"key_id", "algorithm", "public_key", "created", "retired"}
    assert first[0]["algorithm"] == "ed25519" and first[0]["retired"] is None
    with django_capture_on_commit_callbacks(execute=True):
        new = signing.signing_key_rotate()
    listed = APIClient().get("/api/signing-keys/").json()["results"]
    assert [k["key_id"] for k in listed] == [new.key_id, first[0]["key_id"]]
    assert listed[0]["retired"] is None and listed[1]["retired"] is not None


def test_an_export_checks_offline_against_the_saved_answer(ended, tmp_path, django_capture_on_commit_callbacks):
    client = APIClient()
    replay = tmp_path / "replay.jsonl"
    replay.write_bytes(client.get(f"/api/matches/{ended.pk}/export/").content)
    with django_capture_on_commit_callbacks(execute=True):
        signing.signing_key_rotate()  # the match was signed by the key now retired
    keys = tmp_path / "keys.json"
    keys.write_bytes(client.get("/api/signing-keys/").content)
    assert log.main([str(replay), "--keys", str(keys)]) == 0
    forged = [json.loads(line) for line in replay.read_text().splitlines()]
    forged[-1]["payload"].pop("signature")
    forged[-1]["hash"] = log.record_hash(forged[-1])
    replay.write_text("".join(log.canonical_json(r) + "\n" for r in forged))
    assert log.main([str(replay), "--keys", str(keys)]) == 1


def test_the_end_event_shows_its_signature_in_the_api_and_the_admin(ended, client):
    from django.contrib.auth import get_user_model

    end = ended.events.order_by("-seq").first()
    page = APIClient().get(f"/api/matches/{ended.pk}/events/?after={end.seq - 1}").json()
    shown = page["results"][-1]
    assert shown["kind"] == "match_ended" and shown["payload"] == end.payload
    assert set(shown["payload"]) == {"result", "seed", "signature"}
    assert APIClient().get(f"/api/matches/{ended.pk}/").status_code == 200
    staff = get_user_model().objects.create_superuser("auditor", "a@example.invalid", "a long passphrase 42")
    client.force_login(staff)
    detail = client.get(f"/admin/replays/match/{ended.pk}/change/")
    assert detail.status_code == 200 and end.payload["signature"]["value"] in detail.content.decode()
    assert client.get(f"/admin/replays/event/{end.pk}/change/").status_code == 200
    keys = client.get("/admin/replays/signingkey/")
    assert keys.status_code == 200 and end.payload["signature"]["key"] in keys.content.decode()


def test_it_is_documented_in_the_schema(db):
    schema = json.loads(APIClient().get("/api/schema/?format=json").content)
    operation = schema["paths"]["/api/signing-keys/"]["get"]
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]
    page = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]
    assert page["properties"]["results"]["type"] == "array"  # the envelope of every list
    component = schema["components"]["schemas"][page["properties"]["results"]["items"]["$ref"].rsplit("/", 1)[-1]]
    assert set(component["properties"]) == {"key_id", "algorithm", "public_key", "created", "retired"}
    algorithm = schema["components"]["schemas"][component["properties"]["algorithm"]["$ref"].rsplit("/", 1)[-1]]
    assert algorithm["enum"] == [signature.ALGORITHM]
    assert {} in operation["security"]  # public: no credentials needed
