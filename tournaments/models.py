"""Tournaments: entries, rounds and pairings linked to matches, organiser corrections, ratings.

Standings are never stored: they are a fold of the match results (tournaments.selectors).
Rounds are created exactly once: (tournament, number) is unique and the advance service holds
the tournament's row lock.
"""
from django.conf import settings
from django.db import models


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=120)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.PROTECT, related_name="tournaments")
    game = models.CharField(max_length=64, db_index=True)
    rules_options = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=32)
    format_settings = models.JSONField(default=dict, blank=True)
    time_control = models.JSONField(default=dict, blank=True)
    fault_policy = models.JSONField(default=dict, blank=True)
    # How many entries a user may put into this tournament when someone else organises it: one
    # person does not fill an open tournament with their bots (the organiser is not limited).
    entries_per_user = models.PositiveSmallIntegerField(default=1)
    # Remote bots answer from their owners' machines (docs/remote.md): the organiser's choice.
    admits_remote_bots = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)  # a cancelled one never finished
    # Set by the ratings recompute that includes the finished tournament's matches; a finished
    # tournament not rated yet is owed one (tournaments.sweep_tournaments makes it good).
    rated = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.name} ({self.game}, {self.format}, {self.status})"


class Entry(models.Model):
    """A bot version entered with a seed (1 = strongest)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    bot_version = models.ForeignKey("bots.BotVersion", on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField()

    class Meta:
        ordering = ["tournament", "seed"]
        constraints = [models.UniqueConstraint(fields=["tournament", "seed"], name="entry_seed_unique")]

    def __str__(self):
        return f"#{self.seed} {self.bot_version.bot.name} v{self.bot_version.number}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]


class Pairing(models.Model):
    """A pairing or pod of a round: ``seats`` are entry ids in game 1's seat order; a series of
    ``games`` games rotates the seats. A bye is never played."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    key = models.CharField(max_length=32)
    seats = models.JSONField()
    games = models.PositiveSmallIntegerField(default=1)
    bye = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="pairing_key_unique")]


class PairingGame(models.Model):
    """Game ``number`` (1-based) of a pairing's series and the match that plays it."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="pairing_games")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField("replays.Match", on_delete=models.PROTECT, related_name="pairing_game")

    class Meta:
        ordering = ["pairing", "number"]
        constraints = [models.UniqueConstraint(fields=["pairing", "number"], name="pairing_game_unique")]


class Correction(models.Model):
    """An organiser's recorded correction, with a reason: a disqualification, a withdrawal (the
    entry leaves; its results stand), or an adjudicated result of a pairing (placings by entry
    id) that replaces the played one."""

    class Kind(models.TextChoices):
        DISQUALIFY = "disqualify"
        WITHDRAW = "withdraw"
        ADJUDICATE = "adjudicate"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="corrections")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT)
    pairing = models.ForeignKey(Pairing, null=True, blank=True, on_delete=models.PROTECT)
    placings = models.JSONField(null=True, blank=True)
    reason = models.TextField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]


class Rating(models.Model):
    """A bot's openskill rating in one game: a cache, recomputed from every ended match of the
    game in a stable order (ratings_recompute)."""

    game = models.CharField(max_length=64)
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    matches = models.PositiveIntegerField()
    # Matches where this bot held more than one seat: never rated (a bot cannot learn its
    # strength from beating itself, and its seats' placings would rate one player twice).
    self_play = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "-ordinal"]
        constraints = [models.UniqueConstraint(fields=["game", "bot"], name="rating_game_bot_unique")]
