"""Wizard Kings scenarios, rulebook section 7 (and 1.1): 7.1 The Island of the Dead, 7.2
Barbarian Attack, 7.3 Last Wizard Standing, 7.4 Alliance Spread.

A scenario is data (``data/scenarios.json``): its maps, its sides with their blocks and starting
hexes, and its special rules as named flags. This module loads and checks that data, runs the
scenario's set-up (fixed placements, the seats' choices, the draw for who chooses first) and
answers the rule engine's questions where a flag changes a rule: who moves when (7.1, 7.2), where
a block may go (7.1), what a seat may build (7.1, 7.2, 7.3, 7.4), the heal spell Kuraco (7.3),
and who has won. ``rules`` calls it; it never calls ``rules`` back. Decisions D40-D59 are listed
in docs/rules/wizard-kings.md.

Set-up, in the ``deal`` phase: ``stage`` is "draw" while a chance draw picks the seat that
chooses first (7.3, 7.4), "choose" while seats pick armies, maps and capitals (phase "choose",
one public decision at a time), then the blocks are placed: fixed by the rulebook (7.1, 7.4's
capitals) or by the seats in secret (phase "place", 7.2, 7.3), and named by the ids shuffle.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .board import MapError, board_of
from .content import Spell, armies, extras, kind_of
from .movement import can_stand
from .state import blocks_at, board, city_gold, controller, live_seats, remove

SCENARIO_FILE = Path(__file__).resolve().parent / "data" / "scenarios.json"
PHASES = ("choose", "place")
RULES = {"fixed_order", "confined", "starting_blocks_only", "castle_goal", "limit_winner",
         "still_on_turn_1", "lost_for_good", "cities_goal", "choose_army", "choose_map",
         "army_roles", "place_on_own_map", "move_heal", "wizard_regain", "no_build",
         "limit_score", "pick_armies", "capitals", "neutral_cities", "chaos",
         "castle_falls_army"}
CAPITAL_STACK = 5        # 7.4: all five blocks of an army stand in its capital


class ScenarioError(ValueError):
    """scenarios.json breaks the format (the message names the scenario)."""


@dataclass(frozen=True)
class Scenario:
    key: str
    section: str
    title: str
    players: int
    maps: tuple[str, ...]    # empty: the seats choose (7.3)
    turns: int | None        # the rulebook's length (7.1, 7.3); None: bounded by turn_limit
    sides: tuple             # per seat: {"army", "cities", "blocks": [[kind, steps, where?]], "place"}
    rules: dict


# -- the data ----------------------------------------------------------------------------------

@lru_cache(maxsize=2)
def scenarios(path: str = str(SCENARIO_FILE)) -> dict[str, Scenario]:
    """Every scenario by key, checked against the armies and the maps."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    roles = data["roles"]
    for army, kinds in roles["armies"].items():
        for role, key in kinds.items():
            kind = kind_of(key)
            if kind.army != army or (role == "wizard") != kind.wizard \
                    or (role == "castle") != kind.castle:
                raise ScenarioError(f"roles: {army} {role} cannot be {key}")
    result = {}
    for key, raw in data["scenarios"].items():
        s = Scenario(key, raw["section"], raw["title"], raw["players"], tuple(raw["maps"]),
                     raw["turns"], tuple(raw["sides"]), dict(raw["rules"]))
        _check(s, roles)
        result[key] = s
    return result


def _check(s: Scenario, roles: dict) -> None:
    where = f"scenario {s.key} ({s.section})"
    unknown = sorted(set(s.rules) - RULES)
    if unknown:
        raise ScenarioError(f"{where}: unknown rules {unknown}")
    try:
        b = board_of(s.maps) if s.maps else None
    except MapError as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    if s.sides and len(s.sides) != s.players:
        raise ScenarioError(f"{where}: one side per seat")
    for seat, side_ in enumerate(s.sides):
        army = armies()[side_["army"]]
        counts: dict[str, int] = {}
        for kind_key, steps, *at in side_["blocks"]:
            kind = kind_of(kind_key)
            counts[kind_key] = counts.get(kind_key, 0) + 1
            if kind.army != army.key or not 1 <= steps <= kind.max:
                raise ScenarioError(f"{where}: {kind_key} with {steps} steps for {army.key}")
            if counts[kind_key] > kind.count:
                raise ScenarioError(f"{where}: more {kind_key} than the army has")
            for name in at + side_.get("place", {}).get("in", []) + side_["cities"]:
                if not hexes_named(s.maps, name):
                    raise ScenarioError(f"{where}: no place named {name!r} on maps {s.maps}")
    for seat, regions in s.rules.get("confined", {}).items():
        if not all(hexes_named(s.maps, r) for r in regions):
            raise ScenarioError(f"{where}: a confining region is not on the maps")
    for role, steps in s.rules.get("army_roles", ()):
        for army in s.rules.get("choose_army") or roles["armies"]:
            if kind_of(roles["armies"][army][role]).max < steps:
                raise ScenarioError(f"{where}: {army}'s {role} cannot have {steps} steps")
    if b is not None and "capitals" in s.rules and len(s.maps) != 2 * s.players:
        raise ScenarioError(f"{where}: a capital for each army on each map")


@lru_cache(maxsize=None)
def hexes_named(maps: tuple[str, ...], name: str) -> tuple[str, ...]:
    """The hexes of a city called ``name``, or of a region so named (the maps' ``names``)."""
    b = board_of(maps)
    cities = tuple(h for h, c in sorted(b.cities.items()) if c.name == name)
    return cities or tuple(sorted(h for h, n in b.names.items() if n == name))


@lru_cache(maxsize=None)
def _roles() -> dict:
    return json.loads(SCENARIO_FILE.read_text(encoding="utf-8"))["roles"]


def role_kinds(army: str) -> dict[str, str]:
    """7.3, 7.4: the army's block for each role (docs: Scenario mappings)."""
    return _roles()["armies"][army]


def conformance_options() -> list[dict]:
    """One option set per scenario, for the conformance suite."""
    return [{"scenario": key} for key in scenarios()]


def scenario_of(state: dict) -> Scenario | None:
    key = state["options"].get("scenario")
    return scenarios()[key] if key else None


def _rule(state: dict, name: str, default=None):
    s = scenario_of(state)
    return default if s is None else s.rules.get(name, default)


# -- options -----------------------------------------------------------------------------------

def option_conflict(options: dict, players: int) -> str | None:
    """Why the other options cannot go with the scenario (None: they can)."""
    key = options.get("scenario", "")
    if not key:
        return None
    if key not in scenarios():
        return f"scenario must be one of {sorted(scenarios())} or empty, got {key!r}"
    s = scenarios()[key]
    if players != s.players:
        return f"scenario {key} ({s.section}) is for {s.players} players, not {players}"
    for name, why in (("armies", "its armies"), ("maps", "its maps")):
        if options.get(name):
            return f"scenario {key} ({s.section}) sets {why}: leave the option {name} empty"
    if s.turns is not None and options.get("turn_limit") not in (0, s.turns):   # 0: 10 (D12)
        return (f"scenario {key} ({s.section}) lasts {s.turns} turns: leave turn_limit at 0 "
                f"(the rulebook's) or {s.turns}")
    if options.get("victory_gold", -1) > 0 or options.get("scoring") != "cities":
        return (f"scenario {key} ({s.section}) has its own victory: leave victory_gold at -1 "
                f"and scoring at 'cities'")
    if options.get("expansion"):
        return f"scenario {key} ({s.section}) plays the base armies: expansion must be off"
    return None


# -- set-up ------------------------------------------------------------------------------------

def deal_step(state: dict) -> bool:
    """One automatic step of the scenario's set-up; False while a draw or a seat is awaited."""
    s = scenario_of(state)
    run = state["scenario"]
    if run is None:
        state["scenario"] = run = {"key": s.key, "stage": "start", "first": None, "queue": [],
                                   "armies": {}, "capitals": {}, "fallen": [], "heal": None,
                                   "winner": None}
    if run["stage"] == "start":
        if s.maps:
            _lay(state, list(s.maps))
        if s.sides:
            state["armies"] = [side_["army"] for side_ in s.sides]
            b = board(state)
            state["city_owner"] = {h: None for h in b.cities}
            for seat, side_ in enumerate(s.sides):
                for name in side_["cities"]:
                    for h in hexes_named(s.maps, name):
                        state["city_owner"][h] = seat
            return _start_placing(state)
        run["stage"] = "draw"                          # 7.3, 7.4: a roll for the first choice
        return False
    return False


def chance_spec(state: dict) -> dict | None:
    """The draw of the seat that chooses first (7.3, 7.4), or Kuraco's die (7.3)."""
    run = state.get("scenario")
    if run is None:
        return None
    if state["phase"] == "deal" and run["stage"] == "draw":
        return {"kind": "choice", "n": state["players"], "k": 1}
    if state["phase"] == "move" and run["heal"] is not None:
        return {"kind": "dice", "count": 1, "sides": 6}
    return None


def chance_outcome(state: dict, outcome: list) -> None:
    """Apply the scenario's due draw or die (mutates ``state``)."""
    run = state["scenario"]
    if state["phase"] == "move":
        _heal_rolled(state, outcome[0])
        return
    first = outcome[0]
    other = 1 - first
    run["first"] = first
    if _rule(state, "choose_army"):                    # 7.3: first picks an army
        run["queue"] = [{"seat": first, "what": "army"}]
    else:                                              # 7.4: two armies each, alternately
        n = _rule(state, "pick_armies")
        run["queue"] = ([{"seat": first, "what": "army"}, {"seat": other, "what": "army"}] * n
                        + [{"seat": first, "what": "capital"}, {"seat": other, "what": "capital"}] * n)
    run["stage"] = "choose"
    state["phase"] = "choose"


def _lay(state: dict, maps: list[str]) -> None:
    """The maps left to right; seat s owns map s's cities (1.21, D1) unless a scenario says."""
    state["maps"] = maps
    b = board_of(tuple(maps))
    state["city_owner"] = {h: (None if _rule(state, "neutral_cities") else b.map_of[h])
                           for h in sorted(b.cities)}
    state["gold"] = {h: 0 for h in sorted(b.cities)}


def choosing_seats(state: dict) -> list[int]:
    run = state["scenario"]
    return [run["queue"][0]["seat"]] if run["queue"] else []


def options(state: dict, seat: int) -> list[dict]:
    """The legal actions of ``seat`` in the set-up phases ("choose", "place")."""
    if state["phase"] == "place":
        return _place_options(state, seat)
    run = state["scenario"]
    if not run["queue"] or run["queue"][0]["seat"] != seat:
        return []
    what = run["queue"][0]["what"]
    taken = {a for picks in run["armies"].values() for a in picks}
    if what == "army":
        offered = _rule(state, "choose_army") or list(armies())
        return [{"type": "army", "army": a} for a in offered if a not in taken]
    if what == "map":
        return [{"type": "map", "map": m} for m in _rule(state, "choose_map")]
    return _capital_options(state, seat)


def _capital_options(state: dict, seat: int) -> list[dict]:
    """7.4: a capital for one of the seat's armies: a city of a map no capital is on yet, big
    enough for the army's five blocks (4.5)."""
    run = state["scenario"]
    b = board(state)
    used = {b.map_of[h] for h in run["capitals"].values()}
    result = []
    for army in run["armies"][str(seat)]:
        if army in run["capitals"]:
            continue
        for h, city in sorted(b.cities.items()):
            if b.map_of[h] not in used and b.stack_limit(h) >= CAPITAL_STACK:
                result.append({"type": "capital", "army": army, "hex": h})
    return result


def decide(state: dict, seat: int, action: dict) -> None:
    """Apply a checked set-up action (mutates ``state``)."""
    if state["phase"] == "place":
        _place(state, seat, action)
        return
    run = state["scenario"]
    run["queue"].pop(0)
    kind_ = action["type"]
    if kind_ == "army":
        run["armies"].setdefault(str(seat), []).append(action["army"])
        _log(state, {"chose": action["army"], "seat": seat})
        offered = _rule(state, "choose_army")
        if offered:                                    # 7.3: the other takes the other army,
            other = 1 - seat                           # then chooses the map first
            run["armies"][str(other)] = [a for a in offered if a != action["army"]]
            run["queue"] = [{"seat": other, "what": "map"}]
    elif kind_ == "map":
        other = [m for m in _rule(state, "choose_map") if m != action["map"]][0]
        maps = [action["map"], other] if seat == 0 else [other, action["map"]]
        _lay(state, maps)
        _log(state, {"chose": action["map"], "seat": seat})
    else:
        run["capitals"][action["army"]] = action["hex"]
        _log(state, {"capital": action["hex"], "army": action["army"], "seat": seat})
    if not run["queue"]:
        state["armies"] = [run["armies"][str(s)][0] for s in range(state["players"])]
        if not _rule(state, "capitals"):
            run["armies"] = {}                         # one army a seat: state["armies"] says it
        _start_placing(state)


def _start_placing(state: dict) -> bool:
    """Blocks the rulebook places go on at once (named by the ids shuffle); where the seats
    place, every seat gets a secret draft (phase "place")."""
    s = scenario_of(state)
    run = state["scenario"]
    run["stage"] = "placed"
    fixed, drafts = [], {}
    for seat in range(state["players"]):
        pieces, area = _pieces(state, seat)
        if area is None:
            for kind, steps, where in pieces:
                hex_ = where if where in board(state).terrain else hexes_named(s.maps, where)[0]
                fixed.append(_block(seat, kind, steps, hex_))
        else:
            drafts[str(seat)] = _placement_draft(state, pieces, area)
    if drafts:
        state["drafts"] = drafts
        state["phase"] = "place"
        return True
    state["new_blocks"] = fixed
    state["after_ids"] = "place"
    state["phase"] = "ids" if len(fixed) > 1 else "ids-pending"
    return True


def _pieces(state: dict, seat: int) -> tuple[list, dict | None]:
    """The blocks ``seat`` starts with, ``[kind, steps, where?]``, and the area it places
    them on (None: the rulebook places them, 7.1, 7.4)."""
    s = scenario_of(state)
    run = state["scenario"]
    roles = _rule(state, "army_roles")
    if s.sides:
        side_ = s.sides[seat]
        return side_["blocks"], side_.get("place")
    if _rule(state, "capitals"):
        pieces = []
        for army in run["armies"][str(seat)]:
            kinds = role_kinds(army)
            pieces += [[kinds[role], steps, run["capitals"][army]] for role, steps in roles]
        return pieces, None
    kinds = role_kinds(state["armies"][seat])          # 7.3: on the seat's own map's cities
    own = [h for h, o in sorted(state["city_owner"].items()) if o == seat]
    return [[kinds[role], steps] for role, steps in roles], {"hexes": own,
                                                             **_rule(state, "place_on_own_map")}


def _placement_draft(state: dict, pieces: list, area: dict) -> dict:
    maps = scenario_of(state).maps
    hexes = area.get("hexes") or [h for n in area["in"] for h in hexes_named(maps, n)]
    return {"blocks": {}, "gold": {}, "new": 0, "done": False, "setup": True,
            "to_place": [list(p[:2]) for p in pieces], "area": hexes, "cover": area["cover"]}


def fresh_placement(state: dict, seat: int) -> dict | None:
    """``seat``'s placement draft before its first block (7.2, 7.3), None where the rulebook
    places its blocks."""
    pieces, area = _pieces(state, seat)
    return None if area is None else _placement_draft(state, pieces, area)


def castle_homes(state: dict) -> dict[str, str]:
    """The hexes where the rulebook puts a castle, by kind (7.1's sides, 7.4's capitals): a
    castle never moves (2.4), so it stands there while it stands at all."""
    s = scenario_of(state)
    if s is None or state["scenario"] is None or state["scenario"]["stage"] != "placed":
        return {}
    homes = {}
    for seat in range(state["players"]):
        pieces, area = _pieces(state, seat)
        if area is None:
            for kind, _, where in pieces:
                if kind_of(kind).castle:
                    homes[kind] = where if where in board(state).terrain \
                        else hexes_named(s.maps, where)[0]
    return homes


def standing_castles(state: dict) -> list[tuple[str, int]]:
    """The castles the match has not ended without: 7.1's and 7.2's goal, 7.4's castle of each
    army that has not fallen (kind, seat)."""
    goal = _rule(state, "castle_goal")
    result = [(goal["castle"], goal["owner"])] if goal else []
    run = state.get("scenario")
    if _rule(state, "castle_falls_army") and run is not None:
        for seat in live_seats(state):
            result += [(role_kinds(army)["castle"], seat)
                       for army in run["armies"].get(str(seat), ()) if army not in run["fallen"]]
    return result


def _block(seat: int, kind: str, steps: int, hex_: str) -> dict:
    return {"owner": seat, "kind": kind, "steps": steps, "hex": hex_, "known": False,
            "moved": False, "cast": False}


def _place_options(state: dict, seat: int) -> list[dict]:
    """7.2, 7.3: put one of the seat's blocks, at its printed strength, on a hex of its area;
    only where the rest still fit (stacking, 4.5; ships on the coast; a block on every city
    where the area must be covered)."""
    draft = state["drafts"].get(str(seat))
    if draft is None or draft["done"]:
        return []
    b = board(state)
    here = {h: sum(1 for blk in draft["blocks"].values() if blk["hex"] == h) for h in draft["area"]}
    result = []
    for i, (kind, steps) in enumerate(draft["to_place"]):
        if [kind, steps] in draft["to_place"][:i]:
            continue
        rest = draft["to_place"][:i] + draft["to_place"][i + 1:]
        for h in draft["area"]:
            if not can_stand(b, kind_of(kind), h) or here[h] + 1 > b.stack_limit(h):
                continue
            room = {x: b.stack_limit(x) - here[x] - (x == h) for x in draft["area"]}
            need = {x for x in draft["area"] if draft["cover"] and not here[x] and x != h}
            if _fits(b, tuple(k for k, _ in rest), room, need):
                result.append({"type": "place", "kind": kind, "steps": steps, "hex": h})
    return result


def _fits(b, kinds: tuple[str, ...], room: dict, need: set) -> bool:
    """Can ``kinds`` still stand in the area with ``room`` left a hex, covering ``need``?"""
    hexes = sorted(room)
    allowed = sorted(([h for h in hexes if can_stand(b, kind_of(k), h)] for k in kinds), key=len)

    @lru_cache(maxsize=None)
    def go(i: int, left: tuple, uncovered: frozenset) -> bool:
        if len(allowed) - i < len(uncovered):
            return False
        if i == len(allowed):
            return True
        for h in allowed[i]:
            j = hexes.index(h)
            if left[j] > 0 and go(i + 1, left[:j] + (left[j] - 1,) + left[j + 1:], uncovered - {h}):
                return True
        return False
    return go(0, tuple(room[h] for h in hexes), frozenset(need))


def _place(state: dict, seat: int, action: dict) -> None:
    draft = state["drafts"][str(seat)]
    draft["to_place"].remove([action["kind"], action["steps"]])
    draft["new"] += 1
    draft["blocks"][f"new-{seat}-{draft['new']}"] = _block(seat, action["kind"], action["steps"],
                                                           action["hex"])
    draft["done"] = not draft["to_place"]


# -- special rules during play -----------------------------------------------------------------

def fixed_order(state: dict) -> list[int] | None:
    """7.1 "Nemortintoj ĉiam moviĝas due", 7.2 "Barbaroj moviĝas unue": no initiative roll."""
    order = _rule(state, "fixed_order")
    return None if order is None else [s for s in order if s in live_seats(state)]


def may_enter(state: dict, seat: int, hex_: str) -> bool:
    """7.1 "Nemortintoj regas la Insulon Thilenius kiun ne povas forlasi": a confined seat's
    blocks never move, retreat or regroup off their region."""
    regions = _rule(state, "confined", {}).get(str(seat))
    if not regions:
        return True
    maps = tuple(state["maps"])
    return any(hex_ in hexes_named(maps, r) for r in regions)


def restrict_moves(state: dict, seat: int, found: dict) -> None:
    """The scenario's limits on the move phase's actions (mutates ``found``, block -> actions):
    7.2 the Amazons stay put in turn 1, 7.1 confinement, 7.3 Kuraco."""
    if state["turn"] == 1 and seat in _rule(state, "still_on_turn_1", ()):
        found.clear()
        return
    for bid, actions in found.items():
        actions[:] = [a for a in actions if a["type"] != "move" or may_enter(state, seat, a["to"])]
        actions += _heal_casts(state, bid)


def heal_spell(state: dict) -> Spell | None:
    """7.3's Kuraco as a spell of every wizard's list (level 2, move phase, 1d6)."""
    raw = _rule(state, "move_heal")
    if raw is None:
        return None
    return Spell(raw["key"], "scenario", raw["name"], raw["level"], "move", "heal", dice=1)


def _heal_casts(state: dict, bid: str) -> list[dict]:
    """7.3 "Ambaŭ magiistoj konas unu kroman 2-nivelan ekzorcon nomitan Kuraco, kiun oni povas
    ĵeti dum la movfazo": a wizard that has neither moved nor cast, out of any battle, with
    another hurt block of its own in its hex (D45)."""
    spell = heal_spell(state)
    blk = state["blocks"][bid]
    kind = kind_of(blk["kind"])
    if spell is None or not kind.wizard or blk["moved"] or blk["cast"] \
            or spell.level > blk["steps"] or blk["hex"] in state["fights"]:
        return []
    if not _hurt(state, blk["hex"], blk["owner"], but=bid):
        return []
    return [{"type": "cast", "block": bid, "spell": spell.key}]


def _hurt(state: dict, hex_: str, seat: int, but: str | None = None) -> list[str]:
    return [o for o in blocks_at(state, hex_, seat) if o != but
            and state["blocks"][o]["steps"] < kind_of(state["blocks"][o]["kind"]).max]


def is_heal(action: dict) -> bool:
    return action.get("spell", "").startswith("scenario/")


def cast_heal(state: dict, action: dict) -> None:
    """2.22: the wizard pays 2 steps (it may die of it) and stays; the die is rolled next."""
    wizard = state["blocks"][action["block"]]
    seat, hex_ = wizard["owner"], wizard["hex"]
    wizard["steps"] -= 2
    wizard["cast"] = wizard["known"] = True            # D14: casting shows the wizard
    state["scenario"]["heal"] = {"wizard": action["block"], "hex": hex_, "seat": seat}
    _log(state, {"cast": action["spell"], "by": action["block"], "seat": seat})
    if wizard["steps"] <= 0:
        remove(state, action["block"])


def heal_pending(state: dict) -> bool:
    run = state.get("scenario")
    return run is not None and run["heal"] is not None


def _heal_rolled(state: dict, die: int) -> None:
    """7.3 "1-3: kuracas 1 paŝon; 4-6: kuracas 2 paŝojn. Aldonu paŝojn al la bloko(j) ĉe la
    sama heksagono": the steps go to the other hurt blocks of the hex, the weakest first."""
    run = state["scenario"]
    heal, run["heal"] = run["heal"], None
    steps = _rule(state, "move_heal")["heals"][die - 1]
    for _ in range(steps):
        hurt = _hurt(state, heal["hex"], heal["seat"], but=heal["wizard"])
        if not hurt:
            break
        weakest = min(hurt, key=lambda o: (state["blocks"][o]["steps"], o))
        state["blocks"][weakest]["steps"] += 1
    _log(state, {"heal": heal["hex"], "die": die, "steps": steps})


def lost_for_good(state: dict) -> bool:
    """7.2 "Lasu definitive ekster la partio la forigitajn blokojn"."""
    return bool(_rule(state, "lost_for_good"))


def base_pool(state: dict, seat: int) -> dict[str, int] | None:
    """The blocks a seat's army has in a scenario (None: its army's, as in a custom game):
    7.1 the Undead only their six ("Oni ne povas krei novajn nemortintajn blokojn"); 7.4 both
    armies of the seat but those whose castle fell, and the chaos blocks."""
    s = scenario_of(state)
    if s is None:
        return None
    if seat in s.rules.get("starting_blocks_only", ()):
        left: dict[str, int] = {}
        for kind, *_ in s.sides[seat]["blocks"]:
            left[kind] = left.get(kind, 0) + 1
        return left
    run = state["scenario"] or {}
    mine = run.get("armies", {}).get(str(seat))
    if not mine:
        return None
    left = {k.key: k.count for a in mine if a not in run["fallen"] for k in armies()[a].kinds}
    if s.rules.get("chaos"):
        taken = {b["kind"] for b in state["blocks"].values() if b["owner"] != seat}
        left.update({k.key: 1 for k in extras().chaos if k.key not in taken})
    return left


def seat_kinds(state: dict, seat: int) -> tuple[list, list]:
    """The block kinds and spells a seat's view lists beyond its first army's: 7.4's second
    army and the chaos blocks, 7.3's Kuraco."""
    run = state.get("scenario") or {}
    kinds, spells = [], []
    for army in run.get("armies", {}).get(str(seat), [])[1:]:
        kinds += armies()[army].kinds
        spells += armies()[army].spells
    if _rule(state, "chaos"):
        kinds += extras().chaos
    if heal_spell(state) is not None:
        spells.append(heal_spell(state))
    return kinds, spells


def restrict_build(state: dict, seat: int, actions: list[dict]) -> list[dict]:
    """D46: where a scenario is won by destroying castles (7.1, 7.2, 7.4), a castle is never
    disbanded nor combined away by its own side (6.5): only the enemy destroys it."""
    if not (_rule(state, "castle_goal") or _rule(state, "castle_falls_army")):
        return actions
    blocks = state["drafts"][str(seat)]["blocks"]

    def castle(bid) -> bool:
        return bid in blocks and kind_of(blocks[bid]["kind"]).castle
    return [a for a in actions if not (a["type"] == "disband" and castle(a["block"])
                                       or a["type"] == "combine" and castle(a["from"]))]


def build_phase(state: dict) -> bool:
    """6.0 in a scenario: 7.3 "Ĉiu magiisto rehavas 2 paŝojn dum la konstrufazo. Nenia
    konstruado okazas" (the henge's step, 6.6, is given by the rules as ever). False: nobody
    builds."""
    regain = _rule(state, "wizard_regain", 0)
    for blk in state["blocks"].values():
        kind = kind_of(blk["kind"])
        if regain and kind.wizard:
            blk["steps"] = min(kind.max, blk["steps"] + regain)
    return not _rule(state, "no_build")


# -- victory -----------------------------------------------------------------------------------

def verdict(state: dict, moment: str) -> str | None:
    """Has the scenario been decided? ``moment``: "battle" (after each battle) or "turn" (at the
    end of a turn). Sets the winner (None: a draw) and returns the end's reason."""
    run = state["scenario"]
    goal = _rule(state, "castle_goal")
    if goal and not _has(state, goal["owner"], goal["castle"]):
        run["winner"] = goal["winner"]                 # 7.1, 7.2: the castle is destroyed
        return "castle destroyed"
    cities = _rule(state, "cities_goal")
    if cities and moment == "turn" and state["turn"] > cities["after_turn"]:
        held = sum(1 for h in state["city_owner"] if controller(state, h) == cities["seat"])
        if held >= cities["cities"]:
            run["winner"] = cities["seat"]             # 7.2: five cities after turn 5
            return "cities held"
    if _rule(state, "castle_falls_army"):
        return _castles_fall(state)
    return None


def _has(state: dict, seat: int, kind: str) -> bool:
    return any(b["owner"] == seat and b["kind"] == kind for b in state["blocks"].values())


def _castles_fall(state: dict) -> str | None:
    """7.4 (D50, D51): an army whose castle is gone leaves the board with all its blocks; a
    seat whose two armies fell has lost."""
    run = state["scenario"]
    for seat in live_seats(state):
        for army in run["armies"][str(seat)]:
            if army in run["fallen"] or _has(state, seat, f"{army}/castle"):
                continue
            run["fallen"].append(army)
            for bid in sorted(b for b, blk in state["blocks"].items()
                              if blk["owner"] == seat and blk["kind"].startswith(army + "/")):
                remove(state, bid, killed=False)
            _log(state, {"fallen": army, "seat": seat})
    beaten = [s for s in live_seats(state)
              if all(a in run["fallen"] for a in run["armies"][str(s)])]
    if not beaten:
        return None
    standing = [s for s in live_seats(state) if s not in beaten]
    run["winner"] = standing[0] if len(standing) == 1 else None
    return "castles destroyed"


def scores(state: dict, reason: str) -> list[int]:
    """A decided scenario: 1 for the winner, 0 for the other (both 0: a draw); at the turn
    limit the scenario's measure (``limit_scores``)."""
    run = state["scenario"]
    if reason == "last army standing":
        live = live_seats(state)
        run["winner"] = live[0] if live else None
    if reason == "turn limit":
        if "limit_winner" in scenario_of(state).rules:
            run["winner"] = _rule(state, "limit_winner")
        return limit_scores(state)
    return [int(s == run["winner"]) for s in range(state["players"])]


def limit_scores(state: dict) -> list[int]:
    """The scores the turn limit would give as the scenario stands (it changes nothing): 7.1
    the Undead win, 7.2 a draw (``limit_winner``), 7.3 gold in blocks, 7.4 100 a fallen enemy
    army, then city gold (D52); a seat that left scores 0."""
    players = range(state["players"])
    live = live_seats(state)
    if "limit_winner" in scenario_of(state).rules:
        winner = _rule(state, "limit_winner")
        return [int(s == winner) for s in players]
    measure = _rule(state, "limit_score")
    if measure == "block_gold":
        return [sum(b["steps"] * kind_of(b["kind"]).cost for b in state["blocks"].values()
                    if b["owner"] == s) if s in live else 0 for s in players]
    fallen = set(state["scenario"]["fallen"])
    return [100 * sum(1 for a in fallen if a not in state["scenario"]["armies"].get(str(s), ()))
            + city_gold(state, s) if s in live else 0 for s in players]


# -- views -------------------------------------------------------------------------------------

def view(state: dict) -> dict | None:
    """The public facts of the scenario (the same for every seat)."""
    run = state.get("scenario")
    if run is None:
        return None
    s = scenario_of(state)
    return {"key": s.key, "section": s.section, "title": s.title,
            "rules": sorted(s.rules), "stage": run["stage"], "first": run["first"],
            "choosing": dict(run["queue"][0]) if run["queue"] else None,
            "armies": {k: list(v) for k, v in sorted(run["armies"].items())},
            "capitals": dict(sorted(run["capitals"].items())), "fallen": list(run["fallen"]),
            "heal": None if run["heal"] is None else dict(run["heal"]),
            "winner": run["winner"]}


def draft_view(draft: dict) -> dict:
    """A placement draft's own fields, for its seat only."""
    if "to_place" not in draft:
        return {}
    return {"to_place": [list(p) for p in draft["to_place"]], "area": list(draft["area"]),
            "cover": draft["cover"]}


def block_bound(options, players: int) -> int:
    """The most blocks a seat can have on the board, for max_events (D13)."""
    s = scenarios().get(getattr(options, "scenario", ""))
    if s is not None and "pick_armies" in s.rules:
        return 2 * 8 + len(extras().chaos)
    return 8


def map_count(options, players: int) -> int:
    s = scenarios().get(getattr(options, "scenario", ""))
    return max(players, len(s.maps)) if s is not None else players


def setup_events(options, players: int) -> int:
    """The set-up events of a scenario: a draw, the choices, one placement a block."""
    return 2 + 2 * players + players * block_bound(options, players)


def _log(state: dict, entry: dict) -> None:
    state["log"].append({"turn": state["turn"], **entry})
    del state["log"][:-40]
