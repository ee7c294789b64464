"""games.engine.chance: outcomes derived from the seed, exactly uniform, checkable by anyone."""
from __future__ import annotations

import hashlib
import hmac
import itertools
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from games.engine import chance
from games.engine.protocol import IllegalAction

SEED = bytes(range(32))
DICE = {"kind": "dice", "count": 1, "sides": 6}
DECK = {"kind": "shuffle", "n": 52}

# chi-square critical values at p = 0.001 (the draws are derived from fixed seeds, so a test
# that passes once passes always; the threshold only has to separate fair from biased)
CHI2_P001 = {2: 13.816, 4: 18.467, 5: 20.515}

seeds = st.binary(min_size=1, max_size=64)
match_ids = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
seqs = st.integers(min_value=0, max_value=10**9)


def chi_square(counts, expected: float) -> float:
    return sum((count - expected) ** 2 / expected for count in counts)


# -- the derivation as the module doc states it, written again independently ---------------------------
def reference_words(seed: bytes, match_id: str, seq: int):
    for block in itertools.count():
        digest = hmac.new(seed, f"{match_id}|{seq}|{block}".encode(), hashlib.sha256).digest()
        for i in range(0, 32, 8):
            yield int.from_bytes(digest[i:i + 8], "big")


def reference_derive(seed: bytes, match_id: str, seq: int, spec: dict):
    words = reference_words(seed, match_id, seq)

    def below(n):
        while True:
            x = next(words)
            if x < 2**64 - 2**64 % n:
                return x % n
    if spec["kind"] == "dice":
        return [1 + below(spec["sides"]) for _ in range(spec["count"])]
    items, k = list(range(spec["n"])), spec.get("k", spec["n"])
    for i in range(k):
        j = i + below(spec["n"] - i)
        items[i], items[j] = items[j], items[i]
    return items[:k]


@settings(max_examples=60, deadline=None, database=None)
@given(seed=seeds, match_id=match_ids, seq=seqs,
       spec=st.sampled_from([{"kind": "dice", "count": 7, "sides": 6},
                             {"kind": "dice", "count": 3, "sides": 1000},
                             {"kind": "dice", "count": 1, "sides": 6},  # the first-block path
                             {"kind": "dice", "count": 4, "sides": 7},
                             {"kind": "shuffle", "n": 40}, {"kind": "choice", "n": 90, "k": 6}]))
def test_derive_is_the_documented_hmac_stream_with_rejection_and_fisher_yates(seed, match_id, seq, spec):
    assert chance.derive(seed, match_id, seq, spec) == reference_derive(seed, match_id, seq, spec)


def test_derive_gives_the_same_outcomes_as_when_the_first_replays_were_stored():
    """Golden values: if these change, every stored replay stops validating."""
    assert chance.derive(SEED, "golden", 1, {"kind": "dice", "count": 10, "sides": 6}) == \
        [6, 3, 2, 1, 2, 2, 6, 5, 6, 1]
    assert chance.derive(SEED, "golden", 2, {"kind": "shuffle", "n": 10}) == [4, 5, 2, 1, 0, 7, 8, 3, 9, 6]
    assert chance.derive(SEED, "golden", 3, {"kind": "choice", "n": 52, "k": 5}) == [41, 44, 51, 18, 35]


# -- determinism --------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None, database=None)
@given(seed=seeds, match_id=match_ids, seq=seqs)
def test_derive_is_a_function_of_seed_match_seq_and_spec(seed, match_id, seq):
    assert chance.derive(seed, match_id, seq, DECK) == chance.derive(seed, match_id, seq, DECK)


def test_derive_differs_across_seq_match_and_seed():
    base = chance.derive(SEED, "m1", 5, DECK)
    assert chance.derive(SEED, "m1", 6, DECK) != base
    assert chance.derive(SEED, "m2", 5, DECK) != base
    assert chance.derive(bytes(32), "m1", 5, DECK) != base
    assert chance.derive(SEED, "m1|5", 0, DECK) != chance.derive(SEED, "m1", 50, DECK)
    # one stream per event: 200 events give 200 different deck orders
    assert len({tuple(chance.derive(SEED, "m1", seq, DECK)) for seq in range(200)}) == 200


def test_the_match_id_is_taken_as_text():
    """Records store the match id as a string (log.seal), so 7 and "7" must derive alike."""
    assert chance.derive(SEED, 7, 1, DECK) == chance.derive(SEED, "7", 1, DECK)


# -- shapes ---------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None, database=None)
@given(seed=seeds, seq=seqs, count=st.integers(1, 100), sides=st.integers(1, 1000))
def test_dice_are_count_ints_in_one_to_sides(seed, seq, count, sides):
    spec = {"kind": "dice", "count": count, "sides": sides}
    rolls = chance.derive(seed, "m", seq, spec)
    assert len(rolls) == count and all(type(r) is int and 1 <= r <= sides for r in rolls)
    chance.check_outcome(spec, rolls)


@settings(max_examples=60, deadline=None, database=None)
@given(seed=seeds, seq=seqs, n=st.integers(1, 300))
def test_a_shuffle_is_a_permutation(seed, seq, n):
    order = chance.derive(seed, "m", seq, {"kind": "shuffle", "n": n})
    assert sorted(order) == list(range(n))
    chance.check_outcome({"kind": "shuffle", "n": n}, order)


@settings(max_examples=60, deadline=None, database=None)
@given(seed=seeds, seq=seqs, n_k=st.integers(1, 300).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(1, n))))
def test_a_choice_is_k_distinct_items_of_range_n(seed, seq, n_k):
    n, k = n_k
    picked = chance.derive(seed, "m", seq, {"kind": "choice", "n": n, "k": k})
    assert len(picked) == k == len(set(picked)) and all(0 <= x < n for x in picked)


def test_the_largest_specs_derive():
    assert sorted(chance.derive(SEED, "m", 1, {"kind": "shuffle", "n": 10_000})) == list(range(10_000))
    assert len(chance.derive(SEED, "m", 1, {"kind": "dice", "count": 100, "sides": 1000})) == 100


# -- unbiasedness ------------------------------------------------------------------------------------------
def test_dice_faces_are_uniform():
    spec = {"kind": "dice", "count": 100, "sides": 6}
    counts = Counter(r for seq in range(600) for r in chance.derive(SEED, "chi", seq, spec))
    assert sum(counts.values()) == 60_000
    assert chi_square([counts[face] for face in range(1, 7)], 10_000) < CHI2_P001[5], counts


def test_below_five_is_uniform():
    stream = chance._Stream(SEED, "chi", 0)
    counts = Counter(stream.below(5) for _ in range(50_000))
    assert chi_square([counts[v] for v in range(5)], 10_000) < CHI2_P001[4], counts


def test_every_order_of_three_is_equally_likely():
    """Catches the classic biased shuffle (swap with any position instead of a later one)."""
    counts = Counter(tuple(chance.derive(SEED, "orders", seq, {"kind": "shuffle", "n": 3}))
                     for seq in range(6000))
    assert len(counts) == 6
    assert chi_square(counts.values(), 1000) < CHI2_P001[5], counts


BIG_N = 5 * 2**61  # = 0.625 * 2**64: x % n without rejection would double the first 3/8 of it


def big_n_fifths(below) -> list[int]:
    """How many of 10,000 draws of below(BIG_N) fall in each fifth of range(BIG_N)."""
    counts = Counter(below(BIG_N) // 2**61 for _ in range(10_000))
    return [counts[fifth] for fifth in range(5)]


def test_below_a_huge_n_is_uniform():
    """Small n hide the modulo bias (2**64 % 6 is 4 in 2**64); this n makes it 3 in 8."""
    counts = big_n_fifths(chance._Stream(SEED, "big", 0).below)
    assert chi_square(counts, 2000) < CHI2_P001[4], counts


def test_the_huge_n_test_fails_without_rejection_sampling():
    """The test above has the power to fail: without rejection its statistic is in the hundreds."""
    stream = chance._Stream(SEED, "big", 0)
    counts = big_n_fifths(lambda n: stream._word() % n)
    assert chi_square(counts, 2000) > 10 * CHI2_P001[4], counts


def crafted_stream(words: list[int]):
    """A stream that yields exactly ``words``; returns (stream, words not yet used)."""
    stream = chance._Stream(SEED, "crafted", 0)
    left = list(words)
    stream._word = lambda: left.pop(0)
    return stream, left


@pytest.mark.parametrize("n, words, value, used", [
    (6, [2**64 - 1, 2**64 - 4, 2**64 - 5], (2**64 - 5) % 6, 3),  # 2**64 % 6 == 4: top 4 rejected
    (6, [2**64 - 4, 11], 5, 2),
    (3, [2**64 - 1, 2**64 - 2], (2**64 - 2) % 3, 2),  # 2**64 % 3 == 1
    (5, [2**64 - 1, 0], 0, 2),  # 2**64 % 5 == 1
    (8, [2**64 - 1], 7, 1),  # a power of two rejects nothing
    (1, [2**64 - 1], 0, 1),
    (2**63 + 1, [2**63 + 1, 2**63], 2**63, 2),  # the ceiling is n itself: rejects 2**63 - 1 words
    (BIG_N, [BIG_N, 2**64 - 1, BIG_N - 1], BIG_N - 1, 3),
])
def test_below_rejects_the_top_sliver_of_words(n, words, value, used):
    stream, left = crafted_stream(words)
    assert stream.below(n) == value
    assert len(words) - len(left) == used


def test_the_stream_reads_64_bit_words_from_successive_hmac_blocks():
    stream = chance._Stream(SEED, "m", 9)
    words = [stream._word() for _ in range(12)]  # three HMAC blocks
    assert words == list(itertools.islice(reference_words(SEED, "m", 9), 12))
    assert len(set(words)) == 12


# -- specs and outcomes ---------------------------------------------------------------------------------
GOOD_SPECS = [{"kind": "dice", "count": 1, "sides": 1}, {"kind": "dice", "count": 100, "sides": 1000},
              {"kind": "shuffle", "n": 1}, {"kind": "shuffle", "n": 10_000},
              {"kind": "choice", "n": 5, "k": 5}, {"kind": "choice", "n": 52, "k": 1}]

BAD_SPECS = [
    None, "dice", [], [("kind", "dice")], {}, {"kind": "coin"}, {"kind": None}, {"kind": ["dice"]},
    {"kind": "dice", "count": 1}, {"kind": "dice", "sides": 6},
    {"kind": "dice", "count": 0, "sides": 6}, {"kind": "dice", "count": -1, "sides": 6},
    {"kind": "dice", "count": 101, "sides": 6}, {"kind": "dice", "count": 1, "sides": 1001},
    {"kind": "dice", "count": 1, "sides": 0}, {"kind": "dice", "count": True, "sides": 6},
    {"kind": "dice", "count": 1.0, "sides": 6}, {"kind": "dice", "count": "1", "sides": 6},
    {"kind": "dice", "count": 1, "sides": 6, "n": 3}, {"kind": "DICE", "count": 1, "sides": 6},
    {"kind": "shuffle"}, {"kind": "shuffle", "n": 0}, {"kind": "shuffle", "n": 10_001},
    {"kind": "shuffle", "n": 5, "k": 5}, {"kind": "shuffle", "n": None},
    {"kind": "choice", "n": 5}, {"kind": "choice", "n": 5, "k": 6}, {"kind": "choice", "n": 5, "k": 0},
    {"kind": "choice", "n": 5, "k": 2, "extra": 1},
]


@pytest.mark.parametrize("spec", GOOD_SPECS, ids=repr)
def test_check_spec_accepts_well_formed_specs(spec):
    chance.check_spec(spec)


@pytest.mark.parametrize("spec", BAD_SPECS, ids=repr)
def test_check_spec_refuses_malformed_specs_with_a_reason(spec):
    with pytest.raises(IllegalAction) as refused:
        chance.check_spec(spec)
    assert refused.value.reason
    with pytest.raises(IllegalAction):
        chance.derive(SEED, "m", 1, spec)


BAD_OUTCOMES = [
    (DICE, None), (DICE, 3), (DICE, "3"), (DICE, (3,)), (DICE, []), (DICE, [3, 3]), (DICE, [0]),
    (DICE, [7]), (DICE, [-1]), (DICE, [3.0]), (DICE, [True]), (DICE, ["3"]), (DICE, [[3]]),
    ({"kind": "shuffle", "n": 3}, [0, 1]), ({"kind": "shuffle", "n": 3}, [0, 1, 1]),
    ({"kind": "shuffle", "n": 3}, [0, 1, 3]), ({"kind": "shuffle", "n": 3}, [0, 1, 2, 0]),
    ({"kind": "shuffle", "n": 3}, [-1, 0, 1]), ({"kind": "shuffle", "n": 2}, [False, True]),
    ({"kind": "choice", "n": 5, "k": 2}, [4]), ({"kind": "choice", "n": 5, "k": 2}, [4, 4]),
    ({"kind": "choice", "n": 5, "k": 2}, [4, 5]), ({"kind": "choice", "n": 5, "k": 2}, [1, 2, 3]),
    ({"kind": "coin"}, [1]),
]


@pytest.mark.parametrize("spec, outcome", BAD_OUTCOMES, ids=repr)
def test_check_outcome_refuses_outcomes_the_spec_cannot_give(spec, outcome):
    with pytest.raises(IllegalAction) as refused:
        chance.check_outcome(spec, outcome)
    assert refused.value.reason


@pytest.mark.parametrize("spec, outcome", [
    (DICE, [1]), (DICE, [6]), ({"kind": "dice", "count": 3, "sides": 2}, [2, 1, 2]),
    ({"kind": "shuffle", "n": 3}, [2, 0, 1]), ({"kind": "choice", "n": 5, "k": 2}, [4, 0]),
])
def test_check_outcome_accepts_any_outcome_some_seed_could_give(spec, outcome):
    chance.check_outcome(spec, outcome)


# -- the seed ---------------------------------------------------------------------------------------------
def test_the_commitment_is_the_sha256_of_the_seed():
    assert chance.commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert chance.commitment(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_new_seeds_are_32_fresh_bytes():
    seeds_made = {chance.new_seed() for _ in range(50)}
    assert len(seeds_made) == 50 and all(len(seed) == 32 for seed in seeds_made)


class _Words:
    """A stand-in HMAC key whose blocks are given words (the sliver rejection sampling throws
    away has a chance of sides in 2**64 a die: no seed to be found that falls in it)."""

    def __init__(self, *blocks):
        self.blocks = {b"%d" % i: b"".join(w.to_bytes(8, "big") for w in words)
                       for i, words in enumerate(blocks)}

    def digest(self, message: bytes) -> bytes:
        return self.blocks[message.rsplit(b"|", 1)[1]]

    # Deriver's dice path writes _Key.digest out: the inner hash passes the message on, the
    # outer one turns it into its block.
    @property
    def _inner(self):
        return _Hash(lambda message: message)

    @property
    def _outer(self):
        return _Hash(self.digest)


class _Hash:
    """A hashlib object's copy, update and digest, with ``result`` as the hash function."""

    def __init__(self, result):
        self.result, self.message = result, b""

    def copy(self):
        return _Hash(self.result)

    def update(self, data: bytes) -> None:
        self.message += data

    def digest(self) -> bytes:
        return self.result(self.message)


@pytest.mark.parametrize("blocks, expected", [
    ([[2**64 - 1, 7, 8, 9], [10, 11, 12, 13]], [2, 3]),  # the first word rejected: the stream's
    ([[5, 2**64 - 2, 8, 9], [10, 11, 12, 13]], [6, 3]),  # the second word rejected
    ([[5, 6, 2**64 - 3, 2**64 - 4], [10, 11, 12, 13]], [6, 1]),  # the first two kept
    ([[2**64 - 1, 7, 8, 9], [10, 11, 12, 13]], [2]),  # one die: its word rejected
    ([[2**64 - 5, 7, 8, 9], [10, 11, 12, 13]], [6]),  # one die: its word kept, just
])
def test_a_roll_with_a_word_in_the_rejected_sliver_is_drawn_by_the_stream(blocks, expected):
    """Deriver rolls dice from the first block where every word is kept; a rejected word makes
    the stream draw the roll, with the very words the stream skips and takes."""
    deriver = chance.Deriver(SEED, "m")
    deriver._key = _Words(*blocks)
    spec = {"kind": "dice", "count": len(expected), "sides": 6}
    assert deriver(3, spec) == expected
    stream = chance._Stream(SEED, "m", 3, key=deriver._key)
    assert [1 + stream.below(6) for _ in range(len(expected))] == expected


def reference_fits(spec: dict, outcome) -> bool:
    """The shape an outcome of ``spec`` has, as the module doc states it, member by member."""
    if not isinstance(outcome, list) or any(type(x) is not int for x in outcome):
        return False
    if spec["kind"] == "dice":
        return len(outcome) == spec["count"] and all(1 <= x <= spec["sides"] for x in outcome)
    k = spec["n"] if spec["kind"] == "shuffle" else spec["k"]
    return len(outcome) == k == len(set(outcome)) and all(0 <= x < spec["n"] for x in outcome)


@settings(max_examples=300, deadline=None, database=None)
@given(spec=st.sampled_from([DICE, {"kind": "dice", "count": 3, "sides": 4}, {"kind": "shuffle", "n": 4},
                             {"kind": "choice", "n": 6, "k": 3}]),
       outcome=st.lists(st.integers(-2, 7) | st.booleans() | st.floats(0, 5) | st.none(), max_size=5))
def test_check_outcome_accepts_exactly_the_outcomes_of_the_documented_shape(spec, outcome):
    """check_outcome looks through set, min and max; it accepts what the shape rules accept,
    member by member, and nothing else."""
    try:
        chance.check_outcome(spec, outcome)
        accepted = True
    except IllegalAction:
        accepted = False
    assert accepted == reference_fits(spec, outcome)
