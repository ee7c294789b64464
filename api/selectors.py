"""Reads the API serves that no app selector covers yet: public bot lists with their latest
version number, one bot's profile, a bot version with or without its code."""
from __future__ import annotations

from django.db.models import F, Max, Prefetch, QuerySet, Window
from django.db.models.functions import RowNumber

from bots.models import Bot, BotVersion
from tournaments.models import Rating


def bot_list_public() -> QuerySet[Bot]:
    """Every bot, with its owner and latest version number (one query for any page)."""
    return Bot.objects.select_related("owner").annotate(latest_version=Max("versions__number")) \
        .order_by("game", "name", "id")


def bot_profile(*, bot_id: int) -> Bot | None:
    """One bot with its owner, latest version number and ratings (by game)."""
    return bot_list_public().prefetch_related(
        Prefetch("ratings", queryset=Rating.objects.order_by("game"))).filter(pk=bot_id).first()


def bot_version_get(*, bot: Bot, number: int, with_code: bool = False) -> BotVersion | None:
    """Version ``number`` of ``bot``; the archive bytes only when ``with_code``."""
    versions = BotVersion.objects.filter(bot=bot, number=number).select_related("version_check")
    return (versions if with_code else versions.defer("archive")).first()


def leaderboard_ranked(*, game: str) -> QuerySet[Rating]:
    """A game's ratings, best first (openskill ordinal, then bot id), each with its ``rank``
    over the whole board: the window runs before the page's LIMIT and OFFSET."""
    order = [F("ordinal").desc(), F("bot_id").asc()]
    return Rating.objects.filter(game=game).select_related("bot", "bot__owner") \
        .annotate(rank=Window(RowNumber(), order_by=order)).order_by(*order)
