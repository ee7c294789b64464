"""manage.py import FILE: validate an exported replay, then store it (or refuse it with why)."""
import json

from django.core.management.base import BaseCommand, CommandError

from replays.services import ImportRefused, match_import


class Command(BaseCommand):
    help = "Import a replay from JSON Lines; it is validated in full before anything is stored."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--allow-unsigned", action="store_true",
                            help="also store a replay whose end is not signed by this service "
                                 "(no signature, or another service's), marked unsigned")

    def handle(self, *args, file, allow_unsigned, **kw):
        try:
            with open(file, encoding="utf-8") as fh:
                match = match_import(lines=fh, allow_unsigned=allow_unsigned)
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        except ImportRefused as exc:
            detail = f"\n{json.dumps(exc.report, indent=2)}" if exc.report else ""
            raise CommandError(f"replay refused: {exc.reason}{detail}") from None
        self.stdout.write(self.style.SUCCESS(f"imported match {match.id} ({match.ruleset}, "
                                             f"{match.events.count()} events, valid, "
                                             f"{'UNSIGNED' if match.unsigned else 'signed by this service'})"))
