"""Queries on a Wizard Kings state: who holds a hex, what is friendly or enemy (4.4), what an army
has left to build. The state is plain JSON (a dict); nothing here changes it.

State keys (see rules.new_state): ``blocks`` {id: {owner, kind, steps, hex, known, moved, cast}},
``city_owner`` {hex: seat or None} (the map's owner at the start, 4.4), ``gold`` {hex: gold on
the city's marker, 6.3}, ``fights`` {hex: a battle the move phase started}, ``dead`` [[wizard
kinds lost for good, 2.24] per seat]; ``edition`` (only in the states of an older edition,
editions.py) the version of the rules the match plays by.
"""
from __future__ import annotations

from .board import Board, board_of
from .content import armies, artefact_of, extras, kind_of


RULES_VERSION = 4   # SPEC.version: the rules a state without ``edition`` plays by


def rules_version(state: dict) -> int:
    """The version of the rules ``state`` plays by: an older edition marks its states
    (editions.py, for the matches stored under it); the current rules' states carry no mark."""
    return state.get("edition", RULES_VERSION)


def board(state: dict) -> Board:
    """The board of the match's maps."""
    return board_of(tuple(state["maps"]))


def occupants(state: dict, hex_: str) -> dict[int, list[str]]:
    """The blocks in ``hex_`` by owner, ids sorted."""
    result: dict[int, list[str]] = {}
    for bid in state["at"].get(hex_, []):
        result.setdefault(state["blocks"][bid]["owner"], []).append(bid)
    return result


def blocks_at(state: dict, hex_: str, seat: int | None = None) -> list[str]:
    """The ids of the blocks in ``hex_`` (of ``seat`` only, if given)."""
    ids = state["at"].get(hex_, [])
    if seat is None:
        return list(ids)
    return [b for b in ids if state["blocks"][b]["owner"] == seat]


def controller(state: dict, hex_: str) -> int | None:
    """4.4 and footnote 7: the one seat whose blocks hold the hex; an empty city belongs to the
    seat whose map it lies on (None once that seat has left the match); else nobody."""
    ids = state["at"].get(hex_)
    if not ids:
        return state["city_owner"].get(hex_)
    blocks = state["blocks"]
    owner = blocks[ids[0]]["owner"]
    return owner if all(blocks[b]["owner"] == owner for b in ids) else None


def is_enemy(state: dict, hex_: str, seat: int) -> bool:
    """4.4: a hex holding another seat's blocks, or another seat's empty city."""
    ids = state["at"].get(hex_)
    if ids:
        blocks = state["blocks"]
        return any(blocks[b]["owner"] != seat for b in ids)
    owner = state["city_owner"].get(hex_)
    return owner is not None and owner != seat


def is_friendly(state: dict, hex_: str, seat: int) -> bool:
    """4.4: a hex only ``seat``'s blocks hold, or ``seat``'s own empty city."""
    return controller(state, hex_) == seat


def contested(state: dict, hex_: str) -> bool:
    """A hex where blocks of two or more seats stand: a battle to come or under way."""
    ids = state["at"].get(hex_)
    if not ids:
        return False
    blocks = state["blocks"]
    owner = blocks[ids[0]]["owner"]
    return any(blocks[b]["owner"] != owner for b in ids)


def city_gold(state: dict, seat: int) -> int:
    """1.23: the gold of the cities ``seat`` controls."""
    cities = board(state).cities
    return sum(c.gold for h, c in cities.items() if controller(state, h) == seat)


def pool(state: dict, seat: int, blocks: dict | None = None) -> dict[str, int]:
    """The blocks ``seat``'s army may still put on the board, by kind: its copies less those on
    the board (in ``blocks``, default the state's) and its wizards lost for good (2.24)."""
    army = state["armies"][seat]
    if army is None:
        return {}
    blocks = state["blocks"] if blocks is None else blocks
    from .scenarios import base_pool                   # 7.1, 7.4 (scenarios imports this module)
    left = base_pool(state, seat)
    if left is None:
        left = {k.key: k.count for k in armies()[army].kinds}
    if state["options"].get("expansion"):              # footnote 3: Heroes & Treasures
        more = extras()
        left.update({k.key: k.count for k in more.expansion.get(army, ())})
        taken = {b["kind"] for b in state["blocks"].values() if b["owner"] != seat}
        left.update({k.key: 1 for k in more.chaos if k.key not in taken})
        left.update({k.key: k.count for k in more.treasure})   # 2.6, D30
    for b in blocks.values():
        if b["owner"] == seat and b["kind"] in left:
            left[b["kind"]] -= 1
    for kind in state["dead"][seat]:
        left[kind] = left.get(kind, 0) - 1
    return {k: n for k, n in left.items() if n > 0}


def artefacts_in_play(state: dict, blocks: dict | None = None) -> set[str]:
    """2.7: the artefacts on the board: carried by a block (of the state, and of ``blocks``, a
    draft's) or lying in a hex."""
    found = {b["artefact"]["key"] for b in state["blocks"].values() if b.get("artefact")}
    if blocks is not None:
        found |= {b["artefact"]["key"] for b in blocks.values() if b.get("artefact")}
    found |= {a["key"] for items in state.get("lying", {}).values() for a in items}
    return found


def artefact_pool(state: dict, seat: int, blocks: dict | None = None) -> list[str]:
    """2.7 (D32): the artefacts of ``seat``'s army not on the board (a destroyed one may be
    made again, as an eliminated block may be built again)."""
    army = state["armies"][seat]
    if not state["options"].get("expansion") or army is None:
        return []
    used = artefacts_in_play(state, blocks)
    return [a.key for a in extras().artefacts.get(army, ()) if a.key not in used]


def can_carry(kind) -> bool:
    """2.7: 'militunuo': any block but treasure carries an artefact (D33)."""
    return not kind.treasure


def captured(state: dict, blk: dict) -> bool:
    """Footnote 5: a block carries an artefact of another army's colours."""
    art = blk.get("artefact")
    return bool(art) and artefact_of(art["key"]).army != state["armies"][blk["owner"]]


def fire_number(state: dict, bid: str) -> int:
    """2.12, 2.31-2.35: a block's hit number, one more for a native in its home terrain (a city
    native in a city hex)."""
    block = state["blocks"][bid]
    kind = kind_of(block["kind"])
    b = board(state)
    home = home_terrain(state, block["hex"])
    bonus = 1 if kind.native(home) or block["hex"] in b.cities and kind.native("city") else 0
    if "lycanthrope" in kind.traits:
        bonus += extras().moon_fire.get(moon(state), 0)     # 2.5 (D26)
    return max(1, min(6, kind.fire + bonus)) if kind.fire else 0


def home_terrain(state: dict, hex_: str) -> str:
    """2.31-2.34 with D6: the terrain whose natives fight one better in ``hex_``. A pass is a
    mountain hex (D6, 3.15: "Ĉe montpasejo"), so mountain natives fight one better there, as
    2.32 says of "montaraj heksagonoj" (version 3; version 2 gave a pass no natives)."""
    terrain = board(state).terrain[hex_]
    if terrain == "pass" and rules_version(state) >= 3:
        return "mountain"
    return terrain


def moon(state: dict) -> str:
    """2.5 (D26): the moon's phase this turn, one phase a turn round the cycle."""
    phases = extras().moon
    return phases[(max(state["turn"], 1) - 1) % len(phases)]


def live_seats(state: dict) -> list[int]:
    """Seats still in the match (not forfeited), in seat order."""
    return [s for s in range(state["players"]) if s not in state["forfeited"]]


def place(state: dict, bid: str, hex_: str | None) -> None:
    """Move block ``bid`` to ``hex_`` (None: off the board) keeping the ``at`` index (mutates)."""
    block = state["blocks"][bid]
    old = block["hex"]
    if old is not None:
        state["at"][old].remove(bid)
        if not state["at"][old]:
            del state["at"][old]
    block["hex"] = hex_
    if hex_ is not None:
        state["at"].setdefault(hex_, []).append(bid)
        state["at"][hex_].sort()


def remove(state: dict, bid: str, *, killed: bool = True) -> None:
    """A block eliminated (5.4) or disbanded (6.5): off the board, back to its army's pool; a
    killed wizard is lost for good (2.24). Its artefact is destroyed with it (2.7), or with
    footnote 5's option lies in the hex for the victor to take (D35)."""
    block = state["blocks"][bid]
    art = block.get("artefact")
    if art and killed and block["hex"] is not None and state["options"].get("capture_artefacts"):
        lie(state, block["hex"], art)
    place(state, bid, None)
    del state["blocks"][bid]
    if killed and (kind_of(block["kind"]).wizard
                   or (state.get("scenario") and _lost_for_good(state))):
        state["dead"][block["owner"]].append(block["kind"])     # 2.24; 7.2: every block


def _lost_for_good(state: dict) -> bool:
    from .scenarios import lost_for_good               # scenarios imports this module
    return lost_for_good(state)


def lie(state: dict, hex_: str, art: dict) -> None:
    """An artefact left in ``hex_`` (abandoned, 2.7, or its carrier killed, footnote 5): public,
    until a block takes it (D35)."""
    items = state.setdefault("lying", {}).setdefault(hex_, [])
    items.append({"key": art["key"], "steps": art["steps"]})
    items.sort(key=lambda a: a["key"])
