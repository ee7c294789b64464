"""Input and output shapes of tournaments, entries, rounds, standings, the bracket and
leaderboards. Shapes only: every rule is in tournaments.services*."""
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.engine.protocol import json_type_name
from tournaments import formats
from tournaments.models import Correction, Entry, Tournament
from tournaments.services_drafts import MAX_ENTRIES, TIME_CONTROL_LIMITS

from .serializers_base import ID_RANGE, Input, game_choices, is_json_type

FORMAT_CHOICES = sorted(formats.FORMATS)
_JSON_TYPES = {bool: {"type": "boolean"}, int: {"type": "integer", "minimum": 1}, str: {"type": "string"}}


def _format_settings_schema() -> dict:
    """Every setting some format declares (formats' settings_schema), and no other name: the
    schema said "any object", and the service refused the names no format has (issue 40,
    item 11). Which format takes which setting, and their limits, are in the descriptions."""
    properties = {}
    for format_name, declared in sorted(formats.FORMATS.items()):
        for name, (kind, default, help_text) in declared.settings_schema.items():
            entry = properties.setdefault(name, {**_JSON_TYPES[kind], "description": ""})
            choices = getattr(declared, "settings_choices", {}).get(name)
            if choices:
                entry["enum"] = list(choices)
            entry["description"] += f"{format_name}: {help_text} (default {default}). "
    return {"type": "object", "properties": properties, "additionalProperties": False}


@extend_schema_field(_format_settings_schema())
class FormatSettingsField(serializers.DictField):
    """The format's settings (the service checks them against the chosen format)."""


@extend_schema_field({"type": "object", "additionalProperties": False, "properties": {
    key: {"type": "integer", "minimum": 1 if key == "move_ms" else 0, "maximum": limit}
    for key, limit in TIME_CONTROL_LIMITS.items()}})
class TimeControlField(serializers.DictField):
    """move_ms, bank_ms, increment_ms (the service checks them, services_drafts)."""


@extend_schema_field({"type": "object", "additionalProperties": False, "properties": {
    "on_fault": {"type": "string", "enum": ["forfeit", "default_action"]},
    "max_strikes": {"type": "integer", "minimum": 0, "maximum": 100}}})
class FaultPolicyField(serializers.DictField):
    """on_fault, max_strikes (the service checks them, bots.referee.FaultPolicy)."""


class TournamentCreateInput(Input):
    name = serializers.CharField(max_length=120)
    game = serializers.ChoiceField(choices=[])
    format = serializers.ChoiceField(choices=FORMAT_CHOICES)
    format_settings = FormatSettingsField(required=False, default=dict)
    rules_options = serializers.DictField(required=False, default=dict)
    time_control = TimeControlField(required=False, default=dict, help_text="move_ms, bank_ms, increment_ms")
    fault_policy = FaultPolicyField(required=False, default=dict, help_text="on_fault, max_strikes")
    entries_per_user = serializers.IntegerField(
        required=False, default=1, min_value=1, max_value=MAX_ENTRIES,
        help_text="how many entries one user may put into this tournament (the organiser has no limit)")
    admits_remote_bots = serializers.BooleanField(
        required=False, default=False,
        help_text="whether remote bots (docs/remote.md: played over HTTP by their owners' clients) may enter")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "game" in self.fields:
            self.fields["game"].choices = game_choices()

    def validate(self, attrs):
        """format_settings against the declared settings of the format: names and JSON types
        (the values' limits are the format's to check), so the error names the setting."""
        format_name = attrs.get("format") or self.context.get("format")
        declared = formats.FORMATS[format_name].settings_schema if format_name in formats.FORMATS else None
        settings = attrs.get("format_settings")
        if declared is None or not settings:
            return attrs
        problems = []
        for name, value in settings.items():
            if name not in declared:
                problems.append(f"{format_name} has no setting {name!r}; its settings: {', '.join(declared) or 'none'}")
            elif value is not None and not is_json_type(value, declared[name][0]):
                problems.append(f"{name} must be {json_type_name(declared[name][0])}, got {json_type_name(type(value))}")
        if problems:
            raise serializers.ValidationError({"format_settings": problems}, code="invalid")
        return attrs


class TournamentUpdateInput(TournamentCreateInput):
    """Any subset of the settings; the game stays."""

    game = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, partial=True, **kwargs)


class TimeControlOutput(serializers.Serializer):
    move_ms = serializers.IntegerField(help_text="Free thinking time per move.")
    bank_ms = serializers.IntegerField(help_text="The bank a move draws on beyond move_ms.")
    increment_ms = serializers.IntegerField(help_text="Added to the bank after each answered move.")


class FaultPolicyOutput(serializers.Serializer):
    on_fault = serializers.ChoiceField(choices=["forfeit", "default_action"])
    max_strikes = serializers.IntegerField(help_text="Faults answered by a default action before "
                                                     "the seat forfeits (on_fault default_action).")


class TournamentOutput(serializers.ModelSerializer):
    organiser = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    entry_count = serializers.IntegerField(read_only=True)
    # What its matches will use, defaults filled in (a tournament stores only what was asked
    # for; its matches take the defaults for the rest).
    time_control = serializers.SerializerMethodField()
    fault_policy = serializers.SerializerMethodField()

    @extend_schema_field(TimeControlOutput)
    def get_time_control(self, tournament) -> dict:
        from bots.sandbox import TimeControl

        return TimeControl(**tournament.time_control).to_json()

    @extend_schema_field(FaultPolicyOutput)
    def get_fault_policy(self, tournament) -> dict:
        from bots.referee import FaultPolicy

        return FaultPolicy.from_json(tournament.fault_policy).to_json()

    class Meta:
        model = Tournament
        fields = ["id", "name", "game", "format", "format_settings", "rules_options", "time_control",
                  "fault_policy", "entries_per_user", "admits_remote_bots", "status", "organiser", "created_at", "finished_at",
                  "cancelled_at", "entry_count"]


class EntryCreateInput(Input):
    bot = serializers.IntegerField(**ID_RANGE, help_text="The bot's id.")
    version = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1,
                                       help_text="Version number; the latest when left out.")


class EntryOutput(serializers.ModelSerializer):
    bot = serializers.IntegerField(source="bot_version.bot_id")
    bot_name = serializers.CharField(source="bot_version.bot.name")
    owner = serializers.CharField(source="bot_version.bot.owner.username", allow_null=True, default=None)
    version = serializers.IntegerField(source="bot_version.number")
    kind = serializers.CharField(source="bot_version.bot.kind", help_text="builtin, uploaded or remote.")

    class Meta:
        model = Entry
        fields = ["id", "seed", "bot", "bot_name", "owner", "version", "kind"]


class StandingOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    seed = serializers.IntegerField()
    bot = serializers.CharField()
    version = serializers.IntegerField()
    points = serializers.FloatField()
    tiebreaks = serializers.DictField(child=serializers.FloatField())
    disqualified = serializers.BooleanField()


class BracketSeatOutput(serializers.Serializer):
    entry = serializers.IntegerField(help_text="the entry's id (placings are keyed by it)")
    seed = serializers.IntegerField(help_text="the entry's seed, 1 the first: how people name it")
    bot = serializers.CharField()


class BracketPairingOutput(serializers.Serializer):
    key = serializers.CharField()
    seats = BracketSeatOutput(many=True)
    bye = serializers.BooleanField()
    games = serializers.IntegerField()
    matches = serializers.ListField(child=serializers.CharField())
    placings = serializers.DictField(child=serializers.IntegerField(), allow_null=True,
                                     help_text="entry id -> place, once decided")


class BracketRoundOutput(serializers.Serializer):
    round = serializers.IntegerField()
    pairings = BracketPairingOutput(many=True)


class RoundPairingOutput(serializers.Serializer):
    id = serializers.IntegerField()
    key = serializers.CharField()
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="entry ids")
    games = serializers.IntegerField()
    bye = serializers.BooleanField()
    matches = serializers.SerializerMethodField()

    def get_matches(self, pairing) -> list[str]:
        return [str(game.match_id) for game in pairing.pairing_games.all()]


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    pairings = RoundPairingOutput(many=True)


class CorrectionInput(Input):
    kind = serializers.CharField(max_length=16, help_text="disqualify, withdraw or adjudicate")
    reason = serializers.CharField(max_length=2000)
    entry = serializers.IntegerField(required=False, help_text="disqualify or withdraw: the entry's id")
    pairing = serializers.CharField(required=False, max_length=32, help_text="adjudicate: the pairing's key")
    placings = serializers.DictField(child=serializers.IntegerField(), required=False,
                                     help_text="adjudicate: entry id -> place")


class CorrectionOutput(serializers.ModelSerializer):
    kind = serializers.CharField(help_text="disqualify, withdraw or adjudicate")
    pairing = serializers.CharField(source="pairing.key", allow_null=True, default=None)
    created_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = Correction
        fields = ["id", "kind", "entry", "pairing", "placings", "reason", "created_by", "created_at"]


class LeaderboardRowOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    bot = serializers.IntegerField(source="bot_id")
    bot_name = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username", allow_null=True, default=None)
    kind = serializers.CharField(source="bot.kind")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    matches = serializers.IntegerField(help_text="rated matches: those where this bot held one seat")
    self_play = serializers.IntegerField(
        help_text="matches where this bot held more than one seat; they do not count (not rated, for any "
                  "seat of the match)")


# -- the create body per game and format (the OpenAPI schema, api.schema.describe_tournament_bodies)

_OPTION_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string"}


def rules_options_schema(ruleset) -> dict:
    """A game's rules_options from its option definitions (games.engine.protocol.option): each
    option's JSON type, choices and bounds; no other name."""
    from games.engine.protocol import options_schema

    properties = {}
    for declared in options_schema(ruleset.Options):
        entry = {"type": _OPTION_TYPES[type(declared["default"])], "description": declared["help"]}
        if "choices" in declared:
            entry["enum"] = list(declared["choices"])
        for bound, key in (("min", "minimum"), ("max", "maximum")):
            if bound in declared:
                entry[key] = declared[bound]
        properties[declared["name"]] = entry
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _setting_schema(format_name: str, name: str, low: int = 1, high: int | None = None) -> dict:
    """One setting of a format: its JSON type, choices, and bounds (the format's own and the
    service's SETTING_LIMITS); a series (best_of of the two-player formats) is odd."""
    from tournaments.services_drafts import SETTING_LIMITS

    declared = formats.FORMATS[format_name]
    kind, default, help_text = declared.settings_schema[name]
    entry = {**_JSON_TYPES[kind], "description": f"{help_text} (default {default})"}
    if kind is int:
        entry["minimum"] = low
        most = SETTING_LIMITS.get(name, (None,))[0]
        if high is not None or most is not None:
            entry["maximum"] = min(x for x in (high, most) if x is not None)
        if name == "best_of" and "seats" not in declared.settings_schema:
            entry["not"] = {"multipleOf": 2}
    choices = getattr(declared, "settings_choices", {}).get(name)
    if choices:
        entry["enum"] = list(choices)
    return entry


def format_settings_variants(format_name: str, ruleset) -> list[dict]:
    """The format_settings a format takes for a game, as schemas of which one fits: for the pod
    formats one per min_seats (given, or the service's default max(3, the game's minimum)),
    since seats and advance are bounded by it (2 <= min_seats <= seats <= 7 and the game's
    seats; 1 <= advance < min_seats); a default that would break a bound makes that setting
    required."""
    declared = formats.FORMATS[format_name].settings_schema
    plain = {name: _setting_schema(format_name, name) for name in declared if name not in ("seats", "min_seats", "advance")}
    if "seats" not in declared:
        return [{"type": "object", "properties": plain, "additionalProperties": False}]
    spec = ruleset.spec
    default_min = max(3, spec.min_players)
    variants = []
    for given in [None, *range(2, 8)]:
        least = default_min if given is None else given
        low, high = max(least, spec.min_players, 2), min(7, spec.max_players)
        if low > high or ("advance" in declared and least < 2):
            continue
        properties = {**plain, "seats": _setting_schema(format_name, "seats", low, high)}
        required = [] if low <= declared["seats"][1] <= high else ["seats"]
        if given is None:
            variant = {"not": {"required": ["min_seats"]}}
        else:
            properties["min_seats"] = {**_setting_schema(format_name, "min_seats", given, given)}
            required.append("min_seats")
            variant = {}
        if "advance" in declared:
            if least < 2:
                continue
            properties["advance"] = _setting_schema(format_name, "advance", 1, least - 1)
            if declared["advance"][1] > least - 1:
                required.append("advance")
        variants.append({**variant, "type": "object", "properties": properties, "additionalProperties": False,
                         **({"required": required} if required else {})})
    return variants


# Options whose greatest value the match driver's event limit lowers (bots.driver.events_bound_check),
# and the options that limit depends on: game -> (bounded option, options it depends on).
EVENT_BOUNDED_OPTIONS = {"trap-the-wizard": ("turn_limit", ("rounds", "wizards"))}


def rules_options_variants(ruleset, players: int) -> list[dict]:
    """A game's rules_options for matches of up to `players` seats, as schemas of which one
    fits, each within rules_options_schema (the caller's): where the driver's event limit bounds
    an option by others (Trap the Wizard's turn_limit by rounds and wizards), one schema per
    value of those others (given, or left to their default), with the bound found by the
    service's own check; otherwise none."""
    import itertools

    from bots.driver import events_bound_check
    from games.engine import InvalidOptions

    plain = rules_options_schema(ruleset)
    if ruleset.spec.name not in EVENT_BOUNDED_OPTIONS:
        return []
    bounded, depends = EVENT_BOUNDED_OPTIONS[ruleset.spec.name]
    declared = plain["properties"]

    def allowed(value: int, given: dict) -> bool:
        try:
            events_bound_check(ruleset, players, {**given, bounded: value})
            return True
        except InvalidOptions:
            return False

    variants = []
    for values in itertools.product(*([None, *range(declared[d]["minimum"], declared[d]["maximum"] + 1)]
                                      for d in depends)):
        given = {d: v for d, v in zip(depends, values) if v is not None}
        low, high = declared[bounded]["minimum"], declared[bounded]["maximum"]
        while low < high:                       # the greatest value the check allows
            middle = (low + high + 1) // 2
            low, high = (middle, high) if allowed(middle, given) else (low, middle - 1)
        properties = {bounded: {"maximum": low}, **{d: {"enum": [v]} for d, v in given.items()}}
        variant = {"properties": properties, **({"required": list(given)} if given else {})}
        absent = [d for d in depends if d not in given]
        if absent:
            variant["allOf"] = [{"not": {"required": [d]}} for d in absent]
        variants.append(variant)
    return variants


def tournament_body_variants() -> list[dict]:
    """What the create body's format_settings and rules_options may be, for each game and
    format: the settings that format takes with that game (within its seats) and the options
    of that game (within the driver's event limit at the format's table size). Two lists of
    schemas, of which exactly one each fits a body: one per format and the games whose seats
    give the same settings, one per game and the formats that give the same options."""
    import json

    from games.engine import registry

    settings_of, options_of = {}, {}
    for game in game_choices():
        ruleset = registry.get(game)
        for format_name in FORMAT_CHOICES:
            takes_seats = "seats" in formats.FORMATS[format_name].settings_schema
            if not takes_seats and not ruleset.spec.min_players <= 2 <= ruleset.spec.max_players:
                continue
            settings = format_settings_variants(format_name, ruleset)
            if not settings:
                continue
            settings = settings[0] if len(settings) == 1 else {"oneOf": settings}
            # a pod format's matches seat up to the game's most players: the bound at that size
            # (for Trap the Wizard's rounds and wizards it is the same at 3-6 seats)
            options = rules_options_variants(ruleset, min(7, ruleset.spec.max_players) if takes_seats else 2)
            rules_options = {"$ref": f"#/components/schemas/{rules_options_component(game)}"}
            if options:
                rules_options = {"allOf": [rules_options], "oneOf": options}
            settings_of.setdefault((format_name, json.dumps(settings, sort_keys=True)), (settings, []))[1].append(game)
            options_of.setdefault((game, json.dumps(rules_options, sort_keys=True)), (rules_options, []))[1].append(
                format_name)
    by_format = [{"type": "object", "properties": {
        "game": {"type": "string", "enum": games}, "format": {"type": "string", "enum": [format_name]},
        "format_settings": settings}, "required": ["game", "format"]}
        for (format_name, _), (settings, games) in settings_of.items()]
    by_game = [{"type": "object", "properties": {
        "game": {"type": "string", "enum": [game]}, "format": {"type": "string", "enum": formats_},
        "rules_options": options}, "required": ["game", "format"]}
        for (game, _), (options, formats_) in options_of.items()]
    return [{"oneOf": by_format}, {"oneOf": by_game}]


def rules_options_component(game: str) -> str:
    """The name of a game's rules_options schema among the schema's components."""
    return "RulesOptions" + "".join(part.title() for part in game.split("-"))
