"""manage.py export MATCH: the log as JSON Lines on stdout (or --output FILE)."""
from django.core.management.base import BaseCommand, CommandError

from games.engine.log import canonical_json
from replays.selectors import match_records

from ._common import get_match


class Command(BaseCommand):
    help = "Export a finished match's event log as JSON Lines, one event per line."

    def add_arguments(self, parser):
        parser.add_argument("match")
        parser.add_argument("--output", "-o", default=None)

    def handle(self, *args, match, output, **kw):
        match = get_match(match)
        if match.status == match.Status.RUNNING:
            # Raw events of a live match carry hidden information (a shuffle is a deck order).
            raise CommandError("the match is still running: raw events are exported after the end")
        lines = "".join(canonical_json(r) + "\n" for r in match_records(match=match))
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(lines)
        else:
            self.stdout.write(lines, ending="")
