"""Matches keep the rules they were played by (docs/event-log.md, "Versions"): logs played by
each game's earlier versions, kept as golden data, still fold and validate, and reach the result
they recorded. The logs were played by built-in bots with the service as it stood at version 1
of each game (tests/games/data/<game>-v<version>-golden.jsonl, one log a line).

Beside a golden file, ``<game>-v<version>-golden-states.json`` keeps, per match, the sha256 of the
canonical JSON of each encoded state the version's own code folded at every 50th event (the
snapshots the service stores, REPLAY_SNAPSHOT_EVERY) and one sha256 over all of them in a row:
a stored snapshot must equal a re-fold, or validation flags the match. Imperial Twing's were
written by the version 1 code (git 8899463, a worktree) with the random and heuristic bots at
2-4 seats, chance derived from seed sha256(match id); six of its nine logs end a seat mid-fight
(a ``resigned`` forfeit, or in one an illegal answer) where version 2 folds otherwise
(tests/games/test_imperial_twing.py, "version 1 matches"); its seven version 2 logs
(imperial-twing-v2-golden.jsonl, 2-4 seats, random and heuristic bots, chance from seed
sha256(match id)) were played and hashed by the version 2 code the same way
(tests/games/test_imperial_twing_version_3.py). Warlock's (5 logs, 2-4 seats) and Wizard Kings' (4 logs, 2-4 seats, one with the expansion) were played and hashed by their
version 1 code the same way, with chance derived from seed sha256 of a fixed text per log."""
import hashlib
import json
from pathlib import Path

import pytest

from games.engine import registry
from games.engine.log import Folder, canonical_json, validate

DATA = Path(__file__).resolve().parent / "data"
GOLDEN = sorted(DATA.glob("*-golden.jsonl"))
SNAPSHOT_EVERY = 50  # the service's default REPLAY_SNAPSHOT_EVERY, when the golden states were taken


def logs(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def golden_states(path):
    """{match: {"snapshots": {seq: sha256}, "states": sha256}} kept beside a golden file, or None."""
    beside = path.with_name(f"{path.stem}-states.json")
    return json.loads(beside.read_text()) if beside.exists() else None


def folded_states(records, *, snapshot_every=SNAPSHOT_EVERY):
    """Fold a log as the service does (registry.get, so an old log finds its edition): the sha256
    of each snapshot's canonical JSON by seq (as a string), and one over every encoded state."""
    folder, every, snapshots = Folder(records[0]), hashlib.sha256(), {}
    for record in records[1:-1]:
        folder.step(record)
        text = canonical_json(folder.ruleset.encode(folder.state)).encode()
        every.update(text + b"\n")
        if record["seq"] % snapshot_every == 0:
            snapshots[str(record["seq"])] = hashlib.sha256(text).hexdigest()
    return {"snapshots": snapshots, "states": every.hexdigest()}


def test_there_is_golden_data_for_the_landed_games():
    assert {p.name for p in GOLDEN} >= {"sorcado-v1-golden.jsonl", "trap-the-wizard-v1-golden.jsonl",
                                        "imperial-twing-v1-golden.jsonl", "warlock-v1-golden.jsonl",
                                        "wizard-kings-v1-golden.jsonl"}
    for game in ("imperial-twing", "warlock", "wizard-kings"):  # version 2 changed their states
        assert golden_states(DATA / f"{game}-v1-golden.jsonl") is not None


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_a_golden_log_of_an_earlier_version_still_validates(path):
    for records in logs(path):
        created = records[0]["payload"]
        report = validate(records, get_ruleset=registry.get)
        assert report.ok and report.ended and report.chance_verified, (path.name, report.reason)
        folder = Folder(records[0], get_ruleset=registry.get)
        assert folder.ruleset.spec.version == created["version"]
        for record in records[1:-1]:
            folder.step(record)
        assert folder.ruleset.next(folder.state).result.to_json() == records[-1]["payload"]["result"]


@pytest.mark.parametrize("path", [p for p in GOLDEN if golden_states(p)], ids=lambda p: p.stem)
def test_a_golden_log_folds_to_the_snapshots_its_version_wrote(path):
    kept = golden_states(path)
    records = logs(path)
    assert {r[0]["match"] for r in records} == set(kept)
    for log in records:
        assert folded_states(log) == kept[log[0]["match"]], log[0]["match"]
