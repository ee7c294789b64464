"""manage.py validate MATCH: re-fold the whole log and store the verdict."""
import json

from django.core.management.base import BaseCommand

from replays.services import match_validate

from ._common import get_match


class Command(BaseCommand):
    help = "Validate a match: hash chain, every event legal, chance re-derived, result, snapshots."

    def handle(self, *args, match, **kw):
        validation = match_validate(match=get_match(match))
        self.stdout.write(json.dumps(validation.report, indent=2))
        if not validation.ok:
            raise SystemExit(1)

    def add_arguments(self, parser):
        parser.add_argument("match")
