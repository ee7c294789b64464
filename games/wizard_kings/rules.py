"""The flow of a Wizard Kings match: setup, then turns of initiative, movement, battles and
building (the four phases of "LUDOVICOJ"), until a victory condition (1.23) or the turn limit.

``phase`` is one of: deal (armies and maps drawn), recruit (1.22, simultaneous), ids (a shuffle
names the new blocks), initiative (4.1), move (4.2), battle (5.1), build (6.0), over.
``advance`` runs every automatic step until a seat must act or dice are due.
"""
from __future__ import annotations

import threading

from . import battle, build, scenarios
from .board import TURNED, board_of, distance
from .content import army_keys, kind_of, spell_of, armies
from .movement import Hostile, destinations, plain_move_listed, ports_of, steps_out
from .state import (blocks_at, board, city_gold, controller, is_friendly, live_seats, place,
                    remove)

CUSTOM_MAPS = ("10", "11", "12", "13", "14", "15", "16")
MAX_REROLLS = 20   # D10: after this many tied initiative rolls the lowest seat of the tie wins


def new_state(players: int, options: dict) -> dict:
    """The state before the first event."""
    return {"players": players, "options": options, "phase": "deal", "turn": 0,
            "armies": [None] * players, "maps": [], "blocks": {}, "at": {}, "next_id": 1,
            "city_owner": {}, "gold": {}, "fights": {}, "battle": None, "queue": [],
            "dead": [[] for _ in range(players)], "order": [], "mover": 0,
            "initiative": {"rolls": {}, "tied": [], "rerolls": 0}, "drafts": {},
            "new_blocks": [], "forfeited": [], "points": [0] * players, "log": [],
            "ports": {}, "port_use": {}, "lying": {},
            "scores": None, "end_reason": None, "scenario": None}


# -- chance ------------------------------------------------------------------------------------

def chance_spec(state: dict) -> dict | None:
    """The dice, draw or shuffle due now, if any."""
    phase = state["phase"]
    if state.get("scenario") is not None and phase in ("deal", "move"):
        return scenarios.chance_spec(state)             # 7.3, 7.4: who chooses; 7.3: Kuraco
    if phase == "deal":
        if state["options"]["armies"] == "" and state["armies"][0] is None:
            return {"kind": "choice", "n": len(army_keys()), "k": state["players"]}
        if state["options"]["maps"] == "" and not state["maps"]:
            return {"kind": "choice", "n": len(CUSTOM_MAPS), "k": state["players"]}
        return None
    if phase == "ids":
        return {"kind": "shuffle", "n": len(state["new_blocks"])}
    if phase == "initiative" and scenarios.fixed_order(state) is None:
        return {"kind": "dice", "count": 2 * len(state["initiative"]["tied"]), "sides": 6}
    if phase == "battle" and state["battle"] is not None:
        return battle.chance_spec(state)
    return None


def chance_outcome(state: dict, outcome: list) -> None:
    """Apply the outcome of the due chance node (mutates ``state``), then advance."""
    phase = state["phase"]
    if state.get("scenario") is not None and phase in ("deal", "move"):
        scenarios.chance_outcome(state, outcome)
    elif phase == "deal":
        if state["options"]["armies"] == "" and state["armies"][0] is None:
            keys = army_keys()
            state["armies"] = [keys[i] for i in outcome]
        else:
            _lay_maps(state, _as_laid(state, [CUSTOM_MAPS[i] for i in outcome]))
    elif phase == "ids":
        _name_new_blocks(state, outcome)
    elif phase == "initiative":
        _initiative_rolled(state, outcome)
    else:
        battle.roll(state, outcome)
    advance(state)


def _as_laid(state: dict, maps: list[str]) -> list[str]:
    """D1 (1.21: the players lay the maps "laŭvole"): two players' east map is laid turned half
    round (option ``east_map``, version 4), so that the board seen from the east seat is the
    board the west seat would see had the maps been dealt the other way: no side of the table
    is the better one. As printed, the ground between the two seats' cities is quicker to cross
    eastward (a move-3 block: 2.85 turns against 2.94, over the 42 pairs of maps), and in the
    game to the victory the west seat won 57 % whichever seat it was (BENCHMARKS.md)."""
    if len(maps) == 2 and state["options"].get("east_map", "printed") == "turned":
        return [maps[0], maps[1] + TURNED]
    return maps


def _lay_maps(state: dict, maps: list[str]) -> None:
    """1.21: each seat's map, laid left to right in seat order; its cities are the seat's."""
    state["maps"] = maps
    b = board_of(tuple(maps))
    state["city_owner"] = {h: b.map_of[h] for h in sorted(b.cities)}
    state["gold"] = {h: 0 for h in sorted(b.cities)}


def _name_new_blocks(state: dict, order: list[int]) -> None:
    """New blocks get ids by a shuffle: the i-th new block (seat order) gets the order[i]-th
    free id, so an id tells nothing of a block's kind (8)."""
    for i, blk in enumerate(state["new_blocks"]):
        bid = f"B{state['next_id'] + order[i]:03d}"
        state["blocks"][bid] = {**blk, "hex": None}
        place(state, bid, blk["hex"])
    state["next_id"] += len(state["new_blocks"])
    state["new_blocks"] = []
    state["phase"] = "ids-done"


def _initiative_rolled(state: dict, dice: list[int]) -> None:
    """4.1: the highest 2d6 total moves first; ties among the highest roll again (D10)."""
    ini = state["initiative"]
    totals = {seat: dice[2 * i] + dice[2 * i + 1] for i, seat in enumerate(ini["tied"])}
    ini["rolls"] = {str(s): t for s, t in totals.items()}
    best = max(totals.values())
    tied = [s for s, t in totals.items() if t == best]
    if len(tied) > 1 and ini["rerolls"] < MAX_REROLLS:
        ini["tied"], ini["rerolls"] = tied, ini["rerolls"] + 1
        return
    first = tied[0]
    live = live_seats(state)
    start = live.index(first)
    _begin_moves(state, live[start:] + live[:start])   # 4.2: clockwise from Player 1
    _log(state, {"initiative": state["order"], "rolls": dict(ini["rolls"])})


def _begin_moves(state: dict, order: list[int]) -> None:
    """The move phase begins in ``order`` (Player 1 first)."""
    state["order"] = order
    state["mover"] = 0
    holder = {h: controller(state, h) for h in ports_of(board(state))}
    state["ports"] = {str(s): [h for h, held in holder.items() if held == s]
                      for s in live_seats(state)}         # 4.8: ports friendly as moves begin
    state["port_use"] = {}
    state["phase"] = "move"


def _log(state: dict, entry: dict) -> None:
    state["log"].append({"turn": state["turn"], **entry})
    del state["log"][:-40]


# -- who acts ----------------------------------------------------------------------------------

def acting_seats(state: dict) -> list[int]:
    """The seats that must act now (several in the simultaneous recruit and build)."""
    phase = state["phase"]
    if phase in ("recruit", "build", "place"):
        return build.waiting(state)
    if phase == "choose":
        return scenarios.choosing_seats(state)
    if phase == "move":
        return [] if scenarios.heal_pending(state) else [state["order"][state["mover"]]]
    if phase == "battle" and state["battle"] is not None:
        seat = battle.acting_seat(state)
        return [] if seat is None else [seat]
    return []


def options_for(state: dict, seat: int, action: dict | None = None) -> list[dict]:
    """The legal actions of ``seat`` now; with ``action``, only those that could equal it (in the
    move phase that block's moves and spells; in building that city's or block's), and done:
    the check of one action needs no more."""
    if seat not in acting_seats(state):
        return []
    return actor_options(state, seat, action)


def actor_options(state: dict, seat: int, action: dict | None = None) -> list[dict]:
    """``options_for`` of a seat known to act now (a refusal of a validation's action has
    asked ``acting_seats`` already)."""
    phase = state["phase"]
    if phase in ("recruit", "build"):
        found = _build_options(state, seat, action)
        return found if state.get("scenario") is None else scenarios.restrict_build(state, seat,
                                                                                     found)
    if phase in scenarios.PHASES:
        return scenarios.options(state, seat)
    if phase == "move":
        block = action.get("block") if isinstance(action, dict) and action.get("type") in (
            "move", "cast") else None
        return move_options(state, seat, block if type(block) is str else None)
    return battle.options(state, seat)


_PLAIN_MOVE = frozenset(("type", "block", "to"))


def surely_legal(state: dict, seat: int, action: dict) -> bool:
    """Is ``action`` (a dict with a string type, of a seat that acts now) surely one of
    ``options_for(state, seat)``, asked of it alone? True for done in the move phase (always
    listed, 4.2), for a plain move {"type", "block", "to"} that ``movement.plain_move_listed``
    finds and for a build's recruit, add, disband, combine or done that
    ``build.surely_listed`` finds (no scenario: its limits, 7.1-7.3, D46, are the listing's);
    False says nothing, the listing decides (and explains a refusal). A validation asks this of
    every action: listing a block's destinations to check one move was most of its time, and
    a build check's candidates most of the rest."""
    if state["phase"] == "build":
        return state.get("scenario") is None and build.surely_listed(state, seat, action)
    if state["phase"] != "move":
        return False
    if action.keys() == _PLAIN_MOVE and action["type"] == "move":
        return state.get("scenario") is None and plain_move_listed(state, seat, action["block"],
                                                                    action["to"])
    return len(action) == 1 and action["type"] == "done"


def move_options(state: dict, seat: int, only: str | None = None) -> list[dict]:
    """4.2: move one block (each once a turn), cast one move-phase spell per wizard (2.22), or
    end the move. With ``only``: that block's actions, and done."""
    entry = _move_listing(state, seat)
    if only is not None and entry["rest"] is not None and state.get("scenario") is None:
        # one block's check (a validation's, a bot's move checked) lists that block alone
        if only in entry["rest"]:
            _list_block(state, entry, only)
        blocks = [only]
    else:
        _finish_listing(state, seat, entry)
        blocks = [only] if only is not None else sorted(entry["options"])
    found = entry["options"]
    result = [dict(a) for bid in blocks for a in found.get(bid, ())]
    result.append({"type": "done"})
    return result


class _Listings(threading.local):
    """The listings remembered, one set per thread: a threaded server (gunicorn's gthread
    workers) folds several matches at once, and a listing made a block at a time must never
    take in another thread's blocks.

    ``moves``: the move options of the last state asked about: listing, checking and applying
    an action all ask for the same state. The entry holds the state itself (so its id stays its
    own) and a fingerprint of everything the options depend on, so a state changed in place is
    never served. A listing is made a block at a time, as it is asked for: "rest" holds the
    seat's blocks not listed yet (None once the listing is whole) and "hostile" which hexes are
    hostile to the seat, shared by its blocks (movement.destinations). ``_can_move`` stops at
    the first block with an action, ``move_options`` with ``only`` lists that block, and a later
    whole listing of the same state goes on from there.

    ``builds``: the last build options listed whole. A refused action is explained from the
    whole list, and a bot or a check asks the same state again and again: one listing serves
    them all (the key holds the state's identity and the seat's draft, which every build
    action changes)."""

    def __init__(self):
        self.moves = {"key": None, "state": None, "options": None, "rest": None, "hostile": None}
        self.builds = {"key": None, "state": None, "options": None}


_LISTINGS = _Listings()


def _move_listing(state: dict, seat: int) -> dict:
    """This thread's move listing (``_LISTINGS.moves``) for ``state`` and ``seat``, begun afresh
    (no block listed) unless it is remembered."""
    key, moves = _move_key(state, seat), _LISTINGS.moves
    if moves["key"] != key or moves["state"] is not state:
        moves.update(key=key, state=state, options={}, hostile=Hostile(state, seat),
                     rest=sorted(b for b, blk in state["blocks"].items() if blk["owner"] == seat))
    return moves


def _list_block(state: dict, entry: dict, bid: str) -> list[dict]:
    """List block ``bid`` (one of ``entry``'s rest) into the entry; its actions."""
    entry["rest"].remove(bid)
    actions = entry["options"][bid] = [{"type": "move", "block": bid, **move}
                                       for move in destinations(state, bid, entry["hostile"])]
    actions += _move_spells(state, bid)
    return actions


def _finish_listing(state: dict, seat: int, entry: dict) -> None:
    """List the entry's blocks not listed yet, then the scenario's limits on the whole."""
    if entry["rest"] is None:
        return
    for bid in list(entry["rest"]):
        _list_block(state, entry, bid)
    if state.get("scenario") is not None:
        scenarios.restrict_moves(state, seat, entry["options"])    # 7.1, 7.2, 7.3
    entry["rest"] = None


def _build_options(state: dict, seat: int, action) -> list[dict]:
    """build.options, the whole list remembered for the last (state, seat); with ``action`` and
    nothing remembered, only the candidates (one check of one action needs no more). The key
    (the draft's whole repr) is written only where it can be used: for another state, a
    check's candidates need none."""
    builds = _LISTINGS.builds
    remembered = builds["state"] is state
    if remembered or action is None:
        key = (id(state), seat, state["phase"], repr(state["drafts"][str(seat)]))
        if remembered and builds["key"] == key:
            return [dict(a) for a in builds["options"]]
    if action is not None:
        return build.options(state, seat, action)
    found = build.options(state, seat)
    builds.update(key=key, state=state, options=found)
    return [dict(a) for a in found]


def forget_listings(state: dict) -> None:
    """Drop the move and build listings remembered for ``state`` before an event changes it in
    place (apply_in_place): their keys hold the state's identity and what one decision's listing
    reads, not all that an event may change (a copying ``apply`` gave every event a new state)."""
    moves, builds = _LISTINGS.moves, _LISTINGS.builds
    if moves["state"] is state:
        moves.update(key=None, state=None, options=None, rest=None, hostile=None)
    if builds["state"] is state:
        builds.update(key=None, state=None, options=None)


def _move_key(state: dict, seat: int) -> tuple:
    blocks = tuple((b, blk["owner"], blk["hex"], blk["moved"], blk["cast"], blk["steps"], blk["kind"])
                   for b, blk in state["blocks"].items())
    return (id(state), seat, state["phase"], state["turn"], state["mover"], blocks,
            repr(state["fights"]), repr(state["port_use"]), repr(state["city_owner"]))


def _can_move(state: dict, seat: int) -> bool:
    """Has ``seat`` anything to do in its move but say done? Asked after every move, it lists
    the seat's blocks only until one has an action (a whole listing took three quarters of a
    fold's time); a search that asks for the whole listing next goes on from there. A
    scenario's limits (7.1-7.3) are asked of the whole listing. A block with a step to take
    at once, or none left that has not moved or cast (``steps_out``), answers before any
    listing is made."""
    if state.get("scenario") is None:
        quick = steps_out(state, seat)
        if quick is not None:
            return quick
    return _can_move_by_listing(state, seat)


def _can_move_by_listing(state: dict, seat: int) -> bool:
    """``_can_move`` from the listing, made a block at a time until a block has an action."""
    entry = _move_listing(state, seat)
    if entry["rest"] is not None and state.get("scenario") is None:
        if any(found for found in entry["options"].values()):
            return True
        while entry["rest"]:
            if _list_block(state, entry, entry["rest"][0]):
                return True
        entry["rest"] = None
    return len(move_options(state, seat)) > 1


def _move_spells(state: dict, bid: str) -> list[dict]:
    """2.22: a wizard that has not moved casts one spell in the move phase, then stays."""
    blk = state["blocks"][bid]
    kind = kind_of(blk["kind"])
    if not kind.wizard or blk["moved"] or blk["cast"] or state["fights"].get(blk["hex"]):
        return []
    b = board(state)
    result = []
    for spell in armies()[kind.army].spells:
        if spell.phase != "move" or spell.level > blk["steps"]:
            continue
        if spell.effect == "heal":
            hurt = [o for o in blocks_at(state, blk["hex"], blk["owner"])
                    if state["blocks"][o]["steps"] < kind_of(state["blocks"][o]["kind"]).max]
            if hurt:
                result.append({"type": "cast", "block": bid, "spell": spell.key})
        elif spell.effect == "teleport":
            for target in blocks_at(state, blk["hex"], blk["owner"]):
                tblk = state["blocks"][target]
                if kind_of(tblk["kind"]).castle or tblk["moved"] or target == bid \
                        and spell.level >= blk["steps"]:
                    continue                            # 2.4
                for to in sorted(b.terrain):
                    if (to != blk["hex"] and b.land(to) and is_friendly(state, to, blk["owner"])
                            and _within(blk["hex"], to, spell.range)
                            and len(blocks_at(state, to, blk["owner"])) + 1 <= b.stack_limit(to)):
                        result.append({"type": "cast", "block": bid, "spell": spell.key,
                                       "target": target, "to": to})
    return result


def _within(a: str, b: str, n: int) -> bool:
    return distance(a, b) <= n


# -- decisions ---------------------------------------------------------------------------------

def decide(state: dict, seat: int, action: dict) -> None:
    """Apply a checked action (mutates ``state``), then advance."""
    phase = state["phase"]
    if phase in ("recruit", "build"):
        build.decide(state, seat, action)
    elif phase in scenarios.PHASES:
        scenarios.decide(state, seat, action)
    elif phase == "move":
        _move_decision(state, seat, action)
    else:
        battle.decide(state, seat, action)
    advance(state)


def _move_decision(state: dict, seat: int, action: dict) -> None:
    kind_ = action["type"]
    if kind_ == "done":
        state["mover"] += 1
        return
    if kind_ == "cast":
        if scenarios.is_heal(action):
            scenarios.cast_heal(state, action)          # 7.3: Kuraco
        else:
            _move_spell(state, action)
        return
    bid, to = action["block"], action["to"]
    blk = state["blocks"][bid]
    if action.get("by") == "water":                    # 4.81: both ports' capacity
        for port in (blk["hex"], to):
            state["port_use"][port] = state["port_use"].get(port, 0) + 1
    defenders = {state["blocks"][o]["owner"] for o in state["at"].get(to, [])} - {seat}
    if defenders:
        fight = state["fights"].get(to)
        if fight is None:                                # 4.2: entering an enemy hex attacks
            defender = defenders.pop()
            fight = state["fights"][to] = {"attacker": seat, "defender": defender,
                                           "sides": {str(defender): "defend", str(seat): "attack"},
                                           "entered": {}, "crossings": {}, "crossed": {}}
        elif str(seat) not in fight["sides"]:
            fight["sides"][str(seat)] = action["side"]  # 4.9: a third player picks a side
        my_side = fight["sides"][str(seat)]
        hs = "|".join(sorted((action["via"], to)))
        fight["entered"].setdefault(hs, [])
        if seat in fight["entered"][hs]:
            fight["entered"][hs].remove(seat)
        fight["entered"][hs].append(seat)
        fight.setdefault("crossed", {}).setdefault(hs, []).append(bid)   # public: who came where
        if not kind_of(blk["kind"]).flyer and "hero" not in kind_of(blk["kind"]).traits:
            crossings = fight["crossings"].setdefault(my_side, {})
            crossings[hs] = crossings.get(hs, 0) + 1
    place(state, bid, to)
    blk["moved"] = True
    _log(state, {"move": bid, "to": to, "seat": seat})


def _move_spell(state: dict, action: dict) -> None:
    """2.22: the wizard pays the level in steps and may not move afterwards."""
    wizard = state["blocks"][action["block"]]
    spell = spell_of(action["spell"])
    wizard["steps"] -= spell.level
    wizard["cast"] = True
    wizard["known"] = True                              # casting shows the wizard (D14)
    seat = wizard["owner"]
    _log(state, {"cast": spell.key, "by": action["block"], "seat": seat})
    if spell.effect == "heal":
        for _ in range(spell.steps):
            hurt = [o for o in blocks_at(state, wizard["hex"], seat)
                    if state["blocks"][o]["steps"] < kind_of(state["blocks"][o]["kind"]).max
                    and o in state["blocks"]]
            if not hurt:
                break
            weakest = min(hurt, key=lambda o: (state["blocks"][o]["steps"], o))
            state["blocks"][weakest]["steps"] += 1
    else:                                               # teleport
        place(state, action["target"], action["to"])
        state["blocks"][action["target"]]["moved"] = True
    if wizard["steps"] <= 0:
        remove(state, action["block"])


# -- automatic steps ---------------------------------------------------------------------------

def advance(state: dict) -> None:
    """Run every automatic step until someone must act, dice are due, or the match is over."""
    for _ in range(10_000):
        if not _step(state):
            return
    raise AssertionError("advance did not settle")


def _step(state: dict) -> bool:
    """One automatic step; False when the state waits for an event."""
    phase = state["phase"]
    if phase == "over":
        return False
    if state["forfeited"] and len(live_seats(state)) <= 1 and phase != "deal":
        _end(state, "last army standing")
        return True
    if phase == "deal" and state["options"].get("scenario"):
        return scenarios.deal_step(state)
    if phase == "choose":
        return False                                    # a seat picks (7.3, 7.4)
    if phase == "deal":
        if state["maps"] and state["armies"][0] is not None:
            build.open_drafts(state, setup=True)
            state["phase"] = "recruit"
            return True
        _fixed_deal(state)
        return chance_spec(state) is None and bool(state["maps"]) and state["armies"][0] is not None
    if phase in ("recruit", "build", "place"):
        if not build.all_done(state):
            return False
        state["new_blocks"] = build.reveal(state)
        state["after_ids"] = phase
        state["phase"] = "ids" if len(state["new_blocks"]) > 1 else "ids-pending"
        return True
    if phase == "ids-pending":
        _name_new_blocks(state, list(range(len(state["new_blocks"]))))
        return True
    if phase == "ids":
        return False
    if phase == "ids-done":
        if state.pop("after_ids") == "build":
            _end_of_turn(state)
        else:
            _start_turn(state)
        return True
    if phase == "initiative":
        order = scenarios.fixed_order(state)            # 7.1, 7.2: no initiative roll
        if order is None:
            return False
        _begin_moves(state, order)
        _log(state, {"initiative": order, "fixed": True})
        return True
    if phase == "move":
        return _move_step(state)
    if phase == "battle":
        return _battle_step(state)
    raise AssertionError(phase)


def _fixed_deal(state: dict) -> None:
    """Armies and maps the options name are dealt without chance."""
    opts = state["options"]
    if opts["armies"] and state["armies"][0] is None:
        state["armies"] = opts["armies"].split(",")
    if opts["maps"] and not state["maps"]:
        _lay_maps(state, _as_laid(state, opts["maps"].split(",")))


def _start_turn(state: dict) -> None:
    state["turn"] += 1
    for blk in state["blocks"].values():
        blk["moved"] = blk["cast"] = False
    state["initiative"] = {"rolls": {}, "tied": live_seats(state), "rerolls": 0}
    state["phase"] = "initiative"


def _move_step(state: dict) -> bool:
    """Skip movers with nothing to do but end the move; after the last, the battles."""
    if scenarios.heal_pending(state):
        return False                                    # 7.3: Kuraco's die is due
    while state["mover"] < len(state["order"]):
        seat = state["order"][state["mover"]]
        if seat in state["forfeited"] or not _can_move(state, seat):
            state["mover"] += 1
            continue
        return False
    rank = {seat: i for i, seat in enumerate(state["order"])}
    state["queue"] = sorted(state["fights"], key=lambda h: (rank.get(state["fights"][h]["attacker"], 99), h))
    state["phase"] = "battle"                           # 5.1: Player 1's battles first
    return True


def _battle_step(state: dict) -> bool:
    if state["battle"] is not None:
        return False
    reason = scenarios.verdict(state, "battle") if state.get("scenario") else None
    if reason is not None:                              # 7.1, 7.2, 7.4: a castle fell
        _end(state, reason)
        return True
    while state["queue"]:
        hex_ = state["queue"].pop(0)
        owners = {state["blocks"][b]["owner"] for b in state["at"].get(hex_, [])}
        if len(owners) > 1:
            battle.start(state, hex_)
            return True
        state["fights"].pop(hex_, None)                 # nobody left to fight
    _start_build(state)
    return True


def _start_build(state: dict) -> None:
    """6.1, 6.6: each city yields its gold to its controller's marker; a wizard on a henge
    gains a step; then every seat builds at once."""
    b = board(state)
    for hex_, city in sorted(b.cities.items()):
        seat = controller(state, hex_)
        if seat is not None and seat not in state["forfeited"]:
            state["gold"][hex_] = state["gold"].get(hex_, 0) + city.gold
    for seat in live_seats(state):
        state["points"][seat] += city_gold(state, seat)
    for hex_ in sorted(b.henges):
        for bid in state["at"].get(hex_, []):
            blk = state["blocks"][bid]
            if kind_of(blk["kind"]).wizard and blk["steps"] < kind_of(blk["kind"]).max:
                blk["steps"] += 1
    if state.get("scenario") is None or scenarios.build_phase(state):
        build.open_drafts(state, setup=False)
    else:
        state["drafts"] = {}                            # 7.3: nobody builds
    state["phase"] = "build"


def victory_gold(state: dict) -> int:
    """1.23: 15 gold of cities wins a two-player game on two maps, 30 on four (7.5 a map);
    with more players only the turn limit ends the game (0)."""
    value = state["options"]["victory_gold"]
    if state.get("scenario") is not None:
        return 0                                        # 7.1-7.4: their own victories
    if value >= 0:
        return value
    return (15 * len(state["maps"])) // 2 if state["players"] == 2 else 0


BOOK_TURNS = 10     # 1.23: "limigi la partiodaŭron je 10 vicoj" (more than two players)
SAFETY_TURNS = 40   # D12: the bound of a two-player game, which 1.23 plays to the victory gold


def last_turn(options: dict, players: int) -> int:
    """1.23 (D12): the turn after which the match ends. ``turn_limit`` when it is set (1-40: every
    game, two players too, ends then; 10 was version 2's default); 0 (the default): the
    rulebook's, 10 turns "Ĉe partioj inter pli ol 2 ludantoj" and in a scenario (7.1-7.4, D41),
    and for two players, who play to the victory gold "fine de iu ajn vico", no limit but the
    safety bound ``SAFETY_TURNS`` so that every match ends (scored as the turn limit scores)."""
    if options["turn_limit"]:
        return options["turn_limit"]
    to_victory = players == 2 and not options["scenario"] and options["victory_gold"] != 0
    return SAFETY_TURNS if to_victory else BOOK_TURNS


def _end_of_turn(state: dict) -> None:
    """1.23: a seat holding the victory gold wins; the last turn (``last_turn``) ends the game."""
    reason = scenarios.verdict(state, "turn") if state.get("scenario") else None
    if reason is not None:
        _end(state, reason)
        return
    target = victory_gold(state)
    if target:
        winners = [s for s in live_seats(state) if city_gold(state, s) >= target]
        if winners:
            _end(state, "victory gold")
            return
    if state["turn"] >= last_turn(state["options"], state["players"]):
        _end(state, "turn limit")
        return
    _start_turn(state)


def standing_scores(state: dict) -> list[int]:
    """1.23: the scores as the board stands (it changes nothing): the gold of the cities each
    seat holds (0 for a seat that left), or the points gathered at every build when the option
    asks for them; in a scenario, what its turn limit would give (7.1-7.4)."""
    if state.get("scenario") is not None:
        return scenarios.limit_scores(state)
    if state["options"]["scoring"] == "accumulated":
        return list(state["points"])
    return [0 if s in state["forfeited"] else city_gold(state, s) for s in range(state["players"])]


def _end(state: dict, reason: str) -> None:
    """Scores: the gold of the cities each seat holds (1.23), or the points gathered at every
    build when the option asks for them (``standing_scores``); a decided scenario its own."""
    if state.get("scenario") is not None:
        state["scores"] = scenarios.scores(state, reason)
    else:
        state["scores"] = standing_scores(state)
    state["end_reason"] = reason
    state["phase"] = "over"
    state["battle"] = None


# -- forfeits ----------------------------------------------------------------------------------

def forfeit(state: dict, seat: int) -> None:
    """D11: a seat that leaves takes its blocks off the board; its empty cities become neutral;
    the battle under way goes on without it."""
    if seat in state["forfeited"] or state["phase"] == "over":
        return
    state["forfeited"].append(seat)
    for bid in sorted(b for b, blk in state["blocks"].items() if blk["owner"] == seat):
        remove(state, bid, killed=False)
    for hex_, owner in state["city_owner"].items():
        if owner == seat:
            state["city_owner"][hex_] = None
    state["drafts"].pop(str(seat), None)
    if state["battle"] is not None:
        battle.drop_seat(state, seat)
    advance(state)
