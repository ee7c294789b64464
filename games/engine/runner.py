"""Plays a match: asks whoever must act, derives chance, writes each event through ``append``.

The same loop drives an offline playout (records kept in a list) and a stored match (records
appended to the database by replays.services); only ``append`` differs.
"""
from __future__ import annotations

import datetime as dt
from typing import Callable

from . import chance
from .bots import Bot
from .log import GENESIS, Folder, created_payload, evidence_text, seal, storable
from .protocol import Chance, Ended, Event, IllegalAction, Ruleset, ToAct

# (kind, seat, payload, state after the event) -> the sealed record as written
Append = Callable[[str, "int | None", dict, object], dict]


def hello_message(ruleset: Ruleset, options, players: int, seat: int) -> dict:
    return {"type": "hello", "protocol": 1, "game": ruleset.spec.name,
            "version": ruleset.spec.version, "seat": seat, "players": players,
            "options": ruleset.options_json(options)}


class MatchRunner:
    """One event at a time; resumable from any folder (a fold of the stored log)."""

    def __init__(self, folder: Folder, *, seed: bytes, bots: dict[int, Bot], append: Append):
        self.folder, self.seed, self.bots, self.append = folder, seed, bots, append
        for seat, bot in bots.items():
            bot.hello(hello_message(folder.ruleset, folder.options, folder.players, seat))

    def step(self) -> bool:
        """Write the next event; False once match_ended is written."""
        folder = self.folder
        if folder.ended:
            return False
        nxt = folder.next()
        if isinstance(nxt, Chance):
            outcome = chance.derive(self.seed, folder.match_id, folder.seq + 1, nxt.spec)
            self._write("chance", None, {"spec": nxt.spec, "outcome": outcome})
        elif isinstance(nxt, ToAct):
            # One seat per step, even in a simultaneous phase: each choice is its own event, and
            # an event (a forfeit) may change who acts, so next() is asked again every time.
            self._write(*self._decide(nxt.seats[0]))
        else:
            self._write("match_ended", None, {"result": nxt.result.to_json(), "seed": self.seed.hex()})
            for seat, bot in self.bots.items():
                bot.result({"type": "result", "seat": seat, "result": nxt.result.to_json()})
            return False
        return True

    def _decide(self, seat: int) -> tuple[str, int, dict]:
        """Ask the seat's bot; an illegal answer becomes a recorded forfeit with the evidence."""
        ruleset, state = self.folder.ruleset, self.folder.state
        message = {"type": "act", "seat": seat, "view": ruleset.view(state, seat),
                   "legal_actions": ruleset.legal_actions(state, seat)}
        action = self.bots[seat].act(message)
        try:
            ruleset.check_action(state, seat, action)
        except IllegalAction as exc:
            return "forfeit", seat, storable({"reason": "illegal_action", "detail": exc.reason,
                                              "sent": evidence_text(action)})
        return "action", seat, {"action": action}

    def _write(self, kind: str, seat: int | None, payload: dict) -> None:
        state = self.folder.state
        if kind != "match_ended":
            state = self.folder.ruleset.apply(state, Event(kind, seat, payload))
        record = self.append(kind, seat, payload, state)  # raises if the write failed
        self.folder.state = state
        if kind == "match_ended":
            self.folder.ended, self.folder.result = True, payload["result"]
        self.folder.seq, self.folder.head_hash = record["seq"], record["hash"]

    def run(self, max_events: int = 1_000_000) -> None:
        for _ in range(max_events):
            if not self.step():
                return
        raise RuntimeError(f"match did not end within {max_events} events")


def utc_now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")


def playout(ruleset: Ruleset, players: int, *, seed: bytes, bots: dict[int, Bot] | None = None,
            options: dict | None = None, match_id: str = "offline", bot_seed: int = 0,
            time: Callable[[], str] = lambda: "1970-01-01T00:00:00+00:00",
            max_events: int = 1_000_000, runner: type[MatchRunner] = MatchRunner,
            **runner_options) -> list[dict]:
    """Play a whole match offline and return its sealed log (random bots unless given;
    ``runner`` and ``runner_options`` select another loop, e.g. the referee of bots/)."""
    from .bots import RandomBot
    opts = ruleset.options(options)
    ruleset.check_players(players)
    bots = bots if bots is not None else {s: RandomBot(ruleset, bot_seed * 1000 + s) for s in range(players)}
    records = [seal(match=match_id, seq=0, kind="match_created", seat=None, time=time(),
                    prev_hash=GENESIS,
                    payload=created_payload(ruleset=ruleset, options=opts, players=players,
                                            seats=[{"bot": bots[s].name} for s in range(players)],
                                            seed_commitment=chance.commitment(seed)))]

    def append(kind, seat, payload, state):
        head = records[-1]
        records.append(seal(match=match_id, seq=head["seq"] + 1, kind=kind, seat=seat,
                            payload=payload, time=time(), prev_hash=head["hash"]))
        return records[-1]

    folder = Folder(records[0], get_ruleset=lambda name: ruleset)
    runner(folder, seed=seed, bots=bots, append=append, **runner_options).run(max_events)
    return records
