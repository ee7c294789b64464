"""Bots and versions over the API: public profiles, owner-only uploads, private code."""
import io
import zipfile

import pytest

from bots.models import Bot, BotVersion
from tournaments.models import Rating

from .conftest import GAME, GOOD_SOURCE


def upload(client, bot, content=GOOD_SOURCE, name="main.py"):
    """POST ``content`` as the multipart field ``file`` named ``name``."""
    named = io.BytesIO(content)
    named.name = name
    return client.post(f"/api/bots/{bot.pk}/versions/", {"file": named}, format="multipart")


def snapshot():
    return (list(Bot.objects.values_list("id", "name", "owner_id")),
            list(BotVersion.objects.values_list("id", "bot_id", "number", "sha256")))


def test_it_creates_a_bot_and_uploads_versions_one_then_two(alice_client):
    response = alice_client.post("/api/bots/", {"name": "merlin", "game": GAME, "description": "mine"}, format="json")
    assert response.status_code == 201, response.json()
    bot = response.json()
    assert (bot["owner"], bot["kind"], bot["latest_version"]) == ("alice", "uploaded", None)
    first = upload(alice_client, Bot.objects.get(pk=bot["id"]))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("main.py", GOOD_SOURCE)
    second = upload(alice_client, Bot.objects.get(pk=bot["id"]), buf.getvalue(), "bot.zip")
    assert (first.status_code, first.json()["number"], first.json()["format"]) == (201, 1, "file")
    assert (second.status_code, second.json()["number"], second.json()["format"]) == (201, 2, "zip")
    assert alice_client.get(f"/api/bots/{bot['id']}/").json()["latest_version"] == 2


def test_the_same_bytes_again_answer_with_the_existing_version(alice_client, alice_bot):
    """Issue 13.18: no silent duplicate; a 200 with the version that holds the bytes."""
    before = snapshot()
    again = upload(alice_client, alice_bot, name="again.py")  # alice_bot's version 1 is GOOD_SOURCE
    assert (again.status_code, again.json()["number"]) == (200, 1)
    assert snapshot() == before
    other = upload(alice_client, alice_bot, GOOD_SOURCE + b"# changed\n")
    assert (other.status_code, other.json()["number"]) == (201, 2)


def test_it_lists_bots_with_filters(anon, alice_bot, bob_bot, builtins):
    everyone = anon.get("/api/bots/").json()
    assert everyone["count"] == Bot.objects.count()
    assert [b["name"] for b in anon.get("/api/bots/?owner=alice").json()["results"]] == ["merlin"]
    kinds = {b["kind"] for b in anon.get("/api/bots/?kind=builtin").json()["results"]}
    assert kinds == {"builtin"}
    assert anon.get("/api/bots/?game=trap-the-wizard").json()["count"] == 0


def test_the_profile_shows_ratings(anon, alice_bot):
    Rating.objects.create(game=GAME, bot=alice_bot, mu=27.0, sigma=7.0, ordinal=6.0, matches=3)
    body = anon.get(f"/api/bots/{alice_bot.pk}/").json()
    assert body["ratings"] == [{"game": GAME, "mu": 27.0, "sigma": 7.0, "ordinal": 6.0, "matches": 3}]
    assert "archive" not in body


def test_version_metadata_is_public_and_the_code_is_the_owners(anon, alice_client, alice_bot):
    meta = anon.get(f"/api/bots/{alice_bot.pk}/versions/1/").json()
    assert meta["number"] == 1 and len(meta["sha256"]) == 64 and "archive" not in meta
    code = alice_client.get(f"/api/bots/{alice_bot.pk}/versions/1/code/")
    assert code.status_code == 200 and code.content == GOOD_SOURCE
    assert code["X-Content-SHA256"] == meta["sha256"]
    assert anon.get(f"/api/bots/{alice_bot.pk}/versions/1/code/").status_code == 404


def test_it_names_a_download_with_a_non_ascii_name_per_rfc_6266(alice_client, alice_bot):
    # Built by hand, the header was MIME-encoded whole (=?utf-8?b?...?=), which browsers ignore.
    for name, disposition in [("zaubër😀.py", "attachment; filename*=utf-8''zaub%C3%ABr%F0%9F%98%80.py"),
                              ('say"hi".py', 'attachment; filename="say\\"hi\\".py"')]:
        number = upload(alice_client, alice_bot, GOOD_SOURCE + f"# {name}\n".encode(), name=name).json()["number"]
        code = alice_client.get(f"/api/bots/{alice_bot.pk}/versions/{number}/code/")
        assert code["Content-Disposition"] == disposition, name


def test_my_bots_lists_only_mine(alice_client, alice_bot, bob_bot):
    assert [b["name"] for b in alice_client.get("/api/me/bots/").json()["results"]] == ["merlin"]


@pytest.mark.parametrize("payload, code", [
    # The name's pattern and the description's length are in the schema (issue 40, item 11).
    ({"name": "bad name!", "game": GAME}, "invalid"),
    ({"name": "ok", "game": "chess"}, "invalid_choice"),
    ({"name": "ok"}, "required"),
    ({"name": "ok", "game": GAME, "description": "x" * 2001}, "max_length"),
    ({"name": 7, "game": GAME}, "invalid"),  # a number is not a name, though DRF would make it "7"
])
def test_bad_bots_are_refused_and_nothing_is_stored(alice_client, alice_bot, payload, code):
    before = snapshot()
    response = alice_client.post("/api/bots/", payload, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (400, code)
    assert snapshot() == before


def test_a_taken_bot_name_is_refused(alice_client, alice_bot):
    """Issue 40, item 11: the request is well formed (the schema accepts it); the name is in
    use: a 409 with the reason, nothing stored."""
    before = snapshot()
    response = alice_client.post("/api/bots/", {"name": "merlin", "game": GAME}, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "name_taken")
    assert "already" in response.json()["error"]["detail"]
    assert snapshot() == before


@pytest.mark.parametrize("content, name", [
    (b"def broken(:\n", "main.py"),
    (b"", "main.py"),
    (b"not a zip", "bot.zip"),
    (GOOD_SOURCE, "bot.exe"),
])
def test_refused_uploads_say_why_and_store_nothing(alice_client, alice_bot, content, name):
    before = snapshot()
    response = upload(alice_client, alice_bot, content, name)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "upload_refused"
    assert response.json()["error"]["detail"]
    assert snapshot() == before


def test_an_upload_over_the_limit_is_413_before_it_is_read(alice_client, alice_bot, settings):
    settings.BOT_UPLOAD_LIMITS = {"max_upload_bytes": 100}
    before = snapshot()
    response = upload(alice_client, alice_bot, b"#" * 101 + b"\n", "main.py")
    assert (response.status_code, response.json()["error"]["code"]) == (413, "upload_too_large")
    big_body = upload(alice_client, alice_bot, b"#" * 50_000 + b"\n", "main.py")
    assert (big_body.status_code, big_body.json()["error"]["code"]) == (413, "upload_too_large")
    assert snapshot() == before


def test_an_upload_without_a_file_is_refused(alice_client, alice_bot):
    response = alice_client.post(f"/api/bots/{alice_bot.pk}/versions/", {}, format="multipart")
    assert (response.status_code, response.json()["error"]["code"]) == (400, "required")


def test_built_in_bots_take_no_uploads_and_have_no_code(builtins, organiser, staff):
    bot = builtins["random"].bot
    assert upload(organiser, bot).status_code == 403
    assert staff.get(f"/api/bots/{bot.pk}/versions/1/code/").status_code == 404


def test_missing_bots_and_versions_are_404(anon, alice_bot):
    assert anon.get("/api/bots/99999/").status_code == 404
    assert anon.get(f"/api/bots/{alice_bot.pk}/versions/7/").status_code == 404
    assert anon.get("/api/bots/99999/versions/").status_code == 404

