"""Input and output shapes of the matches API. They only shape data: who may see what is
decided in api.permissions and applied by the views before anything reaches a serializer."""
import re

from rest_framework import serializers

from replays.models import Match

# ASCII digits only: str.isdigit() also accepts "²" (which int() refuses) and "٣" (read as 3).
# Six digits is more seats than any game has, and keeps int() far from its digit limit.
SEAT_NUMBER = re.compile(r"[0-9]{1,6}")


def seat_number(text: str) -> int | None:
    """``text`` as a seat number, or None if it is not one."""
    return int(text) if SEAT_NUMBER.fullmatch(text) else None


class SeatSerializer(serializers.Serializer):
    """Who plays a seat: the bot version that plays it, as recorded in match_created."""

    bot_version = serializers.IntegerField(required=False, allow_null=True)
    bot = serializers.CharField(required=False)
    version = serializers.IntegerField(required=False, allow_null=True)
    kind = serializers.CharField(required=False)


class VerdictSerializer(serializers.Serializer):
    """The latest validation's verdict in short (the report is at .../validation/)."""

    ok = serializers.BooleanField()
    first_bad_seq = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class MatchSerializer(serializers.ModelSerializer):
    """A match's public envelope. Never the seed: once revealed it is in the log's last event."""

    version = serializers.IntegerField(source="ruleset_version")
    seats = SeatSerializer(many=True)
    steps = serializers.IntegerField(help_text="Events in the log; steps are numbered 0..steps-1.")
    validation = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = ["id", "ruleset", "version", "options", "players", "seats", "status", "result",
                  "seed_commitment", "created_at", "ended_at", "imported", "steps", "validation"]
        read_only_fields = fields

    def get_validation(self, match) -> VerdictSerializer(allow_null=True):
        if match.validation_at is None:
            return None
        return {"ok": match.validation_ok, "first_bad_seq": match.validation_first_bad_seq,
                "created_at": match.validation_at}


class NextSerializer(serializers.Serializer):
    """What happens after the step: seats to act, a chance node, or the end."""

    kind = serializers.CharField(help_text="act, chance or ended.")
    seats = serializers.ListField(child=serializers.IntegerField(), required=False)
    spec = serializers.JSONField(required=False, help_text="The chance spec (dice, shuffle, choice).")
    result = serializers.JSONField(required=False, allow_null=True)


class EventRecordSerializer(serializers.Serializer):
    """One log record. Redacted records (live match, non-auditor) have no hashes and carry
    ``redacted``: chance outcomes and other seats' hidden actions read "redacted"."""

    match = serializers.UUIDField()
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    payload = serializers.JSONField()
    time = serializers.CharField()
    prev_hash = serializers.CharField(required=False)
    hash = serializers.CharField(required=False)
    redacted = serializers.BooleanField(required=False)


class StepQuerySerializer(serializers.Serializer):
    """``seat``: a seat number, "all" (the full state) or omitted (the public view)."""

    seat = serializers.CharField(required=False, allow_blank=True)

    def validate_seat(self, value):
        if value in ("", None):
            return None
        if value == "all":
            return "all"
        seat = seat_number(value)
        if seat is None:
            raise serializers.ValidationError('seat must be a seat number or "all"', code="bad_seat")
        return seat


class StepSerializer(serializers.Serializer):
    """The replay at one step, from one perspective."""

    match = serializers.UUIDField()
    step = serializers.IntegerField(help_text="The state after event ``step``.")
    steps = serializers.IntegerField(help_text="Events in the log so far.")
    seat = serializers.JSONField(allow_null=True, help_text='The perspective: a seat, "all" or null (public).')
    view = serializers.JSONField(help_text="The ruleset's view for the perspective (or the encoded state for all).")
    event = EventRecordSerializer()
    next = NextSerializer()


class EventPageQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(required=False, default=-1, min_value=-1)
    limit = serializers.IntegerField(required=False, default=100, min_value=1, max_value=1000)


class EventPageSerializer(serializers.Serializer):
    """Raw events with seq > after, at most ``limit``; ``next`` is the following page's URL."""

    results = EventRecordSerializer(many=True)
    next = serializers.URLField(allow_null=True)


class ValidationSerializer(serializers.Serializer):
    """A validator run. For a live match non-auditors get the verdict without reason and
    report, which may quote a hidden action."""

    ok = serializers.BooleanField()
    events = serializers.IntegerField()
    first_bad_seq = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    report = serializers.JSONField(allow_null=True)
    created_at = serializers.DateTimeField()
    redacted = serializers.BooleanField()


class ValidationQueuedSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    queued = serializers.BooleanField()
