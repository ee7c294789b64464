"""Matchmaking for a standing ladder: a pure function, like the tournament formats (no Django).

``next_pairings(players, seats=..., wanted=..., history=..., rng=...)`` picks up to ``wanted``
new matches of ``seats`` players each, the way the standing competitions bot authors know pick
them (Kaggle's simulation competitions, Halite's TrueSkill matchmaking):

1. **Who plays next (the anchor):** the free player with the fewest games for its uncertainty,
   ``games / sigma`` (ties: a random pick). A new version (sigma high, games few) is picked
   again and again until its rating settles; among settled players it is the one that played
   least, so shares of matches even out.
2. **Against whom:** free players of similar rating. Each candidate is weighed by
   ``exp(-(mu - mu_anchor)^2 / (2 * spread^2))`` with ``spread = sqrt(sigma_a^2 + sigma_c^2 +
   SPREAD_FLOOR^2)``: the closer in rating, the likelier, and an uncertain player meets a wider
   range. A pod (3-7 seats) is filled one seat at a time around the pod's mean rating.
3. **No pairing repeated while others are due:** a candidate the anchor met in its last
   ``k - 1`` matches, ``k`` being how many free candidates it has, is left out while any other
   is free (with two candidates it alternates; with one it meets that one).
4. **Seats rotated:** each member takes the seat it has held least (``history.seat_counts``).
5. A player in a match already in flight is not free: one ladder match a player at a time, so
   a cap of N matches in flight spreads over 2N players (or N pods).

Every match gets its own fresh seed where it is created (replays.services.match_create); the
``rng`` here only breaks ties and samples opponents, so the caller passes a fresh one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

SPREAD_FLOOR = 2.0  # on openskill's scale (mu 25, sigma 25/3): a floor to how narrow a pick gets


@dataclass(frozen=True)
class Player:
    """A ladder entry as the matchmaker sees it: its rating, games played, and whether it is in
    a match now."""

    key: int
    mu: float
    sigma: float
    games: int = 0
    busy: bool = False


@dataclass
class History:
    """What the matchmaker remembers: each player's recent opponents, newest last (by key), and
    how often it held each seat."""

    recent: Mapping[int, Sequence[int]] = field(default_factory=dict)
    seat_counts: Mapping[int, Mapping[int, int]] = field(default_factory=dict)


def next_pairings(players: Sequence[Player], *, seats: int, wanted: int, history: History | None = None,
                  rng) -> list[tuple[int, ...]]:
    """Up to ``wanted`` new matches (each a tuple of player keys in seat order) among the free
    players; fewer when too few are free."""
    if seats < 2:
        raise ValueError("a match has at least two seats")
    history = history or History()
    free = {p.key: p for p in players if not p.busy}
    pairings: list[tuple[int, ...]] = []
    while len(pairings) < wanted and len(free) >= seats:
        anchor = _anchor(list(free.values()), rng)
        pod = [anchor]
        del free[anchor.key]
        while len(pod) < seats:
            chosen = _opponent(pod, list(free.values()), history, rng)
            pod.append(chosen)
            del free[chosen.key]
        pairings.append(_seated([p.key for p in pod], history, rng))
    return pairings


def _anchor(free: list[Player], rng) -> Player:
    """The free player with the fewest games for its uncertainty (ties broken at random)."""
    def need(p: Player) -> float:
        return p.games / max(p.sigma, 1e-9)
    lowest = min(need(p) for p in free)
    tied = sorted((p for p in free if math.isclose(need(p), lowest)), key=lambda p: p.key)
    return tied[rng.randrange(len(tied))]


def _opponent(pod: list[Player], free: list[Player], history: History, rng) -> Player:
    """One more member for ``pod``: a free player near the pod's rating, not one the anchor met
    in its last matches while another is free."""
    anchor = pod[0]
    met = list(history.recent.get(anchor.key, ()))
    window = set(met[-(len(free) - 1):]) if len(free) > 1 else set()
    fresh = [p for p in free if p.key not in window] or free
    mu = sum(p.mu for p in pod) / len(pod)
    sigma = math.sqrt(sum(p.sigma ** 2 for p in pod) / len(pod))
    weights = []
    for p in sorted(fresh, key=lambda p: p.key):
        spread2 = sigma ** 2 + p.sigma ** 2 + SPREAD_FLOOR ** 2
        weights.append((p, math.exp(-(p.mu - mu) ** 2 / (2 * spread2))))
    total = sum(w for _, w in weights)
    if total <= 0:  # every weight underflowed: the nearest in rating
        return min(fresh, key=lambda p: (abs(p.mu - mu), p.key))
    pick = rng.random() * total
    for p, w in weights:
        pick -= w
        if pick < 0:
            return p
    return weights[-1][0]


def _seated(keys: list[int], history: History, rng) -> tuple[int, ...]:
    """The pod in seat order: seat by seat, the member that held that seat least (ties at
    random)."""
    left, order = list(keys), []
    for seat in range(len(keys)):
        counts = [history.seat_counts.get(key, {}).get(seat, 0) for key in left]
        fewest = min(counts)
        tied = [key for key, count in zip(left, counts) if count == fewest]
        key = tied[rng.randrange(len(tied))]
        order.append(key)
        left.remove(key)
    return tuple(order)


def history_of(matches: Sequence[Sequence[int]]) -> History:
    """The History of a ladder's latest ``matches`` (each its player keys in seat order, oldest
    first): each player's opponents, newest last, and how often it held each seat."""
    recent: dict[int, list[int]] = {}
    seat_counts: dict[int, dict[int, int]] = {}
    for keys in matches:
        for seat, key in enumerate(keys):
            counts = seat_counts.setdefault(key, {})
            counts[seat] = counts.get(seat, 0) + 1
            recent.setdefault(key, []).extend(other for other in keys if other != key)
    return History(recent=recent, seat_counts=seat_counts)
