"""manage.py botcheck PATH --game G: play an uploaded-style bot against a built-in bot locally
and say what went wrong, if anything. Nothing is stored unless --store asks for it: then the bot
is uploaded (or its same bytes found) and the match is played and stored as any other, so it
can be replayed, validated and exported."""
import json
import re
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.engine import InvalidOptions, chance, registry
from games.engine.log import validate
from games.engine.runner import playout
from replays.management.commands._common import python_command

from ...referee import FaultPolicy, RefereeRunner
from ...sandbox import RUNTIMES, SandboxedBot, SandboxUnavailable, TimeControl, sandbox_check
from ...uploads import UploadRefused, inspect_upload, materialize, read_bot

STDERR_SHOWN = 4000  # characters of the bot's stderr tail printed (-v 2, or after a fault)


class Command(BaseCommand):
    help = ("Check a bot (a .py file, a .zip with main.py or an arena.json naming its runtime, or a "
            "folder of such files) by playing a local match in the sandbox. -v 2 also prints the bot's "
            "stderr when it plays without a fault.")

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--game", required=True, help=f"one of: {', '.join(registry.names())}")
        parser.add_argument("--opponent", default="random", help="a built-in bot of the game (default random)")
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--seat", type=int, default=0, help="your bot's seat, 0 the first (default 0)")
        parser.add_argument("--options", default="{}", help="rules options as JSON")
        parser.add_argument("--move-ms", type=int, default=TimeControl.move_ms)
        parser.add_argument("--bank-ms", type=int, default=TimeControl.bank_ms)
        parser.add_argument("--store", action="store_true",
                            help="upload the bot as OWNER/NAME and store the match like any other "
                                 "(replay, validate, export it); the same bytes reuse their version")
        parser.add_argument("--owner", default="botcheck", help="with --store: the bot's owner (made if new)")
        parser.add_argument("--name", default="", help="with --store: the bot's name (default: the file's)")

    def handle(self, *args, path, game, opponent, players, seat, options, move_ms, bank_ms, store,
               owner, name, verbosity, **kw):
        try:
            ruleset = registry.get(game)
            opponents = ruleset.bots()
            if opponent not in opponents:
                raise CommandError(f"no built-in bot {opponent!r}; {ruleset.spec.name} has "
                                   f"{', '.join(opponents)}")
            low, high = ruleset.spec.min_players, ruleset.spec.max_players
            if not low <= players <= high:
                raise CommandError(f"{ruleset.spec.name} takes {low}-{high} players, not {players}")
            if not 0 <= seat < players:
                raise CommandError(f"--seat must be in 0..{players - 1} for {players} players, got {seat}")
            rules_options = json.loads(options)
            filename, content = read_bot(Path(path))
            info = inspect_upload(filename, content)
            if not settings.ARENA_ALLOW_UNSANDBOXED_BOTS:
                sandbox_check()
        except json.JSONDecodeError as exc:
            raise CommandError(f"--options is not JSON: {exc}") from None
        except (registry.UnknownRuleset, UploadRefused, SandboxUnavailable, OSError) as exc:
            raise CommandError(str(exc)) from None
        others = [s for s in range(players) if s != seat]
        self.stdout.write(f"runtime: {info.runtime} (entry point {info.entry}): {RUNTIMES[info.runtime].summary}")
        self.stdout.write(f"your bot in seat {seat}; opponent: {opponent} (built-in bot of {ruleset.spec.name}) "
                          f"in seat{'s' if len(others) > 1 else ''} {', '.join(map(str, others))}")
        time_control = TimeControl(move_ms=move_ms, bank_ms=bank_ms)
        if store:
            records, stderr, match = self._stored(path, filename, content, ruleset, seat, opponent, players,
                                                  rules_options, time_control, owner, name)
        else:
            records, stderr = self._local(content, info, ruleset, seat, opponent, players, rules_options,
                                          time_control)
            match = None
        self._report(records, validate(records) if match is None else None, seat, stderr, verbosity, match)

    def _local(self, content, info, ruleset, seat, opponent, players, rules_options, time_control):
        """Play in this process (nothing stored): the records and the bot's stderr tail."""
        from bots.driver import builtin_bot, decision_bound
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp).chmod(0o755)  # the bot runs as an unprivileged uid that must read its code
            code = materialize(content, info.kind, Path(tmp) / "bot")
            try:
                decisions = decision_bound(ruleset, players, rules_options)
            except (InvalidOptions, ValueError) as exc:
                raise CommandError(str(exc)) from None
            bot = SandboxedBot(code, time_control=time_control, sandbox=not settings.ARENA_ALLOW_UNSANDBOXED_BOTS,
                               decisions=decisions)
            bots = {s: bot if s == seat else builtin_bot(ruleset, opponent, s, time_control)
                    for s in range(players)}
            try:
                records = playout(ruleset, players, seed=chance.new_seed(), bots=bots, options=rules_options,
                                  runner=RefereeRunner, policy=FaultPolicy())
            except (InvalidOptions, ValueError) as exc:
                raise CommandError(str(exc)) from None
            finally:
                bot.close()
        return records, bot.stderr_text

    def _stored(self, path, filename, content, ruleset, seat, opponent, players, rules_options, time_control,
                owner, name):
        """Upload the bot (its same bytes find their version) and play a stored match through the
        match driver, as the service plays any match."""
        from django.contrib.auth import get_user_model

        from bots.driver import match_drive
        from bots.models import Bot
        from bots.services import bot_create, bot_version_upload, builtin_bot_versions, match_start
        from replays.selectors import match_records

        name = name or re.sub(r"[^A-Za-z0-9_-]", "-", Path(path).stem)[:64]
        game = ruleset.spec.name
        try:
            user, _ = get_user_model().objects.get_or_create(username=owner)
            bot = Bot.objects.filter(owner=user, game=game, name=name).first() or \
                bot_create(owner=user, name=name, game=game)
            version = bot_version_upload(bot=bot, filename=filename, content=content)
            builtin = builtin_bot_versions(game=game)[opponent]
            match = match_start(ruleset=game, versions=[version if s == seat else builtin for s in range(players)],
                                options=rules_options, time_control=time_control.to_json(), queue=False)
        except (InvalidOptions, ValueError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"stored as {owner}/{name} version {version.number} "
                          f"({'new' if getattr(version, 'created', True) else 'the same bytes as before'})")
        seated: dict = {}
        match_drive(match_id=match.pk, seated=seated)
        match.refresh_from_db()
        stderr = getattr(seated.get(seat), "stderr_text", "")
        return match_records(match=match), stderr, match

    def _report(self, records, report, seat, stderr, verbosity, match):
        out = self.stdout.write
        mine = [r for r in records if r["seat"] == seat]
        faults = [r for r in mine if r["kind"] == "forfeit" or "fault" in r["payload"]]
        times = [r["payload"]["clock"]["elapsed_ms"] for r in mine if "clock" in r["payload"]]
        result = records[-1]["payload"].get("result", {})
        out(f"{len(times)} moves by your bot (seat {seat}); slowest {max(times, default=0)} ms, "
            f"mean {sum(times) / max(len(times), 1):.1f} ms")
        out(f"result: scores {result.get('scores')}, placings {result.get('placings')}")
        if match is None:
            out(f"log: {len(records)} events, {'valid' if report.ok else 'INVALID: ' + report.reason}")
        else:
            self._where(match, len(records))
        if stderr and (faults or verbosity >= 2):
            out(f"your bot's stderr (the last {min(len(stderr), STDERR_SHOWN)} characters):")
            out(stderr[-STDERR_SHOWN:].rstrip("\n"))
        elif verbosity >= 2:
            out("your bot wrote nothing to stderr")
        if not faults:
            out(self.style.SUCCESS("no faults: your bot played the whole match"))
            return
        for record in faults:
            detail = record["payload"].get("fault") or record["payload"]
            out(self.style.ERROR(f"seq {record['seq']}: {record['kind']}: "
                                 f"{json.dumps(detail)[:600]}"))
        raise CommandError(f"{len(faults)} fault(s): see above and docs/protocol.md")

    def _where(self, match, events):
        from replays.selectors import match_latest_validation

        out = self.stdout.write
        validation = match_latest_validation(match=match)
        verdict = "validation queued (a worker validates it)" if validation is None else (
            "valid" if validation.ok else f"INVALID at seq {validation.first_bad_seq}: {validation.reason}")
        out(f"match {match.id}: {match.status}, {events} events, {verdict}")
        py = python_command()
        out(f"  {py} manage.py replay {match.id} --step 10   # step through it")
        out(f"  {py} manage.py validate {match.id}   # re-fold the log, check every event")
        out(f"  {py} manage.py export {match.id} > match.jsonl   # the signed log as JSON Lines")
