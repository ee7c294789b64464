"""manage.py import FILE: validate an exported replay, then store it (or refuse it with why)."""
import json

from django.core.management.base import BaseCommand, CommandError

from replays.services import ImportRefused, match_import


class Command(BaseCommand):
    help = "Import a replay from JSON Lines; it is validated in full before anything is stored."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **kw):
        try:
            with open(file, encoding="utf-8") as fh:
                match = match_import(lines=fh)
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        except ImportRefused as exc:
            detail = f"\n{json.dumps(exc.report, indent=2)}" if exc.report else ""
            raise CommandError(f"replay refused: {exc.reason}{detail}") from None
        self.stdout.write(self.style.SUCCESS(f"imported match {match.id} ({match.ruleset}, "
                                             f"{match.events.count()} events, valid)"))
