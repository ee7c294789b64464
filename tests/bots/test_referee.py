"""The referee turns every bot fault into a recorded event under the match's fault policy."""
import json
import re

import pytest

from bots.referee import FaultPolicy, RefereeRunner
from bots.sandbox import BotFault
from games.engine import registry
from games.engine.bots import Bot, RandomBot
from games.engine.log import validate
from games.engine.runner import playout
from tests.conformance.oracle_game import Oracle

SEED = b"referee".ljust(32, b".")


class FaultyBot(Bot):
    """Faults (with the given reason) on its first ``faults`` decisions, then plays randomly."""

    name = "faulty"

    def __init__(self, ruleset, seed=0, *, reason="timeout", faults=10**9):
        super().__init__(ruleset, seed)
        self.reason, self.faults = reason, faults

    def act(self, message):
        if self.faults > 0:
            self.faults -= 1
            raise BotFault(self.reason, {"elapsed_ms": 1234, "sent": "garbage?"})
        return self.rng.choice(message["legal_actions"])


class IllegalBot(Bot):
    name = "illegal"

    def act(self, message):
        return {"type": "teleport"}


def _play(bots, policy, ruleset=None, options=None):
    ruleset = ruleset or registry.get("trap-the-wizard")
    return playout(ruleset, len(bots), seed=SEED, bots=bots, options=options or {"rounds": 1},
                   runner=RefereeRunner, policy=policy)


@pytest.mark.parametrize("reason", ["timeout", "crash", "garbage", "output_limit"])
def test_a_fault_forfeits_the_seat_with_its_evidence_and_the_match_goes_on(reason):
    ruleset = registry.get("trap-the-wizard")
    records = _play({0: FaultyBot(ruleset, reason=reason), 1: RandomBot(ruleset, 1), 2: RandomBot(ruleset, 2)},
                    FaultPolicy())
    forfeits = [r for r in records if r["kind"] == "forfeit"]
    assert [(r["seat"], r["payload"]["reason"], r["payload"]["elapsed_ms"]) for r in forfeits] == [(0, reason, 1234)]
    assert records[-1]["kind"] == "match_ended"
    assert records[-1]["payload"]["result"]["placings"][0] == 3, "a forfeited seat places last"
    assert validate(records).ok


def test_an_illegal_action_is_a_forfeit_that_quotes_what_was_sent():
    ruleset = registry.get("trap-the-wizard")
    records = _play({0: IllegalBot(ruleset), 1: RandomBot(ruleset, 1)}, FaultPolicy())
    forfeit = next(r for r in records if r["kind"] == "forfeit")
    assert forfeit["payload"]["reason"] == "illegal_action"
    assert forfeit["payload"]["sent"] == '{"type":"teleport"}' and forfeit["payload"]["detail"]
    assert validate(records).ok


class BadBytesBot(Bot):
    """Answers with what a JSON parser accepts but a database may not store as sent."""

    name = "bad-bytes"

    def __init__(self, ruleset, seed=0, *, action=None, evidence=None):
        super().__init__(ruleset, seed)
        self.action, self.evidence = action, evidence

    def act(self, message):
        if self.evidence is not None:
            raise BotFault("garbage", self.evidence)
        return self.action


@pytest.mark.parametrize("bot", [
    {"action": {"type": "move", "wizard": "\ud800"}},           # a lone surrogate from json.loads
    {"action": {"type": "move", "wizard": "\x00"}},             # NUL: PostgreSQL's jsonb refuses it
    {"action": {"type": "move", "wizard": float("inf")}},       # what json.loads makes of 1e400
    {"action": {"type": "move", "wizard": 1e16}},               # jsonb gives it back as an integer
    {"evidence": {"detail": "bad \x00 line", "sent": "\x00\ud800", "stderr": "\x00"}},
], ids=["surrogate", "nul", "infinity", "1e16", "nul-evidence"])
def test_what_a_bot_sends_is_stored_as_harmless_text(bot):
    ruleset = registry.get("trap-the-wizard")
    records = _play({0: BadBytesBot(ruleset, **bot), 1: RandomBot(ruleset, 1)}, FaultPolicy())
    forfeit = next(r for r in records if r["kind"] == "forfeit")
    text = json.dumps(forfeit["payload"], ensure_ascii=False, allow_nan=False)
    assert "\x00" not in text and not re.search("[\ud800-\udfff]", text)
    text.encode("utf-8")  # a lone surrogate would raise here
    if "action" in bot:
        assert json.loads(forfeit["payload"]["sent"]) == json.loads(json.dumps(bot["action"]))
    assert validate(records).ok


def test_the_default_action_policy_plays_for_a_faulting_bot_up_to_its_strikes():
    ruleset = registry.get("trap-the-wizard")
    records = _play({0: FaultyBot(ruleset, faults=5), 1: RandomBot(ruleset, 1)},
                    FaultPolicy(on_fault="default_action", max_strikes=3))
    defaults = [r for r in records if r["kind"] == "action" and "fault" in r["payload"]]
    assert [r["payload"]["fault"]["strike"] for r in defaults] == [1, 2, 3]
    assert all(r["seat"] == 0 and r["payload"]["fault"]["reason"] == "timeout" for r in defaults)
    forfeit = [r for r in records if r["kind"] == "forfeit"]
    assert [(r["seat"], r["payload"]["reason"]) for r in forfeit] == [(0, "timeout")], \
        "the fourth fault exhausts the strikes"
    assert validate(records).ok


def test_a_bot_that_recovers_within_its_strikes_plays_on():
    ruleset = registry.get("trap-the-wizard")
    records = _play({0: FaultyBot(ruleset, faults=2), 1: RandomBot(ruleset, 1)},
                    FaultPolicy(on_fault="default_action", max_strikes=3))
    assert not [r for r in records if r["kind"] == "forfeit"]
    assert len([r for r in records if "fault" in r["payload"]]) == 2
    assert validate(records).ok


def test_simultaneous_seats_are_asked_together_and_a_fault_in_one_does_not_stall_the_others():
    ruleset = Oracle()
    bots = {0: FaultyBot(ruleset, reason="crash"), 1: RandomBot(ruleset, 1), 2: RandomBot(ruleset, 2)}
    records = playout(ruleset, 3, seed=SEED, bots=bots, runner=RefereeRunner, policy=FaultPolicy())
    assert [(r["seat"], r["payload"]["reason"]) for r in records if r["kind"] == "forfeit"] == [(0, "crash")]
    assert records[-1]["kind"] == "match_ended"
    assert validate(records, get_ruleset=lambda name: ruleset).ok


@pytest.mark.parametrize("raw, message", [
    ({"on_fault": "shrug"}, "on_fault"), ({"max_strikes": -1}, "max_strikes"),
    ({"strikes": 3}, "only on_fault"), ("forfeit", "only on_fault"),
])
def test_a_bad_fault_policy_is_refused_with_a_reason(raw, message):
    with pytest.raises(ValueError, match=message):
        FaultPolicy.from_json(raw)
