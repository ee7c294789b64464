"""bots.uploads: what an upload may be, and unpacking it safely. Pure: no database.

The helpers and BAD_UPLOADS here are reused by test_bot_services.py, which sends the same bad
uploads through the service and checks that nothing is stored.
"""
from __future__ import annotations

import functools
import hashlib
import io
import random
import stat
import struct
import threading
import warnings
import zipfile
import zlib

import pytest

from bots.uploads import MARKER, Limits, UploadRefused, inspect_upload, materialize

GOOD_SOURCE = b'"""A bot."""\nimport json, sys\n\nfor line in sys.stdin:\n    print(json.dumps(None))\n'
HELPER_SOURCE = b"def pick(actions):\n    return actions[0]\n"


def zip_of(*entries, method=zipfile.ZIP_DEFLATED) -> bytes:
    """A zip of (name or ZipInfo, data) entries; duplicate names are written as given. The bytes
    depend only on the entries: a plain name gets a fixed time stamp, not the current time."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Duplicate name": on purpose
        with zipfile.ZipFile(buffer, "w", method) as archive:
            for name, data in entries:
                if isinstance(name, str):
                    name = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
                    name.compress_type = method
                    name.external_attr = 0o600 << 16  # what writestr gives a plain name
                archive.writestr(name, data)
    return buffer.getvalue()


def good_zip() -> bytes:
    folder = zipfile.ZipInfo("lib/")
    folder.external_attr = (stat.S_IFDIR | 0o755) << 16
    return zip_of(("main.py", GOOD_SOURCE), (folder, b""), ("lib/__init__.py", b""),
                  ("lib/helper.py", HELPER_SOURCE), ("data/table.txt", b"1 2 3\n" * 100))


def symlink_entry(name: str, points_to: str) -> tuple[zipfile.ZipInfo, bytes]:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, points_to.encode()


# Offsets of header fields: (local file header, central directory record), struct format.
_FIELDS = {"flags": (6, 8, "<H"), "crc": (14, 16, "<I"), "file_size": (22, 24, "<I")}


def patch_entry(content: bytes, name: str, **fields) -> bytes:
    """Rewrite header fields of entry ``name`` in both its local header and its central directory
    record: zipfile will not write a lying or encrypted entry, so the test forges one."""
    data = bytearray(content)
    header_offset = zipfile.ZipFile(io.BytesIO(content)).getinfo(name).header_offset
    central = data.find(b"PK\x01\x02")
    while data[central + 46:central + 46 + struct.unpack_from("<H", data, central + 28)[0]] != name.encode():
        central = data.find(b"PK\x01\x02", central + 4)
        assert central != -1, name
    for field, value in fields.items():
        local_at, central_at, fmt = _FIELDS[field]
        struct.pack_into(fmt, data, header_offset + local_at, value)
        struct.pack_into(fmt, data, central + central_at, value)
    return bytes(data)


@functools.cache
def zip_bomb(megabytes: int = 50) -> bytes:
    """main.py plus one entry of ``megabytes`` MB of zeros, deflated from a generator: a ~50 KB zip."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("main.py", GOOD_SOURCE)
        with archive.open("zeros.bin", "w") as out:
            for chunk in (bytes(1 << 20) for _ in range(megabytes)):
                out.write(chunk)
    return buffer.getvalue()


def lying_zip(declared: int, *, crc_of_prefix: bool = False) -> bytes:
    """A zip whose data.bin holds 100,000 bytes but whose headers declare ``declared``."""
    data = random.Random(7).randbytes(100_000)  # incompressible: only the forged size is odd
    content = zip_of(("main.py", GOOD_SOURCE), ("data.bin", data))
    fields = {"file_size": declared}
    if crc_of_prefix:
        fields["crc"] = zlib.crc32(data[:declared])
    return patch_entry(content, "data.bin", **fields)


# (id, filename, content, words the reason must contain). Content is a callable: built lazily.
BAD_UPLOADS = [
    ("empty", "main.py", lambda: b"", "empty"),
    ("oversized", "main.py", lambda: b"#" * 1_000_001, "the limit is 1,000,000 bytes"),
    ("not a .py or .zip name", "bot.txt", lambda: GOOD_SOURCE, "neither a Python file"),
    ("no name", "", lambda: GOOD_SOURCE, "file name"),
    ("not UTF-8", "bot.py", lambda: b"x = '\xff\xfe'\n", "not UTF-8"),
    ("syntax error", "bot.py", lambda: b"def broken(:\n    pass\n", "does not compile"),
    ("NUL byte in source", "bot.py", lambda: b"x = 1\x00\n", "does not compile"),
    ("not a zip", "bot.zip", lambda: b"PK but not really a zip archive", "not a valid zip"),
    ("zip without main.py", "bot.zip", lambda: zip_of(("bot.py", GOOD_SOURCE)), "no main.py at its root"),
    ("zip with main.py in a folder", "bot.zip", lambda: zip_of(("mybot/main.py", GOOD_SOURCE)),
     "zip the contents of its folder"),
    ("zip whose main.py does not compile", "bot.zip", lambda: zip_of(("main.py", b"def (:")),
     "main.py does not compile"),
    ("zip whose main.py is not UTF-8", "bot.zip", lambda: zip_of(("main.py", b"\xff")), "not UTF-8"),
    ("symlink entry", "bot.zip",
     lambda: zip_of(("main.py", GOOD_SOURCE), symlink_entry("helper.py", "/etc/passwd")), "symbolic link"),
    ("symlink named main.py", "bot.zip", lambda: zip_of(symlink_entry("main.py", "/etc/passwd")),
     "symbolic link"),
    ("../ path", "bot.zip", lambda: zip_of(("main.py", GOOD_SOURCE), ("../evil.py", b"x = 1")), "'..'"),
    ("../ inside a path", "bot.zip",
     lambda: zip_of(("main.py", GOOD_SOURCE), ("lib/../../evil.py", b"x = 1")), "'..'"),
    ("absolute path", "bot.zip", lambda: zip_of(("main.py", GOOD_SOURCE), ("/tmp/evil.py", b"x = 1")),
     "absolute path"),
    ("backslash", "bot.zip", lambda: zip_of(("main.py", GOOD_SOURCE), ("..\\evil.py", b"x = 1")),
     "backslash"),
    ("drive letter", "bot.zip", lambda: zip_of(("main.py", GOOD_SOURCE), ("C:/evil.py", b"x = 1")),
     "drive letter"),
    ("control character", "bot.zip", lambda: zip_of(("main.py", GOOD_SOURCE), ("a\x07.py", b"")),
     "control character"),
    ("empty path component", "bot.zip", lambda: zip_of(("main.py", GOOD_SOURCE), ("lib//x.py", b"")),
     "empty or '.' component"),
    ("duplicate names", "bot.zip", lambda: zip_of(("main.py", GOOD_SOURCE), ("main.py", b"x = 2")),
     "more than once"),
    ("a file that is also a folder", "bot.zip",
     lambda: zip_of(("main.py", GOOD_SOURCE), ("lib", b""), ("lib/x.py", b"")), "both a file and a folder"),
    ("reserved marker name", "bot.zip", lambda: zip_of(("main.py", GOOD_SOURCE), (MARKER, b"")), "reserved"),
    ("too many files", "bot.zip",
     lambda: zip_of(("main.py", GOOD_SOURCE), *((f"f{i}.txt", b"") for i in range(64))),
     "65 entries (files and folders); the limit is 64"),
    ("zip bomb", "bot.zip", lambda: zip_bomb(), "zip bomb"),
    ("header declares a huge size", "bot.zip", lambda: lying_zip(4_000_000_000), "zip bomb"),
    ("header declares fewer bytes than the data inflates to", "bot.zip", lambda: lying_zip(1000),
     "cannot be read: Bad CRC-32"),
    ("header declares more bytes than the data holds", "bot.zip", lambda: lying_zip(200_000),
     "but its header declares 200,000"),
    ("encrypted entry", "bot.zip",
     lambda: patch_entry(zip_of(("main.py", GOOD_SOURCE)), "main.py", flags=0x1), "encrypted"),
]
BAD_IDS = [case[0] for case in BAD_UPLOADS]


# -- inspect_upload ----------------------------------------------------------------------------

@pytest.mark.parametrize("case", BAD_UPLOADS, ids=BAD_IDS)
def test_it_refuses_a_bad_upload_with_a_clear_reason(case):
    _, filename, content, words = case
    with pytest.raises(UploadRefused) as refused:
        inspect_upload(filename, content())
    assert words in refused.value.reason
    assert isinstance(refused.value, ValueError) and str(refused.value) == refused.value.reason


def test_it_describes_a_single_file():
    info = inspect_upload("C:\\Users\\me\\my_bot.py", GOOD_SOURCE)
    assert (info.kind, info.filename, info.size, info.file_count) == (
        "file", "my_bot.py", len(GOOD_SOURCE), 1)
    assert info.sha256 == hashlib.sha256(GOOD_SOURCE).hexdigest()
    assert info.entries == ("main.py",) and info.unpacked_size == len(GOOD_SOURCE)


def test_it_accepts_a_utf8_file_with_a_byte_order_mark():
    assert inspect_upload("bot.PY", b"\xef\xbb\xbf" + "name = 'sorcière'\n".encode()).kind == "file"


def test_it_describes_a_zip():
    content = good_zip()
    info = inspect_upload("bot.zip", content)
    assert (info.kind, info.filename, info.size) == ("zip", "bot.zip", len(content))
    assert info.sha256 == hashlib.sha256(content).hexdigest()
    assert info.file_count == 4  # the folder entry is not a file
    assert info.unpacked_size == len(GOOD_SOURCE) + len(HELPER_SOURCE) + 600
    assert set(info.entries) == {"main.py", "lib/", "lib/__init__.py", "lib/helper.py", "data/table.txt"}


def test_it_accepts_a_stored_zip_at_the_limits():
    content = zip_of(("main.py", GOOD_SOURCE), *((f"f{i}.txt", b"x" * 10) for i in range(63)),
                     method=zipfile.ZIP_STORED)
    assert inspect_upload("bot.zip", content).file_count == 64


def test_it_refuses_an_archive_that_unpacks_over_the_limit():
    content = zip_of(("main.py", GOOD_SOURCE), ("big.bin", random.Random(7).randbytes(200_000)))
    with pytest.raises(UploadRefused, match="unpacks to 200,... bytes; the limit is 100,000 bytes"):
        inspect_upload("bot.zip", content, Limits(max_unpacked_bytes=100_000))


def test_it_refuses_a_zip_bomb_by_size_even_with_no_ratio_limit():
    with pytest.raises(UploadRefused, match="unpacks to 52,428,... bytes; the limit is 5,000,000"):
        inspect_upload("bot.zip", zip_bomb(), Limits(max_compression_ratio=10**9))


def test_it_takes_the_prefix_of_a_header_that_understates_with_a_matching_crc():
    # Forged size and CRC both describe the first 1,000 bytes: zipfile (and so we) read exactly
    # those. Nothing beyond the declared size is ever inflated, so no bomb can hide there.
    info = inspect_upload("bot.zip", lying_zip(1000, crc_of_prefix=True))
    assert info.unpacked_size == len(GOOD_SOURCE) + 1000


# -- materialize -------------------------------------------------------------------------------

def test_it_materializes_a_single_file_as_main_py(tmp_path):
    target = tmp_path / "code" / "abc"
    assert materialize(GOOD_SOURCE, "file", target) == target
    assert (target / "main.py").read_bytes() == GOOD_SOURCE
    assert sorted(p.name for p in target.iterdir()) == [MARKER, "main.py"]


def test_it_materializes_a_zip(tmp_path):
    target = materialize(good_zip(), "zip", tmp_path / "abc")
    assert (target / "main.py").read_bytes() == GOOD_SOURCE
    assert (target / "lib" / "helper.py").read_bytes() == HELPER_SOURCE
    assert (target / "lib" / "__init__.py").read_bytes() == b""
    assert (target / "data" / "table.txt").read_text() == "1 2 3\n" * 100
    assert not any(p.is_symlink() for p in target.rglob("*"))


def test_it_is_idempotent(tmp_path):
    target = materialize(good_zip(), "zip", tmp_path / "abc")
    inode = (target / "main.py").stat().st_ino
    assert materialize(good_zip(), "zip", tmp_path / "abc") == target
    assert (target / "main.py").stat().st_ino == inode  # not written again
    assert [p.name for p in tmp_path.iterdir()] == ["abc"]  # no staging directory left behind


def test_it_is_safe_when_workers_race(tmp_path):
    results, errors = [], []
    content = good_zip()

    def run():
        try:
            results.append(materialize(content, "zip", tmp_path / "abc"))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and results == [tmp_path / "abc"] * 8
    assert [p.name for p in tmp_path.iterdir()] == ["abc"]


@pytest.mark.parametrize("case", [c for c in BAD_UPLOADS if c[1] == "bot.zip" and c[0] not in (
    "zip whose main.py does not compile", "zip whose main.py is not UTF-8")], ids=lambda c: c[0])
def test_it_refuses_to_materialize_a_bad_zip_and_leaves_nothing(tmp_path, case):
    _, _, content, words = case
    with pytest.raises(UploadRefused) as refused:
        materialize(content(), "zip", tmp_path / "abc")
    assert words in refused.value.reason
    assert list(tmp_path.iterdir()) == []


def test_it_never_overwrites_a_directory_it_did_not_write(tmp_path):
    (tmp_path / "abc").mkdir()
    with pytest.raises(FileExistsError, match="not written by materialize"):
        materialize(GOOD_SOURCE, "file", tmp_path / "abc")
    materialize(GOOD_SOURCE, "file", tmp_path / "def")
    with pytest.raises(FileExistsError, match="holds other code"):
        materialize(b"x = 2\n", "file", tmp_path / "def")


def test_it_refuses_an_unknown_kind(tmp_path):
    with pytest.raises(ValueError, match="unknown upload kind"):
        materialize(GOOD_SOURCE, "tarball", tmp_path / "abc")
