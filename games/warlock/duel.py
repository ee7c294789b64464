"""Warlock segments: attacks, the Witch, duels of two, defences, reflections and wandering
creatures (rulebook 3.3.2-3.3.4, 4.1, 4.2, 4.7, 4.8.2, 5, 8.3, 8.5).

Handlers take the state and the task (see rules.run) and push the tasks that follow in front of
the task list, so every reflection and every walk is dealt with before the segment ends.
"""
from __future__ import annotations

from . import combat
from .content import kind
from .core import (SEGMENTS, banish, discard, left_of, log, names, not_in_limbo, owe, pay, push,
                   return_from_limbo, take, victim_of, wizard, clockwise_from)


def duel_over(state: dict) -> bool:
    """4.1: the duel ends early when fewer than two remain or nobody can attack any more."""
    if len(state["circle"]) < 2:
        return True
    return not state["threats"] and all(state["exhausted"][s] for s in state["circle"])


def start_segment(state: dict, task: dict) -> None:
    """3.3.2: segments 1-6, then the balance (7); returns from limbo, learning, then the duel.
    3.3.1, 4.7 (D26): the learners swap in the balance segment too (option
    ``learn_in_balance``), before its reckoning."""
    state["segment"] += 1
    state["reflections"] = 0
    order = clockwise_from(state, state["dm"])
    learners = [{"kind": "learn", "seat": s, "forced": True} for s in order
                if state["role"][s] in ("learn", "away") and not state["out"][s]]
    if state["segment"] > SEGMENTS or duel_over(state):
        state["segment"] = SEGMENTS + 1
        if not state["options"]["learn_in_balance"]:
            learners = []
        push(state, *learners, {"kind": "balance"})
        return
    returns = [{"kind": "return", "seat": s} for s in order if may_return(state, s)]
    push(state, *returns, *learners, {"kind": "duel"}, {"kind": "segment"})


def may_return(state: dict, seat: int) -> bool:
    """4.8.2: a wizard banished in an earlier segment may return now, "(siehe aber: 8.5.6.)"
    (D27): not one a wandering creature banished, who is out of the running duel and returns
    at the balance (option ``creature_limbo_until_balance``)."""
    banished = state["banished_at"][seat]
    if state["role"][seat] != "limbo" or state["out"][seat]:
        return False
    if state["creature_banished"][seat] and state["options"]["creature_limbo_until_balance"]:
        return False
    return banished is not None and banished < state["segment"]


def act_return(state: dict, task: dict, action: dict) -> None:
    """4.8.2: a wizard banished in an earlier segment may return now."""
    if action["type"] == "return":
        return_from_limbo(state, task["seat"])
        # 4.8.3: he learns in this segment too (the learners of the segment follow)
        push(state, {"kind": "learn", "seat": task["seat"], "forced": True})


def start_duel_step(state: dict, task: dict) -> None:
    """3.3.3/3.3.4: a defence segment while attacks are under way, else an attack segment
    (4.2.1/4.2.2 in a duel of two; with three or more this is 1, 3, 5 attack and 2, 4, 6
    defence)."""
    if len(state["circle"]) < 2:
        return
    if state["threats"]:
        push(state, {"kind": "wave"})
        return
    attackers = [s for s in state["circle"] if not state["exhausted"][s]]
    if attackers:
        push(state, {"kind": "attack", "seats": attackers})


def attack_options(state: dict, seat: int) -> list[list[str]]:
    """3.3.3, 4.1.5, 4.9: attack plays he can pay for; the Witch if she can cast an attack from
    the rest of the hand (8.3.2; her companions are free, 8.3.1)."""
    hand, energy = state["hands"][seat], state["energy"][seat]
    plays = combat.attack_plays(hand, energy)
    witches = [c for c in hand if kind(c).role == "witch" and kind(c).cost <= energy]
    if witches:
        rest = combat.attack_plays([c for c in hand if kind(c).role != "witch"], 10**6)
        if rest:
            plays += [[witches[0]]]  # D9: one Witch stands for all copies
    return plays


def defence_options(state: dict, seat: int, threat: dict, witch: bool) -> list[list[str]]:
    """5.2, 5.5: the plays that defend against ``threat``; the Witch where the table lists her or
    where she can conjure a defence from the rest of the hand (8.3)."""
    hand, energy = state["hands"][seat], state["energy"][seat]
    me, pairs = wizard(state, seat), state["options"]["identical_pairs_reflect"]
    plays = combat.defence_plays(hand, energy, threat, me.colour, me.points, pairs=pairs)
    plays = [p for p in plays if kind(p[0]).role != "witch"]
    witches = [c for c in hand if kind(c).role == "witch" and kind(c).cost <= energy]
    if witch and witches:
        rest = [c for c in hand if kind(c).role != "witch"]
        if combat.witch_repels(threat, me.colour) or combat.defence_plays(
                rest, 10**6, threat, me.colour, me.points, pairs=pairs):
            plays.append([witches[0]])
    return plays


def has_defence(state: dict, seat: int, threat: dict, witch: bool) -> bool:
    """``bool(defence_options(...))``, stopping at the first defence found (3.3.4, 5.6: who has
    none is banished at once)."""
    hand, energy = state["hands"][seat], state["energy"][seat]
    me, pairs = wizard(state, seat), state["options"]["identical_pairs_reflect"]
    if combat.has_defence_play(hand, energy, threat, me.colour, me.points, pairs=pairs,
                               witch=False):
        return True
    if not witch:
        return False
    roles = [combat.role_of(c) for c in hand]
    if not any(role == "witch" and kind(c).cost <= energy for c, role in zip(hand, roles)):
        return False
    rest = [c for c, role in zip(hand, roles) if role != "witch"]
    return combat.witch_repels(threat, me.colour) or combat.has_defence_play(
        rest, 10**6, threat, me.colour, me.points, pairs=pairs)


def outcome(state: dict, threat: dict, cards: list[str], seat: int) -> str | None:
    """5.7: what ``cards`` cast by ``seat`` as a defence do against ``threat`` (combat.result,
    with the match's reading of 5.2.2 for two-card spells)."""
    me = wizard(state, seat)
    return combat.result(threat, cards, me.colour, me.points,
                         pairs=state["options"]["identical_pairs_reflect"])


def influences(state: dict, seat: int, cards: list[str], theirs: dict) -> bool:
    """4.2, 4.6, D8: in a duel of two, ``cards`` cast by ``seat`` act on the opposing spell
    ``theirs``: as a defence they would repel it (A). A reflection is no influence, but
    identical physical spells meet by combat value (4.6: "Beide Zauber wirken aufeinander, da
    sie den gleichen Kampfwert haben"; option ``meet_identical``)."""
    code = outcome(state, theirs, cards, seat)
    if code == "A":
        return True
    me = wizard(state, seat)
    return (code == "R†" and state["options"]["meet_identical"] == "value"
            and combat.identical(theirs["cards"], cards, state["options"]["identical_pairs_reflect"])
            and combat.value_repels(theirs, cards, me.colour, me.points))


def conjure_options(state: dict, task: dict) -> list[dict]:
    """8.3.1, 8.3.3: what the Witch casts for free: an attack; in a duel of two also a defence
    against the opponent's attack (``"as": "defence"``, one that influences it, D8); in a defence
    segment a defence, or nothing (``cards: []``) where the table lists her."""
    seat = task["seat"]
    me, pairs = wizard(state, seat), state["options"]["identical_pairs_reflect"]
    hand = [c for c in state["hands"][seat] if kind(c).role != "witch"]
    if task["use"] in ("defence", "ward"):
        threat = task["threat"]
        plays = [[]] if combat.witch_repels(threat, me.colour) else []
        plays += combat.defence_plays(hand, 0, threat, me.colour, me.points, free=True,
                                      pairs=pairs)
        return [{"type": "conjure", "cards": p, "as": "defence"} for p in plays]
    actions = [{"type": "conjure", "cards": p, "as": "attack"}
               for p in combat.attack_plays(hand, 10**6)]
    opposing = task.get("opposing")
    if opposing is not None:
        plays = [[]] if combat.witch_repels(opposing, me.colour) else []
        plays += [p for p in combat.defence_plays(hand, 0, opposing, me.colour, me.points,
                                                  free=True, pairs=pairs)
                  if influences(state, seat, p, opposing)]
        actions += [{"type": "conjure", "cards": p, "as": "defence"} for p in plays]
    return actions


def new_threat(state: dict, seat: int, cards: list[str], target: int, **extra) -> dict:
    """A spell cast by ``seat`` at ``target``, valued for its caster (5.2.4)."""
    me = wizard(state, seat)
    threat = {"id": state["next_threat"], "cards": list(cards), "caster": seat,
              "colour": me.colour, "points": me.points, "sender": seat, "target": target,
              "no_bonus": False, "walking": False, **extra}
    state["next_threat"] += 1
    return threat


def reveal_attacks(state: dict, task: dict) -> None:
    """3.3.3: the chosen cards are turned up and paid; 4.1.5 a mock attack ends the wizard's
    attacks; a Witch casts next (8.3); wandering creatures walk before the segment ends (8.5);
    in a duel of two the spells may meet (4.2)."""
    choices, state["choices"] = state["choices"], {}
    follow, cast, broke = [], [], []
    for seat in [s for s in state["circle"] if str(s) in choices]:
        action = choices[str(seat)]
        if action["type"] == "mock":
            state["exhausted"][seat] = True
            log(state, event="mock", seat=seat)
            continue
        cards = action["cards"]
        take(state, seat, cards)
        spent = pay(state, seat, combat.cost(cards))
        log(state, event="attack", seat=seat, spells=names(cards))
        if kind(cards[0]).role == "witch":
            follow.append({"kind": "conjure", "seat": seat, "use": "attack", "witch": cards[0],
                           "target": victim_of(state, seat), "spent": spent})
        else:
            threat = new_threat(state, seat, cards, victim_of(state, seat), no_bonus=spent)
            state["threats"].append(threat)
            cast.append(threat["id"])
            if kind(cards[0]).role == "wanderer":
                follow.append({"kind": "walk", "threat": threat["id"]})
        if spent:
            broke.append(seat)
    for item in follow:  # 8.3.3: in a duel of two the Witch sees the spell coming at her
        if item["kind"] == "conjure" and len(state["circle"]) == 2:
            item["opposing"] = next((t for t in state["threats"] if t["target"] == item["seat"]),
                                    None)
    push(state, *follow, {"kind": "meet", "cast": cast})
    for seat in broke:  # 4.8 b: all his energy spent: banished at once, his spell still flies
        banish(state, seat)


def act_conjure(state: dict, task: dict, action: dict) -> None:
    """8.3.1: the Witch casts one or two cards for free; they are replaced from the book.
    8.3.3: in a duel of two she may use her spell against the opponent's attack instead."""
    seat, cards, witch = task["seat"], action["cards"], [task["witch"]]
    take(state, seat, cards)
    owe(state, seat, len(cards))
    log(state, event="conjure", seat=seat, spells=names(cards), use=action["as"])
    if task["use"] == "defence":
        defend_with(state, task["threat"], seat, witch + cards, cards or witch)
        return
    if task["use"] == "ward":
        ward_cast(state, seat, task["threat"], witch + cards, cards or witch, task["reflector"],
                  spent=False)
        return
    if action["as"] == "defence":
        opposing = task["opposing"]
        state["threats"] = [t for t in state["threats"] if t["id"] != opposing["id"]]
        discard(state, witch + cards + opposing["cards"])
        log(state, event="repelled", seat=seat, threat=opposing["id"])
        return
    threat = new_threat(state, seat, cards, task["target"], no_bonus=task["spent"])
    state["threats"].append(threat)
    discard(state, witch)
    for pending in state["tasks"]:
        if pending["kind"] == "meet":
            pending["cast"].append(threat["id"])
            break
    if kind(cards[0]).role == "wanderer":
        push(state, {"kind": "walk", "threat": threat["id"]})


def skip_conjure(state: dict, task: dict) -> None:
    """D12: a Witch whose wizard left (or who has nothing to cast) is discarded."""
    discard(state, [task["witch"]])
    if task["use"] == "ward":  # undefended after all: as skip_ward (5.6, 8.5.1)
        skip_ward(state, task)
        return
    if task["use"] == "defence":
        threat = task["threat"]
        if not state["out"][task["seat"]]:
            banish(state, task["seat"], threat)
        discard(state, threat["cards"])


def meet(state: dict, task: dict) -> None:
    """4.2.1, 4.2.2, 4.6: in a duel of two, spells that can repel each other cancel; if only one
    can, its caster chooses to let them pass or to defend; else a defence segment follows."""
    if len(state["circle"]) != 2:
        return
    cast = [t for t in state["threats"] if t["id"] in task["cast"] and not t["walking"]]
    if len(cast) != 2 or cast[0]["caster"] == cast[1]["caster"]:
        return
    first, second = cast
    a_repels = repels(state, first, second)
    b_repels = repels(state, second, first)
    if a_repels and b_repels:
        state["threats"] = [t for t in state["threats"] if t not in cast]
        discard(state, first["cards"] + second["cards"])
        log(state, event="cancel", threats=[first["id"], second["id"]])
    elif a_repels or b_repels:
        mine, theirs = (first, second) if a_repels else (second, first)
        push(state, {"kind": "influence", "seat": mine["caster"], "mine": mine["id"],
                     "theirs": theirs["id"]})


def repels(state: dict, mine: dict, theirs: dict) -> bool:
    """4.2: ``mine`` acts on ``theirs`` as a defence by its caster would (``influences``, D8)."""
    return influences(state, mine["caster"], mine["cards"], theirs)


def act_influence(state: dict, task: dict, action: dict) -> None:
    """4.2.1: pass (a defence segment follows) or defend (an attack segment follows)."""
    log(state, event="influence", seat=task["seat"], choice=action["choice"])
    if action["choice"] == "defend":
        both = [t for t in state["threats"] if t["id"] in (task["mine"], task["theirs"])]
        state["threats"] = [t for t in state["threats"] if t not in both]
        discard(state, [c for t in both for c in t["cards"]])


def start_wave(state: dict, task: dict) -> None:
    """3.3.4: every wizard under attack defends against the first spell aimed at him, all at
    once; who has no defence is banished at once (4.1.2, 5.6). Repeats until no spell flies."""
    pending, wave, rest = state["threats"], {}, []
    for threat in pending:
        target = threat["target"]
        if target not in state["circle"]:
            discard(state, threat["cards"])  # D10: its victim left the duel
        elif str(target) in wave:
            rest.append(threat)
        else:
            wave[str(target)] = threat
    state["threats"] = rest
    for key, threat in list(wave.items()):
        seat = int(key)
        if not has_defence(state, seat, threat, witch=True):
            del wave[key]
            discard(state, threat["cards"])
            log(state, event="undefended", seat=seat, threat=threat["id"])
            banish(state, seat, threat)
    if wave:
        push(state, {"kind": "defend", "seats": sorted(int(k) for k in wave), "threats": wave},
             {"kind": "wave_end"})
    elif state["threats"]:
        push(state, {"kind": "wave"})


def wave_end(state: dict, task: dict) -> None:
    """3.3.4: another wave while spells still fly in this segment."""
    if state["threats"] and len(state["circle"]) >= 1:
        push(state, {"kind": "wave"})


def reveal_defences(state: dict, task: dict) -> None:
    """3.3.4: the defences are turned up and paid, then their results take effect (5.7)."""
    choices, state["choices"] = state["choices"], {}
    follow, broke = [], []
    for seat in task["seats"]:
        if str(seat) not in choices:
            continue
        threat, cards = task["threats"][str(seat)], choices[str(seat)]["cards"]
        take(state, seat, cards)
        spent = pay(state, seat, combat.cost(cards))
        log(state, event="defence", seat=seat, spells=names(cards), threat=threat["id"])
        if kind(cards[0]).role == "witch":
            follow.append({"kind": "conjure", "seat": seat, "use": "defence", "witch": cards[0],
                           "threat": threat})
        elif kind(cards[0]).role == "wanderer":  # 8.5: created, it may walk before it defends
            follow.append({"kind": "defence_walk", "seat": seat, "threat": threat,
                           "cards": list(cards), "spent": spent})
        else:
            resolve_defence(state, threat, seat, cards)
        if spent:
            broke.append((seat, threat))
    for key, threat in task["threats"].items():  # a defender who left drops his spell (D12)
        if key not in choices:
            discard(state, threat["cards"])
    for seat, threat in broke:  # 4.1.3: defended with his last energy: banished, 30 to the sender
        banish(state, seat, threat)
    push(state, *follow)


def defend_with(state: dict, threat: dict, seat: int, cards: list[str],
                spell: list[str] | None = None, spent: bool = False) -> None:
    """5.7, or 8.5: a creature cast as a defence is created like any other and may walk first
    ("Wann immer eines dieser Wesen erschaffen wird"); it defends when it returns (D14)."""
    spell = cards if spell is None else spell
    if kind(spell[0]).role == "wanderer" and can_nest(state):
        creature = new_threat(state, seat, spell, None, no_bonus=spent)
        begin_walk(state, creature, resume={"use": "defence", "seat": seat, "threat": threat,
                                            "cards": list(cards), "spell": list(spell)})
        return
    resolve_defence(state, threat, seat, cards, spell)


def start_defence_walk(state: dict, task: dict) -> None:
    """The creator of a creature cast as a defence in the duel cuts (after the other defences
    of the wave took effect, in seat order)."""
    defend_with(state, task["threat"], task["seat"], task["cards"], spent=task["spent"])


def resolve_defence(state: dict, threat: dict, seat: int, cards: list[str],
                    spell: list[str] | None = None) -> None:
    """5.7: A repels (both spells discarded); R: the reflector names a new victim; R†: both
    spells fly back (D2: the attack to whoever sent it, option ``double_reflection``).
    ``cards`` are all the cards laid, ``spell`` the ones that act (the Witch's, 8.3)."""
    spell = cards if spell is None else spell
    if kind(spell[0]).role == "witch":
        code = "A"  # 8.3: the Witch repels alone where the magic table lists her
    else:
        code = outcome(state, threat, spell, seat)
    if code in ("R", "R†") and state["reflections"] >= state["options"]["max_reflections"]:
        code = "A"  # D6: the bound on reflections in one segment
    if code not in ("R", "R†"):
        discard(state, threat["cards"] + list(cards))
        log(state, event="repelled", seat=seat, threat=threat["id"])
        return
    state["reflections"] += 1
    if code == "R":
        discard(state, cards)
        log(state, event="reflected", seat=seat, threat=threat["id"])
        push(state, {"kind": "redirect", "seat": seat, "threat": dict(threat),
                     "candidates": [s for s in state["circle"] if s != seat]})
        return
    discard(state, [c for c in cards if c not in spell])
    back = threat["sender"] if state["options"]["double_reflection"] == "sender" else threat["caster"]
    log(state, event="double reflection", seat=seat, threat=threat["id"])
    state["threats"].append(dict(threat, target=back, sender=seat, no_bonus=False))
    state["threats"].append(new_threat(state, seat, spell, seat, sender=threat["sender"]))


def act_redirect(state: dict, task: dict, action: dict) -> None:
    """5.7 R: the reflected spell goes to the victim the reflector names, who must defend at
    once."""
    threat = dict(task["threat"], target=action["victim"], sender=task["seat"], no_bonus=False)
    log(state, event="redirected", seat=task["seat"], victim=action["victim"], threat=threat["id"])
    if threat["walking"]:
        push(state, {"kind": "ward", "seat": action["victim"], "threat": threat,
                     "reflector": task["seat"]})
        return
    state["threats"].insert(0, threat)


def skip_redirect(state: dict, task: dict) -> None:
    """No one to send it to (or the reflector left): the spell is spent."""
    if task["threat"]["walking"]:
        end_walk(state, returned=True)  # D14: nobody to send it to: it counts as repelled
        return
    discard(state, task["threat"]["cards"])


# -- wandering creatures (8.5) ---------------------------------------------------------------

def walk_of(state: dict) -> dict | None:
    """The creature walking now: the top of the stack (8.5.7: a nested walk comes first)."""
    return state["walks"][-1] if state["walks"] else None


def start_walk(state: dict, task: dict) -> None:
    """8.5: the creator of a creature cast as an attack cuts the spell book."""
    threat = next((t for t in state["threats"] if t["id"] == task["threat"]), None)
    if threat is None or state["out"][threat["caster"]]:
        return
    begin_walk(state, dict(threat), resume=None)


def begin_walk(state: dict, spell: dict, resume: dict | None) -> None:
    """A creature may walk: its creator cuts first. ``resume`` (8.5.7): the defence against an
    outer creature that this one was cast as, carried out when this walk ends."""
    state["walks"].append({"spell": spell, "creator": spell["caster"], "sender": spell["caster"],
                           "at": spell["caster"], "quiet": 0, "steps": 0, "started": False,
                           "resume": resume})
    push(state, {"kind": "cut", "seat": spell["caster"]})


def cut_source(state: dict) -> list[str]:
    """8.5: the book, or the discard pile when the book is empty."""
    return state["deck"] or state["discard"]


def after_cut(state: dict, task: dict, outcome: int | None) -> None:
    """8.5: a cut shows the card at the cut (it goes to the bottom: the book is cut); 10 or more
    sets the creature wandering, or attacks the wizard who cut."""
    walk = walk_of(state)
    number = 0
    if outcome is not None:
        source = cut_source(state)
        card = source[outcome - 1]
        number = kind(card).number
        if source is state["deck"]:
            state["deck"] = state["deck"][outcome:] + state["deck"][:outcome]
            state["book_bottom"] = kind(card).key  # D24: its place is public
        state["cut"] = {"seat": task["seat"], "spell": kind(card).key, "number": number}
        log(state, event="cut", seat=task["seat"], spell=kind(card).key, number=number)
    if walk is None:
        return
    wanders = number >= state["options"]["wander_threshold"]
    if not walk["started"]:
        if not wanders:
            end_walk(state, returned=True, walked=False)
            return
        walk["started"] = True
        walk["spell"]["walking"] = True
        set_walking(state, walk, True)
        walk["at"] = left_of(state, walk["creator"], not_in_limbo(state))
        log(state, event="wanders", threat=walk["spell"]["id"])
        push(state, {"kind": "step"})
        return
    walk["steps"] += 1
    if not wanders:
        walk["quiet"] += 1
        walk["at"] = left_of(state, walk["at"], not_in_limbo(state))
        push(state, {"kind": "step"})
        return
    walk["quiet"] = 0
    threat = dict(walk["spell"], target=task["seat"], sender=walk["sender"])
    push(state, {"kind": "ward", "seat": task["seat"], "threat": threat, "reflector": None})


def set_walking(state: dict, walk: dict, walking: bool) -> None:
    """A creature cast as an attack is marked in the duel while it walks (4.2 ignores it)."""
    for threat in state["threats"]:
        if threat["id"] == walk["spell"]["id"]:
            threat["walking"] = walking


def walk_step(state: dict, task: dict) -> None:
    """8.5: the creature turns to the next wizard not in limbo, who cuts; it stops when every
    wizard met has cut below 10 (8.5.3, D13) or the step bound is reached (D6)."""
    walk = walk_of(state)
    if walk is None:
        return
    met = not_in_limbo(state)
    if not state["circle"]:  # 8.5.2: the arena is empty: the creature is discarded
        end_walk(state, returned=False)
        return
    if walk["at"] is None or walk["at"] not in met:
        walk["at"] = left_of(state, walk["at"] if walk["at"] is not None else walk["creator"], met)
    if (walk["at"] is None or walk["quiet"] >= len(met)
            or walk["steps"] >= state["options"]["max_walk_steps"]):
        end_walk(state, returned=True)
        return
    push(state, {"kind": "cut", "seat": walk["at"]})


def laid_spells(state: dict, seat: int) -> list[dict]:
    """8.5: "Dabei kann er auch seinen bereits verdeckt auf dem Tisch liegenden Zauberspruch
    verwenden" (option ``laid_spell_ward``, D28): the spells ``seat`` laid in this attack
    segment and still on the table, while a creature cast as an attack walks (the bottom of the
    stack; its defence segment has no spell laid face down). Not a creature walking or waiting
    (it is on its way), nor one whose creator has yet to cut."""
    if not state["options"]["laid_spell_ward"] or not state["walks"] or \
            state["walks"][0]["resume"] is not None:
        return []
    cutting = {t["threat"] for t in state["tasks"] if t["kind"] == "walk"}
    return [t for t in state["threats"] if t["caster"] == seat == t["sender"]
            and not t["walking"] and t["id"] not in cutting]


def laid_ward_options(state: dict, seat: int, threat: dict) -> list[list[str]]:
    """8.5, D28: the laid spells that defend against the walking creature ``threat`` (paid
    when laid, so any of them, whatever energy is left)."""
    return [t["cards"] for t in laid_spells(state, seat)
            if outcome(state, threat, t["cards"], seat) in combat.SUCCESS]


def ward_with_laid(state: dict, task: dict, laid: dict) -> None:
    """8.5, D28: the laid spell leaves the duel it was laid for and defends against the
    creature: nothing is paid (4.1.6: it was paid when laid), its card is replaced (8.5.1), a
    creature among it does not walk again (it was created when laid)."""
    seat = task["seat"]
    state["threats"].remove(laid)
    owe(state, seat, len(laid["cards"]))
    log(state, event="ward", seat=seat, spells=names(laid["cards"]), laid=True)
    walk_of(state)["steps"] += 1
    discard(state, laid["cards"])
    ward_result(state, seat, task["threat"], laid["cards"])


def act_ward(state: dict, task: dict, action: dict) -> None:
    """8.5.1: the defence against a wandering creature is the usual one (paid); its card is
    replaced from the book. The Witch conjures her defence next (8.3, D14); a creature cast
    against it may walk first (8.5.7). A laid spell (8.5) defends as ``ward_with_laid``."""
    seat, threat, cards = task["seat"], task["threat"], action["cards"]
    laid = next((t for t in laid_spells(state, seat) if t["cards"] == cards), None)
    if laid is not None:
        ward_with_laid(state, task, laid)
        return
    take(state, seat, cards)
    owe(state, seat, len(cards))
    spent = pay(state, seat, combat.cost(cards))
    log(state, event="ward", seat=seat, spells=names(cards))
    if spent:
        banish(state, seat, threat)
    walk_of(state)["steps"] += 1
    if kind(cards[0]).role == "witch":
        push(state, {"kind": "conjure", "seat": seat, "use": "ward", "witch": cards[0],
                     "threat": threat, "reflector": task["reflector"]})
        return
    ward_cast(state, seat, threat, cards, cards, task["reflector"], spent)


def can_nest(state: dict) -> bool:
    """8.5.7 lets a creature walk while others wait; D14 bounds how many wait at once."""
    return len(state["walks"]) < state["options"]["max_walk_depth"]


def ward_cast(state: dict, seat: int, threat: dict, cards: list[str], spell: list[str],
              reflector: int | None, spent: bool) -> None:
    """The defence laid against a walking creature takes effect, or (8.5.7) a creature cast as
    that defence walks first and defends when it returns."""
    if kind(spell[0]).role == "wanderer" and can_nest(state):
        creature = new_threat(state, seat, spell, None, no_bonus=spent)
        begin_walk(state, creature, resume={"use": "ward", "seat": seat, "threat": threat,
                                            "cards": list(cards), "spell": list(spell),
                                            "reflector": reflector})
        return
    discard(state, cards)
    ward_result(state, seat, threat, spell)


def ward_result(state: dict, seat: int, threat: dict, cards: list[str]) -> None:
    """8.5.1: A repels the creature: it returns to the duel; a reflection sends it on (D14: R†
    acts as R); if the defender has been banished meanwhile, it walks on from his left."""
    if state["role"][seat] in ("limbo", "out"):
        walk = walk_of(state)
        walk["at"], walk["quiet"] = left_of(state, seat, not_in_limbo(state)), 0
        push(state, {"kind": "step"})
        return
    if kind(cards[0]).role == "witch":
        code = "A"  # 8.3: the Witch repels alone where the magic table lists her
    else:
        code = outcome(state, threat, cards, seat)
    log(state, event="warded", seat=seat, code=code)
    if code in ("R", "R†") and state["reflections"] < state["options"]["max_reflections"]:
        state["reflections"] += 1
        push(state, {"kind": "redirect", "seat": seat, "threat": threat,
                     "candidates": [s for s in not_in_limbo(state) if s != seat]})
        return
    end_walk(state, returned=True)


def skip_ward(state: dict, task: dict) -> None:
    """5.6, 8.5.1: no defence: banished (the sender earns 30, 8.5.4); the creature walks on to
    his left neighbour, or to the reflector's left after a reflection."""
    seat, walk = task["seat"], walk_of(state)
    threat = task["threat"]
    if not state["out"][seat]:
        banish(state, seat, threat)
    walk["steps"] += 1
    start = task["reflector"] if task["reflector"] is not None else seat
    walk["sender"] = walk["creator"] if task["reflector"] is None else task["reflector"]
    walk["at"] = left_of(state, start, not_in_limbo(state))
    walk["quiet"] = 0
    push(state, {"kind": "step"})


def end_walk(state: dict, returned: bool, walked: bool = True) -> None:
    """8.5.1-8.5.3, 8.5.8: the creature returns to its place: an attack goes on as a normal
    attack on the wizard it was aimed at; a creature cast as a defence (8.5.7) now defends.
    With the arena empty (8.5.2) it is discarded."""
    walk = state["walks"].pop()
    spell, resume = walk["spell"], walk["resume"]
    if walked:
        log(state, event="walk ended", threat=spell["id"], returned=returned)
    if resume is not None and resume["use"] == "defence":
        seat, threat = resume["seat"], resume["threat"]
        if returned and seat in state["circle"]:
            resolve_defence(state, threat, seat, resume["cards"], resume["spell"])
        else:  # D14: its defender left the duel (or the arena is empty): both spells are spent
            discard(state, resume["cards"] + threat["cards"])
        return
    if resume is not None:
        discard(state, resume["cards"])
        if returned:
            ward_result(state, resume["seat"], resume["threat"], resume["spell"])
        else:
            end_walk(state, returned=False)  # the arena is empty for the outer creature too
        return
    set_walking(state, walk, False)
    threat = next((t for t in state["threats"] if t["id"] == spell["id"]), None)
    if threat is not None and not returned:
        state["threats"].remove(threat)
        discard(state, threat["cards"])
