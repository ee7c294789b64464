"""Wizard Kings movement (sections 3, 4): where one block may go in the move phase.

A move is one block from its hex to a destination, found by a search over paths: land blocks
follow the terrain effects (3.1, 4.3), roads (3.3: +1 hex and no terrain stops on a move made
wholly along a road), rivers and bridges (3.16), walls and gates (D3), stop on entering an enemy
hex (4.2, 4.4), stay pinned (4.7), and keep the stacking (4.5) and hexside limits (4.6). Flyers
(2.37) ignore terrain, enemy hexes and hexside limits, but not stacking, and never end on water.
"""
from __future__ import annotations

from .board import Board, side
from .content import kind_of
from .state import blocks_at, board, contested, is_enemy

STOP_TERRAIN = ("desert", "forest", "swamp")   # 3.12-3.14, 4.3


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


def _stops_in(kind, terrain: str) -> bool:
    """3.12-3.14: land blocks stop on entering desert, forest or swamp, natives excepted."""
    return terrain in STOP_TERRAIN and not kind.native(terrain)


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
    if not b.land(to):
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
        if enemy_held and not kind.flyer:
            crossed = 0 if fight is None else fight["crossings"].get(side_, {}).get(side(via, to), 0)
            if crossed + 1 > b.hexside_limit(via, to, forest_limit=options["forest_border"]):
                continue                                # 4.6, 4.9: allies share the limit
        ok.append(side_)
    return ok


def destinations(state: dict, bid: str) -> list[dict]:
    """Every legal move of block ``bid`` now: [{"to", "via", "side"}] ("via" and "side" only
    where the destination is enemy-held: the hexside entered and the side joined matter)."""
    block = state["blocks"][bid]
    kind = kind_of(block["kind"])
    if block["moved"] or kind.move == 0 or block["cast"]:
        return []
    is_pinned, barred = pinned(state, bid)
    if is_pinned:
        return []
    b = board(state)
    seat, start = block["owner"], block["hex"]
    found: dict[tuple, dict] = {}
    offered: set[tuple[str, str]] = set()

    def offer(via: str, to: str):
        if (via, to) in offered:
            return
        offered.add((via, to))
        enemy = is_enemy(state, to, seat) or contested(state, to)
        for side_ in _can_end(state, seat, kind, via, to, b, state["options"]):
            key = (to, via if enemy else None, side_)
            move = {"to": to}
            if enemy:
                move["via"] = via
            if side_ is not None and state["fights"].get(to) is not None \
                    and str(seat) not in state["fights"][to]["sides"]:
                move["side"] = side_
            found[key] = move

    if kind.flyer:
        frontier, seen = [start], {start: 0}
        for used in range(kind.move):
            nxt = []
            for h in frontier:
                for n in b.neighbours(h):
                    if h == start and side(h, n) in barred:
                        continue
                    if n == start:
                        continue
                    offer(h, n)
                    if n not in seen:
                        seen[n] = used + 1
                        nxt.append(n)
            frontier = nxt
    else:
        # states: (hex, used, wholly on road so far, may still leave the road)
        stack = [(start, 0, True, True)]
        seen = set()
        while stack:
            h, used, road, free = stack.pop()
            for n in b.neighbours(h):
                if n == start or (h == start and side(h, n) in barred):
                    continue
                if not step_allowed(b, kind, h, n):
                    continue
                on_road = road and side(h, n) in b.roads
                if not on_road and not free:
                    continue
                if used + 1 > kind.move + (1 if on_road else 0):
                    continue
                offer(h, n)
                if is_enemy(state, n, seat) or contested(state, n):
                    continue                            # 4.2: stop and fight
                if _stops_in(kind, b.terrain[n]):
                    if not on_road:
                        continue                        # 4.3: stop in desert, forest, swamp
                    key = (n, used + 1, True, False)    # 3.3: no stop while wholly on road
                else:
                    key = (n, used + 1, on_road, free)
                if key not in seen:
                    seen.add(key)
                    stack.append(key)
    return [found[k] for k in sorted(found, key=lambda k: (k[0], k[1] or "", k[2] or ""))]
