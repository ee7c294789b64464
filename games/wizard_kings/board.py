"""Wizard Kings maps (rulebook section 3) as data, and the board they make when laid side by side.

A map is a JSON file in ``data/maps/``: a grid of hexes of flat-topped columns ("odd-q": odd
columns sit half a hex lower), ``width`` columns by ``height`` rows, each hex one terrain letter
at its centre (3.0: "where two or three terrains share a hex or a hexside, use the centre").
Hexsides carry rivers, bridges, walls and waterfalls; roads run from hex centre to hex centre.
Hex ids are "CCRR" (column, row, two digits each), as wargames number their hexes.

The printed maps have half-hexes on their edges, which 3.0 makes playable; here every hex of the
grid is a whole hex and maps join edge to edge (decision D1 in docs/rules/wizard-kings.md).
Maps are laid left to right: map k's column c is the board's column ``k * width + c``; every map
has an even width so that odd columns stay odd and hexes keep their neighbours.

Terrain letters: c clear, d desert, f forest, s swamp, m mountain (impassable, 3.15),
p mountain pass (a mountain hex with a marked pass), w water (sea or lake, 3.17). A hex listed
in ``coast`` holds water and land (3.18): its letter is the land part's terrain. ``shoals`` are
water hexes that water blocks cannot enter and transport cannot cross (3.19).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

MAP_DIR = Path(__file__).resolve().parent / "data" / "maps"
EXTRA_MAP_DIRS: list[Path] = []   # more folders of maps (tests add purpose-built ones)

TERRAIN = {"c": "clear", "d": "desert", "f": "forest", "s": "swamp", "m": "mountain",
           "p": "pass", "w": "water"}

# 4.5: stacking and hexside limits by terrain (a city adds one to the stacking limit). A pass
# hex is a mountain hex (3.15: stacking 2, hexside 1); water hexes hold water blocks only.
STACK = {"clear": 4, "desert": 3, "forest": 3, "swamp": 2, "mountain": 2, "pass": 2, "water": 4}
HEXSIDE = {"clear": 2, "desert": 1, "forest": 1, "swamp": 1, "mountain": 1, "pass": 1, "water": 2}

# odd-q neighbours: (dcol, drow) for even and odd columns, clockwise from north
_STEPS = {0: ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)),
          1: ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))}


class MapError(ValueError):
    """A map file that breaks the format (the message names the map and the fault)."""


def hex_id(col: int, row: int) -> str:
    """The id of the hex at ``col``, ``row``: "CCRR"."""
    return f"{col:02d}{row:02d}"


def col_row(hex_: str) -> tuple[int, int]:
    """The column and row of a hex id."""
    return int(hex_[:2]), int(hex_[2:])


def side(a: str, b: str) -> str:
    """The hexside between two neighbouring hexes, as "AAAA|BBBB" with the smaller id first."""
    return f"{a}|{b}" if a < b else f"{b}|{a}"


def neighbours_on_grid(hex_: str) -> list[str]:
    """The six hex ids around ``hex_`` (on an unbounded grid), clockwise from north."""
    col, row = col_row(hex_)
    return [hex_id(col + dc, row + dr) for dc, dr in _STEPS[col % 2]
            if 0 <= col + dc <= 99 and 0 <= row + dr <= 99]


def distance(a: str, b: str) -> int:
    """Hexes between two hexes (odd-q offset to cube coordinates)."""
    (x1, y1, z1), (x2, y2, z2) = _cube(a), _cube(b)
    return max(abs(x1 - x2), abs(y1 - y2), abs(z1 - z2))


@lru_cache(maxsize=10_000)  # every "CCRR" id there is: a hex is parsed once
def _cube(hex_: str) -> tuple[int, int, int]:
    """The cube coordinates of a hex (odd-q offset): the heuristic bot asks a distance of every
    move it weighs, which its playouts in the search bot ask thousands of times a move."""
    col, row = col_row(hex_)
    z = row - (col - (col & 1)) // 2
    return col, -col - z, z


@dataclass(frozen=True)
class City:
    """3.2: a city of 1-3 gold, on its map's owner's side at the start."""

    hex: str
    name: str
    gold: int
    map: str


@dataclass
class Board:
    """The maps of a match laid side by side: every fact of movement and battle a hex or a
    hexside holds. Built once per tuple of map names and shared (never changed after build)."""

    maps: tuple[str, ...]
    width: int = 0
    height: int = 0
    terrain: dict[str, str] = field(default_factory=dict)       # hex -> terrain name
    map_of: dict[str, int] = field(default_factory=dict)        # hex -> index of its map
    coast: set[str] = field(default_factory=set)
    shoals: set[str] = field(default_factory=set)
    cities: dict[str, City] = field(default_factory=dict)
    henges: set[str] = field(default_factory=set)
    names: dict[str, str] = field(default_factory=dict)         # hex -> place name (regions)
    rivers: set[str] = field(default_factory=set)               # hexsides
    bridges: set[str] = field(default_factory=set)              # hexsides (a road over a river)
    walls: set[str] = field(default_factory=set)                # hexsides no land block crosses
    gates: set[str] = field(default_factory=set)                # wall hexsides with a gate
    waterfalls: set[str] = field(default_factory=set)           # river hexsides water cannot pass
    roads: set[str] = field(default_factory=set)                # hexsides a road crosses
    river_course: dict[str, set[str]] = field(default_factory=dict)  # hex -> river-linked hexes
    titles: tuple[str, ...] = ()
    road_ends: set[str] = field(default_factory=set)           # road ends on a map's edge
    _near: dict[str, list[str]] = field(default_factory=dict, repr=False)
    # movement.land_steps' tables, by the traits of a kind that movement reads (built once each)
    _steps: dict[tuple, dict] = field(default_factory=dict, repr=False)
    # movement.room_to_stand's tables, for water blocks and for the others (built once each)
    _room: dict[bool, dict] = field(default_factory=dict, repr=False)
    # movement._routes' paths, by the kind, seat, start and what stands in reach (kept, bounded)
    _routes: dict[tuple, tuple] = field(default_factory=dict, repr=False)
    # movement.ports_of: the board's ports, sorted (found once)
    _ports: tuple[str, ...] | None = field(default=None, repr=False)

    def neighbours(self, hex_: str) -> list[str]:
        """The hexes of this board next to ``hex_`` (computed once per hex)."""
        found = self._near.get(hex_)
        if found is None:
            found = self._near[hex_] = [h for h in neighbours_on_grid(hex_) if h in self.terrain]
        return found

    def land(self, hex_: str) -> bool:
        """A hex a land block may stand in: any terrain but open water (coast is land)."""
        return self.terrain[hex_] != "water"

    def stack_limit(self, hex_: str) -> int:
        """4.5: the blocks one side may have in a hex; a city adds one."""
        return STACK[self.terrain[hex_]] + (1 if hex_ in self.cities else 0)

    def hexside_limit(self, a: str, b: str, *, forest_limit: int = 1) -> int:
        """4.6 and 3.3: blocks one side may move from ``a`` into an enemy-held ``b`` a turn.
        A road hexside allows 2 whatever the terrain, a bridge 1, a river (for the amphibians
        that may cross it) 1; otherwise the entered hex's terrain decides (D2)."""
        s = side(a, b)
        if s in self.bridges:
            return 1
        if s in self.roads:
            return 2
        if s in self.rivers or s in self.gates:
            return 1
        terrain = self.terrain[b]
        if terrain == "forest":
            return forest_limit
        return HEXSIDE[terrain]

    def owner_map(self, hex_: str) -> int:
        """The index of the map ``hex_`` lies on."""
        return self.map_of[hex_]


def _load(name: str) -> dict:
    path = MAP_DIR / f"{name}.json"
    for folder in EXTRA_MAP_DIRS:
        if not path.exists():
            path = folder / f"{name}.json"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in MAP_DIR.glob("*.json")))
        raise MapError(f"no map named {name!r}; maps: {known}")
    return json.loads(path.read_text(encoding="utf-8"))


TURNED = "~"  # a map name ending so is the map laid turned half round (D1: the east map)


def _turned(data: dict) -> dict:
    """The map's data turned half round (180 degrees): column c row r becomes column
    ``width - 1 - c`` row ``height - 1 - r``. With an even width every even column becomes an odd
    one, which is what keeps every hex's six neighbours its neighbours on the odd-q grid."""
    width, height = data["width"], data["height"]

    def turn(h):
        if not (isinstance(h, str) and len(h) == 4 and h.isdigit()):
            return h                                    # _shift names the fault
        col, row = col_row(h)
        return hex_id(width - 1 - col, height - 1 - row)

    def turn_side(text):
        a, _, b = text.partition("|")
        return f"{turn(a)}|{turn(b)}"

    out = dict(data)
    out["terrain"] = [row[::-1] for row in reversed(data["terrain"])]
    for key in ("coast", "shoals", "henges"):
        if key in data:
            out[key] = [turn(h) for h in data[key]]
    for key in ("names", "cities"):
        if key in data:
            out[key] = {turn(h): v for h, v in data[key].items()}
    for key in ("bridges", "walls", "gates", "waterfalls"):
        if key in data:
            out[key] = [turn_side(s) for s in data[key]]
    if "rivers" in data:
        out["rivers"] = [{**r, "sides": [turn_side(s) for s in r.get("sides", [])],
                          "course": [turn(h) for h in r.get("course", [])]} for r in data["rivers"]]
    if "roads" in data:
        out["roads"] = [[turn(h) for h in road] for road in data["roads"]]
    return out


def _shift(hex_: str, dcol: int, name: str, data: dict) -> str:
    """A map's local hex id as a board hex id, checked against the map's grid."""
    if not (isinstance(hex_, str) and len(hex_) == 4 and hex_.isdigit()):
        raise MapError(f"map {name}: {hex_!r} is no hex id CCRR")
    col, row = col_row(hex_)
    if not (0 <= col < data["width"] and 0 <= row < data["height"]):
        raise MapError(f"map {name}: hex {hex_} is off the {data['width']}x{data['height']} grid")
    return hex_id(col + dcol, row)


def _shift_side(text: str, dcol: int, name: str, data: dict) -> str:
    a, _, b = text.partition("|")
    a, b = _shift(a, dcol, name, data), _shift(b, dcol, name, data)
    if b not in neighbours_on_grid(a):
        raise MapError(f"map {name}: {text} names two hexes that are not neighbours")
    return side(a, b)


def _add_map(board: Board, index: int, name: str) -> None:
    """Lay map ``name`` as the board's ``index``-th map (columns ``index * width`` on)."""
    data = _load(name.removesuffix(TURNED))
    if name.endswith(TURNED):
        data = _turned(data)
    if data["width"] % 2:
        raise MapError(f"map {name}: width must be even so that maps join")
    if board.width and (data["width"], data["height"]) != (board.width, board.height):
        raise MapError(f"map {name}: every map of a board must have the same size")
    board.width, board.height = data["width"], data["height"]
    dcol = index * data["width"]
    rows = data["terrain"]
    if len(rows) != data["height"] or any(len(r) != data["width"] for r in rows):
        raise MapError(f"map {name}: terrain must be {data['height']} rows of {data['width']} letters")
    for row, letters in enumerate(rows):
        for col, letter in enumerate(letters):
            if letter not in TERRAIN:
                raise MapError(f"map {name}: unknown terrain letter {letter!r} at {hex_id(col, row)}")
            h = hex_id(col + dcol, row)
            board.terrain[h], board.map_of[h] = TERRAIN[letter], index
    shift = lambda h: _shift(h, dcol, name, data)  # noqa: E731
    shift_side = lambda s: _shift_side(s, dcol, name, data)  # noqa: E731
    board.coast |= {shift(h) for h in data.get("coast", [])}
    board.shoals |= {shift(h) for h in data.get("shoals", [])}
    board.henges |= {shift(h) for h in data.get("henges", [])}
    for h, place in data.get("names", {}).items():
        board.names[shift(h)] = place
    for h, city in data.get("cities", {}).items():
        board.cities[shift(h)] = City(shift(h), city["name"], int(city["gold"]), name)
    for river in data.get("rivers", []):
        board.rivers |= {shift_side(s) for s in river.get("sides", [])}
        course = [shift(h) for h in river.get("course", [])]
        for a, b in zip(course, course[1:]):
            if b not in neighbours_on_grid(a):
                raise MapError(f"map {name}: river course steps from {a} to {b}, not neighbours")
            board.river_course.setdefault(a, set()).add(b)
            board.river_course.setdefault(b, set()).add(a)
    board.bridges |= {shift_side(s) for s in data.get("bridges", [])}
    board.walls |= {shift_side(s) for s in data.get("walls", [])}
    board.gates |= {shift_side(s) for s in data.get("gates", [])}
    board.waterfalls |= {shift_side(s) for s in data.get("waterfalls", [])}
    for road in data.get("roads", []):
        path = [shift(h) for h in road]
        for a, b in zip(path, path[1:]):
            if b not in neighbours_on_grid(a):
                raise MapError(f"map {name}: road steps from {a} to {b}, not neighbours")
            board.roads.add(side(a, b))
    for road in data.get("roads", []):
        for end in (road[0], road[-1]):
            col, _ = col_row(end)
            if col in (0, data["width"] - 1):
                board.road_ends.add(shift(end))
    board.titles += (data.get("title", name),)


def _check(board: Board) -> None:
    """The facts every board must hold (3.2's ten gold a map; water and land where needed)."""
    for index, name in enumerate(board.maps):
        gold = sum(c.gold for c in board.cities.values() if c.map == name and
                   board.map_of[c.hex] == index)
        if gold != 10:
            raise MapError(f"map {name}: its cities are worth {gold} gold, 3.2 says 10")
    for c in board.cities.values():
        if not 1 <= c.gold <= 3:
            raise MapError(f"city {c.name}: worth {c.gold}; 3.2 has cities of 1, 2 and 3 gold")
        if board.terrain[c.hex] in ("water", "mountain"):
            raise MapError(f"city {c.name} stands on {board.terrain[c.hex]}")
    for s in board.bridges:
        if s not in board.rivers or s not in board.roads:
            raise MapError(f"bridge {s} must be a river hexside a road crosses")
    for s in board.gates:
        if s not in board.walls:
            raise MapError(f"gate {s} must be a wall hexside")
    for h in board.coast | board.shoals:
        if h in board.coast and board.terrain[h] == "water":
            raise MapError(f"coast hex {h} needs its land terrain as its letter")
        if h in board.shoals and board.terrain[h] != "water":
            raise MapError(f"shoal {h} must be a water hex")


@lru_cache(maxsize=64)
def board_of(maps: tuple[str, ...]) -> Board:
    """The board of these maps, left to right (built once, then shared read-only)."""
    board = Board(maps=tuple(maps))
    for index, name in enumerate(maps):
        _add_map(board, index, name)
    for end in board.road_ends:                         # D28: roads meet across a seam
        for other in board.neighbours(end):
            if other in board.road_ends and board.map_of[other] != board.map_of[end]:
                board.roads.add(side(end, other))
    _check(board)
    return board


def map_names() -> list[str]:
    """Every map shipped in data/maps, by name."""
    return sorted(p.stem for p in MAP_DIR.glob("*.json"))
