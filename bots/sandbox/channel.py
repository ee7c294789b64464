"""The channel to a running bot: its pipes with deadlines, the decoding of its answers, and
the clock that charges them."""
from __future__ import annotations

import json
import os
import selectors
import subprocess
import time

from .config import SENT_CHARS, STDERR_KEEP, TimeControl
from .errors import BotFault


# -- the pipes ---------------------------------------------------------------------------------

class _Pipes:
    """Non-blocking stdin/stdout/stderr of the bot with deadlines. stdout is read only when an
    answer is due; stderr is drained into a bounded tail whenever we wait on the bot."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.out = bytearray()
        self.err = bytearray()
        self.stdout_eof = self.stderr_eof = False
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)

    def write(self, data: bytes, deadline: float) -> None:
        """All of ``data`` to the bot's stdin before ``deadline``."""
        view = memoryview(data)
        fd = self.proc.stdin.fileno()
        while view:
            try:
                view = view[os.write(fd, view):]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ValueError):
                raise BotFault("crash", {"detail": "the bot closed its input (exited?)"})
            if not self._wait(deadline, write=True):
                raise BotFault("timeout", {"detail": "the bot did not read its input in time"})

    def read_line(self, deadline: float, max_bytes: int) -> bytes:
        """One line (without its newline) before ``deadline``, at most ``max_bytes`` long."""
        while True:
            end = self.out.find(b"\n")
            if end >= 0:
                line = bytes(self.out[:end])
                del self.out[:end + 1]
                if end + 1 > max_bytes:
                    raise self._too_long(max_bytes, line)
                return line
            if len(self.out) >= max_bytes:
                raise self._too_long(max_bytes, bytes(self.out))
            if self.stdout_eof:
                raise BotFault("crash", {"detail": "the bot's output ended (it exited)"})
            if not self._wait(deadline):
                raise BotFault("timeout", {"detail": "no answer before the clock ran out"})

    @staticmethod
    def _too_long(max_bytes: int, data: bytes) -> BotFault:
        return BotFault("output_limit", {"detail": f"an answer line is longer than {max_bytes} bytes",
                                         "sent": _sent(data)})

    def unsolicited(self, max_bytes: int) -> bytes:
        """What the bot wrote when nobody asked (up to ``max_bytes`` + 1), without waiting."""
        self._wait(time.monotonic(), idle_stdout=False)
        while len(self.out) <= max_bytes and self._read(self.proc.stdout, self.out):
            pass
        return bytes(self.out)

    def _wait(self, deadline: float, write: bool = False, idle_stdout: bool = True) -> bool:
        """Wait for progress until ``deadline``, draining stderr meanwhile; False on timeout."""
        with selectors.DefaultSelector() as sel:
            if write:
                sel.register(self.proc.stdin, selectors.EVENT_WRITE)
            elif idle_stdout and not self.stdout_eof:
                sel.register(self.proc.stdout, selectors.EVENT_READ)
            if not self.stderr_eof:
                sel.register(self.proc.stderr, selectors.EVENT_READ)
            ready = sel.select(max(0.0, deadline - time.monotonic()))
        progress = False
        for key, _ in ready:
            if key.fileobj is self.proc.stderr:
                self._read(self.proc.stderr, self.err)
                del self.err[:-STDERR_KEEP]
            else:  # stdin writable, or stdout data or EOF: the caller's loop looks again
                progress = True
                if key.fileobj is self.proc.stdout:
                    self._read(self.proc.stdout, self.out)
        return progress or time.monotonic() < deadline

    def _read(self, stream, buffer: bytearray) -> bool:
        """Append what is there; True if something came. Sets the EOF flags."""
        try:
            chunk = os.read(stream.fileno(), 65536)
        except BlockingIOError:
            return False
        except (OSError, ValueError):
            chunk = b""
        if not chunk:
            if stream is self.proc.stdout:
                self.stdout_eof = True
            else:
                self.stderr_eof = True
            return False
        buffer += chunk
        return True

    def drain_stderr(self, seconds: float) -> None:
        """Collect stderr until EOF or ``seconds`` pass (after the bot exited or was killed)."""
        deadline = time.monotonic() + seconds
        while not self.stderr_eof and time.monotonic() < deadline:
            self._wait(deadline, idle_stdout=False)

    def stderr_text(self, chars: int = STDERR_KEEP) -> str:
        return _text(bytes(self.err))[-chars:]


def _text(data: bytes) -> str:
    """Bot bytes as JSON-safe text for evidence (invalid UTF-8 replaced)."""
    return data.decode("utf-8", errors="replace")


def _sent(data: bytes) -> str:
    """The evidence of what the bot wrote: its first SENT_CHARS characters."""
    return _text(data[:SENT_CHARS * 4])[:SENT_CHARS]


def _decode_answer(line: bytes):
    """The action in an answer line ``{"action": ...}``; garbage raises BotFault."""
    def refuse(detail: str) -> BotFault:
        return BotFault("garbage", {"detail": detail, "sent": _sent(line)})

    try:
        answer = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError too
        raise refuse(f"the answer is not a JSON line: {str(exc)[:200]}") from None
    if not isinstance(answer, dict) or "action" not in answer:
        raise refuse('the answer must be a JSON object {"action": ...}')
    return answer["action"]


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON (the event log refuses it)")


# -- the clock ---------------------------------------------------------------------------------

class _Clock:
    """Move time and bank. The first answer of each process also gets what is left of
    ``startup_ms`` since the process started, uncharged."""

    def __init__(self, tc: TimeControl, startup_ms: int):
        self.tc, self.bank_ms, self.startup_ms = tc, tc.bank_ms, startup_ms
        self.started_at: float | None = None
        self.first = True

    def started(self, now: float) -> None:
        self.started_at, self.first = now, True

    def window(self, now: float) -> tuple[float, float]:
        """(grace seconds, total seconds) the bot has for the answer it is asked for now."""
        grace = 0.0
        if self.first and self.started_at is not None:
            grace = max(0.0, self.started_at + self.startup_ms / 1000 - now)
        self.first = False
        return grace, grace + (self.tc.move_ms + self.bank_ms) / 1000

    def charge(self, elapsed: float, grace: float) -> int:
        """Debit the bank for an answered move; the bank after it."""
        over = int((elapsed - grace) * 1000) - self.tc.move_ms
        self.bank_ms = max(0, self.bank_ms - max(0, over)) + self.tc.increment_ms
        return self.bank_ms
