"""Imperial Twing: what each seat may know (docs/rules/imperial-twing.md, "The view").

Everything on the table is public: characters, retinues, objects (active and set aside),
ornicles, the face-up objects, the discard piles, every card laid in a fight, every die and
every event, and the bookkeeping of the turn that everyone follows (the draws and events still
due, who has passed in a window, the takings still to come). Hidden are the hands (each seat
sees its own, and everyone sees the cards a called-off fight gave back, D14) and the order of
the three decks. At the end every hand is shown.
"""
from __future__ import annotations

from .fight import fighters, held_die
from .table import in_play


def public_view(state: dict) -> dict:
    """The public view (``seat=None``): the table as every player sees it."""
    over = state["end"] is not None
    actor = state["actor"]  # None at a chance event and at the end
    view = {
        "phase": state["phase"], "to_act": [] if actor is None else [actor],
        "players": state["players"], "options": dict(state["options"]),
        "turn": state["turn"], "seat_to_play": state["seat"], "first_seat": state["first_seat"],
        "direction": "clockwise" if state["direction"] == 1 else "counterclockwise",
        "characters": list(state["characters"]),
        "start_rolls": [[list(r) for r in rolls] for rolls in state["start_rolls"]],
        "in_play": in_play(state),
        "left": [{"seat": s, "how": how, "turn": turn} for s, how, turn in state["left"]],
        "hand_sizes": [len(h) for h in state["hands"]],
        "retinues": [list(r) for r in state["retinues"]],
        "active_objects": [list(o) for o in state["active"]],
        "aside_objects": [list(o) for o in state["aside"]],
        "ornicles": list(state["ornicles"]), "supply": state["supply"],
        "in_endgame": list(state["in_endgame"]),
        "deck_size": len(state["deck"]), "discard": list(state["discard"]),
        "object_row": list(state["object_row"]), "object_deck_size": len(state["object_deck"]),
        "removed_objects": list(state["removed_objects"]),
        "event_deck_size": len(state["event_deck"]), "events_drawn": list(state["event_discard"]),
        "fight": fight_view(state["fight"]),
        "duel": dict(state["duel"]) if state["duel"] else None,
        "taking_from": state["takes"][0]["from"] if state["takes"] else None,
        "giving": state["give"]["seat"] if state["give"] else None,
        "last_fight": state["last_fight"],
        "result": dict(state["end"], scores=list(state["end"]["scores"])) if over else None,
        "start_tied": list(state["start_tied"]), "arranged": state["arranged"],
        "turn_over": state["turn_over"], "pending_draws": [dict(t) for t in state["draws"]],
        "pending_events": list(state["event_queue"]), "takes": [dict(t) for t in state["takes"]],
        "reshuffles": state["reshuffles"], "event_reshuffles": state["event_reshuffles"],
        "revealed": revealed(state),
    }
    if over:
        view["hands"] = [list(h) for h in state["hands"]]
    return view


def fight_view(fight: dict | None) -> dict | None:
    """A fight in progress: everything laid is face up (F.2)."""
    if fight is None:
        return None
    sides = []
    for seat in fighters(fight):
        side = fight["sides"][seat]
        sides.append({"seat": seat, "mode": side["mode"], "colour": side["colour"],
                      "spells": list(side["spells"]), "units": [dict(u) for u in side["units"]],
                      "done": side["done"], "die": side["die"], "rerolled": side["rerolled"],
                      "bonus": side["bonus"], **held_die(side)})
    return {"kind": fight["kind"], "number": fight["number"], "attacker": fight["attacker"],
            "defenders": list(fight["defenders"]), "step": fight["step"], "sides": sides,
            "rolling": list(fight["rolling"]),
            "supporters": [dict(s) for s in fight["supporters"]], "stakes": fight["stakes"],
            "events": [list(e) for e in fight["events"]], "quake": fight["quake"],
            "window": dict(fight["window"]) if fight["window"] else None,
            "support_queue": list(fight["support_queue"])}


def revealed(state: dict) -> list[list[str]]:
    """D14: per seat the cards in its hand that everyone saw go back there (a called-off fight
    returns the spells laid in it); the state keeps them only while there are any."""
    shown = state.get("revealed")
    return [list(cards) for cards in shown] if shown else [[] for _ in range(state["players"])]


def seat_view(state: dict, seat: int) -> dict:
    """The public view plus the seat's own hand."""
    view = public_view(state)
    view.update(seat=seat, hand=list(state["hands"][seat]))
    return view


def _public_mentions(state: dict) -> set[str]:
    """Cards the last fight showed: after a reshuffle they may be back in a hand or the deck,
    and their ids stay on public record."""
    last = state["last_fight"]
    if not last:
        return set()
    cards = {s["card"] for s in last["supporters"]}
    for side in last["sides"].values():
        cards |= set(side["spells"])
        cards |= {c for u in side["units"] for c in (u["card"], u["rider"]) if c}
    return cards


def hidden_items(state: dict, seat: int | None) -> set[str]:
    """Card ids ``seat`` holds privately (its hand, less what everyone saw go there: the last
    fight's cards, ``revealed``); for None, the cards nobody has seen (the
    decks before they were first reshuffled, the object deck). All public at the end."""
    if state["end"] is not None:
        return set()
    public = _public_mentions(state) | {c for cards in revealed(state) for c in cards}
    if seat is not None:
        return set(state["hands"][seat]) - public
    unseen = set(state["object_deck"])
    if not state["reshuffles"]:
        unseen |= set(state["deck"]) - public
    if not state["event_reshuffles"]:
        unseen |= set(state["event_deck"])
    return unseen
