"""The sandboxed runner of uploaded bots: one subprocess per bot and match, speaking the bot
protocol (docs/protocol.md, JSON Lines over stdin/stdout) under bubblewrap.

Plain Python, no Django: the match driver, ``manage.py botcheck`` and the tests use it alike.
``SandboxedBot`` has the interface of ``games.engine.bots.Bot`` so ``MatchRunner`` drives it as it
drives a built-in bot; whatever the bot does wrong becomes a ``BotFault`` the driver records as a
forfeit, and the match goes on.

What contains a bot, and why each piece is there:

* **namespaces** (bwrap): a private network namespace (only a loopback of its own: no network),
  a private pid namespace (the bot sees only its own processes, and killing the namespace's init
  kills every process in it, daemons and double forks included), private IPC and UTS.
* **filesystem**: a fresh root with /usr (and the /lib, /bin links), what the bot's runtime binds
  (``runtimes``: the Python installation and the games package, python-numeric's environment)
  and the bot's code at /bot, all read-only; a size-limited private tmpfs at /tmp; no /etc, no
  /home, no /work, so another bot's files and the service's settings do not exist in there.
* **runtimes** (``runtimes.RUNTIMES``, one row each: python, python-numeric, node, native): what
  the sandbox binds, how the program starts, its version string; the upload's ``arena.json``
  names one. Every other piece here is the same for every runtime.
* **an unprivileged uid of its own** (leased per bot from a range no account uses): rlimits on
  processes count per uid, and a fork bomb is contained only if the bot's uid is not root's and
  is shared with nobody. The same uid lets ``close()`` find every process of the bot.
* **rlimits**: address space (memory), CPU seconds, processes, file size, no core files, open
  files; set by util-linux ``prlimit`` in front of bwrap.
* **seccomp** (a small BPF filter): no new user namespaces, in which a bot could mount a tmpfs
  that no rlimit counts; no SysV shared memory, memfd or POSIX message queues, memory that no
  process owns, so the address-space rlimit never counts it.
* **the protocol layer** (here): a per-move clock with a time bank, a byte limit per message,
  no unsolicited output, and a bounded stderr buffer that the bot cannot block on while it is
  being asked. Between its answer and the next question every process of the bot is stopped
  (SIGSTOP, found through /proc/PID/task/TID/children): RLIMIT_CPU counts per process, so a bot
  that keeps forking could otherwise burn CPU the whole match while its opponents think.

Two ways to get an unprivileged uid, chosen once per process by ``sandbox_check()``:

* ``setpriv``: bwrap runs as root (it needs CAP_SYS_ADMIN, as on a plain Debian host) and the
  bot is started through ``setpriv`` (util-linux) as the leased uid with no capabilities and
  no_new_privs. Root-owned paths such as /root/.pyenv can be bound.
* ``userns``: bwrap itself runs as the leased uid (or as the caller when it is not root) and uses an
  unprivileged user namespace (Docker workers with the compose file's security options). Every
  bound path must then be traversable by that uid.

``sandbox=False`` is the local-development runner: no namespaces, same rlimits (except processes:
they would count the developer's own processes), clock and output limits; ``close()`` kills the
process group and every process that still carries the bot's private environment marker.

The package, module by module: ``errors`` (BotFault, SandboxUnavailable), ``config`` (the entry
point, TimeControl, Limits), ``runtimes`` (the runtimes' rows and the manifest), ``jail`` (the
mode probe behind ``sandbox_check()``, a runtime's row resolved on this host and the bwrap
command line: mounts, seccomp, rlimits), ``processes`` (the uid lease and
the /proc scans), ``channel`` (the pipes, answer decoding, the clock) and ``bot``
(SandboxedBot). The settings are read where they are used, so tests patch them there:
``bots.sandbox.jail.BWRAP``, ``jail.BOT_PYTHON``, ``jail.MODES``; the package re-exports only
the interface below.
"""
from __future__ import annotations

from .bot import SandboxedBot
from .config import ENTRY, Limits, TimeControl, cpu_allowance, limits_for_match
from .errors import FAULT_REASONS, BotFault, SandboxUnavailable
from .jail import INSTALL_HINT, runtime_check, sandbox_check, sandbox_mode
from .processes import processes_of_uid
from .runtimes import MANIFEST, RUNTIMES, Manifest, ManifestError, Runtime, manifest_of, manifest_parse

__all__ = [
    "ENTRY", "FAULT_REASONS", "INSTALL_HINT", "MANIFEST", "RUNTIMES", "BotFault", "Limits", "Manifest",
    "ManifestError", "Runtime", "SandboxUnavailable", "SandboxedBot", "TimeControl", "cpu_allowance",
    "limits_for_match", "manifest_of", "manifest_parse", "processes_of_uid", "runtime_check", "sandbox_check",
    "sandbox_mode",
]
