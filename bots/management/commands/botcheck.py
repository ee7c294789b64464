"""manage.py botcheck PATH --game G: play an uploaded-style bot against a built-in bot locally
and say what went wrong, if anything. Nothing is stored."""
import json
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.engine import InvalidOptions, chance, registry
from games.engine.log import validate
from games.engine.runner import playout

from ...referee import FaultPolicy, RefereeRunner
from ...sandbox import SandboxedBot, SandboxUnavailable, TimeControl, sandbox_check
from ...uploads import UploadRefused, inspect_upload, materialize


class Command(BaseCommand):
    help = "Check a bot (a .py file or a .zip with main.py) by playing a local match in the sandbox."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--game", required=True, help=f"one of: {', '.join(registry.names())}")
        parser.add_argument("--opponent", default="random", help="a built-in bot of the game")
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--options", default="{}", help="rules options as JSON")
        parser.add_argument("--move-ms", type=int, default=TimeControl.move_ms)
        parser.add_argument("--bank-ms", type=int, default=TimeControl.bank_ms)

    def handle(self, *args, path, game, opponent, players, options, move_ms, bank_ms, **kw):
        try:
            ruleset = registry.get(game)
            opponents = ruleset.builtin_bots()
            if opponent not in opponents:
                raise CommandError(f"no built-in bot {opponent!r}; {game} has {', '.join(opponents)}")
            content = Path(path).read_bytes()
            info = inspect_upload(Path(path).name, content)
            if not settings.ARENA_ALLOW_UNSANDBOXED_BOTS:
                sandbox_check()
        except (registry.UnknownRuleset, UploadRefused, SandboxUnavailable, OSError) as exc:
            raise CommandError(str(exc)) from None
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp).chmod(0o755)  # the bot runs as an unprivileged uid that must read its code
            code = materialize(content, info.kind, Path(tmp) / "bot")
            bot = SandboxedBot(code, time_control=TimeControl(move_ms=move_ms, bank_ms=bank_ms),
                               sandbox=not settings.ARENA_ALLOW_UNSANDBOXED_BOTS)
            bots = {0: bot, **{s: opponents[opponent](ruleset, s) for s in range(1, players)}}
            try:
                records = playout(ruleset, players, seed=chance.new_seed(), bots=bots,
                                  options=json.loads(options), runner=RefereeRunner,
                                  policy=FaultPolicy())
            except (InvalidOptions, ValueError) as exc:
                raise CommandError(str(exc)) from None
            finally:
                bot.close()
        self._report(records, validate(records))

    def _report(self, records, report):
        out = self.stdout.write
        mine = [r for r in records if r["seat"] == 0]
        faults = [r for r in mine if r["kind"] == "forfeit" or "fault" in r["payload"]]
        times = [r["payload"]["clock"]["elapsed_ms"] for r in mine if "clock" in r["payload"]]
        result = records[-1]["payload"].get("result", {})
        out(f"{len(times)} moves by your bot (seat 0); slowest {max(times, default=0)} ms, "
            f"mean {sum(times) / max(len(times), 1):.1f} ms")
        out(f"result: scores {result.get('scores')}, placings {result.get('placings')}")
        out(f"log: {len(records)} events, {'valid' if report.ok else 'INVALID: ' + report.reason}")
        if not faults:
            out(self.style.SUCCESS("no faults: your bot played the whole match"))
            return
        for record in faults:
            detail = record["payload"].get("fault") or record["payload"]
            out(self.style.ERROR(f"seq {record['seq']}: {record['kind']}: "
                                 f"{json.dumps(detail)[:600]}"))
        raise CommandError(f"{len(faults)} fault(s): see above and docs/protocol.md")
