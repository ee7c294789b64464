"""Input and output shapes of bots and bot versions. Never the code: it has its own endpoint."""
from rest_framework import serializers

from bots.models import Bot, BotVersion
from tournaments.models import Rating

from .serializers_base import Input, game_choices


class BotCreateInput(Input):
    name = serializers.CharField(max_length=64)
    game = serializers.ChoiceField(choices=[])
    description = serializers.CharField(required=False, allow_blank=True, default="")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()


class BotOutput(serializers.ModelSerializer):
    owner = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    latest_version = serializers.IntegerField(read_only=True, allow_null=True,
                                              help_text="Newest version number; null before any upload.")

    class Meta:
        model = Bot
        fields = ["id", "name", "game", "kind", "owner", "builtin_name", "description",
                  "created_at", "latest_version"]


class RatingOutput(serializers.ModelSerializer):
    class Meta:
        model = Rating
        fields = ["game", "mu", "sigma", "ordinal", "matches"]


class BotProfileOutput(BotOutput):
    ratings = RatingOutput(many=True, read_only=True)

    class Meta(BotOutput.Meta):
        fields = BotOutput.Meta.fields + ["ratings"]


class BotVersionOutput(serializers.ModelSerializer):
    """What a version is, publicly: its sha256 lets anyone check what played a match."""

    class Meta:
        model = BotVersion
        fields = ["number", "format", "sha256", "size", "filename", "file_count",
                  "unpacked_size", "created_at"]


class BotVersionUploadInput(Input):
    file = serializers.FileField(help_text="A .py file or a .zip with main.py at its root.",
                                 allow_empty_file=True)
