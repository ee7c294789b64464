"""Imperial Twing, after the rulebook shared/rulebooks/imperial-twing.de.md.

Clauses are cited by the letters docs/rules/imperial-twing.md gives the rulebook's sections
(Z the goal, BOX the box, V set-up, B the start, T the turn, H hand limits and creatures, F
fights, W the Orn die, R mounts, E the elemental alignment, S the shield, EV events, K cats,
P traps, N ornicles, O objects, C buying, DU duels, RI the cat ritual, M support, G the endgame,
A resigning) and decisions where the text is silent or contradicts itself as D1..D31, all listed
with the German text in the rules doc.

Each seat is a character of one element. A turn draws a card and takes one of eight actions;
fights (fight.py) are built card by card and answered in response windows. Whoever gathers
three magic objects may start the endgame, one against all; the last seat in the game wins.

A state is a plain JSON dict. ``advance`` carries out everything automatic (draws, events,
the end of a fight) until a seat must decide or chance must fall, and records which in
``phase`` and ``actor``. Matches stored under versions 1 and 2 fold by the editions in
editions.py (a version 3 state names its version, ``table.rules_version``).
"""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass

from games.engine.bots import RandomBot
from games.engine.dict_ruleset import DictRuleset
from games.engine.protocol import Event, GameSpec, IllegalAction, option
from games.engine.registry import register

from . import fight as fights
from .content import (BOOTS, CARD, DIE_SIDES, ELEMENT, ELEMENTS, EVENT_IDS, IS_SPELL, OBJECT_IDS,
                      ORNICLES, PLAY_IDS, SPELLS, die_face, die_rank)
from .fight import ATTACK, DUEL, ENDGAME
from .table import (MAX_ACTIVE, MAX_COLOURS, breaks_limit, cats_in_hand, colours_in_hand,
                    gain_object, has_active, in_play, leave, lose_object, lose_ornicles,
                    next_seat, over_limit, owned_objects, play_order, process_draws, queue_draw, queue_spell_draws, refill_row,
                    reshuffle, rules_version, spells_in_hand, traps_in_hand)
from .views import hidden_items, public_view, seat_view

SPEC = GameSpec(name="imperial-twing", title="Imperial Twing", version=3, min_players=2,
                max_players=4, chance=True, hidden_information=True, simultaneous=False,
                rulebook="imperial-twing.de.md")
DIE = {"kind": "dice", "count": 1, "sides": DIE_SIDES}
CHANCE_PHASES = frozenset(("characters", "deck", "objects", "events", "start_roll", "roll", "reroll",
                           "reshuffle", "event_reshuffle"))  # asked of every event: one hash
SETUP_STAGES = frozenset(("characters", "deck", "objects", "events"))
ACTION_KEYS = {
    "character": {"element"}, "direction": {"direction"}, "activate": {"objects"},
    "attack": {"target"}, "duel": {"target"}, "buy": {"object"}, "trap": {"card", "target"},
    "ritual": set(), "begin_endgame": set(), "endgame_attack": set(), "pass": set(),
    "resign": set(), "spell": {"card"}, "creature": {"card", "rider"}, "done": set(),
    "support": {"side", "card"}, "cat": {"card"}, "invert": {"target"}, "reroll": set(),
    "take": {"object"}, "give": {"to", "object", "ornicles"}, "discard_colour": {"element"},
    "discard_spell": {"card"},
}

PHASE_TYPES = {  # the action types of each decision, possible or not at the moment
    "character": ("character",), "direction": ("direction",),
    "limit": ("discard_colour", "discard_spell"),
    "action": ("activate", "attack", "duel", "buy", "trap", "ritual", "begin_endgame",
               "endgame_attack", "pass", "resign"),
    "commit": ("spell", "creature", "done"), "support": ("pass", "support"),
    "respond": ("pass", "cat", "invert", "trap", "reroll"), "take": ("take",), "give": ("give",),
}


@dataclass(frozen=True)
class Options:
    """The variants; every default is the rulebook's value or a documented decision."""

    object_price: int = option(3, "C.1, D1: ornicles an object costs (the action list says 5, "
                               "the buying section '3, to be exact')", min=1, max=10)
    characters: str = option("draw", "V.1, D2: characters are drawn at random (draw) or chosen "
                             "in seat order (choose)", choices=("draw", "choose"))
    protected: str = option("lost-attack", "H.4, D16: own-colour creatures are 'protected' by "
                            "returning after a lost attack (lost-attack) or also against traps "
                            "(also-traps)", choices=("lost-attack", "also-traps"))
    resignation: str = option("forfeit-only", "A.1-A.4, D14: a seat resigns by the platform's "
                              "forfeit, its objects leaving with it (forfeit-only), or also by a "
                              "resign action in its turn that gives its objects and ornicles "
                              "away (free)", choices=("forfeit-only", "free"))
    turn_limit: int = option(300, "D24: after this many turns the match ends and is scored by "
                             "objects, then ornicles", min=10, max=2000)
    socks: str = option("others", "O.9, D18: in an endgame attack one defender's Socks bar the "
                        "attacker's cats against that defender only, whose fight keeps the die "
                        "as it was before the first cat (others), or against every defender "
                        "(bar-all)", choices=("others", "bar-all"))


# -- the course of play ---------------------------------------------------------------------------

def new_state(players: int, options: dict, version: int = SPEC.version) -> dict:
    """V.1-V.5 before any card is dealt. A version 3 state names its rules' version; versions 1
    and 2 (editions.py) keep the shape they wrote."""
    n = players
    state = {
        "players": n, "options": options, "stage": "characters", "phase": None, "actor": None,
        "characters": [None] * n, "deck": [], "discard": [], "hands": [[] for _ in range(n)],
        "retinues": [[] for _ in range(n)], "object_deck": [], "object_row": [],
        "active": [[] for _ in range(n)], "aside": [[] for _ in range(n)], "removed_objects": [],
        "event_deck": [], "event_discard": [], "ornicles": [0] * n, "supply": ORNICLES,
        "in_endgame": [False] * n, "left": [], "forfeited": [], "start_rolls": [],
        "start_tied": list(range(n)), "first_seat": None, "seat": None, "direction": 1, "turn": 0,
        "arranged": False, "turn_over": False, "draws": [], "event_queue": [], "fight": None,
        "duel": None, "takes": [], "give": None, "last_fight": None, "reshuffles": 0,
        "event_reshuffles": 0, "end": None,
    }
    if version >= 3:
        state["version"] = version
    advance(state)
    return state


def advance(state: dict) -> None:
    """Carry out what needs no decision until a seat must act or chance must fall. Most steps
    fall inside a fight with nothing queued before it (no end, draw, event, gift or taking,
    two seats in play at least, the stage "play"): ``_step`` would reach ``_fight_step``
    through every check of its own and of ``_play_step``, so that step is asked here directly
    (tests/games/test_imperial_twing_fast_paths.py holds it to ``_step``'s loop)."""
    for _ in range(100_000):
        if (state["fight"] is not None and state["stage"] == "play" and state["end"] is None
                and not state["draws"] and not state["event_queue"] and state["give"] is None
                and not state["takes"]
                and (not state["left"] or state["players"] - len(state["left"]) > 1)):
            step = _fight_step(state)
            if step is None:
                after_fight(state)
                continue
        else:
            step = _step(state)
            if step is None:
                continue
        state["phase"], state["actor"] = step
        return
    raise RuntimeError("imperial-twing: advance made no progress")  # a bug, never a rule


def _step(state: dict) -> tuple[str, int | None] | None:
    """One automatic step, or the decision/chance that is due (None: call again)."""
    if state["end"] is not None:
        return "over", None
    stage = state["stage"]
    if stage in SETUP_STAGES:
        return _setup_step(state)
    if state["players"] - len(state["left"]) <= 1:  # len(in_play): leave() lists a seat once
        finish(state, "rules")
        return None
    if state["draws"] and not process_draws(state):
        return "reshuffle", None
    if state["event_queue"]:
        if state["event_deck"]:
            fights.resolve_event(state, state["event_queue"].pop(0))
        elif state["event_discard"]:
            return "event_reshuffle", None
        else:
            state["event_queue"] = []  # D23: all sixteen are out of the deck at once
        return None
    if state["fight"] is None:
        # With every seat in play holding a spell and at most three cards (or within the
        # limits), queue_spell_draws queues nothing and over_limit finds no seat: the hands
        # in play are asked here once, as both would ask them, before either is called.
        if not _hands_settled(_hands_in_play(state)):
            draws = state["draws"]
            before = len(draws)
            queue_spell_draws(state)
            if len(draws) > before:
                return None
            limit = over_limit(state)
            if limit:
                return "limit", limit[0]
    if stage == "start_roll":  # no draw, event or limit changes the stage
        return "start_roll", None
    if stage == "direction":
        return "direction", state["seat"]
    return _play_step(state)


def _hands_settled(hands: list[list[str]]) -> bool:
    """Every hand holds a spell (T.3: no draw until one is due) and breaks no hand limit
    (H.1-H.3), asked as ``queue_spell_draws`` and ``over_limit`` ask the hands in play."""
    for hand in hands:
        if _no_spell(hand) or (len(hand) > MAX_COLOURS and breaks_limit(hand)):
            return False
    return True


_no_spell = SPELLS.isdisjoint


def _hands_in_play(state: dict) -> list[list[str]]:
    """The hands of the seats in play (``in_play``), in seat order."""
    hands, left = state["hands"], state["left"]
    if not left:
        return hands
    gone = {entry[0] for entry in left}
    return [hand for seat, hand in enumerate(hands) if seat not in gone]


def _setup_step(state: dict) -> tuple[str, int | None] | None:
    """V.1 characters (drawn or chosen), V.3 the three shuffles, V.6 three cards each."""
    stage = state["stage"]
    if stage == "characters":
        waiting = [s for s in in_play(state) if state["characters"][s] is None]
        if waiting:
            if state["options"]["characters"] == "choose":
                return "character", waiting[0]
            return "characters", None
        state["stage"] = "deck"
    if state["stage"] == "deck" and not state["deck"]:
        return "deck", None
    if state["stage"] == "objects":
        return "objects", None
    if state["stage"] == "events":
        return "events", None
    return None


def _play_step(state: dict) -> tuple[str, int | None] | None:
    """A turn: a resignation's gifts, objects to take, the fight, the action, the next turn."""
    if state["give"] is not None:
        return _give_step(state)
    if state["takes"]:
        return _take_step(state)
    if state["fight"] is not None:
        step = _fight_step(state)
        if step is None:
            after_fight(state)
        return step
    if state["duel"] is not None and "fought" in state["duel"]:
        next_duel_fight(state)
        return None
    if state["turn_over"]:
        end_turn(state)
        return None
    return "action", state["seat"]


def _fight_step(state: dict) -> tuple[str, int | None] | None:
    """The fight's next decision or chance; None once its window has closed."""
    fight = state["fight"]
    if fight["step"] == "commit":
        for seat in fights.fighters(fight):
            side = fight["sides"][seat]
            if side["done"]:
                continue
            if fights.can_lay(state, seat):
                return "commit", seat
            side["done"] = True  # nothing (more) to lay: D13
        fight["step"], fight["support_queue"] = "support", fights.support_candidates(state, fight)
    if fight["step"] == "support":
        while fight["support_queue"]:
            if fights.support_actions(state, fight["support_queue"][0]):
                return "support", fight["support_queue"][0]
            fight["support_queue"].pop(0)
        fight["step"], fight["rolling"] = "roll", fights.rollers(fight)
        if not fight["rolling"]:
            fight["step"], fight["window"] = "window", {"at": 0, "quiet": 0}
    if fight["step"] in ("roll", "reroll"):
        return fight["step"], None
    seat = fights.window_seat(state)
    return ("respond", seat) if seat is not None else None


def after_fight(state: dict) -> None:
    """F.10-F.14 resolve the fight; then DU.2-DU.6 the duel's tally, G.6 the endgame's takings,
    or the end of the turn."""
    kind, attacker = state["fight"]["kind"], state["fight"]["attacker"]
    number = state["fight"]["number"]
    outcomes = fights.resolve(state)
    if kind == ENDGAME:
        state["takes"] = [{"from": o["defender"], "eliminate": True} for o in outcomes
                          if o["winner"] == "attacker"]
    elif kind == DUEL:
        duel, winner = state["duel"], outcomes[0]["winner"]
        duel["wins"] += winner == "attacker"
        duel["losses"] += winner == "defender"
        if duel["wins"] < 2 and duel["losses"] < 2 and number < 3:
            if rules_version(state) >= 3:  # T.3 first: the next fight waits for the draws
                duel["fought"] = number
            else:
                fights.start_fight(state, DUEL, attacker, [duel["defender"]], number + 1)
            return
        # DU.5: the stake returns to a winner, DU.6: goes to a defender who won two, D5: else back
        state["ornicles"][duel["defender"] if duel["losses"] >= 2 else attacker] += 1
        if duel["wins"] >= 2:
            state["takes"] = [{"from": duel["defender"], "eliminate": False}]
        state["duel"] = None
    state["turn_over"] = True


def next_duel_fight(state: dict) -> None:
    """DU.2 "Du greifst 3-mal hintereinander deinen Gegner an", T.3 "immer sofort": from
    version 3 no fight runs between the fights of a duel, so a fighter left without a spell
    has drawn until one (and the hand limits are kept, D9) before the next fight begins;
    ``fought`` is in the duel only in that moment."""
    duel = state["duel"]
    number = duel.pop("fought") + 1
    fights.start_fight(state, DUEL, duel["attacker"], [duel["defender"]], number)


def _take_step(state: dict) -> tuple[str, int | None] | None:
    """DU.5, G.6: the winner takes one object of the loser's; with one object there is nothing
    to choose. G.2, D11: a seat beaten in the endgame with no object left leaves the game."""
    take = state["takes"][0]
    loser = take["from"]
    objects = owned_objects(state, loser)
    if len(objects) > 1:
        return "take", state["seat"]
    if objects:
        transfer_object(state, loser, state["seat"], objects[0])
    finish_take(state)
    return None


def transfer_object(state: dict, giver: int, taker: int, obj: str) -> None:
    lose_object(state, giver, obj)
    gain_object(state, taker, obj)


def finish_take(state: dict) -> None:
    take = state["takes"].pop(0)
    if take["eliminate"] and not owned_objects(state, take["from"]):
        leave(state, take["from"], "beaten", state["turn"])


def _give_step(state: dict) -> tuple[str, int | None] | None:
    """A.3: a resigning seat gives its objects and ornicles to the others as it likes; with one
    other seat left there is nothing to choose (D14)."""
    seat = state["give"]["seat"]
    others = [s for s in in_play(state) if s != seat]
    if owned_objects(state, seat) or state["ornicles"][seat]:
        if len(others) > 1:
            return "give", seat
        for obj in owned_objects(state, seat):
            transfer_object(state, seat, others[0], obj)
        state["ornicles"][others[0]] += state["ornicles"][seat]
        state["ornicles"][seat] = 0
    state["give"] = None
    leave(state, seat, "resigned", state["turn"])
    if seat == state["seat"]:
        state["turn_over"] = True
    return None


def begin_turn(state: dict, seat: int) -> None:
    """T.1: the turn's seat draws one card; D24: past the turn limit the match is scored."""
    if state["turn"] >= state["options"]["turn_limit"]:
        finish(state, "bound")
        return
    state.update(turn=state["turn"] + 1, seat=seat, arranged=False, turn_over=False)
    queue_draw(state, seat, 1)


def end_turn(state: dict) -> None:
    """B.2: play passes in the chosen direction to the next seat in the game."""
    seat = next_seat(state, state["seat"])
    if seat is not None:
        begin_turn(state, seat)


def object_weight(state: dict) -> int:
    """D25: what an object is worth in a score. From version 3 objects rank first and ornicles
    only break ties (there are 30 ornicles, so 100 an object puts every object above every
    handful of them); version 2 counted an object as 10 ornicles."""
    return 100 if rules_version(state) >= 3 else 10


def standing_scores(state: dict) -> list[int]:
    """G.9, Z.1, D24, D25: the scores as the seats stand. A seat that left scores the rank of
    the turn it left (first out lowest; out together, equal); a seat in the game scores
    100 + 100 x its objects + its ornicles: objects first, then ornicles (version 2:
    100 + 10 x objects + ornicles, ``object_weight``)."""
    turns = sorted({batch for _, _, batch in state["left"]})
    scores = [0] * state["players"]
    for seat, _, batch in state["left"]:
        scores[seat] = 1 + turns.index(batch)
    weight = object_weight(state)
    for seat in in_play(state):
        scores[seat] = 100 + weight * len(owned_objects(state, seat)) + state["ornicles"][seat]
    return scores


def finish(state: dict, by: str) -> None:
    """G.9, D24-D25: the match ends and the seats are scored as they stand (one seat in the
    game when the rules end it, ``standing_scores``)."""
    state["end"] = {"by": by, "scores": standing_scores(state)}
    state["fight"], state["duel"], state["takes"], state["give"] = None, None, [], None
    state["draws"], state["event_queue"] = [], []


# -- chance ------------------------------------------------------------------------------------------

def chance_spec(state: dict) -> dict:
    """The chance event due now (``phase`` is one of CHANCE_PHASES)."""
    phase = state["phase"]
    if phase == "roll" or phase == "reroll":  # most chance events: the fight's dice
        return dict(DIE, count=len(state["fight"]["rolling"]))
    if phase == "characters":
        free = [e for e in ELEMENTS if e not in state["characters"]]
        return {"kind": "choice", "n": len(free), "k": 1}
    if phase == "deck":
        return {"kind": "shuffle", "n": len(PLAY_IDS)}
    if phase == "objects":
        return {"kind": "shuffle", "n": len(OBJECT_IDS)}
    if phase == "events":
        return {"kind": "shuffle", "n": len(EVENT_IDS)}
    if phase == "reshuffle":
        return {"kind": "shuffle", "n": len(state["discard"])}
    if phase == "event_reshuffle":
        return {"kind": "shuffle", "n": len(state["event_discard"])}
    if phase == "start_roll":
        return dict(DIE, count=len(state["start_tied"]))
    return dict(DIE, count=len(state["fight"]["rolling"]))


def chance_fell(state: dict, outcome: list[int]) -> None:
    """Apply the outcome of the chance event due now."""
    phase = state["phase"]
    if phase == "roll" or phase == "reroll":
        fights.set_dice(state, outcome)
    elif phase == "characters":
        free = [e for e in ELEMENTS if e not in state["characters"]]
        seat = next(s for s in in_play(state) if state["characters"][s] is None)
        state["characters"][seat] = free[outcome[0]]
    elif phase == "deck":  # V.2
        state["deck"], state["stage"] = [PLAY_IDS[i] for i in outcome], "objects"
    elif phase == "objects":  # V.3: two objects face up
        state["object_deck"] = [OBJECT_IDS[i] for i in outcome]
        refill_row(state)
        state["stage"] = "events"
    elif phase == "events":  # V.3, then V.6: three cards each, in seat order
        state["event_deck"], state["stage"] = [EVENT_IDS[i] for i in outcome], "start_roll"
        for seat in in_play(state):
            queue_draw(state, seat, 3)
    elif phase == "reshuffle":
        reshuffle(state, outcome)
    elif phase == "event_reshuffle":
        pile = state["event_discard"]
        state["event_deck"], state["event_discard"] = [pile[i] for i in outcome], []
        state["event_reshuffles"] += 1
    elif phase == "start_roll":
        start_roll(state, outcome)
    else:
        fights.set_dice(state, outcome)


def start_roll(state: dict, outcome: list[int]) -> None:
    """B.1, D3: everyone rolls; the highest begins; those tied for highest roll again."""
    faces = [die_face(v) for v in outcome]
    tied = state["start_tied"]
    state["start_rolls"].append([[seat, face] for seat, face in zip(tied, faces)])
    best = max(die_rank(f) for f in faces)
    state["start_tied"] = [s for s, f in zip(tied, faces) if die_rank(f) == best]
    if len(state["start_tied"]) == 1:
        choose_start(state)


def choose_start(state: dict) -> None:
    """B.2: the start player chooses the direction of play (at 2 players there is none, D4)."""
    state["seat"] = state["first_seat"] = state["start_tied"][0]
    if len(in_play(state)) >= 3:
        state["stage"] = "direction"
    else:
        state["stage"] = "play"
        begin_turn(state, state["seat"])


# -- decisions -------------------------------------------------------------------------------------

def action_choices(state: dict, seat: int) -> list[dict]:
    """T.4: the eight actions of a turn (and O.1's free rearranging of objects, A.1 resigning)."""
    actions = []
    others = [s for s in in_play(state) if s != seat]
    owned = owned_objects(state, seat)
    if len(owned) > MAX_ACTIVE and not state["arranged"]:
        now = sorted(state["active"][seat])
        actions += [{"type": "activate", "objects": list(combo)}
                    for combo in itertools.combinations(sorted(owned), MAX_ACTIVE) if list(combo) != now]
    has_spell = bool(spells_in_hand(state, seat))
    if has_spell:
        actions += [{"type": "attack", "target": s} for s in others]
        if state["ornicles"][seat] >= 1:
            actions += [{"type": "duel", "target": s} for s in others if owned_objects(state, s)]
    if state["ornicles"][seat] >= state["options"]["object_price"]:
        actions += [{"type": "buy", "object": o} for o in state["object_row"]]
    traps = traps_in_hand(state, seat)
    if traps:
        element = state["characters"][seat]
        actions += [{"type": "trap", "card": traps[0], "target": c} for s in others
                    if not has_active(state, s, BOOTS)
                    for c in state["retinues"][s] if CARD[c].element == element]
    if len(cats_in_hand(state, seat)) >= 3 and state["object_deck"]:
        actions.append({"type": "ritual"})
    if len(owned) >= 3 and has_spell:
        actions.append({"type": "endgame_attack" if state["in_endgame"][seat] else "begin_endgame"})
    actions.append({"type": "pass"})
    if state["options"]["resignation"] == "free":
        actions.append({"type": "resign"})
    return actions


def decision_choices(state: dict, seat: int) -> list[dict]:
    """Every action of the current decision, in a stable order ([] if ``seat`` does not act)."""
    phase = state["phase"]
    if seat != state["actor"] or phase in CHANCE_PHASES or phase == "over":
        return []
    if phase == "character":
        return [{"type": "character", "element": e} for e in ELEMENTS if e not in state["characters"]]
    if phase == "direction":
        return [{"type": "direction", "direction": d} for d in ("clockwise", "counterclockwise")]
    if phase == "limit":
        if len(colours_in_hand(state, seat)) > 3:
            return [{"type": "discard_colour", "element": e} for e in colours_in_hand(state, seat)]
        return [{"type": "discard_spell", "card": c} for c in spells_in_hand(state, seat)]
    if phase == "action":
        return action_choices(state, seat)
    if phase == "commit":
        return fights.commit_actions(state, seat)
    if phase == "support":
        return [{"type": "pass"}] + fights.support_actions(state, seat)
    if phase == "respond":
        return [{"type": "pass"}] + fights.responses(state, seat)
    if phase == "take":
        return [{"type": "take", "object": o} for o in owned_objects(state, state["takes"][0]["from"])]
    if phase == "give":
        others = [s for s in in_play(state) if s != seat]
        gifts = [{"type": "give", "to": t, "object": o} for o in owned_objects(state, seat) for t in others]
        return gifts + [{"type": "give", "to": t, "ornicles": k} for t in others
                        for k in range(1, state["ornicles"][seat] + 1)]
    return []


def decide(state: dict, seat: int, action: dict) -> None:
    """Carry out a checked decision."""
    kind, phase = action["type"], state["phase"]
    if phase == "commit":  # most decisions: a card laid in a fight
        fights.commit(state, seat, action)
    elif phase == "respond":
        fights.respond(state, seat, action)
    elif phase == "character":
        state["characters"][seat] = action["element"]
    elif phase == "direction":  # B.2: seats are numbered clockwise
        state["direction"] = 1 if action["direction"] == "clockwise" else -1
        state["stage"] = "play"
        begin_turn(state, state["seat"])
    elif phase == "limit":
        limit_discard(state, seat, action)
    elif phase == "action":
        take_action(state, seat, action)
    elif phase == "support":
        if kind == "support":
            fights.support(state, seat, action)
        state["fight"]["support_queue"].pop(0)
    elif phase == "take":
        transfer_object(state, state["takes"][0]["from"], seat, action["object"])
        finish_take(state)
    elif phase == "give":
        if "object" in action:
            transfer_object(state, seat, action["to"], action["object"])
        else:
            state["ornicles"][seat] -= action["ornicles"]
            state["ornicles"][action["to"]] += action["ornicles"]


def limit_discard(state: dict, seat: int, action: dict) -> None:
    """H.2: more than three colours: every spell of one colour goes; H.3: more than fifteen
    spells: one spell goes (the seat chooses)."""
    if action["type"] == "discard_colour":
        gone = [c for c in spells_in_hand(state, seat) if CARD[c].element == action["element"]]
    else:
        gone = [action["card"]]
    for card in gone:
        state["hands"][seat].remove(card)
    state["discard"] += gone


def take_action(state: dict, seat: int, action: dict) -> None:
    """T.4.1-T.4.8 (and O.1 rearranging, A.1 resigning)."""
    kind = action["type"]
    if kind == "activate":  # O.1: free, once a turn, never during a fight
        owned = owned_objects(state, seat)
        state["active"][seat] = [o for o in owned if o in action["objects"]]
        state["aside"][seat] = [o for o in owned if o not in action["objects"]]
        state["arranged"] = True
        return
    state["turn_over"] = kind not in ("attack", "duel", "begin_endgame", "endgame_attack")
    if kind == "attack":
        fights.start_fight(state, ATTACK, seat, [action["target"]])
    elif kind == "duel":  # DU.1: one ornicle staked
        state["ornicles"][seat] -= 1
        state["duel"] = {"attacker": seat, "defender": action["target"], "wins": 0, "losses": 0}
        fights.start_fight(state, DUEL, seat, [action["target"]])
    elif kind == "buy":  # C.1-C.4
        lose_ornicles(state, seat, state["options"]["object_price"])
        state["object_row"].remove(action["object"])
        gain_object(state, seat, action["object"])
        refill_row(state)
    elif kind == "trap":  # T.4.4, P.2: a creature of your colour joins your retinue
        state["hands"][seat].remove(action["card"])
        state["discard"].append(action["card"])
        owner = next(s for s in in_play(state) if action["target"] in state["retinues"][s])
        state["retinues"][owner].remove(action["target"])
        state["retinues"][seat].append(action["target"])
    elif kind == "ritual":  # RI.1: three cats, Miromon last (D21)
        cats = sorted(cats_in_hand(state, seat), key=lambda c: c == "CAT-miromon")[:3]
        for cat in cats:
            state["hands"][seat].remove(cat)
        state["discard"] += cats
        gain_object(state, seat, state["object_deck"].pop(0))
    elif kind in ("begin_endgame", "endgame_attack"):  # G.1-G.4
        state["in_endgame"][seat] = True
        defenders = [s for s in play_order(state, seat) if s != seat]
        fights.start_fight(state, ENDGAME, seat, defenders)
    elif kind == "pass":  # T.4.8
        queue_draw(state, seat, 2)
    elif kind == "resign":  # A.1, D14
        state["give"], state["turn_over"] = {"seat": seat}, False


# -- legality ----------------------------------------------------------------------------------------

def _short(value) -> str:
    text = json.dumps(value, default=repr) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _spelling(value) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


_PLAIN = frozenset((str, int))


def plain(action: dict) -> bool:
    """Every key a str and every value exactly a str, an int or a list of strs (an activate's
    objects): then an action equal to a legal one (``==``) is spelled as it is in JSON, with
    no true standing for 1 nor 2.0 for 2 (the legal actions are made of such values only)."""
    for key, value in action.items():
        if type(key) is not str:
            return False
        kind = type(value)
        if kind is list:
            if value and set(map(type, value)) != _STR_ONLY:
                return False
        elif kind not in _PLAIN:
            return False
    return True


_STR_ONLY = {str}


def surely_legal(state: dict, seat: int, action: dict) -> bool:
    """True only for an action that ``decision_choices`` lists, spelled as it spells it: the
    commonest actions of a validation (a card laid, done, a pass) asked directly, without the
    listing (False: not sure, ask the listing). ``seat`` is the seat to act, ``action`` a dict
    with a string type (``refusal`` has checked both)."""
    phase, kind, size = state["phase"], action["type"], len(action)
    if kind == "pass":
        return size == 1 and phase in ("respond", "support", "action")
    if phase != "commit":
        return False
    side = state["fight"]["sides"][seat]
    if kind == "done":
        return size == 1 and bool(side["spells"] or side["mode"] == "shield")
    card = action.get("card")
    if size != 2 or type(card) is not str:
        return False
    if kind == "spell":
        return (card in state["hands"][seat] and IS_SPELL[card] and side["mode"] != "shield"
                and len(side["spells"]) < fights.MAX_SPELLS_IN_FIGHT
                and side["colour"] in (None, ELEMENT[card]))
    if kind == "creature":  # a unit alone (one without rider has no "rider" key)
        return card in state["retinues"][seat] and bool(
            fights.unit_slot(state, state["fight"], seat, ELEMENT[card]))
    return False


def refusal(state: dict, seat, action) -> str | None:
    """Why ``action`` is not legal for ``seat`` now (None: it is); never raises on any JSON."""
    if state["phase"] in CHANCE_PHASES or state["phase"] == "over" or seat != state["actor"] \
            or type(seat) is not int:
        return f"seat {_short(seat)} does not act now"
    if not isinstance(action, dict) or type(action.get("type")) is not str:
        return f"an action is a JSON object with a string 'type', got {_short(action)}"
    if surely_legal(state, seat, action):
        return None
    legal = decision_choices(state, seat)
    if plain(action) and action in legal:  # the spelling's answer without writing JSON
        return None
    if _spelling(action) in {_spelling(a) for a in legal}:
        return None
    kinds = sorted({a["type"] for a in legal})
    kind, phase = action["type"], state["phase"]
    if kind not in kinds and kind not in PHASE_TYPES.get(phase, ()):
        return f"{_short(kind)} is not possible now ({phase}); possible: {kinds}"
    allowed = ACTION_KEYS[kind] | {"type"}
    extra = sorted(set(action) - allowed)
    if extra:
        return f"a {kind} action has no key(s) {extra}; its keys are {sorted(allowed)}"
    return _rule_reason(state, seat, action)


def _rule_reason(state: dict, seat: int, action: dict) -> str:
    """A reason for a well-formed action that breaks a rule now."""
    kind = action["type"]
    card = action.get("card")
    if kind in ("spell", "cat", "trap", "discard_spell") and card not in state["hands"][seat]:
        return f"{_short(card)} is not a card in your hand"
    if kind == "spell":
        return ("no more spells of that colour fit this side (F.3: up to three spells of one "
                "colour; a shield takes no spell, S.1)")
    if kind == "creature":
        if card not in state["retinues"][seat]:
            return f"{_short(card)} is not a creature in your retinue"
        return ("that creature (or mounted pair) has no place on this side: one creature of the "
                "spells' colour per spell (F.5), mounts carry one creature of their colour and "
                "equal or lower power (R.1), an attack opens with a spell (F.3), no riders "
                "against the Cup (O.10)")
    if kind == "done":
        return "an attack needs at least one spell, a defence at least one card (F.3, F.4)"
    if kind in ("attack", "duel"):
        return (f"{_short(action.get('target'))} cannot be {kind}ed now: name another seat in the "
                "game; you need a spell (F.3), and for a duel an ornicle and a target with an "
                "object (DU.1)")
    if kind == "buy":
        return (f"{_short(action.get('object'))} cannot be bought: it must lie face up and you "
                f"need {state['options']['object_price']} ornicles (C.1)")
    if kind == "trap" and state["phase"] == "action":
        return "a trap catches a creature of your colour from another seat's retinue (T.4.4)"
    if kind in ("trap", "cat", "invert", "reroll"):
        return ("that response is not open to you: cats need a die of yours and no Socks "
                "against you (O.9), traps an opponent's creature in this fight and no Boots "
                "(O.7), re-rolls the Clover or Hat once a fight (O.4, O.5)")
    if kind == "support":
        return ("support stakes one ornicle and adds one spell or creature of the supported "
                "side's colour (M.2)")
    return f"{_short(action)} is not a legal action now ({state['phase']})"


# -- the ruleset --------------------------------------------------------------------------------------

_LISTS = ("characters", "deck", "discard", "object_deck", "object_row", "removed_objects",
          "event_deck", "event_discard", "ornicles", "in_endgame", "left", "forfeited",
          "start_rolls", "start_tied", "event_queue", "takes")
_NESTED = ("hands", "retinues", "active", "aside")


def clone(state: dict) -> dict:
    """A copy whose parts ``apply`` may change (inner entries that are never changed in place,
    such as ``left`` rows or ``last_fight``, are shared); much cheaper than a deep copy."""
    new = dict(state)
    for key in _LISTS:
        new[key] = list(state[key])
    for key in _NESTED:
        new[key] = [list(x) for x in state[key]]
    new["draws"] = [dict(task) for task in state["draws"]]
    for key in ("duel", "give"):
        new[key] = dict(state[key]) if state[key] is not None else None
    fight = state["fight"]
    if fight is not None:
        new["fight"] = dict(fight, supporters=list(fight["supporters"]),
                            support_queue=list(fight["support_queue"]),
                            rolling=list(fight["rolling"]), events=list(fight["events"]),
                            window=dict(fight["window"]) if fight["window"] else None,
                            sides=[None if side is None else dict(
                                side, spells=list(side["spells"]),
                                units=[dict(u) for u in side["units"]]) for side in fight["sides"]])
    return new


def forfeit(state: dict, seat: int, version: int = SPEC.version) -> None:
    """D14: a seat that forfeits leaves at once; a fight it fights in is called off, a support
    it gave is returned, a turn it was taking ends. ``version`` is the edition's: version 1
    (editions.py) kept no ``revealed`` and lost a forfeiting supporter's card."""
    if seat not in in_play(state) or state["end"] is not None:
        return
    fight, duel = state["fight"], state["duel"]
    if fight is not None and seat in fights.fighters(fight):
        fights.cancel_fight(state, recall=version >= 2)
        if state["duel"] is not None:
            state["ornicles"][state["duel"]["attacker"]] += 1
            state["duel"] = None
        state["turn_over"] = True
    elif duel is not None and seat in (duel["attacker"], duel["defender"]):
        state["ornicles"][duel["attacker"]] += 1  # between two fights of a duel (version 3)
        state["duel"], state["turn_over"] = None, True
    elif fight is not None:
        for sup in [s for s in fight["supporters"] if s["seat"] == seat]:
            fight["supporters"].remove(sup)
            fight["stakes"] -= 1
            state["ornicles"][seat] += 1
            if version >= 2:  # the card goes back too, to be discarded with the seat's (leave)
                pile = state["hands"] if CARD[sup["card"]].kind == "spell" else state["retinues"]
                pile[seat].append(sup["card"])
        fight["support_queue"] = [s for s in fight["support_queue"] if s != seat]
    if state["give"] is not None and state["give"]["seat"] == seat:
        state["give"] = None
    state["takes"] = [t for t in state["takes"] if t["from"] != seat]
    if seat == state["seat"]:
        state["takes"], state["turn_over"] = [], True
    leave(state, seat, "forfeit", state["turn"])
    if seat in state["start_tied"] and state["stage"] == "start_roll":
        state["start_tied"].remove(seat)
        if len(state["start_tied"]) == 1:
            choose_start(state)
    if state["stage"] == "direction" and seat == state["seat"]:
        state["stage"] = "play"
        begin_turn(state, next_seat(state, seat))


class ImperialTwing(DictRuleset):
    """The engine contract for Imperial Twing (the shell: games/engine/dict_ruleset.py)."""

    spec = SPEC
    Options = Options
    refusal = staticmethod(refusal)
    decide = staticmethod(decide)
    chance_outcome = staticmethod(chance_fell)
    public_view = staticmethod(public_view)
    seat_view = staticmethod(seat_view)
    clone = staticmethod(clone)
    short = staticmethod(_short)

    def new_state(self, players: int, options: dict) -> dict:
        return new_state(players, options, self.spec.version)

    def acting_seats(self, state: dict) -> tuple:
        return (state["actor"],)

    def chance_spec(self, state: dict) -> dict | None:
        return chance_spec(state) if state["phase"] in CHANCE_PHASES else None

    def final_scores(self, state: dict) -> list:
        return state["end"]["scores"]

    def forfeit(self, state: dict, seat: int) -> None:
        forfeit(state, seat, self.spec.version)

    def check_action(self, state: dict, seat: int, action) -> None:
        """Ruleset.check_action without building ``next`` when ``seat`` is the one to act (a
        validation checks every action): ``refusal`` alone then decides, as it would there."""
        phase = state["phase"]
        if type(seat) is int and seat == state["actor"] and phase not in CHANCE_PHASES \
                and phase != "over":
            reason = refusal(state, seat, action)
            if reason is not None:
                raise IllegalAction(reason)
            return None
        return super().check_action(state, seat, action)

    def act_in_place(self, state: dict, seat: int, payload: dict) -> dict:
        """Ruleset.act_in_place (optional): ``check_action`` and ``apply_in_place`` of the
        action in one call (every action of a validation)."""
        action, phase = payload["action"], state["phase"]
        if type(seat) is int and seat == state["actor"] and phase not in CHANCE_PHASES \
                and phase != "over":
            reason = refusal(state, seat, action)
            if reason is not None:
                raise IllegalAction(reason)
            decide(state, seat, action)
            advance(state)
            if self.spec.version >= 2:
                fights.forget_played(state)
            return state
        self.check_action(state, seat, action)
        return self.apply_in_place(state, Event("action", seat, payload))

    def after_event(self, state: dict) -> None:
        """Every event runs the game on to its next decision (``advance``). The rules read an
        action's fields and keep none of its lists or dicts, so the event is not copied."""
        advance(state)
        if "revealed" in state and self.spec.version >= 2:  # version 1 never has one to forget
            fights.forget_played(state)

    def legal_actions(self, state: dict, seat: int) -> list:
        return decision_choices(state, seat)

    def determinize(self, view: dict, seat: int, rng) -> dict:
        """The seat's view with what it cannot see drawn (games/imperial_twing/determinize.py)."""
        from .determinize import determinize
        state = determinize(view, seat, rng)
        if self.spec.version >= 3:
            state["version"] = self.spec.version
        return state

    def score_now(self, state: dict) -> list[int]:
        """Z.1, G.9, D24-D25: the scores the turn limit would give now (``standing_scores``:
        100 + 100 x objects + ornicles for a seat in the game, the rank of its leaving for a seat
        that left); a forfeited seat scores below all (D14, D25)."""
        scores = standing_scores(state)
        return [-1 if seat in state["forfeited"] else score for seat, score in enumerate(scores)]

    def hidden_items(self, state: dict, seat: int | None) -> set[str]:
        return hidden_items(state, seat)

    @staticmethod
    def max_events(players: int, options: Options) -> int:
        """D24: set-up (characters, three shuffles, start rolls: at most 40), then per turn at
        most 2 decisions, a duel of 3 fights of at most 150 events each (cards laid, supports,
        responses, re-rolls, reshuffles and events: every one uses up a card or a once-a-fight
        re-roll), 9 takings or gifts, 40 limit discards and 40 more for a resignation's
        ornicles; plus one forfeit a seat and the envelope."""
        per_turn = 2 + 3 * 150 + 9 + 40 + 40
        return 2 + players + players + 40 + options.turn_limit * per_turn

    # -- hooks of the balance benchmark (bench/balance.py) ----------------------------------
    @staticmethod
    def seat_roles(state: dict) -> list[str]:
        """What sets the seats apart: their characters' elements."""
        return list(state["characters"])

    @staticmethod
    def seat_positions(state: dict) -> list[int]:
        """Each seat's place in the order of play, 0 for the start player (B.1-B.2)."""
        n, first, step = state["players"], state["first_seat"], state["direction"]
        if first is None:
            return list(range(n))
        return [((seat - first) * step) % n for seat in range(n)]

    @staticmethod
    def ended_by_bound(state: dict) -> bool:
        """D24: the turn limit, not the rules, ended the match."""
        return bool(state["end"]) and state["end"]["by"] == "bound"

    def builtin_bots(self) -> dict[str, type]:
        from .bots import HeuristicBot
        return {"random": RandomBot, "heuristic": HeuristicBot}

    def bots(self) -> dict[str, type]:
        """Ruleset.bots, with this game's tuning of the generic search as ``search``
        (games/imperial_twing/search.py: a short playout and a fitted evaluation at its cut)."""
        from .search import ImperialSearchBot
        return {**super().bots(), "search": ImperialSearchBot}

    def edition(self, version: int):
        """Version 1 (before ``revealed`` and the forfeiting supporter's card, D14) and version 2
        (before T.3 between a duel's fights, the Doll's earthquake, the endgame's Cup and Socks
        and the bound's objects first) for the matches stored under them."""
        if version in (1, 2):
            from .editions import IMPERIAL_TWING_V1, IMPERIAL_TWING_V2
            return {1: IMPERIAL_TWING_V1, 2: IMPERIAL_TWING_V2}[version]
        return super().edition(version)


register(ImperialTwing())
