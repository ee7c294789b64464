"""Bots and their immutable versions.

A bot is a name in one game: either a user's uploaded bot or one of the built-in bots a game
ships (random, greedy, ...), so tournaments can seat both alike. What plays a match is a
BotVersion: for an uploaded bot, the exact bytes uploaded (kept in the database, so a worker on
any machine can run them); for a built-in bot, version 1 stands for the in-process class.

Written only by bots.services; versions are never updated once created.
"""
from django.conf import settings
from django.db import models
from django.db.models import Q


class Bot(models.Model):
    class Kind(models.TextChoices):
        BUILTIN = "builtin", "built-in"
        UPLOADED = "uploaded"

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
                | Q(kind="uploaded", owner__isnull=False, builtin_name=""),
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
                                         "python); empty for built-ins.")
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
