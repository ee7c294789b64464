"""The ladder's rating fold as plain Python (no Django), shared by ladder.services (the
ratings the service stores), ladder.selectors (each version's rating after each of its
matches, for the charts) and bench/ladder.py (the convergence and fairness benchmarks), so
that all three fold the very same way: openskill's Plackett-Luce, a match's placings as its
ranks (ties shared), fresh at mu 25, sigma 25/3, ranked by the conservative mu - 3 sigma.

Two of openskill's defaults are changed, both because a ladder rates bot *versions*:

- **No drift (tau 0).** openskill's dynamics factor (tau 25/300) widens every sigma a little
  before each match, for people whose skill changes from day to day. A bot version never
  changes (a new version starts fresh), so its sigma should only shrink; with the drift it
  stalls (about 2.3 after 160 four-player matches) and mu keeps wandering.
- **A noisier match (beta 25/2, openskill's 25/6).** beta is how much one match's result
  varies around the players' skills. Our games have chance, and a pod of four says little
  about who is better: at the default the first few matches move a fresh mu by several points
  that later ones hardly undo, so early luck decides the order. With beta 25/2 the matches
  count about equally. Measured in bench/ladder.py (BENCHMARKS.md): in pods of four the
  leaderboard reached the known order's tau 0.85 where at the defaults it did not; with two
  players at least as fast.
"""
from __future__ import annotations

from typing import Sequence

Rating = tuple[float, float]  # (mu, sigma)


BETA = 25 / 2  # a match's performance spread (openskill's default: 25/6); see above
TAU = 0.0  # no drift between matches: a bot version's skill does not change (default: 25/300)


def rating_model():
    """The openskill model of every ladder: Plackett-Luce with beta BETA and tau TAU, openskill's
    defaults otherwise (mu 25, sigma 25/3)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(beta=BETA, tau=TAU)


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
