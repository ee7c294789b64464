"""Bots and their versions. Bots and version metadata are public; code is the owner's (and
staff's): anyone else gets a 404, as if it did not exist. Writes to a bot you can see but do
not own are a 403 (code ``not_owner``)."""
from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils.http import content_disposition_header
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from bots.models import Bot, BotVersion
from bots.selectors import bot_list_for_user, bot_versions
from bots.services import BotNameTaken, bot_create, bot_version_upload
from bots.uploads import Limits, UploadRefused

from .errors import ApiError
from .filters import FilterSet
from .selectors import bot_list_public, bot_profile, bot_version_get
from .serializers_bots import (BotCreateInput, BotOutput, BotProfileOutput, BotVersionOutput,
                               BotVersionUploadInput)

# A multipart body wraps the file in a few headers; more than this over the file limit is refused
# before the body is read.
MULTIPART_OVERHEAD = 16 * 1024


class BotFilter(FilterSet):
    game = filters.CharFilter(field_name="game")
    owner = filters.CharFilter(field_name="owner__username", help_text="The owner's username.")
    kind = filters.ChoiceFilter(choices=Bot.Kind.choices)

    class Meta:
        model = Bot
        fields = ["game", "owner", "kind"]


def upload_limits() -> Limits:
    """The upload limits in force (settings.BOT_UPLOAD_LIMITS over the defaults)."""
    return Limits(**getattr(settings, "BOT_UPLOAD_LIMITS", {}))


def bot_or_404(bot_id: int) -> Bot:
    bot = Bot.objects.select_related("owner").filter(pk=bot_id).first()
    if bot is None:
        raise Http404
    return bot


def can_read_code(user, bot: Bot) -> bool:
    """Only the owner and staff read an uploaded bot's code."""
    return user.is_authenticated and (user.is_staff or bot.owner_id == user.pk)


class BotListCreate(ListAPIView):
    """Every bot (filter by game, owner, kind); POST creates one of yours, without versions."""

    serializer_class = BotOutput
    filterset_class = BotFilter

    def get_queryset(self):
        return bot_list_public()

    @extend_schema(request=BotCreateInput, responses={201: BotOutput})
    def post(self, request):
        data = BotCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            bot = bot_create(owner=request.user, **data.validated_data)
        except BotNameTaken as exc:  # the request is well formed; the name is in use
            raise ApiError(str(exc), code="name_taken", status_code=status.HTTP_409_CONFLICT) from None
        except ValueError as exc:
            raise ApiError(str(exc), code="bot_refused") from None
        return Response(BotOutput(bot_profile(bot_id=bot.pk)).data, status=status.HTTP_201_CREATED)


class MyBotList(ListAPIView):
    """Your own bots."""

    serializer_class = BotOutput
    permission_classes = [IsAuthenticated]
    filterset_class = BotFilter

    def get_queryset(self):
        return bot_list_public().filter(pk__in=bot_list_for_user(user=self.request.user).values("pk"))


class BotDetail(RetrieveAPIView):
    """A bot's public profile, with its ratings per game."""

    serializer_class = BotProfileOutput

    def get_object(self):
        bot = bot_profile(bot_id=self.kwargs["bot_id"])
        if bot is None:
            raise Http404
        return bot


class BotVersionListUpload(ListAPIView):
    """A bot's versions (metadata only); POST uploads the next one (owner only, multipart)."""

    serializer_class = BotVersionOutput
    parser_classes = [MultiPartParser, FormParser]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return BotVersion.objects.none()
        return bot_versions(bot=bot_or_404(self.kwargs["bot_id"])).select_related("version_check")

    @extend_schema(request={"multipart/form-data": BotVersionUploadInput},
                   responses={201: BotVersionOutput,
                              200: OpenApiResponse(BotVersionOutput, description="These bytes are "
                                                   "already a version of the bot: that version."),
                              400: OpenApiResponse(description="upload_refused"),
                              413: OpenApiResponse(description="upload_too_large")})
    def post(self, request, bot_id: int):
        bot = bot_or_404(bot_id)
        if bot.owner_id != request.user.pk:
            raise ApiError("only the bot's owner uploads versions", code="not_owner",
                           status_code=status.HTTP_403_FORBIDDEN)
        limit = upload_limits().max_upload_bytes
        self._refuse_if_too_large(request.META.get("CONTENT_LENGTH"), limit + MULTIPART_OVERHEAD, limit)
        data = BotVersionUploadInput(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data["file"]
        self._refuse_if_too_large(upload.size, limit, limit)
        try:
            version = bot_version_upload(bot=bot, filename=upload.name, content=upload.read())
        except UploadRefused as exc:
            raise ApiError(exc.reason, code="upload_refused") from None
        except ValueError as exc:
            raise ApiError(str(exc), code="upload_refused") from None
        # The same bytes again: the version that holds them, 200 instead of 201 (issue 13.18).
        return Response(BotVersionOutput(version).data,
                        status=status.HTTP_201_CREATED if version.created else status.HTTP_200_OK)

    @staticmethod
    def _refuse_if_too_large(size, allowed: int, limit: int) -> None:
        """413 before reading more than we would store."""
        try:
            size = int(size or 0)
        except ValueError:
            size = 0
        if size > allowed:
            raise ApiError(f"the upload is over the limit of {limit:,} bytes", code="upload_too_large",
                           status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)


class BotVersionDetail(RetrieveAPIView):
    """One version's metadata."""

    serializer_class = BotVersionOutput

    def get_object(self):
        version = bot_version_get(bot=bot_or_404(self.kwargs["bot_id"]), number=self.kwargs["number"])
        if version is None:
            raise Http404
        return version


class BotVersionCode(RetrieveAPIView):
    """Download a version's uploaded bytes: the owner and staff only (404 for anyone else, and
    for built-in bots, which have no code to download)."""

    serializer_class = None

    @extend_schema(responses={(200, "application/octet-stream"): OpenApiTypes.BINARY})
    def get(self, request, bot_id: int, number: int):
        bot = bot_or_404(bot_id)
        if not can_read_code(request.user, bot):
            raise Http404
        version = bot_version_get(bot=bot, number=number, with_code=True)
        if version is None or version.archive is None:
            raise Http404
        content_type = "application/zip" if version.format == BotVersion.Format.ZIP else "text/x-python"
        response = HttpResponse(bytes(version.archive), content_type=content_type)
        filename = version.filename or ("main.py" if version.format == BotVersion.Format.FILE else "bot.zip")
        # Not by hand: a non-ASCII name belongs in filename* (RFC 6266); HttpResponse would
        # MIME-encode the whole header, which browsers do not decode.
        response["Content-Disposition"] = content_disposition_header(True, filename)
        response["X-Content-SHA256"] = version.sha256
        return response
