"""Who may see what of a match (ARCHITECTURE.md, "Events" and "Replays").

The rules, in one place:

- Everyone, anonymous visitors included, sees every match; a live one through its public face
  only (envelope, public views, redacted events), at once, with no delay: the public view holds
  nothing a seat lacks, so watching gives a bot nothing its own view does not (docs/live.md).
- Raw events of a live match carry hidden information (a shuffle is the whole deck order), so
  only auditors (staff) see them before the end. After the end the seed is revealed and
  everything is public: any seat's view, the full state, the raw log.
- During a live match a seat's view is for the owner of that seat's bot (or an auditor).
- Hashes of a live match's events are withheld from non-auditors: the hash of an event covers its
  payload, so a redacted action (a card out of a handful) could be recovered by trying each one.
"""
from __future__ import annotations

from django.db.models import QuerySet

from bots.models import BotVersion
from replays.models import Match

FINISHED = (Match.Status.ENDED, Match.Status.ABORTED)
REDACTED = "redacted"  # stands in for a withheld chance outcome or action


def is_auditor(user) -> bool:
    """Staff audit matches: they see raw events and every view while a match is live."""
    return bool(user is not None and user.is_authenticated and user.is_staff)


def match_is_over(match: Match) -> bool:
    """Ended or aborted: the seed is in the log and nothing is secret any more."""
    return match.status in FINISHED


def matches_visible_to(user) -> QuerySet:
    """The matches ``user`` may know exist: all of them, live ones included, for everyone (what
    of a live match each may see is the business of the may_* rules below). Kept as the one
    place a listing or a page asks, should a kind of match ever be hidden."""
    return Match.objects.all()


def match_seats_of(user, match: Match) -> set[int]:
    """The seats of ``match`` whose bot belongs to ``user`` (empty for anonymous users)."""
    if user is None or not user.is_authenticated:
        return set()
    version_ids = [seat.get("bot_version") for seat in match.seats if isinstance(seat, dict)]
    owned = set(BotVersion.objects.filter(pk__in=[v for v in version_ids if v is not None],
                                          bot__owner=user).values_list("pk", flat=True))
    return {index for index, seat in enumerate(match.seats)
            if isinstance(seat, dict) and seat.get("bot_version") in owned}


def may_see_raw_events(user, match: Match) -> bool:
    """Raw events (and the export) of a live match are for auditors only."""
    return match_is_over(match) or is_auditor(user)


def may_view_seat(user, match: Match, seat: int) -> bool:
    """A seat's private view: anyone after the end, its owner or an auditor before."""
    return match_is_over(match) or is_auditor(user) or seat in match_seats_of(user, match)


def may_view_everything(user, match: Match) -> bool:
    """The whole encoded state (``seat=all``): anyone after the end, auditors before."""
    return match_is_over(match) or is_auditor(user)


def event_for_viewer(record: dict, *, match: Match, hidden_information: bool, user,
                     seats: set[int]) -> dict:
    """``record`` as ``user`` (owning ``seats``) may see it. Before the end, for non-auditors:
    chance outcomes and, in games with hidden information, the actions (and forfeit evidence)
    of other seats are replaced by REDACTED, and hashes are withheld (see the module docstring)."""
    if may_see_raw_events(user, match):
        return record
    shown = {k: v for k, v in record.items() if k not in ("hash", "prev_hash")}
    kind, payload = record["kind"], record["payload"]
    foreign = hidden_information and record["seat"] not in seats
    if kind == "chance":
        shown["payload"] = {"spec": payload.get("spec"), "outcome": REDACTED}
    elif kind == "action" and foreign:
        shown["payload"] = {"action": REDACTED}
    elif kind == "forfeit" and foreign:
        shown["payload"] = {"reason": payload.get("reason")}
    shown["redacted"] = shown["payload"] is not payload
    return shown
