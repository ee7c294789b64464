"""Sorcado, after the rulebook shared/rulebooks/sorcado.de.md.

Clauses are cited as V.n (Vorbereitung), S.n (Das Spiel), A.n (looking), B.n (the ban card),
W.n (Wertung), M.n (monster cards), E.n (the end) and decisions where the text is silent as
D1..D25; all are listed, with the German text, in docs/rules/sorcado.md. Sixteen face-down
monsters and spells lie in a 4x4 realm; each turn a mage looks at two of them, may swap them,
lays one face-down mage card beside a row or column and may ban a card. When every mage card
lies, each monster goes to the player with the most power in its row and column.

A state is a plain JSON dict; ``apply`` copies the lists it may change (``clone``). What each
seat has seen is part of the state (``known``), folded from the events like everything else.
Matches stored under version 1 fold by the edition in editions.py.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from games.engine.bots import RandomBot
from games.engine.dict_ruleset import DictRuleset
from games.engine.protocol import Event, GameSpec, IllegalAction, option
from games.engine.registry import register

from .content import (CARD, CONTENT, CORNERS_BY_PLAYERS, DISPEL, DIVINATION, FACTIONS, GRID, HAND_SIZE,
                      MAGE_FACTION, MAGE_POWER, REALM_CARDS, SIDE, SLOTS, SPELLS,
                      TRANSPOSITION, open_slots, realm_scores)

SPEC = GameSpec(name="sorcado", title="Sorcado", version=2, min_players=2, max_players=4,
                chance=True, hidden_information=True, simultaneous=False,
                rulebook="sorcado.de.md")
DEAL = {"kind": "shuffle", "n": len(REALM_CARDS)}   # V.1-V.2, D2
MAGE_SHUFFLE = {"kind": "shuffle", "n": HAND_SIZE}  # V.5, D6
TURN_PHASES = ("look", "divine", "transpose", "swap", "place", "ban")
PHASE_ACTIONS = {"faction": ("faction",), "look": ("look",), "divine": ("divine",),
                 "transpose": ("transpose", "keep"), "swap": ("swap", "keep"),
                 "place": ("place",), "ban": ("ban", "pass")}
ACTION_KEYS = {"faction": {"type", "faction"}, "look": {"type", "pos"}, "divine": {"type", "pos"},
               "transpose": {"type", "a", "b"}, "keep": {"type"}, "swap": {"type"},
               "place": {"type", "card", "slot"}, "ban": {"type", "pos"}, "pass": {"type"}}


@dataclass(frozen=True)
class Options:
    """The variants; every default is the rulebook's value or a documented decision."""

    placement: str = option("corners", "V.4: corners (V.4a: a corner each, one card per slot of "
                            "its two sides) or border (V.4b: any border slot, two cards a slot)",
                            choices=("corners", "border"))
    factions: str = option("choose", "V.3, D1: seats choose their faction in seat order, or "
                           "by-seat gives seat s the s-th faction", choices=("choose", "by-seat"))
    tie: str = option("play-again", "E.2, D18: a tie for first plays a new game (play-again, at "
                      "most `replays` times, then the tie stands), or shared ends the match as a "
                      "shared victory at once", choices=("play-again", "shared"))
    replays: int = option(3, "E.2, D18: most extra games under tie=play-again", min=1, max=10)
    freed_look: str = option("s1-only", "A.1, A.2, D25: a look A.2 frees leaves only S.1's count "
                             "of two and still counts as the one previous player's card A.1 "
                             "allows (s1-only), or leaves A.1's limit too (s1-and-a1)",
                             choices=("s1-only", "s1-and-a1"))


# -- reading a state ----------------------------------------------------------------------------

def in_play(state: dict) -> list[int]:
    """D19: the seats that have not forfeited."""
    return [s for s in range(state["players"]) if s not in state["forfeited"]]


def allowed_slots(state: dict, seat: int) -> list[str]:
    """V.4a, V.4b: the slots open to the seat's next mage card."""
    return open_slots(state["options"]["placement"], state["players"], seat, state["placed"])


def lookable(state: dict) -> list[int]:
    """S.1, A.1, B.3, D8, D9, D25: unbanned cards not yet counted this turn; once the seat has
    looked at one of the previous player's cards (a look A.2 freed included, D25), none of the
    others."""
    return [p for p in range(GRID) if state["bans"][p] is None and p not in state["looked"]
            and not previous_players_limit(state, p)]


def previous_players_limit(state: dict, pos: int) -> bool:
    """A.1, D25: is ``pos`` another of the previous player's cards than the one the seat has
    looked at already (``lookable`` leaves it out; ``check`` asks it of a single look)?"""
    if pos not in state["prev_seen"]:
        return False
    taken = state["looked"] + (state["freed"] if state["options"]["freed_look"] == "s1-only" else [])
    used = [p for p in taken if p in state["prev_seen"]]
    return bool(used) and pos not in used


def movable(state: dict) -> list[int]:
    """B.3: face-down cards without a ban token (the pending spell lies face up)."""
    return [p for p in range(GRID) if state["bans"][p] is None and p != state["pending"]]


# -- legality -----------------------------------------------------------------------------------

def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _position(value, name: str = "pos") -> str | None:
    if type(value) is not int or not 0 <= value < GRID:
        return f"{name} must be an integer position 0..{GRID - 1}, got {_short(value)}"
    return None


def _rule_refusal(state: dict, seat: int, action: dict) -> str | None:
    """Why an action of the right shape breaks a rule now (None: it is legal)."""
    kind = action["type"]
    if kind == "faction":
        if action["faction"] not in FACTIONS:
            return f"faction must be one of {list(FACTIONS)}, got {_short(action['faction'])}"
        if action["faction"] in state["factions"]:
            return f"{action['faction']} is taken (V.3: one set each)"
        return None
    if kind in ("look", "divine", "ban"):
        pos, bad = action["pos"], _position(action["pos"])
        if bad:
            return bad
        if kind == "divine":
            return "that is the Divination card itself (D10)" if pos == state["pending"] else None
        if state["bans"][pos] is not None:
            return f"the card at {pos} carries a ban token (B.2, B.3)"
        if kind == "look" and pos in state["looked"]:
            return f"you looked at {pos} this turn already (S.1, D8)"
        if kind == "look" and previous_players_limit(state, pos):
            return (f"you looked at one of the previous player's cards {state['prev_seen']} "
                    "already (A.1)")
        return None
    if kind == "transpose":
        a, b = action["a"], action["b"]
        bad = _position(a, "a") or _position(b, "b")
        if bad:
            return bad
        if not a < b:
            return f"name the two positions in rising order, a < b (got {a}, {b})"
        bans = state["bans"]  # movable(state) holds a and b, asked of the two alone
        if bans[a] is not None or bans[b] is not None or state["pending"] in (a, b):
            return "a banned card (or the spell) cannot be moved (B.3)"
    if kind == "place":
        if action["card"] not in state["hands"][seat]:
            return f"{_short(action['card'])} is not a mage card in your hand"
        if action["slot"] not in allowed_slots(state, seat):
            return (f"slot {_short(action['slot'])} is not open to you (V.4); "
                    f"open: {allowed_slots(state, seat)}")
    return None


def refusal(state: dict, seat, action) -> str | None:
    """Why ``action`` is not legal for ``seat`` now (None: it is); never raises on any JSON."""
    phase = state["phase"]
    if phase not in PHASE_ACTIONS or type(seat) is not int or seat != acting_seat(state):
        return f"seat {_short(seat)} does not act now"
    return _action_refusal(state, seat, action, phase)


def _action_refusal(state: dict, seat: int, action, phase: str) -> str | None:
    """``refusal`` once ``seat`` is known to act now, in ``phase``."""
    if not isinstance(action, dict) or type(action.get("type")) is not str:
        return f"an action is a JSON object with a string 'type', got {_short(action)}"
    kind = action["type"]
    if kind not in PHASE_ACTIONS[phase]:
        return f"{_short(kind)} is not possible now ({phase}); possible: {list(PHASE_ACTIONS[phase])}"
    if action.keys() != ACTION_KEYS[kind]:
        return f"a {kind} action has exactly the keys {sorted(ACTION_KEYS[kind])}"
    return _rule_refusal(state, seat, action)


def acting_seat(state: dict) -> int | None:
    """The seat whose decision it is (None at a chance node or the end)."""
    if state["phase"] == "faction":
        return next(s for s in in_play(state) if state["factions"][s] is None)
    return state["seat"] if state["phase"] in TURN_PHASES else None


def legal_action_list(state: dict, seat: int) -> list[dict]:
    """Every action of the current decision, in a stable order."""
    phase = state["phase"]
    if seat != acting_seat(state):
        return []
    if phase == "faction":
        return [{"type": "faction", "faction": f} for f in FACTIONS if f not in state["factions"]]
    if phase == "look":
        return [{"type": "look", "pos": p} for p in lookable(state)]
    if phase == "divine":
        return [{"type": "divine", "pos": p} for p in range(GRID) if p != state["pending"]]
    if phase == "transpose":
        still = movable(state)
        return [{"type": "keep"}] + [{"type": "transpose", "a": a, "b": b}
                                     for a in still for b in still if a < b]
    if phase == "swap":
        return [{"type": "swap"}, {"type": "keep"}]
    if phase == "place":
        slots = allowed_slots(state, seat)
        return [{"type": "place", "card": c, "slot": s} for c in state["hands"][seat] for s in slots]
    return [{"type": "pass"}] + [{"type": "ban", "pos": p} for p in movable(state)]


# -- changing a state ---------------------------------------------------------------------------

_LISTS = ("grid", "deck", "discard", "bans", "ban_used", "factions", "order", "looked", "freed",
          "seen", "prev_seen", "forfeited", "history", "shuffles", "moves")
_NESTED = ("hands", "placed", "known", "draws")


def clone(state: dict) -> dict:
    """A copy whose lists ``apply`` may change; inner pairs and finished lists are shared."""
    new = dict(state)
    for key in _LISTS:
        new[key] = list(state[key])
    for key in _NESTED:
        new[key] = [list(x) for x in state[key]]
    return new


# What the common decisions change in place (``act`` and what it calls; end_turn and score only
# set keys anew): (lists, per-seat lists of which the acting seat's own changes, per-seat lists
# of which every seat's changes).
_IN_PLACE = {
    "look": (("looked", "seen"), ("known",), ()),  # S.1: the seat learns the card (not a spell)
    "swap": (("grid", "moves"), (), ("known",)),  # S.2, D7: what everyone knows follows the cards
    "keep": ((), (), ()),  # S.2 (a Transposition's keep finishes the spell: a whole clone)
    "place": ((), ("hands", "placed"), ()),  # S.3
    "ban": (("ban_used", "bans"), (), ()),  # S.4, B.1
    "pass": ((), (), ()),
}


def clone_for(state: dict, seat: int, action: dict) -> dict:
    """A copy of ``state`` that ``act(copy, seat, action)`` may change: only what the decision
    changes in place is copied (``_IN_PLACE``), the rest is shared; a look that turns up a spell,
    a spell's choice, a faction and anything else take the whole ``clone``. Most events of a
    fold are such decisions, and a whole clone cost more than the rest of their apply
    (tests/games/test_sorcado.py holds the two to the same states over random playouts)."""
    kind = action["type"]
    if (kind not in _IN_PLACE or (kind == "look" and state["grid"][action["pos"]] in SPELLS)
            or (kind == "keep" and state["phase"] == "transpose")):
        return clone(state)
    lists, own, every = _IN_PLACE[kind]
    new = dict(state)
    for key in lists:
        new[key] = list(state[key])
    for key in own:
        per_seat = new[key] = list(state[key])
        per_seat[seat] = list(per_seat[seat])
    for key in every:
        new[key] = [list(x) for x in state[key]]
    return new


def new_game(players: int, options: dict, factions: list, forfeited: list, history: list,
             content: int) -> dict:
    """V.1-V.5: a fresh realm to deal; factions and forfeits carry over into a replay (E.2).
    ``content``: the version whose cards are played (content.CONTENT, D20, D22)."""
    return {"players": players, "options": options, "content": content, "game": len(history) + 1, "phase": "deal",
            "history": history, "grid": [None] * GRID, "deck": [], "discard": [], "pending": None,
            "bans": [None] * GRID, "ban_used": [False] * players, "factions": factions,
            "hands": [[] for _ in range(players)], "placed": [[] for _ in range(players)],
            "known": [[None] * GRID for _ in range(players)], "shuffles": [None] * players,
            "draws": [[] for _ in range(players)], "order": [], "seat": None, "looked": [],
            "freed": [], "seen": [], "prev_seen": [], "forfeited": forfeited, "scores": None,
            "captures": None, "moves": []}


def chance_outcome(state: dict, outcome: list[int]) -> None:
    """V.1, V.2, D2: the deal, the first 16 of the shuffled 20 face down row by row, the rest
    the exploration deck; V.5, D6: else the next seat's own shuffle of its mage cards."""
    if state["phase"] == "draw":
        state["shuffles"][next(s for s in in_play(state) if state["shuffles"][s] is None)] = outcome
        advance_setup(state)
        return
    cards = [REALM_CARDS[i] for i in outcome]
    state["grid"], state["deck"] = cards[:GRID], cards[GRID:]
    if state["options"]["factions"] == "by-seat":
        state["factions"] = [f if s not in state["forfeited"] else None
                             for s, f in enumerate(FACTIONS[:state["players"]])]
    state["phase"] = "faction"
    advance_setup(state)


def advance_setup(state: dict) -> None:
    """V.3-V.5: factions first, then every seat's mage shuffle, then the turn order."""
    seats = in_play(state)
    if state["phase"] == "faction" and all(state["factions"][s] for s in seats):
        state["phase"] = "draw"
        for s in seats:
            state["hands"][s] = list(CONTENT[state["content"]].mage_cards[state["factions"][s]])
    if state["phase"] == "draw" and all(state["shuffles"][s] is not None for s in seats):
        decide_order(state)


def decide_order(state: dict) -> None:
    """V.5, D6: the highest drawn card plays last; ties show the next card of their shuffles."""
    tied, depth = in_play(state), 0
    while len(tied) > 1 and depth < HAND_SIZE:
        for s in tied:
            state["draws"][s].append(MAGE_POWER[state["hands"][s][state["shuffles"][s][depth]]])
        best = max(state["draws"][s][depth] for s in tied)
        tied, depth = [s for s in tied if state["draws"][s][depth] == best], depth + 1
    last = tied[0]
    n = state["players"]
    state["order"] = [(last + 1 + i) % n for i in range(n) if (last + 1 + i) % n in in_play(state)]
    state["phase"], state["seat"] = "look", state["order"][0]


def move_cards(state: dict, moves: dict[int, int], cause: str) -> None:
    """D7: cards move face down in view of all, so every seat's knowledge and the turn's looks
    follow them (old position -> new position), and the movement is on public record."""
    state["moves"].append({"seat": state["seat"], "cause": cause,
                           "moves": [[old, new] for old, new in sorted(moves.items())]})
    items = list(moves.items())
    if len(items) == 2 and items[0] == items[1][::-1]:  # two cards change places (S.2, D11)
        a, b = items[0]
        for cards in (state["grid"], *state["known"]):
            cards[a], cards[b] = cards[b], cards[a]
    else:
        olds, news = list(moves), list(moves.values())
        for cards in (state["grid"], *state["known"]):  # only the positions that move are read
            for new, card in zip(news, [cards[old] for old in olds]):
                cards[new] = card
    get = moves.get
    for key in ("looked", "freed", "seen", "prev_seen"):
        if state[key]:
            state[key] = [get(p, p) for p in state[key]]


def look(state: dict, seat: int, pos: int) -> None:
    """S.1, A.1: a look teaches the seat the card; a spell is revealed instead and not counted."""
    if state["grid"][pos] in SPELLS:
        reveal_spell(state, pos)
        return
    state["known"][seat][pos] = state["grid"][pos]
    state["looked"].append(pos)
    state["seen"].append(pos)
    if len(state["looked"]) == 2:
        state["phase"] = "swap"


def reveal_spell(state: dict, pos: int) -> None:
    """S.1, D10-D12: the spell lies face up and acts; forced spells finish at once."""
    spell, state["pending"] = state["grid"][pos], pos
    if spell == DIVINATION:
        state["phase"] = "divine"
    elif spell == TRANSPOSITION:
        state["phase"] = "transpose"
    elif spell == DISPEL:
        state["bans"] = [None] * GRID
        finish_spell(state)
    else:
        whirl(state, pos)
        finish_spell(state)


def whirl(state: dict, pos: int) -> None:
    """D11, A.2: Whirlwind turns the other unbanned cards of its row one place right; if that
    moves the turn's first counted card, the look no longer counts (it is ``freed``, D25)."""
    row = pos // SIDE
    ring = [p for p in range(row * SIDE, row * SIDE + SIDE) if p in movable(state)]
    if len(ring) < 2:
        return
    first = state["looked"][0] if state["looked"] else None
    move_cards(state, {p: ring[(i + 1) % len(ring)] for i, p in enumerate(ring)}, "whirlwind")
    if first in ring:
        state["freed"].append(state["looked"].pop(0))


def finish_spell(state: dict) -> None:
    """S.1, D3: the spell is discarded and the exploration deck refills its place face down."""
    pos = state["pending"]
    state["discard"].append(state["grid"][pos])
    state["grid"][pos] = state["deck"].pop(0)
    for known in state["known"]:
        known[pos] = None
    state["pending"], state["phase"] = None, "look"


def divine(state: dict, seat: int, pos: int) -> None:
    """B.3, D10: Divination shows one card, a banned one too; the look is no counted look. A
    spell it shows acts, unless it lies under a ban token: B.3 lets Divination look at that card
    but not move it, and acting and being discarded would move it, so it is only seen."""
    finish_spell(state)
    if state["grid"][pos] in SPELLS and state["bans"][pos] is None:
        reveal_spell(state, pos)
        return
    state["known"][seat][pos] = state["grid"][pos]
    state["seen"].append(pos)


def act(state: dict, seat: int, action: dict) -> None:
    """The seat's (checked) decision: V.3 faction, S.1 look, D11 a spell's choice, S.2 swap or
    keep, S.3 place, S.4 ban or pass."""
    kind = action["type"]
    if kind == "faction":  # V.3, D1: the faction's eight mage cards and its ban card
        state["factions"][seat] = action["faction"]
        advance_setup(state)
    elif kind == "look":
        look(state, seat, action["pos"])
    elif kind == "divine":
        divine(state, seat, action["pos"])
    elif kind == "transpose":  # D11: two unbanned cards change places unseen
        move_cards(state, {action["a"]: action["b"], action["b"]: action["a"]}, "transposition")
        finish_spell(state)
    elif kind == "keep" and state["phase"] == "transpose":
        finish_spell(state)
    elif kind in ("swap", "keep"):  # S.2: the two looked-at cards change places face down, or not
        if kind == "swap":
            move_cards(state, {state["looked"][0]: state["looked"][1],
                               state["looked"][1]: state["looked"][0]}, "swap")
        state["phase"] = "place"
    elif kind == "place":  # S.3: one mage card face down beside a row or column
        state["hands"][seat].remove(action["card"])
        state["placed"][seat].append([action["slot"], action["card"]])
        state["phase"] = "ban"
        if state["ban_used"][seat]:  # B.1: a spent ban card offers nothing
            end_turn(state)
    else:  # S.4, B.1, B.2, D13: the ban card is spent, its token lies on the card; or pass
        if kind == "ban":
            state["ban_used"][seat], state["bans"][action["pos"]] = True, seat
        end_turn(state)


def end_turn(state: dict) -> None:
    """S.5, D14: the next seat in the order that still holds mage cards; none left: scoring."""
    state["prev_seen"], state["looked"], state["freed"], state["seen"] = state["seen"], [], [], []
    order, at = state["order"], state["order"].index(state["seat"])
    for step in range(1, len(order) + 1):
        seat = order[(at + step) % len(order)]
        if seat not in state["forfeited"] and state["hands"][seat]:
            state["phase"], state["seat"] = "look", seat
            return
    score(state)


def forfeit(state: dict, seat: int) -> None:
    """D19: the seat leaves: its unplaced cards are discarded, its turn (if any) ends; placed
    cards and a ban token stay. With fewer than two seats left the realm is scored."""
    if seat in state["forfeited"] or state["phase"] == "over":
        return
    state["forfeited"] = sorted(state["forfeited"] + [seat])
    state["hands"][seat] = []
    alone = len(in_play(state)) < 2
    if state["pending"] is not None and (alone or state["seat"] == seat):
        finish_spell(state)  # the spell acts no more: discarded and replaced (D3)
    if alone:
        score(state, replay=False)
    elif state["phase"] in ("faction", "draw"):
        advance_setup(state)
    elif state["phase"] in TURN_PHASES and state["seat"] == seat:
        end_turn(state)


def score(state: dict, replay: bool = True) -> None:
    """W.1-W.3, E.1, E.2: turn everything up and score; a tie for first plays again (D18),
    keeping the tied game's reveal in ``history``."""
    if state["grid"][0] is None:  # everyone left before the deal: nothing to score
        captures, scores = [None] * GRID, [0] * state["players"]
    else:
        captures, scores = realm_scores(state["grid"], state["placed"], state["factions"],
                                        state["bans"], CONTENT[state["content"]].card)
    state["captures"], state["scores"], state["phase"], state["seat"] = captures, scores, "over", None
    options = state["options"]
    if (replay and tied_for_first(state) and options["tie"] == "play-again"
            and len(state["history"]) < options["replays"]):
        state.update(new_game(state["players"], options, state["factions"], state["forfeited"],
                              state["history"] + [final_reveal(state)], state["content"]))


def tied_for_first(state: dict) -> bool:
    """E.2: two or more seats in play share the best score of the game just scored."""
    seats, scores = in_play(state), state["scores"]
    best = max((scores[s] for s in seats), default=0)
    return sum(1 for s in seats if scores[s] == best) > 1


def final_reveal(state: dict) -> dict:
    """W.1, E.2, D18: what the end of a game turned up for everyone: each position's card, its
    captor and ban token, each seat's placed cards and the scores. Cards are written by their
    printed names and powers, not their ids: an id stands for a card of the game in play, whose
    hidden place no view may name (D24), and a new deal owes nothing to the old one."""
    return {"game": state["game"], "scores": list(state["scores"]),
            "realm": [CARD[card].name if card else None for card in state["grid"]],
            "captures": list(state["captures"]), "bans": list(state["bans"]),
            "placed": [[[slot, MAGE_POWER[card]] for slot, card in cards]
                       for cards in state["placed"]]}


# -- what a seat may know -----------------------------------------------------------------------

def public_view(state: dict) -> dict:
    """D7: what lies face up, who placed where (not what), which positions were looked at."""
    over = state["phase"] == "over"
    slots = slots_placed(state)
    view = {"game": state["game"], "phase": state["phase"], "to_act": acting_seat(state),
            "players": state["players"], "options": dict(state["options"]),
            "corners": (list(CORNERS_BY_PLAYERS[state["players"]])
                        if state["options"]["placement"] == "corners" else None),
            "factions": list(state["factions"]), "order": list(state["order"]),
            "draws": [list(d) for d in state["draws"]], "forfeited": list(state["forfeited"]),
            "face_up": [c if over or p == state["pending"] else None
                        for p, c in enumerate(state["grid"])],
            "pending": state["pending"], "bans": list(state["bans"]),
            "ban_used": list(state["ban_used"]), "slots": slots,
            "moves": [dict(m, moves=[list(pair) for pair in m["moves"]]) for m in state["moves"]],
            "hand_sizes": [len(h) for h in state["hands"]], "looked": list(state["looked"]),
            "seen": list(state["seen"]), "prev_seen": list(state["prev_seen"]),
            "deck_size": len(state["deck"]), "discard": list(state["discard"]),
            "history": copy.deepcopy(state["history"])}
    if over:
        view.update(placed=[[list(p) for p in cards] for cards in state["placed"]],
                    captures=list(state["captures"]), scores=list(state["scores"]))
    return view


def slots_placed(state: dict) -> dict:
    """Per slot, the seats that placed a card there (a seat once per card, seats in order): one
    pass over the placed cards, not one per slot."""
    slots = {slot: [] for slot in SLOTS}
    for seat, cards in enumerate(state["placed"]):
        for at, _ in cards:
            if at in slots:
                slots[at].append(seat)
    return slots


def seat_view(state: dict, seat: int) -> dict:
    """D7: the public view plus the seat's hand, its face-down cards and the cards it knows."""
    view = public_view(state)
    view.update(seat=seat, hand=list(state["hands"][seat]),
                my_placed=[list(p) for p in state["placed"][seat]], known=list(state["known"][seat]))
    return view


def known_by(state: dict) -> list[list[int]]:
    """D7: per position the seats that know the card lying there. Public: who looked where and
    every movement are seen by all, only the cards are not; a seat remembers it (issue 15.1)."""
    known = state["known"]
    return [[s for s, cards in enumerate(known) if cards[pos] is not None] for pos in range(GRID)]


def card_facts(state: dict, view: dict) -> dict:
    """M.1-M.4, D16, D20-D22: what each card the view names is, so that a bot needs no copy of
    the tables: a mage card's faction and power; a realm card's printed name, strength, margin,
    faction modifiers and special condition (a spell: as D16 scores it). Only ids the view
    shows already (hand, own cards, known and face-up cards, the discard, the end's reveal) are
    described: the facts of a card nobody showed this viewer stay hidden with its id."""
    ids = {c for c in view["face_up"] + view["discard"] if c}
    ids |= {card for cards in view.get("placed", ()) for _, card in cards}
    ids |= set(view.get("hand", ())) | {card for _, card in view.get("my_placed", ())}
    ids |= {c for c in view.get("known", ()) if c}
    realm = CONTENT[state["content"]].card
    facts = {}
    for card in sorted(ids):
        if card in MAGE_FACTION:
            facts[card] = {"kind": "mage", "faction": MAGE_FACTION[card], "power": MAGE_POWER[card]}
        else:
            monster = realm[card]
            facts[card] = {"kind": "spell" if card in SPELLS else "monster", "name": monster.name,
                           "strength": monster.strength, "margin": monster.margin,
                           "modifiers": dict(monster.modifiers), "special": monster.special}
    return facts


# -- the ruleset --------------------------------------------------------------------------------

class Sorcado(DictRuleset):
    """The engine contract for Sorcado (the shell: games/engine/dict_ruleset.py)."""

    spec = SPEC
    Options = Options
    check_in_apply = False  # apply trusts check_action (the service, the runner and log.Folder
    #                         all check first): not checking twice is fold speed
    refusal = staticmethod(refusal)
    decide = staticmethod(act)
    chance_outcome = staticmethod(chance_outcome)
    forfeit = staticmethod(forfeit)
    public_view = staticmethod(public_view)
    seat_view = staticmethod(seat_view)
    clone = staticmethod(clone)

    def new_state(self, players: int, options: dict) -> dict:
        """V.1-V.5: a fresh realm, played with this edition's cards."""
        return new_game(players, options, [None] * players, [], [], self.spec.version)

    def acting_seats(self, state: dict) -> tuple:
        return (acting_seat(state),)

    def chance_spec(self, state: dict) -> dict | None:
        """V.1-V.2 the deal, V.5 a seat's mage shuffle."""
        phase = state["phase"]
        return dict(DEAL) if phase == "deal" else dict(MAGE_SHUFFLE) if phase == "draw" else None

    def copy_for(self, state: dict, event: Event) -> dict:
        """An action's copy holds only what it changes in place (``clone_for``)."""
        if event.kind == "action":
            return clone_for(state, event.seat, event.payload.get("action"))
        return clone(state)

    def legal_actions(self, state: dict, seat: int) -> list:
        """Every action of the current decision, in a stable order."""
        return legal_action_list(state, seat)

    def check_action(self, state: dict, seat: int, action) -> None:
        """Ruleset.check_action without building ``next`` when the seat is the one to act (a
        validation checks every action): ``check`` alone then decides, as it would there."""
        phase = state["phase"]
        if phase in PHASE_ACTIONS and type(seat) is int and seat == acting_seat(state):
            reason = _action_refusal(state, seat, action, phase)  # refusal, the seat known
            if reason is not None:
                raise IllegalAction(reason)
            return None
        return super().check_action(state, seat, action)

    def act_in_place(self, state: dict, seat: int, payload: dict) -> dict:
        """Ruleset.act_in_place (optional), in one call: ``check_action``'s refusal for the
        seat to act, then ``act`` on the state itself (every action of a validation)."""
        action, phase = payload["action"], state["phase"]
        if phase in PHASE_ACTIONS and type(seat) is int and seat == acting_seat(state):
            reason = _action_refusal(state, seat, action, phase)
            if reason is not None:
                raise IllegalAction(reason)
            act(state, seat, action)
            return state
        self.check_action(state, seat, action)
        return self.apply_in_place(state, Event("action", seat, payload))

    def view(self, state: dict, seat: int | None) -> dict:
        view = super().view(state, seat)
        if self.spec.version >= 2:  # version 1's views (editions.py) keep the shape they had
            view.update(freed=list(state["freed"]), known_by=known_by(state),
                        laid=[[slot for slot, _ in cards] for cards in state["placed"]])
            view["cards"] = card_facts(state, view)
        return view

    def determinize(self, view: dict, seat: int, rng) -> dict:
        """The seat's view with what it cannot see drawn (games/sorcado/determinize.py)."""
        from .determinize import determinize
        return determinize(view, seat, rng, self.spec.version)

    def card_catalogue(self) -> dict[str, dict]:
        """Every realm card of this edition's content: name, strength, margin, special rule and
        faction modifiers (M.1-M.4)."""
        return {card.id: {"name": card.name, "strength": card.strength, "margin": card.margin,
                          "special": card.special, "modifiers": dict(card.modifiers)}
                for card in CONTENT[self.spec.version].card.values()}

    # -- hooks ------------------------------------------------------------------------------
    def hidden_items(self, state: dict, seat: int | None) -> set[str]:
        """Card ids ``seat`` knows privately (hand, face-down cards, cards it looked at); for
        None, the realm cards nobody has seen and the exploration deck. All public at the end."""
        if state["phase"] == "over":
            return set()
        if seat is None:
            known = {c for cards in state["known"] for c in cards if c}
            hidden = {c for p, c in enumerate(state["grid"]) if c and p != state["pending"]}
            return (hidden - known) | set(state["deck"])
        return (set(state["hands"][seat]) | {c for _, c in state["placed"][seat]}
                | {c for c in state["known"][seat] if c})

    @staticmethod
    def max_events(players: int, options: Options) -> int:
        """Per game: deal, shuffles, 2 looks a turn (+1 Whirlwind refund), 4 spell reveals, 2
        spell decisions, swap, place, ban; plus factions, forfeits and the envelope (D14)."""
        games = 1 + (options.replays if options.tie == "play-again" else 0)
        per_game = 1 + players + (2 * HAND_SIZE * players + 1) + 4 + 2 + 3 * HAND_SIZE * players
        return 2 + 2 * players + games * per_game

    def edition(self, version: int):
        """Version 1 (before D25, the reveals in ``history`` and tie="play-again" by default)
        for the matches stored under it."""
        if version == 1:
            from .editions import SORCADO_V1
            return SORCADO_V1
        return super().edition(version)

    # -- hooks of the balance benchmark (bench/balance.py) ----------------------------------
    @staticmethod
    def balance_options() -> list[dict]:
        """The variants the balance benchmark measures: both placements (V.4a, V.4b)."""
        return [{"placement": "corners"}, {"placement": "border"}]

    @staticmethod
    def seat_roles(state: dict) -> list[str | None]:
        """What sets the seats apart: their factions (V.3; None before a seat has one)."""
        return list(state["factions"])

    @staticmethod
    def seat_positions(state: dict) -> list[int]:
        """Each seat's place in the order of play of the last game dealt, 0 for the seat that
        looks first (V.5, D6); seats that left before the draw come after it, round the table;
        before the draw, the seat number."""
        n, order = state["players"], state["order"]
        if not order:
            return list(range(n))
        left = sorted((s for s in range(n) if s not in order), key=lambda s: (s - order[0]) % n)
        return [(order + left).index(seat) for seat in range(n)]

    @staticmethod
    def ended_by_bound(state: dict) -> bool:
        """D18: the cap on replays, not the rules, ended the match: the last game was tied for
        first under tie="play-again" with `replays` games replayed already."""
        options = state["options"]
        return (state["phase"] == "over" and options["tie"] == "play-again"
                and len(state["history"]) >= options["replays"] and tied_for_first(state))

    def builtin_bots(self) -> dict[str, type]:
        """The built-in bots by name."""
        from .bots import HeuristicBot
        return {"random": RandomBot, "heuristic": HeuristicBot}

    def bots(self) -> dict[str, type]:
        """Ruleset.bots, with this game's tuning of the generic search as ``search``
        (games/sorcado/search.py: an opponent model in its determinizations)."""
        from .search import SorcadoSearchBot
        return {**super().bots(), "search": SorcadoSearchBot}


register(Sorcado())
