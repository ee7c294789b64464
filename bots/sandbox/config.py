"""What a bot is given: where its code starts, its time control and its limits, and how much
of its output the evidence of a fault keeps."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace

ENTRY = "main.py"  # of a bot without arena.json (a single .py file, or main.py at a zip's root)
SENT_CHARS, STDERR_CHARS, STDERR_KEEP = 500, 1000, 16_384


@dataclass(frozen=True)
class TimeControl:
    """Each move may use ``move_ms`` for free; beyond that it draws on the bank, which
    ``increment_ms`` refills after every answered move. An empty bank is a timeout."""

    move_ms: int = 1000
    bank_ms: int = 10000
    increment_ms: int = 0

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Limits:
    """Per bot process tree. ``processes`` counts the bot's processes and threads;
    ``message_bytes`` is the longest answer line (newline included); ``startup_ms`` is extra
    time for the first answer, counted from the start of the process."""

    memory_mb: int = 256
    cpu_seconds: int = 30
    processes: int = 16
    file_size_mb: int = 4
    message_bytes: int = 256_000
    startup_ms: int = 5000

    def to_json(self) -> dict:
        return asdict(self)

    @property
    def tmp_bytes(self) -> int:
        """The private /tmp holds a few files of the largest size (tmpfs is memory)."""
        return 4 * self.file_size_mb << 20


def cpu_allowance(time_control: TimeControl, *, decisions: int, startup_ms: int) -> int:
    """RLIMIT_CPU's seconds for a bot that may be asked ``decisions`` times under
    ``time_control``: all the time its clock can ever give it (the start-up grace, every move's
    ``move_ms`` and ``increment_ms``, and the whole bank) rounded up, plus a second. The clock
    pays wall time and every process of the bot is stopped between its moves, so a process that
    keeps to its clock never uses more CPU than this: only the clock can end such a bot, never
    the CPU limit (docs/protocol.md, "Limits")."""
    total_ms = startup_ms + decisions * (time_control.move_ms + time_control.increment_ms) \
        + time_control.bank_ms
    return math.ceil(total_ms / 1000) + 1


def limits_for_match(limits: Limits, time_control: TimeControl, decisions: int | None) -> Limits:
    """``limits`` with the CPU allowance of a match in which the bot decides at most
    ``decisions`` times (the game's bound on a match's events; None: not known, ``limits``
    as they are). The configured ``cpu_seconds`` stays the floor."""
    if decisions is None:
        return limits
    allowance = cpu_allowance(time_control, decisions=decisions, startup_ms=limits.startup_ms)
    return replace(limits, cpu_seconds=max(limits.cpu_seconds, allowance))
