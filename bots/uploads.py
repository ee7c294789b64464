"""Checking an uploaded bot before anything is stored, and unpacking it for a run. No Django.

An upload is either a single Python file (it becomes ``main.py``) or a zip archive with its entry
point at its root: ``main.py``, or the entry of the runtime its ``arena.json`` manifest names
(bots/sandbox/runtimes.py; docs/protocol.md, "Runtimes"). ``inspect_upload`` refuses anything
that is not plainly that, with a reason a person can act on: a malformed manifest, an unknown
runtime, a missing entry point, an entry its runtime cannot start (Python that does not compile,
for ``native`` anything but a static x86_64 Linux executable). ``materialize`` writes an
accepted upload into a directory, repeating every path and size check, because the bytes it gets
come back from the database and the checks cost little next to running a bot.

Zip bombs: the declared sizes in the central directory are checked first, then every entry is
actually inflated in chunks while the real bytes are counted, so a header that lies about its
size cannot make us write (or hold) more than the limits allow.
"""
from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import stat
import struct
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

from .sandbox.runtimes import MANIFEST, ManifestError, manifest_parse

ENTRY_POINT = "main.py"  # of a bot without a manifest (the python runtime)
# Written last into a materialized directory: a directory holding it is complete.
MARKER = ".arena-materialized"
CHUNK = 64 * 1024
KINDS = ("file", "zip")
# zipfile inflates these with the standard library alone (workers need nothing else).
SUPPORTED_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)
_DRIVE = re.compile(r"^[A-Za-z]:")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class UploadRefused(ValueError):
    """The upload is not a bot we will store or run; ``reason`` says why, for the uploader."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Limits:
    max_upload_bytes: int = 1_000_000
    max_files: int = 64  # entries of a zip, folders included
    max_unpacked_bytes: int = 5_000_000
    max_compression_ratio: int = 100  # unpacked bytes per uploaded byte, whole archive


@dataclass(frozen=True)
class UploadInfo:
    kind: str  # "file" or "zip"
    filename: str  # the uploaded name without any directory part
    sha256: str  # of the uploaded bytes
    size: int
    file_count: int  # files (not folders) the code unpacks to
    unpacked_size: int  # bytes the code unpacks to (counted, not declared)
    entries: tuple[str, ...]  # the unpacked paths, folders ending in "/"
    runtime: str = "python"  # the runtime its arena.json names (none: python)
    entry: str = ENTRY_POINT  # the entry point the runtime starts


def inspect_upload(filename: str, content: bytes, limits: Limits = Limits()) -> UploadInfo:
    """Check an upload in full and describe it; raise UploadRefused with the first problem."""
    if not content:
        raise UploadRefused("the upload is empty")
    if len(content) > limits.max_upload_bytes:
        raise UploadRefused(f"the upload is {len(content):,} bytes; the limit is "
                            f"{limits.max_upload_bytes:,} bytes")
    name = _base_name(filename)
    kind = _kind_of(name)
    digest = hashlib.sha256(content).hexdigest()
    if kind == "file":
        _check_source(content, ENTRY_POINT)
        return UploadInfo(kind=kind, filename=name, sha256=digest, size=len(content), file_count=1,
                          unpacked_size=len(content), entries=(ENTRY_POINT,))
    archive = _open_zip(content)
    with archive:
        infos = _checked_entries(archive, len(content), limits)
        manifest = _manifest_in(archive, infos, len(content), limits)
        files = {info.filename for info in infos if not info.is_dir()}
        if manifest.entry not in files:
            raise UploadRefused(_no_entry_point(files, manifest.entry, manifest.runtime.name))
        file_count, unpacked, source = 0, 0, bytearray()
        for info in infos:
            if not info.is_dir():
                # Every entry is inflated: only real bytes tell whether a header lied.
                sink = source.extend if info.filename == manifest.entry else None
                unpacked += _inflate(archive, info, unpacked, len(content), limits, sink)
                file_count += 1
    ENTRY_CHECKS[manifest.runtime.entry_check](bytes(source), manifest.entry)
    return UploadInfo(kind=kind, filename=name, sha256=digest, size=len(content),
                      file_count=file_count, unpacked_size=unpacked,
                      entries=tuple(info.filename for info in infos),
                      runtime=manifest.runtime.name, entry=manifest.entry)


def _manifest_in(archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo], size: int, limits: Limits):
    """The archive's arena.json, parsed (none: the python runtime); UploadRefused says why not."""
    info = next((i for i in infos if i.filename == MANIFEST and not i.is_dir()), None)
    data = None
    if info is not None:
        buffer = bytearray()
        _inflate(archive, info, 0, size, limits, buffer.extend)
        data = bytes(buffer)
    try:
        return manifest_parse(data)
    except ManifestError as exc:
        raise UploadRefused(str(exc)) from None


def pack_directory(folder: Path) -> tuple[str, bytes]:
    """A bot's folder as the zip archive to upload, named after the folder: every regular file
    below it (hidden files and __pycache__ left out), with fixed timestamps, so the same files
    always make the same bytes (and so the same version). ``botcheck`` and ``uploadbot`` take a
    folder this way; through the API, upload the archive (docs/protocol.md, "Packaging")."""
    folder = Path(folder)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if any(part.startswith(".") or part == "__pycache__" for part in relative.parts):
                continue
            if path.is_file() and not path.is_symlink():
                info = zipfile.ZipInfo(relative.as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = (stat.S_IFREG | (0o755 if os.access(path, os.X_OK) else 0o644)) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
    return f"{folder.resolve().name}.zip", buffer.getvalue()


def read_bot(path: Path) -> tuple[str, bytes]:
    """The upload a path on disk stands for: a file as it is, a folder packed (pack_directory)."""
    path = Path(path)
    if path.is_dir():
        return pack_directory(path)
    return path.name, path.read_bytes()


def materialize(content: bytes, kind: str, target: Path, limits: Limits = Limits()) -> Path:
    """Write the code of an accepted upload into the fresh directory ``target`` (a single file
    becomes ``target/main.py``) and return ``target``. Atomic: the code is written into a temporary
    directory beside ``target`` and renamed into place, so ``target`` is either absent or complete.
    Idempotent: a ``target`` that already holds this code is returned as it is. A zip is checked
    again entry by entry (paths, types, real sizes) while it is extracted."""
    if kind not in KINDS:
        raise ValueError(f"unknown upload kind {kind!r}; expected one of {', '.join(KINDS)}")
    target = Path(target)
    digest = hashlib.sha256(content).hexdigest()
    if _materialized(target, digest):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        if kind == "file":
            _write_file(staging / ENTRY_POINT, [content])
        else:
            _extract(content, staging, limits)
            _settle_entry(staging)
        _write_file(staging / MARKER, [digest.encode()])
        staging.chmod(0o755)  # mkdtemp makes it private; the sandboxed bot may run as another user
        try:
            os.rename(staging, target)  # fails if another process got there first: fine
        except OSError:
            if not _materialized(target, digest):
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return target


def _settle_entry(root: Path) -> None:
    """The extracted code's manifest and entry point, checked again; a runtime that executes its
    entry itself (native) gets it with mode 0755, every other file stays 0644."""
    try:
        manifest = manifest_parse((root / MANIFEST).read_bytes() if (root / MANIFEST).is_file() else None)
    except ManifestError as exc:
        raise UploadRefused(str(exc)) from None
    entry = root.joinpath(*manifest.entry.split("/"))
    if not entry.is_file() or entry.is_symlink():
        files = {str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()}
        raise UploadRefused(_no_entry_point(files, manifest.entry, manifest.runtime.name))
    if manifest.runtime.executable:
        entry.chmod(0o755)


def _materialized(target: Path, digest: str) -> bool:
    """Whether ``target`` already holds the code with sha256 ``digest`` (anything else there is
    an error, never overwritten)."""
    if not target.exists():
        return False
    marker = target / MARKER
    if not marker.is_file() or marker.is_symlink():
        raise FileExistsError(f"{target} exists but was not written by materialize")
    if marker.read_text().strip() != digest:
        raise FileExistsError(f"{target} holds other code than sha256 {digest}")
    return True


# -- checks ------------------------------------------------------------------------------------

def _base_name(filename: str) -> str:
    """The uploaded name without any folder part a browser may have sent."""
    name = PureWindowsPath(PurePosixPath(filename or "").name).name
    if not name or _CONTROL.search(name):
        raise UploadRefused("the upload needs a file name ending in .py or .zip")
    return name[-255:]


def _kind_of(name: str) -> str:
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if suffix == "py":
        return "file"
    if suffix == "zip":
        return "zip"
    raise UploadRefused(f"{name!r} is neither a Python file (.py) nor a zip archive (.zip) "
                        f"with {ENTRY_POINT} (or an {MANIFEST} naming its runtime) at its root")


def _check_source(source: bytes, name: str) -> None:
    """``source`` must be UTF-8 Python that compiles (it is compiled, never run, here)."""
    try:
        text = source.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UploadRefused(f"{name} is not UTF-8 text (byte {exc.start} cannot be decoded)") from None
    try:
        compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise UploadRefused(f"{name} does not compile: {exc.msg} (line {exc.lineno})") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        raise UploadRefused(f"{name} does not compile: {exc}") from None


def _check_text(source: bytes, name: str) -> None:
    """A script the runtime reads as text (JavaScript): UTF-8, no NUL bytes. Its syntax is the
    runtime's business (botcheck shows the error), the web process may not have the runtime."""
    try:
        text = source.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UploadRefused(f"{name} is not UTF-8 text (byte {exc.start} cannot be decoded)") from None
    if "\x00" in text:
        raise UploadRefused(f"{name} holds NUL bytes: it is not a script")


ELF_MAGIC, ELFCLASS64, ELFDATA2LSB, EM_X86_64, PT_INTERP = b"\x7fELF", 2, 1, 62, 3
ET_EXEC, ET_DYN = 2, 3


def _check_static_elf_x86_64(content: bytes, name: str) -> None:
    """The native runtime starts its entry itself, in a sandbox with no shared libraries of the
    author's: it must be an x86_64 Linux executable, 64-bit, little-endian, with no program
    interpreter (PT_INTERP: a dynamically linked program needs ld.so and its libraries). A static
    PIE (ET_DYN without PT_INTERP) is static too."""
    hint = f"build it static, e.g. gcc -static -O2 -o {PurePosixPath(name).name} main.c"
    if len(content) < 64 or content[:4] != ELF_MAGIC:
        raise UploadRefused(f"{name} is not an ELF executable (a native bot is a static x86_64 "
                            f"Linux executable: {hint})")
    if content[4] != ELFCLASS64 or content[5] != ELFDATA2LSB:
        raise UploadRefused(f"{name} is not a 64-bit little-endian ELF file (class {content[4]}, data "
                            f"{content[5]}): a native bot is a static x86_64 executable")
    e_type, e_machine = struct.unpack_from("<HH", content, 16)
    if e_machine != EM_X86_64:
        raise UploadRefused(f"{name} is built for ELF machine {e_machine}, not x86_64 ({EM_X86_64})")
    if e_type not in (ET_EXEC, ET_DYN):
        raise UploadRefused(f"{name} is an ELF file of type {e_type}, not an executable")
    phoff, = struct.unpack_from("<Q", content, 32)
    phentsize, phnum = struct.unpack_from("<HH", content, 54)
    if phnum == 0 or phentsize < 56 or phoff + phnum * phentsize > len(content):
        raise UploadRefused(f"{name} has no program headers within the file: it is not an executable")
    for index in range(phnum):
        p_type, = struct.unpack_from("<I", content, phoff + index * phentsize)
        if p_type == PT_INTERP:
            raise UploadRefused(f"{name} is dynamically linked (it names a program interpreter): "
                                f"the sandbox has no shared libraries for it; {hint}")


def _open_zip(content: bytes) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(content))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError,
            NotImplementedError) as exc:
        raise UploadRefused(f"the upload is not a valid zip archive ({exc})") from None


def _checked_entries(archive: zipfile.ZipFile, size: int, limits: Limits) -> list[zipfile.ZipInfo]:
    """The entries of ``archive`` after every check that needs no inflating: names, types,
    encryption, count, declared sizes and ratio, and main.py at the root."""
    infos = archive.infolist()
    if len(infos) > limits.max_files:
        raise UploadRefused(f"the archive has {len(infos)} entries (files and folders); the limit "
                            f"is {limits.max_files}")
    seen: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        path = _checked_name(info.filename)
        _check_entry_type(info)
        if path in seen:
            raise UploadRefused(f"the archive holds {path!r} more than once")
        seen[path] = info
    files = {path for path, info in seen.items() if not info.is_dir()}
    for path in seen:
        for parent in PurePosixPath(path).parents:
            if str(parent) in files:
                raise UploadRefused(f"{str(parent)!r} is both a file and a folder in the archive")
    declared = sum(info.file_size for info in infos)
    if declared > limits.max_compression_ratio * size:
        raise UploadRefused(f"the archive would inflate {size:,} bytes into {declared:,} "
                            f"(more than {limits.max_compression_ratio} times): refused as a "
                            f"possible zip bomb")
    if declared > limits.max_unpacked_bytes:
        raise UploadRefused(f"the archive unpacks to {declared:,} bytes; the limit is "
                            f"{limits.max_unpacked_bytes:,} bytes")
    return infos


def _checked_name(name: str) -> str:
    """A zip entry name as a plain relative POSIX path (without a folder's trailing slash)."""
    if not name:
        raise UploadRefused("the archive has an entry without a name")
    if _CONTROL.search(name):
        raise UploadRefused(f"entry {name!r} has a control character in its name")
    if "\\" in name:
        raise UploadRefused(f"entry {name!r} has a backslash in its path; use '/' between folders")
    if name.startswith("/"):
        raise UploadRefused(f"entry {name!r} has an absolute path")
    if _DRIVE.match(name):
        raise UploadRefused(f"entry {name!r} starts with a drive letter")
    path = name[:-1] if name.endswith("/") else name
    parts = path.split("/")
    if ".." in parts:
        raise UploadRefused(f"entry {name!r} has a '..' component (a path outside the archive)")
    if any(part in ("", ".") for part in parts):
        raise UploadRefused(f"entry {name!r} has an empty or '.' component")
    if path == MARKER:
        raise UploadRefused(f"the name {MARKER!r} is reserved")
    return path


def _check_entry_type(info: zipfile.ZipInfo) -> None:
    """Plain files and folders only: no symlinks, devices, encryption or exotic compression."""
    mode = info.external_attr >> 16
    file_type = stat.S_IFMT(mode)
    if file_type == stat.S_IFLNK:
        raise UploadRefused(f"entry {info.filename!r} is a symbolic link; links are not allowed")
    if file_type not in (0, stat.S_IFREG, stat.S_IFDIR):
        raise UploadRefused(f"entry {info.filename!r} is not a regular file or folder")
    if info.flag_bits & 0x1:
        raise UploadRefused(f"entry {info.filename!r} is encrypted; upload an unencrypted archive")
    if info.compress_type not in SUPPORTED_METHODS:
        raise UploadRefused(f"entry {info.filename!r} uses compression method "
                            f"{info.compress_type}, which is not supported")


def _no_entry_point(files: set[str], entry: str = ENTRY_POINT, runtime: str = "python") -> str:
    base = PurePosixPath(entry).name
    nested = sorted(p for p in files if PurePosixPath(p).name == base and p != entry)
    hint = (f"; found {nested[0]!r}: zip the contents of its folder, not the folder itself"
            if nested else "")
    where = "at its root" if "/" not in entry else "in it"
    manifest = "" if MANIFEST in files else f" (and no {MANIFEST} naming another runtime)"
    return f"the archive has no {entry} {where}, the entry point of its {runtime} runtime{manifest}{hint}"


# The checks of an entry point, by the name a runtime's ``entry_check`` gives (runtimes.py).
ENTRY_CHECKS = {"python": _check_source, "text": _check_text,
                "static-elf-x86_64": _check_static_elf_x86_64}


def _inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo, so_far: int, size: int,
             limits: Limits, sink) -> int:
    """Inflate one entry in chunks, handing each to ``sink`` (if any) and counting the real bytes
    against the limits; return the entry's real size."""
    budget = min(limits.max_unpacked_bytes, limits.max_compression_ratio * size) - so_far
    count = 0
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(CHUNK):
                count += len(chunk)
                if count > budget or count > info.file_size:
                    raise UploadRefused(f"entry {info.filename!r} inflates to more bytes than its "
                                        f"header declares or the limits allow")
                if sink is not None:
                    sink(chunk)
    except UploadRefused:
        raise
    except Exception as exc:  # BadZipFile (bad CRC, header mismatch), zlib/lzma errors, EOFError
        raise UploadRefused(f"entry {info.filename!r} cannot be read: {exc}") from None
    if count != info.file_size:
        raise UploadRefused(f"entry {info.filename!r} inflates to {count:,} bytes but its header "
                            f"declares {info.file_size:,}")
    return count


# -- extraction --------------------------------------------------------------------------------

def _extract(content: bytes, root: Path, limits: Limits) -> None:
    """Extract a zip into the empty directory ``root``, checking every entry again."""
    real_root = root.resolve()
    archive = _open_zip(content)
    with archive:
        infos = _checked_entries(archive, len(content), limits)
        unpacked = 0
        for info in infos:
            path = real_root.joinpath(*_checked_name(info.filename).split("/"))
            _check_inside(path, real_root)
            if info.is_dir():
                _make_dirs(path, real_root)
                continue
            _make_dirs(path.parent, real_root)
            with _open_new(path) as out:
                unpacked += _inflate(archive, info, unpacked, len(content), limits, out.write)


def _check_inside(path: Path, root: Path) -> None:
    if path != root and root not in path.parents:
        raise UploadRefused(f"{path} is outside the code directory")
    resolved = path.resolve()
    if resolved != root and root not in resolved.parents:
        raise UploadRefused(f"{path} resolves outside the code directory")


def _make_dirs(path: Path, root: Path) -> None:
    """mkdir -p below ``root`` without ever following a symbolic link."""
    current = root
    for part in path.relative_to(root).parts:
        current = current / part
        if current.is_symlink():
            raise UploadRefused(f"{current} is a symbolic link")
        current.mkdir(mode=0o755, exist_ok=True)


def _open_new(path: Path):
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    return os.fdopen(os.open(path, flags, 0o644), "wb")


def _write_file(path: Path, chunks) -> None:
    with _open_new(path) as out:
        for chunk in chunks:
            out.write(chunk)
