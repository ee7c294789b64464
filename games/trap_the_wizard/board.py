"""The Trap the Wizard board: a wheel (docs/rules/trap-the-wizard.md, "The board").

The rulebook names start fields, special fields and a centre but shows no board, so we use the
wheel of the classic "Fang den Hut" / "Trap the Cap": ``arms`` start fields on a circular rim,
``rim_between`` ordinary fields between neighbouring start fields, and from each start field a
spoke of ``spoke_between`` fields to one centre field. The middle field of every rim segment and
of every spoke is special (grey). Field ids: the rim first, clockwise from the start field of arm
0 (start field of arm a = a * (rim_between + 1)), then the spokes arm by arm from the start field
inwards, then the centre.

Everything here is computed once per (arms, rim_between, spoke_between) and per seating, and
cached: the rules only look things up.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

MAX_STEPS = 6  # the die's sides: no move is longer than one roll
RADIUS = 100.0  # drawing scale of the rim (x right, y down, centre at 0,0)
ARMS = {"wheel4": 4, "wheel6": 6}


@dataclass(frozen=True)
class Board:
    """The field graph of one wheel, with drawing coordinates and precomputed reachability."""

    name: str
    arms: int
    neighbours: tuple[tuple[int, ...], ...]
    kinds: tuple[str, ...]  # "start", "special", "plain" or "centre" per field
    special: frozenset[int]
    starts: tuple[int, ...]  # start field per arm
    centre: int
    coords: tuple[tuple[float, float], ...]
    reach: tuple[tuple[frozenset[int], ...], ...]  # reach[field][steps], steps 0..MAX_STEPS
    threatened: tuple[frozenset[int], ...]  # fields a wizard on a field can end on with any roll

    @property
    def size(self) -> int:
        return len(self.kinds)


@dataclass(frozen=True)
class Layout:
    """A board with its players seated: seat i sits on arm i * arms // players (decision D3)."""

    board: Board
    homes: tuple[int, ...]  # start field per seat
    home_owner: dict  # start field -> seat; start fields of no seat are not in it
    rows: tuple = ()  # per field (id, kind, seat, x, y, neighbours) for board_json
    # For the rules' "can the seat move at all?" (has_move), asked on every roll of a fold:
    landings: tuple = ()  # landings[field][steps]: reach[field][steps] without any seat's start field
    home_steps: tuple = ()  # home_steps[seat][field]: fewest steps (1..MAX_STEPS) home, or MAX_STEPS + 1


def arms_for(board_option: str, players: int) -> int:
    """The number of arms: "auto" is wheel4 for 2-4 players and wheel6 for 5-6 (decision D1)."""
    if board_option == "auto":
        return 4 if players <= 4 else 6
    return ARMS[board_option]


def middle(count: int) -> int:
    """The middle of ``count`` fields numbered 1..count (the nearer to the start when even, D2)."""
    return (count + 1) // 2


@lru_cache(maxsize=None)
def build_board(arms: int, rim_between: int, spoke_between: int) -> Board:
    """The wheel's graph: a rim cycle, a spoke from every start field and the centre (D1, D2)."""
    segment = rim_between + 1
    rim = arms * segment
    centre = rim + arms * spoke_between
    links: list[set[int]] = [set() for _ in range(centre + 1)]
    kinds = ["plain"] * (centre + 1)
    kinds[centre] = "centre"

    def link(a: int, b: int) -> None:
        links[a].add(b)
        links[b].add(a)

    for i in range(rim):
        link(i, (i + 1) % rim)
        kinds[i] = "start" if i % segment == 0 else "plain"
        if i % segment == middle(rim_between):
            kinds[i] = "special"
    for arm in range(arms):
        previous = arm * segment
        for j in range(1, spoke_between + 1):
            field = rim + arm * spoke_between + j - 1
            link(previous, field)
            if j == middle(spoke_between):
                kinds[field] = "special"
            previous = field
        link(previous, centre)
    neighbours = tuple(tuple(sorted(s)) for s in links)
    reach = tuple(tuple(_endpoints(neighbours, f, k) for k in range(MAX_STEPS + 1))
                  for f in range(centre + 1))
    threatened = tuple(frozenset().union(*reach[f][1:]) for f in range(centre + 1))
    return Board(name=f"wheel{arms}", arms=arms, neighbours=neighbours, kinds=tuple(kinds),
                 special=frozenset(f for f, k in enumerate(kinds) if k == "special"),
                 starts=tuple(a * segment for a in range(arms)), centre=centre,
                 coords=_coordinates(arms, rim_between, spoke_between), reach=reach,
                 threatened=threatened)


def _endpoints(neighbours: tuple[tuple[int, ...], ...], start: int, steps: int) -> frozenset[int]:
    """Where simple paths of exactly ``steps`` steps from ``start`` end (no field twice, D4)."""
    ends: set[int] = set()

    def walk(field: int, left: int, seen: frozenset[int]) -> None:
        if left == 0:
            ends.add(field)
            return
        for nxt in neighbours[field]:
            if nxt not in seen:
                walk(nxt, left - 1, seen | {nxt})

    walk(start, steps, frozenset((start,)))
    return frozenset(ends)


def _coordinates(arms: int, rim_between: int, spoke_between: int) -> tuple[tuple[float, float], ...]:
    """Drawing positions: the rim on a circle (clockwise from the top), spokes straight inwards."""
    segment = rim_between + 1
    rim = arms * segment
    points = []
    for i in range(rim):
        angle = 2 * math.pi * i / rim
        points.append((round(RADIUS * math.sin(angle), 1), round(-RADIUS * math.cos(angle), 1)))
    for arm in range(arms):
        hx, hy = points[arm * segment]
        for j in range(1, spoke_between + 1):
            share = 1 - j / (spoke_between + 1)
            points.append((round(hx * share, 1), round(hy * share, 1)))
    points.append((0.0, 0.0))
    return tuple(points)


@lru_cache(maxsize=None)
def layout_for(board_option: str, rim_between: int, spoke_between: int, players: int) -> Layout:
    """The board for these options with ``players`` seated on their arms (D1, D3)."""
    board = build_board(arms_for(board_option, players), rim_between, spoke_between)
    homes = tuple(board.starts[seat * board.arms // players] for seat in range(players))
    home_owner = {h: s for s, h in enumerate(homes)}
    rows = tuple((f, board.kinds[f], home_owner.get(f), *board.coords[f], board.neighbours[f])
                 for f in range(board.size))
    landings = tuple(tuple(tuple(sorted(ends - home_owner.keys())) for ends in by_steps)
                     for by_steps in board.reach)
    home_steps = tuple(tuple(next((k for k in range(1, MAX_STEPS + 1) if home in board.reach[f][k]),
                                  MAX_STEPS + 1) for f in range(board.size)) for home in homes)
    return Layout(board=board, homes=homes, home_owner=home_owner, rows=rows, landings=landings,
                  home_steps=home_steps)


def board_json(layout: Layout) -> dict:
    """The board for a viewer: every field with its kind, owner (start fields), drawing position
    and neighbours; built fresh from cached rows, since a bot may change its view."""
    board = layout.board
    return {"name": board.name, "arms": board.arms, "centre": board.centre, "homes": list(layout.homes),
            "fields": [{"id": f, "kind": kind, "seat": seat, "x": x, "y": y, "neighbours": list(links)}
                       for f, kind, seat, x, y, links in layout.rows]}
