"""manage.py tournament: create and run a tournament of bots from flags or a spec file, with a
progress bar, then print the standings and the bracket."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from bots.driver import match_drive
from bots.sandbox import SandboxUnavailable
from bots.selectors import bot_version_by_ref
from replays.management.commands._common import python_command
from replays.models import Match

from ...models import PairingGame, Tournament
from ...selectors import tournament_bracket, tournament_standings
from ...services import ratings_recompute, tournament_advance, tournament_create, tournament_start

EXAMPLE = """example spec file (JSON):
{"name": "Friday Swiss", "game": "trap-the-wizard", "format": "swiss",
 "format_settings": {"rounds": 4}, "rules_options": {"rounds": 1},
 "time_control": {"move_ms": 1000, "bank_ms": 10000},
 "bots": ["greedy", "random", "alice/rnd", "greedy"]}"""


class Command(BaseCommand):
    help = "Run a whole tournament of bots in this process and print standings and bracket."

    def add_arguments(self, parser):
        parser.add_argument("--spec", help="a JSON file with the fields below. " + EXAMPLE)
        parser.add_argument("--name", default="")
        parser.add_argument("--game", default="trap-the-wizard")
        parser.add_argument("--format", default="swiss")
        parser.add_argument("--format-settings", default="{}", help="format settings as JSON")
        parser.add_argument("--options", default="{}", help="rules options as JSON")
        parser.add_argument("--time-control", default="{}",
                            help='the clock of every match as JSON, e.g. \'{"move_ms": 200, "bank_ms": 5000}\' '
                                 "(default: move_ms 1000, bank_ms 10000, increment_ms 0)")
        parser.add_argument("--bots", default="", help="comma-separated bots, one per entry in seed "
                            "order: built-in names or owner/name[@version]")
        parser.add_argument("--entrants", type=int, default=0,
                            help="cycle --bots (default: the game's built-in bots, but not "
                                 "search, which thinks for its whole clock) up to N entries")

    def handle(self, *args, **opts):
        spec = self._spec(opts)
        try:
            refs = spec["bots"]
            versions = [bot_version_by_ref(game=spec["game"], ref=ref) for ref in refs]
            # Created and started together: a refusal at the start leaves no tournament behind.
            with transaction.atomic():
                tournament = tournament_create(
                    name=spec.get("name") or f"{spec['format']} of {len(versions)} {spec['game']} bots",
                    game=spec["game"], format=spec["format"], entries=versions,
                    format_settings=spec.get("format_settings", {}), rules_options=spec.get("rules_options", {}),
                    time_control=spec.get("time_control"))
                tournament_start(tournament=tournament, queue=False)
            self._run(tournament)
        except (ValueError, SandboxUnavailable) as exc:
            raise CommandError(str(exc)) from None
        ratings_recompute(game=tournament.game)
        self._print(tournament)

    def _spec(self, opts) -> dict:
        if opts["spec"]:
            try:
                spec = json.loads(Path(opts["spec"]).read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise CommandError(f"cannot read the spec {opts['spec']}: {exc}") from None
            return self._checked_spec(spec)
        from bots.services import builtin_bots

        try:
            # By default every built-in bot but those that think for their whole clock (search):
            # a tournament of them would take the time control times every move.
            names = [b for b in opts["bots"].split(",") if b] or sorted(
                name for name, bot in builtin_bots(opts["game"]).items() if not bot.thinks)
            count = opts["entrants"] or len(names)
            return {"name": opts["name"], "game": opts["game"], "format": opts["format"],
                    "format_settings": json.loads(opts["format_settings"]),
                    "rules_options": json.loads(opts["options"]),
                    "time_control": json.loads(opts["time_control"]),
                    "bots": [names[i % len(names)] for i in range(count)]}
        except (json.JSONDecodeError, ValueError) as exc:
            raise CommandError(str(exc)) from None

    def _checked_spec(self, spec) -> dict:
        """The spec file's shape; the values are checked by tournament_create, with reasons."""
        if not isinstance(spec, dict):
            raise CommandError("the spec must be a JSON object; " + EXAMPLE)
        missing = [key for key in ("game", "format", "bots") if key not in spec]
        if missing:
            raise CommandError(f"the spec lacks {', '.join(missing)}; " + EXAMPLE)
        if not isinstance(spec["bots"], list) or not all(isinstance(ref, str) for ref in spec["bots"]):
            raise CommandError("bots must be a list of bot names, one per entry")
        if not isinstance(spec["game"], str) or not isinstance(spec["format"], str):
            raise CommandError("game and format must be strings")
        return spec

    def _run(self, tournament: Tournament) -> None:
        """Play every match the tournament starts, round after round, drawing a progress bar."""
        played, self._reported = 0, set()
        while True:
            pending = list(Match.objects.filter(pairing_game__pairing__tournament=tournament,
                                                status=Match.Status.RUNNING).order_by("created_at", "id"))
            if not pending:
                tournament_advance(tournament_id=tournament.pk, queue=False)
                pending = list(Match.objects.filter(pairing_game__pairing__tournament=tournament,
                                                    status=Match.Status.RUNNING))
                if not pending:
                    break
            for match in pending:
                match_drive(match_id=match.pk)
                played += 1
                self._progress(tournament, played)
        if self.stderr.isatty():
            self.stderr.write("")  # the line the bar was redrawn on ends

    def _progress(self, tournament: Tournament, played: int) -> None:
        """The bar, redrawn in place (a carriage return) on a terminal; where the output is
        captured (a pipe, a file, CI's log) a line per finished round instead, since there every
        redraw would stay as a line of its own."""
        games = PairingGame.objects.filter(pairing__tournament=tournament)
        latest = games.order_by("-pairing__round__number").values_list("pairing__round__number", flat=True).first()
        in_round = games.filter(pairing__round__number=latest)
        done = in_round.exclude(match__status=Match.Status.RUNNING).count()
        total = in_round.count()
        bar = "#" * (20 * done // max(total, 1))
        line = f"round {latest}: [{bar:<20}] {done}/{total} matches  ({played} played)"
        if self.stderr.isatty():
            self.stderr.write(f"\r{line}", style_func=str, ending="")
            self.stderr.flush()
        elif done == total and latest not in self._reported:
            self._reported.add(latest)
            self.stderr.write(line, style_func=str)

    def _print(self, tournament: Tournament) -> None:
        tournament.refresh_from_db()
        out = self.stdout.write
        out(self.style.SUCCESS(f"tournament {tournament.pk}: {tournament.name} — {tournament.status}"))
        out("\nStandings")
        rows = tournament_standings(tournament=tournament)
        breaks = list(rows[0]["tiebreaks"]) if rows else []
        out(f"  {'rank':>4}  {'seed':>4}  {'bot':<16} {'points':>6}  " + "  ".join(f"{b:>10}" for b in breaks))
        for row in rows:
            out(f"  {row['rank']:>4}  {row['seed']:>4}  {row['bot'] + ' v' + str(row['version']):<16} "
                f"{row['points']:>6g}  " + "  ".join(f"{row['tiebreaks'][b]:>10g}" for b in breaks))
        out("\nBracket")
        for round_ in tournament_bracket(tournament=tournament):
            out(f"  round {round_['round']}")
            for p in round_["pairings"]:
                seeds = {s["entry"]: s["seed"] for s in p["seats"]}  # people know an entry by its seed
                names = " v ".join(f"{s['bot']} (seed {s['seed']})" for s in p["seats"])
                if p["bye"]:
                    out(f"    {p['key']:<8} bye: {names}")
                    continue
                result = ", ".join(f"seed {seeds[int(e)]}: {place}" for e, place in
                                   sorted((p["placings"] or {}).items(), key=lambda kv: kv[1]))
                out(f"    {p['key']:<8} {names:<40} places {result}")
                for match_id in p["matches"]:
                    out(f"             match {match_id}")
        py = python_command()
        out(f"\nstep through any match: {py} manage.py replay MATCH --step N")
