"""The ladder's rating fold as plain Python (no Django), shared by ladder.services (the
ratings the service stores), ladder.selectors (each version's rating after each of its
matches, for the charts) and bench/ladder.py (the convergence and fairness benchmarks), so
that all three fold the very same way: openskill's Bradley-Terry model over every pair of a
match ("full" pairing: a pod of four is six pairwise results), a match's placings as its ranks
(ties shared), fresh at mu 25, sigma 25/3, ranked by the conservative mu - 3 sigma.

Three of openskill's defaults are changed, because a ladder rates bot *versions* in games with
chance, and in pods of 3-7 seats as well as in pairs:

- **No drift (tau 0).** openskill's dynamics factor (tau 25/300) widens every sigma a little
  before each match, for people whose skill changes from day to day. A bot version never
  changes (a new version starts fresh), so its sigma should only shrink; with the drift it
  stalls (about 2.3 after 160 four-player matches) and mu keeps wandering.
- **A noisier match (beta 25/2 for two players, openskill's 25/6).** beta is how much one
  match's result varies around the players' skills. Our games have chance: at the default the
  first few matches move a fresh mu by several points that later ones hardly undo, so early
  luck decides the order. With beta 25/2 the matches count about equally.
- **A pod's pairs share one placing (beta grows as sqrt(players - 1)).** The Bradley-Terry
  fold rates each seat against each of the n - 1 others and adds the n - 1 updates up, as if
  they were n - 1 independent results. They are not: they come from one placing, and a pod's
  placing is mostly luck. So each pairwise result is given n - 1 times the variance (beta^2) of
  a two-player match: beta 25/2 * sqrt(3) = 21.7 for four seats. From fresh ratings the winner
  of a pod of four then gains 1.9 times what the winner of a two-player match gains (3.0 times
  at one beta for all).

Why Bradley-Terry over all pairs rather than Plackett-Luce (openskill's default model, and
this module's until 2026-12-04): measured in bench/ladder.py on real four-player Sorcado pods,
the Plackett-Luce fold needed more matches than a round robin's plain standings to find the
known order, the same matches ranked by it even more; the pairwise fold, fewer (BENCHMARKS.md,
docs/ladder.md "Measured"). For two players the two models are the same update.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Sequence

Rating = tuple[float, float]  # (mu, sigma)


BETA = 25 / 2  # a two-player match's performance spread (openskill's default: 25/6); see above
TAU = 0.0  # no drift between matches: a bot version's skill does not change (default: 25/300)


def beta_for(players: int) -> float:
    """The beta a match of ``players`` seats is rated with: BETA * sqrt(players - 1)."""
    return BETA * math.sqrt(max(players, 2) - 1)


@lru_cache(maxsize=None)
def _model(players: int):
    from openskill.models import BradleyTerryFull

    return BradleyTerryFull(beta=beta_for(players), tau=TAU)


class LadderModel:
    """The openskill models of every ladder: Bradley-Terry over all pairs, tau TAU, beta by the
    match's seat count (beta_for), openskill's defaults otherwise (mu 25, sigma 25/3)."""

    def rating(self, **kwargs):
        """A fresh openskill rating (or one at ``mu``/``sigma``)."""
        return _model(2).rating(**kwargs)

    def for_players(self, players: int):
        """The openskill model that rates a match of ``players`` seats."""
        return _model(players)


def rating_model() -> LadderModel:
    """The ladder's rating model (see the module docstring)."""
    return LadderModel()


def fresh_rating(model=None) -> Rating:
    """A version that has not played yet: openskill's default rating."""
    rating = (model or rating_model()).rating()
    return rating.mu, rating.sigma


def conservative(rating: Rating) -> float:
    """mu - 3 sigma, what the leaderboard ranks by (openskill's ``ordinal``)."""
    return rating[0] - 3 * rating[1]


def rate_match(model: LadderModel, ratings: Sequence[Rating], placings: Sequence[int]) -> list[Rating]:
    """The seats' ratings after one ended match whose ``placings`` (1 is the best; equal
    placings tie) they played, by seat."""
    rater = model.for_players(len(ratings))
    teams = [[rater.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(rated.mu, rated.sigma) for [rated] in rater.rate(teams, ranks=list(placings))]
