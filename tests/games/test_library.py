"""Issue 15.3: "the Django-free `games` package installs on its own (`pip install` of a package
built from the project, documented)". The wheel is built from a copy of the checkout, unpacked
and imported by an isolated interpreter that cannot see the project, which plays and validates a
match of every game with it."""
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from games.engine import registry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    source = tmp_path_factory.mktemp("source")
    shutil.copy(ROOT / "pyproject.toml", source)
    (source / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "library.md", source / "docs")
    shutil.copytree(ROOT / "games", source / "games", ignore=shutil.ignore_patterns("__pycache__"))
    dist = tmp_path_factory.mktemp("dist")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                            "--no-index", str(source), "-w", str(dist)], capture_output=True, text=True,
                           timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    [path] = dist.glob("spellbound_games-*.whl")
    return path


def test_the_wheel_holds_the_whole_games_package_and_nothing_else(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {str(p.relative_to(ROOT)) for p in (ROOT / "games").rglob("*")
                if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".json")}
    assert expected and expected <= names
    assert {name.split("/")[0] for name in names} == {"games", wheel.name.split("-")[0] + "-" +
                                                      wheel.name.split("-")[1] + ".dist-info"}
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    assert "Name: spellbound-games" in metadata and "Requires-Dist: cryptography" in metadata
    assert "Requires-Dist: cryptography>=42; extra == \"signatures\"" in metadata


PLAY_EVERY_GAME = """
import json, sys
from games.engine import registry
from games.engine.log import validate
from games.engine.runner import playout
import games
out = {"from": games.__file__}
for name in registry.names():
    rules = registry.get(name)
    records = playout(rules, rules.spec.min_players, seed=bytes(32), options=None)
    report = validate(records)
    out[name] = [len(records), report.ok, records[-1]["kind"]]
print(json.dumps(out))
"""


def test_an_interpreter_without_the_project_plays_and_validates_every_game_with_it(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    # -I: no PYTHONPATH, no user site, no current directory on sys.path; -S: no site-packages.
    script = f"import sys; sys.path.insert(0, {str(site)!r})\n" + PLAY_EVERY_GAME
    ran = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True,
                         cwd=tmp_path, timeout=600)
    assert ran.returncode == 0, ran.stderr[-3000:]
    out = json.loads(ran.stdout)
    assert Path(out.pop("from")).is_relative_to(site)
    assert set(out) == {r.spec.name for r in registry.builtin()}  # every game the service ships
    for name, (events, ok, last) in out.items():
        assert ok and last == "match_ended" and events > 2, name
