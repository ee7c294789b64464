"""bench/reads.py's attribution of a request's time to its parts (issue 42, item 1): a part is
timed where outside code enters it, so a part calling itself or its own functions counts once."""
import cProfile
import pstats

from bench.reads import _entered


def _work(n: int) -> int:
    return sum(i * i for i in range(n))


def part_inner(n: int) -> int:
    return _work(n)


def part_outer(n: int, depth: int = 2) -> int:
    if depth:
        return part_outer(n, depth - 1) + part_inner(n)  # recursion and a call within the part
    return part_inner(n)


def caller() -> int:
    return part_outer(20_000) + _work(20_000)


def test_a_part_is_timed_where_outside_code_enters_it():
    profiler = cProfile.Profile()
    profiler.enable()
    caller()
    profiler.disable()
    stats = pstats.Stats(profiler)
    part = _entered(stats, __file__, {"part_outer", "part_inner"})
    by_name = {func[2]: entry for func, entry in stats.stats.items() if func[0] == __file__}
    outer_from_caller = by_name["part_outer"][4][next(f for f in by_name["part_outer"][4] if f[2] == "caller")][3]
    assert part == outer_from_caller  # the entry from caller(), not the calls inside the part
    inner_total = by_name["part_inner"][3]
    assert 0 < inner_total < part < by_name["caller"][3]
    assert _entered(stats, __file__, {"part_inner"}) == inner_total  # entered from part_outer only
