"""ladder/ratings.py, the ladder's rating fold (issue 43.2, "Ratings are openskill per ladder"):
its two settings that differ from openskill's defaults, each with the scenario it decides. No
database (``no_services``)."""
from __future__ import annotations

import math

import pytest

from ladder.ratings import conservative, fresh_rating, rate_match, rating_model

pytestmark = pytest.mark.no_services


def _alternating(model, matches):
    """Two equal bots, each winning every other match: the first one's rating after each."""
    a = b = fresh_rating(model)
    after = []
    for i in range(matches):
        a, b = rate_match(model, [a, b], [1, 2] if i % 2 else [2, 1])
        after.append(a)
    return after


def test_no_drift_a_versions_sigma_keeps_shrinking():
    """"No drift (tau 0) ... A bot version never changes, so its sigma should only shrink":
    twice the matches, about 1/sqrt(2) the sigma, as for a fixed skill (openskill's drift would
    hold sigma near a floor instead)."""
    after = _alternating(rating_model(), 2000)
    assert all(later[1] < earlier[1] for earlier, later in zip(after, after[1:]))
    assert after[1999][1] / after[999][1] < 0.8  # 1/sqrt(2) = 0.71; with the drift 0.99


def test_a_noisier_match_early_luck_does_not_decide_the_order():
    """"With beta 25/2 the matches count about equally": a bot that wins its first ten matches
    against another and loses the next ten is not told apart from it by more than the two
    ratings' uncertainty (at openskill's default beta the later winner ends 1.8 uncertainties
    ahead: the order hangs on which luck came first)."""
    model = rating_model()
    a = b = fresh_rating(model)
    for i in range(20):
        a, b = rate_match(model, [a, b], [1, 2] if i < 10 else [2, 1])
    assert abs(a[0] - b[0]) < math.hypot(a[1], b[1])


def test_a_match_rates_by_placings_and_the_board_by_mu_minus_three_sigma():
    model = rating_model()
    fresh = fresh_rating(model)
    assert fresh == (25.0, 25 / 3)
    first, second, third, fourth = rate_match(model, [fresh] * 4, [2, 1, 4, 3])
    assert second[0] > first[0] > fourth[0] > third[0]
    tied = rate_match(model, [fresh, fresh], [1, 1])
    assert tied[0][0] == pytest.approx(tied[1][0])
    assert conservative((30.0, 2.0)) == 24.0


def _fresh_pod(placings):
    model = rating_model()
    return [mu - 25 for mu, _ in rate_match(model, [fresh_rating(model)] * len(placings), placings)]


def test_a_pod_is_rated_over_all_its_pairs():
    """"openskill's Bradley-Terry model over every pair of a match ("full" pairing: a pod of four
    is six pairwise results)": from equal ratings, the first and the last of a pod move by the
    same amount, as do the second and the third (each won and lost as many pairs). Plackett-Luce
    rates a pod as the winner chosen first, then the next, and moves the last 1.4 times as far as
    the first."""
    first, second, third, fourth = _fresh_pod([1, 2, 3, 4])
    assert first > second > 0 > third > fourth
    assert first == pytest.approx(-fourth) and second == pytest.approx(-third)


def test_a_pods_pairs_share_one_placing():
    """"each pairwise result is given n - 1 times the variance (beta^2) of a two-player match ...
    the winner of a pod of four then gains 1.9 times what the winner of a two-player match gains
    (3.0 times at one beta for all)"."""
    pod_winner = _fresh_pod([1, 2, 3, 4])[0]
    pair_winner = _fresh_pod([1, 2])[0]
    assert 1.5 < pod_winner / pair_winner < 2.2
