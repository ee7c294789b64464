"""No API response about a live match tells a requester another seat's hidden items.

For every registered game with hidden information (``spec.hidden_information``), hypothesis picks
the players, the seed, the bots' seed and the pause point; the match is driven that far and every
match endpoint is requested by an anonymous visitor, a spectator (signed in, no seat) and the
owner of one seat. No response text may contain an item of ``ruleset.hidden_items(state, B)``
for a seat B (or None: what nobody knows) that the requester does not hold itself; items are
searched as the games write them in their views, the JSON string (as tests/conformance does).
"""
import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from games.engine import registry
from games.engine.log import canonical_json
from replays.models import Match
from replays.selectors import match_folder

from .test_matches_api import client_for, make_user, owned_version, start, url, use_stand_ins

HIDDEN = [r.spec.name for r in registry.builtin() if r.spec.hidden_information]
SHORTEST_GAME_PER_SEAT = 36  # sorcado: about 36 events a seat; a pause past the end is rejected
BOT_NAMES = (f"bot{n}" for n in itertools.count())  # bot names are unique per owner and game


def forbidden_items(ruleset, state, players: int, mine: set[int]) -> set[str]:
    """What the holder of ``mine`` must not see in ``state``: the items other seats hold
    privately and those nobody holds, less what it holds itself."""
    others = set().union(*(ruleset.hidden_items(state, seat) for seat in [*range(players), None]
                           if seat not in mine))
    held = set().union(*(ruleset.hidden_items(state, seat) for seat in mine))
    return others - held


def leaks(text: str, items: set[str]) -> list[str]:
    return sorted(item for item in items if canonical_json(item) in text)


def head_requests(match) -> list[tuple[str, str]]:
    """Every endpoint about the match as it stands (method, path)."""
    gets = ["/api/matches/", url(match), url(match, "events/"), url(match, "export/"),
            url(match, "validation/")]
    return [("post", url(match, "validate/")), *[("get", path) for path in gets]]


def step_requests(match, n: int, players: int) -> list[str]:
    """The step endpoint at ``n`` from every perspective."""
    base = url(match, f"steps/{n}/")
    return [base, base + "?seat=all", *(base + f"?seat={seat}" for seat in range(players))]


@pytest.fixture
def owners(db):
    return [make_user(f"owner{seat}") for seat in range(7)]


@pytest.mark.parametrize("game", HIDDEN)
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_it_tells_no_opponent_or_spectator_another_seats_hidden_items(
        game, data, owners, monkeypatch, django_capture_on_commit_callbacks, eager_tasks):
    use_stand_ins(monkeypatch)
    ruleset = registry.get(game)
    players = data.draw(st.integers(ruleset.spec.min_players, ruleset.spec.max_players), "players")
    seed = data.draw(st.binary(min_size=32, max_size=32), "seed")
    events = data.draw(st.integers(1, SHORTEST_GAME_PER_SEAT * players), "events")
    bot_seed = data.draw(st.integers(0, 10_000), "bot_seed")
    owner_seat = data.draw(st.integers(0, players - 1), "owner_seat")
    # Every draw comes before the match is played: a match's chance depends on its random id,
    # so how far it gets differs from run to run, and no draw may depend on that.
    earlier_share = data.draw(st.integers(0, 1000), "earlier step, in thousandths of the head")
    versions = [owned_version(owners[seat], game, name=next(BOT_NAMES))
                for seat in range(players)]
    match = start(game, versions, events=events, seed=seed, bot_seed=bot_seed)
    assume(match.status == Match.Status.RUNNING)
    head = match_folder(match=match)
    earlier = head.seq * earlier_share // 1000
    requesters = {"anonymous": (client_for(), set()), "spectator": (client_for(make_user(
        f"spectator-{match.pk}")), set()), "owner": (client_for(owners[owner_seat]), {owner_seat})}
    for who, (client, mine) in requesters.items():
        forbidden = forbidden_items(ruleset, head.state, players, mine)
        for method, path in head_requests(match):
            with django_capture_on_commit_callbacks(execute=True):
                text = getattr(client, method)(path).content.decode()
            assert not leaks(text, forbidden), f"{who} {method} {path} shows {leaks(text, forbidden)}"
        for n in sorted({earlier, head.seq}):
            state = match_folder(match=match, upto=n).state
            forbidden = forbidden_items(ruleset, state, players, mine)
            for path in step_requests(match, n, players):
                text = client.get(path).content.decode()
                assert not leaks(text, forbidden), f"{who} GET {path} shows {leaks(text, forbidden)}"
    # The search finds items where they may be shown: the owner's own view holds its items.
    own = requesters["owner"][0].get(url(match, f"steps/{head.seq}/?seat={owner_seat}")).content.decode()
    mine = ruleset.hidden_items(head.state, owner_seat)
    assert leaks(own, mine) == sorted(mine)
