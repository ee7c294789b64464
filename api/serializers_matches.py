"""Input and output shapes of the matches API. They only shape data: who may see what is
decided in api.permissions and applied by the views before anything reaches a serializer."""
import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from replays.models import Match

# ASCII digits only: str.isdigit() also accepts "²" (which int() refuses) and "٣" (read as 3).
# Six digits is more seats than any game has, and keeps int() far from its digit limit.
SEAT_NUMBER = re.compile(r"[0-9]{1,6}")


def seat_number(text: str) -> int | None:
    """``text`` as a seat number, or None if it is not one."""
    return int(text) if SEAT_NUMBER.fullmatch(text) else None


class SeatBotSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="The bot's id (null: a bot this "
                                                             "service does not know, in an imported match).")
    name = serializers.CharField(allow_null=True)
    owner = serializers.CharField(allow_null=True, help_text="Its owner's username (null: built-in).")


class SeatSerializer(serializers.Serializer):
    """Who plays a seat: the bot and its version number (issue 13.14: not the version's row id)."""

    bot = SeatBotSerializer()
    version = serializers.IntegerField(allow_null=True, help_text="The bot's version number.")
    kind = serializers.CharField(allow_null=True, help_text="builtin or uploaded.")


def seat_bots(version_ids) -> dict[int, dict]:
    """The bot behind each bot version id, in one query."""
    from bots.models import BotVersion

    rows = BotVersion.objects.filter(pk__in=list(version_ids)).values(
        "pk", "number", "bot_id", "bot__name", "bot__kind", "bot__owner__username")
    return {row["pk"]: {"bot": {"id": row["bot_id"], "name": row["bot__name"],
                                "owner": row["bot__owner__username"]},
                        "version": row["number"], "kind": row["bot__kind"]} for row in rows}


def _version_ids(matches) -> set[int]:
    return {seat.get("bot_version") for match in matches for seat in match.seats
            if isinstance(seat, dict) and type(seat.get("bot_version")) is int}


def seat_json(seat, known: dict[int, dict]) -> dict:
    """One seat as the API shows it; a seat whose version this service does not hold (an
    imported match) keeps what its log recorded."""
    seat = seat if isinstance(seat, dict) else {}
    if seat.get("bot_version") in known:
        return known[seat["bot_version"]]
    return {"bot": {"id": None, "name": seat.get("bot"), "owner": None},
            "version": seat.get("version"), "kind": seat.get("kind")}


class MatchListSerializer(serializers.ListSerializer):
    """A page of matches: the bots of all their seats are read in one query."""

    def to_representation(self, data):
        matches = list(data.all() if hasattr(data, "all") else data)
        self._context = {**getattr(self, "_context", {}), "seat_bots": seat_bots(_version_ids(matches))}
        return [self.child.to_representation(match) for match in matches]


class VerdictSerializer(serializers.Serializer):
    """The latest validation's verdict in short (the report is at .../validation/)."""

    ok = serializers.BooleanField()
    first_bad_seq = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class MatchSerializer(serializers.ModelSerializer):
    """A match's public envelope. Never the seed: once revealed it is in the log's last event."""

    version = serializers.IntegerField(source="ruleset_version")
    seats = serializers.SerializerMethodField()
    steps = serializers.IntegerField(help_text="Events in the log; steps are numbered 0..steps-1.")
    validation = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = ["id", "ruleset", "version", "options", "players", "seats", "status", "result",
                  "seed_commitment", "created_at", "ended_at", "imported", "steps", "validation"]
        read_only_fields = fields
        list_serializer_class = MatchListSerializer

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, match) -> list[dict]:
        known = self.context.get("seat_bots")
        if known is None:  # one match alone
            known = seat_bots(_version_ids([match]))
        return [seat_json(seat, known) for seat in match.seats]

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
    """Raw events with seq > after, at most ``limit``, in every list's envelope: ``count`` is the
    match's number of events, ``next`` and ``previous`` the URLs of the pages either side."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = EventRecordSerializer(many=True)


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
    """What POST validate/ did: queued for a worker, or (no broker) validated in the request."""

    match = serializers.UUIDField()
    queued = serializers.BooleanField(help_text="true: a worker validates it; false: validated in this request")
    ok = serializers.BooleanField(allow_null=True, help_text="the verdict when validated in the request, else null")
    detail = serializers.CharField(help_text="what was done, in words")
