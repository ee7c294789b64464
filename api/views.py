"""Thin views: parse, call one selector, serialize."""
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine import options_schema, registry


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
