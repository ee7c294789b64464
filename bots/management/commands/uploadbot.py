"""manage.py uploadbot PATH --game G --owner USER --name NAME: store a new bot version."""
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from ...models import Bot
from ...services import bot_create, bot_version_upload
from ...uploads import UploadRefused, read_bot


class Command(BaseCommand):
    help = ("Upload a bot (a .py file, a .zip with main.py or an arena.json naming its runtime, or a "
            "folder of such files, zipped here) as a new immutable version; the bot and a local owner "
            "account are created when missing.")

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--game", required=True)
        parser.add_argument("--owner", required=True, help="username (created if missing)")
        parser.add_argument("--name", required=True, help="the bot's name, unique per owner and game")

    def handle(self, *args, path, game, owner, name, **kw):
        try:
            filename, content = read_bot(Path(path))
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc}") from None
        user, _ = get_user_model().objects.get_or_create(username=owner)
        try:
            bot = Bot.objects.filter(owner=user, game=game, name=name).first() or \
                bot_create(owner=user, name=name, game=game)
            version = bot_version_upload(bot=bot, filename=filename, content=content)
        except UploadRefused as exc:
            raise CommandError(f"upload refused: {exc.reason}") from None
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if version.created:
            self.stdout.write(self.style.SUCCESS(
                f"{owner}/{name} version {version.number} stored (sha256 {version.sha256[:16]}..., "
                f"{version.size} bytes, runtime {version.runtime})"))
        else:
            self.stdout.write(self.style.WARNING(
                f"{owner}/{name} version {version.number} already holds these bytes (sha256 "
                f"{version.sha256[:16]}...): nothing stored"))
        from ladder.selectors import version_check_line

        self.stdout.write(version_check_line(version=version))
        self.stdout.write(f"play it: manage.py play {game} --bots {owner}/{name},random")
