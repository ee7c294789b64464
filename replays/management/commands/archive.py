"""manage.py archive [MATCH ...] [--older-than DAYS] [--limit N]: move finished logs out of the
event table into compressed archives, hash chain and signature intact (replays/archives.py)."""
from django.core.management.base import BaseCommand, CommandError

from replays.archives import ArchiveRefused, match_archive, matches_to_archive

from ._common import get_match


class Command(BaseCommand):
    help = ("Archive finished matches: the named ones, or those that ended more than "
            "ARCHIVE_AFTER_DAYS (or --older-than) days ago.")

    def add_arguments(self, parser):
        parser.add_argument("matches", nargs="*", metavar="MATCH")
        parser.add_argument("--older-than", type=float, default=None, metavar="DAYS")
        parser.add_argument("--limit", type=int, default=1000)

    def handle(self, *args, matches, older_than, limit, **kw):
        chosen = [get_match(m) for m in matches] if matches else [
            get_match(str(pk)) for pk in matches_to_archive(older_than_days=older_than, limit=limit)]
        refused = 0
        for match in chosen:
            try:
                archive = match_archive(match=match)
            except ArchiveRefused as exc:
                refused += 1
                self.stderr.write(f"{match.pk}: not archived: {exc.reason}")
                continue
            self.stdout.write(f"{match.pk}: {archive.events} events archived in {len(archive.data):,} bytes")
        if refused and len(chosen) == len(matches) == refused:
            raise CommandError("nothing archived")
