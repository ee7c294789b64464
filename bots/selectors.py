"""Reads of bots and their versions. Version lists leave the archive bytes out (defer): they
are read only when a version's code is unpacked for a run."""
from __future__ import annotations

from django.db.models import QuerySet

from .models import Bot, BotVersion


def bot_list_for_user(*, user) -> QuerySet[Bot]:
    """The bots ``user`` uploaded (none for an anonymous user), by game and name."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Bot.objects.none()
    return Bot.objects.filter(owner=user).order_by("game", "name", "id")


def bot_versions(*, bot: Bot) -> QuerySet[BotVersion]:
    """The versions of ``bot``, oldest first, without their archive bytes."""
    return BotVersion.objects.filter(bot=bot).defer("archive").order_by("number")


def bot_version_latest(*, bot: Bot) -> BotVersion | None:
    """The newest version of ``bot`` (without its archive bytes), or None before any upload."""
    return BotVersion.objects.filter(bot=bot).defer("archive").order_by("-number").first()


def bot_version_by_ref(*, game: str, ref: str) -> BotVersion:
    """The version a player names on the command line: a built-in bot ("greedy"), the latest
    version of an uploaded bot ("alice/my-bot") or a given one ("alice/my-bot@2").
    Raises ValueError saying what was not found."""
    from .services import builtin_bot_versions

    if "/" not in ref:
        builtins = builtin_bot_versions(game=game)
        if ref not in builtins:
            raise ValueError(f"no built-in bot {ref!r} for {game}; built-in bots: "
                             f"{', '.join(sorted(builtins))} (uploaded bots are named owner/name)")
        return builtins[ref]
    owner_and_name, _, number = ref.partition("@")
    owner, _, name = owner_and_name.partition("/")
    bot = Bot.objects.filter(game=game, owner__username=owner, name=name).first()
    if bot is None:
        raise ValueError(f"no bot {owner_and_name!r} for {game}")
    versions = bot_versions(bot=bot)
    version = versions.filter(number=int(number)).first() if number.isdigit() else versions.last()
    if version is None:
        raise ValueError(f"bot {owner_and_name!r} has no version {number or '(none uploaded)'}")
    return version
