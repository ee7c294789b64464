"""Wizard Kings movement (sections 3, 4): where one block may go in the move phase.

A move is one block from its hex to a destination, found by a search over paths: land blocks
follow the terrain effects (3.1, 4.3), roads (3.3: +1 hex and no terrain stops on a move made
wholly along a road), rivers and bridges (3.16), walls and gates (D3), stop on entering an enemy
hex (4.2, 4.4), stay pinned (4.7), and keep the stacking (4.5) and hexside limits (4.6). Flyers
(2.37) ignore terrain, enemy hexes and hexside limits, but not stacking, and never end on water.
Water blocks (2.38) sail seas, lakes, coasts and rivers; land blocks cross water only by water
transport (4.8) between friendly ports, within each port's capacity (4.81).
"""
from __future__ import annotations

from functools import lru_cache

from .board import Board, neighbours_on_grid, side
from .content import kind_of
from .state import blocks_at, board, contested, is_enemy

STOP_TERRAIN = ("desert", "forest", "swamp")   # 3.12-3.14, 4.3


def open_water(b: Board, h: str) -> bool:
    """A sea or lake hex water blocks may enter (3.17; not a shoal, 3.19)."""
    return b.terrain[h] == "water" and h not in b.shoals


def wet(b: Board, h: str) -> bool:
    """2.38: where a water block may stand: open water, a coast hex (3.18), a river's course."""
    return open_water(b, h) or h in b.coast or h in b.river_course


def water_step(b: Board, a: str, n: str) -> bool:
    """2.38, 3.16, 3.19: may a water block sail from ``a`` into ``n``? Over open water, between
    open water and a coast, between two coast hexes sharing open water, along a river's course
    (never over a waterfall); never into a shoal or a hex of land only."""
    if n in b.shoals or side(a, n) in b.waterfalls:
        return False
    if n in b.river_course.get(a, ()):
        return True
    sea_a, sea_n = open_water(b, a), open_water(b, n)
    if sea_a and (sea_n or n in b.coast) or sea_n and a in b.coast:
        return True
    if a in b.coast and n in b.coast:
        return any(open_water(b, x) for x in b.neighbours(a) if x in b.neighbours(n))
    return False


def can_step(b: Board, kind, a: str, n: str) -> bool:
    """One step of a block that is not flying: by water for a water block, else by land."""
    return water_step(b, a, n) if "water" in kind.traits else step_allowed(b, kind, a, n)


def can_stand(b: Board, kind, h: str) -> bool:
    """Where a block may end a move: water blocks on wet hexes, the others on land."""
    return wet(b, h) if "water" in kind.traits else b.land(h)


def is_port(b: Board, h: str) -> bool:
    """3.2: a city by the sea or a river is a port."""
    return h in b.cities and (h in b.coast or h in b.river_course
                              or any(open_water(b, n) for n in b.neighbours(h)))


def ports_of(b: Board) -> tuple[str, ...]:
    """The board's ports (``is_port``), sorted: a fact of the board, found once a board
    (``Board._ports``); the move phase begins with the friendly ones (4.8)."""
    if b._ports is None:
        b._ports = tuple(h for h in sorted(b.cities) if is_port(b, h))
    return b._ports


def step_allowed(b: Board, kind, a: str, n: str) -> bool:
    """May a land block of ``kind`` cross from ``a`` into ``n`` (terrain, river, wall)?"""
    terrain = b.terrain[n]
    s = side(a, n)
    if terrain == "water":
        return False                                    # 2.3, 3.17: water only by transport
    if terrain == "mountain" and s not in b.roads and not kind.native("mountain") \
            and "hero" not in kind.traits:
        return False                                    # 3.15, 2.32, 2.8
    if s in b.rivers and s not in b.bridges and not kind.native("swamp"):
        return False                                    # 3.16, 2.34 (amphibians cross)
    if s in b.walls and s not in b.gates:
        return False                                    # D3: a wall, crossed at its gates
    return True


def land_steps(b: Board, kind) -> dict[str, tuple]:
    """For a block that does not fly: every step it may take from each hex, as (to, hexside,
    along a road that helps it, stops it), with the board's facts that hold whatever the state:
    the terrain and hexsides (``can_step``; 2.34: an amphibian follows a river's course over any
    land but a waterfall), roads (3.3: no help to water blocks), the stop terrains (4.3). The
    search over paths (``destinations``) runs once a block and a state, many times a move;
    these facts depend only on the board and the kind's traits, so they are worked out once."""
    profile = _PROFILES.get(kind.traits)
    if profile is None:                                 # what the steps depend on: traits
        profile = _PROFILES[kind.traits] = (
            "water" in kind.traits, kind.native("swamp"), kind.native("mountain"),
            "hero" in kind.traits, *(kind.native(t) for t in STOP_TERRAIN))
    table = b._steps.get(profile)
    if table is None:
        table = b._steps[profile] = {h: _steps_from(b, kind, h, profile[0]) for h in b.terrain}
    return table


_PROFILES: dict[frozenset, tuple] = {}  # land_steps' profile by a kind's traits (asked a step)


def _steps_from(b: Board, kind, h: str, water: bool) -> tuple:
    """``land_steps`` from one hex."""
    steps = []
    for n in b.neighbours(h):
        s = side(h, n)
        river = (kind.native("swamp") and n in b.river_course.get(h, ())
                 and s not in b.waterfalls and b.land(n))
        if not river and not can_step(b, kind, h, n):
            continue
        stops = not water and not river and _stops_in(kind, b.terrain[n])
        steps.append((n, s, s in b.roads and not water, stops))
    return tuple(steps)


def _stops_in(kind, terrain: str) -> bool:
    """3.12-3.14: land blocks stop on entering desert, forest or swamp, natives excepted."""
    return terrain in STOP_TERRAIN and not kind.native(terrain)


def room_to_stand(b: Board, water: bool) -> dict[str, int]:
    """Per hex, the blocks of one side it holds (``stack_limit``, 4.5) where a block may end a
    move there (``can_stand``: water blocks on wet hexes, the others on land), else 0: the two
    questions ``destinations`` asks of every hex it reaches, answered once a board."""
    table = b._room.get(water)
    if table is None:
        table = b._room[water] = {h: b.stack_limit(h) if (wet(b, h) if water else b.land(h)) else 0
                                  for h in b.terrain}
    return table


def side_of(state: dict, hex_: str, seat: int) -> str | None:
    """The side (attack/defend) ``seat`` fights on in the battle to come at ``hex_``, if any."""
    fight = state["fights"].get(hex_)
    return None if fight is None else fight["sides"].get(str(seat))


def side_count(state: dict, hex_: str, seat: int, side_: str | None) -> int:
    """Blocks on ``seat``'s side in ``hex_`` (its own if no battle is coming there)."""
    fight = state["fights"].get(hex_)
    if fight is None or side_ is None:
        return len(blocks_at(state, hex_, seat))
    return sum(1 for bid in state["at"].get(hex_, [])
               if fight["sides"].get(str(state["blocks"][bid]["owner"])) == side_)


def pinned(state: dict, bid: str) -> tuple[bool, set[str]]:
    """4.7: is the block pinned, and the hexsides attackers came through (a defender that may
    move must not leave through them). The defender keeps as many blocks as attackers came."""
    block = state["blocks"][bid]
    fight = state["fights"].get(block["hex"])
    if fight is None or fight["sides"].get(str(block["owner"])) != "defend":
        return False, set()
    here = block["hex"]
    attackers = side_count(state, here, block["owner"], "attack")
    defenders = side_count(state, here, block["owner"], "defend")
    return defenders - 1 < attackers, attack_hexsides(fight)


def attack_hexsides(fight: dict) -> set[str]:
    """The hexsides blocks of the attacking side entered a battle hex through (4.7, 5.4)."""
    return {hs for hs, seats in fight["entered"].items()
            if any(fight["sides"].get(str(s)) == "attack" for s in seats)}


def _can_end(state: dict, seat: int, kind, via: str, to: str, b: Board, options: dict) -> list:
    """The ways (side choices) a block may end its move in ``to`` coming from ``via``."""
    if not can_stand(b, kind, to):
        return []
    fight = state["fights"].get(to)
    enemy_held = contested(state, to) or any(state["blocks"][x]["owner"] != seat
                                             for x in state["at"].get(to, []))
    if fight is not None and str(seat) not in fight["sides"]:
        sides = ["attack", "defend"]                    # 4.9: a third player joins a side
    elif fight is not None:
        sides = [fight["sides"][str(seat)]]
    elif enemy_held:
        sides = ["attack"]
    else:
        sides = [None]
    ok = []
    for side_ in sides:
        if side_count(state, to, seat, side_) + 1 > b.stack_limit(to):
            continue                                    # 4.5
        if enemy_held and not kind.flyer and "hero" not in kind.traits:   # 4.6, 2.8
            crossed = 0 if fight is None else fight["crossings"].get(side_, {}).get(side(via, to), 0)
            if crossed + 1 > hexside_limit(b, kind, via, to, options):
                continue                                # 4.6, 4.9: allies share the limit
        ok.append(side_)
    return ok


def hexside_limit(b: Board, kind, a: str, n: str, options: dict) -> int:
    """4.6: a water block crosses a water hexside two at a time, a coastal one (into a coast
    hex) one at a time; a land block as the board says (D2)."""
    if "water" in kind.traits:
        return 2 if open_water(b, a) and open_water(b, n) else 1
    return b.hexside_limit(a, n, forest_limit=options["forest_border"])


def transport(state: dict, bid: str) -> list[dict]:
    """4.8, 4.81: a land block in a friendly port sails through at most four water hexes (open
    water or a river's course, no enemy block there, no shoal) to a port that was friendly when
    the move phase began; no battle at either end; each port's capacity is its gold a turn."""
    block = state["blocks"][bid]
    kind = kind_of(block["kind"])
    b = board(state)
    start, seat = block["hex"], block["owner"]
    if (kind.flyer or kind.castle or "water" in kind.traits or not is_port(b, start)
            or start in state["fights"] or contested(state, start)
            or _port_left(state, b, start) < 1):
        return []
    ports = set(state["ports"].get(str(seat), []))

    def sailable(h):
        return ((open_water(b, h) or h in b.river_course)
                and not any(state["blocks"][x]["owner"] != seat for x in state["at"].get(h, [])))

    def sail(h, n):
        """One hex further by water: over open water, or along a river's course; never over a
        waterfall (3.16)."""
        if side(h, n) in b.waterfalls:
            return False
        return n in b.river_course.get(h, ()) or open_water(b, h) and open_water(b, n) \
            or open_water(b, n) and h in b.river_course
    frontier = [h for h in b.neighbours(start) if sailable(h)
                and (open_water(b, h) or h in b.river_course.get(start, ()))]
    seen, ends = set(frontier), set()
    for depth in range(4):                              # 4.8: at most four water hexes
        nxt = []
        for h in frontier:
            for n in b.neighbours(h):
                if n in ports and n != start and (open_water(b, h) or n in b.river_course.get(h, ())):
                    ends.add(n)
                if depth < 3 and n not in seen and sailable(n) and sail(h, n):
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    result = []
    for to in sorted(ends):
        if (to in state["fights"] or contested(state, to) or _port_left(state, b, to) < 1
                or len(blocks_at(state, to, seat)) + 1 > b.stack_limit(to)
                or any(state["blocks"][x]["owner"] != seat for x in state["at"].get(to, []))):
            continue
        result.append({"to": to, "by": "water"})
    return result


def _port_left(state: dict, b: Board, h: str) -> int:
    """4.81: blocks that may still sail from or to port ``h`` this turn: its gold, one more
    with a haven of the port's holder there (2.39)."""
    haven = any("haven" in kind_of(state["blocks"][x]["kind"]).traits
                for x in state["at"].get(h, []))
    return b.cities[h].gold + (1 if haven else 0) - state["port_use"].get(h, 0)


# The memory the kept routes may take (``_routes``; about 1.3 kB a route, and a search bot's
# game at 200 ms a move keeps some 2,400): a board keeps at most _ROUTES_KEPT routes, then
# starts afresh, and at most _ROUTED_BOARDS boards keep routes at once (a worker plays matches
# on many boards), the one that began keeping first forgetting its own: 100 MB at the most.
_ROUTES_KEPT = 20_000
_ROUTED_BOARDS = 4
_routed: list[Board] = []  # the boards keeping routes, the first to begin first


def _routes(b: Board, kind, seat: int, start: str, barred: set[str], hostile: Hostile) -> tuple:
    """The hexes a block of ``kind`` in ``start`` may end its move in, whatever is there, as
    (the hex it enters from, the hex, hostile?): every hostile hex by each hex it may be entered
    from (4.6, 4.7: the hexside entered matters), every other hex once. Stacking and battles
    there are the caller's (``destinations``).

    The routes depend on nothing but the board, the kind, the seat, the start, the hexsides the
    block may not leave by (4.7) and which hexes in its reach are hostile; by these they are
    kept on the board (``Board._routes``): a search bot's playouts ask the same blocks in the
    same places thousands of times a move, where the search over paths was a third of a
    playout's time."""
    # the search goes kind.move hexes, one more along a road (3.3)
    key = (kind.key, seat, start, tuple(sorted(barred)), hostile.near(start, kind.move + 1))
    routes = b._routes
    found = routes.get(key)
    if found is None:
        if not routes:
            _keeps_routes(b)
        elif len(routes) >= _ROUTES_KEPT:
            routes.clear()
        found = routes[key] = _search_routes(b, kind, start, barred, hostile)
    return found


def _keeps_routes(b: Board) -> None:
    """``b`` begins keeping routes: the board that began first forgets its own where more
    than _ROUTED_BOARDS would keep them (boards compared by identity)."""
    if any(other is b for other in _routed):
        return
    _routed.append(b)
    while len(_routed) > _ROUTED_BOARDS:
        _routed.pop(0)._routes.clear()


def _search_routes(b: Board, kind, start: str, barred: set[str], hostile: Hostile) -> tuple:
    """``_routes``, searched: breadth first over the board (``_offers``), each hex offered
    once, a hostile hex once by each hex it is entered from."""
    offered: dict[tuple, tuple] = {}
    for via, to, enemy in _offers(b, kind, start, barred, hostile):
        memo = (via if enemy else None, to)
        if memo not in offered:
            offered[memo] = (via, to, enemy)
    # in the order of the moves listed: by hex, then by the hex entered from (hostile hexes)
    return tuple(sorted(offered.values(), key=lambda r: (r[1], r[0] if r[2] else "")))


def _offers(b: Board, kind, start: str, barred: set[str], hostile: Hostile):
    """The search over paths of ``_search_routes``, breadth first: yields (the hex entered
    from, the hex, hostile?) for every step a path may take into a hex it may end in, as it
    finds them (a hex may come more than once). A battle to come (``contested``: blocks of
    two seats) is an enemy hex to every seat: a block entering it stops too. ``reaches`` stops
    at the first offer of its hex."""
    if kind.flyer:
        frontier, seen = [start], {start}
        for _ in range(kind.move):
            nxt = []
            for h in frontier:
                for n in b.neighbours(h):
                    if n == start or (h == start and side(h, n) in barred):
                        continue
                    yield h, n, hostile(n)
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
            frontier = nxt
    else:
        # breadth first over (hex, wholly on road so far, may still leave the road): the first
        # visit of such a state is the one with the fewest hexes used
        steps = land_steps(b, kind)
        known = hostile.hexes                           # hostile(n), without a call if known
        frontier = [(start, True, True)]
        seen = {(start, True, True)}
        limit = kind.move + 1
        for used in range(limit):
            nxt = []
            for h, road, free in frontier:
                for n, s, road_side, stops in steps[h]:
                    if n == start or (h == start and s in barred):
                        continue
                    on_road = road and road_side
                    if not on_road and (not free or used + 1 > kind.move):
                        continue
                    enemy = known.get(n)
                    if enemy is None:
                        enemy = hostile(n)
                    yield h, n, enemy
                    if enemy:
                        continue                        # 4.2: stop and fight
                    if stops:
                        if not on_road:
                            continue                    # 4.3: stop in desert, forest, swamp
                        key = (n, True, False)          # 3.3: no stop while wholly on road
                    else:
                        key = (n, on_road, free)
                    if key not in seen:
                        seen.add(key)
                        nxt.append(key)
            frontier = nxt


class Hostile:
    """Which hexes are hostile to one seat in one state (an enemy hex or a battle to come, 4.2,
    4.4: ``is_enemy``), found as asked and shared by the seat's blocks (rules.move_options):
    ``hexes`` hex by hex, ``near`` all of them within a distance of a hex."""

    __slots__ = ("state", "seat", "hexes", "_all")

    def __init__(self, state: dict, seat: int):
        self.state, self.seat, self.hexes = state, seat, {}
        self._all: list[str] | None = None

    def __call__(self, h: str) -> bool:
        found = self.hexes.get(h)
        if found is None:
            found = self.hexes[h] = is_enemy(self.state, h, self.seat)
        return found

    def near(self, start: str, reach: int) -> tuple[str, ...]:
        """The hostile hexes at most ``reach`` hexes from ``start``, sorted."""
        if self._all is None:
            state = self.state
            found = {h for h, ids in state["at"].items() if ids} | set(state["city_owner"])
            self._all = sorted(h for h in found if self(h))
        disc = _within(start, reach)
        return tuple(h for h in self._all if h in disc)


@lru_cache(maxsize=4096)  # a board's hexes by the reaches of its kinds (up to 5 kB each)
def _within(start: str, reach: int) -> frozenset[str]:
    """The hex ids at most ``reach`` hexes from ``start`` (on the unbounded grid)."""
    found, frontier = {start}, [start]
    for _ in range(reach):
        frontier = [n for h in frontier for n in neighbours_on_grid(h) if n not in found]
        found.update(frontier)
    return frozenset(found)


def steps_out(state: dict, seat: int) -> bool | None:
    """A quick answer to "has ``seat`` a move or a spell?", or None. False: every block of
    the seat has moved or cast a spell this turn (``destinations`` and a wizard's move-phase
    spells, rules._move_spells, are then empty for each). True: one of its blocks that may move now
    (not moved, no spell cast, not pinned, 4.7) may take one step, by a hexside it may leave
    by, into a hex that is not hostile (``is_enemy``, 4.4), has no battle to come and has room
    for it (``room_to_stand``: 4.5's stacking, land or water). Such a step is the first step of
    every search over paths (``_search_routes`` offers it before it looks further) and
    ``destinations`` lists it, so True means ``destinations`` of that block is not empty; False
    says nothing (a longer path, a battle, a sea voyage may still be there). rules._can_move
    asks it after every move before it lists a seat's blocks (the listing was most of a fold)."""
    b = board(state)
    at, fights = state["at"], state["fights"]
    spent = True
    for bid, block in state["blocks"].items():
        if block["owner"] != seat or block["moved"] or block["cast"]:
            continue
        spent = False
        if block["hex"] is None:
            continue
        kind = kind_of(block["kind"])
        if kind.move == 0:
            continue
        is_pinned, barred = pinned(state, bid)
        if is_pinned:
            continue
        start = block["hex"]
        room = room_to_stand(b, "water" in kind.traits)
        if kind.flyer:
            steps = [(n, side(start, n)) for n in b.neighbours(start)]
        else:
            steps = [(n, s) for n, s, _, _ in land_steps(b, kind)[start]]
        for n, s in steps:
            if (s not in barred and n not in fights and len(at.get(n, ())) < room[n]
                    and not is_enemy(state, n, seat)):
                return True
    return False if spent else None


def destinations(state: dict, bid: str, hostile: Hostile | None = None) -> list[dict]:
    """Every legal move of block ``bid`` now: [{"to", "via", "side"}] ("via" and "side" only
    where the destination is enemy-held: the hexside entered and the side joined matter).
    ``hostile``: which hexes are hostile to the block's owner, shared by the caller between
    the blocks of one seat in one state (rules.move_options)."""
    block = state["blocks"][bid]
    kind = kind_of(block["kind"])
    if block["moved"] or kind.move == 0 or block["cast"]:
        return []
    is_pinned, barred = pinned(state, bid)
    if is_pinned:
        return []
    b = board(state)
    seat, start = block["owner"], block["hex"]
    moves: list[dict] = []  # in the routes' order, each hex's sides in order: sorted
    at, fights = state["at"], state["fights"]
    room = room_to_stand(b, "water" in kind.traits)
    hostile = Hostile(state, seat) if hostile is None else hostile
    for via, to, enemy in _routes(b, kind, seat, start, barred, hostile):
        if not enemy and to not in fights:              # a hex of ours or nobody's
            if len(at.get(to, ())) < room[to]:          # can_stand, and 4.5's stacking
                moves.append({"to": to})
            continue
        for side_ in _can_end(state, seat, kind, via, to, b, state["options"]):
            move = {"to": to}
            if enemy:
                move["via"] = via
            if side_ is not None and fights.get(to) is not None \
                    and str(seat) not in fights[to]["sides"]:
                move["side"] = side_
            moves.append(move)
    return moves + transport(state, bid)


def plain_move_listed(state: dict, seat: int, bid, to) -> bool:
    """Is {"type": "move", "block": bid, "to": to} surely among ``destinations(state, bid)``
    of ``seat``'s block, asked of that one move rather than listed? True only where the listing
    would offer it as a plain move: ``bid`` a block of ``seat`` on the board that may move (not
    moved, no spell cast, not pinned, 4.7), ``to`` a hex of its own or nobody's (not hostile,
    4.4) with no battle to come and room to stand in (4.5, land or water), and the search over
    paths (``_offers``, the one the listing makes) reaching it. False says nothing: the
    listing decides (hostile hexes, battles, a sea voyage, 4.8, are left to it). A validation
    asks this of every move (listing the block's destinations was most of its time)."""
    blocks = state["blocks"]
    block = blocks.get(bid) if type(bid) is str else None
    if (block is None or block["owner"] != seat or block["moved"] or block["cast"]
            or block["hex"] is None or type(to) is not str or to == block["hex"]):
        return False
    kind = kind_of(block["kind"])
    b = board(state)
    if kind.move == 0 or to not in b.terrain or to in state["fights"]:
        return False
    if len(state["at"].get(to, ())) >= room_to_stand(b, "water" in kind.traits)[to]:
        return False
    is_pinned, barred = pinned(state, bid)
    if is_pinned:
        return False
    hostile = Hostile(state, seat)
    if hostile(to):
        return False
    # ``_offers``' first ring, asked without the search (about a third of a validation's
    # moves): with no hexside barred it offers every neighbour a flyer may fly to and every
    # land step from the start (its kind moves at least one hex), and an offer of ``to`` is
    # all that is asked
    start = block["hex"]
    if not barred and (to in b.neighbours(start) if kind.flyer else
                       any(n == to for n, _, _, _ in land_steps(b, kind)[start])):
        return True
    return any(n == to for _, n, _ in _offers(b, kind, start, barred, hostile))
