"""Matches keep the rules they were played by (docs/event-log.md, "Versions"): logs played by
each game's earlier versions, kept as golden data, still fold and validate, and reach the result
they recorded. The logs were played by built-in bots with the service as it stood at version 1
of each game (tests/games/data/<game>-v<version>-golden.jsonl, one log a line)."""
import json
from pathlib import Path

import pytest

from games.engine import registry
from games.engine.log import Folder, validate

DATA = Path(__file__).resolve().parent / "data"
GOLDEN = sorted(DATA.glob("*-golden.jsonl"))


def logs(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_there_is_golden_data_for_the_landed_games():
    assert {p.name for p in GOLDEN} >= {"sorcado-v1-golden.jsonl", "trap-the-wizard-v1-golden.jsonl"}


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
