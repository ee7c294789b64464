"""Thin views: parse, call one selector, serialize."""
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine import options_schema, registry, schemas


class GameOutput(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    version = serializers.IntegerField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    chance = serializers.BooleanField()
    hidden_information = serializers.BooleanField()
    simultaneous = serializers.BooleanField()
    options = serializers.JSONField(help_text="The options with their types, defaults and choices.")


class GameList(ListAPIView):
    """The catalogue of rulesets with their options, defaults and player ranges."""

    permission_classes = [AllowAny]
    serializer_class = GameOutput
    filter_backends = []  # a list of rulesets, no model to filter (nor for the schema to look for)

    def get_queryset(self):
        return [{
            "name": r.spec.name, "title": r.spec.title, "version": r.spec.version,
            "min_players": r.spec.min_players, "max_players": r.spec.max_players,
            "chance": r.spec.chance, "hidden_information": r.spec.hidden_information,
            "simultaneous": r.spec.simultaneous, "options": options_schema(r.Options),
        } for r in registry.builtin()]


class GameSchema(APIView):
    """The JSON Schemas (draft 2020-12) of a game's view and of its actions: what a bot reads
    and answers (docs/protocol.md; each field is explained on docs/rules/<game>.md)."""

    permission_classes = [AllowAny]
    cache_control = "public, max-age=3600"  # data files of the running version

    @extend_schema(
        operation_id="games_schema_retrieve",
        parameters=[OpenApiParameter("game", str, OpenApiParameter.PATH,
                                     enum=[r.spec.name for r in registry.builtin()],
                                     description="the game's registry name")],
        responses={200: {"type": "object", "required": ["game", "version", "view", "action"],
                         "additionalProperties": False,
                         "properties": {"game": {"type": "string"}, "version": {"type": "integer"},
                                        "view": {"type": "object", "description":
                                                 "JSON Schema of a view (a seat's or the public one)"},
                                        "action": {"type": "object",
                                                   "description": "JSON Schema of one action"}}}},
        description="The machine-readable view and action formats of a game, for the version the "
                    "service runs: every view and every legal action of the game validates against "
                    "them. Public and cacheable.")
    def get(self, request, game: str):
        try:
            ruleset = registry.get(game)
            body = {"game": ruleset.spec.name, "version": ruleset.spec.version,
                    "view": schemas.view_schema(game), "action": schemas.action_schema(game)}
        except LookupError:  # an unknown game, or one without schemas
            raise NotFound(f"no game {game!r} with schemas; known games: {', '.join(registry.names())}")
        response = Response(body)
        response["Cache-Control"] = self.cache_control
        return response


# GET /api/: the entry points, each a URL a client can follow, and what it holds. Named routes,
# so the answer follows the URLconf (an entry whose route is renamed fails the test, not a client).
ENTRY_POINTS = [
    ("games", "game-list", "the games, their options and player ranges"),
    ("bots", "bot-list", "every bot; POST creates one (signed in)"),
    ("my_bots", "my-bot-list", "your bots (signed in)"),
    ("tournaments", "tournament-list", "every tournament; POST creates a draft (signed in)"),
    ("matches", "match-list", "every match, newest first, live ones by their public face"),
    ("ladders", "ladder-list", "each game's standing ladder"),
    ("scrimmages", "scrimmage-list", "your scrimmages (signed in); POST asks for one"),
    ("users", "user-register", "POST registers a user"),
    ("tokens", "token-list", "your API tokens (signed in); POST creates one"),
    ("signing_keys", "signing-key-list", "the keys that sign finished logs"),
    ("health", "health", "liveness probe"),
    ("schema", "schema", "the OpenAPI schema"),
    ("docs", "docs", "the schema as browsable documentation"),
]


class ApiRoot(APIView):
    """The API's entry points (a client starts here and follows the links)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: {"type": "object", "additionalProperties": {
        "type": "object", "properties": {"url": {"type": "string"}, "description": {"type": "string"}}}}},
        description="Each entry point by name: its absolute URL and what it holds. Leaderboards "
                    "are per game: /api/leaderboards/<game>/ (a name from games).")
    def get(self, request):
        from django.urls import reverse

        return Response({name: {"url": request.build_absolute_uri(reverse(route)), "description": text}
                         for name, route, text in ENTRY_POINTS})


class Health(APIView):
    """Liveness: the server answers. Touches neither the database nor the cache, so a probe (or
    the load benchmark's baseline) measures the request path alone."""

    permission_classes = [AllowAny]
    throttle_classes = []  # probes come often and from one address

    @extend_schema(responses={200: {"type": "object", "required": ["status"],
                                    "properties": {"status": {"type": "string", "enum": ["ok"]}}}},
                   description="Liveness probe: 200 with {\"status\": \"ok\"} while the server runs.")
    def get(self, request):
        return Response({"status": "ok"})


@csrf_exempt  # a POST to no route is a 404, not a CSRF failure (an HTML 403 page)
def not_found(request, *args, **kwargs):
    """Any /api/ URL no route matches: the JSON error envelope (not in the schema: no route)."""
    from .errors import json_not_found

    return json_not_found(request)
