"""Play (docs/play.md): a signed-in person takes a seat against chosen bots, in the browser.

A person is a remote seat (bots/remote.py) whose answers come from the browser: each user has,
per game, one remote bot named PERSON ("person", created on first use) that stands for
themselves; the viewer of the match (web/static/viewer/play.js) reads the seat's acts by the
long poll and answers them through the same answer endpoint as a remote client, with the
site's session. Nothing else of the remote path changes: the same clock, faults and refusals.

``play_create`` is the scrimmage's path (ladder/scrimmages.py) for one game with a person in
it: the opponents' playable versions (``playable_version``), one match started by
``bots.services.match_start`` with ``rated=False`` (a play match never moves a rating), its
driver queued at once (on the embedded defaults a match with a remote seat is driven in a
thread of its own, so the request that starts it does not wait for the match). ``PlayRefused``
says why a request was refused, and a refused request stores nothing.
"""
from __future__ import annotations

from django.db import transaction

from bots.models import Bot, BotVersion
from bots.services import bot_create, match_start
from games.engine import InvalidOptions, registry

from .scrimmages import playable_version

PERSON = "person"  # the name of the remote bot that stands for its owner in person
# The clock a person may choose (seconds): generous, since a person reads the board.
MOVE_SECONDS = (1, 600)
BANK_SECONDS = (0, 7200)
INCREMENT_SECONDS = (0, 600)
DEFAULT_CLOCK = {"move_ms": 60_000, "bank_ms": 600_000, "increment_ms": 0}


class PlayRefused(ValueError):
    """A play match that cannot be started: ``code`` for a program, the message for people."""

    def __init__(self, message: str, *, code: str, status: int = 400):
        super().__init__(message)
        self.code, self.status = code, status


def is_person(bot: Bot) -> bool:
    """Whether ``bot`` stands for its owner in person (a remote bot named PERSON)."""
    return bot.kind == Bot.Kind.REMOTE and bot.name == PERSON


def person_version(*, user, game: str) -> BotVersion:
    """The version of ``user``'s person bot for ``game``, the bot created on first use. Refused
    when the user named a bot of their own "person" that is not remote (rename it)."""
    bot = Bot.objects.filter(owner=user, game=game, name=PERSON).first()
    if bot is None:
        try:
            bot = bot_create(owner=user, name=PERSON, game=game, remote=True,
                             description=f"{user.get_username()} in person, playing in the browser (docs/play.md)")
        except ValueError:  # a concurrent request created it first
            bot = Bot.objects.get(owner=user, game=game, name=PERSON)
    if not is_person(bot):
        raise PlayRefused(f"your {game} bot named {PERSON!r} is an uploaded bot; that name stands for you in "
                          "person: rename the bot to play", code="person_name_taken", status=409)
    return bot.versions.get(number=1)


def play_opponents(*, user, game: str) -> list[Bot]:
    """The bots ``user`` may play ``game`` against: the built-in ones, the uploaded ones with a
    version that passed its check match, and the user's own remote bots (their own client is
    the one that answers); never a person."""
    from ladder.models import VersionCheck

    bots = Bot.objects.select_related("owner").filter(game=game).order_by("kind", "name", "pk")
    passed = set(BotVersion.objects.filter(bot__game=game, version_check__status=VersionCheck.Status.PASSED)
                 .values_list("bot_id", flat=True))
    return [b for b in bots if b.kind == Bot.Kind.BUILTIN
            or (b.kind == Bot.Kind.UPLOADED and b.pk in passed)
            or (b.kind == Bot.Kind.REMOTE and b.owner_id == user.pk and not is_person(b))]


def play_create(*, user, game: str, opponents: list[Bot], seat: int = 0, options: dict | None = None,
                time_control: dict | None = None):
    """Start an unrated match of ``game`` with ``user`` in person at ``seat`` and ``opponents``
    in the other seats, in order. Raises PlayRefused with the reason: an unknown game, too few
    or too many seats, a seat out of range, an opponent of another game or not offered
    (play_opponents), a clock out of bounds, options the game refuses."""
    shipped = sorted(r.spec.name for r in registry.builtin())
    if game not in shipped:
        raise PlayRefused(f"no game {game!r}: choose one of {', '.join(shipped)}", code="no_game")
    spec = registry.get(game).spec
    players = len(opponents) + 1
    if not spec.min_players <= players <= spec.max_players:
        raise PlayRefused(f"{spec.title} is played by {spec.min_players}-{spec.max_players}: choose "
                          f"{spec.min_players - 1}-{spec.max_players - 1} opponents, not {len(opponents)}",
                          code="seats")
    if type(seat) is not int or not 0 <= seat < players:
        raise PlayRefused(f"your seat is 0-{players - 1} in a match of {players}, not {seat}", code="seat")
    offered = {b.pk for b in play_opponents(user=user, game=game)}
    refused = [b.name for b in opponents if b.pk not in offered]
    if refused:
        raise PlayRefused(f"{', '.join(refused)}: not offered for {spec.title} (a built-in bot, an uploaded bot "
                          "with a version that passed its check match, or your own remote bot)", code="opponent")
    clock = _clock(time_control)
    versions = [playable_version(b) for b in opponents]
    with transaction.atomic():
        mine = person_version(user=user, game=game)
        versions.insert(seat, mine)
        try:
            return match_start(ruleset=game, versions=versions, options=options or {}, time_control=clock,
                               rated=False)
        except (InvalidOptions, ValueError) as exc:
            transaction.set_rollback(True)
            raise PlayRefused(f"{spec.title}: {exc}", code="options") from None


def _clock(time_control: dict | None) -> dict:
    """The time control in milliseconds, each part within its bounds (seconds), or PlayRefused."""
    clock = dict(DEFAULT_CLOCK, **(time_control or {}))
    for key, (least, most), what in (("move_ms", MOVE_SECONDS, "the time of a move"),
                                      ("bank_ms", BANK_SECONDS, "the bank"),
                                      ("increment_ms", INCREMENT_SECONDS, "the increment")):
        value = clock.get(key)
        if type(value) is not int or not least * 1000 <= value <= most * 1000:
            raise PlayRefused(f"{what} is {least}-{most} seconds", code="clock")
    return {k: clock[k] for k in DEFAULT_CLOCK}
