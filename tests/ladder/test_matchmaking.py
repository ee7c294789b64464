"""Issue 43.2, the matchmaker (ladder/matchmaking.py, a pure function): "opponents of similar
rating, new versions (high uncertainty) playing more often, no pairing repeated while others
are due, seats rotated". No database: .ci/run runs these once (``no_services``)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from ladder.matchmaking import History, Player, next_pairings

pytestmark = pytest.mark.no_services

SETTLED = 2.0  # a sigma after many games (openskill starts at 25/3)


def _play(players, rounds, *, seats=2, seed=0, history=None):
    """Pair one match at a time ``rounds`` times, counting games and remembering opponents
    and seats as the ladder's service does."""
    rng = random.Random(seed)
    history = history or History(recent={}, seat_counts={})
    players = {p.key: p for p in players}
    made = []
    for _ in range(rounds):
        [pairing] = next_pairings(list(players.values()), seats=seats, wanted=1, history=history, rng=rng)
        made.append(pairing)
        for seat, key in enumerate(pairing):
            p = players[key]
            players[key] = Player(p.key, p.mu, p.sigma, p.games + 1)
            history.seat_counts.setdefault(key, {}).setdefault(seat, 0)
            history.seat_counts[key][seat] += 1
            history.recent.setdefault(key, []).extend(k for k in pairing if k != key)
    return made, players


def test_a_new_version_plays_more_often_than_settled_ones():
    settled = [Player(k, 25.0, SETTLED, games=40) for k in range(1, 7)]
    made, _ = _play(settled + [Player(99, 25.0, 25 / 3, games=0)], 30)
    counts = Counter(key for pairing in made for key in pairing)
    # The newcomer is the anchor until its games per unit of sigma catch up (about 166 games
    # here, far beyond these 30): it plays every match.
    assert counts[99] == 30
    assert max(counts[k] for k in range(1, 7)) < 30


def test_opponents_are_of_similar_rating():
    anchor = Player(1, 25.0, SETTLED, games=0)
    near, far = Player(2, 26.0, SETTLED, games=10), Player(3, 40.0, SETTLED, games=10)
    picks = Counter(next_pairings([anchor, near, far], seats=2, wanted=1, rng=random.Random(seed))[0]
                    for seed in range(300))
    with_near = sum(n for pairing, n in picks.items() if set(pairing) == {1, 2})
    assert with_near == 300  # exp(-15^2 / (2 * 12)) ~ 1e-4 against ~0.96


def test_no_pairing_is_repeated_while_others_are_due():
    players = [Player(1, 25.0, SETTLED, games=0)] + [Player(k, 25.0, SETTLED, games=5) for k in (2, 3, 4)]
    history = History(recent={1: [2, 3]}, seat_counts={})
    for seed in range(100):
        [pairing] = next_pairings(players, seats=2, wanted=1, history=history, rng=random.Random(seed))
        assert set(pairing) == {1, 4}  # 2 and 3 were its last two opponents of three candidates
    # Every opponent met lately: the least recent are due again (here: the window leaves 2).
    history = History(recent={1: [2, 3, 4, 3, 4]}, seat_counts={})
    assert {tuple(sorted(next_pairings(players, seats=2, wanted=1, history=history, rng=random.Random(s))[0]))
            for s in range(50)} == {(1, 2)}


def test_seats_are_rotated():
    made, _ = _play([Player(1, 25.0, SETTLED), Player(2, 25.0, SETTLED)], 41)
    first = Counter(pairing[0] for pairing in made)
    assert abs(first[1] - first[2]) <= 1, first


def test_players_in_a_match_in_flight_wait_and_pods_take_no_player_twice():
    players = [Player(k, 25.0 + k, SETTLED, games=k, busy=k in (3, 4)) for k in range(1, 12)]
    pods = next_pairings(players, seats=4, wanted=5, rng=random.Random(1))
    seated = [key for pod in pods for key in pod]
    assert len(pods) == 2 and all(len(pod) == 4 for pod in pods)  # 9 free players: two pods
    assert len(seated) == len(set(seated)) and not {3, 4} & set(seated)
    assert next_pairings(players, seats=2, wanted=0, rng=random.Random(1)) == []
    with pytest.raises(ValueError):
        next_pairings(players, seats=1, wanted=1, rng=random.Random(1))


def test_settled_players_get_even_shares_of_matches():
    """The fairness goal of issue 43: every bot's share within 25 % of the mean once settled."""
    players = [Player(k, 20.0 + k, SETTLED) for k in range(12)]
    made, _ = _play(players, 600)
    counts = Counter(key for pairing in made for key in pairing)
    mean = sum(counts.values()) / len(players)
    assert all(abs(counts[p.key] - mean) <= 0.25 * mean for p in players), counts
