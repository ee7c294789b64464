"""Writes for bots: creating bots, uploading versions, the built-in bots as rows, unpacking a
version's code for a run; and playing matches of built-in bots in process.

Versions are immutable: nothing here updates one. A refused upload stores nothing.
"""
from __future__ import annotations

import hashlib
import logging
import re
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.module_loading import import_string

from games.engine import registry
from games.engine.bots import Bot as EngineBot
from replays.models import Match
from replays.services import match_create

from .models import Bot, BotVersion
from .uploads import Limits, inspect_upload, materialize

BOT_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


class BotNameTaken(ValueError):
    """The owner has a bot of that name for that game already."""
MAX_DESCRIPTION = 2000


def builtin_bots(ruleset_name: str) -> dict[str, type[EngineBot]]:
    """Built-in bots that play a game ({name: class}): the game's own (every game has at
    least ``random``) and ``search`` (Ruleset.bots)."""
    return registry.get(ruleset_name).bots()


def match_start(*, ruleset: str, versions: list[BotVersion], options: dict | None = None,
                time_control: dict | None = None, fault_policy: dict | None = None,
                seed: bytes | None = None, queue: bool = True, rated: bool = True) -> Match:
    """A match between bot versions (one per seat, built-in or uploaded), its driver queued
    (play_match) once the match is committed. Raises ValueError on a bad policy, time control
    or a bot of another game, and the engine's InvalidOptions/UnknownRuleset. ``rated=False``:
    left out of the game's ratings (a check match)."""
    from .driver import events_bound_check
    from .referee import FaultPolicy
    from .sandbox import TimeControl
    from .tasks import play_match

    game = _game_name(ruleset)
    strangers = [v.bot.name for v in versions if v.bot.game != game]
    if strangers:
        raise ValueError(f"bot(s) {', '.join(strangers)} play another game than {game}")
    events_bound_check(registry.get(game), len(versions), options)
    policy = FaultPolicy.from_json(fault_policy).to_json()
    try:
        clock = TimeControl(**(time_control or {})).to_json()
    except TypeError as exc:
        raise ValueError(f"bad time control: {exc}") from None
    seats = [{"bot_version": v.pk, "bot": v.bot.name, "version": v.number, "kind": v.bot.kind}
             for v in versions]
    with transaction.atomic():
        match = match_create(ruleset=game, players=len(versions), options=options, seats=seats,
                             seed=seed, time_control=clock, fault_policy=policy,
                             queued_at=timezone.now() if queue else None, rated=rated)
        if queue:
            match_id = str(match.pk)
            if any(v.bot.kind == Bot.Kind.REMOTE for v in versions) and _tasks_in_process():
                transaction.on_commit(lambda: _drive_in_a_thread(match_id))
            else:
                transaction.on_commit(lambda: play_match.delay(match_id))
    return match


def _tasks_in_process() -> bool:
    from config.celery import app

    return bool(app.conf.task_always_eager)


def _drive_in_a_thread(match_id: str) -> None:
    """Where tasks run in process (no broker), a match with a remote seat is driven in a thread
    of its own: inline, the request that started it would wait for the whole match, and with it
    the remote client's answers (docs/remote.md, "On the embedded defaults")."""
    import threading

    from django.db import connection

    from .tasks import play_match

    def drive():
        try:
            play_match(match_id)
        except Exception:  # counted on the match by the driver, for the next one to retry
            logging.getLogger(__name__).exception("match %s: its driver thread failed", match_id)
        finally:
            connection.close()

    threading.Thread(target=drive, name=f"match-{match_id}", daemon=True).start()


def remote_matches_resume(*, user) -> list:
    """Where tasks run in process (the embedded defaults: no worker, no sweep), the running
    matches with a remote seat of ``user`` whose driver died with the process that ran it (the
    dev server stopped: its lease expired), each taken once (driver.stuck_matches_take) and
    driven again in a thread of this process, which publishes the open act again. Called when
    the owner's client reads its acts (the stream, at its start and every keepalive; the long
    poll), so a client that reconnects to a restarted server brings its matches back. With a
    broker the sweep of the workers does this; here nothing happens."""
    if not _tasks_in_process():
        return []
    from .driver import stuck_matches_take

    versions = set(BotVersion.objects.filter(bot__owner=user, bot__kind=Bot.Kind.REMOTE).values_list("pk", flat=True))
    if not versions:
        return []
    now = timezone.now()
    mine = [match.pk for match in Match.objects.filter(status=Match.Status.RUNNING, driver_lease_until__lt=now)
            .only("pk", "seats") if any(seat.get("bot_version") in versions for seat in match.seats or [])]
    taken = stuck_matches_take(older_than_seconds=0, among=mine) if mine else []
    for match_id in taken:
        logging.getLogger(__name__).warning("match %s: its driver died with its process; driven again", match_id)
        _drive_in_a_thread(str(match_id))
    return taken


def match_play(*, ruleset: str, bots: list[str], options: dict | None = None,
               bot_seed: int = 0, seed: bytes | None = None,
               time_control: dict | None = None, fault_policy: dict | None = None) -> Match:
    """Create a match between the named bots (one per seat: "greedy", "alice/my-bot",
    "alice/my-bot@2") and drive it to the end in this process, committing one event at a time
    as a live match does. Uploaded bots run in the sandbox."""
    from .driver import match_drive
    from .selectors import bot_version_by_ref

    game = _game_name(ruleset)
    versions = [bot_version_by_ref(game=game, ref=ref) for ref in bots]
    match = match_start(ruleset=game, versions=versions, options=options, seed=seed, queue=False,
                        time_control=time_control, fault_policy=fault_policy)
    match_drive(match_id=match.pk, bot_seed=bot_seed)
    return match


def match_play_builtin(*, ruleset: str, bots: list[str], **kwargs) -> Match:
    """A match of built-in bots only (names without an owner), driven to the end here."""
    owned = [ref for ref in bots if "/" in ref]
    if owned:
        raise ValueError(f"not built-in bots: {', '.join(owned)}")
    return match_play(ruleset=ruleset, bots=bots, **kwargs)


# -- bots and versions -------------------------------------------------------------------------

def _game_name(game: str) -> str:
    """The registry name of ``game``; ValueError names the known games."""
    try:
        return registry.get(game).spec.name
    except registry.UnknownRuleset as exc:
        raise ValueError(str(exc)) from None


def bot_create(*, owner, name: str, game: str, description: str = "", remote: bool = False) -> Bot:
    """A new uploaded bot of ``owner`` (no versions yet), or with ``remote`` a remote bot (its
    owner's client plays it over HTTP: docs/remote.md) with its one version, runtime "remote" and
    no code. Raises ValueError for an unknown game, a bad or taken name, or an over-long
    description."""
    game = _game_name(game)
    if owner is None or getattr(owner, "pk", None) is None:
        raise ValueError("an uploaded bot needs a saved owner")
    if not isinstance(name, str) or not BOT_NAME.fullmatch(name):
        raise ValueError(f"bot name {name!r} must be 1-64 letters, digits, '-' or '_'")
    if len(description) > MAX_DESCRIPTION:
        raise ValueError(f"the description has {len(description)} characters; the limit is {MAX_DESCRIPTION}")
    taken = BotNameTaken(f"you already have a bot named {name!r} for {game}")
    if Bot.objects.filter(owner=owner, game=game, name=name).exists():
        raise taken
    try:
        with transaction.atomic():
            bot = Bot.objects.create(owner=owner, name=name, game=game, description=description,
                                     kind=Bot.Kind.REMOTE if remote else Bot.Kind.UPLOADED)
            if remote:
                _remote_version_create(bot)
            return bot
    except IntegrityError:  # a concurrent create of the same name won
        raise taken from None


def _remote_version_create(bot: Bot) -> BotVersion:
    """Version 1 of a remote bot: no code; it stands for whatever its owner's client runs."""
    identity = f"remote:{bot.game}:{bot.pk}".encode()
    return BotVersion.objects.create(bot=bot, number=1, format=BotVersion.Format.REMOTE,
                                     sha256=hashlib.sha256(identity).hexdigest(), size=0, filename="",
                                     archive=None, file_count=0, unpacked_size=0, runtime="remote")


def _upload_limits() -> Limits:
    return Limits(**getattr(settings, "BOT_UPLOAD_LIMITS", {}))


def bot_version_upload(*, bot: Bot, filename: str, content: bytes) -> BotVersion:
    """Store ``content`` (a .py file, or a .zip with main.py or an arena.json naming its runtime:
    bots/uploads.py) as the next version of ``bot``, its runtime recorded on it; the
    same bytes as one of its versions answer with that version instead (no silent duplicate:
    ``version.created`` says which). Everything is checked before anything is written:
    UploadRefused (a ValueError with ``reason``) leaves the database as it was. Numbers are
    taken under a row lock on the bot, so concurrent uploads get consecutive numbers. A new
    version is announced, in the same transaction, to each function settings.VERSION_UPLOADED_HOOKS
    names (by default the ladder's check match: ladder.services.version_check_create).""" 
    if bot.kind != Bot.Kind.UPLOADED:
        raise ValueError(f"{bot.name} is a {bot.get_kind_display()} bot; only uploaded bots take new versions"
                         + (" (a remote bot's code runs on its owner's machine)" if bot.kind == Bot.Kind.REMOTE else ""))
    content = bytes(content)
    info = inspect_upload(filename, content, _upload_limits())
    with transaction.atomic():
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        same = locked.versions.filter(sha256=info.sha256).order_by("number").first()
        if same is not None:
            same.created = False
            return same
        last = locked.versions.aggregate(last=Max("number"))["last"] or 0
        version = BotVersion.objects.create(
            bot=locked, number=last + 1, format=info.kind, sha256=info.sha256, size=info.size,
            filename=info.filename, archive=content, file_count=info.file_count,
            unpacked_size=info.unpacked_size, runtime=info.runtime)
        version.created = True
        for hook in settings.VERSION_UPLOADED_HOOKS:
            import_string(hook)(version=version)
        return version


def builtin_bot_versions(*, game: str, thinking: bool = True) -> dict[str, BotVersion]:
    """Version 1 of every built-in bot of ``game`` by name, creating the rows on first use.
    Idempotent, and safe when several workers call it at once. ``thinking=False`` leaves out
    the bots that think for their whole clock (``Bot.thinks``: search), for a tournament that
    measures or tests anything but their thinking."""
    game = _game_name(game)
    return {name: _builtin_bot_version(game=game, builtin_name=name, bot_class=bot_class)
            for name, bot_class in sorted(registry.get(game).bots().items())
            if thinking or not bot_class.thinks}


def _builtin_bot_version(*, game: str, builtin_name: str, bot_class: type) -> BotVersion:
    """Get or create the Bot row and version 1 of one built-in bot. When a concurrent call wins
    the race the unique constraints refuse our insert; its committed rows are then re-read."""
    try:
        with transaction.atomic():
            doc = (bot_class.__doc__ or "").strip()
            bot, _ = Bot.objects.get_or_create(
                game=game, kind=Bot.Kind.BUILTIN, builtin_name=builtin_name,
                defaults={"name": builtin_name, "owner": None,
                          "description": doc.splitlines()[0] if doc else ""})
            identity = f"builtin:{game}:{builtin_name}".encode()
            version, _ = BotVersion.objects.get_or_create(
                bot=bot, number=1,
                defaults={"format": BotVersion.Format.BUILTIN,
                          "sha256": hashlib.sha256(identity).hexdigest(), "size": 0,
                          "filename": "", "archive": None, "file_count": 0, "unpacked_size": 0,
                          "runtime": ""})
            return version
    except IntegrityError:
        return BotVersion.objects.defer("archive").select_related("bot").get(
            bot__game=game, bot__kind=Bot.Kind.BUILTIN, bot__builtin_name=builtin_name, number=1)


def bot_code_root() -> Path:
    return Path(getattr(settings, "BOT_CODE_DIR", settings.VAR_DIR / "bot-code"))


def bot_version_code_dir(*, version: BotVersion) -> Path:
    """The directory holding ``version``'s code (``main.py`` at its root), unpacked on first use
    under BOT_CODE_DIR/<sha256>; shared by every version with the same bytes. Raises ValueError
    for built-in bots (they run in process) and if the stored bytes do not match their sha256."""
    if version.format == BotVersion.Format.BUILTIN or version.archive is None:
        raise ValueError(f"{version} is a built-in bot: it runs in process and has no code directory")
    content = bytes(version.archive)
    if hashlib.sha256(content).hexdigest() != version.sha256:
        raise ValueError(f"{version}: the stored code does not match its sha256 {version.sha256}")
    return materialize(content, version.format, bot_code_root() / version.sha256, _upload_limits())
