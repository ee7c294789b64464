"""Matches: listing, detail, step-through replays, raw events, export and validation.

Thin views: parse, check rights (api.permissions), call a replays selector or service,
serialize. Which match a request may know of, and how an event is redacted for it, is decided
in api.permissions only.
"""
from __future__ import annotations

import datetime as dt

import django_filters
from django import forms
from django.db import transaction
from django.db.models import IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine import registry
from games.engine.log import canonical_json
from replays import cursors
from replays.models import Event, Match, Validation
from replays.selectors import (folder_next, match_event_count, match_latest_validation,
                               match_records, match_step)

from . import permissions as rights
from .caching import (FINISHED, LIVE_CACHE_CONTROL, cached_response, json_response, live_step_marked,
                      live_step_response, live_step_tail_key, match_read, not_modified, read_etag, reads_publicly,
                      store, tagged)
from .errors import ApiError
from .filters import FilterSet
from .serializers_matches import (EventPageQuerySerializer, EventPageSerializer, MatchSerializer,
                                  StepQuerySerializer, StepSerializer, ValidationQueuedSerializer,
                                  ValidationSerializer)
from .throttles import ScopedRateThrottle

TAG = ["matches"]
ERRORS = {403: OpenApiResponse(description="Not for you while the match is live."),
          404: OpenApiResponse(description="No such match.")}


# -- reads --------------------------------------------------------------------------------------

def _max_seats() -> int:
    """The most seats any registered game has (seat filters look at each position)."""
    return max(registry.get(name).spec.max_players for name in registry.names())


def matches_listed(matches: QuerySet) -> QuerySet:
    """``matches`` with their step count and latest validation verdict, newest first."""
    latest = Validation.objects.filter(match=OuterRef("pk")).order_by("-created_at", "-id")
    # One step down the (match, seq) index per listed match: the last seq, plus one (seqs are
    # gap-free); an archived match's count is on its archive (replays/archives.py). A Count of
    # the joined events read every event of every match, even to count the list's pages.
    head = Event.objects.filter(match=OuterRef("pk")).order_by("-seq").values("seq")[:1]
    return matches.annotate(
        steps=Coalesce(Subquery(head) + 1, "archive__events", 0, output_field=IntegerField()),
        validation_ok=Subquery(latest.values("ok")[:1]),
        validation_first_bad_seq=Subquery(latest.values("first_bad_seq")[:1]),
        validation_at=Subquery(latest.values("created_at")[:1]),
    ).order_by("-created_at", "-id")


def visible_match(request, pk) -> Match:
    """The match ``pk`` if the requester may know of it, else 404."""
    return get_object_or_404(rights.matches_visible_to(request.user), pk=pk)


def perspective_view(request, match: Match, folder, seat):
    """The view at the folder's state for ``seat`` (None public, "all" the encoded state),
    refused with 400 for a seat the match does not have and 403 without the right to it."""
    ruleset = folder.ruleset
    if seat == "all":
        if not rights.may_view_everything(request.user, match):
            raise ApiError("the full state of a live match is for auditors only",
                           code="hidden_until_end", status_code=status.HTTP_403_FORBIDDEN)
        return ruleset.encode(folder.state)
    if seat is None:
        return ruleset.view(folder.state, None)
    if not 0 <= seat < match.players:
        raise ApiError(f"this match has seats 0-{match.players - 1}, not {seat}", code="bad_seat")
    if not rights.may_view_seat(request.user, match, seat):
        raise ApiError(f"seat {seat}'s view of a live match is for its bot's owner only",
                       code="hidden_until_end", status_code=status.HTTP_403_FORBIDDEN)
    return ruleset.view(folder.state, seat)


def require_raw_events(request, match: Match) -> None:
    if not rights.may_see_raw_events(request.user, match):
        raise ApiError("raw events of a live match carry hidden information: they are public once "
                       "it ends (auditors see them before)", code="hidden_until_end",
                       status_code=status.HTTP_403_FORBIDDEN)


# -- views --------------------------------------------------------------------------------------

MAX_ID = 2**63 - 1  # the largest id the database stores


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class IdFilter(django_filters.NumberFilter):
    """A database id: an integer in the range the database stores (a huge number is a 400, not
    an overflow deep in the database driver). The schema says so: django-filter's NumberFilter
    reads as any number to drf-spectacular."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    """An ISO 8601 time, normalised to UTC before it reaches the database: PostgreSQL refuses
    offsets beyond ±15:59 that ISO 8601 allows, and a time out of range is the client's error."""

    def filter(self, qs, value):
        if value is not None:
            try:
                value = value.astimezone(dt.timezone.utc)
            except (OverflowError, ValueError):
                raise ApiError(f"{self.field_name}: time out of range", code="invalid") from None
        return super().filter(qs, value)


class MatchFilter(FilterSet):
    """Filters of the match list."""

    game = django_filters.CharFilter(field_name="ruleset", help_text="Ruleset name, e.g. sorcado.")
    status = django_filters.ChoiceFilter(choices=Match.Status.choices)
    bot = IdFilter(method="filter_bot", help_text="Bot id: matches it plays a seat of.")
    bot_version = IdFilter(method="filter_bot_version", help_text="Bot version id.")
    tournament = IdFilter(field_name="pairing_game__pairing__tournament",
                                             help_text="Tournament id.")
    created_after = UtcDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = UtcDateTimeFilter(field_name="created_at", lookup_expr="lte")

    class Meta:
        model = Match
        fields = ["game", "status", "bot", "bot_version", "tournament", "created_after", "created_before"]

    def _seated(self, queryset, version_ids):
        # Seats are JSON; a key lookup per position works on SQLite and PostgreSQL alike.
        seated = Q()
        for position in range(_max_seats()):
            seated |= Q(**{f"seats__{position}__bot_version__in": version_ids})
        return queryset.filter(seated)

    def filter_bot(self, queryset, name, value):
        from bots.models import BotVersion
        return self._seated(queryset, list(BotVersion.objects.filter(bot_id=value).values_list("pk", flat=True)))

    def filter_bot_version(self, queryset, name, value):
        return self._seated(queryset, [int(value)])


@extend_schema(tags=TAG, summary="List matches",
               description="Newest first. Everyone, anonymous visitors included, sees every match; "
                           "a live one through its public envelope (docs/live.md).")
class MatchList(generics.ListAPIView):
    serializer_class = MatchSerializer
    filterset_class = MatchFilter

    def get_queryset(self):
        return matches_listed(rights.matches_visible_to(self.request.user))


@extend_schema(tags=TAG, summary="A match", responses={200: MatchSerializer, 404: ERRORS[404]},
               description="The envelope, result, step count and latest validation verdict. "
                           "Never the seed: it is revealed in the log's last event.")
class MatchDetail(generics.RetrieveAPIView):
    serializer_class = MatchSerializer

    def get_queryset(self):
        return matches_listed(rights.matches_visible_to(self.request.user))


class MatchStep(APIView):
    """The replay at step ``n``: the state after event n seen from one perspective."""

    @extend_schema(
        tags=TAG, summary="A replay step", responses={200: StepSerializer, 400: OpenApiResponse(
            description="Bad seat."), **ERRORS},
        parameters=[OpenApiParameter("seat", str, description=(
            'A seat number (its owner\'s view; anyone\'s once the match is over), "all" (the '
            'whole state; after the end, or for auditors) or omitted (the public view).'))],
        description="The view at step n, the event at n (redacted for non-auditors while the "
                    "match is live), who acts next and the step count. An n past the head is "
                    "404 with code no_such_step.")
    def get(self, request, pk, n: int):
        match = match_read(pk)
        query = StepQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        seat = query.validated_data.get("seat")
        # A live match's public step is the same bytes for every reader who owns no seat of it
        # (api/caching.py): tagged and cached per event. Any other live read is computed.
        public_live = (seat is None and not rights.match_is_over(match)
                       and reads_publicly(request.user, match))
        etag = read_etag(request, match, public_live=public_live)
        policy = LIVE_CACHE_CONTROL if public_live else None  # live: private, asked again each time
        key = live_step_tail_key(request, match) if public_live else None
        if (unchanged := not_modified(request, etag, policy)) is not None:
            return live_step_marked(request, unchanged, match, n, key)
        # A reader stepping on (a cursor after event n - 1 is kept here) is answered by one apply:
        # cheaper than the shared cache's two round trips, so it neither asks it nor writes to it.
        shared = not (match.status in FINISHED and cursors.waiting(match=match, n=n - 1))
        if not public_live and (hit := cached_response(request, etag, shared=shared)) is not None:
            return tagged(hit, etag, policy)
        steps = match_event_count(match=match) if match.head_seq is None else match.head_seq + 1
        if key is not None:
            # only the step count changes with each event: the rest is folded once per step
            if n >= steps:
                raise ApiError(f"this match has no step {n}", code="no_such_step",
                               status_code=status.HTTP_404_NOT_FOUND)
            head = {"match": match.pk, "step": n, "steps": steps}
            response = live_step_response(request, key, head, lambda: self._public_live_tail(match, n))
            return live_step_marked(request, tagged(response, etag, policy), match, n, key)
        # A finished match is read through a cursor (replays/cursors.py): a reader who steps on
        # to n + 1 finds the fold where this read left it.
        finished = match.status in FINISHED
        try:
            if finished:
                folder, record, ahead = cursors.step_read(match=match, n=n)
            else:
                folder, record = match_step(match=match, upto=n, in_place=True)
        except IndexError:
            raise ApiError(f"this match has no step {n}", code="no_such_step",
                           status_code=status.HTTP_404_NOT_FOUND) from None
        view = perspective_view(request, match, folder, seat)
        event = rights.event_for_viewer(
            record, match=match, hidden_information=folder.ruleset.spec.hidden_information,
            user=request.user, seats=set() if public_live else rights.match_seats_of(request.user, match))
        data = {"match": match.pk, "step": n, "steps": steps, "seat": seat, "view": view, "event": event,
                "next": folder_next(folder)}
        response = json_response(request, etag, data, live=public_live, shared=shared)
        if finished and not isinstance(response, Response):  # rendered: nothing reads the state now
            cursors.keep(match=match, n=n, folder=folder, ahead=ahead)
        return tagged(response, etag, policy)

    @staticmethod
    def _public_live_tail(match: Match, n: int) -> dict:
        """What follows the head of a live match's public step ``n``: the same for every public
        reader and every later event (api.caching.live_step_response)."""
        try:
            folder, record = match_step(match=match, upto=n, in_place=True)
        except IndexError:
            raise ApiError(f"this match has no step {n}", code="no_such_step",
                           status_code=status.HTTP_404_NOT_FOUND) from None
        event = rights.event_for_viewer(record, match=match, hidden_information=folder.ruleset.spec.hidden_information,
                                        user=None, seats=set())
        return {"seat": None, "view": folder.ruleset.view(folder.state, None), "event": event,
                "next": folder_next(folder)}


class MatchEvents(APIView):
    """Raw events by seq, for auditors while live and for everyone after the end."""

    @extend_schema(tags=TAG, summary="Raw events", parameters=[EventPageQuerySerializer],
                   responses={200: EventPageSerializer, **ERRORS},
                   description="Events with seq > after, at most limit (1-1000, default 100), "
                               "in the envelope of every list: count (the match's events), next "
                               "and previous (the pages either side), results.")
    def get(self, request, pk):
        match = match_read(pk)
        require_raw_events(request, match)
        query = EventPageQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        etag = read_etag(request, match)
        if (unchanged := not_modified(request, etag)) is not None:
            return unchanged
        if (hit := cached_response(request, etag)) is not None:
            return tagged(hit, etag)
        records = match_records(match=match, first=after + 1, last=after + limit + 1)
        count = match_event_count(match=match) if match.head_seq is None else match.head_seq + 1
        following = previous = None
        if len(records) > limit:
            records = records[:limit]
            following = request.build_absolute_uri(
                f"{request.path}?after={records[-1]['seq']}&limit={limit}")
        if after > -1:  # the page of ``limit`` events before this one (the last page, past the end)
            previous = request.build_absolute_uri(
                f"{request.path}?after={max(min(after, count - 1) - limit, -1)}&limit={limit}")
        return tagged(json_response(request, etag, {"count": count, "next": following, "previous": previous,
                                                    "results": records}), etag)


class MatchExport(APIView):
    """The whole log as JSON Lines, the form replays.services.match_import reads back."""

    @extend_schema(tags=TAG, summary="Export the log (JSON Lines)",
                   responses={(200, "application/x-ndjson"): OpenApiTypes.STR, **ERRORS},
                   description="One event per line; same rights as the raw events.")
    def get(self, request, pk):
        match = match_read(pk)
        require_raw_events(request, match)
        etag = read_etag(request, match)
        if (unchanged := not_modified(request, etag)) is not None:
            return unchanged
        if (hit := cached_response(request, etag)) is not None:
            return tagged(hit, etag)
        body = "".join(canonical_json(record) + "\n" for record in match_records(match=match))
        response = HttpResponse(body, content_type="application/x-ndjson")
        response["Content-Disposition"] = f'attachment; filename="{match.ruleset}-{match.pk}.jsonl"'
        store(etag, response, headers=("Content-Disposition",))
        return tagged(response, etag)


class MatchValidation(APIView):
    """The latest validation report of a match."""

    @extend_schema(tags=TAG, summary="Latest validation report",
                   responses={200: ValidationSerializer, 404: ERRORS[404]},
                   description="404 with code no_validation when the match was never validated. "
                               "While a match is live, non-auditors get the verdict without "
                               "reason and report.")
    def get(self, request, pk):
        match = visible_match(request, pk)
        validation = match_latest_validation(match=match)
        if validation is None:
            raise ApiError("this match has not been validated yet", code="no_validation",
                           status_code=status.HTTP_404_NOT_FOUND)
        full = rights.may_see_raw_events(request.user, match)
        return Response(ValidationSerializer({
            "ok": validation.ok, "events": validation.events,
            "first_bad_seq": validation.first_bad_seq,
            "reason": validation.reason if full else "", "report": validation.report if full else None,
            "created_at": validation.created_at, "redacted": not full}).data)


class MatchValidate(APIView):
    """Ask for a fresh validation of the whole log: queued for a worker (202), or, with no
    broker (CELERY_BROKER_URL unset: tasks run in process), done in this request (200); the
    answer says which it was."""

    permission_classes = [IsAuthenticated]
    # Each run re-folds the whole log and stores a Validation row: without its own rate any
    # signed-in user could keep the workers busy and the table growing.
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "validate"

    @extend_schema(tags=TAG, summary="Request a re-validation", request=None,
                   responses={202: ValidationQueuedSerializer, 200: ValidationQueuedSerializer,
                              401: OpenApiResponse(description="Sign in first."), 404: ERRORS[404]},
                   description="202 with queued true: a worker validates the match (GET "
                               "validation/ has the verdict once it has run). Without a broker "
                               "(CELERY_BROKER_URL unset) there is no worker: 200 with queued "
                               "false, the match validated in this request, and its verdict (ok). "
                               "At most API_THROTTLE_VALIDATE requests per user (6/minute by "
                               "default): more is a 429 with a Retry-After header.")
    def post(self, request, pk):
        from config.celery import app
        from replays.services import match_validate
        from replays.tasks import validate_match

        match = visible_match(request, pk)
        match_id = str(match.pk)
        if app.conf.task_always_eager:  # no broker: the task would run here anyway, on commit
            validation = match_validate(match=match)
            return Response({"match": match_id, "queued": False, "ok": validation.ok,
                             "detail": "validated in this request: no broker is configured "
                                       "(CELERY_BROKER_URL), so nothing is queued; GET validation/ "
                                       "has the report"})
        transaction.on_commit(lambda: validate_match.delay(match_id))
        return Response({"match": match_id, "queued": True, "ok": None,
                         "detail": "queued for a worker; GET validation/ has the verdict once it has run"},
                        status=status.HTTP_202_ACCEPTED)
