"""docs/rules/wizard-kings.md, "Versions": version 4 (issue 38) lays two players' east map turned
half round (option ``east_map``, D1); versions 1-3 laid both maps as printed. Matches stored
under version 3 fold by ``WizardKings.edition(3)`` (games/wizard_kings/editions.py), whose
options default ``east_map`` to ``printed`` and whose states keep version 3's shape (no
``east_map`` among their options). The 4 golden logs of
tests/games/data/wizard-kings-v3-golden.jsonl (2 and 3 seats, the random and heuristic bots, one
with the expansion, one won by 1.23's victory gold; chance from seed sha256 of a fixed text per
log) were played by version 3's code (git 54efdb3), which also wrote the hashes of every state
it folded (wizard-kings-v3-golden-states.json, checked by tests/games/test_editions.py as for
every golden file)."""
import json
from pathlib import Path

import pytest

from games.engine import registry
from games.engine.log import Folder, LogError, canonical_json, validate
from games.wizard_kings.board import TURNED, board_of

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN = DATA / "wizard-kings-v3-golden.jsonl"


def golden_logs():
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def test_version_3_logs_validate_and_fold_by_the_version_3_edition():
    current = registry.get("wizard-kings")
    assert current.spec.version == 4 and current.edition(3).spec.version == 3
    assert current.options({}).east_map == "turned"
    assert current.edition(3).options({}).east_map == "printed"
    assert current.edition(2).options({}).east_map == "printed"
    logs = golden_logs()
    assert len(logs) == 4
    for records in logs:
        assert "east_map" not in records[0]["payload"]["options"]
        report = validate(records, get_ruleset=registry.get)
        assert report.ok and report.ended and report.chance_verified, report.reason
        folder = Folder(records[0], get_ruleset=registry.get)
        assert folder.ruleset is current.edition(3)
        for record in records[1:-1]:
            folder.step(record)
            assert TURNED not in "".join(folder.state["maps"])      # both maps as printed
            text = canonical_json(folder.ruleset.encode(folder.state))
            assert '"east_map"' not in text and '"edition"' not in text   # version 3's states
            again = folder.ruleset.decode(json.loads(text))
            assert again["options"]["east_map"] == "printed"
            assert canonical_json(folder.ruleset.encode(again)) == text
        assert folder.ruleset.next(folder.state).result.to_json() == records[-1]["payload"]["result"]


def test_version_3_two_player_logs_are_refused_by_version_4s_turned_east_map():
    """The golden logs are real tests of the edition: folded as version 4, a two-player log's
    east map lies turned, its cities elsewhere, and the east seat's first recruit on a city of
    the printed map, or a move there, is refused (1.22: "Ĉiu bloko devas komenci ĉe urbo"; map
    12's cities lie alike either way round, so on it a move is the first refused)."""
    refused = 0
    for records in golden_logs():
        if records[0]["payload"]["players"] != 2:
            continue
        as_v4 = json.loads(json.dumps(records[0]))
        as_v4["payload"]["version"] = 4
        folder = Folder(as_v4, get_ruleset=registry.get)
        assert folder.ruleset.spec.version == 4
        with pytest.raises(LogError):
            for record in records[1:-1]:
                folder.step(record)
        assert folder.state["maps"][1].endswith(TURNED)
        action = records[folder.seq + 1]["payload"]["action"]
        where = action.get("hex") or action.get("to")
        assert action["type"] in ("recruit", "move") and board_of(tuple(folder.state["maps"])).map_of[where] == 1
        refused += 1
    assert refused == 3
