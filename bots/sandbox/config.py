"""What a bot is given: where its code starts, its time control and its limits, and how much
of its output the evidence of a fault keeps."""
from __future__ import annotations

from dataclasses import asdict, dataclass

ENTRY = "main.py"  # an upload is a directory with main.py at its root (or a single .py file)
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
