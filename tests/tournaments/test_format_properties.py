"""Property tests: whole tournaments of every format with random results (hypothesis)."""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.formats import (DoubleElimination, Entry, Finished, Format, Outcome, Pods, Round,
                                 RoundRobin, SingleElimination, Swiss, SwissPods, pod_points,
                                 series_outcome)
from tournaments.formats.pods import pod_sizes

def make_entries(count: int) -> list[Entry]:
    """Entries with ids unrelated to seeds (so a test cannot confuse the two)."""
    return [Entry(id=1000 + 7 * index, seed=index + 1) for index in range(count)]


def random_game(seats: tuple[int, ...], rng: random.Random, draw_chance: float) -> dict[int, int]:
    """Random placings for one game; with `draw_chance` everybody ties."""
    if rng.random() < draw_chance:
        return {entry: 1 for entry in seats}
    order = list(seats)
    rng.shuffle(order)
    return {entry: place for place, entry in enumerate(order, start=1)}


def simulate(fmt: Format, entries: list[Entry], rng: random.Random, draw_chance: float = 0.1,
             max_rounds: int = 1000) -> tuple[list[Round], dict[str, Outcome], Finished]:
    """Ask next_round until Finished, playing every pairing's series with random games."""
    seeds = {entry.id: entry.seed for entry in entries}
    rounds: list[Round] = []
    outcomes: dict[str, Outcome] = {}
    while len(rounds) <= max_rounds:
        result = fmt.next_round(entries, rounds, outcomes)
        if isinstance(result, Finished):
            return rounds, outcomes, result
        assert result.number == len(rounds) + 1
        rounds.append(result)
        for pairing in result.pairings:
            if pairing.bye:
                continue
            games: list[dict[int, int]] = []
            outcome = None
            while outcome is None:
                assert len(games) < pairing.games, "a series must be decided after its games"
                games.append(random_game(pairing.seats_for_game(len(games) + 1), rng, draw_chance))
                outcome = series_outcome(pairing, games, seeds)
            outcomes[pairing.key] = outcome
    raise AssertionError(f"{fmt.name} did not finish within {max_rounds} rounds")


# ---------------------------------------------------------------- checks shared by every format

SETTINGS = dict(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_common(rounds, outcomes, finished, entries, round_bound):
    """Nobody twice in a round, unique keys, only entrants seated, a bounded tournament, and
    standings that rank every entrant exactly once in rank order."""
    ids = {entry.id for entry in entries}
    keys = [p.key for r in rounds for p in r.pairings]
    assert len(keys) == len(set(keys))
    for round_ in rounds:
        seated = [entry for p in round_.pairings for entry in p.seats]
        assert len(seated) == len(set(seated)), f"someone plays twice in round {round_.number}"
        assert set(seated) <= ids
        assert all(p.round == round_.number for p in round_.pairings)
        assert all(len(p.seats) == 1 for p in round_.pairings if p.bye)
    assert len(rounds) <= round_bound
    standings = finished.standings
    assert sorted(s.entry for s in standings) == sorted(ids)
    ranks = [s.rank for s in standings]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    assert all(rank <= position for position, rank in enumerate(ranks, start=1))


def seed_of(entries):
    return {entry.id: entry.seed for entry in entries}


# ---------------------------------------------------------------- single elimination

@settings(**SETTINGS)
@given(count=st.integers(2, 128), third_place=st.booleans(), best_of=st.sampled_from([1, 3]),
       seed=st.integers(0, 2 ** 32))
def test_single_elimination_brackets(count, third_place, best_of, seed):
    entries = make_entries(count)
    fmt = SingleElimination(third_place=third_place, best_of=best_of)
    rounds, outcomes, finished = simulate(fmt, entries, random.Random(seed))
    depth = math.ceil(math.log2(count))
    check_common(rounds, outcomes, finished, entries, depth)
    assert len(rounds) == depth
    seeds = seed_of(entries)
    byes = [p for r in rounds for p in r.pairings if p.bye]
    assert all(p.round == 1 for p in byes)
    assert sorted(seeds[p.seats[0]] for p in byes) == list(range(1, 2 ** depth - count + 1))
    matches = [p for r in rounds for p in r.pairings if not p.bye]
    assert len(matches) == count - 1 + (1 if third_place and count >= 4 else 0)
    top_two = {entry.id for entry in entries if entry.seed in (1, 2)}
    final = [p for p in rounds[-1].pairings if p.key != "3P"][0]
    for pairing in matches:
        if set(pairing.seats) == top_two and pairing.key != "3P":     # both lost their semi-finals
            assert pairing is final, "seeds 1 and 2 met before the final"
    champion = finished.standings[0]
    assert champion.rank == 1 and finished.standings[1].rank == 2
    assert outcomes[final.key].placings.get(champion.entry) == 1


# ---------------------------------------------------------------- round robin

@settings(**SETTINGS)
@given(count=st.integers(2, 40), cycles=st.integers(1, 2), seed=st.integers(0, 2 ** 32))
def test_round_robin_everyone_meets_everyone_each_cycle(count, cycles, seed):
    entries = make_entries(count)
    rounds, outcomes, finished = simulate(RoundRobin(cycles=cycles), entries, random.Random(seed))
    per_cycle = count - 1 + count % 2
    check_common(rounds, outcomes, finished, entries, cycles * per_cycle)
    assert len(rounds) == cycles * per_cycle
    for cycle in range(cycles):
        block = rounds[cycle * per_cycle:(cycle + 1) * per_cycle]
        meetings = Counter(frozenset(p.seats) for r in block for p in r.pairings if not p.bye)
        assert len(meetings) == count * (count - 1) // 2 and set(meetings.values()) == {1}
        firsts = Counter(p.seats[0] for r in block for p in r.pairings if not p.bye)
        seconds = Counter(p.seats[1] for r in block for p in r.pairings if not p.bye)
        assert all(abs(firsts[e.id] - seconds[e.id]) <= 1 for e in entries)
        byes = Counter(p.seats[0] for r in block for p in r.pairings if p.bye)
        assert sum(byes.values()) == (per_cycle if count % 2 else 0) and set(byes.values()) <= {1}
        assert all(len([p for p in r.pairings if not p.bye]) == count // 2 for r in block)
    if cycles == 2:
        first = {frozenset(p.seats): p.seats for r in rounds[:per_cycle] for p in r.pairings}
        assert all(p.seats == first[frozenset(p.seats)][::-1] for r in rounds[per_cycle:] for p in r.pairings)


# ---------------------------------------------------------------- Swiss (the FIDE Dutch system)

def pairings_of(players, byes):
    """Brute force: every split of `players` into pairs, with one of `byes` left out when odd."""
    if len(players) % 2:
        for bye in byes:
            for _, pairs in pairings_of([p for p in players if p != bye], ()):
                yield bye, pairs
        return
    if not players:
        yield None, []
        return
    first, rest = players[0], players[1:]
    for partner in rest:
        for bye, pairs in pairings_of([p for p in rest if p != partner], ()):
            yield bye, [(first, partner)] + pairs


def absolute_preference(colours) -> int:
    """C.04.3 A.6.a: +1 (must have white), -1 (must have black) or 0; colours +1 white, -1 black."""
    if abs(sum(colours)) > 1:
        return -1 if sum(colours) > 0 else 1
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return -colours[-1]
    return 0


def preference(colours) -> int:
    """A.6: the colour preference, absolute, strong or mild (0: none)."""
    if absolute_preference(colours):
        return absolute_preference(colours)
    if sum(colours):
        return -1 if sum(colours) > 0 else 1
    return -colours[-1] if colours else 0


@settings(**SETTINGS)
@given(count=st.integers(2, 128), best_of=st.sampled_from([1, 1, 3]), seed=st.integers(0, 2 ** 32))
def test_swiss_pairings(count, best_of, seed):
    entries = make_entries(count)
    rounds, outcomes, finished = simulate(Swiss(best_of=best_of), entries, random.Random(seed))
    expected_rounds = max(1, math.ceil(math.log2(count)))
    check_common(rounds, outcomes, finished, entries, expected_rounds)
    assert len(rounds) == expected_rounds
    check_swiss_rounds(entries, rounds, outcomes, expected_rounds, brute_force=count <= 10)


@settings(**SETTINGS)
@given(count=st.integers(3, 9), extra=st.integers(0, 8), seed=st.integers(0, 2 ** 32))
def test_swiss_long_events_keep_the_absolute_criteria_or_fall_back_to_fewest_rematches(count, extra, seed):
    entries = make_entries(count)
    most = count - 1 + count % 2
    fmt = Swiss(rounds=min(most, max(1, math.ceil(math.log2(count))) + extra))
    rounds, outcomes, finished = simulate(fmt, entries, random.Random(seed))
    check_common(rounds, outcomes, finished, entries, most)
    check_swiss_rounds(entries, rounds, outcomes, fmt.round_count(entries), brute_force=True)


def check_swiss_rounds(entries, rounds, outcomes, planned, brute_force):
    """C.04.3 round by round: one bye each at most (C.2). While some pairing meets the absolute
    criteria (no rematch, C.1; no two players with the same absolute colour preference, C.3,
    unless one is a topscorer in the last round, A.7), the round meets them and the bye goes to
    the lowest score any such pairing allows (C.5); otherwise (checked by brute force on small
    fields) the fallback makes the fewest rematches, then the fewest C.3 breaches.
    Seats: two different (or single) preferences are both granted (E.1), and an absolute
    preference wins over a weaker one (E.2), so that nobody but a topscorer ever gets a colour
    difference beyond +-2 or a colour three times running."""
    points = {e.id: 0.0 for e in entries}
    met = {e.id: set() for e in entries}
    colours = {e.id: [] for e in entries}
    had_bye = set()
    for round_ in rounds:
        last_round = round_.number >= planned
        top = {e for e in points if last_round and points[e] > (round_.number - 1) / 2}
        absolute = {e: absolute_preference(colours[e]) for e in points}

        def clash(a, b):
            return absolute[a] and absolute[a] == absolute[b] and a not in top and b not in top
        byes = [p.seats[0] for p in round_.pairings if p.bye]
        assert len(byes) == len(entries) % 2
        assert not set(byes) & had_bye, "C.2: a second bye"
        pairs = [p.seats for p in round_.pairings if not p.bye]
        legal = [s for s in pairs if s[1] not in met[s[0]] and not clash(*s)]
        if brute_force:
            eligible = [e for e in points if e not in had_bye]
            everyone = sorted(points)
            options = [(bye, sum(b in met[a] for a, b in ps), sum(clash(a, b) for a, b in ps))
                       for bye, ps in pairings_of(everyone, eligible)]
            lawful = [(bye, r, c) for bye, r, c in options if r == 0 and c == 0]
            if lawful:
                assert len(legal) == len(pairs), "C.1/C.3 broken although a legal pairing exists"
                if byes:
                    assert points[byes[0]] == min(points[bye] for bye, _, _ in lawful), "C.5"
            else:
                ours = (len(pairs) - sum(1 for s in pairs if s[1] not in met[s[0]]), sum(clash(*s) for s in pairs))
                assert ours == min((r, c) for _, r, c in options), "the fallback: fewest rematches, then clashes"
        else:
            assert len(legal) == len(pairs), "C.1/C.3"
        lawful_round = not brute_force or bool(lawful)
        for first, second in pairs:
            if lawful_round and first not in top and second not in top:
                assert absolute[first] in (0, 1) and absolute[second] in (0, -1), \
                    "C.3 and E.2: an absolute colour preference is granted (no +-3, no third in a row)"
            wants = {e: preference(colours[e]) for e in (first, second)}
            if wants[first] != wants[second] or 0 in wants.values():
                assert wants[first] in (0, 1) and wants[second] in (0, -1), "E.1: both preferences granted"
            if wants[first] == wants[second] != 0 and absolute[first] and not absolute[second]:
                assert wants[first] == 1, "E.2: the absolute preference wins"
            if wants[first] == wants[second] != 0 and absolute[second] and not absolute[first]:
                assert wants[second] == -1, "E.2: the absolute preference wins"
        for pairing in round_.pairings:
            if pairing.bye:
                had_bye.add(pairing.seats[0])
                points[pairing.seats[0]] += 1
                continue
            first, second = pairing.seats
            met[first].add(second)
            met[second].add(first)
            colours[first].append(1)
            colours[second].append(-1)
            scored = pod_points(outcomes[pairing.key].placings)
            for entry in pairing.seats:
                points[entry] += scored[entry]


# ---------------------------------------------------------------- pods

pod_shapes = st.integers(3, 7).flatmap(lambda seats: st.tuples(
    st.just(seats), st.integers(2, seats)).flatmap(lambda sm: st.tuples(
        st.just(sm[0]), st.just(sm[1]), st.integers(1, sm[1] - 1))))


@settings(**SETTINGS)
@given(shape=pod_shapes, count=st.integers(2, 128), best_of=st.sampled_from([1, 1, 2]),
       seed=st.integers(0, 2 ** 32))
def test_pods_cover_every_entrant_and_finish(shape, count, best_of, seed):
    seats, min_seats, advance = shape
    entries = make_entries(count)
    fmt = Pods(seats=seats, advance=advance, min_seats=min_seats, best_of=best_of)
    try:
        fmt.validate_entries(entries)
    except ValueError:
        return      # refused with a reason: some stage cannot be split into pods of min_seats..seats
    rounds, outcomes, finished = simulate(fmt, entries, random.Random(seed), draw_chance=0.05)
    check_common(rounds, outcomes, finished, entries, len(fmt.stage_counts(count)))
    seeds = seed_of(entries)
    previous = {e.id for e in entries}
    for round_ in rounds:
        players = [e for p in round_.pairings for e in p.seats]
        assert set(players) <= previous
        if round_.number == 1:
            assert sorted(players) == sorted(previous)
        sizes = [len(p.seats) for p in round_.pairings]
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= min_seats and max(sizes) <= seats
        assert not any(p.bye for p in round_.pairings)
        if round_ is not rounds[-1]:
            nxt = {e for p in rounds[round_.number].pairings for e in p.seats}
            for pairing in round_.pairings:
                placings = outcomes[pairing.key].placings
                top = sorted(pairing.seats, key=lambda e: (placings[e], seeds[e]))[:advance]
                assert set(top) <= nxt, "the top finishers of every pod advance"
        else:
            assert len(round_.pairings) == 1
        previous = set(players)
    winner = finished.standings[0].entry
    final = rounds[-1].pairings[0]
    assert outcomes[final.key].placings[winner] == 1


def pod_repeats(pod, met) -> int:
    """Earlier meetings of the pairs in a pod, counted in the test's own bookkeeping."""
    return sum(met[frozenset((a, b))] for i, a in enumerate(pod) for b in pod[i + 1:])


@settings(**SETTINGS)
@given(seats=st.integers(3, 7), rounds_setting=st.integers(1, 5), count=st.integers(3, 128),
       seed=st.integers(0, 2 ** 32), avoid_repeats=st.booleans())
def test_swiss_pods_group_by_score(seats, rounds_setting, count, seed, avoid_repeats):
    """Pods cut the score order; with avoid_repeats, players are traded only to a neighbouring
    pod, never to more repeat pod-mates, and no single trade left undone would remove one."""
    entries = make_entries(count)
    seeds = seed_of(entries)
    fmt = SwissPods(seats=seats, rounds=rounds_setting, min_seats=3, avoid_repeats=avoid_repeats)
    if pod_sizes(count, seats, 3) is None:
        with pytest.raises(ValueError):
            fmt.next_round(entries, [], {})
        return
    rounds, outcomes, finished = simulate(fmt, entries, random.Random(seed), draw_chance=0.05)
    check_common(rounds, outcomes, finished, entries, rounds_setting)
    assert len(rounds) == rounds_setting
    points = {e.id: 0.0 for e in entries}
    met = Counter()
    for round_ in rounds:
        assert sorted(e for p in round_.pairings for e in p.seats) == sorted(points)
        sizes = [len(p.seats) for p in round_.pairings]
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 3 and max(sizes) <= seats
        pods = [list(p.seats) for p in round_.pairings]
        if not avoid_repeats:
            for upper, lower in zip(pods, pods[1:]):
                assert min(points[e] for e in upper) >= max(points[e] for e in lower)
        else:
            ordered = sorted(points, key=lambda e: (-points[e], seeds[e]))
            starts = [sum(sizes[:i]) for i in range(len(sizes))]
            cut = [ordered[start:start + size] for start, size in zip(starts, sizes)]
            home = {e: index for index, pod in enumerate(cut) for e in pod}
            assert all(abs(home[e] - index) <= 1 for index, pod in enumerate(pods) for e in pod)
            assert sum(pod_repeats(pod, met) for pod in pods) <= sum(pod_repeats(pod, met) for pod in cut)
            for index, (upper, lower) in enumerate(zip(pods, pods[1:])):
                before = pod_repeats(upper, met) + pod_repeats(lower, met)
                for a in upper:
                    for b in lower:
                        if abs(home[a] - index - 1) <= 1 and abs(home[b] - index) <= 1:
                            after = (pod_repeats([b if e == a else e for e in upper], met)
                                     + pod_repeats([a if e == b else e for e in lower], met))
                            assert after >= before, f"trading {a} and {b} would remove a repeat"
        for pod in pods:
            met.update(frozenset((a, b)) for i, a in enumerate(pod) for b in pod[i + 1:])
        for pairing in round_.pairings:
            for entry, earned in pod_points(outcomes[pairing.key].placings).items():
                points[entry] += earned
    assert [s.points for s in finished.standings] == sorted((s.points for s in finished.standings), reverse=True)


# ---------------------------------------------------------------- double elimination

@settings(**SETTINGS)
@given(count=st.integers(2, 128), reset=st.booleans(), best_of=st.sampled_from([1, 1, 3]),
       seed=st.integers(0, 2 ** 32))
def test_double_elimination_two_losses_and_out(count, reset, best_of, seed):
    """Everyone but the champion leaves with exactly two losses, except that without a reset the
    runner-up may be the unbeaten winners' champion who lost the one grand final (one loss).
    The champion has at most one loss. Nobody plays after their second loss."""
    entries = make_entries(count)
    fmt = DoubleElimination(grand_final_reset=reset, best_of=best_of)
    rounds, outcomes, finished = simulate(fmt, entries, random.Random(seed))
    depth = max(1, math.ceil(math.log2(count)))
    check_common(rounds, outcomes, finished, entries, 4 * depth + 2)
    seeds = seed_of(entries)
    byes = [p for r in rounds for p in r.pairings if p.bye]
    assert all(p.round == 1 for p in byes)
    assert sorted(seeds[p.seats[0]] for p in byes) == list(range(1, 2 ** depth - count + 1))
    losses = Counter()
    for round_ in rounds:
        for pairing in round_.pairings:
            if pairing.bye:
                continue
            assert all(losses[e] < 2 for e in pairing.seats), "someone played after two losses"
            ranked = sorted(pairing.seats, key=lambda e: (outcomes[pairing.key].placings[e], seeds[e]))
            losses[ranked[1]] += 1
    champion, runner_up = finished.standings[0].entry, finished.standings[1].entry
    assert losses[champion] <= 1
    for entry in entries:
        if entry.id == champion:
            continue
        if entry.id == runner_up and not reset:
            assert losses[entry.id] in (1, 2)
        else:
            assert losses[entry.id] == 2
    matches = sum(1 for r in rounds for p in r.pairings if not p.bye)
    assert matches in (2 * count - 2, 2 * count - 1)
