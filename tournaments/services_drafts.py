"""Draft tournaments built step by step, as the API needs: create the draft, register entries
one at a time (seeded in registration order), edit the settings, then start.

tournaments.services.tournament_create takes the entries up front and validates its settings
with ``checked_settings`` here too; these services check each thing at the step where it is
known, and the entrant count at the start, with the format's own validate_entries.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import Max

from bots.models import Bot, BotVersion
from games.engine import InvalidOptions, registry
from replays.generations import generation_bump, tournament_scope
from replays.models import Match

from . import formats
from .models import Entry, Tournament
from .services import TournamentNotDraft, tournament_start

MAX_NAME = 120
MAX_ENTRIES = 256

# Upper bounds on format settings, whatever a format itself would take: setting -> (most, why).
SETTING_LIMITS = {
    "best_of": (99, "a series is played one game after another and its length is stored as a small number"),
    "cycles": (10, "every advance rebuilds the schedule of all cycles"),
    "rounds": (1000, "every round is played and stored in turn; no real event comes near"),
}
# Upper bounds on the clock, in ms: a bot may think move_ms + bank_ms on one move, the whole
# of it inside one sandbox step (its CPU allowance, the driver's heartbeat renewing the lease
# meanwhile); a match whose worker died is taken over within one lease whatever the clock.
TIME_CONTROL_LIMITS = {"move_ms": 60_000, "bank_ms": 600_000, "increment_ms": 60_000}


class DraftRefused(ValueError):
    """A draft step refused: ``reason`` for people, ``code`` for programs (not_draft, not_owner,
    not_organiser, wrong_game, already_entered, entries_refused, too_many_entries, invalid)."""

    def __init__(self, reason: str, *, code: str = "invalid"):
        super().__init__(reason)
        self.reason, self.code = reason, code


def _checked_time_control(time_control: dict | None) -> dict:
    """A time control of whole milliseconds (move_ms > 0, bank_ms and increment_ms >= 0, each
    at most its TIME_CONTROL_LIMITS)."""
    from bots.sandbox import TimeControl

    raw = time_control or {}
    if not isinstance(raw, dict) or set(raw) - set(TIME_CONTROL_LIMITS):
        raise DraftRefused("time_control takes only move_ms, bank_ms and increment_ms")
    for key, value in raw.items():
        if type(value) is not int or value < 0 or (key == "move_ms" and value == 0):
            raise DraftRefused(f"time_control.{key} must be a whole number of milliseconds"
                               f"{' above 0' if key == 'move_ms' else ''}, got {value!r}")
        if value > TIME_CONTROL_LIMITS[key]:
            raise DraftRefused(f"time_control.{key} is at most {TIME_CONTROL_LIMITS[key]} ms, got "
                               f"{value}: one move may take move_ms + bank_ms, and a match of longer "
                               "moves would hold a worker for hours")
    return TimeControl(**raw).to_json() if raw else {}


def _checked_limits(format: str, format_settings: dict) -> None:
    """DraftRefused for a setting above its SETTING_LIMITS (the format checked the types)."""
    for name, (most, why) in SETTING_LIMITS.items():
        value = format_settings.get(name)
        if value is not None and value > most:
            raise DraftRefused(f"{format}: {name} is at most {most}, got {value}: {why}")


def _checked_fault_policy(fault_policy: dict | None) -> dict:
    from bots.referee import FaultPolicy

    try:
        return FaultPolicy.from_json(fault_policy).to_json() if fault_policy else {}
    except (TypeError, ValueError) as exc:
        raise DraftRefused(f"bad fault policy: {exc}") from None


def _checked_events_bound(ruleset, fmt, rules_options: dict | None) -> None:
    """Options whose matches may outrun the match driver (bots.driver.events_bound_check) are
    refused for every table size the format may seat."""
    from bots.driver import events_bound_check

    seats = getattr(fmt, "seats", 2)
    for players in range(max(getattr(fmt, "min_seats", seats), ruleset.spec.min_players), seats + 1):
        try:
            events_bound_check(ruleset, players, rules_options)
        except InvalidOptions as exc:
            raise DraftRefused(str(exc)) from None


def checked_settings(*, name: str, game: str, format: str, format_settings: dict | None = None,
                     rules_options: dict | None = None, time_control: dict | None = None,
                     fault_policy: dict | None = None, entries_per_user: int | None = None,
                     admits_remote_bots: bool | None = None) -> dict:
    """The fields of a draft tournament, normalised; DraftRefused with the first problem."""
    # Spec files and scripts reach here without a serializer: check the shapes first, so a
    # wrong type is a reason, not a crash further down.
    for key, value, kind in (("name", name, str), ("game", game, str), ("format", format, str),
                             ("format_settings", format_settings, dict),
                             ("rules_options", rules_options, dict)):
        if value is not None and not isinstance(value, kind):
            raise DraftRefused(f"{key} must be {'a string' if kind is str else 'an object'}, got {value!r}")
    name = (name or "").strip()
    if not name or len(name) > MAX_NAME:
        raise DraftRefused(f"a tournament needs a name of 1-{MAX_NAME} characters")
    try:
        ruleset = registry.get(game)
        options = ruleset.options_json(ruleset.options(rules_options))
    except (registry.UnknownRuleset, InvalidOptions) as exc:
        raise DraftRefused(str(exc)) from None
    if format not in formats.FORMATS:
        raise DraftRefused(f"unknown format {format!r}; formats: {', '.join(sorted(formats.FORMATS))}")
    format_settings = dict(format_settings or {})
    if format in ("pods", "swiss-pods"):  # a pod is never smaller than the game allows
        format_settings.setdefault("min_seats", max(3, ruleset.spec.min_players))
    try:
        fmt = formats.FORMATS[format].from_settings(format_settings)
    except (TypeError, ValueError) as exc:
        raise DraftRefused(str(exc)) from None
    _checked_limits(format, format_settings)
    seats = getattr(fmt, "seats", 2)
    if not ruleset.spec.min_players <= seats <= ruleset.spec.max_players:
        raise DraftRefused(f"{format} plays {seats}-seat games; {game} takes "
                           f"{ruleset.spec.min_players}-{ruleset.spec.max_players} players")
    _checked_events_bound(ruleset, fmt, rules_options)
    if entries_per_user is None:
        entries_per_user = 1
    if type(entries_per_user) is not int or not 1 <= entries_per_user <= MAX_ENTRIES:
        raise DraftRefused(f"entries_per_user must be a whole number from 1 to {MAX_ENTRIES}, "
                           f"got {entries_per_user!r}")
    if admits_remote_bots is None:
        admits_remote_bots = False
    if type(admits_remote_bots) is not bool:
        raise DraftRefused(f"admits_remote_bots must be true or false, got {admits_remote_bots!r}")
    return {"admits_remote_bots": admits_remote_bots, "name": name, "game": ruleset.spec.name, "format": format, "format_settings": format_settings,
            "rules_options": options, "time_control": _checked_time_control(time_control),
            "fault_policy": _checked_fault_policy(fault_policy), "entries_per_user": entries_per_user}


def tournament_draft_create(*, organiser, **fields) -> Tournament:
    """A draft tournament without entries, organised by ``organiser``."""
    return Tournament.objects.create(organiser=organiser, **checked_settings(**fields))


def _locked_draft(tournament: Tournament) -> Tournament:
    """The tournament's row, locked; call inside a transaction. DraftRefused unless a draft."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.status != Tournament.Status.DRAFT:
        raise DraftRefused(f"the tournament is {locked.status}, no longer a draft", code="not_draft")
    return locked


def tournament_draft_update(*, tournament: Tournament, **changes) -> Tournament:
    """Change a draft's settings (not its game: the entries play it). Everything re-checked."""
    if "game" in changes and changes["game"] != tournament.game:
        raise DraftRefused("the game of a tournament cannot change; create another one")
    with transaction.atomic():
        locked = _locked_draft(tournament)
        current = {key: getattr(locked, key) for key in
                   ("name", "game", "format", "format_settings", "rules_options", "time_control", "fault_policy",
                    "entries_per_user", "admits_remote_bots")}
        if "format" in changes and changes["format"] != locked.format and "format_settings" not in changes:
            current["format_settings"] = {}  # the old format's settings mean nothing to the new one
        fields = checked_settings(**{**current, **changes})
        if not fields["admits_remote_bots"] and locked.entries.filter(bot_version__bot__kind=Bot.Kind.REMOTE).exists():
            raise DraftRefused("remote bots are entered: withdraw them before closing the tournament to remote bots",
                               code="remote_entered")
        for key, value in fields.items():
            setattr(locked, key, value)
        locked.save(update_fields=list(fields))
        generation_bump(tournament_scope(locked.pk))
    return locked


def tournament_entry_add(*, tournament: Tournament, bot_version: BotVersion, by) -> Entry:
    """Enter ``bot_version`` as the next seed. The bot's owner enters uploaded bots (one entry per
    bot, and at most the tournament's ``entries_per_user`` into a tournament someone else
    organises); the organiser enters built-in bots (as many as they like). Drafts only."""
    bot = bot_version.bot
    if bot.kind == Bot.Kind.BUILTIN:
        if tournament.organiser_id is None or tournament.organiser_id != by.pk:
            raise DraftRefused("only the organiser enters built-in bots", code="not_organiser")
    elif bot.owner_id != by.pk:
        raise DraftRefused("you can only enter your own bots", code="not_owner")
    if bot.game != tournament.game:
        raise DraftRefused(f"{bot.name} plays {bot.game}, not {tournament.game}", code="wrong_game")
    with transaction.atomic():
        locked = _locked_draft(tournament)
        if bot.kind == Bot.Kind.REMOTE and not locked.admits_remote_bots:
            raise DraftRefused(f"{bot.name} is a remote bot and this tournament does not admit remote bots "
                               "(admits_remote_bots, the organiser's choice)", code="remote_not_admitted")
        entries = Entry.objects.filter(tournament=locked)
        if bot.kind != Bot.Kind.BUILTIN and entries.filter(bot_version__bot=bot).exists():
            raise DraftRefused(f"{bot.name} is already entered", code="already_entered")
        if bot.kind != Bot.Kind.BUILTIN and locked.organiser_id != by.pk:
            mine = entries.filter(bot_version__bot__owner=by).count()
            if mine >= locked.entries_per_user:
                raise DraftRefused(f"you have {mine} entr{'y' if mine == 1 else 'ies'} in this tournament, its "
                                   f"limit per user (entries_per_user {locked.entries_per_user}, set by "
                                   "the organiser)", code="too_many_entries")
        last = entries.aggregate(last=Max("seed"))["last"] or 0
        if last >= MAX_ENTRIES:
            raise DraftRefused(f"a tournament takes at most {MAX_ENTRIES} entries", code="entries_refused")
        generation_bump(tournament_scope(locked.pk))
        return Entry.objects.create(tournament=locked, bot_version=bot_version, seed=last + 1)


def tournament_entry_remove(*, tournament: Tournament, entry: Entry, by) -> None:
    """Take ``entry`` out of a draft: its bot's owner withdraws it, the organiser removes any
    entry. The entries after it move up one seed, so seeds stay 1..n in registration order."""
    with transaction.atomic():
        locked = _locked_draft(tournament)
        row = Entry.objects.select_related("bot_version__bot").filter(tournament=locked, pk=entry.pk).first()
        if row is None:
            raise DraftRefused(f"entry {entry.pk} is not in this tournament", code="not_found")
        if by.pk != locked.organiser_id and by.pk != row.bot_version.bot.owner_id:
            raise DraftRefused("only the bot's owner withdraws an entry, or the organiser removes it",
                               code="not_owner")
        row.delete()
        generation_bump(tournament_scope(locked.pk))
        # One at a time, lowest first: each seed moves into the one just freed, so the unique
        # (tournament, seed) constraint holds after every statement.
        for later in Entry.objects.filter(tournament=locked, seed__gt=row.seed).order_by("seed"):
            Entry.objects.filter(pk=later.pk).update(seed=later.seed - 1)


def tournament_draft_start(*, tournament: Tournament, queue: bool = True) -> list[Match]:
    """Start a draft once its format accepts the entries: the first round's matches.
    tournament_start checks both under the row lock; here its refusals get their codes."""
    try:
        return tournament_start(tournament=tournament, queue=queue)
    except TournamentNotDraft as exc:  # started, cancelled, or a concurrent start won
        raise DraftRefused(str(exc), code="not_draft") from None
    except ValueError as exc:  # the format's reason, e.g. a field it cannot split into pods
        raise DraftRefused(str(exc), code="entries_refused") from None
