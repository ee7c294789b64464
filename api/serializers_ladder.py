"""Input and output shapes of the ladders (docs/ladder.md)."""
from django.conf import settings
from rest_framework import serializers

from .serializers_base import ID_RANGE, Input


class LadderOutput(serializers.Serializer):
    game = serializers.CharField()
    seats = serializers.IntegerField(help_text="Seats a match: 2, or a pod of 3-7.")
    entries = serializers.IntegerField(help_text="Bots on the ladder now (active).")
    matches = serializers.IntegerField(help_text="Ladder matches made so far.")
    in_flight = serializers.IntegerField(help_text="Ladder matches running now.")
    admits_remote_bots = serializers.BooleanField(
        help_text="Whether remote bots (docs/remote.md) join it and play rated scrimmages on it.")
    created_at = serializers.DateTimeField()


class LadderRowOutput(serializers.Serializer):
    """One row of a ladder's leaderboard, ranked by ``conservative`` (mu - 3 sigma)."""

    rank = serializers.IntegerField()
    bot = serializers.IntegerField(source="bot.pk")
    bot_name = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username", allow_null=True, default=None)
    kind = serializers.CharField(source="bot.kind")
    version = serializers.IntegerField(help_text="The version it plays with: its newest passed one.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField(help_text="The uncertainty of mu.")
    conservative = serializers.FloatField(help_text="mu - 3 sigma: what the leaderboard ranks by.")
    games = serializers.IntegerField(help_text="Ladder matches this version played and were rated.")


class LadderEntryOutput(serializers.Serializer):
    bot = serializers.IntegerField(source="bot_id")
    bot_name = serializers.CharField(source="bot.name")
    kind = serializers.CharField(source="bot.kind", help_text="builtin, uploaded or remote.")
    version = serializers.IntegerField(source="version.number")
    active = serializers.BooleanField(help_text="On the ladder (paired by the matchmaker) or taken off.")
    faults = serializers.IntegerField(help_text="Ladder matches in a row with a fault of this bot.")
    off_reason = serializers.CharField(help_text="Why the service took it off; empty otherwise.")


class LadderEntryInput(Input):
    active = serializers.BooleanField(help_text="false: take the bot off the ladder; true: put it back.")


class LadderJoinInput(Input):
    bot = serializers.IntegerField(**ID_RANGE, help_text="One of your bots of this game with a passed version "
                                                         "(or a remote bot, where the ladder admits remote bots).")


class ScrimmageInput(Input):
    bot = serializers.IntegerField(**ID_RANGE, help_text="One of your bots, with a version that passed its check match.")
    opponents = serializers.ListField(child=serializers.IntegerField(**ID_RANGE), min_length=1, max_length=20,
                                      help_text="Bots of the same game (built-in or uploaded); games cycle through them.")
    games = serializers.IntegerField(min_value=1, max_value=settings.SCRIMMAGE_MAX_GAMES,
                                     help_text="1 to SCRIMMAGE_MAX_GAMES (default 20).")
    rated = serializers.BooleanField(default=False, help_text="Count the games on the ladder (both sides must be on it).")


class ScrimmageRecordOutput(serializers.Serializer):
    wins = serializers.IntegerField()
    ties = serializers.IntegerField()
    losses = serializers.IntegerField()
    pending = serializers.IntegerField(help_text="Games still running.")
    aborted = serializers.IntegerField()


class ScrimmageGameOutput(serializers.Serializer):
    index = serializers.IntegerField()
    match = serializers.UUIDField(help_text="Replay it at /matches/<id>/.")
    seat = serializers.IntegerField(help_text="The requester's seat in this game.")
    status = serializers.CharField(help_text="running, ended or aborted")
    opponent = serializers.CharField(help_text="The opponent bot's name.")
    opponent_version = serializers.IntegerField()
    outcome = serializers.CharField(allow_null=True, help_text="win, tie, loss or aborted; null while it runs.")


class ScrimmageOutput(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    bot = serializers.IntegerField(source="version.bot_id")
    bot_name = serializers.CharField(source="version.bot.name")
    version = serializers.IntegerField(source="version.number")
    opponents = serializers.ListField(child=serializers.CharField(), help_text="The opponents' names, in order.")
    games = serializers.IntegerField()
    rated = serializers.BooleanField()
    status = serializers.CharField(help_text="open, or finished when every game is over")
    record = ScrimmageRecordOutput()
    results = ScrimmageGameOutput(many=True, source="game_rows")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
