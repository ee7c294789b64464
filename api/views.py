"""Thin views: parse, call one selector, serialize."""
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine import options_schema, registry


class GameList(APIView):
    """The catalogue of rulesets with their options, defaults and player ranges."""

    permission_classes = []

    @extend_schema(responses={200: {"type": "array", "items": {"type": "object"}}}, description="Every ruleset: name, title, "
                   "version, player range, chance/hidden information/simultaneous flags, options.")
    def get(self, request):
        return Response([{
            "name": r.spec.name, "title": r.spec.title, "version": r.spec.version,
            "min_players": r.spec.min_players, "max_players": r.spec.max_players,
            "chance": r.spec.chance, "hidden_information": r.spec.hidden_information,
            "simultaneous": r.spec.simultaneous, "options": options_schema(r.Options),
        } for r in registry.builtin()])


@csrf_exempt  # a POST to no route is a 404, not a CSRF failure (an HTML 403 page)
def not_found(request, *args, **kwargs):
    """Any /api/ URL no route matches: the JSON error envelope (not in the schema: no route)."""
    from .errors import json_not_found

    return json_not_found(request)
