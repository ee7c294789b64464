"""Wizard Kings battles (section 5): one battle at a time, each a sequence of small decisions.

A battle (``state["battle"]``) lasts three rounds (5.21); in each round every block has one
combat turn, A+ before A before B+ before B before C before D, the defending side first on equal
letters (5.2). A turn is one decision: fire (roll as many dice as steps, 5.31), cast a spell
(wizards, 2.22), retreat (from the second round, 5.4) or pass. Hits go one by one to the
strongest enemy block, its owner choosing among equals (5.32). After the third round the attackers
retreat; the defender may first fire a pursuit round (5.21). The winner regroups (5.5).

``step`` says what the battle waits for: "turn" (the block at the head of ``turns``), "hit" (a
tie for the strongest block), "dispel" (an enemy wizard may dispel the spell cast, 2.21),
"retreat" (a block that must retreat now), "switch" (an ally may change sides, 4.9), "arm" (a
seat may hand an artefact to another of its blocks before a round, 2.7), "pursue" (the
defender's choice, 5.21), "regroup" (the winner's moves, 5.5), or "roll" (dice are due).

Artefacts (2.7, option ``expansion``): a weapon's carrier takes its turn at the earlier of its
own letter and the weapon's, and may ``wait`` for the later one; at the weapon's letter it may
``wield`` it (its steps in dice at the weapon's hit number, a charge spent); a magic artefact's
carrier may ``invoke`` a battle spell of the artefact's army up to its level for a charge.
"""
from __future__ import annotations

from .board import side
from .content import artefact_of, kind_of, spell_of, armies
from .movement import attack_hexsides, can_stand, can_step
from .scenarios import may_enter
from .state import (blocks_at, board, can_carry, captured, contested, fire_number, is_enemy,
                    place, remove, rules_version)

ORDER = ("A+", "A", "B+", "B", "C", "D")


def _letter_rank(kind) -> int:
    return ORDER.index(kind.letter + ("+" if kind.wizard else ""))


def _artefact(state: dict, bid: str, type_: str):
    """The artefact of that type (weapon, magic) ``bid`` carries with a charge left, or None."""
    art = state["blocks"][bid].get("artefact")
    if not art or art["steps"] < 1:
        return None
    item = artefact_of(art["key"])
    return item if item.type == type_ else None


def _ranks(state: dict, bid: str) -> tuple[int, int | None]:
    """The block's own letter rank, and its weapon's (None without one)."""
    weapon = _artefact(state, bid, "weapon")
    own = _letter_rank(kind_of(state["blocks"][bid]["kind"]))
    return own, None if weapon is None else ORDER.index(weapon.letter)


def _slot(state: dict, bid: str) -> int:
    """2.7 (D36): the turn of a weapon's carrier comes at the earlier of its own letter and the
    weapon's; one that waited takes it at the later."""
    own, weapon = _ranks(state, bid)
    if weapon is None:
        return own
    late = bid in state["battle"].get("late", [])
    return max(own, weapon) if late else min(own, weapon)


def seat_side(battle: dict, seat: int) -> str | None:
    return battle["sides"].get(str(seat))


def side_blocks(state: dict, battle: dict, side_: str) -> list[str]:
    """The blocks of a side in the battle hex."""
    return [b for b in state["at"].get(battle["hex"], [])
            if seat_side(battle, state["blocks"][b]["owner"]) == side_]


def enemy_side(side_: str) -> str:
    return "defend" if side_ == "attack" else "attack"


def start(state: dict, hex_: str) -> None:
    """5.1: the battle at ``hex_`` begins; its blocks are revealed (kind public for good)."""
    fight = state["fights"].pop(hex_)
    state["battle"] = {"hex": hex_, "round": 0, "attacker": fight["attacker"],
                       "defender": fight["defender"], "sides": dict(fight["sides"]),
                       "entered": fight["entered"], "turns": [], "step": "turn",
                       "retreats": {}, "forced": [], "hits": None, "cast": None,
                       "roll": None, "asked": [], "pursuit": False, "winner": None,
                       "regrouped": [], "holder": None, "current": None}
    for bid in state["at"].get(hex_, []):
        state["blocks"][bid]["known"] = True
        if state["blocks"][bid].get("artefact"):        # D38: artefacts show with their blocks
            state["blocks"][bid]["artefact"]["known"] = True
    _log(state, {"battle": hex_, "attacker": fight["attacker"], "defender": fight["defender"]})
    _next_round(state)


def _log(state: dict, entry: dict) -> None:
    state["log"].append({"turn": state["turn"], **entry})
    del state["log"][:-40]


def _next_round(state: dict) -> None:
    """A new round: the order of turns (5.2); allies may first switch sides (4.9)."""
    battle = state["battle"]
    battle["round"] += 1
    battle["retreats"] = {}
    battle["late"] = []
    if battle["round"] in (2, 3) and state["options"]["allies_switch"]:
        allies = sorted(int(s) for s in battle["sides"]
                        if int(s) not in (battle["attacker"], battle["defender"])
                        and blocks_at(state, battle["hex"], int(s)))
        battle["asked"] = allies
        if allies:
            battle["step"] = "switch"
            return
    _before_turns(state)


def _before_turns(state: dict) -> None:
    """2.7: 'nur inter batalvicoj oni povas ŝanĝi ĝin': before each of the three rounds, each
    seat with an artefact in the battle and a block free to take it may hand it over (D37)."""
    battle = state["battle"]
    battle["arming"] = [s for s in sorted({state["blocks"][b]["owner"]
                                           for b in state["at"].get(battle["hex"], [])})
                        if _handovers(state, s)]
    if battle["arming"]:
        battle["step"] = "arm"
        return
    _order_turns(state)


def _handovers(state: dict, seat: int) -> list[dict]:
    here = blocks_at(state, state["battle"]["hex"], seat)
    carriers = [b for b in here if state["blocks"][b].get("artefact")]
    if not carriers:
        return []
    bare = [b for b in here if not state["blocks"][b].get("artefact")
            and can_carry(kind_of(state["blocks"][b]["kind"]))]
    return [{"type": "hand", "from": c, "to": b} for c in carriers for b in bare]


def _order_turns(state: dict) -> None:
    battle = state["battle"]
    here = state["at"].get(battle["hex"], [])

    battle["turns"] = sorted(here, key=lambda bid: _turn_key(state, bid))
    _after_turn(state)


def _turn_key(state: dict, bid: str) -> tuple:
    block = state["blocks"][bid]
    return (_slot(state, bid), 0 if seat_side(state["battle"], block["owner"]) == "defend" else 1,
            bid)


def _head_turn(state: dict) -> bool:
    """Make the first block still able to act the current one; in the pursuit round an
    attacker with nowhere to retreat is eliminated (5.4). False when no turn is left."""
    battle = state["battle"]
    while battle["turns"]:
        head = battle["turns"][0]
        owner = state["blocks"][head]["owner"]
        if battle["round"] == 4 and seat_side(battle, owner) == "attack" \
                and not retreat_targets(state, head):
            _log(state, {"eliminated": head, "kind": state["blocks"][head]["kind"],
                         "cut_off": True})
            _drop(state, head)
            continue
        battle["current"] = head
        battle["step"] = "turn"
        return True
    return False


def over(state: dict) -> bool:
    """The battle is decided when a side has no block left in the hex."""
    battle = state["battle"]
    return not side_blocks(state, battle, "attack") or not side_blocks(state, battle, "defend")


# -- what the battle waits for -----------------------------------------------------------------

def acting_seat(state: dict) -> int | None:
    """The seat whose decision the battle waits for (None: dice are due)."""
    battle = state["battle"]
    step = battle["step"]
    if step == "roll":
        return None
    if step == "turn":
        return state["blocks"][battle["turns"][0]]["owner"]
    if step == "hit":
        return battle["hits"]["chooser"]
    if step == "dispel":
        return state["blocks"][battle["asked"][0]]["owner"]
    if step == "retreat":
        return state["blocks"][battle["forced"][0]]["owner"]
    if step == "switch":
        return battle["asked"][0]
    if step == "arm":
        return battle["arming"][0]
    if step == "pursue":
        return battle["defender"]
    if step == "regroup":
        return battle["holder"]
    raise AssertionError(step)


def chance_spec(state: dict) -> dict | None:
    battle = state["battle"]
    if battle["step"] != "roll":
        return None
    return {"kind": "dice", "count": battle["roll"]["count"], "sides": 6}


def options(state: dict, seat: int) -> list[dict]:
    """The legal actions of ``seat`` in the battle's current decision."""
    battle = state["battle"]
    step = battle["step"]
    if step == "turn":
        return _turn_options(state, battle["turns"][0])
    if step == "hit":
        return [{"type": "hit", "block": b} for b in battle["hits"]["among"]]
    if step == "dispel":
        return [{"type": "dispel"}, {"type": "let"}]
    if step == "retreat":
        bid = battle["forced"][0]
        return [{"type": "retreat", "block": bid, "to": h} for h in retreat_targets(state, bid)]
    if step == "switch":
        return [{"type": "stay"}, {"type": "switch"}]
    if step == "arm":
        return _handovers(state, seat) + [{"type": "keep"}]
    if step == "pursue":
        return [{"type": "pursue"}, {"type": "no_pursuit"}]
    if step == "regroup":
        return regroup_options(state, seat) + [{"type": "done"}]
    return []


def _turn_options(state: dict, bid: str) -> list[dict]:
    """5.2-5.4, 2.22: a block's combat turn."""
    battle = state["battle"]
    block = state["blocks"][bid]
    kind = kind_of(block["kind"])
    my_side = seat_side(battle, block["owner"])
    if battle["round"] == 4 and my_side == "attack":     # 5.21: the attacker only retreats
        return [{"type": "retreat", "block": bid, "to": h} for h in retreat_targets(state, bid)]
    result = []
    own, weapon = _ranks(state, bid)
    slot = _slot(state, bid)
    if weapon == slot:                                  # 2.7: the weapon's rating, if wished
        result.append({"type": "wield", "block": bid})
    if slot == own:                                     # D36: not at a weapon's earlier letter
        if not kind.wizard and not kind.treasure:       # D31: treasure never fires
            result.append({"type": "fire", "block": bid})
            if "chaos" in kind.traits:
                result.append({"type": "berserk", "block": bid})   # 2.5
            if kind.rites and battle["round"] < 4:
                result += _spell_options(state, bid, rites=True)  # 2.36
        elif kind.wizard and battle["round"] < 4:
            result += _spell_options(state, bid)
        if battle["round"] < 4 and _artefact(state, bid, "magic"):
            result += _spell_options(state, bid, artefact=True)   # 2.7
    if weapon is not None and weapon != own and bid not in battle.get("late", []):
        result.append({"type": "wait", "block": bid})
    if 2 <= battle["round"] <= 3:
        result += [{"type": "retreat", "block": bid, "to": h} for h in retreat_targets(state, bid)]
    if _may_pass(state, kind, result):
        result.append({"type": "pass", "block": bid})
    return result


def _may_pass(state: dict, kind, offered: list[dict]) -> bool:
    """D60: who may do nothing in its combat turn. 2.22 gives that choice to the wizards ("aŭ
    povas fari nenion se li/ŝi deziras nek lukti nek retreti"); every other block fires, or
    from round 2 retreats "anstataŭ lukti" (5.31, 5.4). The pursuit round (4) is optional
    firing ("povas ataki", 5.21), treasure never fires (D31), and a block left with nothing
    else to do passes. Version 2 let every block pass in every round."""
    if rules_version(state) < 3 or kind.wizard or kind.treasure:
        return True
    return state["battle"]["round"] == 4 or not offered


def _spell_options(state: dict, bid: str, *, rites: bool = False,
                   artefact: bool = False) -> list[dict]:
    """2.21-2.22, 5.33: the battle spells a wizard can pay for, with their targets; with
    ``rites``, a cleric's rites (2.36: a step each, no other cost); with ``artefact``, the
    spells its magic artefact casts (2.7: its army's, up to its level, a charge each)."""
    battle = state["battle"]
    block = state["blocks"][bid]
    kind = kind_of(block["kind"])
    foes = side_blocks(state, battle, enemy_side(seat_side(battle, block["owner"])))
    if rites:
        spells, verb, field = [spell_of(r) for r in kind.rites], "rite", "rite"
    elif artefact:
        item = _artefact(state, bid, "magic")
        spells = [s for s in armies()[item.army].spells if s.level <= item.level]
        verb, field = "invoke", "spell"
    else:
        spells, verb, field = armies()[kind.army].spells, "cast", "spell"
    result = []
    for spell in spells:
        if spell.phase != "battle" or (not rites and not artefact and spell.level > block["steps"]):
            continue
        if spell.effect in ("strike", "rout"):
            for target in foes:
                tk = kind_of(state["blocks"][target]["kind"])
                if tk.castle and (spell.effect == "rout" or state["blocks"][target]["steps"] == 1):
                    continue                            # 2.4, 5.34
                result.append({"type": verb, "block": bid, field: spell.key, "target": target})
        elif spell.effect == "storm" and foes:
            result.append({"type": verb, "block": bid, field: spell.key})
        elif spell.effect == "heal" and _hurt(state, battle["hex"], block["owner"]):
            result.append({"type": verb, "block": bid, field: spell.key})
    return result


def _hurt(state: dict, hex_: str, seat: int) -> list[str]:
    return [b for b in blocks_at(state, hex_, seat)
            if state["blocks"][b]["steps"] < kind_of(state["blocks"][b]["kind"]).max]


def retreat_targets(state: dict, bid: str) -> list[str]:
    """5.4: the hexes ``bid`` may retreat to now: next to the battle (a flyer: within its move),
    friendly or neutral, no battle there, through a hexside its side may use, within this
    round's hexside limit and the stacking limit."""
    battle = state["battle"]
    block = state["blocks"][bid]
    kind = kind_of(block["kind"])
    if kind.castle:
        return []                                       # 2.4: castles never move
    b = board(state)
    here, seat = battle["hex"], block["owner"]

    def open_to(n):
        return (n != here and can_stand(b, kind, n) and not is_enemy(state, n, seat)
                and not contested(state, n) and n not in state["fights"]
                and len(blocks_at(state, n, seat)) + 1 <= b.stack_limit(n)
                and may_enter(state, seat, n))         # 7.1: the Undead stay on Thilenius
    if kind.flyer:                                      # 5.4: flyers anywhere within their move
        seen, frontier = {here}, [here]
        for _ in range(kind.move):
            frontier = [n for h in frontier for n in b.neighbours(h) if n not in seen]
            seen |= set(frontier)
        return sorted(n for n in seen if open_to(n))
    mine = seat_side(battle, seat)
    attack_sides = attack_hexsides({"entered": battle["entered"], "sides": battle["sides"]})
    result = []
    for n in b.neighbours(here):
        hs = side(here, n)
        if not open_to(n) or not can_step(b, kind, here, n):
            continue
        if mine == "attack" and (battle["entered"].get(hs) or [None])[-1] != seat:
            continue                                    # 5.4: the last to come in goes out
        if mine == "defend" and hs in attack_sides:
            continue
        limit = b.hexside_limit(here, n, forest_limit=state["options"]["forest_border"])
        if battle["retreats"].get(hs, 0) + 1 > limit:
            continue
        result.append(n)
    return result


def regroup_options(state: dict, seat: int) -> list[dict]:
    """5.5: the winner moves blocks out of the hex to friendly or neutral neighbours, or in from
    them, without hexside limits; each block once."""
    battle = state["battle"]
    b = board(state)
    here = battle["hex"]
    result = []
    for bid in blocks_at(state, here, seat):
        kind = kind_of(state["blocks"][bid]["kind"])
        if bid in battle["regrouped"] or kind.castle:
            continue
        for n in b.neighbours(here):
            if (can_stand(b, kind, n) and (kind.flyer or can_step(b, kind, here, n))
                    and not is_enemy(state, n, seat) and not contested(state, n)
                    and n not in state["fights"] and may_enter(state, seat, n)
                    and len(blocks_at(state, n, seat)) + 1 <= b.stack_limit(n)):
                result.append({"type": "regroup", "block": bid, "to": n})
    if len(blocks_at(state, here, seat)) < b.stack_limit(here):
        for n in b.neighbours(here):
            if contested(state, n) or n in state["fights"]:
                continue
            for bid in blocks_at(state, n, seat):
                kind = kind_of(state["blocks"][bid]["kind"])
                if bid in battle["regrouped"] or kind.castle:
                    continue
                if kind.flyer or can_step(b, kind, n, here):
                    result.append({"type": "regroup", "block": bid, "to": here})
    return result


# -- decisions ---------------------------------------------------------------------------------

def decide(state: dict, seat: int, action: dict) -> None:
    """Apply a checked battle decision (mutates ``state``)."""
    battle = state["battle"]
    kind_ = action["type"]
    if kind_ in ("fire", "berserk"):
        bid = battle["turns"][0]
        count = state["blocks"][bid]["steps"] * (2 if kind_ == "berserk" else 1)
        battle["roll"] = {"for": "fire", "block": bid, "count": count,
                          "fire": fire_number(state, bid), "berserk": kind_ == "berserk"}
        battle["step"] = "roll"
    elif kind_ == "pass":
        _turn_done(state)
    elif kind_ == "retreat":
        _retreat(state, action["block"], action["to"])
    elif kind_ == "cast":
        _cast(state, action)
    elif kind_ == "rite":
        _cast(state, {"block": action["block"], "spell": action["rite"],
                      "target": action.get("target")}, rite=True)
    elif kind_ in ("wield", "invoke"):
        if captured(state, state["blocks"][action["block"]]):   # footnote 5: 1d6, a 6 breaks it
            battle["roll"] = {"for": "curse", "block": action["block"], "count": 1,
                              "then": action}
            battle["step"] = "roll"
        else:
            _use_artefact(state, action)
    elif kind_ == "wait":                               # D36: to its own letter's turn
        bid = battle["turns"].pop(0)
        battle["late"].append(bid)
        battle["turns"].append(bid)
        battle["turns"].sort(key=lambda b: _turn_key(state, b))
        battle["current"] = None
        _log(state, {"wait": bid})
        _after_turn(state)
    elif kind_ in ("hand", "keep"):
        if kind_ == "hand":
            art = state["blocks"][action["from"]].pop("artefact")
            state["blocks"][action["to"]]["artefact"] = art
            _log(state, {"hand": action["from"], "to": action["to"]})
        battle["arming"].pop(0)
        if not battle["arming"]:
            _order_turns(state)
    elif kind_ == "hit":
        _hit(state, action["block"])
        _hits_go_on(state)
    elif kind_ in ("dispel", "let"):
        _dispel_answer(state, kind_ == "dispel")
    elif kind_ in ("stay", "switch"):
        if kind_ == "switch":
            key = str(seat)
            battle["sides"][key] = enemy_side(battle["sides"][key])
            _log(state, {"switch": seat, "side": battle["sides"][key], "battle": battle["hex"]})
        battle["asked"].pop(0)
        if not battle["asked"]:
            if over(state):
                _finish(state)
            else:
                _before_turns(state)
    elif kind_ in ("pursue", "no_pursuit"):
        battle["pursuit"] = kind_ == "pursue"
        _log(state, {"pursuit": battle["pursuit"], "battle": battle["hex"]})
        _start_pursuit(state)
    elif kind_ == "regroup":
        place(state, action["block"], action["to"])
        battle["regrouped"].append(action["block"])
    elif kind_ == "done":
        _close(state)
    else:
        raise AssertionError(kind_)


def roll(state: dict, dice: list[int]) -> None:
    """The dice of the pending roll (5.31, 2.21, 2.22)."""
    battle = state["battle"]
    pending, battle["roll"] = battle["roll"], None
    if pending["for"] == "curse":
        _use_artefact(state, pending["then"], broken=dice[0] == 6)
    elif pending["for"] == "fire":
        hits = sum(1 for d in dice if d <= pending["fire"])
        _log(state, {"fire": pending["block"], "dice": dice, "hits": hits,
                     **({"berserk": True} if pending.get("berserk") else {})})
        if pending.get("berserk"):                      # 2.5: then it loses a step
            blk = state["blocks"][pending["block"]]
            blk["steps"] -= 1
            if blk["steps"] == 0:
                _log(state, {"eliminated": pending["block"], "kind": blk["kind"]})
                owner = blk["owner"]
                _drop(state, pending["block"])
                pending = {**pending, "owner": owner}
        owner = pending.get("owner", state["blocks"].get(pending["block"], {}).get("owner"))
        battle["hits"] = {"left": hits, "by": seat_side(battle, owner), "spell": False,
                          "target": None, "seat": owner}
        _hits_go_on(state)
    elif pending["for"] == "dispel":
        cast = battle["cast"]
        success = dice[0] - spell_of(cast["spell"]).level >= 3
        _log(state, {"dispel": pending["block"], "die": dice[0], "dispelled": success})
        if success:
            battle["cast"] = None
            _turn_done(state)
        else:
            _ask_dispel(state)
    else:                                               # a spell's dice
        cast = battle["cast"]
        spell = spell_of(cast["spell"])
        hits = sum(1 for d in dice if d <= spell.fire)
        _log(state, {"spell": spell.key, "dice": dice, "hits": hits})
        battle["cast"] = None
        battle["hits"] = {"left": hits, "by": cast["side"], "spell": True,
                          "target": cast.get("target"), "seat": cast["seat"]}
        _hits_go_on(state)


def _hits_go_on(state: dict) -> None:
    """5.32: hits one at a time to the strongest enemy block; a tie asks its owner (or the
    firing seat when the tied blocks have different owners, D7). 5.34: a spell never removes
    a last step; the 1-step block it hits must retreat."""
    battle = state["battle"]
    hits = battle["hits"]
    while hits["left"] > 0:
        foes = side_blocks(state, battle, enemy_side(hits["by"]))
        if hits["spell"]:
            foes = [b for b in foes if not (kind_of(state["blocks"][b]["kind"]).castle
                                            and state["blocks"][b]["steps"] == 1)]
        if hits["target"] is not None:
            foes = [hits["target"]] if hits["target"] in foes else []
        if not foes:
            hits["left"] = 0
            break
        strongest = max(state["blocks"][b]["steps"] for b in foes)
        among = [b for b in foes if state["blocks"][b]["steps"] == strongest]
        if len(among) > 1:
            owners = {state["blocks"][b]["owner"] for b in among}
            hits["among"] = among
            hits["chooser"] = owners.pop() if len(owners) == 1 else hits["seat"]
            battle["step"] = "hit"
            return
        _hit(state, among[0])
    battle["hits"] = None
    if battle["forced"]:
        battle["step"] = "retreat"
        _skip_stuck_retreats(state)
        return
    _turn_done(state)


def _hit(state: dict, bid: str) -> None:
    """One hit on ``bid``: a step lost (2.11); the last step of a block lost to the dice
    eliminates it, while a spell's hit on a one-step block forces its retreat (5.34)."""
    battle = state["battle"]
    hits = battle["hits"]
    hits["left"] -= 1
    hits.pop("among", None)
    block = state["blocks"][bid]
    if hits["spell"] and block["steps"] == 1:
        if bid not in battle["forced"]:
            battle["forced"].append(bid)
        return
    block["steps"] -= 1
    if block["steps"] == 0:
        _log(state, {"eliminated": bid, "kind": block["kind"]})
        _drop(state, bid)


def _drop(state: dict, bid: str) -> None:
    battle = state["battle"]
    remove(state, bid)
    if bid in battle["turns"]:
        battle["turns"].remove(bid)
    if bid in battle["forced"]:
        battle["forced"].remove(bid)


def _skip_stuck_retreats(state: dict) -> None:
    """5.34 (D8): a block a spell forces out that has nowhere to go stays."""
    battle = state["battle"]
    while battle["forced"] and not retreat_targets(state, battle["forced"][0]):
        battle["forced"].pop(0)
    if not battle["forced"]:
        _turn_done(state)


def _retreat(state: dict, bid: str, to: str) -> None:
    """5.4: one block leaves the battle; the hexside's count for the round grows."""
    battle = state["battle"]
    hs = side(battle["hex"], to)
    battle["retreats"][hs] = battle["retreats"].get(hs, 0) + 1
    place(state, bid, to)
    state["blocks"][bid]["moved"] = True
    _log(state, {"retreat": bid, "to": to})
    if bid in battle["turns"]:
        battle["turns"].remove(bid)
        if battle["step"] == "turn":
            _after_turn(state)
            return
    if bid in battle["forced"]:
        battle["forced"].remove(bid)
        if battle["round"] == 4 and battle["step"] == "retreat":
            _retreat_all(state)
            return
        _skip_stuck_retreats(state)


def _spend_charge(state: dict, bid: str, *, broken: bool = False) -> None:
    """2.7: 'Ĉiu uzo de artefakto malpligas 1 ties forton'; spent (or broken, footnote 5), it
    is gone."""
    art = state["blocks"][bid]["artefact"]
    art["steps"] -= 1
    if art["steps"] <= 0 or broken:
        del state["blocks"][bid]["artefact"]
        _log(state, {"artefact_gone": art["key"], "from": bid, **({"broken": True} if broken else {})})


def _use_artefact(state: dict, action: dict, *, broken: bool = False) -> None:
    """Wield a weapon (2.7: the carrier's steps in dice at the weapon's hit number, D36) or
    invoke a magic artefact's spell (a charge, whatever its level)."""
    battle = state["battle"]
    bid = action["block"]
    if action["type"] == "wield":
        weapon = _artefact(state, bid, "weapon")
        _spend_charge(state, bid, broken=broken)
        battle["roll"] = {"for": "fire", "block": bid, "count": state["blocks"][bid]["steps"],
                          "fire": weapon.fire, "berserk": False, "weapon": weapon.key}
        battle["step"] = "roll"
    else:
        _cast(state, {"block": bid, "spell": action["spell"], "target": action.get("target")},
              artefact=True, broken=broken)


def _cast(state: dict, action: dict, *, rite: bool = False, artefact: bool = False,
          broken: bool = False) -> None:
    """2.22: the wizard pays the level in steps (it may die of it); enemy wizards may dispel.
    2.36: a cleric's rite costs it a step and is no spell: nobody dispels it (D25)."""
    battle = state["battle"]
    bid = action["block"]
    spell = spell_of(action["spell"])
    block = state["blocks"][bid]
    seat = block["owner"]
    battle["cast"] = {"spell": spell.key, "caster": bid, "seat": seat,
                      "side": seat_side(battle, seat), "target": action.get("target")}
    _log(state, {"cast": spell.key, "by": bid, "target": action.get("target"),
                 **({"artefact": block["artefact"]["key"]} if artefact else {})})
    if artefact:
        _spend_charge(state, bid, broken=broken)
    else:
        block["steps"] -= 1 if rite else spell.level
    if block["steps"] <= 0:
        _drop(state, bid)
    battle["asked"] = [] if rite else [
        w for w in side_blocks(state, battle, enemy_side(seat_side(battle, seat)))
        if kind_of(state["blocks"][w]["kind"]).wizard]
    _ask_dispel(state)


def _ask_dispel(state: dict) -> None:
    battle = state["battle"]
    battle["asked"] = [w for w in battle["asked"] if w in state["blocks"]]
    if battle["asked"]:
        battle["step"] = "dispel"
        return
    _resolve_spell(state)


def _dispel_answer(state: dict, tries: bool) -> None:
    """2.21: Dispel Magic costs the wizard a step; 1d6 less the spell's level, 3 or more
    dispels it."""
    battle = state["battle"]
    wizard = battle["asked"].pop(0)
    if not tries:
        _ask_dispel(state)
        return
    block = state["blocks"][wizard]
    block["steps"] -= 1
    if block["steps"] <= 0:
        _drop(state, wizard)
    battle["roll"] = {"for": "dispel", "block": wizard, "count": 1}
    battle["step"] = "roll"


def _resolve_spell(state: dict) -> None:
    battle = state["battle"]
    cast = battle["cast"]
    spell = spell_of(cast["spell"])
    if spell.effect in ("strike", "storm"):
        battle["roll"] = {"for": "spell", "count": spell.dice}
        battle["step"] = "roll"
        return
    battle["cast"] = None
    if spell.effect == "heal":
        for _ in range(spell.steps):
            hurt = _hurt(state, battle["hex"], cast["seat"])
            if not hurt:
                break
            weakest = min(hurt, key=lambda b: (state["blocks"][b]["steps"], b))
            state["blocks"][weakest]["steps"] += 1
    elif spell.effect == "rout" and cast["target"] in state["blocks"] \
            and state["blocks"][cast["target"]]["hex"] == battle["hex"]:
        battle["forced"].append(cast["target"])
        battle["step"] = "retreat"
        _skip_stuck_retreats(state)
        return
    _turn_done(state)


def _turn_done(state: dict) -> None:
    """The head block's combat turn is over (or the forced retreats it caused are done)."""
    battle = state["battle"]
    if battle["turns"] and battle["turns"][0] == battle.get("current"):
        battle["turns"].pop(0)
    battle["current"] = None
    _after_turn(state)


def _after_turn(state: dict) -> None:
    battle = state["battle"]
    if over(state):
        _finish(state)
        return
    if _head_turn(state):
        return
    if battle["round"] < 3:
        _next_round(state)
    elif battle["round"] == 3:
        battle["step"] = "pursue"                       # 5.21: the attacker must retreat
    else:
        _retreat_all(state)


def _start_pursuit(state: dict) -> None:
    """5.21: a fourth round in which the defenders fire and the attackers only retreat; without
    it the attackers simply retreat."""
    battle = state["battle"]
    battle["round"] = 4
    battle["retreats"] = {}
    battle["late"] = []
    if battle["pursuit"]:
        _order_turns(state)
        return
    _retreat_all(state)


def _retreat_all(state: dict) -> None:
    """The attackers still in the hex retreat one by one; one that cannot is eliminated (5.4)."""
    battle = state["battle"]
    battle["turns"] = []
    while True:
        left = side_blocks(state, battle, "attack")
        if not left:
            _finish(state)
            return
        bid = left[0]
        if retreat_targets(state, bid):
            battle["forced"] = [bid]
            battle["step"] = "retreat"
            return
        _log(state, {"eliminated": bid, "kind": state["blocks"][bid]["kind"], "cut_off": True})
        _drop(state, bid)


def _finish(state: dict) -> None:
    """The battle is decided: the winning side's holder regroups (5.5); allies of the holder
    leave the hex (D9) by regrouping first."""
    battle = state["battle"]
    here = battle["hex"]
    for side_ in ("attack", "defend"):
        if side_blocks(state, battle, side_):
            battle["winner"] = side_
    winners = sorted({state["blocks"][b]["owner"] for b in state["at"].get(here, [])})
    if not winners:
        _close(state)
        return
    principal = battle["attacker"] if battle["winner"] == "attack" else battle["defender"]
    holder = principal if principal in winners else max(
        winners, key=lambda s: (len(blocks_at(state, here, s)), -s))
    for seat in winners:
        if seat != holder:                              # D9: one army holds a hex
            for bid in blocks_at(state, here, seat):
                targets = [o["to"] for o in regroup_options(state, seat) if o["block"] == bid]
                if targets:
                    place(state, bid, targets[0])
                else:
                    _drop(state, bid)
    battle["holder"] = holder
    battle["step"] = "regroup"
    _log(state, {"won": here, "by": holder})


def _close(state: dict) -> None:
    """The battle is over; the next one begins (rules.advance)."""
    state["battle"] = None


def drop_seat(state: dict, seat: int) -> None:
    """D11: a seat left the match during this battle (its blocks are already off the board);
    what waited on it or on its blocks goes on without it."""
    battle = state["battle"]
    gone = [b for b in battle["turns"] + battle["forced"] if b not in state["blocks"]]
    battle["turns"] = [b for b in battle["turns"] if b not in gone]
    battle["forced"] = [b for b in battle["forced"] if b not in gone]
    battle["asked"] = [a for a in battle["asked"]
                       if (a != seat if isinstance(a, int) else a in state["blocks"])]
    battle["sides"].pop(str(seat), None)
    step = battle["step"]
    if step == "regroup":
        if battle["holder"] == seat:
            _close(state)
        return
    if over(state):
        battle["hits"] = battle["cast"] = battle["roll"] = None
        _finish(state)
        return
    pending = battle["roll"]
    if step == "roll" and pending["for"] == "fire" and pending["block"] not in state["blocks"]:
        battle["roll"] = None
        battle["current"] = None
        _after_turn(state)
    elif step == "hit":
        _hits_go_on(state)
    elif step == "dispel" and not battle["asked"]:
        _resolve_spell(state)
    elif step == "retreat" and not battle["forced"]:
        if battle["round"] == 4:
            _retreat_all(state)
        else:
            _turn_done(state)
    elif step == "switch" and not battle["asked"]:
        _before_turns(state)
    elif step == "arm":
        battle["arming"] = [s for s in battle["arming"] if s != seat]
        if not battle["arming"]:
            _order_turns(state)
    elif step == "pursue" and battle["defender"] == seat:
        battle["pursuit"] = False
        _start_pursuit(state)
    elif step == "turn" and battle["current"] not in state["blocks"]:
        battle["current"] = None
        _after_turn(state)
