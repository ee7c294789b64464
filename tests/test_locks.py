"""The lock files (issue 39, item 5): every package installed is pinned with the hashes of its
files, each lock agrees with the direct pins of its requirements file, and what installs the
service installs from the locks (`pip install --require-hashes`). `python3 dev.py lock` writes
them anew (README, "Dependencies")."""
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")

pytestmark = pytest.mark.no_services


def _dev():
    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _direct_pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("-r "):
            pins.update(_direct_pins(path.parent / line[3:].strip()))
        elif line:
            found = PIN.match(line)
            assert found, f"{path.name}: not an exact pin: {line!r}"
            pins[_name(found.group(1))] = found.group(2)
    return pins


def _locked(path: Path) -> dict[str, tuple[str, int]]:
    """name -> (version, number of hashes) of every package in a lock."""
    packages, current = {}, None
    for line in path.read_text(encoding="utf-8").splitlines():
        found = PIN.match(line)
        if found:
            current = _name(found.group(1))
            packages[current] = (found.group(2), 0)
        elif line.strip().startswith("--hash=sha256:") and current:
            version, hashes = packages[current]
            packages[current] = (version, hashes + 1)
    return packages


@pytest.mark.parametrize("requirements", sorted(_dev().LOCKS))
def test_each_lock_holds_its_direct_pins_and_every_package_with_its_hashes(requirements):
    lock = ROOT / _dev().LOCKS[requirements]
    locked = _locked(lock)
    pins = _direct_pins(ROOT / requirements)
    assert pins, requirements
    stale = {name: (version, locked.get(name, ("missing",))[0])
             for name, version in pins.items() if locked.get(name, ("",))[0] != version}
    assert not stale, f"{lock.name} disagrees with {requirements} (pin, lock): {stale}; run python3 dev.py lock"
    unhashed = [name for name, (_, hashes) in locked.items() if not hashes]
    assert not unhashed, f"{lock.name}: packages without a hash: {unhashed}"
    assert len(locked) > len(pins)  # the dependencies of the direct pins are locked too


def test_what_installs_the_service_installs_from_the_locks():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"pip install [^\n]*--require-hashes[^\n]*-r requirements\.lock", dockerfile)
    assert not re.search(r"-r requirements\.txt", dockerfile)
    dev = (ROOT / "dev.py").read_text(encoding="utf-8")
    assert '"--require-hashes", "-r", lock' in dev
