"""docs/rules/wizard-kings.md, "Versions": version 3 (issue 38) changed two rules, a pass's
natives (2.32, D6) and who may ``pass`` in a combat turn (2.22, D60). Matches stored under
version 2 fold by ``WizardKings.edition(2)`` (games/wizard_kings/editions.py) by the rules they
were played by. The 4 golden logs of tests/games/data/wizard-kings-v2-golden.jsonl (2 and 3
seats, the random and heuristic bots, one with the expansion; two of Dwarves and Elves on maps
10 and 14 with Dwarves fighting in a pass) were played by version 2's code (git eb414a3), which
also wrote the hashes of every state it folded (wizard-kings-v2-golden-states.json, checked by
tests/games/test_editions.py as for every golden file)."""
import json
from pathlib import Path

import pytest

from games.engine import registry
from games.engine.log import Folder, LogError, canonical_json, validate
from games.wizard_kings.content import kind_of
from games.wizard_kings.state import RULES_VERSION, board, fire_number, rules_version

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN = DATA / "wizard-kings-v2-golden.jsonl"


def golden_logs():
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def test_version_2_logs_validate_and_fold_by_the_version_2_edition():
    current = registry.get("wizard-kings")
    assert current.spec.version == RULES_VERSION == 4 and current.edition(2).spec.version == 2
    assert rules_version(current.setup(2, current.options({}))) == 4     # no mark: the current
    kept = json.loads((DATA / "wizard-kings-v2-golden-states.json").read_text())
    logs = golden_logs()
    assert len(logs) == 4 and {log[0]["match"] for log in logs} == set(kept)
    for records in logs:
        report = validate(records, get_ruleset=registry.get)
        assert report.ok and report.ended and report.chance_verified, report.reason
        folder = Folder(records[0], get_ruleset=registry.get)
        assert folder.ruleset is current.edition(2)
        for record in records[1:-1]:
            folder.step(record)
            text = canonical_json(folder.ruleset.encode(folder.state))
            assert '"edition"' not in text          # version 2's states, as written
            # a version 2 snapshot decodes to the version 2 rules and encodes as it was
            again = folder.ruleset.decode(json.loads(text))
            assert rules_version(again) == 2
            assert canonical_json(folder.ruleset.encode(again)) == text
        assert folder.ruleset.next(folder.state).result.to_json() == records[-1]["payload"]["result"]


def _v2_only_moments(records):
    """What the version 2 rules allowed and version 3 changes, as the log goes: a block that is
    neither wizard nor treasure passing in rounds 1-3, a mountain native firing in a pass."""
    folder = Folder(records[0], get_ruleset=registry.get)
    passes = pass_fires = 0
    for record in records[1:-1]:
        state = folder.state
        action = record["payload"].get("action") if record["kind"] == "action" else None
        if action and state["phase"] == "battle" and action["type"] in ("pass", "fire"):
            blk = state["blocks"][action["block"]]
            kind = kind_of(blk["kind"])
            if (action["type"] == "pass" and not kind.wizard and not kind.treasure
                    and state["battle"]["round"] < 4):
                passes += 1
            if (action["type"] == "fire" and "mountain" in kind.traits
                    and board(state).terrain[blk["hex"]] == "pass"):
                assert fire_number(state, action["block"]) == kind.fire   # version 2: no bonus
                assert fire_number({**state, "edition": 3}, action["block"]) == kind.fire + 1
                pass_fires += 1
        folder.step(record)
    return passes, pass_fires


def test_version_2_logs_hold_what_version_3_forbids_and_version_3_refuses_them():
    """The golden logs are real tests of the edition: each of the first two has a non-wizard's
    ``pass`` in a combat round (2.22, D60) and a Dwarf firing in a pass (2.32, D6); folded by
    the version 3 rules, each is refused at its first such pass."""
    logs = golden_logs()
    for records in logs[:2]:
        passes, pass_fires = _v2_only_moments(records)
        assert passes >= 1 and pass_fires >= 1
        as_v3 = json.loads(json.dumps(records[0]))
        as_v3["payload"]["version"] = 3
        folder = Folder(as_v3, get_ruleset=registry.get)
        assert folder.ruleset.spec.version == 3
        with pytest.raises(LogError):
            for record in records[1:-1]:
                folder.step(record)
        assert records[folder.seq + 1]["payload"]["action"]["type"] == "pass"
