"""Wizard Kings building (section 6) and the army's recruitment (1.22): simultaneous and secret.

Every seat builds at once (6.0). Its choices go to a private draft of its own blocks and gold
(``state["drafts"][seat]``): only that seat's view shows it, the others see the board as it was
until every seat is done, then all drafts become real together and the new blocks get ids by a
shuffle (so an id tells nothing of its kind). Actions, one step each:

- ``recruit`` {kind, hex}: a new block of one step in a friendly city (6.2; at setup, any city of
  the seat's own map, 1.22); a killed wizard never returns (2.24); no new wizard at a henge (6.6);
- ``add`` {block}: one more step for a block in a friendly city, paid with that city's gold;
- ``combine`` {from, to}: one step moves between two blocks of one hex (6.5);
- ``disband`` {block}: the block leaves the board, its steps lost (6.5);
- ``spend`` {block}: a treasure block in a friendly city gives a step's gold (1 silver, 5
  gold) to the city's marker (2.6, D34);
- ``arm`` {artefact, block}: a new artefact of one charge on a block in a friendly city, paid
  with that city's gold (2.7, D32); ``charge`` {block}: one more charge for the artefact the
  block carries, in a friendly city;
- ``hand`` {from, to}: an artefact changes carrier within a hex; ``drop`` {block}: it is left
  lying in the hex; ``take`` {block, artefact}: a block takes an artefact lying in its hex (2.7,
  footnote 5, D35);
- ``done``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from .board import Board
from .content import armies, artefact_of, kind_of
from .movement import is_port
from .state import artefact_pool, board, can_carry, controller, lie, pool, remove

SETUP_GOLD = "purse"   # the key of the recruitment budget in a draft's gold


def open_drafts(state: dict, *, setup: bool) -> None:
    """Start a build (or the recruitment): one private draft per seat still in the match."""
    state["drafts"] = {}
    for seat in range(state["players"]):
        if seat not in state["forfeited"]:
            state["drafts"][str(seat)] = fresh_draft(state, seat, setup=setup)


def fresh_draft(state: dict, seat: int, *, setup: bool) -> dict:
    """``seat``'s draft as a build opens: its blocks as they stand, the gold of its friendly
    cities (6.1), or at setup its purse (1.22)."""
    mine = {bid: copy_block(blk) for bid, blk in state["blocks"].items()
            if blk["owner"] == seat}
    if setup:
        gold = {SETUP_GOLD: state["options"]["army_gold"]}
    else:
        gold = {h: state["gold"].get(h, 0) for h in board(state).cities
                if controller(state, h) == seat}
    return {"blocks": mine, "gold": gold, "new": 0, "done": False, "setup": setup, "gave": [],
            "got": [], "spent": [], "bought": [], "handed": [], "dropped": [], "took": []}


def copy_block(blk: dict) -> dict:
    """A copy of a block the draft (or a copy of the state) may change: its fields are plain
    values but its artefact, a dict of plain values (``copy.deepcopy`` of the same, at a
    seventh of its cost: every build of a search's playouts opens a draft per seat)."""
    copied = blk.copy()
    art = copied.get("artefact")
    if art is not None:
        copied["artefact"] = art.copy()
    return copied


def building_cities(state: dict, seat: int, draft: dict) -> list[str]:
    """Where ``seat`` may build: its friendly cities (6.2), at setup its own map's cities."""
    if draft["setup"]:
        return sorted(h for h, owner in state["city_owner"].items() if owner == seat)
    return sorted(h for h in draft["gold"])


def _cost_ok(draft: dict, hex_: str, cost: int) -> bool:
    if draft["setup"]:
        return draft["gold"][SETUP_GOLD] >= cost
    return draft["gold"].get(hex_, 0) >= cost


def uncovered_cities(state: dict, seat: int, draft: dict) -> list[str]:
    """1.22: the seat's cities with no block yet (every one needs one at setup)."""
    occupied = {blk["hex"] for blk in draft["blocks"].values()}
    return [h for h in building_cities(state, seat, draft) if h not in occupied]


def _covers(kind: str) -> bool:
    """Ships and havens stand only in ports (2.38, 2.39): they never count as covering a city."""
    return not kind_of(kind).traits & {"water", "haven"}


@lru_cache(maxsize=256)
def _cover_costs(spare: tuple) -> tuple[int, ...]:
    """The costs of the spare blocks that can cover a city, cheapest first (asked for every
    kind and city of a recruitment: worth remembering)."""
    return tuple(sorted(kind_of(k).cost for k, n in spare for _ in range(n) if _covers(k)))


_SHIPS = frozenset({"water", "haven"})


def _setup_check(spare: dict, uncovered: list,
                 gold: dict) -> Callable[[int, str | None, str | None], bool]:
    """1.22 for one listing: ``affordable(cost, covers, kind)`` says whether, after paying
    ``cost`` (for a block of ``kind`` on hex ``covers``, or None for an added step or an
    artefact), the purse still puts a block on every empty city. The spare blocks' cover costs
    are worked out once and each answer remembered by what it depends on (the cost, whether the
    hex is one still to cover, and the kind bought)."""
    costs = _cover_costs(tuple(sorted(spare.items())))
    still = set(uncovered)
    purse = gold[SETUP_GOLD]
    answers: dict[tuple, bool] = {}

    def affordable(cost: int, covers: str | None, kind: str | None) -> bool:
        key = (cost, covers in still, kind)
        answer = answers.get(key)
        if answer is None:
            left = list(costs)
            if kind is not None and spare.get(kind) and _covers(kind):
                left.remove(kind_of(kind).cost)         # the block being bought
            need = len(still) - (covers in still)
            answer = answers[key] = len(left) >= need and sum(left[:need]) <= purse - cost
        return answer
    return affordable


def options(state: dict, seat: int, only: dict | None = None) -> list[dict]:
    """Every build action of ``seat`` now, in a stable order (with ``only``: just those that
    could equal that action, which is all a check needs). What every city and kind asks alike
    (the blocks in each hex, the spare kinds, what the purse must still cover) is worked out
    once: a search lists the builds of every decision of its playouts."""
    draft = state["drafts"][str(seat)]
    setup = draft["setup"]
    wanted = only.get("type") if isinstance(only, dict) else None
    if not setup and wanted in ("combine", "disband", "spend", "done"):
        # what the whole walk below finds for these (no city, kind or purse asked)
        result = _regroupings(draft, only.get("block" if wanted == "disband" else "from")) \
            if wanted in ("combine", "disband") else []
        if wanted == "spend":
            result += _spends(draft)
        result.append({"type": "done"})
        return result
    b: Board = board(state)
    result = []
    # the kinds left: for a recruit, and at setup for 1.22's check (_setup_check)
    spare = pool(state, seat, draft["blocks"]) if setup or wanted in (None, "recruit") else {}
    uncovered = uncovered_cities(state, seat, draft) if setup else []
    cities = every_city = building_cities(state, seat, draft)
    if wanted == "recruit":
        cities = [h for h in cities if h == only.get("hex")]
    elif wanted == "add":
        blk = draft["blocks"].get(only.get("block")) if type(only.get("block")) is str else None
        cities = [h for h in cities if blk is not None and h == blk["hex"]]
    elif wanted is not None:
        cities = []
    blocks, gold = draft["blocks"], draft["gold"]
    here_of: dict[str, list[str]] = {}                  # the draft's blocks by hex, ids sorted
    if cities:  # a check's one city (or none) needs no more than its own blocks sorted
        for bid in sorted(blocks) if len(cities) > 1 else sorted(
                bid for bid, blk in blocks.items() if blk["hex"] == cities[0]):
            here_of.setdefault(blocks[bid]["hex"], []).append(bid)
    if wanted == "recruit" and "kind" in only:          # a check: only the kind it names
        kind = only["kind"]
        kinds = [(kind, kind_of(kind))] if type(kind) is str and kind in spare else []
    else:
        kinds = [(kind, kind_of(kind)) for kind in sorted(spare)] if wanted in (None, "recruit") \
            else []
    affordable = _setup_check(spare, uncovered, gold) if setup else None
    for hex_ in cities:
        here = here_of.get(hex_, [])
        purse = gold[SETUP_GOLD] if setup else gold.get(hex_, 0)   # _cost_ok's gold
        room = len(here) + 1 <= b.stack_limit(hex_)
        port = None
        for kind, k in kinds:
            if k.cost > purse or not room:
                continue
            if k.wizard and hex_ in b.henges:
                continue                                # 6.6
            if k.traits & _SHIPS:
                if port is None:
                    port = is_port(b, hex_)
                if not port:
                    continue                            # 2.38, 2.39: built in ports
            if setup and not affordable(k.cost, hex_, kind):
                continue
            result.append({"type": "recruit", "kind": kind, "hex": hex_})
        for bid in here if wanted in (None, "add") else ():
            blk = blocks[bid]
            k = kind_of(blk["kind"])
            if bid in draft["spent"]:
                continue                                # D34: gold is not bought back
            if blk["steps"] < k.max and k.cost <= purse and (
                    not setup or affordable(k.cost, None, None)):
                result.append({"type": "add", "block": bid})
    if not setup and wanted in (None, "combine", "disband"):
        result += _regroupings(draft)
    if not setup and wanted in (None, "spend"):
        result += _spends(draft)
    if state["options"].get("expansion") and wanted in (None, "arm", "charge", "hand", "drop",
                                                         "take"):
        result += _artefact_options(state, seat, draft, every_city, wanted, affordable)
    if not setup or not uncovered:
        result.append({"type": "done"})
    return result


_SHAPES = {"recruit": frozenset(("type", "kind", "hex")), "add": frozenset(("type", "block")),
           "disband": frozenset(("type", "block")), "combine": frozenset(("type", "from", "to")),
           "done": frozenset(("type",))}


@lru_cache(maxsize=None)
def _army_counts(army: str) -> dict[str, int]:
    """The copies of each kind of an army (``pool``'s start outside a scenario and the
    expansion); never changed by its callers."""
    return {k.key: k.count for k in armies()[army].kinds}


def surely_listed(state: dict, seat: int, action: dict) -> bool:
    """Is ``action`` (a dict with a string type, of a seat still building) surely one of
    ``options(state, seat)``, asked of it alone? Outside setup only, for a recruit, an add, a
    disband, a combine (their JSON: strings only) and done, by the clauses the listing walks:
    6.2 a recruit of a kind left (``pool``) in a city of the draft's gold that pays for it,
    with room (4.5), no wizard at a henge (6.6), ships in ports (2.38, 2.39); an add to a block
    below its most steps in such a city, not a treasure spent (D34); 6.5 a disband of a block
    of the draft, a combine within a hex to a block below its most steps, the giver not one
    that received nor the taker one that gave; done (always listed after setup). False says
    nothing: the listing decides (and explains a refusal). A validation asks this of every
    build action: the check's candidates (``pool`` above all) were most of its time."""
    draft = state["drafts"][str(seat)]
    kind_ = action["type"]
    if draft["setup"] or action.keys() != _SHAPES.get(kind_, ()):
        return False
    if kind_ == "done":
        return True
    if any(type(value) is not str for value in action.values()):
        return False
    blocks = draft["blocks"]
    if kind_ == "disband":
        return action["block"] in blocks
    if kind_ == "combine":
        giver, taker = blocks.get(action["from"]), blocks.get(action["to"])
        return (giver is not None and taker is not None and action["from"] != action["to"]
                and giver["hex"] == taker["hex"] and action["from"] not in draft["got"]
                and action["to"] not in draft["gave"]
                and taker["steps"] < kind_of(taker["kind"]).max)
    if kind_ == "add":
        blk = blocks.get(action["block"])
        if blk is None or blk["hex"] not in draft["gold"] or action["block"] in draft["spent"]:
            return False
        k = kind_of(blk["kind"])
        return blk["steps"] < k.max and k.cost <= draft["gold"][blk["hex"]]
    hex_, kind = action["hex"], action["kind"]
    purse = draft["gold"].get(hex_)
    if purse is None:
        return False
    army = state["armies"][seat]
    if army is None:
        return False
    if state["options"].get("expansion"):
        left = pool(state, seat, blocks).get(kind, 0)
    else:                                               # ``pool`` of that kind alone
        left = _army_counts(army).get(kind, 0) - state["dead"][seat].count(kind)
    if left <= 0:
        return False
    here = 0
    for blk in blocks.values():
        here += blk["hex"] == hex_
        left -= blk["kind"] == kind and blk["owner"] == seat
    k, b = kind_of(kind), board(state)
    return (left > 0 and k.cost <= purse and here + 1 <= b.stack_limit(hex_)
            and not (k.wizard and hex_ in b.henges)
            and (not k.traits & _SHIPS or is_port(b, hex_)))


def _spends(draft: dict) -> list[dict]:
    """D30: the treasures of the draft that may be spent (in a city with gold, not bought)."""
    return [{"type": "spend", "block": bid} for bid, blk in sorted(draft["blocks"].items())
            if kind_of(blk["kind"]).treasure and blk["hex"] in draft["gold"]
            and bid not in draft["bought"]]


def _artefact_options(state: dict, seat: int, draft: dict, cities: list[str], wanted,
                      affordable: Callable[[int, str | None, str | None], bool] | None) -> list[dict]:
    """2.7 (D32-D35): making and charging artefacts in friendly cities, handing them within a
    hex (once a build each), leaving them and taking those lying in a hex. ``affordable``: the
    listing's 1.22 check at setup (``_setup_check``), None after it."""
    result = []
    blocks = draft["blocks"]
    bare = [bid for bid, blk in sorted(blocks.items())
            if not blk.get("artefact") and can_carry(kind_of(blk["kind"]))]

    def payable(hex_, cost):
        return _cost_ok(draft, hex_, cost) and (affordable is None or affordable(cost, None, None))
    if wanted in (None, "arm"):
        made = {d["key"] for d in draft["dropped"]}
        for key in artefact_pool(state, seat, blocks):
            if key in made:
                continue
            cost = artefact_of(key).cost
            for bid in bare:
                if blocks[bid]["hex"] in cities and payable(blocks[bid]["hex"], cost):
                    result.append({"type": "arm", "artefact": key, "block": bid})
    carriers = [bid for bid, blk in sorted(blocks.items()) if blk.get("artefact")]
    if wanted in (None, "charge"):
        for bid in carriers:
            art = blocks[bid]["artefact"]
            item = artefact_of(art["key"])
            if art["steps"] < item.max and blocks[bid]["hex"] in cities and \
                    payable(blocks[bid]["hex"], item.cost):
                result.append({"type": "charge", "block": bid})
    if draft["setup"]:
        return result
    if wanted in (None, "hand"):
        for bid in carriers:
            if blocks[bid]["artefact"]["key"] in draft["handed"]:
                continue
            result += [{"type": "hand", "from": bid, "to": other} for other in bare
                       if blocks[other]["hex"] == blocks[bid]["hex"]]
    if wanted in (None, "drop"):
        result += [{"type": "drop", "block": bid} for bid in carriers]
    if wanted in (None, "take"):
        mine = state["armies"][seat]
        for bid in bare:
            for art in state.get("lying", {}).get(blocks[bid]["hex"], ()):
                if art["key"] not in draft["took"] and (
                        artefact_of(art["key"]).army == mine
                        or state["options"].get("capture_artefacts")):
                    result.append({"type": "take", "block": bid, "artefact": art["key"]})
    return result


def _regroupings(draft: dict, only=None) -> list[dict]:
    """6.5: combining (a step from one block to another of the same hex; a block that gave does
    not receive, so steps cannot circle) and disbanding. With ``only``: just those of that
    block (the one combining or disbanded; a check of one action needs no more)."""
    result = []
    blocks = draft["blocks"]
    picked = [only] if type(only) is str and only in blocks else []
    for bid in sorted(blocks) if only is None else picked:
        blk = blocks[bid]
        if bid not in draft["got"]:
            for other in sorted(blocks):
                o = blocks[other]
                if other != bid and o["hex"] == blk["hex"] and other not in draft["gave"] \
                        and o["steps"] < kind_of(o["kind"]).max:
                    result.append({"type": "combine", "from": bid, "to": other})
        result.append({"type": "disband", "block": bid})
    return result


def decide(state: dict, seat: int, action: dict) -> None:
    """Apply one checked build action to the seat's draft (mutates ``state``)."""
    draft = state["drafts"][str(seat)]
    kind_ = action["type"]
    if kind_ == "done":
        draft["done"] = True
    elif kind_ == "recruit":
        k = kind_of(action["kind"])
        _pay(draft, action["hex"], k.cost)
        draft["new"] += 1
        draft["bought"].append(f"new-{seat}-{draft['new']}")
        draft["blocks"][f"new-{seat}-{draft['new']}"] = {
            "owner": seat, "kind": k.key, "steps": 1, "hex": action["hex"], "known": False,
            "moved": False, "cast": False}
    elif kind_ == "add":
        blk = draft["blocks"][action["block"]]
        _pay(draft, blk["hex"], kind_of(blk["kind"]).cost)
        blk["steps"] += 1
        draft["bought"].append(action["block"])
    elif kind_ == "combine":
        giver, taker = draft["blocks"][action["from"]], draft["blocks"][action["to"]]
        giver["steps"] -= 1
        taker["steps"] += 1
        draft["gave"].append(action["from"])
        draft["got"].append(action["to"])
        if giver["steps"] == 0:
            _leave(draft, action["from"])
    elif kind_ == "disband":
        _leave(draft, action["block"])
    elif kind_ == "spend":                              # 2.6 (D34)
        blk = draft["blocks"][action["block"]]
        blk["steps"] -= 1
        draft["gold"][blk["hex"]] += kind_of(blk["kind"]).cost
        draft["spent"].append(action["block"])
        if blk["steps"] == 0:
            del draft["blocks"][action["block"]]
    elif kind_ == "arm":                                # 2.7 (D32)
        blk = draft["blocks"][action["block"]]
        _pay(draft, blk["hex"], artefact_of(action["artefact"]).cost)
        blk["artefact"] = {"key": action["artefact"], "steps": 1, "known": False}
    elif kind_ == "charge":
        blk = draft["blocks"][action["block"]]
        _pay(draft, blk["hex"], artefact_of(blk["artefact"]["key"]).cost)
        blk["artefact"]["steps"] += 1
    elif kind_ == "hand":
        art = draft["blocks"][action["from"]].pop("artefact")
        draft["blocks"][action["to"]]["artefact"] = art
        draft["handed"].append(art["key"])
    elif kind_ == "drop":
        _leave(draft, action["block"], keep=True)
    elif kind_ == "take":
        blk = draft["blocks"][action["block"]]
        art = next(a for a in state["lying"][blk["hex"]] if a["key"] == action["artefact"])
        blk["artefact"] = {"key": art["key"], "steps": art["steps"], "known": False}
        draft["took"].append(art["key"])
    else:
        raise AssertionError(kind_)


def _leave(draft: dict, bid: str, *, keep: bool = False) -> None:
    """A block of the draft disbanded or combined away (``keep``: it stays, only its artefact
    goes): its artefact is left lying in the hex (2.7 'povas esti forlasitaj', D35)."""
    blk = draft["blocks"][bid]
    art = blk.pop("artefact", None)
    if art:
        draft["dropped"].append({"hex": blk["hex"], "key": art["key"], "steps": art["steps"]})
    if not keep:
        del draft["blocks"][bid]


def _pay(draft: dict, hex_: str, cost: int) -> None:
    key = SETUP_GOLD if draft["setup"] else hex_
    draft["gold"][key] -= cost


def all_done(state: dict) -> bool:
    return all(d["done"] for d in state["drafts"].values())


def waiting(state: dict) -> list[int]:
    """The seats still building, in seat order."""
    return sorted([int(s) for s, d in state["drafts"].items() if not d["done"]])


def reveal(state: dict) -> list[dict]:
    """Every draft becomes real at once (6.0). Returns the new blocks, in seat order, still
    without ids (rules gives them ids by a shuffle)."""
    new_blocks = []
    chaos_taken = {b["kind"] for b in state["blocks"].values() if b["kind"].startswith("chaos/")}
    rank = {seat: i for i, seat in enumerate(state["order"])}
    for key in sorted(state["drafts"], key=lambda k: (rank.get(int(k), 99), int(k))):
        seat, draft = int(key), state["drafts"][key]
        for bid in [b for b, blk in state["blocks"].items() if blk["owner"] == seat]:
            if bid not in draft["blocks"]:
                remove(state, bid, killed=False)        # disbanded or combined away
        for item in draft.get("took", ()):              # D35: taken from where it lay
            for hex_, items in list(state["lying"].items()):
                items[:] = [a for a in items if a["key"] != item]
                if not items:
                    del state["lying"][hex_]
        for item in draft.get("dropped", ()):
            lie(state, item["hex"], item)
        for bid, blk in sorted(draft["blocks"].items()):
            if bid.startswith("new-") and blk["kind"].startswith("chaos/"):
                if blk["kind"] in chaos_taken:          # D27: one chaos block, first in order
                    if not draft["setup"]:
                        gold = draft["gold"]
                        gold[blk["hex"]] = gold.get(blk["hex"], 0) + blk["steps"] * kind_of(blk["kind"]).cost
                    if blk.get("artefact"):
                        lie(state, blk["hex"], blk["artefact"])
                    continue
                chaos_taken.add(blk["kind"])
            if bid.startswith("new-"):
                new_blocks.append(blk)
            else:
                state["blocks"][bid]["steps"] = blk["steps"]
                if blk.get("artefact"):
                    state["blocks"][bid]["artefact"] = blk["artefact"]
                else:
                    state["blocks"][bid].pop("artefact", None)
        if not draft["setup"]:
            for hex_, gold in draft["gold"].items():
                state["gold"][hex_] = gold
    state["drafts"] = {}
    return new_blocks


def army_cost(army: str) -> int:
    """The gold of a whole army at full strength (for the docs and the balance)."""
    return sum(k.max * k.cost * k.count for k in armies()[army].kinds)
