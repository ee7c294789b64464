"""manage.py showcase: one short match of each game between built-in bots, stored, validated,
and where to watch each on the site (the demo's last part: python3 dev.py demo)."""
import json

from django.core.management.base import BaseCommand, CommandError

from games.engine import registry
from replays.management.commands._common import python_command
from replays.selectors import match_event_count, match_latest_validation

from ...services import builtin_bots, match_play

# Options that keep each match to a few seconds; a game not named here plays its defaults (its
# default two-player game is already short).
SHORT_OPTIONS = {"trap-the-wizard": {"rounds": 1}}


class Command(BaseCommand):
    help = "Play one short match of each game between built-in bots and print where to watch them."

    def add_arguments(self, parser):
        parser.add_argument("--games", default="", help="comma-separated games (default: every game)")
        parser.add_argument("--site", default="http://127.0.0.1:8000", help="the site's address in the links")

    def handle(self, *args, games, site, **kw):
        names = [g for g in games.split(",") if g] or registry.names()
        unknown = sorted(set(names) - set(registry.names()))
        if unknown:
            raise CommandError(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(registry.names())}")
        out, site = self.stdout.write, site.rstrip("/")
        rows = []
        for game in names:
            available = builtin_bots(game)
            strongest = next((n for n in ("heuristic", "greedy") if n in available), "random")
            options = SHORT_OPTIONS.get(game, {})
            match = match_play(ruleset=game, bots=[strongest, "random"], options=options)
            match.refresh_from_db()
            validation = match_latest_validation(match=match)
            verdict = ("queued" if validation is None else
                       "valid" if validation.ok else f"INVALID at seq {validation.first_bad_seq}")
            placings = match.result["placings"]
            winner = ", ".join(f"seat {seat} ({bot})" for seat, bot in enumerate([strongest, "random"])
                               if placings[seat] == 1)
            rows.append((game, match, verdict, winner))
            out(f"{game:<16} {strongest} v random{'' if not options else ' ' + json.dumps(options)}: "
                f"{match_event_count(match=match)} events, first: {winner}, validation: {verdict}")
        out(f"\nWatch them on the site ({python_command()} manage.py runserver, then open):")
        for game, match, _, _ in rows:
            out(f"  {game:<16} {site}/matches/{match.id}/   (the game: {site}/games/{game}/)")
        if any(verdict.startswith("INVALID") for _, _, verdict, _ in rows):
            raise CommandError("a match's log did not validate")
