"""Issue 44.4-44.5: runtimes. "A bot declares its runtime in a small manifest in its upload (a plain
main.py stays a Python bot)"; "a manifest that is malformed, names an unknown runtime, lacks its
entry point, or (for native) holds no static x86_64 executable is refused at upload with the
reason, and nothing is stored"; "hello says the runtime and its version"; "the four runtimes
play a tournament against the built-in bots under the sandbox" (uploaded through the API).

The hostile suite per runtime is test_runtimes_hostile.py; the starter bots' whole matches of
every game are in test_docs_examples.py.
"""
from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import shutil
import stat
import struct
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from bots.models import Bot, BotVersion
from bots.sandbox import RUNTIMES, SandboxedBot, TimeControl, manifest_parse
from bots.sandbox.runtimes import MANIFEST
from bots.services import bot_create, bot_version_upload
from bots.uploads import UploadRefused, inspect_upload, materialize, pack_directory
from replays.models import Match
from replays.selectors import match_records

from .runtimes import EXAMPLES, PROTOCOL, ROOT, compile_static, require_runtime, starter_folder, unavailable
from .test_uploads import GOOD_SOURCE, zip_of

JS = b'console.log("never run here")\n'


@pytest.fixture(scope="module")
def static_elf(tmp_path_factory) -> bytes:
    """A static x86_64 executable, built with the documented gcc command's flags."""
    if not shutil.which("gcc"):
        unavailable("gcc is not installed (apt-get install gcc libc6-dev)")
    where = tmp_path_factory.mktemp("elf")
    (where / "main.c").write_text("int main(void) { return 0; }\n")
    compile_static(where, ["main.c"])
    return (where / "main").read_bytes()


def native_zip(binary: bytes, **extra: bytes) -> bytes:
    return zip_of((MANIFEST, b'{"runtime": "native"}'), ("main", binary), *extra.items())


# -- the manifest ----------------------------------------------------------------------------------

def test_a_plain_main_py_stays_a_python_bot():
    assert inspect_upload("bot.py", GOOD_SOURCE).runtime == "python"
    info = inspect_upload("bot.zip", zip_of(("main.py", GOOD_SOURCE)))
    assert (info.runtime, info.entry) == ("python", "main.py")


@pytest.mark.parametrize("runtime, files, entry", [
    ("python", {"bot.py": GOOD_SOURCE}, "bot.py"),
    ("python-numeric", {"main.py": GOOD_SOURCE}, "main.py"),
    ("node", {"main.js": JS}, "main.js"),
    ("node", {"src/bot.js": JS}, "src/bot.js"),
])
def test_the_manifest_names_the_runtime_and_its_entry(runtime, files, entry):
    manifest = {"runtime": runtime} | ({"entry": entry} if entry != RUNTIMES[runtime].entry else {})
    info = inspect_upload("bot.zip", zip_of((MANIFEST, json.dumps(manifest).encode()), *files.items()))
    assert (info.runtime, info.entry) == (runtime, entry)


BAD_MANIFESTS = [
    ("not JSON", b'{"runtime": node}', {"main.js": JS}, "arena.json is not JSON"),
    ("not an object", b'["node"]', {"main.js": JS}, "must be a JSON object"),
    ("no runtime", b'{"entry": "main.js"}', {"main.js": JS}, "must name a runtime"),
    ("unknown runtime", b'{"runtime": "ruby"}', {"main.rb": b"puts 1"},
     "names the unknown runtime 'ruby'; the runtimes are python, python-numeric, node, native"),
    ("unknown key", b'{"runtime": "node", "memory_mb": 4096}', {"main.js": JS}, "unknown key(s) 'memory_mb'"),
    ("entry outside", b'{"runtime": "node", "entry": "../main.js"}', {"main.js": JS}, "must be a relative path"),
    ("no entry point", b'{"runtime": "node"}', {"bot.js": JS},
     "the archive has no main.js at its root, the entry point of its node runtime"),
    ("named entry missing", b'{"runtime": "python", "entry": "bot.py"}', {"main.py": GOOD_SOURCE},
     "the archive has no bot.py at its root"),
    ("python entry does not compile", b'{"runtime": "python-numeric"}', {"main.py": b"def (:\n"},
     "main.py does not compile"),
    ("node entry not text", b'{"runtime": "node"}', {"main.js": b"\x00\x01\x02"}, "holds NUL bytes"),
    ("native entry not ELF", b'{"runtime": "native"}', {"main": b"#!/bin/sh\necho hi\n"},
     "main is not an ELF executable"),
]


@pytest.mark.parametrize("case", BAD_MANIFESTS, ids=[c[0] for c in BAD_MANIFESTS])
def test_a_bad_manifest_is_refused_with_the_reason(case):
    _, manifest, files, words = case
    with pytest.raises(UploadRefused) as refused:
        inspect_upload("bot.zip", zip_of((MANIFEST, manifest), *files.items()))
    assert words in refused.value.reason


def test_a_zip_without_main_py_or_a_manifest_says_both():
    with pytest.raises(UploadRefused, match=r"no main.py at its root.*\(and no arena.json naming another runtime\)"):
        inspect_upload("bot.zip", zip_of(("main.js", JS)))


def test_a_manifest_parse_is_the_one_the_sandbox_reads():
    assert manifest_parse(None).runtime.name == "python"
    assert manifest_parse(b'{"runtime": "native", "entry": "bin/bot"}').entry == "bin/bot"


# -- native: a static x86_64 executable, nothing else -----------------------------------------------

def test_a_static_x86_64_executable_is_accepted_and_unpacked_executable(static_elf, tmp_path):
    content = native_zip(static_elf, **{"README": b"notes"})
    info = inspect_upload("bot.zip", content)
    assert (info.runtime, info.entry) == ("native", "main")
    tmp_path.chmod(0o755)
    code = materialize(content, info.kind, tmp_path / "code")
    assert stat.S_IMODE((code / "main").stat().st_mode) == 0o755  # the runtime executes it
    assert stat.S_IMODE((code / "README").stat().st_mode) == 0o644


def _patched(binary: bytes, offset: int, fmt: str, value: int) -> bytes:
    data = bytearray(binary)
    struct.pack_into(fmt, data, offset, value)
    return bytes(data)


@pytest.mark.parametrize("patch, words", [
    ((4, "<B", 1), "not a 64-bit little-endian ELF file (class 1"),  # ELFCLASS32
    ((5, "<B", 2), "not a 64-bit little-endian ELF file"),  # big-endian
    ((18, "<H", 183), "built for ELF machine 183, not x86_64"),  # aarch64
    ((16, "<H", 1), "an ELF file of type 1, not an executable"),  # a relocatable object
], ids=["32-bit", "big-endian", "aarch64", "object-file"])
def test_an_elf_file_of_another_class_machine_or_type_is_refused(static_elf, patch, words):
    with pytest.raises(UploadRefused, match=re.escape(words)):
        inspect_upload("bot.zip", native_zip(_patched(static_elf, *patch)))


def test_a_dynamically_linked_executable_is_refused(static_elf, tmp_path):  # static_elf: gcc is here
    """PT_INTERP names ld.so: the sandbox has neither it nor the libraries it would load."""
    (tmp_path / "main.c").write_text("int main(void) { return 0; }\n")
    subprocess.run(["gcc", "-O2", "-o", "main", "main.c"], cwd=tmp_path, check=True)
    with pytest.raises(UploadRefused, match="dynamically linked .*gcc -static -O2"):
        inspect_upload("bot.zip", native_zip((tmp_path / "main").read_bytes()))


# -- nothing stored -----------------------------------------------------------------------------------

@pytest.fixture
def alice(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username="alice", password="alice-Secret-123")


def api_client(user) -> APIClient:
    from api.services import token_create

    client = APIClient()
    _, plaintext = token_create(user=user, name="tests")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plaintext}")
    return client


def api_upload(client, bot, name: str, content: bytes):
    named = io.BytesIO(content)
    named.name = name
    return client.post(f"/api/bots/{bot.pk}/versions/", {"file": named}, format="multipart")


@pytest.mark.parametrize("case", BAD_MANIFESTS, ids=[c[0] for c in BAD_MANIFESTS])
def test_a_refused_manifest_stores_nothing_through_the_service_or_the_api(alice, case):
    _, manifest, files, words = case
    bot = bot_create(owner=alice, name="rt", game="sorcado")
    content = zip_of((MANIFEST, manifest), *files.items())
    with pytest.raises(UploadRefused, match=re.escape(words)):
        bot_version_upload(bot=bot, filename="bot.zip", content=content)
    response = api_upload(api_client(alice), bot, "bot.zip", content)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "upload_refused"
    assert words in response.json()["error"]["detail"]
    assert not BotVersion.objects.filter(bot=bot).exists()
    if case[0] == "unknown runtime":  # the answer docs/protocol.md prints, as it is
        [printed] = re.findall(r"```json\n(\{\"error\".*?)```", PROTOCOL, re.S)
        assert response.json() == json.loads(printed)


# -- hello: the runtime and its version ---------------------------------------------------------------

@pytest.mark.parametrize("runtime", sorted(RUNTIMES))
def test_hello_names_the_runtime_and_its_version(sandbox_required, tmp_path, runtime):
    """The version strings are the host's: Python's own, numpy's pinned one, `node --version`."""
    folder = starter_folder(runtime, tmp_path)
    from .runtimes import uploaded

    bot = SandboxedBot(uploaded(folder, tmp_path), time_control=TimeControl())
    try:
        hello = bot.runtime_json()
    finally:
        bot.close()
    assert hello["name"] == runtime
    if runtime.startswith("python"):
        assert hello["version"].startswith("Python 3.11")
    if runtime == "python-numeric":
        pin = re.search(r"^numpy==(\S+)", (ROOT / "requirements-numeric.txt").read_text(), re.M).group(1)
        assert hello["version"].endswith(f", numpy {pin}")
    if runtime == "node":
        node = subprocess.run([RUNTIMES["node"].command[0], "--version"], capture_output=True, text=True)
        assert hello["version"] == node.stdout.strip()
    if runtime == "native":
        assert hello["version"].startswith("static x86_64 Linux executable")


# -- a tournament per runtime, uploaded through the API ---------------------------------------------

@pytest.mark.parametrize("runtime", sorted(RUNTIMES))
def test_each_runtime_plays_a_tournament_against_the_built_in_bots(
        sandbox_required, alice, tmp_path, capsys, runtime):
    """The starter bot, zipped as an author would (pack_directory: what botcheck and uploadbot
    do with a folder) and uploaded through the API, plays a round robin of one-round Trap the
    Wizard matches against the game's built-in random and greedy bots in the sandbox: every
    match ends and validates, the bot acts in each of its matches and never faults."""
    require_runtime(runtime)
    folder = starter_folder(runtime, tmp_path)
    client = api_client(alice)
    created = client.post("/api/bots/", {"name": f"starter-{runtime}", "game": "trap-the-wizard"}, format="json")
    assert created.status_code == 201, created.json()
    bot = Bot.objects.get(pk=created.json()["id"])
    filename, content = pack_directory(folder)
    response = api_upload(client, bot, filename, content)
    assert response.status_code == 201, response.json()
    assert BotVersion.objects.get(bot=bot).runtime == runtime
    assert response.json()["runtime"] == runtime  # the API's version says it too
    call_command("tournament", "--game", "trap-the-wizard", "--format", "round-robin",
                 "--bots", f"alice/starter-{runtime},random,greedy", "--options", '{"rounds": 1}',
                 "--time-control", '{"move_ms": 1000, "bank_ms": 10000}')
    matches = Match.objects.filter(pairing_game__pairing__tournament__game="trap-the-wizard")
    assert matches.count() == 3 and all(m.status == Match.Status.ENDED for m in matches)
    played = 0
    for match in matches:
        records = match_records(match=match)
        seat = next((i for i, s in enumerate(records[0]["payload"]["seats"]) if s["bot"] == bot.name), None)
        faults = [r for r in records if r["kind"] == "forfeit" or "fault" in r["payload"]]
        assert not faults, faults[:1]
        if seat is not None:
            played += 1
            assert any(r["kind"] == "action" and r["seat"] == seat for r in records)
    assert played == 2  # a round robin of three: two matches each
    assert f"starter-{runtime}" in capsys.readouterr().out  # in the standings printed


# -- the project's own files install every runtime --------------------------------------------------

def test_the_numeric_set_is_pinned_with_hashes():
    lines = [line for line in (ROOT / "requirements-numeric.txt").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    pins = [line for line in lines if not line.lstrip().startswith("--hash")]
    assert pins and all(re.fullmatch(r"[a-z0-9-]+==[0-9.]+ \\", pin) for pin in pins), pins
    assert sum("--hash=sha256:" in line for line in lines) >= 2 * len(pins)  # x86_64 and aarch64


def test_the_dockerfile_and_dev_py_install_what_each_runtime_needs():
    docker = (ROOT / "Dockerfile").read_text()
    apt = next(line for line in docker.splitlines() if "apt-get install" in line)
    assert "bubblewrap" in apt and "nodejs" in apt
    assert re.search(r"pip install .*--require-hashes.*\\\n.*--target /opt/arena/python-numeric "
                     r"-r requirements-numeric.txt", docker)
    assert "ENV ARENA_PYTHON_NUMERIC=/opt/arena/python-numeric" in docker
    dev = (ROOT / "dev.py").read_text()
    assert '"nodejs"' in dev and '"gcc libc6-dev"' in dev and "requirements-numeric.txt" in dev
    assert "--require-hashes" in dev and "ensure_runtimes(" in dev.split("def demo()", 1)[1]


def test_every_runtime_has_a_starter_bot_and_a_section_of_the_protocol_page():
    protocol = (ROOT / "docs" / "protocol.md").read_text()
    for name, runtime in RUNTIMES.items():
        folder = EXAMPLES / name
        assert folder.is_dir(), name
        manifest = folder / MANIFEST
        if manifest.exists():
            assert manifest_parse(manifest.read_bytes()).runtime.name == name
            assert f"```json\n{manifest.read_text().strip()}\n```" in protocol  # shown as it is
        assert f"\n### {name}\n" in protocol
        source = runtime.entry + (".c" if name == "native" else "")
        assert (folder / source).is_file(), (name, source)


def test_a_folder_packs_the_same_bytes_every_time(tmp_path):
    """The same files, the same upload: uploading the folder again finds its version."""
    shutil.copytree(EXAMPLES / "node", tmp_path / "bot")
    (tmp_path / "bot" / ".hidden").write_text("left out")
    first = pack_directory(tmp_path / "bot")
    assert first == pack_directory(tmp_path / "bot") and first[0] == "bot.zip"
    assert sorted(zip_entry for zip_entry in inspect_upload(*first).entries) == ["arena.json", "main.js"]


# -- botcheck and uploadbot take a runtime's folder ----------------------------------------------------

@pytest.mark.parametrize("runtime", sorted(RUNTIMES))
def test_botcheck_plays_each_runtime_s_starter_folder(db, sandbox_required, tmp_path, capsys, runtime):
    """The documented command, `manage.py botcheck examples/bots/<runtime> --game G`, on a copy
    built as the docs say: it names the runtime and plays a whole match without a fault."""
    folder = starter_folder(runtime, tmp_path)
    call_command("botcheck", str(folder), "--game", "trap-the-wizard", "--options", '{"rounds": 1}', "-v", "2")
    out = capsys.readouterr().out
    entry = RUNTIMES[runtime].entry
    assert f"runtime: {runtime} (entry point {entry})" in out, out
    assert "no faults: your bot played the whole match" in out, out[-2000:]
    assert f"on {runtime}" in out  # the starter's log of its hello's runtime


def test_uploadbot_zips_a_folder_and_records_its_runtime(db, sandbox_required, tmp_path, capsys):
    folder = starter_folder("node", tmp_path)
    call_command("uploadbot", str(folder), "--game", "sorcado", "--owner", "carol", "--name", "js")
    assert "carol/js version 1 stored" in capsys.readouterr().out
    version = BotVersion.objects.get(bot__name="js")
    assert (version.runtime, version.format, version.filename) == ("node", "zip", f"{folder.name}.zip")
    call_command("uploadbot", str(folder), "--game", "sorcado", "--owner", "carol", "--name", "js")
    assert "already holds these bytes" in capsys.readouterr().out  # packed alike: the same version


def test_a_host_without_a_runtime_refuses_its_bots_with_what_to_install(monkeypatch, tmp_path):
    """A worker without Node.js, or without python-numeric's environment, says so (the driver
    then fails the match's attempt, as without bubblewrap), never a crash blamed on the bot."""
    from bots.sandbox import SandboxUnavailable, jail, runtime_check, runtimes

    monkeypatch.setattr(runtimes, "PYTHON_NUMERIC_DIR", str(tmp_path / "absent"))
    with pytest.raises(SandboxUnavailable, match=r"'python-numeric' cannot run here: .*absent is missing \(python3 dev.py"):
        runtime_check(RUNTIMES["python-numeric"])
    private = tmp_path / "private" / "numeric"
    private.mkdir(parents=True)
    (tmp_path / "private").chmod(0o700)
    monkeypatch.setattr(runtimes, "PYTHON_NUMERIC_DIR", str(private))
    monkeypatch.setattr(jail, "_STAGED", {})
    # Out of every other uid's reach, with no temporary directory to copy it to: named.
    monkeypatch.setattr(jail, "_searchable", lambda folder: False)
    with pytest.raises(SandboxUnavailable, match="out of reach of the bot's uid, and so is every temporary"):
        runtime_check(RUNTIMES["python-numeric"], "userns")
    missing_node = dataclasses.replace(RUNTIMES["node"], command=(str(tmp_path / "node"), "{entry}"))
    with pytest.raises(SandboxUnavailable, match=r"node is not installed \(apt-get install nodejs\)"):
        runtime_check(missing_node)
    assert jail.MOUNTS["python-numeric"][1] == "/opt/arena/python-numeric"


def test_a_private_numeric_environment_is_bound_from_a_copy_every_uid_reaches(monkeypatch, tmp_path):
    """A checkout under a private directory (``mktemp -d``: mode 0700) holds python-numeric's
    environment in its var/runtimes, which bwrap could not reach in ``userns`` mode (it runs as
    the bot's uid there): its bots were refused. As for the `games` package, the jail binds a
    copy staged once per process where every uid reaches it, files and executables alike."""
    from bots.sandbox import jail, runtime_check, runtimes

    private = tmp_path / "private" / "python-numeric"
    (private / "numpy").mkdir(parents=True)
    (private / "numpy" / "__init__.py").write_text("__version__ = 'private'\n")
    (private / "numpy" / "__init__.py").chmod(0o600)
    (private / "bin").mkdir()
    (private / "bin" / "f2py").write_text("#!/bin/sh\n")
    (private / "bin" / "f2py").chmod(0o700)
    (tmp_path / "private").chmod(0o700)
    monkeypatch.setattr(runtimes, "PYTHON_NUMERIC_DIR", str(private))
    monkeypatch.setattr(jail, "_STAGED", {})
    runtime_check(RUNTIMES["python-numeric"], "userns")
    staged = Path(jail.MOUNTS["python-numeric"][0]())
    assert staged != private and staged.name == "python-numeric"
    assert jail._world_readable(staged) and not jail._world_readable(private)
    assert (staged / "numpy" / "__init__.py").read_text() == "__version__ = 'private'\n"
    assert os.access(staged / "bin" / "f2py", os.X_OK) and (staged / "bin" / "f2py").stat().st_mode & 0o001
    assert Path(jail.MOUNTS["python-numeric"][0]()) == staged  # staged once
