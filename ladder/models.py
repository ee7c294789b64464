"""The standing competition of each game (docs/ladder.md): the check match every uploaded
version plays as soon as a worker is free, and a rated ladder per game.

Written only by ladder.services. A version itself is immutable (bots.models.BotVersion); what
its check found is a row of its own, which moves once from ``pending`` to ``passed`` or
``failed`` and never back. A ladder's ratings are a fold of its ended matches in the order they
ended (LadderMatch.applied marks the ones folded in; ladder_ratings_recompute folds them again).
"""
from django.conf import settings
from django.db import models

from bots.models import Bot, BotVersion
from replays.models import Match


class VersionCheck(models.Model):
    """The check match of one uploaded version: the version in seat 0 against the game's
    ``random`` bot in the other seats, at the fewest players the game allows."""

    class Status(models.TextChoices):
        PENDING = "pending"
        PASSED = "passed"
        FAILED = "failed"

    version = models.OneToOneField(BotVersion, on_delete=models.PROTECT, related_name="version_check")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING,
                              db_index=True)
    match = models.OneToOneField(Match, on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="version_check")
    reason = models.TextField(blank=True, help_text="Why it failed, in words (empty unless failed).")
    fault = models.JSONField(null=True, blank=True,
                             help_text="The fault's recorded evidence (the forfeit or faulted move's).")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"check of {self.version}: {self.status}"


class Ladder(models.Model):
    """The standing, rated competition of one game. Its matches have ``seats`` seats (2, or a
    pod of 3-7 where the game takes them)."""

    game = models.CharField(max_length=64, unique=True)
    seats = models.PositiveSmallIntegerField(default=2)
    admits_remote_bots = models.BooleanField(
        default=False, help_text="Whether remote bots (docs/remote.md) join it and play rated scrimmages.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game"]

    def __str__(self):
        return f"{self.game} ladder"


class LadderEntry(models.Model):
    """A bot on a ladder, playing with ``version`` (its newest version that passed its check;
    a built-in bot's version 1). ``active`` is its owner's choice (or the service's, after
    ``faults`` faulted matches in a row: ``off_reason`` says why)."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey(Bot, on_delete=models.PROTECT, related_name="ladder_entries")
    version = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="ladder_entries")
    active = models.BooleanField(default=True)
    faults = models.PositiveIntegerField(default=0, help_text="Ladder matches in a row with a fault of this bot.")
    off_reason = models.TextField(blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ladder", "id"]
        constraints = [models.UniqueConstraint(fields=["ladder", "bot"], name="ladderentry_ladder_bot_unique")]

    def __str__(self):
        return f"{self.bot.name} on the {self.ladder.game} ladder"


class LadderRating(models.Model):
    """A version's openskill rating on a ladder (a new version starts fresh; the old versions'
    rows stay as their history). ``conservative`` = mu - 3 sigma ranks the leaderboard."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="ratings")
    version = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="ladder_ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    conservative = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["ladder", "-conservative"]
        constraints = [models.UniqueConstraint(fields=["ladder", "version"], name="ladderrating_ladder_version_unique")]


class LadderMatch(models.Model):
    """A match the matchmaker made: its entries by seat, and whether the ratings have folded
    it in (once, in the order matches ended)."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="matches")
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="ladder_match")
    entries = models.JSONField(help_text="The ladder entry ids, by seat.")
    applied = models.BooleanField(default=False, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]


class Scrimmage(models.Model):
    """N games a user asked for between one of their bots (its newest passed version) and one
    or more bots of the game, rated on the ladder or not (docs/ladder.md, "Scrimmages")."""

    class Status(models.TextChoices):
        OPEN = "open"
        FINISHED = "finished"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="scrimmages")
    game = models.CharField(max_length=64, db_index=True)
    version = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="scrimmages",
                                help_text="The requester's version.")
    opponents = models.JSONField(help_text="The opponents' version ids, in the order games cycle through them.")
    games = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False, help_text="Its games count on the ladder.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]


class ScrimmageMatch(models.Model):
    """Game ``index`` of a scrimmage; the requester sits in ``seat``."""

    scrimmage = models.ForeignKey(Scrimmage, on_delete=models.CASCADE, related_name="matches")
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="scrimmage_match")
    index = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["scrimmage", "index"]
        constraints = [models.UniqueConstraint(fields=["scrimmage", "index"], name="scrimmagematch_index_unique")]
