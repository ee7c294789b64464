"""bots.services and bots.selectors: bots, immutable versions, built-in bots as rows."""
from __future__ import annotations

import hashlib
import threading

import pytest
from django.db import connection

from bots.models import Bot, BotVersion
from bots.selectors import bot_list_for_user, bot_version_latest, bot_versions
from bots.services import (bot_create, bot_version_code_dir, bot_version_upload,
                           builtin_bot_versions)
from bots.uploads import MARKER, UploadRefused
from games.engine import registry

from .test_uploads import BAD_IDS, BAD_UPLOADS, GOOD_SOURCE, good_zip

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob")


@pytest.fixture
def bot(alice):
    return bot_create(owner=alice, name="merlin", game="trap-the-wizard", description="Greedy-ish.")


@pytest.fixture
def code_dir(settings, tmp_path):
    settings.BOT_CODE_DIR = tmp_path / "bot-code"
    return settings.BOT_CODE_DIR


def _sha(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


# -- bot_create --------------------------------------------------------------------------------

def test_it_creates_an_uploaded_bot(bot, alice):
    assert (bot.owner, bot.name, bot.game, bot.kind, bot.builtin_name) == (
        alice, "merlin", "trap-the-wizard", Bot.Kind.UPLOADED, "")
    assert bot_version_latest(bot=bot) is None


def test_it_refuses_an_unknown_game_and_names_the_known_ones(alice):
    with pytest.raises(ValueError, match="unknown game 'chess'.*sorcado.*trap-the-wizard"):
        bot_create(owner=alice, name="merlin", game="chess")
    assert not Bot.objects.exists()


@pytest.mark.parametrize("name", ["", "x" * 65, "has space", "slash/y", "dot.py", "émile", "a\n"])
def test_it_refuses_a_bad_name(alice, name):
    with pytest.raises(ValueError, match="1-64 letters, digits"):
        bot_create(owner=alice, name=name, game="sorcado")
    assert not Bot.objects.exists()


def test_it_refuses_a_taken_name_but_not_the_same_name_elsewhere(bot, alice, bob):
    with pytest.raises(ValueError, match="already have a bot named 'merlin'"):
        bot_create(owner=alice, name="merlin", game="trap-the-wizard")
    bot_create(owner=alice, name="merlin", game="sorcado")
    bot_create(owner=bob, name="merlin", game="trap-the-wizard")
    bot_create(owner=alice, name="random", game="trap-the-wizard")  # a built-in's name is free
    assert Bot.objects.filter(name="merlin").count() == 3


def test_it_refuses_a_bot_without_an_owner():
    with pytest.raises(ValueError, match="needs a saved owner"):
        bot_create(owner=None, name="merlin", game="sorcado")


# -- bot_version_upload ------------------------------------------------------------------------

def test_it_stores_versions_one_then_two_with_their_sha256(bot):
    first = bot_version_upload(bot=bot, filename="merlin.py", content=GOOD_SOURCE)
    archive = good_zip()
    second = bot_version_upload(bot=bot, filename="merlin.zip", content=archive)
    assert [(v.number, v.format, v.filename, v.sha256, v.size, v.file_count)
            for v in bot_versions(bot=bot)] == [
        (1, "file", "merlin.py", _sha(GOOD_SOURCE), len(GOOD_SOURCE), 1),
        (2, "zip", "merlin.zip", _sha(archive), len(archive), 4)]
    first.refresh_from_db()
    second.refresh_from_db()
    assert bytes(first.archive) == GOOD_SOURCE and bytes(second.archive) == archive
    assert bot_version_latest(bot=bot).pk == second.pk


def test_it_numbers_versions_per_bot(bot, alice):
    other = bot_create(owner=alice, name="morgana", game="trap-the-wizard")
    bot_version_upload(bot=bot, filename="a.py", content=GOOD_SOURCE)
    assert bot_version_upload(bot=other, filename="a.py", content=GOOD_SOURCE).number == 1
    assert bot_version_upload(bot=bot, filename="a.py", content=GOOD_SOURCE + b"# v2\n").number == 2


def test_the_same_bytes_again_answer_with_the_version_that_holds_them(bot):
    """Issue 13.18: no silent duplicate; other bytes make the next version, and going back to
    the first bytes answers version 1 again."""
    first = bot_version_upload(bot=bot, filename="a.py", content=GOOD_SOURCE)
    again = bot_version_upload(bot=bot, filename="b.py", content=GOOD_SOURCE)
    assert (first.created, again.created, again.pk, again.number) == (True, False, first.pk, 1)
    second = bot_version_upload(bot=bot, filename="a.py", content=GOOD_SOURCE + b"# v2\n")
    back = bot_version_upload(bot=bot, filename="a.py", content=GOOD_SOURCE)
    assert (second.number, back.number, back.created) == (2, 1, False)
    assert bot.versions.count() == 2


@pytest.mark.parametrize("case", BAD_UPLOADS, ids=BAD_IDS)
def test_it_stores_nothing_for_a_refused_upload(bot, case):
    _, filename, content, words = case
    existing = bot_version_upload(bot=bot, filename="merlin.py", content=GOOD_SOURCE)
    before = list(BotVersion.objects.values_list("id", "bot", "number", "sha256", "size", "archive"))
    with pytest.raises(UploadRefused) as refused:
        bot_version_upload(bot=bot, filename=filename, content=content())
    assert words in refused.value.reason
    after = list(BotVersion.objects.values_list("id", "bot", "number", "sha256", "size", "archive"))
    assert [row[:5] for row in after] == [row[:5] for row in before]
    assert [bytes(row[5]) for row in after] == [GOOD_SOURCE]
    assert bot_version_latest(bot=bot).pk == existing.pk


def test_it_uses_the_configured_upload_limits(bot, settings):
    settings.BOT_UPLOAD_LIMITS = {"max_upload_bytes": 10}
    with pytest.raises(UploadRefused, match="the limit is 10 bytes"):
        bot_version_upload(bot=bot, filename="merlin.py", content=GOOD_SOURCE)
    assert not BotVersion.objects.exists()


def test_it_refuses_uploads_to_a_builtin_bot():
    builtin = builtin_bot_versions(game="sorcado")["random"].bot
    with pytest.raises(ValueError, match="built-in bot"):
        bot_version_upload(bot=builtin, filename="merlin.py", content=GOOD_SOURCE)
    assert list(builtin.versions.values_list("number", flat=True)) == [1]


def test_versions_are_immutable(bot):
    version = bot_version_upload(bot=bot, filename="merlin.py", content=GOOD_SOURCE)
    version.filename = "other.py"
    with pytest.raises(ValueError, match="immutable"):
        version.save()
    assert BotVersion.objects.get(pk=version.pk).filename == "merlin.py"


# -- built-in bots -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["trap-the-wizard", "sorcado"])
def test_builtin_bot_versions_cover_every_builtin_bot_idempotently(game):
    first = builtin_bot_versions(game=game)
    second = builtin_bot_versions(game=game)
    # The game's own bots and the generic search bot (issue 15.2: "registered as the built-in
    # bot search for every game").
    assert set(first) == set(registry.get(game).bots()) == set(registry.get(game).builtin_bots()) | {"search"}
    assert {n: v.pk for n, v in first.items()} == {n: v.pk for n, v in second.items()}
    assert Bot.objects.filter(game=game).count() == len(first)
    assert BotVersion.objects.filter(bot__game=game).count() == len(first)
    for name, version in first.items():
        assert (version.bot.kind, version.bot.owner, version.bot.builtin_name, version.bot.name) == (
            Bot.Kind.BUILTIN, None, name, name)
        assert (version.number, version.format, version.archive) == (1, BotVersion.Format.BUILTIN, None)
        assert version.sha256 == _sha(f"builtin:{game}:{name}".encode())
    # thinking=False: the same rows, but the bots that think for their whole clock (search)
    quick = builtin_bot_versions(game=game, thinking=False)
    assert "search" not in quick and "random" in quick
    assert {n: v.pk for n, v in quick.items()} == {
        n: v.pk for n, v in first.items() if not registry.get(game).bots()[n].thinks}


def test_builtin_bots_of_two_games_live_side_by_side():
    trap, sorcado = builtin_bot_versions(game="trap-the-wizard"), builtin_bot_versions(game="sorcado")
    assert trap["random"].bot_id != sorcado["random"].bot_id


def test_builtin_bot_versions_refuses_an_unknown_game():
    with pytest.raises(ValueError, match="unknown game"):
        builtin_bot_versions(game="chess")


# -- code directories --------------------------------------------------------------------------

def test_it_materializes_a_version_under_its_sha256(bot, code_dir):
    version = bot_version_upload(bot=bot, filename="merlin.zip", content=good_zip())
    path = bot_version_code_dir(version=version)
    assert path == code_dir / version.sha256
    assert (path / "main.py").read_bytes() == GOOD_SOURCE and (path / MARKER).is_file()
    reread = bot_versions(bot=bot).get()  # archive deferred: read on demand
    assert bot_version_code_dir(version=reread) == path


def test_it_has_no_code_directory_for_a_builtin_bot(code_dir):
    with pytest.raises(ValueError, match="runs in process"):
        bot_version_code_dir(version=builtin_bot_versions(game="sorcado")["random"])


def test_it_refuses_code_that_does_not_match_its_sha256(bot, code_dir):
    forged = BotVersion.objects.create(bot=bot, number=1, format="file", sha256="0" * 64,
                                       size=len(GOOD_SOURCE), filename="x.py", archive=GOOD_SOURCE,
                                       file_count=1, unpacked_size=len(GOOD_SOURCE))
    with pytest.raises(ValueError, match="does not match its sha256"):
        bot_version_code_dir(version=forged)
    assert not code_dir.exists()


# -- selectors ---------------------------------------------------------------------------------

def test_bot_list_for_user_lists_only_their_bots(bot, alice, bob):
    from django.contrib.auth.models import AnonymousUser

    builtin_bot_versions(game="sorcado")
    bot_create(owner=bob, name="morgana", game="sorcado")
    second = bot_create(owner=alice, name="arthur", game="sorcado")
    assert list(bot_list_for_user(user=alice)) == [second, bot]
    assert list(bot_list_for_user(user=AnonymousUser())) == []


# -- admin -------------------------------------------------------------------------------------

def test_admin_shows_versions_read_only_without_their_bytes(admin_client, bot):
    version = bot_version_upload(bot=bot, filename="merlin.py", content=b"SECRET = 'abracadabra'\n")
    for url in ("/admin/bots/bot/", f"/admin/bots/bot/{bot.pk}/change/", "/admin/bots/botversion/",
                f"/admin/bots/botversion/{version.pk}/change/"):
        page = admin_client.get(url)
        assert page.status_code == 200, url
        assert b"abracadabra" not in page.content
    assert version.sha256.encode() in admin_client.get("/admin/bots/botversion/").content
    assert admin_client.get("/admin/bots/botversion/add/").status_code == 403
    assert admin_client.get(f"/admin/bots/botversion/{version.pk}/delete/").status_code == 403


# -- concurrency (PostgreSQL: SQLite serializes writers anyway) -------------------------------

def _in_threads(count: int, work) -> list:
    barrier, results, errors = threading.Barrier(count), [], []

    def run():
        try:
            barrier.wait()
            results.append(work())
        except Exception as exc:  # reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_uploads_get_consecutive_numbers(bot):
    counter = iter(range(6))
    versions = _in_threads(6, lambda: bot_version_upload(
        bot=bot, filename="m.py", content=GOOD_SOURCE + f"# upload {next(counter)}\n".encode()))
    assert sorted(v.number for v in versions) == [1, 2, 3, 4, 5, 6]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_builtin_bot_versions_create_each_bot_once():
    results = _in_threads(6, lambda: {n: v.pk for n, v in builtin_bot_versions(game="sorcado").items()})
    assert all(result == results[0] for result in results)
    assert Bot.objects.filter(game="sorcado").count() == len(results[0])
    assert BotVersion.objects.count() == len(results[0])
