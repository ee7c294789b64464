"""manage.py ladder GAME [--matches N]: play N ladder matches in this process (the matchmaker's
pairings, one match at a time, driven here) and print the leaderboard; the loop of the ladder
seen without a broker (docs/ladder.md)."""
from django.core.management.base import BaseCommand, CommandError

from bots.driver import match_drive
from bots.sandbox import SandboxUnavailable

from ...models import LadderEntry
from ...selectors import ladder_leaderboard
from ...services import (ladder_get_or_create, ladder_match_finished, ladder_ratings_recompute,
                         ladder_remote_bots_admit, ladder_top_up)


class Command(BaseCommand):
    help = "Play ladder matches of a game in this process and print its leaderboard."

    def add_arguments(self, parser):
        parser.add_argument("game")
        parser.add_argument("--matches", type=int, default=10, help="ladder matches to play here (default 10; 0: none)")
        parser.add_argument("--seats", type=int, default=None,
                            help="seats a match, for a ladder made now (default 2; 3-7: pods where the game takes them)")
        parser.add_argument("--remote-bots", choices=["admit", "refuse"], default=None,
                            help="whether remote bots (docs/remote.md) join the ladder and are paired on it")
        parser.add_argument("--recompute", action="store_true", help="fold the ratings again from the whole history first")

    def handle(self, *args, game, matches, seats, recompute, verbosity, remote_bots=None, **kw):
        try:
            ladder = ladder_get_or_create(game=game, seats=seats)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if remote_bots is not None:
            ladder_remote_bots_admit(ladder=ladder, admit=remote_bots == "admit")
            self.stdout.write(f"the {ladder.game} ladder {'admits' if ladder.admits_remote_bots else 'refuses'} remote bots")
        if recompute:
            self.stdout.write(f"recomputed: {ladder_ratings_recompute(ladder=ladder)} matches rated")
        active = LadderEntry.objects.filter(ladder=ladder, active=True).count()
        if matches and active < ladder.seats:
            raise CommandError(f"the {ladder.game} ladder has {active} active bot(s); a match needs {ladder.seats}")
        played = 0
        while played < matches:
            made = ladder_top_up(ladder=ladder, in_flight=1, queue=False)
            if not made:
                raise CommandError("the matchmaker found no pairing (every bot busy in a match in flight?)")
            for ladder_match in made:
                try:
                    match_drive(match_id=ladder_match.match_id)
                except SandboxUnavailable as exc:
                    raise CommandError(str(exc)) from None
                ladder_match_finished(match_id=ladder_match.match_id)
                played += 1
                if verbosity > 1:
                    self.stdout.write(f"match {ladder_match.match_id}: {ladder_match.match.seats}")
        self.stdout.write(f"{ladder.game} ladder: {played} match(es) played here\n")
        self.stdout.write(f"{'rank':>4}  {'bot':<28} {'ver':>3}  {'mu-3sigma':>9}  {'mu':>6}  {'sigma':>5}  {'games':>5}")
        for row in ladder_leaderboard(ladder=ladder):
            owner = row["bot"].owner.username + "/" if row["bot"].owner else ""
            self.stdout.write(f"{row['rank']:>4}  {(owner + row['bot'].name)[:28]:<28} {row['version']:>3}  "
                              f"{row['conservative']:>9.2f}  {row['mu']:>6.2f}  {row['sigma']:>5.2f}  {row['games']:>5}")
