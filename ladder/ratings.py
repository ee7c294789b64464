"""The ladder's rating fold as plain Python (no Django), shared by ladder.services (the
ratings the service stores), ladder.selectors (each version's rating after each of its
matches, for the charts) and bench/ladder.py (the convergence and fairness benchmarks), so
that all three fold the very same way: openskill's Plackett-Luce, a match's placings as its
ranks (ties shared), fresh at mu 25, sigma 25/3, ranked by the conservative mu - 3 sigma.
"""
from __future__ import annotations

from typing import Sequence

Rating = tuple[float, float]  # (mu, sigma)


def rating_model():
    """The openskill model of every ladder (Plackett-Luce, openskill's defaults)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def fresh_rating(model=None) -> Rating:
    """A version that has not played yet: openskill's default rating."""
    rating = (model or rating_model()).rating()
    return rating.mu, rating.sigma


def conservative(rating: Rating) -> float:
    """mu - 3 sigma, what the leaderboard ranks by (openskill's ``ordinal``)."""
    return rating[0] - 3 * rating[1]


def rate_match(model, ratings: Sequence[Rating], placings: Sequence[int]) -> list[Rating]:
    """The seats' ratings after one ended match whose ``placings`` (1 is the best; equal
    placings tie) they played, by seat."""
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(rated.mu, rated.sigma) for [rated] in model.rate(teams, ranks=list(placings))]
