"""A digest of everything a fold shows, for the tests that a game's older edition folds a log
exactly as that version did (tests/games/test_sorcado.py, test_trap_the_wizard.py)."""
import hashlib

from games.engine.log import Folder, canonical_json


def fold_digest(records):
    """Fold a log as the service does (registry.get, so a version 1 log finds edition 1) and
    hash every step's encoded state, views and legal actions: what snapshots and replays show."""
    folder, digest = Folder(records[0]), hashlib.sha256()
    for record in records[1:-1]:
        folder.step(record)
        ruleset, state, seats = folder.ruleset, folder.state, range(folder.players)
        digest.update(canonical_json([ruleset.encode(state), ruleset.view(state, None),
                                      [ruleset.view(state, s) for s in seats],
                                      [ruleset.legal_actions(state, s) for s in seats]]).encode())
    return folder.ruleset, digest.hexdigest()

