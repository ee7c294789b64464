"""Server-rendered pages: the replay viewer of one match and the bracket of one tournament.

The viewer's page (``?step=&seat=`` name the step and perspective it opens at) embeds the
match's envelope and the page of frames of that step; its script fetches
``frames.json?seat=&from=&count=`` a page (PAGE_FRAMES steps) at a time around the step shown,
so neither the page nor a request grows with the length of the match, and while the match runs
it asks for the steps past its head every LIVE_POLL_MS. Each frame's event line tells only what
the perspective's view at that step shows (hidden_parts). Rights
(ARCHITECTURE.md, "Events"): while a match runs, hidden information is for staff only, so a
spectator (anonymous or not) gets the public perspective, a bot owner also the seats of their
own bots. After the end every perspective is open, including "full"
(the encoded state).
"""
from __future__ import annotations

import functools
import hashlib
import json
import re

from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import parse_etags
from django.utils.safestring import mark_safe

from games.engine import registry
from games.engine.dict_ruleset import DictRuleset
from games.engine.log import Folder, canonical_json
from games.engine.protocol import Event
from replays.models import Match
from replays.selectors import match_folder, match_records
from tournaments.models import Tournament
from tournaments.selectors import tournament_bracket, tournament_standings

from api.caching import match_read, store, stored_response
from api.errors import error_response
from api.permissions import match_seats_of, matches_visible_to, may_view_everything
from api.renderers import json_bytes
from api.serializers_matches import seat_number

PUBLIC, FULL = "public", "full"
# The pages load their script and style from /static only and show text a bot or an organiser
# chose (names, reasons): a policy that runs nothing else keeps a slip in escaping harmless.
CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; "
                           "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
ENVELOPE_SUMMARY_LIMIT = 160
# Steps per page of frames.json: the viewer's unit of fetching and of the event list. A request
# may ask for fewer, never for more (a page's size and cost are what bound the viewer's).
PAGE_FRAMES = 100
# The shape of a frame and what its text tells; in the frames' URL and ETag, so no cache hands a
# new script an old shape (3: event lines follow the perspective's view, hidden_parts).
FRAMES_FORMAT = 3
STEP_NUMBER = re.compile(r"[0-9]{1,10}")  # ASCII digits only: str.isdigit() also takes "²"
# A finished match's frames never change (its log is closed); a live one's grow with its head.
FINISHED_CACHE_CONTROL = "public, max-age=86400"
LIVE_CACHE_CONTROL = "private, no-cache"
# How often the viewer of a running match asks frames.json for steps past its head; a request
# with nothing new costs one index read (the ETag names the head) and answers 304.
LIVE_POLL_MS = 1000


# -- rights -------------------------------------------------------------------------------------

def perspectives_for(match: Match, user) -> list[str]:
    """The perspectives ``user`` may see: "public", seat numbers as strings, and "full" (the
    rules are api.permissions'). Raises Http404 for a match the user may not know of."""
    if not matches_visible_to(user).filter(pk=match.pk).exists():
        raise Http404("no such match")
    everything = [PUBLIC, *map(str, range(match.players)), FULL]
    if may_view_everything(user, match):
        return everything
    return [PUBLIC, *map(str, sorted(match_seats_of(user, match)))]


def _visible_match(request, match_id) -> tuple[Match, list[str]]:
    """The match with its head (api.caching.match_read: a finished one from this process's
    memory) and the perspectives the user may see: every one once the match is over."""
    match = match_read(match_id)
    if match.status != Match.Status.RUNNING:
        return match, [PUBLIC, *map(str, range(match.players)), FULL]
    return match, perspectives_for(match, request.user)


# -- frames -------------------------------------------------------------------------------------

def _short(value) -> str:
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return text if len(text) <= ENVELOPE_SUMMARY_LIMIT else text[:ENVELOPE_SUMMARY_LIMIT - 3] + "..."


def _action_text(action, hidden=frozenset()) -> str:
    """``{"type": "move", "wizard": 3, "to": 43}`` -> ``move wizard=3 to=43``; the fields named
    in ``hidden`` read ``(hidden)``."""
    if isinstance(action, dict) and isinstance(action.get("type"), str):
        rest = " ".join(f"{k}={HIDDEN_TEXT if k in hidden else _short(v).strip(chr(34))}"
                        for k, v in action.items() if k != "type")
        return f"{action['type']} {rest}".strip()
    return _short(action)


def event_summary(record: dict, *, redact: bool = False, hidden=frozenset()) -> str:
    """One line for the event list, telling no more than the perspective's view shows at that
    step: ``hidden`` names the parts it does not show (an action's fields by key, "action" for
    all of it, "outcome" for a chance outcome; see hidden_parts); ``redact`` hides them all,
    leaving the kind, the seat and an action's type."""
    kind, seat, payload = record["kind"], record["seat"], record["payload"]
    if kind == "match_created":
        return f"match created: {payload.get('ruleset')} for {payload.get('players')} players"
    if kind == "match_ended":
        result = payload.get("result") or {}
        return f"match ended: placings {result.get('placings')}, scores {result.get('scores')}"
    if kind == "match_aborted":
        return f"match aborted: {payload.get('reason', '')}"
    if kind == "forfeit":
        return f"seat {seat} forfeits ({payload.get('reason', '?')})"
    if kind == "chance":
        spec = payload.get("spec") or {}
        if redact or "outcome" in hidden:
            return f"chance: {spec.get('kind', '?')} (hidden)"
        return f"chance: {spec.get('kind', '?')} -> {_short(payload.get('outcome'))}"
    action = payload.get("action")
    if redact or "action" in hidden:
        shown = action.get("type") if isinstance(action, dict) else "an action"
        return f"seat {seat}: {shown} {HIDDEN_TEXT}"
    return f"seat {seat}: {_action_text(action, hidden)}"


# -- what an event line may tell ------------------------------------------------------------------
# The board of a perspective draws its view at a step; the event line of that step may tell only
# what that view shows. The rulesets have no redaction of events of their own, so it is derived:
# a part of an event (an action's field, a chance outcome) is shown when every other value it
# could have had would have given the perspective another view, i.e. the view tells it. Forks
# are probed (PROBES of them, spread over the legal alternatives), and a string an action names
# that the state holds but the view does not (a card id) is never shown, probe or no probe.

HIDDEN_TEXT = "(hidden)"
PROBES = 8
_PROBE_FAILURES = (ValueError, LookupError, TypeError, AttributeError)  # IllegalAction is a ValueError


def _spread(items: list, most: int) -> list:
    """At most ``most`` of ``items``, spread evenly from the first to the last."""
    if len(items) <= most:
        return items
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]


def _outcome_alternatives(spec: dict, outcome) -> list | None:
    """Outcomes ``spec`` allows one change away from ``outcome`` (games.engine.chance: a die
    rolled otherwise, two places of a shuffle swapped, a pick of a choice replaced); None for an
    outcome of another shape, which is then never shown."""
    if not isinstance(outcome, list) or not all(type(v) is int for v in outcome):
        return None
    kind = spec.get("kind")
    if kind == "dice":
        sides = spec.get("sides")
        if type(sides) is not int:
            return None
        return [[*outcome[:j], v % sides + 1, *outcome[j + 1:]] for j, v in enumerate(outcome)] if sides > 1 else []
    if kind == "shuffle":
        swaps = _spread([(j, j + 1) for j in range(len(outcome) - 1)], 2 * PROBES)
        swaps += [(0, len(outcome) - 1)] if len(outcome) > 2 else []
        alternatives = []
        for a, b in swaps:
            other = list(outcome)
            other[a], other[b] = other[b], other[a]
            alternatives.append(other)
        return alternatives
    if kind == "choice":
        unused = next((v for v in range(spec.get("n") or 0) if v not in outcome), None)
        alternatives = [] if unused is None else [[*outcome[:j], unused, *outcome[j + 1:]]
                                                  for j in range(len(outcome))]
        return alternatives + ([[outcome[1], outcome[0], *outcome[2:]]] if len(outcome) > 1 else [])
    return None


def _told_apart(ruleset, state, record: dict, payloads: list[dict], seat, view) -> bool:
    """Would the event with each of ``payloads`` instead of its own have shown ``seat`` another
    view than ``view``? (An alternative the engine cannot apply tells nothing: no.)"""
    for payload in payloads:
        try:
            other = ruleset.view(ruleset.apply(state, Event(record["kind"], record["seat"], payload)), seat)
        except _PROBE_FAILURES:
            return False
        if other == view:
            return False
    return True


def _strings(value):
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def hidden_parts(ruleset, before, after, record: dict, perspective: str, view) -> set[str]:
    """The parts of ``record`` (the event between the states ``before`` and ``after``) that the
    perspective's ``view`` after it does not show, for event_summary: "outcome" of a chance,
    the fields of another seat's action by key, or "action" for all of it. A seat's own actions
    show in full; nothing is hidden from "full" or in a game without hidden information."""
    kind = record["kind"]
    if perspective == FULL or not ruleset.spec.hidden_information or kind not in ("action", "chance"):
        return set()
    seat = None if perspective == PUBLIC else int(perspective)
    payload = record["payload"]
    if kind == "chance":
        alternatives = _outcome_alternatives(payload.get("spec") or {}, payload.get("outcome"))
        payloads = [{**payload, "outcome": outcome} for outcome in alternatives or ()]
        shown = alternatives is not None and _told_apart(ruleset, before, record, payloads, seat, view)
        return set() if shown else {"outcome"}
    if record["seat"] == seat:
        return set()
    action = payload.get("action")
    if not isinstance(action, dict):
        return {"action"}
    try:
        legal = ruleset.legal_actions(before, record["seat"])
    except _PROBE_FAILURES:
        return {"action"}
    held = unseen = None
    hidden = set()
    for key, value in action.items():
        if key == "type":
            continue
        others = [a for a in legal if isinstance(a, dict) and a.keys() == action.keys() and a[key] != value
                  and all(a[k] == v for k, v in action.items() if k != key)]
        payloads = [{**payload, "action": other} for other in _spread(others, PROBES)]
        if not payloads or not _told_apart(ruleset, before, record, payloads, seat, view):
            hidden.add(key)
            continue
        names = [canonical_json(text) for text in _strings(value)]
        if names and held is None:
            held = canonical_json(_readable(ruleset, before)) + canonical_json(_readable(ruleset, after))
            unseen = canonical_json(view)
        if any(name in held and name not in unseen for name in names):
            hidden.add(key)
    return hidden


def _readable(ruleset, state):
    """``state`` as plain JSON, to be read and not kept: a state that is plain JSON already (a
    DictRuleset's, whose encode is a deep copy) as it is, any other encoded."""
    return state if type(ruleset).encode is DictRuleset.encode else ruleset.encode(state)


def _view(folder: Folder, perspective: str):
    ruleset = folder.ruleset
    if perspective == FULL:
        return {**ruleset.view(folder.state, None), "full_state": ruleset.encode(folder.state)}
    return ruleset.view(folder.state, None if perspective == PUBLIC else int(perspective))


def _json_key(key) -> str:
    """A dict key as JSON spells it (an int key 3 becomes "3"), for a patch's path."""
    return key if isinstance(key, str) else json.dumps(key)


def view_patch(before, after, at: tuple = (), ops: list | None = None) -> list[dict]:
    """The operations that turn the view ``before`` into ``after``, as viewer.js applies them:
    ``{"at": path, "set": value}``, ``{"at": path, "add": items}`` (a list that grew at its end,
    e.g. a game's log) and ``{"at": path, "del": 1}`` (a key that went); a path is the keys and
    list indices from the view down. A step changes a few leaves of a view; sending only those
    keeps a frame small however big the view or its log. A list with more than half its items
    changed is sent whole."""
    ops = [] if ops is None else ops
    if before == after:
        return ops
    # (a child equal on both sides gives no operation: it is skipped here, not called)
    if isinstance(before, dict) and isinstance(after, dict):
        ops.extend({"at": [*at, _json_key(key)], "del": 1} for key in before if key not in after)
        for key, value in after.items():
            if key in before:
                if before[key] != value:
                    view_patch(before[key], value, (*at, _json_key(key)), ops)
            else:
                ops.append({"at": [*at, _json_key(key)], "set": value})
        return ops
    if isinstance(before, list) and isinstance(after, list):
        if len(after) > len(before) and after[:len(before)] == before:
            ops.append({"at": list(at), "add": after[len(before):]})
            return ops
        if len(after) == len(before):
            changed = [index for index, (old, new) in enumerate(zip(before, after)) if old != new]
            if 2 * len(changed) <= len(after):
                for index in changed:
                    view_patch(before[index], after[index], (*at, index), ops)
                return ops
    ops.append({"at": list(at), "set": after})
    return ops


def match_frames(*, match: Match, perspective: str, first: int = 0,
                 count: int = PAGE_FRAMES) -> dict:
    """Frames ``first`` .. ``first + count - 1`` of one perspective (fewer at the head): each the
    event's line for the list (telling what the view after it shows, hidden_parts) and the view
    after it as a patch of the view before it. ``base``
    is the view before ``first`` (None at 0, where frame 0 carries its whole view): the page
    draws on its own, and each renderer gets the step before the one it draws.

    The fold starts at the nearest snapshot before ``first``, so a page costs one decode, fewer
    than REPLAY_SNAPSHOT_EVERY + count applies and count views, at any step of any match."""
    page = {"from": first, "base": None, "frames": []}
    try:
        folder = match_folder(match=match, upto=max(first - 1, 0), in_place=True)
    except (IndexError, Match.DoesNotExist):  # past the head, or no event at all
        return page
    folder.in_place = False  # each frame compares the state after its event with the one before
    ruleset = folder.ruleset
    before = _view(folder, perspective) if first > 0 else None
    page["base"] = before
    for record in match_records(match=match, first=first, last=first + count - 1):
        state = folder.state
        if record["seq"] > 0:
            folder.advance(record)
        view = _view(folder, perspective)
        hidden = hidden_parts(ruleset, state, folder.state, record, perspective, view)
        frame = {"seq": record["seq"], "kind": record["kind"], "seat": record["seat"],
                 "text": event_summary(record, hidden=hidden)}
        frame.update({"view": view} if before is None else {"patch": view_patch(before, view)})
        page["frames"].append(frame)
        before = view
    return page


# -- views --------------------------------------------------------------------------------------

def _seat_labels(match: Match) -> list[str]:
    """"seat 0: greedy v1"; a person's seat (ladder.play) names its person: "seat 1: alice in person"."""
    from bots.models import BotVersion
    from ladder.play import PERSON

    people = [s.get("bot_version") for s in match.seats
              if isinstance(s, dict) and s.get("bot") == PERSON and s.get("kind") == "remote"]
    owners = dict(BotVersion.objects.filter(pk__in=people).values_list("pk", "bot__owner__username")) if people else {}
    labels = []
    for i, seat in enumerate(match.seats):
        name = seat.get("bot") if isinstance(seat, dict) else None
        version = seat.get("version") if isinstance(seat, dict) else None
        if isinstance(seat, dict) and seat.get("bot_version") in owners:
            labels.append(f"seat {i}: {owners[seat['bot_version']]} in person")
            continue
        labels.append(f"seat {i}: {name}" + (f" v{version}" if version else "") if name else f"seat {i}")
    return labels


def with_content_security_policy(view):
    """The page's response with CONTENT_SECURITY_POLICY (Django 5.2 has no CSP of its own); a
    missing match or tournament is the site's 404 page, DEBUG or not (as web.site.site_page)."""
    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            response = view(request, *args, **kwargs)
        except Http404 as exc:
            from .site import not_found_page  # web.site imports this module

            return not_found_page(request, str(exc))
        response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        return response
    return wrapped


def _asked_perspective(text: str | None, perspectives: list[str], players: int) -> tuple[str, str | None]:
    """The perspective ``?seat=`` asks for (public, full or a seat number; "all" as the API
    spells full), or the public one with the reason when the user may not see it or the match
    has no such perspective."""
    if not text or text == PUBLIC:
        return PUBLIC, None
    seat = seat_number(text)
    asked = FULL if text in (FULL, "all") else None if seat is None or seat >= players else str(seat)
    if asked is None:
        return PUBLIC, (f"This match has no perspective \u201c{text[:40]}\u201d (public, full or a seat "
                        f"0-{players - 1}): showing the public one.")
    if asked not in perspectives:
        what = "The full state" if asked == FULL else f"Seat {asked}\u2019s perspective"
        return PUBLIC, (f"{what} is hidden while the match runs (only staff and the seat\u2019s "
                        f"owner see it): showing the public perspective.")
    return asked, None


def _asked_step(text: str | None, steps: int, *, live: bool) -> tuple[int, str | None]:
    """The step ``?step=`` asks for, clamped to the match; by default the first step of a
    finished match and the last of a running one (the viewer then follows it)."""
    last = max(steps - 1, 0)
    if not text:
        return (last if live else 0), None
    if not STEP_NUMBER.fullmatch(text):
        return 0, f"\u201c{text[:40]}\u201d is no step number: showing step 0."
    if int(text) > last:
        return last, f"Step {int(text)} is past the last step so far ({last}): showing step {last}."
    return int(text), None


def _card_catalogue(match: Match) -> dict:
    """The ruleset's card catalogue for the edition the match is played by, for a renderer to
    write on a card it draws face up (views name cards by id only). Keyed by the id less its kind
    ("lich" for MON-lich): a card id in a page is what the leak tests search for, and the
    catalogue, the same for every perspective, says nothing of where a card lies."""
    try:
        ruleset = registry.get(match.ruleset, match.ruleset_version)
    except registry.UnknownRuleset:
        return {}
    return {card.split("-", 1)[-1]: facts for card, facts in ruleset.card_catalogue().items()}


def person_seat(match: Match, user) -> int | None:
    """The seat ``user`` takes in person in ``match`` (their person bot's: ladder.play), or None."""
    from ladder.play import PERSON

    for seat in sorted(match_seats_of(user, match)):
        info = match.seats[seat]
        if info.get("bot") == PERSON and info.get("kind") == "remote":
            return seat
    return None


def _play_data(request, match: Match, seat: int) -> dict:
    """What web/static/viewer/play.js needs to play ``seat`` in person (docs/play.md): the long
    poll of the seat's acts and the answer endpoint of the remote seats, with the session's
    CSRF token for the answer's POST."""
    from django.middleware.csrf import get_token

    return {"seat": seat, "next_url": reverse("remote-next"), "act_url": reverse("remote-answer", args=[match.pk, seat]),
            "csrf": get_token(request), "ruleset": match.ruleset}


@with_content_security_policy
def match_page(request, match_id):
    """The replay viewer: board, step controls, perspective switch, legend and event list.
    ``?step=N&seat=S`` open it at a step and a perspective (_asked_step, _asked_perspective);
    the script keeps both in the URL as the user steps, and follows a running match as it is
    played (frames.json past the known head). The page carries the page of frames of the step
    shown, so the board is drawn without a second request."""
    match, perspectives = _visible_match(request, match_id)
    labels = _seat_labels(match)
    names = {PUBLIC: "public", FULL: "full (everything)"}
    every = [PUBLIC, *map(str, range(match.players)), FULL]
    choices = [{"value": p, "label": names.get(p) or labels[int(p)]} for p in every]
    head = None if match.head_seq is None else {"seq": match.head_seq, "hash": match.head_hash}
    live = match.status == Match.Status.RUNNING
    playing = person_seat(match, request.user)
    asked = request.GET.get("seat") or (str(playing) if playing is not None else None)
    perspective, seat_notice = _asked_perspective(asked, perspectives, match.players)
    step, step_notice = _asked_step(request.GET.get("step"), _steps(head), live=live)
    data = {"match": str(match.id), "ruleset": match.ruleset, "status": match.status,
            "seats": labels, "result": match.result,
            "perspectives": [c for c in choices if c["value"] in perspectives],
            "every_perspective": choices,  # open to all once the match is over
            "perspective": perspective, "step": step, "events": _steps(head),
            "page_frames": PAGE_FRAMES, "poll_ms": LIVE_POLL_MS, "cards": _card_catalogue(match),
            "frames_url": f"{reverse('match-frames', args=[match.pk])}?v={FRAMES_FORMAT}"}
    if playing is not None:
        data["play"] = _play_data(request, match, playing)
    first_page = _first_page(match, head, perspective, step // PAGE_FRAMES * PAGE_FRAMES)
    tournament = Tournament.objects.filter(pairings__pairing_games__match=match).only("pk", "name").first()
    title = registry.get(match.ruleset).spec.title if match.ruleset in registry.names() else match.ruleset
    notices = [n for n in (seat_notice, step_notice) if n]
    return render(request, "viewer/match.html", {"match": match, "title": title,
                                                 "data_json": _script_json(data, first_page=first_page),
                                                 "seats": labels, "tournament": tournament,
                                                 "notices": notices, "play": data.get("play")})


# json_script's escapes: the JSON cannot end its <script> element nor open another tag
_SCRIPT_ESCAPES = ((b"&", b"\\u0026"), (b"<", b"\\u003C"), (b">", b"\\u003E"))


def _script_json(data: dict, *, first_page: bytes) -> str:
    """``data`` with ``first_page`` (a JSON object, as bytes) under "first_page", as JSON that is
    safe inside a <script> element, as Django's json_script makes it: the page's data, built
    around the page of frames without decoding it again."""
    body = json_bytes(data)[:-1] + b',"first_page":' + first_page + b"}"
    for character, escape in _SCRIPT_ESCAPES:
        body = body.replace(character, escape)
    return mark_safe(body.decode())  # noqa: S308  (escaped above, as json_script escapes)


def _page_number(text: str | None, default: int, *, least: int, most: int) -> int | None:
    """A from/count parameter within [least, most], else None."""
    if text is None:
        return default
    if not STEP_NUMBER.fullmatch(text) or not least <= int(text) <= most:
        return None
    return int(text)


def _steps(head: dict | None) -> int:
    """The number of steps of a match whose last event is ``head`` (seqs are gap-free)."""
    return head["seq"] + 1 if head else 0


def _frames_etag(match: Match, head: dict | None, perspective: str, first: int, count: int) -> str:
    """Names a page of frames: its match's head (the log's last hash) and what was asked for."""
    key = f"{FRAMES_FORMAT} {match.pk} {head and head['hash']} {match.status} {perspective} {first} {count}"
    return f'"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'


FRAMES_ENVELOPE = ("match", "perspective", "status", "result", "events")


def _frames_response(match: Match, head: dict | None, perspective: str, first: int, count: int, *,
                     store_as: str | None) -> HttpResponse:
    """frames.json's body for a page (match_frames in its envelope), kept under ``store_as``
    (a finished match's ETag) for every later reader."""
    page = match_frames(match=match, perspective=perspective, first=first, count=count)
    response = HttpResponse(_frames_json({**_frames_envelope(match, head, perspective), **page}),
                            content_type="application/json")
    if store_as is not None:
        store(store_as, response)
    return response


def _frames_envelope(match: Match, head: dict | None, perspective: str) -> dict:
    """What frames.json writes before the page of frames (FRAMES_ENVELOPE)."""
    return {"match": str(match.id), "perspective": perspective, "status": match.status,
            "result": match.result, "events": _steps(head)}


def _first_page(match: Match, head: dict | None, perspective: str, first: int) -> bytes:
    """The viewer page's page of frames, as JSON: a finished match's from frames.json's cached
    body of the same page (written if missing), so opening a replay folds it at most once for
    everyone and decodes it never (the body is the envelope, then the page: the page is the
    bytes past the envelope's); a live match's computed."""
    if match.status == Match.Status.RUNNING:
        return json_bytes(match_frames(match=match, perspective=perspective, first=first))
    etag = _frames_etag(match, head, perspective, first, PAGE_FRAMES)
    body = (stored_response(etag) or _frames_response(match, head, perspective, first, PAGE_FRAMES,
                                                      store_as=etag)).content
    envelope = _frames_json(_frames_envelope(match, head, perspective))[:-1] + b","
    if body.startswith(envelope):
        return b"{" + body[len(envelope):]
    return json_bytes({key: value for key, value in json.loads(body).items()  # (another writer's order)
                       if key not in FRAMES_ENVELOPE})


def _frames_json(data: dict) -> bytes:
    """frames.json's encoding (JsonResponse's: Django's encoder, compact)."""
    return json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":")).encode()


def match_frames_json(request, match_id):
    """One page of frames of one perspective: ?seat=public|full|<n>&from=<step>&count=<1..
    PAGE_FRAMES> (defaults public, 0, PAGE_FRAMES); anything else is a 400 with the error
    envelope, since the viewer's script reads the answer as JSON. ``events`` is the step count
    now (a live match grows; the viewer polls the page past its head) and ``result`` the
    match's once it is over; a page past the head has no frames.

    The ETag names the head of the log, so a conditional request is answered from one index
    read; a finished match's pages may be cached (its log is closed), a live one's revalidated."""
    # A finished match's row and head come from memory and its pages from the shared cache
    # (api/caching.py): after its end every perspective is everyone's, the same bytes for all.
    match = match_read(match_id)
    finished = match.status != Match.Status.RUNNING
    perspectives = ([PUBLIC, *map(str, range(match.players)), FULL] if finished
                    else perspectives_for(match, request.user))
    perspective = request.GET.get("seat", PUBLIC)
    if perspective not in (PUBLIC, FULL):
        seat = seat_number(perspective)
        if seat is None:
            return error_response(f'seat must be "{PUBLIC}", "{FULL}" or a seat number',
                                  code="bad_seat", status=400)
        perspective = str(seat)
    first = _page_number(request.GET.get("from"), 0, least=0, most=10**9)
    count = _page_number(request.GET.get("count"), PAGE_FRAMES, least=1, most=PAGE_FRAMES)
    if first is None or count is None:
        return error_response(f"from must be a step number and count 1-{PAGE_FRAMES}",
                              code="bad_page", status=400)
    if perspective not in perspectives:
        if perspective in (PUBLIC, FULL) or int(perspective) < match.players:
            raise PermissionDenied("that perspective is hidden while the match runs")
        raise Http404("no such perspective")
    head = None if match.head_seq is None else {"seq": match.head_seq, "hash": match.head_hash}
    etag = _frames_etag(match, head, perspective, first, count)
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    elif not finished or (response := stored_response(etag)) is None:
        response = _frames_response(match, head, perspective, first, count, store_as=etag if finished else None)
    response["ETag"] = etag
    response["Cache-Control"] = (LIVE_CACHE_CONTROL if match.status == Match.Status.RUNNING
                                 else FINISHED_CACHE_CONTROL)
    return response


# -- the bracket --------------------------------------------------------------------------------

BOX_WIDTH, COLUMN_GAP, ROW_HEIGHT, BOX_PAD, BOX_GAP, TOP = 220, 70, 18, 22, 16, 34
CONNECTED_FORMATS = ("single-elimination", "pods")


def bracket_layout(rounds: list[dict], *, connect: bool) -> dict:
    """Boxes for the SVG: one column per round, pairings spread evenly over the tallest column
    (so an elimination bracket narrows towards the final); connectors from a pairing to the
    next-round pairing each of its winners plays in."""
    def box_height(p):
        return BOX_PAD + ROW_HEIGHT * len(p["seats"]) + (ROW_HEIGHT if p["matches"] else 0) + 6

    tallest = max((sum(box_height(p) + BOX_GAP for p in r["pairings"]) for r in rounds), default=0)
    columns, where = [], {}
    for col, rnd in enumerate(rounds):
        x = 10 + col * (BOX_WIDTH + COLUMN_GAP)
        share = tallest / max(len(rnd["pairings"]), 1)
        boxes = []
        for i, p in enumerate(rnd["pairings"]):
            h = box_height(p)
            y = round(TOP + i * share + (share - h - BOX_GAP) / 2)
            placings = {int(k): v for k, v in (p["placings"] or {}).items()}
            best = min(placings.values()) if placings else None
            seats = [{**s, "y": y + BOX_PAD + ROW_HEIGHT * j, "place": placings.get(s["entry"]),
                      "won": best is not None and placings.get(s["entry"]) == best}
                     for j, s in enumerate(p["seats"])]
            links = [{"id": m, "label": f"game {n + 1}" if len(p["matches"]) > 1 else "replay",
                      "x": x + 8 + n * 62} for n, m in enumerate(p["matches"])]
            box = {**p, "x": x, "y": y, "h": h, "seats_drawn": seats, "links": links,
                   "links_y": y + BOX_PAD + ROW_HEIGHT * len(p["seats"]) + 2}
            boxes.append(box)
            for s in p["seats"]:
                where[(rnd["round"], s["entry"])] = box
        columns.append({"round": rnd["round"], "x": x, "boxes": boxes})
    lines = []
    if connect:
        for rnd in rounds:
            for box in next(c["boxes"] for c in columns if c["round"] == rnd["round"]):
                for s in box["seats_drawn"]:
                    target = where.get((rnd["round"] + 1, s["entry"]))
                    if target is not None and s["won"]:
                        x1, y1 = box["x"] + BOX_WIDTH, box["y"] + box["h"] / 2
                        x2, y2 = target["x"], target["y"] + target["h"] / 2
                        mid = (x1 + x2) / 2
                        lines.append(f"M{x1:.0f},{y1:.0f} H{mid:.0f} V{y2:.0f} H{x2:.0f}")
    width = 20 + len(rounds) * (BOX_WIDTH + COLUMN_GAP)
    return {"columns": columns, "lines": lines, "width": width, "height": round(TOP + tallest + 10),
            "box_width": BOX_WIDTH}


@with_content_security_policy
def tournament_page(request, tournament_id):
    """The bracket (or pods, or rounds) in SVG with a link to every match, or a round robin's
    crosstable, and the standings; in the site's frame with the entries and progress of
    web.site.tournament_overview, and the forms of web.site_tournaments for its visitor."""
    return tournament_page_response(request, get_object_or_404(Tournament, pk=tournament_id))


def tournament_page_response(request, tournament: Tournament, *, refusal: str = "", status: int = 200):
    """The tournament page; ``refusal``: why a form of it was refused (web.site_tournaments)."""
    from .site import tournament_overview  # web.site imports this module
    from .site_tournaments import CROSSTABLE_FORMATS, crosstable, tournament_actions

    rounds = tournament_bracket(tournament=tournament)
    standings = tournament_standings(tournament=tournament) if rounds else []
    overview = tournament_overview(tournament=tournament, rounds=rounds)
    table = (crosstable(entries=overview["entries"], rounds=rounds, standings=standings)
             if rounds and tournament.format in CROSSTABLE_FORMATS else None)
    layout = None if table else bracket_layout(rounds, connect=tournament.format in CONNECTED_FORMATS)
    response = render(request, "viewer/tournament.html", {
        "tournament": tournament, "layout": layout, "crosstable": table, "rounds": rounds,
        "standings": standings, "refusal": refusal, **overview, **tournament_actions(request, tournament)},
        status=status)
    response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response
