"""Bots and their immutable versions.

A bot is a name in one game: a user's uploaded bot, a user's remote bot (its program runs on
its owner's machine and answers over HTTP: docs/remote.md) or one of the built-in bots a game
ships (random, greedy, ...), so tournaments can seat them alike. What plays a match is a
BotVersion: for an uploaded bot, the exact bytes uploaded (kept in the database, so a worker on
any machine can run them); for a built-in bot, version 1 stands for the in-process class; for a
remote bot, version 1 (runtime "remote", no code) stands for whatever its owner's client runs.
A remote seat's pending decisions are RemoteAct rows.

Written only by bots.services; versions are never updated once created.
"""
from django.conf import settings
from django.db import models
from django.db.models import Q


class Bot(models.Model):
    class Kind(models.TextChoices):
        BUILTIN = "builtin", "built-in"
        UPLOADED = "uploaded"
        REMOTE = "remote"

    # PROTECT: a bot that played recorded matches outlives any attempt to delete its owner.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                              blank=True, related_name="bots", help_text="Empty for built-in bots.")
    name = models.CharField(max_length=64)
    game = models.CharField(max_length=64, db_index=True, help_text="The ruleset's registry name.")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.UPLOADED)
    builtin_name = models.CharField(max_length=64, blank=True,
                                    help_text="For built-in bots: the key in the ruleset's builtin_bots().")
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["game", "name", "id"]
        constraints = [
            # Owners are NULL for built-in bots, and NULLs never collide: each kind gets its own rule.
            models.UniqueConstraint(fields=["game", "owner", "name"], condition=Q(owner__isnull=False),
                                    name="bot_game_owner_name_unique"),
            models.UniqueConstraint(fields=["game", "builtin_name"], condition=Q(kind="builtin"),
                                    name="bot_game_builtin_unique"),
            models.CheckConstraint(
                condition=(Q(kind="builtin", owner__isnull=True) & ~Q(builtin_name=""))
                | Q(kind__in=["uploaded", "remote"], owner__isnull=False, builtin_name=""),
                name="bot_kind_owner_consistent"),
        ]

    def __str__(self):
        who = "built-in" if self.kind == self.Kind.BUILTIN else self.owner_id
        return f"{self.name} ({self.game}, {who})"


class BotVersion(models.Model):
    """One upload of a bot (or version 1 of a built-in bot). Immutable: created once, never saved
    again; the archive bytes are what ran, and sha256 proves it."""

    class Format(models.TextChoices):
        FILE = "file", "single Python file"
        ZIP = "zip", "zip archive (main.py, or the entry its arena.json names)"
        BUILTIN = "builtin", "built-in (runs in process)"
        REMOTE = "remote", "remote (its owner's client answers over HTTP)"

    bot = models.ForeignKey(Bot, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField(help_text="1, 2, ... per bot, in upload order.")
    format = models.CharField(max_length=16, choices=Format.choices)
    sha256 = models.CharField(max_length=64, db_index=True,
                              help_text="Of the uploaded bytes (built-in: of 'builtin:<game>:<name>').")
    size = models.PositiveIntegerField(help_text="Uploaded bytes.")
    filename = models.CharField(max_length=255, blank=True)
    archive = models.BinaryField(null=True, editable=False,
                                 help_text="The uploaded bytes; empty for built-ins.")
    file_count = models.PositiveIntegerField()
    unpacked_size = models.PositiveIntegerField()
    runtime = models.CharField(max_length=32, blank=True, default="python",
                               help_text="The runtime its arena.json names (bots/sandbox/runtimes.py; none: "
                                         "python); empty for built-ins; \"remote\" for remote bots.")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["bot", "number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="botversion_bot_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="botversion_number_positive"),
        ]

    def __str__(self):
        return f"{self.bot.name} v{self.number}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("bot versions are immutable: upload a new version instead")
        super().save(*args, **kwargs)


class RemoteAct(models.Model):
    """One decision asked of a remote seat (bots/remote.py, docs/remote.md): the ``act`` message
    as the owner's client receives it, published at ``published_at``, to be answered before
    ``deadline``. ``turn`` is the match's event number the decision is asked at (the log's
    length then): (match, seat, turn) names the decision, and a driver that resumes after a
    worker's death asks the same turn again and finds this row (re-published, or answered
    meanwhile). The answer moves the row once from ``open`` to ``answered`` by a conditional
    UPDATE (a second, late or foreign answer changes nothing); the driver that waits moves an
    unanswered row to ``timed_out`` the same way, so of an answer at the deadline and the
    timeout exactly one wins. ``closed``: the match moved on or ended without it."""

    class Status(models.TextChoices):
        OPEN = "open"
        ANSWERED = "answered"
        TIMED_OUT = "timed_out"
        CLOSED = "closed"

    match = models.ForeignKey("replays.Match", on_delete=models.CASCADE, related_name="remote_acts")
    seat = models.PositiveSmallIntegerField()
    turn = models.PositiveIntegerField(help_text="The event number the decision is asked at.")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="remote_acts",
                              help_text="The seat's bot's owner: the only one who may answer.")
    bot_version = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="remote_acts")
    message = models.JSONField(help_text="The act message as the client receives it.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    published_at = models.DateTimeField(help_text="The last publication (the clock runs from it).")
    publications = models.PositiveSmallIntegerField(
        default=1, help_text="1, and one more each time a resumed driver published it again.")
    deadline = models.DateTimeField()
    answer = models.JSONField(null=True, blank=True, help_text="The answer's action.")
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["published_at", "id"]
        constraints = [models.UniqueConstraint(fields=["match", "seat", "turn"], name="remoteact_match_seat_turn_unique")]
        indexes = [models.Index(fields=["owner", "status"], name="remoteact_owner_status")]

    def __str__(self):
        return f"act {self.match_id} seat {self.seat} turn {self.turn} ({self.status})"
