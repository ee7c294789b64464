"""manage.py scrimmage GAME --bot OWNER/NAME --against BOT[,BOT...] --games N [--rated]: ask for
a scrimmage as its bot's owner, play its games in this process and print its W-T-L and every
game (docs/ladder.md, "Scrimmages")."""
from django.core.management.base import BaseCommand, CommandError

from bots.driver import match_drive
from bots.sandbox import SandboxUnavailable
from bots.selectors import bot_version_by_ref

from ...models import ScrimmageMatch
from ...scrimmages import ScrimmageRefused, scrimmage_create, scrimmage_match_finished, scrimmage_record
from ...services import ladder_match_finished


class Command(BaseCommand):
    help = "Play a scrimmage of one of your bots against others in this process and print its W-T-L."

    def add_arguments(self, parser):
        parser.add_argument("game")
        parser.add_argument("--bot", required=True, help="your bot: owner/name (it plays as its owner's request)")
        parser.add_argument("--against", required=True, help="comma-separated opponents: built-in names or owner/name")
        parser.add_argument("--games", type=int, default=4)
        parser.add_argument("--rated", action="store_true", help="count the games on the ladder")

    def handle(self, *args, game, bot, against, games, rated, **kw):
        try:
            mine = bot_version_by_ref(game=game, ref=bot).bot
            opponents = [bot_version_by_ref(game=game, ref=ref.strip()).bot for ref in against.split(",") if ref.strip()]
            if mine.owner is None:
                raise CommandError(f"{bot} is a built-in bot: a scrimmage is asked for by an uploaded bot's owner")
            scrimmage = scrimmage_create(owner=mine.owner, bot=mine, opponents=opponents, games=games,
                                         rated=rated, queue=False)
        except (ScrimmageRefused, ValueError) as exc:
            raise CommandError(str(exc)) from None
        for row in ScrimmageMatch.objects.filter(scrimmage=scrimmage).order_by("index"):
            try:
                match_drive(match_id=row.match_id)
            except SandboxUnavailable as exc:
                raise CommandError(str(exc)) from None
            ladder_match_finished(match_id=row.match_id)
            scrimmage_match_finished(match_id=row.match_id)
        shown = scrimmage_record(scrimmage=scrimmage)
        r = shown["record"]
        self.stdout.write(f"scrimmage {scrimmage.pk}: {bot} against {against}, {games} game(s), "
                          f"{'rated on the ladder' if rated else 'unrated'}")
        self.stdout.write(f"W-T-L {r['wins']}-{r['ties']}-{r['losses']}"
                          + (f" ({r['aborted']} aborted)" if r["aborted"] else ""))
        for g in shown["games"]:
            self.stdout.write(f"  game {g['index'] + 1}: seat {g['seat']} against {g['opponent']} "
                              f"v{g['opponent_version']}: {g['outcome']}  (replay: /matches/{g['match']}/)")
