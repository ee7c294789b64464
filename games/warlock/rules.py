"""Warlock rules: the flow of a match as a list of tasks (rulebook sections 2-4, 6).

A state is a plain JSON dict. Its ``tasks`` list says what happens next: the head task is either
automatic (carried out at once by ``run``), a chance node (a wizard card, the deal, a ``cut``,
and the reshuffle of the spell book whenever a card is owed and the book is empty) or a decision
of one seat or of several seats at once (a simultaneous secret choice: each choice is kept in
``choices`` until all have chosen). Handlers push the tasks that follow in front of the list, so
a reflection or a wandering creature is dealt with before the segment goes on (3.3.3, 3.3.4).
The segments themselves live in ``duel``; shared helpers in ``core``.
"""
from __future__ import annotations

import math

from .content import CARD_IDS, HAND_SIZE, WIZARDS, kind
from .core import (LEARNING_COST, LEARNING_FEE, RETURN_COST, TWO_WIZARD_GAP, alive, banish,
                   clockwise_from, copy_action, discard, draw_owed, end_game, is_over,
                   leave, leave_if_broke, left_of, log, not_in_limbo, pay, push,
                   reshuffle, return_from_limbo)
from .duel import (act_conjure, act_influence, act_redirect, act_return, act_ward, after_cut,
                   attack_options, conjure_options, cut_source, defence_options, has_defence,
                   laid_ward_options, meet,
                   reveal_attacks, reveal_defences, skip_conjure, skip_redirect, skip_ward,
                   start_defence_walk, start_duel_step, start_segment, start_walk, start_wave, walk_step,
                   wave_end)

SIMULTANEOUS = frozenset(("decide", "attack", "defend"))
DECISIONS = SIMULTANEOUS | frozenset(("pick", "swap", "return", "learn", "conjure", "influence",
                                      "redirect", "ward"))


# -- the task interpreter ---------------------------------------------------------------------

def run(state: dict) -> None:
    """Carry out automatic tasks until a decision or a chance event is due, or the game ends.
    Each turn: the owed cards drawn (``draw_owed``), the broke in limbo gone
    (``leave_if_broke``), the end checked (``check_end``), each asked only where it can act."""
    while True:
        if state["owed"] and not draw_owed(state):
            return
        if "limbo" in state["role"] and _broke_in_limbo(state):
            leave_if_broke(state)
        if state["phase"] == "over":
            return
        if state["out"].count(False) <= 1:
            end_game(state, "last wizard")
            return
        tasks = state["tasks"]
        if not tasks:
            return
        task = tasks[0]
        kind_ = task["kind"]
        if kind_ in DECISIONS:
            if prepare_decision(state, task):
                return
            continue
        if kind_ == "wizard" or kind_ == "deal":
            return
        if kind_ == "cut":
            if cut_source(state):
                return
            tasks.pop(0)
            after_cut(state, task, None)
            continue
        tasks.pop(0)
        AUTOMATIC[kind_](state, task)


def _broke_in_limbo(state: dict) -> bool:
    """Whether ``leave_if_broke`` has anyone to send away (4.8.5): a wizard in limbo, still in
    the game, with no more than the 30 energy a return costs."""
    energy, out = state["energy"], state["out"]
    for seat, role in enumerate(state["role"]):
        if role == "limbo" and energy[seat] <= RETURN_COST and not out[seat]:
            return True
    return False


def prepare_decision(state: dict, task: dict) -> bool:
    """True if the decision stands; False if it was dropped (its seat left or has no choice)."""
    if task["kind"] in SIMULTANEOUS:
        out, seats = state["out"], task["seats"]
        for s in seats:
            if out[s]:  # the seats that left drop out (a new list only then)
                task["seats"] = seats = [s for s in seats if not out[s]]
                break
        if seats:
            choices = state["choices"]
            for s in seats:
                if str(s) not in choices:
                    return True
        state["tasks"].pop(0)
        REVEAL[task["kind"]](state, task)
        return False
    seat = task["seat"]
    if state["out"][seat] or not has_options(state, task):
        state["tasks"].pop(0)
        SKIP[task["kind"]](state, task)
        return False
    return True


def has_options(state: dict, task: dict) -> bool:
    """``bool(options_for(state, task))`` of a decision of one seat, without listing the
    options where that is direct (tests/games/test_warlock_fast_paths.py holds the two
    alike)."""
    kind_, seat = task["kind"], task["seat"]
    if kind_ == "swap" or kind_ == "learn":
        if kind_ == "learn" and state["role"][seat] not in ("learn", "away"):
            return False
        if kind_ == "swap" and not task["forced"]:
            return True
        return (state["energy"][seat] > task.get("cost", LEARNING_COST)
                and task.get("left", 1) > 0 and bool(state["hands"][seat]))
    if kind_ == "return":
        return state["role"][seat] == "limbo"
    if kind_ == "influence":
        return True
    if kind_ == "pick":
        out = state["out"]
        return any(not out[v] for v in task["candidates"])
    if kind_ == "ward":
        threat = task["threat"]
        return (has_defence(state, seat, threat, witch=True)
                or bool(laid_ward_options(state, seat, threat)))
    return bool(options_for(state, task))


def acting_seats(state: dict) -> list[int]:
    """The seats whose decision is due (run has prepared the head task)."""
    if is_over(state) or not state["tasks"] or state["owed"] and not state["deck"]:
        return []
    task = state["tasks"][0]
    if task["kind"] in SIMULTANEOUS:
        return [s for s in task["seats"] if str(s) not in state["choices"]]
    if task["kind"] in DECISIONS:
        return [task["seat"]]
    return []


def decide(state: dict, seat: int, action: dict) -> None:
    """A checked decision of ``seat``: kept secret until all have chosen, or carried out."""
    task = state["tasks"][0]
    if task["kind"] in SIMULTANEOUS:
        state["choices"][str(seat)] = action
    else:
        state["tasks"].pop(0)
        ACT[task["kind"]](state, task, action)
    run(state)


# The decisions whose handlers read scalars of the action only (a type, a card id, a victim, a
# choice) and keep no part of it: their action needs no copy (``decide_copy``).
_READ_ONLY = frozenset(("pick", "swap", "learn", "return", "influence", "redirect"))


def decide_copy(state: dict, seat: int, action) -> None:
    """``decide`` of a copy of the action (``core.copy_action``): what ``Warlock.decide`` is (an
    event, a record or a search's stored move must not change with a state that may keep parts
    of it), in one call. Copied only where the state may keep it (a secret choice, a conjured
    or warding play); a choice that leaves another seat of the decision still to choose, on a
    state ``run`` has prepared (no card owed, nobody broke in limbo, every seat of the
    decision in the game), ends there, as ``run`` would. tests/games/test_warlock_fast_paths.py
    holds it to ``decide`` of a copy of every action, the code it stands for."""
    task = state["tasks"][0]
    kind_ = task["kind"]
    if kind_ in SIMULTANEOUS:
        choices = state["choices"]
        choices[str(seat)] = copy_action(action)
        if (not state["owed"] and not ("limbo" in state["role"] and _broke_in_limbo(state))
                and state["out"].count(False) > 1):
            out, waiting = state["out"], False
            for s in task["seats"]:
                if out[s]:
                    break
                if not waiting and str(s) not in choices:
                    waiting = True
            else:
                if waiting:
                    return
        run(state)
        return
    state["tasks"].pop(0)
    ACT[kind_](state, task, action if kind_ in _READ_ONLY else copy_action(action))
    run(state)


def forfeit(state: dict, seat: int) -> None:
    """D12: a seat that forfeits leaves the game at once (and places last, also if it had left
    already); its pending choice is dropped."""
    if is_over(state) or seat in state["forfeited"]:
        return
    state["choices"].pop(str(seat), None)
    leave(state, seat)
    state["forfeited"].append(seat)
    run(state)


def options_for(state: dict, task: dict, seat: int | None = None) -> list[dict]:
    """Every legal action of the decision ``task`` for ``seat`` (default: the task's seat)."""
    seat = task.get("seat") if seat is None else seat
    kind_ = task["kind"]
    hand, energy = state["hands"][seat], state["energy"][seat]
    if kind_ == "decide":
        return [{"type": "decide", "choice": "duel"}, {"type": "decide", "choice": "learn"}]
    if kind_ == "pick":
        return [{"type": "pick", "victim": v} for v in task["candidates"] if not state["out"][v]]
    if kind_ == "learn" and state["role"][seat] not in ("learn", "away"):
        return []  # banished since the segment began
    if kind_ == "return" and state["role"][seat] != "limbo":
        return []
    if kind_ in ("swap", "learn"):
        cost = task.get("cost", LEARNING_COST)
        swaps = ([{"type": "swap", "card": c} for c in hand]
                 if energy > cost and task.get("left", 1) > 0 else [])
        return swaps + ([{"type": "stop"}] if kind_ == "swap" and not task["forced"] else [])
    if kind_ == "return":
        return [{"type": "return"}, {"type": "wait"}]
    if kind_ == "attack":
        plays = attack_options(state, seat)
        return [{"type": "attack", "cards": p} for p in plays] or [{"type": "mock"}]
    if kind_ in ("defend", "ward"):
        threat = task["threats"][str(seat)] if kind_ == "defend" else task["threat"]
        plays = defence_options(state, seat, threat, witch=True)
        if kind_ == "ward":  # 8.5: the spell he laid this segment may defend too
            plays += laid_ward_options(state, seat, threat)
        return [{"type": "defend", "cards": p} for p in plays]
    if kind_ == "conjure":
        return conjure_options(state, task)
    if kind_ == "influence":
        return [{"type": "influence", "choice": "pass"}, {"type": "influence", "choice": "defend"}]
    if kind_ == "redirect":  # 5.7 R: anyone still in the duel; 8.5.1: anyone not in limbo
        still = not_in_limbo(state) if task["threat"]["walking"] else state["circle"]
        return [{"type": "redirect", "victim": v} for v in task["candidates"]
                if v in still and v != seat]
    return []


# -- setting up (2) ------------------------------------------------------------------------------

def new_state(players: int, options: dict) -> dict:
    """2: every wizard draws a wizard card (one dice event each), then the book is shuffled and
    seven cards dealt to each; every wizard starts with 199 energy (7: option). ``reshuffles``,
    ``shuffled_in``, ``book_bottom`` and ``known`` keep what everyone knows of the hidden cards
    (see ``knowledge``)."""
    return {
        "players": players, "options": options, "round": 0, "segment": 0, "phase": "play",
        "wizard": [None] * players, "energy": [options["energy"]] * players,
        "hands": [[] for _ in range(players)], "deck": [], "discard": [], "owed": [],
        "out": [False] * players, "left_at": [None] * players, "forfeited": [],
        "role": [None] * players, "banished_at": [None] * players,
        "creature_banished": [False] * players,
        "exhausted": [False] * players, "dm": 0, "next_dm": None, "circle": [],
        "choices": {}, "threats": [], "walks": [], "cut": None, "reflections": 0,
        "next_threat": 1, "log": [], "scores": None, "end_reason": None,
        "reshuffles": 0, "shuffled_in": {}, "book_bottom": None, "known": [],
        "tasks": [{"kind": "wizard", "seat": s} for s in range(players)] + [{"kind": "deal"}],
    }


def chance_spec(state: dict) -> dict | None:
    """The chance node due now, if any: a reshuffle, a wizard card, the deal or a cut."""
    if is_over(state):
        return None
    if state["owed"] and not state["deck"] and state["discard"]:
        return {"kind": "shuffle", "n": len(state["discard"])}
    task = state["tasks"][0] if state["tasks"] else None
    if task is None:
        return None
    if task["kind"] == "wizard":
        taken = [w for w in state["wizard"] if w]
        return {"kind": "dice", "count": 1, "sides": len(WIZARDS) - len(taken)}
    if task["kind"] == "deal":
        return {"kind": "shuffle", "n": len(CARD_IDS)}
    if task["kind"] == "cut":
        return {"kind": "dice", "count": 1, "sides": len(cut_source(state))}
    return None


def chance_outcome(state: dict, outcome: list[int]) -> None:
    """Apply a (checked) chance outcome to the node ``chance_spec`` named."""
    if state["owed"] and not state["deck"] and state["discard"]:
        reshuffle(state, outcome)
    else:
        task = state["tasks"].pop(0)
        if task["kind"] == "wizard":  # 2: a wizard card drawn face down, then laid open
            free = [w.key for w in WIZARDS if w.key not in state["wizard"]]
            state["wizard"][task["seat"]] = free[outcome[0] - 1]
        elif task["kind"] == "deal":  # 2: shuffle, seven cards each, the rest is the book
            state["deck"] = [CARD_IDS[i] for i in outcome]
            for seat in range(state["players"]):
                state["hands"][seat] = state["deck"][:HAND_SIZE]
                del state["deck"][:HAND_SIZE]
            push(state, {"kind": "round"})
        else:
            after_cut(state, task, outcome[0])
    run(state)


# -- the round (3.1, 3.2, 3.3.5, 4.2.3, 4.3-4.5) -------------------------------------------------

def start_round(state: dict, task: dict) -> None:
    """3.1: a new round begins with the secret decision of every wizard (D5: the round limit)."""
    if state["round"] >= state["options"]["max_rounds"]:
        end_game(state, "round limit")
        return
    state["round"] += 1
    state["log"] = last_round(state["log"], state["round"] - 1)
    state["segment"], state["circle"], state["threats"] = 0, [], []
    state["next_dm"], state["reflections"], state["cut"] = None, 0, None
    for seat in alive(state):
        state["role"][seat], state["banished_at"][seat], state["exhausted"][seat] = None, None, False
        state["creature_banished"][seat] = False
    if state["out"][state["dm"]]:  # 4.4: a missing duel master passes the office to the left
        state["dm"] = left_of(state, state["dm"], alive(state))
    push(state, {"kind": "decide", "seats": alive(state)})


def last_round(log: list[dict], previous: int) -> list[dict]:
    """The entries of round ``previous`` (a new list of the same entries): as
    ``[e for e in log if e["round"] == previous]``, read from the end, where they are: the log
    is written in round order and holds no later round when a round starts
    (tests/games/test_warlock_fast_paths.py holds both on random playouts)."""
    start = len(log)
    while start and log[start - 1]["round"] == previous:
        start -= 1
    return log[start:]


def reveal_decisions(state: dict, task: dict) -> None:
    """3.1: all fists open at once; 4.5 the learning fee; then 3.2 or 4.3."""
    for seat in task["seats"]:
        state["role"][seat] = "duel" if state["choices"][str(seat)]["choice"] == "duel" else "learn"
    state["choices"] = {}
    seats = alive(state)
    duellists = [s for s in seats if state["role"][s] == "duel"]
    learners = [s for s in seats if state["role"][s] == "learn"]
    log(state, event="decisions", duel=duellists, learn=learners)
    if duellists:
        collect_fee(state, duellists, learners)
    order = [s for s in clockwise_from(state, state["dm"]) if not state["out"][s]]
    if len(duellists) >= 2:
        arrange(state, duellists)
    elif len(duellists) == 1:  # 4.3: no duel; learners must swap three, the lone one may
        lone = duellists[0]
        state["next_dm"] = lone
        cost = state["options"]["lone_swap_cost"]
        push(state, *[{"kind": "swap", "seat": s, "left": 3, "forced": s != lone, "cost": cost}
                      for s in order if state["role"][s] in ("duel", "learn")],
             {"kind": "round_end"})
    else:  # 4.3.1: nobody duels; everyone may learn up to three, the duel master stays
        cost = state["options"]["lone_swap_cost"]
        push(state, *[{"kind": "swap", "seat": s, "left": 3, "forced": False, "cost": cost}
                      for s in order if state["role"][s] == "learn"], {"kind": "round_end"})


def collect_fee(state: dict, duellists: list[int], learners: list[int]) -> None:
    """4.5: each learner pays 10 at once; the duellists share the sum, each share rounded up
    (D3: who has less pays what he has, and is banished with nothing left, 4.8 b)."""
    total = 0
    for seat in learners:
        paid = min(LEARNING_FEE, state["energy"][seat])
        total += paid
        if pay(state, seat, paid):
            banish(state, seat)
    if total:
        share = math.ceil(total / len(duellists))
        for seat in duellists:
            state["energy"][seat] += share
        log(state, event="fee", total=total, share=share)


def arrange(state: dict, duellists: list[int]) -> None:
    """3.2, 4.4: the duel master (or the next duellist to his left) takes his place and picks a
    victim, who picks the next, ...; the last closes the circle."""
    master = state["dm"] if state["dm"] in duellists else left_of(state, state["dm"], duellists)
    state["dm"] = master
    state["circle"] = [master]
    candidates = [s for s in duellists if s != master]
    if len(candidates) == 1:  # no choice: the only other duellist closes the circle
        state["circle"] += candidates
        close_circle(state)
        return
    push(state, {"kind": "pick", "seat": master, "candidates": candidates})


def act_pick(state: dict, task: dict, action: dict) -> None:
    """3.2: the picked wizard stands to the picker's left and picks in turn."""
    victim = action["victim"]
    state["circle"].append(victim)
    rest = [s for s in task["candidates"] if s != victim and not state["out"][s]]
    log(state, event="picked", seat=task["seat"], victim=victim)
    if len(rest) > 1:
        push(state, {"kind": "pick", "seat": victim, "candidates": rest})
        return
    state["circle"] += rest  # the last one has no choice: he closes the circle
    close_circle(state)


def skip_pick(state: dict, task: dict) -> None:
    """D12: a picker who left: the rest stand in seat order."""
    state["circle"] += [s for s in task["candidates"] if not state["out"][s]
                        and s not in state["circle"]]
    state["circle"] = [s for s in state["circle"] if not state["out"][s]]
    close_circle(state)


def close_circle(state: dict) -> None:
    """3.2: the last chosen closes the circle and is the next round's duel master."""
    state["next_dm"] = state["circle"][-1]
    log(state, event="circle", circle=list(state["circle"]))
    push(state, {"kind": "segment"})


def act_swap(state: dict, task: dict, action: dict) -> None:
    """3.3.1, 4.3, 4.7: discard a card, pay, draw a new one from the book. (``take``,
    ``discard``, ``owe``, ``log`` and ``pay`` of the one card written out: learning is half of
    the events of a match.)"""
    if action["type"] == "stop":
        return
    seat, card = task["seat"], action["card"]
    state["hands"][seat].remove(card)
    spell = kind(card).key
    known = state["known"]
    if known:  # take: a spell known in this hand is forgotten
        fact = [seat, spell, state["shuffled_in"].get(card, 0)]
        if fact in known:
            known.remove(fact)
    state["discard"].append(card)
    state["owed"].append(seat)
    state["log"].append({"round": state["round"], "segment": state["segment"],
                         "event": "learned", "seat": seat, "discarded": spell})
    energy = state["energy"]
    energy[seat] = left = max(0, energy[seat] - task.get("cost", LEARNING_COST))
    if left == 0:
        banish(state, seat)
    if task["kind"] == "swap" and task["left"] > 1:
        state["tasks"].insert(0, dict(task, left=task["left"] - 1))


def skip(state: dict, task: dict) -> None:
    """A decision without a choice left is simply dropped."""
    pass


def end_round(state: dict, task: dict) -> None:
    """3.3.5: the new duel master takes office (4.3: the lone duellist; 4.3.1: he stays)."""
    if state["next_dm"] is not None:
        state["dm"] = state["next_dm"]
    push(state, {"kind": "round"})


def balance(state: dict, task: dict) -> None:
    """3.3.5: the duellist with the least energy (alone) is banished; 4.2.3 with two, only at 50
    or more behind. Then every banished wizard returns for 30 or leaves; the duel master
    changes."""
    for threat in state["threats"]:
        discard(state, threat["cards"])  # D11: spells still in flight after segment 6
    state["threats"] = []
    circle = list(state["circle"])
    if len(circle) == 2:
        poor, rich = sorted(circle, key=lambda s: state["energy"][s])
        if state["energy"][rich] - state["energy"][poor] >= TWO_WIZARD_GAP:
            banish(state, poor)
    elif len(circle) > 2:
        least = min(state["energy"][s] for s in circle)
        lowest = [s for s in circle if state["energy"][s] == least]
        if len(lowest) == 1:
            banish(state, lowest[0])
    for seat in alive(state):
        if state["role"][seat] == "limbo":
            if state["energy"][seat] > RETURN_COST:
                return_from_limbo(state, seat)
            else:
                leave(state, seat)
    push(state, {"kind": "round_end"})


AUTOMATIC = {"round": start_round, "round_end": end_round, "segment": start_segment,
             "duel": start_duel_step, "meet": meet, "wave": start_wave, "wave_end": wave_end,
             "balance": balance, "walk": start_walk, "step": walk_step,
             "defence_walk": start_defence_walk}
REVEAL = {"decide": reveal_decisions, "attack": reveal_attacks, "defend": reveal_defences}
ACT = {"pick": act_pick, "swap": act_swap, "learn": act_swap, "return": act_return,
       "conjure": act_conjure, "influence": act_influence, "redirect": act_redirect,
       "ward": act_ward}
SKIP = {"pick": skip_pick, "swap": skip, "learn": skip, "return": skip, "conjure": skip_conjure,
        "influence": skip, "redirect": skip_redirect, "ward": skip_ward}
