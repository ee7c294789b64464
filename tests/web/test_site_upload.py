"""Issue 44.5, a bot's next version uploaded from the site (web.site_bots): the owner's form on
the bot page, the same service and checks as the API. In Chromium, the owner logs in through
the form and uploads the Node.js starter bot's folder zipped as an author would (the row shows
its runtime), then a zip whose arena.json names an unknown runtime (the reason is shown, nothing
is stored). With Django's client: the form is the owner's alone. Screenshots go to
var/test-artifacts/site-upload-<name>.png."""
import io
import zipfile
from pathlib import Path

from bots.models import BotVersion
from bots.services import bot_create
from bots.uploads import pack_directory

from tests.api.conftest import make_user
from .test_viewer_browser import ARTIFACTS, browser, page  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parents[2]
GAME = "sorcado"
UNKNOWN_RUNTIME = b'{"runtime": "ruby", "entry": "main.rb"}'


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def _shot(tab, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"site-upload-{name}.png"), full_page=True)


def test_the_owner_uploads_a_node_bot_and_a_refused_one_from_the_bot_page(page, live_server, live_db):  # noqa: F811
    alice = make_user("alice")
    bot = bot_create(owner=alice, name="owl", game=GAME)
    url = live_server.url
    name, content = pack_directory(ROOT / "examples" / "bots" / "node")

    page.goto(f"{url}/login/?next=/bots/{bot.pk}/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "alice-Secret-123")
    page.locator("#login-form button[type=submit]").click()
    page.wait_for_url(f"{url}/bots/{bot.pk}/")
    page.set_input_files("#upload-file", files=[{"name": name, "mimeType": "application/zip", "buffer": content}])
    page.locator("#upload-form button[type=submit]").click()
    page.wait_for_url(f"{url}/bots/{bot.pk}/?uploaded=1")
    row = page.locator("tr.version-row")
    assert row.count() == 1
    assert row.locator("td.runtime").inner_text() == "node"
    assert "Version v1 is uploaded" in page.inner_text("p.upload-done")
    stored = BotVersion.objects.get(bot=bot)
    assert (stored.number, stored.runtime, stored.filename) == (1, "node", name)
    _shot(page, "done")

    page.set_input_files("#upload-file", files=[{
        "name": "ruby.zip", "mimeType": "application/zip",
        "buffer": _zip({"arena.json": UNKNOWN_RUNTIME, "main.rb": b"puts 1\n"})}])
    with page.expect_response(lambda r: r.url.endswith(f"/bots/{bot.pk}/versions/")) as answer:
        page.locator("#upload-form button[type=submit]").click()
    assert answer.value.status == 400
    page.wait_for_selector("p.upload-error")
    assert "the unknown runtime 'ruby'" in page.inner_text("p.upload-error")
    assert BotVersion.objects.filter(bot=bot).count() == 1  # nothing stored
    _shot(page, "refused")


def test_it_shows_the_form_to_the_owner_only_and_refuses_anyone_else(client, db):
    alice, mallory = make_user("alice"), make_user("mallory")
    bot = bot_create(owner=alice, name="owl", game=GAME)
    source = b"import sys\nfor line in sys.stdin:\n    pass\n"

    assert 'id="upload-form"' not in client.get(f"/bots/{bot.pk}/").content.decode()
    assert client.post(f"/bots/{bot.pk}/versions/", {"file": io.BytesIO(source)}).status_code == 302  # to login
    client.force_login(mallory)
    assert 'id="upload-form"' not in client.get(f"/bots/{bot.pk}/").content.decode()
    upload = io.BytesIO(source)
    upload.name = "main.py"
    assert client.post(f"/bots/{bot.pk}/versions/", {"file": upload}).status_code == 403
    client.force_login(alice)
    assert 'id="upload-form"' in client.get(f"/bots/{bot.pk}/").content.decode()
    missing = client.post(f"/bots/{bot.pk}/versions/", {})
    assert missing.status_code == 400 and "choose a file" in missing.content.decode()
    assert not BotVersion.objects.filter(bot=bot).exists()
    upload = io.BytesIO(source)
    upload.name = "main.py"
    answer = client.post(f"/bots/{bot.pk}/versions/", {"file": upload})
    assert answer.status_code == 302 and answer["Location"] == f"/bots/{bot.pk}/?uploaded=1"
    assert BotVersion.objects.get(bot=bot).runtime == "python"
