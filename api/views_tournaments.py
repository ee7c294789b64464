"""Tournaments: public to read; the organiser (the user who created one) edits the draft,
starts, cancels and records corrections; bot owners enter their own bots while it is a draft.
A write by anyone else is a 403 with code ``not_organiser`` / ``not_owner`` (the tournament is
public, so hiding it would be pointless)."""
from django.db.models import Count, Prefetch
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from bots.models import Bot, BotVersion
from games.engine import registry
from tournaments.models import Correction, Entry, Pairing, PairingGame, Round, Tournament
from replays.generations import leaderboard_scope, tournament_scope
from tournaments.selectors import NotSwiss, tournament_bracket, tournament_standings, tournament_trf
from tournaments.services import correction_record, tournament_cancel
from tournaments.services_drafts import (DraftRefused, tournament_draft_create, tournament_draft_start,
                                         tournament_draft_update, tournament_entry_add, tournament_entry_remove)

from .caching import generation_cached
from .errors import ApiError
from .filters import FilterSet
from .selectors import leaderboard_ranked
from .serializers_tournaments import (BracketRoundOutput, CorrectionInput, CorrectionOutput,
                                      EntryCreateInput, EntryOutput, LeaderboardRowOutput, RoundOutput,
                                      StandingOutput, TournamentCreateInput, TournamentOutput,
                                      TournamentUpdateInput)

# How a refused draft step maps to HTTP.
# A draft whose entries the format cannot run (yet), or that is full, is a state of the
# tournament, not a fault of the request: 409, as the schema says (issue 40, item 11).
REFUSAL_STATUS = {"not_draft": 409, "already_entered": 409, "too_many_entries": 409, "entries_refused": 409,
                  "remote_not_admitted": 409, "remote_entered": 409,
                  "not_owner": 403, "not_organiser": 403, "not_found": 404}


def refused(exc: DraftRefused) -> Exception:
    """The API error for a refused draft step: a 403/409 for who and when, else a 400 whose
    ``fields`` carry the reason (the settings as a whole, when the service does not name one)."""
    if exc.code in REFUSAL_STATUS:
        return ApiError(exc.reason, code=exc.code, status_code=REFUSAL_STATUS[exc.code])
    return serializers.ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [exc.reason]}, code=exc.code)


def tournaments_public():
    return Tournament.objects.select_related("organiser").annotate(entry_count=Count("entries"))


def tournament_or_404(tournament_id: int) -> Tournament:
    return get_object_or_404(tournaments_public(), pk=tournament_id)


def organised_tournament(request, tournament_id: int) -> Tournament:
    """The tournament, if the request's user organises it; else 404 / 403 not_organiser."""
    tournament = tournament_or_404(tournament_id)
    if tournament.organiser_id is None or tournament.organiser_id != request.user.pk:
        raise ApiError("only the tournament's organiser may do this", code="not_organiser",
                       status_code=status.HTTP_403_FORBIDDEN)
    return tournament


class TournamentFilter(FilterSet):
    game = filters.CharFilter(field_name="game")
    status = filters.ChoiceFilter(choices=Tournament.Status.choices)
    organiser = filters.CharFilter(field_name="organiser__username")

    class Meta:
        model = Tournament
        fields = ["game", "status", "organiser"]


class TournamentListCreate(ListAPIView):
    """Every tournament, newest first; POST creates a draft that you organise."""

    serializer_class = TournamentOutput
    filterset_class = TournamentFilter

    def get_queryset(self):
        return tournaments_public()

    @extend_schema(request=TournamentCreateInput, responses={201: TournamentOutput})
    def post(self, request):
        data = TournamentCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            tournament = tournament_draft_create(organiser=request.user, **data.validated_data)
        except DraftRefused as exc:
            raise refused(exc) from None
        return Response(TournamentOutput(tournament_or_404(tournament.pk)).data, status=status.HTTP_201_CREATED)


class TournamentDetail(RetrieveAPIView):
    """One tournament; PATCH edits a draft's settings (organiser)."""

    serializer_class = TournamentOutput

    def get_object(self):
        return tournament_or_404(self.kwargs["tournament_id"])

    @extend_schema(request=TournamentUpdateInput, responses={200: TournamentOutput})
    def patch(self, request, tournament_id: int):
        tournament = organised_tournament(request, tournament_id)
        data = TournamentUpdateInput(data=request.data, context={"format": tournament.format})
        data.is_valid(raise_exception=True)
        try:
            tournament_draft_update(tournament=tournament, **data.validated_data)
        except DraftRefused as exc:
            raise refused(exc) from None
        return Response(TournamentOutput(tournament_or_404(tournament.pk)).data)


class EntryListCreate(ListAPIView):
    """The entries by seed; POST enters a bot version (your own bot, or a built-in bot if you
    organise the tournament) while the tournament is a draft."""

    serializer_class = EntryOutput

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        tournament = tournament_or_404(self.kwargs["tournament_id"])
        return Entry.objects.filter(tournament=tournament).select_related(
            "bot_version__bot__owner").order_by("seed")

    @extend_schema(request=EntryCreateInput, responses={201: EntryOutput})
    def post(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        data = EntryCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        version = self._version(**data.validated_data)
        try:
            entry = tournament_entry_add(tournament=tournament, bot_version=version, by=request.user)
        except DraftRefused as exc:
            raise refused(exc) from None
        return Response(EntryOutput(entry).data, status=status.HTTP_201_CREATED)

    @staticmethod
    def _version(*, bot: int, version: int | None = None) -> BotVersion:
        """The named version of a bot (the latest when unnamed); built-in bots' rows on demand."""
        row = Bot.objects.filter(pk=bot).first()
        if row is None:
            raise ApiError(f"no bot {bot}", code="not_found", status_code=404)
        versions = BotVersion.objects.filter(bot=row).defer("archive").select_related("bot__owner")
        found = versions.filter(number=version).first() if version else versions.order_by("-number").first()
        if found is None:
            raise ApiError(f"{row.name} has no version {version or '(none uploaded yet)'}", code="no_version")
        return found


class EntryDetail(RetrieveAPIView):
    """One entry; DELETE takes it out of a draft: its bot's owner withdraws it, the organiser
    removes any entry. The entries after it move up one seed."""

    serializer_class = EntryOutput

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        tournament = tournament_or_404(self.kwargs["tournament_id"])
        return Entry.objects.filter(tournament=tournament).select_related("bot_version__bot__owner")

    def get_object(self):
        return get_object_or_404(self.get_queryset(), pk=self.kwargs["entry_id"])

    @extend_schema(responses={204: None})
    def delete(self, request, tournament_id: int, entry_id: int):
        entry = self.get_object()
        try:
            tournament_entry_remove(tournament=entry.tournament, entry=entry, by=request.user)
        except DraftRefused as exc:
            raise refused(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentStart(APIView):
    """Start a draft (organiser): the format checks the entries, the first round is paired."""

    @extend_schema(request=None, responses={200: TournamentOutput})
    def post(self, request, tournament_id: int):
        tournament = organised_tournament(request, tournament_id)
        try:
            tournament_draft_start(tournament=tournament, queue=True)
        except DraftRefused as exc:
            raise refused(exc) from None
        return Response(TournamentOutput(tournament_or_404(tournament.pk)).data)


class TournamentCancel(APIView):
    """Cancel a draft or running tournament (organiser): its running and queued matches are
    aborted with the reason in their logs, and none of them is rated."""

    @extend_schema(request=None, responses={200: TournamentOutput})
    def post(self, request, tournament_id: int):
        tournament = organised_tournament(request, tournament_id)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.RUNNING):
            raise ApiError(f"the tournament is already {tournament.status}", code="not_cancellable",
                           status_code=status.HTTP_409_CONFLICT)
        tournament_cancel(tournament=tournament)
        return Response(TournamentOutput(tournament_or_404(tournament.pk)).data)


class TournamentStandings(ListAPIView):
    """The standings so far, as the format ranks them (a fixed number of queries; the format
    ranks every entry, then the page is cut from the ranking)."""

    permission_classes = [AllowAny]
    serializer_class = StandingOutput
    queryset = Entry.objects.none()  # the model a standing ranks, for the schema's path parameter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return []
        return tournament_standings(tournament=tournament_or_404(self.kwargs["tournament_id"]))

    def list(self, request, *args, **kwargs):
        """Computed once per change of the tournament (api/caching.py), not on every read."""
        return generation_cached(self, request, [tournament_scope(self.kwargs["tournament_id"])],
                                 lambda: super(TournamentStandings, self).list(request, *args, **kwargs))


class TournamentBracket(ListAPIView):
    """Rounds with their pairings, matches and outcomes (a fixed number of queries)."""

    permission_classes = [AllowAny]
    serializer_class = BracketRoundOutput
    queryset = Round.objects.none()  # the model a bracket column is, for the schema's path parameter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return []
        return tournament_bracket(tournament=tournament_or_404(self.kwargs["tournament_id"]))

    def list(self, request, *args, **kwargs):
        """Computed once per change of the tournament (api/caching.py), not on every read."""
        return generation_cached(self, request, [tournament_scope(self.kwargs["tournament_id"])],
                                 lambda: super(TournamentBracket, self).list(request, *args, **kwargs))


class TournamentRounds(ListAPIView):
    """The rounds as stored: pairings (entry ids in seat order) and their match ids."""

    permission_classes = [AllowAny]
    serializer_class = RoundOutput

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        tournament = tournament_or_404(self.kwargs["tournament_id"])
        return Round.objects.filter(tournament=tournament).order_by("number").prefetch_related(
            Prefetch("pairings", queryset=Pairing.objects.order_by("id").prefetch_related(
                Prefetch("pairing_games", queryset=PairingGame.objects.order_by("number")))))


class TournamentTrf(APIView):
    """A Swiss tournament as a FIDE tournament report file (TRF-16, text/plain), to check a
    round with a FIDE-endorsed pairing engine: the decided rounds, or those before ?round=N."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("round", {"type": "integer", "minimum": 1},
                                     description="export the rounds before this one (1 or more)")],
        responses={(200, "text/plain"): OpenApiTypes.STR,
                   400: OpenApiResponse(description="not a Swiss tournament (code not_swiss), or a bad round")})
    def get(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        before = request.query_params.get("round")
        if before is not None and not before.isdigit():
            raise ApiError("round must be a positive whole number", code="invalid")
        try:
            text = tournament_trf(tournament=tournament, before_round=int(before) if before else None)
        except NotSwiss as exc:
            raise ApiError(str(exc), code="not_swiss") from None
        except ValueError as exc:
            raise ApiError(str(exc), code="invalid") from None
        return HttpResponse(text, content_type="text/plain; charset=utf-8")


class CorrectionListCreate(ListAPIView):
    """The organiser's corrections (public, for the record); POST records one (organiser):
    ``disqualify`` or ``withdraw`` an entry, or ``adjudicate`` a pairing's placings, with a reason."""

    serializer_class = CorrectionOutput

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Correction.objects.none()
        tournament = tournament_or_404(self.kwargs["tournament_id"])
        return Correction.objects.filter(tournament=tournament).select_related("pairing", "created_by").order_by("id")

    @extend_schema(request=CorrectionInput, responses={201: CorrectionOutput})
    def post(self, request, tournament_id: int):
        tournament = organised_tournament(request, tournament_id)
        data = CorrectionInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        entry_id, key = fields.pop("entry", None), fields.pop("pairing", None)
        entry = Entry.objects.filter(tournament=tournament, pk=entry_id).first() if entry_id else None
        pairing = Pairing.objects.filter(tournament=tournament, key=key).first() if key else None
        try:
            correction = correction_record(tournament=tournament, entry=entry, pairing=pairing,
                                           created_by=request.user, **fields)
        except ValueError as exc:
            raise ApiError(str(exc), code="correction_refused") from None
        return Response(CorrectionOutput(correction).data, status=status.HTTP_201_CREATED)


class Leaderboard(ListAPIView):
    """A game's ratings, best first (openskill ordinal); ranks count from the top, whatever
    the page. A bot's matches against itself (one bot in several seats) do not count: such a
    match is rated for none of its seats, and each row says how many there were (``self_play``)."""

    permission_classes = [AllowAny]
    serializer_class = LeaderboardRowOutput

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return leaderboard_ranked(game="")
        try:
            name = registry.get(self.kwargs["game"]).spec.name
        except registry.UnknownRuleset:
            raise Http404 from None
        return leaderboard_ranked(game=name)

    def list(self, request, *args, **kwargs):
        """Computed once per recomputation of the game's ratings (api/caching.py)."""
        try:
            name = registry.get(self.kwargs["game"]).spec.name  # one scope per game, whatever alias
        except registry.UnknownRuleset:
            raise Http404 from None
        return generation_cached(self, request, [leaderboard_scope(name)],
                                 lambda: super(Leaderboard, self).list(request, *args, **kwargs))
