"""bench/evaluation.py: the logistic regression that weighs Imperial Twing's search evaluation
(games/imperial_twing/search.py, WEIGHTS) finds the weights that made the outcomes."""
import math
import random

import pytest

from bench.evaluation import _solve, design, fit, game_positions, log_likelihood
from games.imperial_twing.search import WEIGHTS


def test_solve_is_exact_on_a_small_system():
    assert _solve([[0.0, 2.0], [3.0, 1.0]], [4.0, 5.0]) == pytest.approx([1.0, 2.0])


def test_fit_recovers_the_weights_that_drew_the_outcomes():
    rng, truth = random.Random(7), [0.8, -0.3, 0.1]
    rows = []
    for _ in range(6000):
        x = [rng.gauss(0, 1) for _ in truth]
        p = 1 / (1 + math.exp(-sum(w * v for w, v in zip(truth, x))))
        rows.append((x, 1 if rng.random() < p else 0))
    weights = fit(rows)
    assert weights == pytest.approx(truth, abs=0.08)
    assert log_likelihood(weights, rows) > log_likelihood([0.0] * 3, rows) == pytest.approx(math.log(0.5))


def test_positions_of_a_game_are_its_turns_with_its_winner():
    """Every position is a turn's action decision with both seats in the game, its features in
    WEIGHTS' order, and the same outcome: who won the match."""
    positions = game_positions(0)
    assert positions and len({won for *_, won in positions}) == 1
    for first, second, actor, _ in positions:
        assert len(first) == len(second) == len(WEIGHTS) and actor in (0, 1)
    rows = design(positions)
    assert all(len(x) == len(WEIGHTS) + 1 and x[-1] in (1.0, -1.0) for x, _ in rows)
