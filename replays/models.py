"""The event store: matches, their append-only hash-chained events, snapshots and validations.

Events are written only by replays.services.event_append; the database itself refuses UPDATE and
DELETE on the event table (triggers in migration 0002, on PostgreSQL and SQLite).
"""
import uuid

from django.db import models


class Match(models.Model):
    """One match of one ruleset. Its truth is its event log; the fields here are a cache of the
    log's envelope (ruleset, seats, status, result) for listing, plus the secret seed."""

    class Status(models.TextChoices):
        RUNNING = "running"
        ENDED = "ended"
        ABORTED = "aborted"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    ruleset = models.CharField(max_length=64, db_index=True)
    ruleset_version = models.PositiveIntegerField()
    options = models.JSONField(default=dict)
    players = models.PositiveSmallIntegerField()
    seats = models.JSONField(default=list, help_text="Who plays each seat (bot names for now).")
    # Secret until the end: chance outcomes are HMACs of this seed. Never shown by any view.
    seed = models.BinaryField(max_length=64, editable=False)
    seed_commitment = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING,
                              db_index=True)
    result = models.JSONField(null=True, blank=True)
    time_control = models.JSONField(default=dict, blank=True,
                                    help_text="Per-move clock and time bank of every seat.")
    fault_policy = models.JSONField(default=dict, blank=True,
                                    help_text="What a bot fault costs: forfeit, or default actions.")
    # The match driver's lease: one driver at a time; an expired lease marks a stuck match.
    driver_token = models.CharField(max_length=32, blank=True, default="")
    driver_lease_until = models.DateTimeField(null=True, blank=True, db_index=True)
    # When a driver (play_match) was last queued for it; None: never queued (driven in process).
    # A match no driver has claimed long after this lost its message (bots.driver.lost_matches_take).
    queued_at = models.DateTimeField(null=True, blank=True)
    rated = models.BooleanField(
        default=True,
        help_text="Counts in the game's ratings (tournaments.rating_fold). A check match is not "
                  "rated; the log's match_created says so (\"rated\": false).")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    imported = models.BooleanField(
        default=False, db_index=True,
        help_text="Stored from an exported replay (manage.py import): its seats name bots of the "
                  "service it came from, so it never counts for ratings.")
    unsigned = models.BooleanField(
        default=False,
        help_text="Ended without a signature this service can verify: imported with "
                  "--allow-unsigned, or ended before the service signed match ends. Nothing "
                  "proves where its log came from.")

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.ruleset} {self.id} ({self.status})"


class Event(models.Model):
    """One event of a match's log. Append-only: seq is unique and gap-free per match."""

    # No index of its own: the unique (match, seq) index serves every lookup by match, and each
    # index is one more write per append.
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    seat = models.SmallIntegerField(null=True, blank=True)
    payload = models.JSONField()
    time = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["match", "seq"]
        # hash is unique by a constraint rather than unique=True, which on PostgreSQL would add a
        # second (pattern-matching) index that no query uses.
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="event_match_seq_unique"),
                       models.UniqueConstraint(fields=["hash"], name="event_hash_unique")]

    def __str__(self):
        return f"{self.match_id}#{self.seq} {self.kind}"


class Snapshot(models.Model):
    """The encoded state after event ``seq``: a cache that validation checks against the fold."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="snapshot_match_seq_unique")]


class Validation(models.Model):
    """One run of the validator over a match's log (a history: the latest one is the status)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="validations")
    ok = models.BooleanField()
    events = models.PositiveIntegerField()
    first_bad_seq = models.PositiveIntegerField(null=True, blank=True)
    reason = models.TextField(blank=True)
    report = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]


class SigningKey(models.Model):
    """A public key the service signs the ends of matches with (games/engine/signature.py).

    The private half is a file in SIGNING_KEY_DIR, never in the database: a dump or a replica of
    the database cannot sign. A rotated key is retired, not deleted: every match it signed must
    still verify against it (GET /api/signing-keys/ lists them all)."""

    key_id = models.CharField(max_length=16, primary_key=True,
                              help_text="The first 16 hex digits of sha256 of the raw public key.")
    algorithm = models.CharField(max_length=16, default="ed25519")
    public_key = models.CharField(max_length=64, help_text="The raw 32-byte public key in hex.")
    created_at = models.DateTimeField(db_index=True)
    retired_at = models.DateTimeField(null=True, blank=True,
                                      help_text="From then on it signs nothing; what it signed still verifies.")

    class Meta:
        ordering = ["-created_at", "-key_id"]

    def __str__(self):
        return f"{self.algorithm} {self.key_id}" + (" (retired)" if self.retired_at else "")


class MatchArchive(models.Model):
    """The log of a finished match, moved out of the event table: its records as the export
    writes them (canonical JSON Lines), gzip-compressed, hash chain and signature intact
    (replays/archives.py). Once this row exists the match's event rows may be deleted, and only
    then (the append-only trigger checks it); the row itself is never changed or deleted."""

    match = models.OneToOneField(Match, on_delete=models.PROTECT, primary_key=True,
                                 related_name="archive")
    format = models.CharField(max_length=16, default="jsonl.gz")
    data = models.BinaryField(help_text="The records, one canonical JSON object a line, gzip'd.")
    events = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64, help_text="The hash of the last record.")
    sha256 = models.CharField(max_length=64, help_text="sha256 of ``data``.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"archive of {self.match_id} ({self.events} events)"
