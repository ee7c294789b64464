"""Input and output shapes of bots and bot versions. Never the code: it has its own endpoint."""
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from bots.models import Bot, BotVersion
from bots.services import MAX_DESCRIPTION
from tournaments.models import Rating

from .serializers_base import Input, game_choices


class BotCreateInput(Input):
    name = serializers.RegexField(r"^[A-Za-z0-9_-]{1,64}$", max_length=64,
                                  help_text="1-64 letters, digits, '-' or '_'")
    game = serializers.ChoiceField(choices=[])
    description = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_DESCRIPTION)
    remote = serializers.BooleanField(
        required=False, default=False,
        help_text="A remote bot: no code here; your client plays its seats over HTTP (docs/remote.md). "
                  "It gets version 1 (runtime \"remote\") at once and takes no uploads.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()


class BotOutput(serializers.ModelSerializer):
    """``kind`` is ``builtin``, ``uploaded`` or ``remote``; ``remote`` repeats the last as a flag
    every listing carries (docs/remote.md)."""

    remote = serializers.SerializerMethodField(help_text="Its owner's client plays it over HTTP.")
    owner = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    latest_version = serializers.IntegerField(read_only=True, allow_null=True,
                                              help_text="Newest version number; null before any upload.")

    class Meta:
        model = Bot
        fields = ["id", "name", "game", "kind", "remote", "owner", "builtin_name", "description",
                  "created_at", "latest_version"]

    def get_remote(self, bot: Bot) -> bool:
        return bot.kind == Bot.Kind.REMOTE


class RatingOutput(serializers.ModelSerializer):
    class Meta:
        model = Rating
        fields = ["game", "mu", "sigma", "ordinal", "matches"]


class BotProfileOutput(BotOutput):
    ratings = RatingOutput(many=True, read_only=True)

    class Meta(BotOutput.Meta):
        fields = BotOutput.Meta.fields + ["ratings"]


class VersionCheckOutput(serializers.Serializer):
    """The check match of a version (docs/ladder.md): ``pending`` until it ends, then
    ``passed`` or ``failed`` with the reason and the fault's evidence. A built-in bot's version
    has passed by definition (no match)."""

    status = serializers.ChoiceField(choices=["pending", "passed", "failed"])
    match = serializers.UUIDField(allow_null=True, help_text="The check match (null: not started yet, or built-in).")
    reason = serializers.CharField(help_text="Why it failed; empty otherwise.")
    fault = serializers.JSONField(allow_null=True, help_text="The recorded fault: reason, detail, seq ...")
    finished_at = serializers.DateTimeField(allow_null=True)


BUILTIN_CHECK = {"status": "passed", "match": None, "reason": "", "fault": None, "finished_at": None}


class BotVersionOutput(serializers.ModelSerializer):
    """What a version is, publicly: its sha256 lets anyone check what played a match; its
    check match says whether it plays a whole match without a fault."""

    check = serializers.SerializerMethodField()

    class Meta:
        model = BotVersion
        fields = ["number", "format", "runtime", "sha256", "size", "filename", "file_count",
                  "unpacked_size", "created_at", "check"]

    @extend_schema_field(VersionCheckOutput(allow_null=True))
    def get_check(self, version: BotVersion) -> dict | None:
        """null for a version uploaded while check matches were off, and for a remote bot's
        (no code to check: its client's program is its owner's business)."""
        if version.format == BotVersion.Format.BUILTIN:
            return BUILTIN_CHECK
        check = getattr(version, "version_check", None)
        if check is None:
            return None
        return VersionCheckOutput({"status": check.status, "match": check.match_id, "reason": check.reason,
                                   "fault": check.fault, "finished_at": check.finished_at}).data


class BotVersionUploadInput(Input):
    file = serializers.FileField(help_text="A .py file or a .zip with main.py at its root.",
                                 allow_empty_file=True)
