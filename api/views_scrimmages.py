"""Scrimmages (docs/ladder.md): a signed-in user asks for N games between one of their bots
and any bots of its game; their own scrimmages only (another's is a 404)."""
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from bots.models import Bot
from ladder.models import Scrimmage
from ladder.scrimmages import ScrimmageRefused, scrimmage_create, scrimmage_record

from .errors import ApiError
from .serializers_ladder import ScrimmageInput, ScrimmageOutput


def scrimmage_view(scrimmage: Scrimmage) -> Scrimmage:
    """The scrimmage with what its output shows: opponents' names, the record, each game."""
    shown = scrimmage_record(scrimmage=scrimmage)
    scrimmage.record, scrimmage.game_rows = shown["record"], shown["games"]
    scrimmage.opponents = [shown["opponent_names"].get(pk, "?") for pk in scrimmage.opponents]
    return scrimmage


class ScrimmageListCreate(ListAPIView):
    """Your scrimmages, newest first; POST asks for a new one."""

    permission_classes = [IsAuthenticated]
    serializer_class = ScrimmageOutput

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Scrimmage.objects.none()
        return Scrimmage.objects.filter(owner=self.request.user).select_related("version__bot")

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(ScrimmageOutput([scrimmage_view(s) for s in page], many=True).data)

    @extend_schema(request=ScrimmageInput, responses={
        201: ScrimmageOutput,
        400: OpenApiResponse(description="no_opponent, too_many_games, other_game, against_itself, "
                                         "no_passed_version, not_on_ladder"),
        403: OpenApiResponse(description="not_owner"),
        404: OpenApiResponse(description="no_such_bot: a bot named does not exist"),
        429: OpenApiResponse(description="limit_open, limit_games")})
    def post(self, request):
        data = ScrimmageInput(data=request.data)
        data.is_valid(raise_exception=True)
        wanted = [data.validated_data["bot"], *data.validated_data["opponents"]]
        bots = Bot.objects.select_related("owner").in_bulk(wanted)
        missing = [str(pk) for pk in wanted if pk not in bots]
        if missing:
            raise ApiError(f"no bot {', '.join(missing)}", code="no_such_bot", status_code=status.HTTP_404_NOT_FOUND)
        try:
            scrimmage = scrimmage_create(owner=request.user, bot=bots[wanted[0]],
                                         opponents=[bots[pk] for pk in wanted[1:]],
                                         games=data.validated_data["games"], rated=data.validated_data["rated"])
        except ScrimmageRefused as exc:
            raise ApiError(str(exc), code=exc.code, status_code=exc.status) from None
        scrimmage = Scrimmage.objects.select_related("version__bot").get(pk=scrimmage.pk)
        return Response(ScrimmageOutput(scrimmage_view(scrimmage)).data, status=status.HTTP_201_CREATED)


class ScrimmageDetail(RetrieveAPIView):
    """One of your scrimmages: its W-T-L and every game, linked to its replay."""

    permission_classes = [IsAuthenticated]
    serializer_class = ScrimmageOutput

    def get_object(self):
        scrimmage = Scrimmage.objects.select_related("version__bot").filter(
            pk=self.kwargs["scrimmage_id"], owner=self.request.user).first()
        if scrimmage is None:
            raise Http404
        return scrimmage_view(scrimmage)
