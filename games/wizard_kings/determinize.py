"""Wizard Kings determinize (issue 15.1): a full state a seat cannot tell from the one it sees.

A seat's view carries everything it knows (docs/rules/wizard-kings.md, "Hidden information and
determinize"): the board, every block's position, its own blocks and draft in full, the kinds of
the blocks battles revealed, and the public facts of the turn (ports, crossings, the battle's
pending roll). What it does not see is drawn with ``rng``:

- the kind of each of another seat's unrevealed blocks, from what that seat's army may still
  have on the board (2.0: its copies less those seen and its wizards lost for good, 2.24), each
  kind where it may stand (2.38: ships on water; 2.4: a castle in a city, never moved; a block
  carrying an artefact is no treasure, 2.7); the scenarios' castles stand where the rulebook
  put them (7.1, 7.4);
- the steps of every block of another seat not fighting in the battle under way (D15), and its
  unrevealed artefacts (2.7, D38);
- the drafts of the other seats while everyone builds in secret (6.0, 1.22, 7.2, 7.3): a seat
  still building has done nothing yet, one that is done played random legal build actions.
"""
from __future__ import annotations

import pickle

from . import build, scenarios
from .content import artefact_of, extras, kind_of
from .movement import can_stand
from .state import board, can_carry, live_seats, pool


def determinize(view: dict, seat: int, rng) -> dict:
    """A state whose view for ``seat`` is ``view``, the hidden facts drawn with ``rng``."""
    state = _public_state(view)
    unknown = _blocks(state, view)
    _draw_kinds(state, view, unknown, rng)
    _draw_steps_and_artefacts(state, view, rng)
    for bid in sorted(state["blocks"]):
        state["at"].setdefault(state["blocks"][bid]["hex"], []).append(bid)
    _fights(state, view)
    _battle(state, view)
    _drafts(state, view, seat, rng)
    return state


# -- what everyone sees ---------------------------------------------------------------------------

PUBLIC = ("players", "options", "phase", "turn", "armies", "next_id", "cities", "queue", "dead",
          "order", "mover", "initiative", "rerolls", "forfeited", "points", "log", "ports",
          "port_use", "lying", "scores", "end_reason", "scenario")


def _clone(value):
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def _public_state(view: dict) -> dict:
    """The state's public parts, copied from the view (blocks, fights, battle and drafts
    follow)."""
    seen = _clone({key: view[key] for key in PUBLIC})    # never share the view's lists
    seen["maps"] = list(view["board"]["maps"]) if view["board"] else []
    phase, order = seen["phase"], seen["order"]
    live = [s for s in range(seen["players"]) if s not in seen["forfeited"]]
    state = {
        "players": seen["players"], "options": seen["options"], "phase": phase,
        "turn": seen["turn"], "armies": seen["armies"],
        "maps": seen["maps"], "blocks": {}, "at": {},
        "next_id": seen["next_id"],
        "city_owner": {h: c["owner"] for h, c in seen["cities"].items()},
        "gold": {h: c["gold"] for h, c in seen["cities"].items()},
        "fights": {}, "battle": None, "queue": seen["queue"], "dead": seen["dead"],
        "order": order, "mover": order.index(seen["mover"]) if seen["mover"] is not None else 0,
        "initiative": {"rolls": seen["initiative"], "tied": _tied(seen["initiative"], live),
                       "rerolls": seen["rerolls"]},
        "drafts": {}, "new_blocks": [], "forfeited": seen["forfeited"],
        "points": seen["points"], "log": seen["log"], "ports": seen["ports"],
        "port_use": seen["port_use"], "lying": seen["lying"], "scores": seen["scores"],
        "end_reason": seen["end_reason"], "scenario": _scenario_run(seen["scenario"])}
    if phase == "ids":                                  # what the shuffle is naming (rules)
        state["after_ids"] = "build" if seen["turn"] else (
            "place" if seen["options"]["scenario"] else "recruit")
    return state


def _tied(rolls: dict, live: list[int]) -> list[int]:
    """4.1 (D10): who rolls for the initiative: everyone, or those tied on the last roll."""
    if not rolls:
        return live
    best = max(rolls.values())
    return [int(s) for s, total in rolls.items() if total == best]


def _scenario_run(public: dict | None) -> dict | None:
    """The scenario's running record; its queue of choices follows from those made (7.3, 7.4)."""
    if public is None:
        return None
    run = {key: public[key] for key in ("key", "stage", "first", "armies", "capitals", "fallen",
                                         "heal", "winner")}
    run["queue"] = [] if public["choosing"] is None else [public["choosing"]]
    picks = scenarios.scenarios()[public["key"]].rules.get("pick_armies")
    if picks and public["choosing"] is not None:        # 7.4: armies, then capitals, in turn
        first, other = public["first"], 1 - public["first"]
        queue = ([{"seat": first, "what": "army"}, {"seat": other, "what": "army"}] * picks
                 + [{"seat": first, "what": "capital"}, {"seat": other, "what": "capital"}] * picks)
        made = sum(len(v) for v in public["armies"].values()) + len(public["capitals"])
        if queue[made:made + 1] == run["queue"]:
            run["queue"] = queue[made:]
    return run


# -- blocks ---------------------------------------------------------------------------------------

def _blocks(state: dict, view: dict) -> list[dict]:
    """Every block into the state (and, while ids are due, the new blocks); returns the blocks
    whose kind is still to draw."""
    unknown = []
    for shown in view["blocks"]:
        blk = _block(shown)
        state["blocks"][shown["id"]] = blk
        if blk["kind"] is None:
            unknown.append(blk)
    rank = {s: i for i, s in enumerate(state["order"])}
    for shown in sorted(view["new_blocks"], key=lambda b: (rank.get(b["owner"], 99), b["owner"])):
        blk = _block({**shown, "moved": False})
        blk["known"] = False                            # a new block is face down (6.0)
        state["new_blocks"].append(blk)
        if blk["kind"] is None:
            unknown.append(blk)
    return unknown


def _block(shown: dict) -> dict:
    """A block as the state keeps it; another seat's hidden kind, steps and artefact are None
    until drawn."""
    blk = {"owner": shown["owner"], "kind": shown.get("kind"), "steps": shown.get("steps"),
           "hex": shown["hex"], "known": shown.get("known", "kind" in shown),
           "moved": shown["moved"], "cast": shown.get("cast", False)}
    if shown["armed"]:
        art = shown.get("artefact")
        blk["artefact"] = ({"key": None, "steps": None, "known": False} if art is None else
                           {"key": art["key"], "steps": art.get("steps"), "known": art["known"]})
    return blk


def _castle_ok(state: dict, blk: dict, kind, homes: dict) -> bool:
    """2.4: a castle is built in a city and never moves (nor does it leave where a scenario
    put it)."""
    if not kind.castle:
        return True
    if kind.key in homes:
        return blk["hex"] == homes[kind.key]
    return blk["hex"] in state["city_owner"] and not blk["moved"]


def _fits(state: dict, blk: dict, kind, strict: int, homes: dict) -> bool:
    """May ``blk`` be of ``kind``? ``strict`` 2: by every rule; 1: by where it stands; 0: any."""
    if strict == 0:
        return True
    if not can_stand(board(state), kind, blk["hex"]):
        return False
    return strict == 1 or ((not blk.get("artefact") or can_carry(kind))
                           and _castle_ok(state, blk, kind, homes))


def _slots(state: dict, view: dict, unknown: list[dict]) -> tuple[list, set[int]]:
    """The kinds the hidden blocks may be, one entry a copy: (kind, the seats that may have
    it); and the entries some hidden block must take: each chaos block on the board (D27: it
    is out of the box for everyone to see) and the castles a scenario goes on with."""
    known = {f"k{i}": blk for i, blk in enumerate(
        [b for b in state["blocks"].values() if b["kind"] is not None]
        + [b for b in state["new_blocks"] if b["kind"] is not None])}
    seen = dict(state, blocks=known)
    shown = {b["kind"] for b in known.values()}
    slots, chaos = [], {}
    for seat in sorted({blk["owner"] for blk in unknown}):
        for kind, count in sorted(pool(seen, seat, known).items()):
            if kind.startswith("chaos/"):
                chaos.setdefault(kind, set()).add(seat)
            else:
                slots += [(kind, {seat})] * count
    required = set()
    for kind, owner in scenarios.standing_castles(state):
        j = next((j for j, (k, seats) in enumerate(slots) if k == kind and owner in seats), None)
        if j is not None:
            required.add(j)
    for kind in view["chaos"]:
        if kind not in shown and kind in chaos:
            required.add(len(slots))
            slots.append((kind, chaos[kind]))
    return slots, required


def _draw_kinds(state: dict, view: dict, unknown: list[dict], rng) -> None:
    """A kind for each hidden block: a random matching of blocks to the copies their armies
    have left, by every rule if one exists, else by where they stand, else by count only."""
    if not unknown:
        return
    slots, required = _slots(state, view, unknown)
    homes = scenarios.castle_homes(state)
    for strict in (2, 1, 0):
        match = _matching(state, unknown, slots, required, strict, homes, rng)
        if match is not None:
            for blk, j in zip(unknown, match):
                blk["kind"] = slots[j][0]
            return
    for blk in unknown:                                 # never: the pools hold every block
        blk["kind"] = rng.choice(sorted(k for k, seats in slots if blk["owner"] in seats)
                                 or [k.key for k in extras().chaos])


def _matching(state: dict, unknown: list[dict], slots: list, required: set[int], strict: int,
              homes: dict, rng) -> list[int] | None:
    """Kuhn's augmenting paths over shuffled candidates, from the entries that must be taken
    first (a matched entry stays matched), then from every block: a slot a block, or None."""
    options = _candidates(state, unknown, slots, strict, homes, rng)
    takers: dict[int, list[int]] = {j: [] for j in required}
    for i, mine in enumerate(options):
        for j in mine:
            if j in takers:
                takers[j].append(i)
    slot_of: dict[int, int] = {}
    block_of: dict[int, int] = {}

    def from_block(i: int, seen: set) -> bool:
        for j in options[i]:
            if j not in seen:
                seen.add(j)
                if j not in block_of or from_block(block_of[j], seen):
                    block_of[j], slot_of[i] = i, j
                    return True
        return False

    def from_slot(j: int, seen: set) -> bool:
        for i in takers[j]:
            if i not in seen:
                seen.add(i)
                if i not in slot_of or from_slot(slot_of[i], seen):
                    block_of[j], slot_of[i] = i, j
                    return True
        return False
    if strict and not all(from_slot(j, set()) for j in sorted(required)):
        return None
    if not all(i in slot_of or from_block(i, set()) for i in range(len(unknown))):
        return None
    return [slot_of[i] for i in range(len(unknown))]


def _candidates(state: dict, unknown: list[dict], slots: list, strict: int, homes: dict,
                rng) -> list[list[int]]:
    """For each hidden block, the slots it may take, in one random order for all (a first
    fit in it is a uniform draw); blocks that look alike share their list."""
    order = list(range(len(slots)))
    rng.shuffle(order)
    by_look: dict[tuple, list[int]] = {}
    options = []
    for blk in unknown:
        look = (blk["owner"], blk["hex"], blk["moved"], bool(blk.get("artefact")))
        if look not in by_look:
            ok = {key: _fits(state, blk, kind_of(key), strict, homes)
                  for key, seats in slots if blk["owner"] in seats}
            by_look[look] = [j for j in order if ok.get(slots[j][0])
                             and blk["owner"] in slots[j][1]]
        options.append(by_look[look])
    return options


def _draw_steps_and_artefacts(state: dict, view: dict, rng) -> None:
    """Steps for every block and artefact not shown, and a key for each unrevealed artefact of
    another seat: one of its army's not seen anywhere (with footnote 5's capture, any army's)."""
    every = list(state["blocks"].values()) + state["new_blocks"]
    draft = view.get("draft") or {"blocks": [], "dropped": []}
    seen = {blk["artefact"]["key"] for blk in every if blk.get("artefact")} - {None}
    seen |= {b["artefact"]["key"] for b in draft["blocks"] if "artefact" in b}
    seen |= {d["key"] for d in draft["dropped"]}
    seen |= {a["key"] for items in state["lying"].values() for a in items}
    for blk in every:
        if blk["steps"] is None:
            blk["steps"] = rng.randint(1, kind_of(blk["kind"]).max)
        art = blk.get("artefact")
        if art is None:
            continue
        if art["key"] is None:
            art["key"] = _unseen_artefact(state, blk["owner"], seen, rng)
            seen.add(art["key"])
        if art["steps"] is None:
            art["steps"] = rng.randint(1, artefact_of(art["key"]).max)


def _unseen_artefact(state: dict, owner: int, seen: set, rng) -> str:
    """2.7 (D32): an artefact of ``owner``'s army not seen anywhere; with footnote 5's capture,
    once its own are all seen, another army's."""
    every = extras().artefacts
    own = [a.key for a in every.get(state["armies"][owner], ()) if a.key not in seen]
    if own or not state["options"].get("capture_artefacts"):
        return rng.choice(own or [a.key for a in every.get(state["armies"][owner], ())])
    others = sorted(a.key for items in every.values() for a in items if a.key not in seen)
    return rng.choice(others or [a.key for items in every.values() for a in items])


# -- fights, the battle, the drafts ------------------------------------------------------------

def _fights(state: dict, view: dict) -> None:
    """4.6: the hexside counts of the battles to come: the blocks that came in, flyers and
    heroes apart (2.8, 2.37), by the kinds the state now has."""
    for hex_, shown in view["fights"].items():
        fight = {"attacker": shown["attacker"], "defender": shown["defender"],
                 "sides": dict(shown["sides"]),
                 "entered": {k: list(v) for k, v in shown["entered"].items()},
                 "crossings": {}, "crossed": {k: list(v) for k, v in shown["crossed"].items()}}
        for hs, bids in shown["crossed"].items():
            for bid in bids:
                blk = state["blocks"].get(bid)
                if blk is None:
                    continue                            # gone with a seat that left (D11)
                kind = kind_of(blk["kind"])
                if kind.flyer or "hero" in kind.traits:
                    continue
                crossings = fight["crossings"].setdefault(fight["sides"][str(blk["owner"])], {})
                crossings[hs] = crossings.get(hs, 0) + 1
        state["fights"][hex_] = fight


def _battle(state: dict, view: dict) -> None:
    """The battle under way: public from start to end (5.1), all of it in the view."""
    shown = view["battle"]
    if shown is None:
        return
    battle = {key: shown[key] for key in ("hex", "round", "attacker", "defender", "turns",
                                          "step", "forced", "pursuit", "winner", "regrouped",
                                          "holder", "current", "late", "arming", "retreats",
                                          "roll", "cast")}
    battle["sides"] = dict(shown["sides"])
    battle["entered"] = {k: list(v) for k, v in shown["entered"].items()}
    battle["asked"] = shown["switching"] + shown["dispellers"]
    hits = shown["hits"]
    if hits is not None:
        battle["hits"] = {key: hits[key] for key in ("left", "by", "spell", "target", "seat")}
        if hits["among"]:
            battle["hits"]["among"] = list(hits["among"])
        if hits["chooser"] is not None:
            battle["hits"]["chooser"] = hits["chooser"]
    else:
        battle["hits"] = None
    state["battle"] = _clone(battle)


def _drafts(state: dict, view: dict, seat: int, rng) -> None:
    """6.0, 1.22, 7.2, 7.3: the seat's own draft from its view; another seat still building has
    done nothing yet, one that is done has played random legal actions to its end."""
    phase = state["phase"]
    if phase not in ("recruit", "build", "place"):
        return
    waiting = set(view["building"])
    for other in live_seats(state):
        if other == seat and view["draft"] is not None:
            state["drafts"][str(seat)] = _own_draft(state, view["draft"], seat)
        elif phase == "place":
            placement = scenarios.fresh_placement(state, other)
            if placement is not None:
                state["drafts"][str(other)] = placement
        else:
            state["drafts"][str(other)] = build.fresh_draft(state, other, setup=phase == "recruit")
    for other in live_seats(state):
        if other != seat and other not in waiting and str(other) in state["drafts"]:
            _finish(state, other, rng)


def _own_draft(state: dict, shown: dict, seat: int) -> dict:
    """The seat's draft as its view shows it (moved and cast from its blocks on the board)."""
    blocks = {}
    for b in shown["blocks"]:
        standing = state["blocks"].get(b["id"], {})
        blk = {"owner": seat, "kind": b["kind"], "steps": b["steps"], "hex": b["hex"],
               "known": "tag" not in b, "moved": standing.get("moved", False),
               "cast": standing.get("cast", False)}
        if "artefact" in b:
            art = b["artefact"]
            blk["artefact"] = {"key": art["key"], "steps": art["steps"], "known": art["known"]}
        blocks[b["id"]] = blk
    draft = {"blocks": blocks, "gold": dict(shown["gold"]), "new": shown["new"],
             "done": shown["done"], "setup": shown["setup"]}
    if "to_place" in shown:
        draft.update(to_place=[list(p) for p in shown["to_place"]], area=list(shown["area"]),
                     cover=shown["cover"])
    else:
        draft.update({key: list(shown[key]) for key in ("gave", "got", "spent", "bought",
                                                         "handed", "took")},
                     dropped=[dict(d) for d in shown["dropped"]])
    return draft


STOP = 0.5      # a done seat's drawn build ends after each action with this chance
MAX_ACTIONS = 40


def _finish(state: dict, seat: int, rng) -> None:
    """A random legal build (or placement) of ``seat`` to its end: at setup a block on each of
    its cities first (1.22), then recruits and added steps in random cities until it stops."""
    draft = state["drafts"][str(seat)]
    if state["phase"] == "place":
        for _ in range(MAX_ACTIONS):
            actions = scenarios.options(state, seat)
            if draft["done"] or not actions:
                break
            scenarios.decide(state, seat, rng.choice(actions))
        draft["done"] = True
        return
    uncovered = build.uncovered_cities(state, seat, draft) if draft["setup"] else []
    for hex_ in rng.sample(uncovered, len(uncovered)):
        _one_of(state, seat, {"type": "recruit", "hex": hex_}, rng)
    cities = build.building_cities(state, seat, draft)
    for _ in range(MAX_ACTIONS):
        if not cities or rng.random() < STOP:
            break
        hex_ = rng.choice(cities)
        here = sorted(b for b, blk in draft["blocks"].items() if blk["hex"] == hex_)
        if here and rng.random() < 0.5:
            _one_of(state, seat, {"type": "add", "block": rng.choice(here)}, rng)
        else:
            _one_of(state, seat, {"type": "recruit", "hex": hex_}, rng)
    draft["done"] = True


def _one_of(state: dict, seat: int, like: dict, rng) -> None:
    """One of the legal build actions like ``like`` (its type, and its city or block), if any:
    listing only those is much cheaper than listing every action."""
    found = [a for a in build.options(state, seat, like)
             if all(a.get(k) == v for k, v in like.items())]
    if found:
        build.decide(state, seat, rng.choice(found))
