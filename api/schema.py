"""OpenAPI post-processing: every operation documents the error envelope of api.errors for the
4xx it can answer (and 5xx, which must never happen but is the honest contract of any server),
and the AutoSchema of every view (DEFAULT_SCHEMA_CLASS)."""
from drf_spectacular import openapi
from drf_spectacular.plumbing import force_instance
from rest_framework import serializers

from .serializers_base import Input

# Text DRF's CharField accepts: never a NUL character; unless blank is allowed, at least one
# character, and with trim_whitespace at least one that is not a space.
ANY_TEXT = r"^[^\u0000]*$"
SOME_TEXT = r"^[^\u0000]+$"
NON_BLANK_TEXT = r"^[^\u0000]*[^\s\u0000][^\u0000]*$"

ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {
        "type": "object",
        "required": ["code", "detail", "fields"],
        "properties": {
            "code": {"type": "string", "description": "machine-readable reason"},
            "detail": {"type": "string", "description": "the reason, for a person"},
            "fields": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
        },
    }},
}
ERROR_STATUSES = {
    "400": "Bad request: the reason is in error.code and error.detail",
    "401": "Not authenticated, or the token is expired, revoked or malformed",
    "403": "Authenticated but not allowed",
    "404": "Not found (or not yours to see)",
    "405": "Method not allowed",
    "406": "Not acceptable",
    "409": "Conflict with the current state",
    "413": "Request too large",
    "415": "Unsupported media type",
    "429": "Throttled",
}


def add_error_responses(result, generator, request, public):
    """drf-spectacular hook: add the error envelope to every operation's responses."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, description in ERROR_STATUSES.items():
                operation["responses"].setdefault(status, {
                    "description": description,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                })
    return result


def describe_tournament_bodies(result, generator, request, public):
    """drf-spectacular hook: a tournament's create body names a game and a format, and what
    format_settings and rules_options it takes depends on both (the format's settings within
    the game's seats, the game's options within the match driver's event limit), described by
    two lists of schemas, of which exactly one each fits (issue 40, item 11)."""
    from games.engine import registry

    from .serializers_tournaments import rules_options_component, rules_options_schema, tournament_body_variants

    components = result.setdefault("components", {}).setdefault("schemas", {})
    body = components.get("TournamentCreateInputRequest")
    if body is not None:
        for game in registry.names():
            components[rules_options_component(game)] = rules_options_schema(registry.get(game))
        body["properties"]["format_settings"] = {"type": "object", "description": "the format's settings; "
                                                 "which, and their bounds, depend on the format and the game"}
        body["properties"]["rules_options"] = {"type": "object", "description": (
            "the game's rules options (GET /api/games/<name>/ lists them). One refusal the schema "
            "cannot state: Warlock's and Wizard Kings' options whose matches could run past the match "
            "driver's event limit at the format's table sizes (a bound on several options together, "
            "bots.driver.events_bound_check) are refused with a 400 whose detail says so "
            "('... more than the N the match driver plays ...'); Trap the Wizard's is stated "
            "(turn_limit by rounds and wizards)")}
        body["allOf"] = tournament_body_variants()
    return result


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's AutoSchema, stating rules of the server it cannot see: unknown body
    fields are refused (api.serializers_base.Input), which text DRF accepts, and that a view
    without permission classes is as public as one with AllowAny."""

    def get_auth(self):
        auths = super().get_auth()
        if not self.view.get_permissions() and {} not in auths:
            auths.append({})  # anonymous requests are served: the security may be left out
        return auths

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        # Django's form fields (django-filter) and DRF's refuse a NUL in any text parameter.
        for parameter in (operation or {}).get("parameters", []):
            schema = parameter.get("schema", {})
            if (parameter["in"] == "query" and schema.get("type") == "string"
                    and not {"format", "pattern", "enum"} & set(schema)):
                schema["pattern"] = ANY_TEXT
        return operation

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(force_instance(serializer), Input):
            schema["additionalProperties"] = False
        return schema

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if direction == "request" and schema and isinstance(field, serializers.RegexField):
            # the field's own pattern (drf-spectacular leaves it out; NUL is in none of ours)
            schema["pattern"] = next(v.regex.pattern for v in field.validators if hasattr(v, "regex"))
        # DRF refuses NUL characters, and strips surrounding whitespace before its blank check
        # (so "  " is blank): minLength 1 alone would promise that both are accepted.
        if (direction == "request" and schema and isinstance(field, serializers.CharField)
                and schema.get("type") == "string" and not {"format", "pattern", "enum"} & set(schema)):
            schema["pattern"] = (ANY_TEXT if field.allow_blank else
                                 NON_BLANK_TEXT if field.trim_whitespace else SOME_TEXT)
        return schema
