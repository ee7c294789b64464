"""manage.py play GAME --players N: a match between built-in bots, stored, validated, explained."""
import json

from django.core.management.base import BaseCommand, CommandError

from games.engine import InvalidOptions, registry
from replays.management.commands._common import python_command
from replays.selectors import match_event_count, match_latest_validation, match_records

from ...sandbox import SandboxUnavailable
from ...services import builtin_bots, match_play


class Command(BaseCommand):
    help = "Play a match between built-in bots and print the result and where to look next."

    def add_arguments(self, parser):
        parser.add_argument("game", help=f"one of: {', '.join(registry.names())}")
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--bots", default="",
                            help="comma-separated bots, one per seat or cycled: built-in names "
                                 "(greedy, random, ...) or uploaded bots as owner/name[@version] "
                                 "(default: the game's strongest built-in bot against random)")
        parser.add_argument("--options", default="{}", help='rules options as JSON, e.g. \'{"rounds": 3}\'')
        parser.add_argument("--bot-seed", type=int, default=0, help="seed of the bots' own choices")

    def handle(self, *args, game, players, bots, options, bot_seed, **kw):
        try:
            available = builtin_bots(game)
            names = [b for b in bots.split(",") if b] or _default_lineup(available)
            lineup = [names[i % len(names)] for i in range(players)]
            match = match_play(ruleset=game, bots=lineup, options=json.loads(options),
                               bot_seed=bot_seed)
        except (registry.UnknownRuleset, InvalidOptions, SandboxUnavailable, ValueError) as exc:
            raise CommandError(str(exc)) from None
        match.refresh_from_db()
        out = self.stdout.write
        out(self.style.SUCCESS(f"{game}: match {match.id} {match.status}, "
                               f"{match_event_count(match=match)} events"))
        for seat, (bot, score, place) in enumerate(zip(lineup, match.result["scores"],
                                                       match.result["placings"])):
            out(f"  seat {seat} {bot:<8} score {score:>3}   place {place}")
        for record in match_records(match=match):
            if record["kind"] == "forfeit" or "fault" in record["payload"]:
                detail = record["payload"].get("fault", record["payload"])
                out(self.style.WARNING(f"  seq {record['seq']}: seat {record['seat']} "
                                       f"{record['kind']}: {json.dumps(detail)[:300]}"))
        validation = match_latest_validation(match=match)
        if validation is None:
            out("validation: queued (a Celery worker will validate the log)")
        else:
            verdict = "valid" if validation.ok else f"INVALID at seq {validation.first_bad_seq}: {validation.reason}"
            out(f"validation: {verdict} ({validation.report['events']} events re-folded, "
                f"chance outcomes re-derived from the revealed seed)")
        py = python_command()
        out("\nWhere to look next:")
        out(f"  {py} manage.py replay {match.id} --step 10   # the public view after event 10")
        out(f"  {py} manage.py validate {match.id}   # re-fold the log, check every event")
        out(f"  {py} manage.py export {match.id} > match.jsonl   # the hash-chained log as JSON Lines")
        out(f"  {py} -m games.engine.log match.jsonl   # validate the export offline, without Django")
        out(f"  {py} manage.py runserver   # then the viewer: http://127.0.0.1:8000/matches/{match.id}/")
        out("                                          # and the site: http://127.0.0.1:8000/ (games, ladders, tournaments, bots)")


def _default_lineup(available: dict) -> list[str]:
    """The game's best bot against random: the first seat gets the strongest non-random bot."""
    strongest = next((name for name in ("heuristic", "greedy") if name in available), "random")
    return [strongest, "random"]
