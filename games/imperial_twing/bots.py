"""The heuristic built-in bot for Imperial Twing.

It reads only its view. Its plan: win fights for ornicles, turn ornicles into objects (buying,
the cat ritual, a duel when it is strong), and start the endgame when it holds three objects
and a strong force. In a fight it lays its strongest colour (spells and then the creatures
that fit), defends with the better of spells and a shield (or gives the least when the attack
is hopeless), and in a window re-rolls, inverts or traps only when it is losing.
"""
from __future__ import annotations

from games.engine.bots import Bot

from .content import (BRA, CARD, CLOVER, CROSS, CUP, DOLL, HAT, MIROMON, PANTS, SOCKS, SPIRAL, SUN,
                      TEDDY, BOOTS)

OBJECT_PREFERENCE = (BRA, PANTS, CLOVER, HAT, SOCKS, TEDDY, BOOTS, CUP, DOLL)
ENDGAME_FORCE = 12   # a force this strong starts the endgame
ATTACK_FORCE = 6     # attack when the force is at least this and beats the target's guess


def power(card: str) -> int:
    return CARD[card].power


def element(card: str) -> str | None:
    return CARD[card].element


def best_units(retinue: list[str], colour: str, room: int) -> list[tuple[str, str | None]]:
    """The ``room`` strongest units of ``colour``: mounts carry the strongest riders they can."""
    mounts = sorted((c for c in retinue if CARD[c].kind == "mount" and element(c) == colour),
                    key=power, reverse=True)
    riders = sorted((c for c in retinue if CARD[c].kind == "creature" and element(c) == colour),
                    key=power, reverse=True)
    units = []
    for mount in mounts:
        rider = next((r for r in riders if power(r) <= power(mount)), None)
        if rider:
            riders.remove(rider)
        units.append((mount, rider))
    units += [(r, None) for r in riders]
    units.sort(key=lambda u: power(u[0]) + (power(u[1]) if u[1] else 0), reverse=True)
    return units[:room]


def force(hand: list[str], retinue: list[str]) -> tuple[int, str | None]:
    """The strongest attack the seat can lay: its total without the die, and its colour."""
    best = (0, None)
    for colour in sorted({element(c) for c in hand if CARD[c].kind == "spell"}):  # a stable order
        spells = sorted((power(c) for c in hand if CARD[c].kind == "spell" and element(c) == colour),
                        reverse=True)[:3]
        units = best_units(retinue, colour, len(spells))
        total = sum(spells) + sum(power(m) + (power(r) if r else 0) for m, r in units)
        best = max(best, (total, colour), key=lambda t: t[0])
    return best


def shield(retinue: list[str]) -> int:
    """The strongest shield: every creature of one colour."""
    by_colour: dict[str, int] = {}
    for c in retinue:
        by_colour[element(c)] = by_colour.get(element(c), 0) + power(c)
    return max(by_colour.values(), default=0)


def die_value(face, aligned: bool) -> float:
    if face is None or face == SPIRAL:
        return 0
    if face == SUN:
        return 100
    if face == CROSS:
        return -100
    return max(face, 0) if aligned else face


class HeuristicBot(Bot):
    """Fights for ornicles, buys objects, starts the endgame when strong."""

    name = "heuristic"

    def act(self, message: dict):
        view, legal = message["view"], message["legal_actions"]
        decide = getattr(self, f"decide_{view['phase']}", None)
        choice = decide(view, legal) if decide else None
        return choice if choice in legal else self.rng.choice(legal)

    # -- simple decisions -------------------------------------------------------------------
    def decide_character(self, view, legal):
        return legal[0]

    def decide_direction(self, view, legal):
        return legal[0]

    def decide_limit(self, view, legal):
        """Give up the colour (or the spell) worth least."""
        hand = view["hand"]
        if legal[0]["type"] == "discard_colour":
            worth = {a["element"]: sum(power(c) for c in hand if CARD[c].kind == "spell"
                                       and element(c) == a["element"]) for a in legal}
            return min(legal, key=lambda a: worth[a["element"]])
        return min(legal, key=lambda a: power(a["card"]))

    def decide_take(self, view, legal):
        return min(legal, key=lambda a: OBJECT_PREFERENCE.index(a["object"]))

    def decide_give(self, view, legal):
        return legal[0]

    # -- the turn ----------------------------------------------------------------------------
    def decide_action(self, view, legal):
        me = view["seat"]
        kinds = {a["type"]: a for a in legal}
        owned = view["active_objects"][me] + view["aside_objects"][me]
        if "activate" in kinds:
            best = sorted(owned, key=OBJECT_PREFERENCE.index)[:3]
            for action in legal:
                if action["type"] == "activate" and sorted(action["objects"]) == sorted(best):
                    return action
        total, _ = force(view["hand"], view["retinues"][me])
        for kind in ("begin_endgame", "endgame_attack"):
            if kind in kinds and total >= (ENDGAME_FORCE if kind == "begin_endgame" else ENDGAME_FORCE - 3):
                return kinds[kind]
        buys = [a for a in legal if a["type"] == "buy"]
        if buys:
            return min(buys, key=lambda a: OBJECT_PREFERENCE.index(a["object"]))
        if "ritual" in kinds:
            return kinds["ritual"]
        duels = [a for a in legal if a["type"] == "duel"]
        spells = sum(1 for c in view["hand"] if CARD[c].kind == "spell")
        if duels and total >= ENDGAME_FORCE and spells >= 6:
            return max(duels, key=lambda a: len(view["active_objects"][a["target"]])
                       + len(view["aside_objects"][a["target"]]))
        traps = [a for a in legal if a["type"] == "trap" and power(a["target"]) >= 2]
        if traps:
            return max(traps, key=lambda a: power(a["target"]))
        attacks = [a for a in legal if a["type"] == "attack"]
        if attacks and total >= ATTACK_FORCE:
            def guess(target):  # what the target may defend with
                return max(shield(view["retinues"][target]), 2.5 * min(view["hand_sizes"][target], 3))
            target = min(attacks, key=lambda a: guess(a["target"]))
            if total >= guess(target["target"]):
                return target
        return kinds["pass"]

    # -- fights ------------------------------------------------------------------------------
    def decide_commit(self, view, legal):
        me, fight = view["seat"], view["fight"]
        side = next(s for s in fight["sides"] if s["seat"] == me)
        if me == fight["attacker"]:
            return self._lay(view, legal, side)
        attacker = next(s for s in fight["sides"] if s["seat"] == fight["attacker"])
        threat = sum(power(c) for c in attacker["spells"]) + sum(
            power(u["card"]) + (power(u["rider"]) if u["rider"] else 0) for u in attacker["units"])
        if side["mode"] is None:
            total, colour = force(view["hand"], view["retinues"][me])
            wall = shield(view["retinues"][me])
            spells = [a for a in legal if a["type"] == "spell"]
            if max(total, wall) + 4 < threat and spells:  # hopeless: give the least
                return min(spells, key=lambda a: power(a["card"]))
            if wall > total + 2:
                units = [a for a in legal if a["type"] == "creature"]
                return max(units, key=self._unit_power) if units else None
        return self._lay(view, legal, side)

    def _lay(self, view, legal, side):
        """Strongest spell of the best colour while it fits, then the strongest unit, then done."""
        spells = [a for a in legal if a["type"] == "spell"]
        if spells and (side["mode"] in (None, "spells")):
            colour = side["colour"] or force(view["hand"], view["retinues"][view["seat"]])[1]
            mine = [a for a in spells if element(a["card"]) == colour] or spells
            if len(side["spells"]) < 3 and (not side["spells"] or power(max(mine, key=lambda a: power(a["card"]))["card"]) >= 2
                                             or len(side["spells"]) < 2):
                return max(mine, key=lambda a: power(a["card"]))
        units = [a for a in legal if a["type"] == "creature"]
        if units:
            return max(units, key=self._unit_power)
        return {"type": "done"}

    @staticmethod
    def _unit_power(action):
        return power(action["card"]) + (power(action["rider"]) if action.get("rider") else 0)

    def decide_support(self, view, legal):
        """Back a side that leads by 3 or more with the weakest card that fits."""
        if view["ornicles"][view["seat"]] < 2 or len(legal) == 1:
            return {"type": "pass"}
        totals = {s["seat"]: visible_total(view, s) for s in view["fight"]["sides"]}
        leader = max(totals, key=totals.get)
        if totals[leader] - min(totals.values()) < 3:
            return {"type": "pass"}
        offers = [a for a in legal if a["type"] == "support" and a["side"] == leader]
        return min(offers, key=lambda a: power(a["card"])) if offers else {"type": "pass"}

    def decide_respond(self, view, legal):
        """When losing: re-roll a poor die (the object first, then a cat), invert a strong
        opposing die with Miromon, trap the strongest opposing creature."""
        me, fight = view["seat"], view["fight"]
        sides = {s["seat"]: s for s in fight["sides"]}
        mine = sides[me]
        others = fight["defenders"] if me == fight["attacker"] else [fight["attacker"]]
        my_char = view["characters"][me]
        losing = [o for o in others if self._margin(view, sides, me, o) <= 0]
        if not losing:
            return {"type": "pass"}
        my_die = die_value(mine["die"], mine["colour"] == my_char) if mine["die"] is not None else None
        by_type: dict[str, list] = {}
        for action in legal:
            by_type.setdefault(action["type"], []).append(action)
        for action in by_type.get("invert", []):
            target = sides[action["target"]]
            value = die_value(target["die"], target["colour"] == view["characters"][action["target"]])
            if (action["target"] != me and value >= 3) or (action["target"] == me and value <= -2):
                return action
        if my_die is not None and my_die <= 0:
            if "reroll" in by_type:
                return by_type["reroll"][0]
            ordinary = [a for a in by_type.get("cat", []) if a["card"] != MIROMON]
            if ordinary:
                return ordinary[0]
        traps = by_type.get("trap", [])
        if traps:
            return max(traps, key=lambda a: power(a["target"]))
        return {"type": "pass"}

    def _margin(self, view, sides, me, other) -> float:
        """My visible total minus the other side's, dice included."""
        def total(seat):
            side = sides[seat]
            aligned = side["colour"] == view["characters"][seat]
            return visible_total(view, side) + (die_value(side["die"], aligned) if side["die"] is not None else 0)
        return total(me) - total(other)


def visible_total(view: dict, side: dict) -> int:
    """A side's cards, supporters and bonus (no die)."""
    total = sum(power(c) for c in side["spells"]) + side["bonus"]
    total += sum(power(u["card"]) + (power(u["rider"]) if u["rider"] else 0) for u in side["units"])
    total += sum(power(s["card"]) for s in view["fight"]["supporters"] if s["side"] == side["seat"])
    return total
