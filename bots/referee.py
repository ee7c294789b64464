"""The referee: asks bots for actions and turns every fault into a recorded event.

Plain Python (no Django) so the match driver, ``botcheck`` and the tests share it. Under the
match's fault policy a bot that times out, crashes, sends garbage or too much output, or answers
with an illegal action either forfeits its seat or, for up to ``max_strikes`` faults, has a
default action (the first legal one) played for it. Either way the event carries the evidence
(what the bot sent, how long it took), and every action carries the bot's clock.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass

from games.engine import IllegalAction, ToAct
from games.engine.log import evidence_text, storable
from games.engine.runner import MatchRunner

from .sandbox import BotFault


@dataclass(frozen=True)
class FaultPolicy:
    """What a fault costs: ``forfeit`` the seat at once, or ``default_action`` for up to
    ``max_strikes`` faults (then forfeit)."""

    on_fault: str = "forfeit"
    max_strikes: int = 3

    def __post_init__(self):
        if self.on_fault not in ("forfeit", "default_action"):
            raise ValueError(f"on_fault must be 'forfeit' or 'default_action', got {self.on_fault!r}")
        if type(self.max_strikes) is not int or not 0 <= self.max_strikes <= 100:
            raise ValueError("max_strikes must be an int in 0..100")

    @classmethod
    def from_json(cls, raw: dict | None) -> "FaultPolicy":
        raw = raw or {}
        if not isinstance(raw, dict) or set(raw) - {"on_fault", "max_strikes"}:
            raise ValueError("fault policy takes only on_fault and max_strikes")
        return cls(**raw)

    def to_json(self) -> dict:
        return asdict(self)


class RefereeRunner(MatchRunner):
    """MatchRunner that survives hostile bots: simultaneous seats are asked in parallel, faults
    become forfeits or strikes, and each action records the time the bot took."""

    def __init__(self, folder, *, seed, bots, append, policy: FaultPolicy = FaultPolicy(),
                 strikes: dict[int, int] | None = None):
        super().__init__(folder, seed=seed, bots=bots, append=append)
        self.policy = policy
        self.strikes = dict(strikes or {})

    def step(self) -> bool:
        nxt = None if self.folder.ended else self.folder.next()
        if not isinstance(nxt, ToAct) or len(nxt.seats) == 1:
            return super().step()
        # A simultaneous secret choice: every seat thinks at once on the same state (no seat's
        # view shows another's pending choice), then the answers are written one by one.
        state = self.folder.state
        with ThreadPoolExecutor(max_workers=len(nxt.seats)) as pool:
            answers = list(pool.map(lambda seat: self._ask(state, seat), nxt.seats))
        for seat, answer in zip(nxt.seats, answers):
            current = self.folder.next()
            if not isinstance(current, ToAct) or seat not in current.seats:
                continue  # an earlier write (a forfeit) changed who acts
            self._write(*self._judge(seat, answer))
        return True

    def _decide(self, seat: int) -> tuple[str, int, dict]:
        return self._judge(seat, self._ask(self.folder.state, seat))

    def _ask(self, state, seat: int) -> tuple:
        """The bot's answer as ("ok", action, clock) or ("fault", BotFault)."""
        ruleset = self.folder.ruleset
        message = {"type": "act", "seat": seat, "view": ruleset.view(state, seat),
                   "legal_actions": ruleset.legal_actions(state, seat)}
        bot = self.bots[seat]
        started = time.monotonic()
        try:
            action = bot.act(message)
        except BotFault as fault:
            return ("fault", fault)
        clock = getattr(bot, "last_clock", None) or {
            "elapsed_ms": round((time.monotonic() - started) * 1000)}
        return ("ok", action, clock)

    def _judge(self, seat: int, answer: tuple) -> tuple[str, int, dict]:
        """Check the answer where the match stands now; a fault goes to the policy."""
        if answer[0] == "fault":
            fault = answer[1]
            return self._fault(seat, fault.reason, dict(fault.evidence))
        _, action, clock = answer
        try:
            self.folder.ruleset.check_action(self.folder.state, seat, action)
        except IllegalAction as exc:
            return self._fault(seat, "illegal_action",
                               {"detail": exc.reason, "sent": evidence_text(action), **clock})
        return "action", seat, {"action": action, "clock": clock}

    def _fault(self, seat: int, reason: str, evidence: dict) -> tuple[str, int, dict]:
        """A forfeit, or a default action while the seat has strikes left. The evidence is made
        storable: a bot's bytes must never stop its match from being written."""
        evidence = storable(evidence)
        used = self.strikes.get(seat, 0)
        if self.policy.on_fault == "default_action" and used < self.policy.max_strikes:
            self.strikes[seat] = used + 1
            default = self.folder.ruleset.legal_actions(self.folder.state, seat)[0]
            return "action", seat, {"action": default,
                                    "fault": {"reason": reason, "strike": used + 1, **evidence}}
        return "forfeit", seat, {"reason": reason, **evidence}
