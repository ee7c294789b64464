"""What goes wrong: a bot that breaks the protocol or a limit (``BotFault``, a forfeit), and a
host where bots cannot be sandboxed (``SandboxUnavailable``, uploaded bots are refused)."""
from __future__ import annotations

FAULT_REASONS = ("timeout", "crash", "garbage", "output_limit")


class BotFault(Exception):
    """The bot broke the protocol or a limit. ``reason`` is a forfeit reason of the event log;
    ``evidence`` is JSON-able (sent, elapsed_ms, exit_code, stderr, detail) and goes into the
    forfeit event as it is."""

    def __init__(self, reason: str, evidence: dict | None = None):
        if reason not in FAULT_REASONS:
            raise ValueError(f"a bot fault is one of {FAULT_REASONS}, not {reason!r}")
        self.reason = reason
        self.evidence = dict(evidence or {})
        super().__init__(f"{reason}: {self.evidence.get('detail', '')}".rstrip(": "))


class SandboxUnavailable(Exception):
    """The sandbox cannot run here; the message says why and what to do. Uploaded bots are
    refused rather than run without it."""
