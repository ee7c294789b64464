"""Example and golden tests of the tournament formats (pure Python, no Django)."""
from __future__ import annotations

from collections import Counter

import pytest

from tournaments.formats import (FORMATS, DoubleElimination, Entry, Finished, Outcome, Pairing, Pods,
                                 Round, RoundRobin, SingleElimination, Swiss, SwissPods, series_outcome)
from tournaments.formats.pods import fewer_repeats, repeats_in
from tournaments.formats.single_elimination import bracket_order

# FIDE Handbook C.05 Annex 1, Berger tables: (seat 0 / white, seat 1 / black) by player number.
BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: ["1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"],
    10: ["1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
         "10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
         "4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1"],
}


def entries_by_seed(count):
    """Entry id = 100 + seed, so player number n of the tables is entry 100 + n."""
    return [Entry(100 + seed, seed) for seed in range(1, count + 1)]


def play_all(fmt, entries, decide):
    """Run to the end; `decide(pairing)` returns the placings of each non-bye pairing."""
    rounds, outcomes = [], {}
    while not isinstance(result := fmt.next_round(entries, rounds, outcomes), Finished):
        rounds.append(result)
        outcomes.update({p.key: Outcome(p.key, decide(p)) for p in result.pairings if not p.bye})
    return rounds, outcomes, result


def higher_seed_wins(pairing):
    ordered = sorted(pairing.seats)
    return {entry: place for place, entry in enumerate(ordered, start=1)}


@pytest.mark.parametrize("count", sorted(BERGER))
def test_it_follows_the_fide_berger_tables(count):
    rounds, _, _ = play_all(RoundRobin(), entries_by_seed(count), higher_seed_wins)
    played = [" ".join(f"{a - 100}-{b - 100}" for a, b in (p.seats for p in r.pairings)) for r in rounds]
    assert played == BERGER[count]


def test_it_gives_a_bye_per_round_in_an_odd_round_robin_and_swaps_seats_in_cycle_two():
    rounds, _, finished = play_all(RoundRobin(cycles=2), entries_by_seed(5), higher_seed_wins)
    assert len(rounds) == 10
    assert all(sum(p.bye for p in r.pairings) == 1 for r in rounds)
    assert rounds[0].pairings[0].seats == (101,) and rounds[0].pairings[0].bye     # 1 v dummy 6
    assert rounds[5].pairings[1].seats == rounds[0].pairings[1].seats[::-1]
    assert [s.entry for s in finished.standings] == [101, 102, 103, 104, 105]


def test_it_seeds_the_bracket_in_the_standard_order():
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_it_gives_byes_to_the_top_seeds_and_plays_a_third_place_match():
    fmt = SingleElimination(third_place=True)
    rounds, outcomes, finished = play_all(fmt, entries_by_seed(6), higher_seed_wins)
    first = rounds[0].pairings
    assert [(p.key, p.seats, p.bye) for p in first] == [
        ("R1-1", (101,), True), ("R1-2", (104, 105), False), ("R1-3", (102,), True), ("R1-4", (103, 106), False)]
    assert [p.key for p in rounds[2].pairings] == ["R3-1", "3P"]
    assert [(s.entry, s.rank) for s in finished.standings] == [(101, 1), (102, 2), (103, 3), (104, 4), (105, 5), (106, 5)]
    # Issue 13.16: the round reached (knocked out in; the third-place match is no round further)
    # is an integer, and the champion's is the final's (round 3),
    # not one past the last round.
    reached = {s.entry: s.tiebreaks["round_reached"] for s in finished.standings}
    assert reached == {101: 3, 102: 3, 103: 2, 104: 2, 105: 1, 106: 1}  # the semi-finalists: 2
    assert all(type(value) is int for value in reached.values())


def test_a_tied_elimination_match_sends_the_higher_seed_through():
    fmt = SingleElimination()
    entries = entries_by_seed(2)
    first = fmt.next_round(entries, [], {})
    result = fmt.next_round(entries, [first], {"R1-1": Outcome("R1-1", {101: 1, 102: 1})})
    assert result.standings[0].entry == 101


def test_it_resets_the_grand_final_when_the_losers_champion_wins():
    fmt = DoubleElimination(grand_final_reset=True)
    entries = entries_by_seed(2)
    upset = lambda p: {max(p.seats): 1, min(p.seats): 2} if p.key == "GF1" else higher_seed_wins(p)
    rounds, _, finished = play_all(fmt, entries, upset)
    assert [[p.key for p in r.pairings] for r in rounds] == [["W1-1"], ["GF1"], ["GF2"]]
    assert finished.standings[0].entry == 101
    rounds, _, _ = play_all(DoubleElimination(grand_final_reset=False), entries, upset)
    assert [[p.key for p in r.pairings] for r in rounds] == [["W1-1"], ["GF1"]]


def test_it_computes_swiss_tie_breaks_by_hand():
    """A 5-player, 3-round crosstable (A..E = 1..5); hand-computed values in the comments.

    R1: A beats B, C draws D, E bye.  R2: A draws C, E beats B, D bye.  R3: E beats A, B beats D, C bye.
    Points: A 1.5, B 1, C 2, D 1.5, E 3.
    Buchholz (opponents' points): A = B+C+E = 6; B = A+E+D = 6; C = D+A = 3; D = C+B = 3; E = B+A = 2.5.
    Cut 1 (minus the lowest): A 5, B 4.5, C 1.5, D 2, E 1.5.
    Sonneborn-Berger: A = 1*1 + 0.5*2 = 2; B = 1.5; C = 0.5*1.5 + 0.5*1.5 = 1.5; D = 0.5*2 = 1; E = 1 + 1.5 = 2.5.
    """
    A, B, C, D, E = 1, 2, 3, 4, 5
    entries = [Entry(i, i) for i in (A, B, C, D, E)]
    games = {1: [(A, B, "win"), (C, D, "draw"), (E, None, "bye")],
             2: [(A, C, "draw"), (E, B, "win"), (D, None, "bye")],
             3: [(E, A, "win"), (B, D, "win"), (C, None, "bye")]}
    rounds, outcomes = [], {}
    for number, rows in games.items():
        pairings = []
        for index, (a, b, result) in enumerate(rows, start=1):
            key = f"R{number}-{index}"
            if result == "bye":
                pairings.append(Pairing(key, number, (a,), bye=True))
                continue
            pairings.append(Pairing(key, number, (a, b)))
            outcomes[key] = Outcome(key, {a: 1, b: 1 if result == "draw" else 2})
        rounds.append(Round(number, tuple(pairings)))
    standings = Swiss(rounds=3).standings(entries, rounds, outcomes)
    table = {s.entry: (s.points, s.tiebreaks["buchholz"], s.tiebreaks["buchholz_cut_1"],
                       s.tiebreaks["sonneborn_berger"]) for s in standings}
    assert table == {A: (1.5, 6, 5, 2), B: (1, 6, 4.5, 1.5), C: (2, 3, 1.5, 1.5),
                     D: (1.5, 3, 2, 1), E: (3, 2.5, 1.5, 2.5)}
    assert [(s.entry, s.rank) for s in standings] == [(E, 1), (C, 2), (A, 3), (D, 4), (B, 5)]
    assert isinstance(Swiss(rounds=3).next_round(entries, rounds, outcomes), Finished)


def test_swiss_players_equal_on_every_tie_break_share_a_rank():
    entries = [Entry(1, 1), Entry(2, 2)]
    rounds = [Round(1, (Pairing("R1-1", 1, (2, 1)),))]
    standings = Swiss(rounds=1).standings(entries, rounds, {"R1-1": Outcome("R1-1", {2: 1, 1: 1})})
    assert [(s.entry, s.rank) for s in standings] == [(1, 1), (2, 1)]     # a draw: all equal, shared rank


def test_a_best_of_three_series_is_first_to_two_and_draws_count_for_nobody():
    pairing = Pairing("R1-1", 1, (1, 2), games=3)
    seeds = {1: 2, 2: 1}
    assert pairing.seats_for_game(2) == (2, 1)
    assert series_outcome(pairing, [{1: 1, 2: 2}], seeds) is None
    assert series_outcome(pairing, [{1: 1, 2: 2}, {1: 1, 2: 2}], seeds).placings == {1: 1, 2: 2}
    assert series_outcome(pairing, [{1: 1, 2: 2}, {1: 1, 2: 1}], seeds) is None
    assert series_outcome(pairing, [{1: 1, 2: 2}, {1: 1, 2: 1}, {1: 1, 2: 1}], seeds).placings == {1: 1, 2: 2}
    level = [{1: 1, 2: 1}] * 3
    assert series_outcome(pairing, level, seeds).placings == {2: 1, 1: 2}     # entry 2 is seed 1


def test_pods_snake_seed_and_advance_the_top_two():
    entries = entries_by_seed(8)
    fmt = Pods(seats=4, advance=2)
    rounds, outcomes, finished = play_all(fmt, entries, higher_seed_wins)
    assert [sorted(p.seats) for p in rounds[0].pairings] == [[101, 104, 105, 108], [102, 103, 106, 107]]
    assert sorted(rounds[1].pairings[0].seats) == [101, 102, 103, 104]
    assert [s.entry for s in finished.standings][:4] == [101, 102, 103, 104]


def test_swiss_pods_group_the_leaders_together():
    entries = entries_by_seed(8)
    rounds, _, _ = play_all(SwissPods(seats=4, rounds=2), entries, higher_seed_wins)
    assert sorted(rounds[1].pairings[0].seats) == [101, 102, 105, 106]


def test_swiss_pods_trade_players_between_neighbouring_pods_to_avoid_repeats():
    met = {1: Counter({2: 1}), 2: Counter({1: 1}), 4: Counter({5: 1}), 5: Counter({4: 1}),
           3: Counter(), 6: Counter(), 7: Counter(), 8: Counter(), 9: Counter()}
    points = {player: 0.0 for player in met}
    pods = fewer_repeats([[1, 2, 3], [4, 5, 6], [7, 8, 9]], met, points)
    assert sorted(p for pod in pods for p in pod) == list(range(1, 10))
    assert sum(repeats_in(pod, met) for pod in pods) == 0
    assert all(p not in pods[2] for p in (1, 2, 3)) and all(p not in pods[0] for p in (7, 8, 9))


def test_swiss_pods_never_move_a_player_two_pods_away():
    """1, 2, 3 all met, and so did 4, 5, 6: pod 1 can only draw on the first two pods, so some
    repeat stays, and nobody is traded further than the next pod to remove it."""
    met = {p: Counter() for p in range(1, 10)}
    for a, b in ((1, 2), (1, 3), (2, 3), (4, 5), (4, 6), (5, 6)):
        met[a][b] += 1
        met[b][a] += 1
    points = {player: 0.0 for player in met}
    pods = fewer_repeats([[1, 2, 3], [4, 5, 6], [7, 8, 9]], met, points)
    home = {p: (p - 1) // 3 for p in met}
    assert all(abs(home[p] - index) <= 1 for index, pod in enumerate(pods) for p in pod)
    assert sum(repeats_in(pod, met) for pod in pods) < 6


def test_swiss_pods_keep_strict_score_order_without_avoid_repeats():
    entries = entries_by_seed(12)
    fmt = FORMATS["swiss-pods"].from_settings({"seats": 4, "rounds": 3, "avoid_repeats": False})
    rounds, _, _ = play_all(fmt, entries, higher_seed_wins)
    # seeds 1-4, 5-8 and 9-12 win their pods in seed order: round 2 cuts the score order straight
    assert [sorted(p.seats) for p in rounds[1].pairings] == [[101, 102, 105, 109], [103, 106, 107, 110],
                                                            [104, 108, 111, 112]]


@pytest.mark.parametrize("name, settings, reason", [
    ("single-elimination", {"best_of": 2}, "odd"),
    ("round-robin", {"cycles": 0}, "cycles"),
    ("swiss", {"rounds": "3"}, "must be an integer"),  # JSON's type names (issue 13.12)
    ("pods", {"seats": 4, "advance": 3, "min_seats": 3}, "advance"),
    ("swiss-pods", {"seats": 9}, "seats"),
    ("double-elimination", {"reset": True}, "unknown"),
])
def test_it_refuses_bad_settings_with_a_reason(name, settings, reason):
    with pytest.raises(ValueError, match=reason):
        FORMATS[name].from_settings(settings)


def test_it_refuses_fields_that_cannot_be_split():
    with pytest.raises(ValueError, match="cannot be split"):
        Pods(seats=4, min_seats=3).next_round(entries_by_seed(5), [], {})
    with pytest.raises(ValueError, match="at most 3 Swiss rounds"):
        Swiss(rounds=4).next_round(entries_by_seed(4), [], {})


def test_settings_round_trip():
    for fmt_class in FORMATS.values():
        fmt = fmt_class.from_settings({})
        assert fmt_class.from_settings(fmt.settings()).settings() == fmt.settings()
