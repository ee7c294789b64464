"""bench/load.py's viewers (issue 42's mix): what the mix's replay reads are, since the figure
depends on it. A viewer steps through one match at a time, in one perspective, one step after
another; the matches are watched by popularity (Zipf's law)."""
import random
import re
from collections import Counter

import pytest

from bench import load as bench

pytestmark = pytest.mark.no_services

MATCHES = [(f"m{i:03d}", 2 + i % 3, 40 + i) for i in range(300)]
STEP = re.compile(r"^/api/matches/(m\d+)/steps/(\d+)/(?:\?seat=(\d))?$")


def test_a_viewer_steps_on_through_one_match_in_one_perspective_until_the_session_ends():
    viewers, rng = bench.Viewers(MATCHES, mean_steps=30), random.Random(3)
    reads = [STEP.match(viewers.step(rng)).groups() for _ in range(3000)]
    events = {match: n for match, _, n in MATCHES}
    stepped_on = sessions = 0
    for (match, n, seat), (after, m, seat_after) in zip(reads, reads[1:]):
        assert int(n) < events[match] and (seat is None or int(seat) < 2 + int(match[1:]) % 3)
        if after == match and seat_after == seat and int(m) == int(n) + 1:
            stepped_on += 1
        else:
            sessions += 1
    assert 3000 / 60 < sessions < 3000 / 15  # about one new session in 30 reads (or at a match's end)
    assert stepped_on > 0.9 * 3000
    # the viewer page and frames.json page are where the viewer stands
    match, n, seat = STEP.match(viewers.step(rng)).groups()
    assert viewers.viewer(rng) == f"/matches/{match}/?step={int(n) + 1}"
    assert viewers.frames(rng).startswith(f"/matches/{match}/frames.json?seat={seat or 'public'}&from=")


def test_the_matches_are_watched_by_popularity():
    viewers, rng = bench.Viewers(MATCHES, mean_steps=1), random.Random(5)  # a new match at every read
    watched = Counter(STEP.match(viewers.step(rng)).group(1) for _ in range(20_000))
    ranked = [match for match, _, _ in viewers.matches]
    top, second, tenth = (watched[ranked[i]] for i in (0, 1, 9))
    harmonic = sum(1 / k for k in range(1, 301))
    assert top / 20_000 == pytest.approx(1 / harmonic, rel=0.1)  # Zipf, exponent 1: 16 %
    assert top / second == pytest.approx(2, rel=0.2) and top / tenth == pytest.approx(10, rel=0.35)
    assert len(watched) > 150  # the tail is still read
