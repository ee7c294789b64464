"""manage.py signing_key [--rotate]: the keys that sign the ends of matches.

Prints the public keys as GET /api/signing-keys/ serves them, so that the output is a key file
for the offline validator (python -m games.engine.log --keys FILE). --rotate first retires the
current key and makes a new one (replays/signing.py)."""
import json

from django.core.management.base import BaseCommand, CommandError

from replays.signing import (SigningKeyMissing, signing_key_current, signing_key_json,
                             signing_key_rotate, signing_keys_listed)


class Command(BaseCommand):
    help = ("Print the public signing keys as JSON (a key file for python -m games.engine.log "
            "--keys); --rotate retires the current key and makes a new one first.")

    def add_arguments(self, parser):
        parser.add_argument("--rotate", action="store_true",
                            help="retire the current key (what it signed still verifies) and "
                                 "sign with a new one from now on")

    def handle(self, *args, rotate, **kw):
        if rotate:
            key = signing_key_rotate()
            self.stderr.write(f"rotated: new signing key {key.key_id}")
        else:
            try:
                signing_key_current()  # made on first use, as the first match end would
            except SigningKeyMissing as exc:
                raise CommandError(str(exc)) from None
        self.stdout.write(json.dumps([signing_key_json(key) for key in signing_keys_listed()], indent=2))
