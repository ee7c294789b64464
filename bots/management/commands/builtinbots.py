"""manage.py builtinbots: make every registered game's built-in bots exist as bots (idempotent),
so the API lists them and tournaments can enter them."""
from django.core.management.base import BaseCommand

from games.engine import registry

from ...services import builtin_bot_versions


class Command(BaseCommand):
    help = "Create the built-in bots of every registered game (safe to run again)."

    def handle(self, *args, **kw):
        for game in registry.names():
            versions = builtin_bot_versions(game=game)
            self.stdout.write(f"{game}: " + ", ".join(f"{name} (bot {v.bot_id})" for name, v in sorted(versions.items())))
