"""The ladders (docs/ladder.md): public leaderboards; an owner takes a bot off its game's
ladder or puts it back (403 ``not_owner`` for anyone else's bot)."""
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from games.engine import registry
from ladder.models import Ladder, LadderEntry
from ladder.selectors import ladder_leaderboard, ladder_summaries
from ladder.services import RemoteNotAdmitted, ladder_entry_set_active, ladder_entry_update

from .errors import ApiError
from .serializers_ladder import (LadderEntryInput, LadderEntryOutput, LadderJoinInput, LadderOutput,
                                 LadderRowOutput)


def ladder_or_404(game: str) -> Ladder:
    try:
        name = registry.get(game).spec.name
    except registry.UnknownRuleset:
        raise Http404 from None
    ladder = Ladder.objects.filter(game=name).first()
    if ladder is None:
        raise Http404
    return ladder


class LadderList(ListAPIView):
    """Every game's ladder, with its bots and matches in flight."""

    permission_classes = [AllowAny]
    serializer_class = LadderOutput
    queryset = Ladder.objects.none()  # for the schema: the rows are ladder_summaries()

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Ladder.objects.none()
        return ladder_summaries()


class LadderDetail(RetrieveAPIView):
    """One game's ladder."""

    permission_classes = [AllowAny]
    serializer_class = LadderOutput

    def get_object(self):
        ladder = ladder_or_404(self.kwargs["game"])
        return next(row for row in ladder_summaries() if row["game"] == ladder.game)


class LadderLeaderboard(ListAPIView):
    """A ladder's active bots, best first by the conservative rating mu - 3 sigma; ranks count
    from the top, whatever the page."""

    permission_classes = [AllowAny]
    serializer_class = LadderRowOutput

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return LadderEntry.objects.none()  # for the schema: the rows are ladder_leaderboard()
        return ladder_leaderboard(ladder=ladder_or_404(self.kwargs["game"]))


class LadderEntryList(ListAPIView):
    """Every bot on the ladder, active or taken off; POST enters one of your bots that is not on
    it (its newest passed version)."""

    serializer_class = LadderEntryOutput

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return LadderEntry.objects.none()
        return LadderEntry.objects.filter(ladder=ladder_or_404(self.kwargs["game"])) \
            .select_related("bot", "version").order_by("id")

    @extend_schema(request=LadderJoinInput, responses={201: LadderEntryOutput, 200: LadderEntryOutput,
                                                       400: OpenApiResponse(description="no_passed_version"),
                                                       403: OpenApiResponse(description="not_owner"),
                                                       409: OpenApiResponse(description="remote_not_admitted")})
    def post(self, request, game: str):
        from bots.models import Bot

        ladder = ladder_or_404(game)
        data = LadderJoinInput(data=request.data)
        data.is_valid(raise_exception=True)
        bot = Bot.objects.filter(pk=data.validated_data["bot"]).first()
        if bot is None or bot.game != ladder.game:
            raise ApiError(f"no bot {data.validated_data['bot']} of {ladder.game}", code="no_such_bot")
        if bot.owner_id != request.user.pk:
            raise ApiError("only the bot's owner enters it", code="not_owner", status_code=status.HTTP_403_FORBIDDEN)
        before = LadderEntry.objects.filter(ladder=ladder, bot=bot).exists()
        try:
            entry = ladder_entry_update(bot=bot)
        except RemoteNotAdmitted as exc:
            raise ApiError(str(exc), code="remote_not_admitted", status_code=status.HTTP_409_CONFLICT) from None
        if entry is None:
            raise ApiError(f"{bot.name} has no version that passed its check match yet", code="no_passed_version")
        if not entry.active:
            entry = ladder_entry_set_active(entry=entry, active=True)
        return Response(LadderEntryOutput(entry).data, status=status.HTTP_200_OK if before else status.HTTP_201_CREATED)


class LadderEntryDetail(RetrieveAPIView):
    """One bot on the ladder; PATCH {"active": false} takes it off, {"active": true} puts it back
    (its owner only)."""

    serializer_class = LadderEntryOutput

    def get_object(self):
        entry = LadderEntry.objects.filter(ladder=ladder_or_404(self.kwargs["game"]), bot_id=self.kwargs["bot_id"]) \
            .select_related("bot", "version").first()
        if entry is None:
            raise Http404
        return entry

    @extend_schema(request=LadderEntryInput, responses={200: LadderEntryOutput,
                                                        403: OpenApiResponse(description="not_owner")})
    def patch(self, request, game: str, bot_id: int):
        entry = self.get_object()
        if entry.bot.owner_id is None or entry.bot.owner_id != request.user.pk:
            raise ApiError("only the bot's owner takes it off or puts it back", code="not_owner",
                           status_code=status.HTTP_403_FORBIDDEN)
        data = LadderEntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(LadderEntryOutput(ladder_entry_set_active(entry=entry, active=data.validated_data["active"])).data)
