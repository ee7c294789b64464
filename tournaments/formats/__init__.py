"""Tournament formats as pure functions (no Django): entries and results in, next round out.

Every format answers `next_round(entries, rounds, outcomes) -> Round | Finished` and
`standings(entries, rounds, outcomes)`; see docs/tournaments.md for the rules of each.
"""
from .base import (Entry, Finished, Format, Outcome, Pairing, Round, Standing, pod_points,
                   series_outcome)
from .double_elimination import DoubleElimination
from .pods import Pods, SwissPods
from .round_robin import RoundRobin
from .single_elimination import SingleElimination
from .swiss import Swiss

FORMATS: dict[str, type[Format]] = {
    fmt.name: fmt for fmt in (SingleElimination, DoubleElimination, RoundRobin, Swiss, Pods, SwissPods)
}

__all__ = ["Entry", "Pairing", "Outcome", "Round", "Finished", "Standing", "Format", "FORMATS",
           "series_outcome", "pod_points", "SingleElimination", "DoubleElimination", "RoundRobin",
           "Swiss", "Pods", "SwissPods"]
