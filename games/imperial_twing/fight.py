"""Imperial Twing: fights. An attack, each fight of a duel and an endgame attack run the same
steps (docs/rules/imperial-twing.md, F.1-F.15 and D15-D19):

1. commit: the attacker lays spells and creatures one card (or mounted pair) at a time, then
   each defender in play order; every card is its own event, laid face up (F.2).
2. support (attacks at 3-4 players only, M.1-M.5): each other seat in play order may stake an
   ornicle and add one spell or creature of a side's colour.
3. roll: every side that cast a spell rolls its Orn die (one chance event for all, F.8); a
   spiral draws an event at once, the attacker's first (F.15, W.3).
4. window: the fighters are asked in turn, the attacker first, to play a cat, Miromon, a trap
   or an object's re-roll, or to pass; the window closes when every one of them has passed
   since the last response (D15). A re-roll is a chance event of its own.
5. resolve: each defender's fight against the attacker is decided on its own (F.10-F.14).
"""
from __future__ import annotations

from .content import (BOOTS, BRA, CARD, CATS_SET, CLOVER, CROSS, CUP, DOLL, ELEMENT, EVENT, HAT,
                      MIROMON, POWER, PANTS, SOCKS, SPELLS, SPELLS_OF, SPIRAL, SUN, TEDDY,
                      TRAPS_SET, die_face, inverted)
from .table import (cats_in_hand, gain_object, gain_ornicles, has_active, in_play, lose_ornicles,
                    move_ornicles, play_order, queue_draw, rules_version, spells_in_hand,
                    traps_in_hand)

ATTACK, DUEL, ENDGAME = "attack", "duel", "endgame"
_power, _element = POWER.__getitem__, ELEMENT.__getitem__  # looked up once, not per call
_NONE = frozenset()
MAX_SPELLS_IN_FIGHT = 3  # F.3: "bis zu drei Zaubersprüche desselben Elements"


def start_fight(state: dict, kind: str, attacker: int, defenders: list[int], number: int = 1) -> None:
    """A new fight; ``number`` counts the fights of a duel."""
    sides = [None] * state["players"]
    for seat in [attacker, *defenders]:
        sides[seat] = {"mode": None, "colour": None, "spells": [], "units": [], "done": False,
                       "die": None, "rerolled": False, "bonus": 0}
    state["fight"] = {"kind": kind, "attacker": attacker, "defenders": list(defenders),
                      "number": number, "step": "commit", "sides": sides, "supporters": [],
                      "support_queue": [], "stakes": 0, "rolling": [], "window": None,
                      "events": [], "quake": False}


def fighters(fight: dict) -> list[int]:
    """The attacker, then the defenders in play order."""
    return [fight["attacker"], *fight["defenders"]]


def opponents(fight: dict, seat: int) -> list[int]:
    """The attacker's opponents are the defenders; a defender's opponent is the attacker."""
    return list(fight["defenders"]) if seat == fight["attacker"] else [fight["attacker"]]


def unit_power(unit: dict, rider: bool = True) -> int:
    """R.1: a mount and its rider count as one creature of both powers; ``rider=False``: the
    mount alone (O.10: no mounted creature counts against the Cup's holder)."""
    return CARD[unit["card"]].power + (CARD[unit["rider"]].power if unit["rider"] and rider else 0)


# -- 1. commit -------------------------------------------------------------------------------------

def riders_blocked(state: dict, fight: dict, seat: int) -> bool:
    """O.10 (Tasse der Lahmheit): no mounted creatures against its holder. "In einer
    Mehrspieler-Situation (z. B. im Endspiel) gilt dies nur für Angriffe gegen dich": from
    version 3 the endgame attacker may still mount riders when a defender without the Cup
    meets them (they count for nothing against the holder, ``side_total``, D18); version 2
    let one Cup among the defenders bar them against all."""
    holders = [o for o in opponents(fight, seat) if has_active(state, o, CUP)]
    if rules_version(state) >= 3:
        return len(holders) == len(opponents(fight, seat))
    return bool(holders)


def unit_choices(state: dict, fight: dict, seat: int) -> list[dict]:
    """The seat's retinue as units: each creature or mount alone, and each mount carrying a
    creature of its colour and equal or lower power (R.1-R.2: mounts never carry mounts)."""
    retinue = state["retinues"][seat]
    units = [{"card": c} for c in retinue]
    if not riders_blocked(state, fight, seat):
        for mount in (c for c in retinue if CARD[c].kind == "mount"):
            units += [{"card": mount, "rider": r} for r in retinue
                      if CARD[r].kind == "creature" and CARD[r].element == CARD[mount].element
                      and CARD[r].power <= CARD[mount].power]
    return units


def unit_slot(state: dict, fight: dict, seat: int, element: str) -> str | None:
    """Where a creature of ``element`` would go: "base" (one per spell of the side's colour,
    F.5; any number of one colour in a shield, S.1), "extra" (the Teddy's one creature of any
    colour, O.2) or None (no room)."""
    side = fight["sides"][seat]
    teddy = has_active(state, seat, TEDDY) and not any(u["extra"] for u in side["units"])
    if side["mode"] is None:  # F.3: an attack needs a spell first; a defender may open a shield
        return "base" if seat != fight["attacker"] else None
    base = sum(1 for u in side["units"] if not u["extra"])
    if element == side["colour"] and (side["mode"] == "shield" or base < len(side["spells"])):
        return "base"
    return "extra" if teddy else None


def commit_actions(state: dict, seat: int) -> list[dict]:
    """Every card the seat may still lay, and ``done`` once its side may stand (F.3, F.4)."""
    fight = state["fight"]
    side = fight["sides"][seat]
    actions = []
    if side["mode"] in (None, "spells") and len(side["spells"]) < MAX_SPELLS_IN_FIGHT:
        actions += [{"type": "spell", "card": c} for c in spells_in_hand(state, seat)
                    if side["colour"] in (None, CARD[c].element)]
    actions += [{"type": "creature", **unit} for unit in unit_choices(state, fight, seat)
                if unit_slot(state, fight, seat, CARD[unit["card"]].element)]
    if side["spells"] or (side["mode"] == "shield"):
        actions.append({"type": "done"})
    return actions


def can_lay(state: dict, seat: int) -> bool:
    """The seat has a card to lay: ``commit_actions`` offers more than ``done`` (D13), asked
    without building the actions. A unit's slot depends on its card's element only, and a
    mounted pair's card is a mount of the retinue that is also a unit alone, so a unit has a
    slot exactly when some card of the retinue has one (``unit_slot``, written out)."""
    fight = state["fight"]
    side = fight["sides"][seat]
    mode, colour = side["mode"], side["colour"]
    if mode != "shield" and len(side["spells"]) < MAX_SPELLS_IN_FIGHT:
        hand = state["hands"][seat]
        if colour is None:
            if not SPELLS.isdisjoint(hand):
                return True
        elif not SPELLS_OF.get(colour, _NONE).isdisjoint(hand):  # a spell of its colour
            return True
    retinue = state["retinues"][seat]
    if not retinue:
        return False
    if mode is None:  # F.3: an attack needs a spell first; a defender may open a shield
        return seat != fight["attacker"]
    units = side["units"]
    if TEDDY in state["active"][seat] and not any(u["extra"] for u in units):
        return True  # O.2: one creature of any colour
    if mode == "shield" or sum(1 for u in units if not u["extra"]) < len(side["spells"]):
        return colour in map(_element, retinue)
    return False


def commit(state: dict, seat: int, action: dict) -> None:
    """Lay one card (or a mounted pair) face up, or close the side."""
    fight = state["fight"]
    side = fight["sides"][seat]
    if action["type"] == "done":
        side["done"] = True
        return
    card = CARD[action["card"]]
    if action["type"] == "spell":
        state["hands"][seat].remove(card.id)
        side["spells"].append(card.id)
        side["mode"], side["colour"] = "spells", side["colour"] or card.element
        return
    slot = unit_slot(state, fight, seat, card.element)
    rider = action.get("rider")
    for c in (card.id, rider):
        if c:
            state["retinues"][seat].remove(c)
    if side["mode"] is None:
        side["mode"], side["colour"] = "shield", card.element
    side["units"].append({"card": card.id, "rider": rider, "extra": slot == "extra"})


# -- 2. support --------------------------------------------------------------------------------------

def support_candidates(state: dict, fight: dict) -> list[int]:
    """M.1: at 3-4 players, in an attack (never a duel, M.1, or the endgame, where every seat
    fights), the other seats in play order after the attacker."""
    if fight["kind"] != ATTACK or len(in_play(state)) < 3:
        return []
    return [s for s in play_order(state, fight["attacker"]) if s not in fighters(fight)]


def support_actions(state: dict, seat: int) -> list[dict]:
    """M.2: stake an ornicle and add one spell (from the hand) or one creature (from the
    retinue, without rider: one card) of the supported side's colour (D17)."""
    fight = state["fight"]
    if state["ornicles"][seat] < 1:
        return []
    cards = spells_in_hand(state, seat) + state["retinues"][seat]
    return [{"type": "support", "side": side, "card": c} for side in fighters(fight)
            for c in cards if CARD[c].element == fight["sides"][side]["colour"]]


def support(state: dict, seat: int, action: dict) -> None:
    fight = state["fight"]
    pile = state["hands"] if CARD[action["card"]].kind == "spell" else state["retinues"]
    pile[seat].remove(action["card"])
    state["ornicles"][seat] -= 1
    fight["stakes"] += 1
    fight["supporters"].append({"seat": seat, "side": action["side"], "card": action["card"]})


# -- 3. the roll and events ------------------------------------------------------------------------

def rollers(fight: dict) -> list[int]:
    """F.8, S.2: every side that cast a spell rolls; a shield (or an empty side) does not."""
    return [s for s in fighters(fight) if fight["sides"][s]["mode"] == "spells"]


def set_dice(state: dict, outcome: list[int]) -> None:
    """The dice of ``fight.rolling`` fall; each spiral draws an event, the attacker's first
    (F.15, W.3)."""
    fight = state["fight"]
    for seat, value in zip(fight["rolling"], outcome):
        face = die_face(value)
        fight["sides"][seat]["die"] = face
        if face == SPIRAL:
            state["event_queue"].append(seat)
    fight["rolling"] = []
    if fight["step"] == "roll":
        fight["window"] = {"at": 0, "quiet": 0}
    fight["step"] = "window"


def resolve_event(state: dict, seat: int) -> None:
    """EV.1-EV.3, W.3: the top event card acts at once. O.6 (Puppe der Klarheit): an event its holder
    draws does not touch the holder, only the others it names (D22); the scopes are D31
    (self, all, others), an object it brings works at once (D30)."""
    card = EVENT[state["event_deck"].pop(0)]
    state["event_discard"].append(card.id)
    fight = state["fight"]
    if fight is not None:
        fight["events"].append([seat, card.id])
    doll = has_active(state, seat, DOLL)
    if card.scope == "self":
        targets = [] if doll else [seat]
    elif card.scope == "all":
        targets = [s for s in in_play(state) if not (doll and s == seat)]
    else:
        targets = [s for s in in_play(state) if s != seat]
    apply_event(state, seat, card, targets)


def apply_event(state: dict, seat: int, card, targets: list[int]) -> None:
    """The effect of one event card on its targets (content.EventCard)."""
    fight = state["fight"]
    if card.effect == "ornicles":
        for target in targets:
            (gain_ornicles if card.amount > 0 else lose_ornicles)(state, target, abs(card.amount))
    elif card.effect == "draw":
        for target in targets:
            queue_draw(state, target, card.amount)
    elif card.effect == "bonus" and fight is not None:
        for target in targets:
            if fight["sides"][target] is not None:
                fight["sides"][target]["bonus"] += card.amount
    elif card.effect == "object" and targets and state["object_deck"]:
        gain_object(state, seat, state["object_deck"].pop(0))
    elif card.effect == "flee" and targets and fight is not None:
        side = fight["sides"][seat]
        if side["units"]:
            unit = max(side["units"], key=unit_power)
            side["units"].remove(unit)
            state["retinues"][seat] += [c for c in (unit["card"], unit["rider"]) if c]
    elif card.effect == "steal" and targets and fight is not None:
        for other in opponents(fight, seat):
            move_ornicles(state, other, seat, card.amount)
    elif card.effect == "quake" and fight is not None and quake_shakes(state, seat, targets):
        fight["quake"] = True


def quake_shakes(state: dict, seat: int, targets: list[int]) -> bool:
    """D22, O.6: an earthquake ties the whole fight, its drawer's too, so one the Doll's holder
    draws has no effect at all (from version 3: the drawer must be among its targets; version 2
    tied the fight whenever another seat was)."""
    return seat in targets if rules_version(state) >= 3 else bool(targets)


# -- 4. the response window --------------------------------------------------------------------------

def protected(state: dict, owner: int, card: str) -> bool:
    """D16: with protected="also-traps", creatures of their owner's colour cannot be trapped."""
    return (state["options"]["protected"] == "also-traps"
            and CARD[card].element == state["characters"][owner])


def responses(state: dict, seat: int) -> list[dict]:
    """What the seat may do in the window now, besides passing: K.1 a cat re-rolls its own
    die, K.3/K.4 Miromon re-rolls or inverts any die of the fight, P.3 a trap removes one of an
    opponent's creatures, O.4/O.5 the Hat or Clover re-roll once. O.7/O.9 bar traps and cats
    against their holders."""
    fight = state["fight"]
    side, opps = fight["sides"][seat], opponents(fight, seat)
    actions = []
    cats = cats_in_hand(state, seat)
    socks = socks_against(state, seat)
    if cats_open(state, seat, socks):
        ordinary = [c for c in cats if c != MIROMON]
        if side["die"] is not None:
            actions += [{"type": "cat", "card": c} for c in ordinary[:1] + [c for c in cats if c == MIROMON]]
        if MIROMON in cats:
            actions += [{"type": "invert", "target": t} for t in [seat, *opps]
                        if fight["sides"][t]["die"] is not None and t not in socks]
    traps = traps_in_hand(state, seat)
    if traps:
        for other in opps:
            if has_active(state, other, BOOTS):
                continue
            actions += [{"type": "trap", "card": traps[0], "target": c}
                        for unit in fight["sides"][other]["units"] for c in (unit["card"], unit["rider"])
                        if c and not protected(state, other, c)]
    reroller = CLOVER if seat == fight["attacker"] else HAT
    if side["die"] is not None and not side["rerolled"] and has_active(state, seat, reroller):
        actions.append({"type": "reroll"})
    return actions


def socks_against(state: dict, seat: int) -> list[int]:
    """O.9 (Socken der Gewissheit): the seat's opponents in this fight whose Socks bar its cats."""
    return [o for o in opponents(state["fight"], seat) if has_active(state, o, SOCKS)]


def cats_open(state: dict, seat: int, socks: list[int]) -> bool:
    """O.9: "Dies hindert deinen Gegner nicht daran, Katzenkarten gegen andere Spieler
    einzusetzen". From version 3, with option socks="others" (the default), the endgame
    attacker may play cats while one defender without the Socks is left for them to count
    against (D18: against the holder its die stays as it was before its first cat, ``held``);
    socks="bar-all" and version 2: one holder among the opponents bars every cat."""
    if not socks:
        return True
    if rules_version(state) >= 3 and state["options"].get("socks") == "others":
        return len(socks) < len(opponents(state["fight"], seat))
    return False


def can_respond(state: dict, seat: int) -> bool:
    """``bool(responses(state, seat))`` without building them: the window asks it of every
    fighter after every roll and response."""
    fight = state["fight"]
    side = fight["sides"][seat]
    die = side["die"]
    attacker = fight["attacker"]
    if (die is not None and not side["rerolled"]
            and (CLOVER if seat == attacker else HAT) in state["active"][seat]):
        return True
    hand = state["hands"][seat]
    cats, traps = not CATS_SET.isdisjoint(hand), not TRAPS_SET.isdisjoint(hand)
    if not (cats or traps):
        return False
    opps = fight["defenders"] if seat == attacker else (attacker,)
    if cats:
        socks = socks_against(state, seat)
        if cats_open(state, seat, socks):
            if die is not None:
                return True  # a cat on its own die
            if MIROMON in hand and any(fight["sides"][t]["die"] is not None and t not in socks
                                       for t in opps):
                return True  # Miromon inverts an opponent's die
    if traps:
        for other in opps:
            if BOOTS in state["active"][other]:
                continue
            for unit in fight["sides"][other]["units"]:
                for c in (unit["card"], unit["rider"]):
                    if c and not protected(state, other, c):
                        return True
    return False


def window_seat(state: dict) -> int | None:
    """D15: the next fighter, in turn from the attacker, who has something to play; None when
    every fighter has passed (or had nothing to play) since the last response."""
    fight = state["fight"]
    window, order = fight["window"], fighters(fight)
    count = len(order)
    while window["quiet"] < count:
        seat = order[window["at"] % count]
        if can_respond(state, seat):
            return seat
        window["quiet"] += 1
        window["at"] += 1
    return None


def respond(state: dict, seat: int, action: dict) -> None:
    """Carry out a response (or a pass); a re-roll waits for its chance event."""
    fight = state["fight"]
    window = fight["window"]
    window["at"] += 1
    kind = action["type"]
    if kind == "pass":
        window["quiet"] += 1
        return
    window["quiet"] = 0
    hold_die_for_socks(state, seat, action)
    if kind in ("cat", "invert", "trap"):
        state["hands"][seat].remove(action.get("card", MIROMON))
        state["discard"].append(action.get("card", MIROMON))
    if kind in ("cat", "reroll"):
        fight["sides"][seat]["rerolled"] |= kind == "reroll"
        fight["rolling"], fight["step"] = [seat], "reroll"
    elif kind == "invert":
        target = fight["sides"][action["target"]]
        target["die"] = inverted(target["die"])
    elif kind == "trap":
        trap_in_fight(state, action["target"])


def hold_die_for_socks(state: dict, seat: int, action: dict) -> None:
    """O.9, D18: a cat the endgame attacker plays on its own die is not used against a Socks
    holder among the defenders, so the side keeps the die as it was before its first cat
    (``held``) for that fight; the Clover's re-roll is not a cat (O.5: "wird von den Socken
    der Gewissheit nicht beeinflusst") and counts against every defender, so none is held."""
    side, kind = state["fight"]["sides"][seat], action["type"]
    if kind == "reroll":
        side.pop("held", None)
    elif (kind == "cat" or (kind == "invert" and action["target"] == seat)) \
            and socks_against(state, seat):
        side.setdefault("held", side["die"])


def trap_in_fight(state: dict, card: str) -> None:
    """P.3, R.3: the trapped creature is discarded; of a mount and its rider only the one trapped,
    and the other fights on alone."""
    fight = state["fight"]
    for side in fight["sides"]:
        for unit in side["units"] if side else []:
            if card in (unit["card"], unit["rider"]):
                state["discard"].append(card)
                if unit["rider"] is None:
                    side["units"].remove(unit)
                elif card == unit["rider"]:
                    unit["rider"] = None
                else:
                    unit["card"], unit["rider"] = unit["rider"], None
                return


# -- 5. resolution ----------------------------------------------------------------------------------

def effective_die(state: dict, seat: int, against: int):
    """The die as it counts for ``seat`` against ``against``: a spiral or no die counts 0 (W.2);
    O.3 (Höschen) turns one's own cross to 0, O.8 (BH) the opponent's sun to 0; E.1: with a spell
    of one's own colour negative numbers count 0, a cross stays a cross. O.9, D18: against a
    Socks holder the die held before the attacker's first cat counts."""
    side = state["fight"]["sides"][seat]
    face = side["held"] if "held" in side and SOCKS in state["active"][against] else side["die"]
    if face is None or face == SPIRAL:
        return 0
    if face == CROSS:
        return 0 if PANTS in state["active"][seat] else CROSS
    if face == SUN:
        return 0 if BRA in state["active"][against] else SUN
    if face < 0 and side["colour"] == state["characters"][seat]:
        return 0
    return face


def side_total(state: dict, seat: int, die, against: int) -> int:
    """F.6: spells, creatures and supporters' cards, plus event bonuses and the die. O.10, D18:
    from version 3 a rider counts nothing against the Cup's holder (only the endgame attacker
    can have one there, or a side whose opponent gained the Cup during the fight, D30)."""
    fight = state["fight"]
    side = fight["sides"][seat]
    riders = rules_version(state) < 3 or CUP not in state["active"][against]
    total = sum(map(_power, side["spells"]))
    for unit in side["units"]:  # unit_power, written out
        total += POWER[unit["card"]]
        if riders and unit["rider"]:
            total += POWER[unit["rider"]]
    if fight["supporters"]:
        total += sum(POWER[s["card"]] for s in fight["supporters"] if s["side"] == seat)
    return total + side["bonus"] + (die if isinstance(die, int) else 0)


def pair_outcome(state: dict, defender: int) -> dict:
    """F.10, F.14, W.2, W.5, D19: who wins the attacker's fight against ``defender``."""
    fight = state["fight"]
    attacker = fight["attacker"]
    da, dd = effective_die(state, attacker, defender), effective_die(state, defender, attacker)
    ta, td = side_total(state, attacker, da, defender), side_total(state, defender, dd, attacker)
    if fight["quake"]:
        winner = "tie"
    elif not fight["sides"][attacker]["spells"]:
        winner = "defender"  # F.3: no attack without a spell (a duel's later fight, D13)
    elif (da == SUN and dd == SUN) or (da == CROSS and dd == CROSS):
        winner = "tie"
    elif da == SUN or dd == CROSS:
        winner = "attacker"
    elif dd == SUN or da == CROSS:
        winner = "defender"
    else:
        winner = "attacker" if ta > td else "defender" if td > ta else "tie"
    return {"defender": defender, "winner": winner, "attacker_total": ta, "defender_total": td,
            "attacker_die": da, "defender_die": dd}


def resolve(state: dict) -> list[dict]:
    """F.10-F.14: rewards, supporters, and every card back to a retinue or onto the discard
    pile; the fight becomes ``last_fight``. Returns the outcome against each defender."""
    fight = state["fight"]
    attacker, kind, sides = fight["attacker"], fight["kind"], fight["sides"]
    outcomes = [pair_outcome(state, d) for d in fight["defenders"]]
    for outcome in outcomes:
        defender, winner = outcome["defender"], outcome["winner"]
        if kind == ENDGAME:
            if winner == "defender":
                gain_ornicles(state, defender, 1)  # G.7
            continue
        seat = attacker if winner == "attacker" else defender if winner == "defender" else None
        if seat is not None and sides[seat]["mode"] == "spells":
            gain_ornicles(state, seat, 1)  # F.10; S.2: a shield wins no ornicle
    if fight["supporters"]:
        settle_supporters(state, outcomes[0] if outcomes else None)
    lost_any = any(o["winner"] == "defender" for o in outcomes)
    discard = state["discard"]
    order = fighters(fight)
    for seat in order:
        side = sides[seat]
        discard += side["spells"]
        if not side["units"]:
            continue
        lost = lost_any if seat == attacker else any(
            o["defender"] == seat and o["winner"] == "attacker" for o in outcomes)
        keep_element = state["characters"][seat] if seat == attacker else None
        retinue = state["retinues"][seat]
        for unit in side["units"]:
            for card in (unit["card"], unit["rider"]):
                if card:
                    keep = not lost or (keep_element is not None
                                        and ELEMENT[card] == keep_element)
                    (retinue if keep else discard).append(card)
    last = final_summary(fight, order, outcomes)
    last["turn"] = state["turn"]
    state["last_fight"] = last
    state["fight"] = None
    return outcomes


def settle_supporters(state: dict, outcome: dict | None) -> None:
    """M.3-M.4, D17: a supporter of the winning side gets its stake back and one more ornicle;
    a supporter of the losing side gives its stake to the winner; a tie returns the stake.
    A supporting creature follows its side: back to the retinue unless the side lost."""
    fight = state["fight"]
    for sup in fight["supporters"]:
        seat, card = sup["seat"], sup["card"]
        fight["stakes"] -= 1
        winner = outcome["winner"] if outcome else "tie"
        if winner == "tie":
            state["ornicles"][seat] += 1
            won = True
        else:
            winning_seat = fight["attacker"] if winner == "attacker" else outcome["defender"]
            won = sup["side"] == winning_seat
            state["ornicles"][seat if won else winning_seat] += 1
            if won:
                gain_ornicles(state, seat, 1)
        keep = won and CARD[card].kind != "spell"
        (state["retinues"][seat] if keep else state["discard"]).append(card)


def cancel_fight(state: dict, *, recall: bool = True) -> None:
    """D14: a fight whose fighter leaves is called off: every card goes back where it came
    from and every stake to its owner. ``recall``: the spells back in a hand stay known
    (``reveal``); version 1 (editions.py) kept no such record."""
    fight = state["fight"]
    for seat in fighters(fight):
        side = fight["sides"][seat]
        state["hands"][seat] += side["spells"]
        if recall:
            reveal(state, seat, side["spells"])
        state["retinues"][seat] += [c for u in side["units"] for c in (u["card"], u["rider"]) if c]
    for sup in fight["supporters"]:
        if CARD[sup["card"]].kind == "spell":
            state["hands"][sup["seat"]].append(sup["card"])
            if recall:
                reveal(state, sup["seat"], [sup["card"]])
        else:
            state["retinues"][sup["seat"]].append(sup["card"])
        state["ornicles"][sup["seat"]] += 1
    state["fight"] = None


def reveal(state: dict, seat: int, cards: list[str]) -> None:
    """D14: cards that lay face up go back to a hand, so every seat knows they are there (the
    views' ``revealed``; issue 15.1, perfect recall). The key exists only while it names a
    card, so states without one encode as they always did; it is replaced, never changed in
    place (``clone`` shares it)."""
    if cards:
        shown = [list(c) for c in state.get("revealed") or [[]] * state["players"]]
        shown[seat] += cards
        state["revealed"] = shown


def forget_played(state: dict) -> None:
    """A revealed card that left its hand (laid, discarded) is no longer known to be there."""
    shown = state.get("revealed")
    if shown:
        kept = [[c for c in cards if c in hand] for cards, hand in zip(shown, state["hands"])]
        if any(kept):
            state["revealed"] = kept
        else:
            del state["revealed"]


def held_die(side: dict) -> dict:
    """``{"held": face}`` for a side that holds a die for a Socks holder's fight (D18), else {}:
    the key exists only then, so every other side keeps the shape it always had."""
    return {"held": side["held"]} if "held" in side else {}


def summary(fight: dict, outcomes: list[dict]) -> dict:
    """What the table saw of a finished fight (public)."""
    sides = {}
    for seat in fighters(fight):
        side = fight["sides"][seat]
        entry = sides[str(seat)] = {"mode": side["mode"], "colour": side["colour"],
                                    "spells": list(side["spells"]),
                                    "units": [dict(u) for u in side["units"]], "die": side["die"],
                                    "bonus": side["bonus"]}
        if "held" in side:  # held_die
            entry["held"] = side["held"]
    return {"kind": fight["kind"], "number": fight["number"], "attacker": fight["attacker"],
            "defenders": list(fight["defenders"]), "sides": sides,
            "supporters": [dict(s) for s in fight["supporters"]],
            "events": [list(e) for e in fight["events"]], "quake": fight["quake"],
            "outcomes": outcomes}


def final_summary(fight: dict, order: list[int], outcomes: list[dict]) -> dict:
    """``summary`` of a fight that ends now (``resolve``; ``order``: its ``fighters``): the
    fight leaves the state at once, so its lists and dicts, which no rule changes once they
    lie in ``last_fight`` (shared by ``clone``), are moved there instead of copied
    (tests/games/test_imperial_twing_fast_paths.py holds it to ``summary``)."""
    sides = {}
    all_sides = fight["sides"]
    for seat in order:
        side = all_sides[seat]
        entry = sides[str(seat)] = {"mode": side["mode"], "colour": side["colour"],
                                    "spells": side["spells"], "units": side["units"],
                                    "die": side["die"], "bonus": side["bonus"]}
        if "held" in side:  # held_die
            entry["held"] = side["held"]
    return {"kind": fight["kind"], "number": fight["number"], "attacker": fight["attacker"],
            "defenders": fight["defenders"], "sides": sides, "supporters": fight["supporters"],
            "events": fight["events"], "quake": fight["quake"], "outcomes": outcomes}
