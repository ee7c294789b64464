"""docs/event-log.md, "Versions": a match keeps the rules it was played by. Version 2 records in
each fight which block came in through which hexside (issue 15.1, perfect recall), version 3
changes two rules (issue 38, test_version_2.py); version 1's
matches fold by games/wizard_kings/editions.py to the very states version 1 wrote. The 4 golden
logs of tests/games/data (2-4 seats, one with the expansion) were played by version 1's code,
which also wrote the hashes of every state it folded (checked for every golden file by
tests/games/test_editions.py). Here: version 1's states have version 1's shape where it differs,
in a fight, and a version 1 snapshot decodes and encodes as it was."""
import json
from pathlib import Path

from games.engine import registry
from games.engine.log import Folder, canonical_json

DATA = Path(__file__).resolve().parents[1] / "data"


def test_version_1_logs_fold_to_their_version_1_states_by_the_edition():
    current = registry.get("wizard-kings")
    assert current.spec.version == 4
    version_2 = current.edition(2)      # the rules version 1 played by, in version 2's shape
    logs = [json.loads(line) for line in (DATA / "wizard-kings-v1-golden.jsonl").read_text().splitlines()]
    assert len(logs) == 4
    fights_checked = 0
    for records in logs:
        folder = Folder(records[0], get_ruleset=registry.get)
        edition = folder.ruleset
        assert edition is current.edition(1) and edition.spec.version == 1
        for record in records[1:-1]:
            folder.advance(record)
            text = canonical_json(edition.encode(folder.state))
            fights = folder.state["fights"]
            if any(f.get("entered") for f in fights.values()):
                fights_checked += 1
                # version 2 keeps who came where; version 1's shape does not
                assert any(f["crossed"] for f in fights.values()) and '"crossed"' not in text
                assert canonical_json(version_2.encode(folder.state)) != text
            # a version 1 snapshot decodes (who came where starts empty) and encodes as it was
            assert canonical_json(edition.encode(edition.decode(json.loads(text)))) == text
    assert fights_checked >= 10
