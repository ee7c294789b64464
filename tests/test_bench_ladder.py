"""bench/ladder.py (issue 43's convergence and fairness figures): its Kendall's tau over distinct
strength classes, its scores, and a --quick run of the whole bench (a test that it runs, not a
timed test: the figures are in BENCHMARKS.md)."""
import random

import pytest

from bench import ladder as bench

pytestmark = pytest.mark.no_services


def test_tau_counts_only_pairs_of_different_classes():
    strengths = [0.0, 0.0, 0.5, 0.5, 1.0, 1.0]
    best_first = [4, 5, 2, 3, 0, 1]
    assert bench.kendall_tau(best_first, strengths) == 1.0
    assert bench.kendall_tau([5, 4, 3, 2, 1, 0], strengths) == 1.0  # copies in any order
    assert bench.kendall_tau(list(reversed(best_first)), strengths) == -1.0
    # One pair of adjacent classes swapped: 1 of the 12 pairs of different classes discordant.
    assert bench.kendall_tau([4, 2, 5, 3, 0, 1], strengths) == pytest.approx((11 - 1) / 12)


def test_a_matchs_score_gives_the_best_place_1_and_shares_ties():
    assert bench.score([1, 2]) == [1.0, 0.0]
    assert bench.score([1, 1]) == [0.5, 0.5]
    assert bench.score([2, 1, 4, 3]) == pytest.approx([2 / 3, 1.0, 0.0, 1 / 3])


def test_reached_is_the_first_count_and_the_count_it_held_from():
    taus = [(12, 0.5), (24, 0.9), (36, 0.8), (48, 0.86), (60, 0.9)]
    assert bench.reached(taus) == (24, 48)
    assert bench.reached([(12, 0.1)]) == (None, None)


def test_the_ladder_run_keeps_its_cap_and_pairs_by_the_service_matchmaker(monkeypatch):
    from games.engine import registry

    seen = []
    real = bench.next_pairings

    def counted(players, **kwargs):
        busy = sum(p.busy for p in players)
        seen.append((busy, kwargs["wanted"]))
        return real(players, **kwargs)

    monkeypatch.setattr(bench, "next_pairings", counted)
    taus = bench.ladder_run(registry.get("sorcado"), bench.lineup(), seats=2, matches=12, check_every=6,
                            rng=random.Random(1), cap=3)
    assert [n for n, _ in taus] == [6, 12] and all(-1 <= tau <= 1 for _, tau in taus)
    assert all(busy == 2 * (3 - wanted) for busy, wanted in seen)  # tops up only what is missing


def test_the_quick_bench_runs_and_reports_every_figure():
    result = bench.run(quick=True)
    text = "\n".join(bench.report(result))
    assert result["hour"]["most_in_flight"] <= result["hour"]["cap"]
    for needle in ("The known order", "Convergence, 2 players", "Convergence, 4 players (pods of four)",
                   "Fairness and throughput", "Most matches in flight at once", "one openskill update",
                   "drew their matches from a bank", "live runs"):
        assert needle in text


def test_a_run_that_never_reached_counts_as_later_than_any_that_did():
    """A median that left out the runs that never reached tau would flatter the ranking that
    missed more often: 5 runs of which 2 never reached have their median at the third run."""
    assert bench.median_count([60, None, 120, None, 90]) == 120
    assert bench.median_count([60, None, None, None, 90]) == float("inf")
    assert bench.median_count([60, 90]) == 75


def test_the_median_s_interval_is_its_binomial_order_statistics():
    """n = 100: the 95 % interval of the median runs from the 40th to the 61st count, a run that
    never reached counting as later than any."""
    assert bench.interval(list(range(1, 101))) == (40, 61)
    assert bench.interval([None] * 55 + list(range(1, 46))) == (40, float("inf"))


def test_a_banked_run_draws_each_match_from_the_live_matches_of_its_seating():
    """The bank holds live matches for every seating of the classes; a banked run's match of a
    seating is one of that seating's, and the runs' figures are reported beside the live ones."""
    from itertools import product

    from games.engine import registry

    ruleset = registry.get("sorcado")
    matches = bench.bank(ruleset, 2, 2)
    assert set(matches) == set(product(bench.STRENGTHS, repeat=2))
    assert all(len(placings) == 2 and all(sorted(p) in ([1, 2], [1, 1]) for p in placings)
               for placings in matches.values())
    bench._use_bank(matches)
    rng = random.Random(7)
    for seating in matches:
        assert bench._draw(ruleset, list(seating), rng)[0] in matches[seating]
    result = bench.convergence(ruleset, 2, 24, 2, 12, banked=matches)
    assert result["banked"] == 2 and len(result["rows"]) == 2
