"""manage.py replay MATCH --step N [--seat S]: the view after event N."""
import json

from django.core.management.base import BaseCommand, CommandError

from games.engine import registry
from replays.selectors import folder_next, match_event_count, match_folder, match_records

from ._common import get_match


class Command(BaseCommand):
    help = "Print the public view (or one seat's view) of a match after event N."

    def add_arguments(self, parser):
        parser.add_argument("match")
        parser.add_argument("--step", type=int, required=True, help="event seq, 0 = before the first move")
        parser.add_argument("--seat", type=int, default=None,
                            help="a seat's perspective; only for finished matches (default: public)")

    def handle(self, *args, match, step, seat, **kw):
        match = get_match(match)
        count = match_event_count(match=match)
        if not 0 <= step < count:
            raise CommandError(f"step must be in 0..{count - 1}")
        if seat is not None and match.status == match.Status.RUNNING:
            raise CommandError("a seat's view of a live match is hidden information")
        folder = match_folder(match=match, upto=step, in_place=True)
        ruleset = registry.get(match.ruleset, match.ruleset_version)
        event = match_records(match=match, first=step, last=step)[0]
        if event["kind"] == "chance" and match.status == match.Status.RUNNING:
            event["payload"] = {"spec": event["payload"]["spec"], "outcome": "(hidden while live)"}
        self.stdout.write(json.dumps({
            "match": str(match.id), "step": step, "steps": count,
            "event": {k: event[k] for k in ("seq", "kind", "seat", "payload")},
            "next": folder_next(folder), "view": ruleset.view(folder.state, seat),
        }, indent=2))

