"""Wizard Kings, after the rulebook shared/rulebooks/wizard-kings.eo.md: the hex block wargame of
2-7 wizard kings. Clauses are cited by the rulebook's section numbers ("4.6"); where the text is
silent or contradicts itself a decision D1..Dn decides, listed in docs/rules/wizard-kings.md.

Each turn has four phases: initiative (4.1), movement in player order (4.2), battles in attacker
order (5.1), and simultaneous secret building (6.0). Blocks stand on end: an opponent sees where
a block is but not its kind or strength until a battle reveals it (2.0, 5.1).

Modules: ``board`` (maps as data, the hex grid), ``content`` (armies and spells as data),
``state`` (queries), ``movement`` (4.x), ``battle`` (5.x), ``build`` (6.x and 1.22), ``rules``
(the flow of a match), this module (the engine contract: options, checks with reasons, views),
``determinize`` (a state drawn from a seat's view), ``bots`` (the heuristic bot).
"""
from __future__ import annotations

import dataclasses
import json
import pickle
from dataclasses import dataclass
from functools import lru_cache

from games.engine.bots import RandomBot
from games.engine.dict_ruleset import DictRuleset
from games.engine.protocol import Event, GameSpec, IllegalAction, InvalidOptions, option
from games.engine.registry import register

from . import determinize, rules, scenarios
from .build import copy_block
from .board import TURNED, MapError, board_of
from .content import army_keys, armies, extras
from .state import controller, moon

SPEC = GameSpec(name="wizard-kings", title="Wizard Kings", version=4, min_players=2,
                max_players=7, chance=True, hidden_information=True, simultaneous=True,
                rulebook="wizard-kings.eo.md")

ACTION_KEYS = {
    "move": ({"type", "block", "to"}, {"via", "side", "by"}), "cast": ({"type", "block", "spell"},
                                                                 {"target", "to"}),
    "done": ({"type"}, set()), "recruit": ({"type", "kind", "hex"}, set()),
    "add": ({"type", "block"}, set()), "combine": ({"type", "from", "to"}, set()),
    "disband": ({"type", "block"}, set()), "fire": ({"type", "block"}, set()),
    "pass": ({"type", "block"}, set()), "retreat": ({"type", "block", "to"}, set()),
    "berserk": ({"type", "block"}, set()), "rite": ({"type", "block", "rite"}, {"target"}),
    "hit": ({"type", "block"}, set()), "dispel": ({"type"}, set()), "let": ({"type"}, set()),
    "stay": ({"type"}, set()), "switch": ({"type"}, set()), "pursue": ({"type"}, set()),
    "no_pursuit": ({"type"}, set()), "regroup": ({"type", "block", "to"}, set()),
    "army": ({"type", "army"}, set()), "map": ({"type", "map"}, set()),
    "capital": ({"type", "army", "hex"}, set()), "place": ({"type", "kind", "steps", "hex"}, set()),
    "spend": ({"type", "block"}, set()), "arm": ({"type", "artefact", "block"}, set()),
    "charge": ({"type", "block"}, set()), "hand": ({"type", "from", "to"}, set()),
    "drop": ({"type", "block"}, set()), "take": ({"type", "block", "artefact"}, set()),
    "wield": ({"type", "block"}, set()), "invoke": ({"type", "block", "spell"}, {"target"}),
    "wait": ({"type", "block"}, set()), "keep": ({"type"}, set()),
}


@dataclass(frozen=True)
class Options:
    """The variants; every default is the rulebook's value or a documented decision."""

    armies: str = option("", "1.22, 2.0: the armies by seat, comma-separated (amazons, "
                         "barbarians, dwarves, elves, feudals, orcs, undead); empty: drawn")
    maps: str = option("", "1.21: the maps by seat, left to right, comma-separated (10-16); "
                       "empty: drawn from the custom-game set")
    turn_limit: int = option(0, "1.23 (D12): the last turn; then the gold of the cities each "
                             "army holds decides. 0: the rulebook's, 10 turns with more than two "
                             "players (and in a scenario), none for two players, who play to the "
                             "victory gold (a safety bound of 40 turns); 10: version 2's default, "
                             "every game ends after 10 turns", min=0, max=40)
    victory_gold: int = option(-1, "1.23: city gold that wins at the end of a turn; -1: 15 for "
                               "two players on two maps (7.5 a map), none with more players; "
                               "0: none", min=-1, max=200)
    scoring: str = option("cities", "1.23: the score at the turn limit: the gold of the cities "
                          "held, or the gold gathered at every build ('accumulated')",
                          choices=("cities", "accumulated"))
    forest_border: int = option(1, "footnote 6 (D4): blocks a forest hexside lets into an "
                                "enemy hex a turn", choices=(1, 2))
    army_gold: int = option(50, "1.22: the gold each army is recruited with", min=20, max=200)
    allies_switch: bool = option(True, "4.9: an ally may change sides at each combat round")
    scenario: str = option("", "1.1, 7.0: a scenario instead of a custom game: "
                           "'island-of-the-dead' (7.1), 'barbarian-attack' (7.2), "
                           "'last-wizard-standing' (7.3), 'alliance-spread' (7.4); empty: a "
                           "custom game (1.2)", choices=("", "island-of-the-dead",
                                                         "barbarian-attack", "last-wizard-standing",
                                                         "alliance-spread"))
    expansion: bool = option(False, "2.0, footnote 3: the Heroes & Treasures blocks: two more "
                             "per army and seven chaos blocks any army may add; silver and gold "
                             "treasure (2.6) and each army's two artefacts (2.7)")
    capture_artefacts: bool = option(False, "footnote 5 (D35): an artefact whose carrier is "
                                     "eliminated lies in the hex and any army may take it; a "
                                     "captured one casts only its own army's spells and breaks "
                                     "on a 6 after each use")
    east_map: str = option("turned", "1.21 (D1): with two players the east map (seat 1's) is "
                           "laid turned half round, so that the layout favours neither seat; "
                           "'printed': both maps as printed (versions 1-3)",
                           choices=("turned", "printed"))


# -- checking ------------------------------------------------------------------------------------

def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _spelling(action) -> str:
    return json.dumps(action, sort_keys=True)


def _same_json(a, b) -> bool:
    """Do ``a`` and ``b`` (equal by ==) spell the same JSON (``_spelling``)? Where both hold
    the same types throughout, they do, without writing either (a check of every event asks);
    elsewhere (True against 1, 1.0 against 1, a float) their spellings decide."""
    if type(a) is not type(b) or type(a) is float:
        return _spelling(a) == _spelling(b)
    if type(a) is dict:
        return a.keys() == b.keys() and all(_same_json(value, b[key]) for key, value in a.items())
    if type(a) is list:
        return len(a) == len(b) and all(map(_same_json, a, b))
    return True if type(a) in (str, int, bool) or a is None else _spelling(a) == _spelling(b)


def refusal(state: dict, seat, action) -> str | None:
    """Why ``action`` is not legal for ``seat`` now (None: it is); never raises on any JSON."""
    if type(seat) is not int or seat not in rules.acting_seats(state):
        return f"seat {_short(seat)} does not act now"
    return actor_refusal(state, seat, action)


def actor_refusal(state: dict, seat: int, action) -> str | None:
    """``refusal`` for a seat known to act now (``WizardKings.act_in_place`` has asked
    ``acting_seats`` already: a validation asks once per action, not twice)."""
    if not isinstance(action, dict) or type(action.get("type")) is not str:
        return f"an action is a JSON object with a string 'type', got {_short(action)}"
    if rules.surely_legal(state, seat, action):          # a move asked of itself, not listed
        return None
    legal = rules.actor_options(state, seat, action)
    if action in legal and any(_same_json(a, action) for a in legal if a == action):
        return None                                     # (as JSON: True is not 1)
    legal = rules.actor_options(state, seat)            # refused: reasons from the whole list
    possible = sorted({a["type"] for a in legal})
    if action["type"] not in possible:
        return f"{_short(action['type'])} is not possible now ({_decision(state)}); possible: {possible}"
    required, optional = ACTION_KEYS[action["type"]]
    if not required <= set(action) <= required | optional:
        return (f"a {action['type']} action has the keys {sorted(required)}"
                + (f" and may have {sorted(optional)}" if optional else ""))
    for key in set(action) - {"type", "steps"}:
        if type(action[key]) is not str:
            return f"{key} must be a string (a block id, a hex, a kind, a spell), got {_short(action[key])}"
    bid = action.get("block")
    if bid is not None and action["type"] not in ("recruit",):
        mine = _blocks_of(state, seat)
        if bid not in mine:
            return f"{_short(bid)} is not a block of yours on the board"
        same = [a for a in legal if a.get("block") == bid and a["type"] == action["type"]]
        if not same:
            return f"block {bid} cannot {action['type']} now ({_decision(state)})"
        if action["type"] in ("move", "retreat", "regroup"):
            targets = sorted({a["to"] for a in same})
            if action["to"] not in targets:
                return f"block {bid} cannot {action['type']} to {_short(action['to'])}; it can reach {targets}"
            return ("that move needs 'via' (the hex it enters from) and, joining a battle of "
                    f"others, 'side'; legal: {[a for a in same if a['to'] == action['to']][:4]}")
    return f"{_short(action)} is not legal now ({_decision(state)})"


def _blocks_of(state: dict, seat: int) -> set[str]:
    draft = state["drafts"].get(str(seat))
    if draft is not None:
        return set(draft["blocks"])
    return {b for b, blk in state["blocks"].items() if blk["owner"] == seat}


def _decision(state: dict) -> str:
    if state["phase"] == "battle" and state["battle"] is not None:
        return f"battle at {state['battle']['hex']}: {state['battle']['step']}"
    return state["phase"]


# -- views --------------------------------------------------------------------------------------

# What a seat did in its draft that limits what it may still do (6.5: a block that gave a step
# takes none; D34: gold is not bought back; 2.7: one hand-over and one take an artefact): its
# own choices, so its view keeps them (perfect recall).
DRAFT_LISTS = ("gave", "got", "spent", "bought", "handed", "took")


def _board_view(maps: tuple[str, ...]) -> dict:
    """The board as data for the views (static for a match)."""
    b = board_of(maps)
    rows = ["".join(next(k for k, v in {"c": "clear", "d": "desert", "f": "forest", "s": "swamp",
                                        "m": "mountain", "p": "pass", "w": "water"}.items()
                         if v == b.terrain[f"{c:02d}{r:02d}"])
                    for c in range(b.width * len(maps))) for r in range(b.height)]
    return {"maps": list(maps), "width": b.width * len(maps), "height": b.height,
            "terrain": rows,
            "cities": {h: {"name": c.name, "gold": c.gold} for h, c in sorted(b.cities.items())},
            "henges": sorted(b.henges), "coast": sorted(b.coast), "shoals": sorted(b.shoals),
            "rivers": sorted(b.rivers), "bridges": sorted(b.bridges), "roads": sorted(b.roads),
            "walls": sorted(b.walls), "gates": sorted(b.gates),
            "waterfalls": sorted(b.waterfalls), "names": dict(sorted(b.names.items()))}


_BOARDS: dict[tuple, bytes] = {}


def board_view(maps, *, shared: bool = False) -> dict:
    """The board of ``maps`` as view data (a fresh copy of a cached one; ``shared``: the cached
    one itself, for ``seat_view``'s parts)."""
    key = tuple(maps)
    if shared:
        return _shared_board(key)
    if key not in _BOARDS:
        _BOARDS[key] = pickle.dumps(_board_view(key), pickle.HIGHEST_PROTOCOL)
    return pickle.loads(_BOARDS[key])


@lru_cache(maxsize=64)
def _shared_board(maps: tuple) -> dict:
    return _board_view(maps)


def _tag(bid: str, blk: dict) -> str:
    """The private fact a block hides from the other seats: its id and kind together."""
    return f"{bid}:{blk['kind']}"


def _block_view(state: dict, bid: str, blk: dict, seat: int | None) -> dict:
    """A block as ``seat`` sees it: its own in full; another's position, and its kind once a
    battle revealed it (2.0, 5.1); strength only in the battle under way."""
    view = {"id": bid, "owner": blk["owner"], "hex": blk["hex"], "moved": blk["moved"]}
    fighting = state["battle"] is not None and blk["hex"] == state["battle"]["hex"]
    art = blk.get("artefact")
    view["armed"] = bool(art)                           # 2.7: an artefact block stands by it
    if seat == blk["owner"]:
        view.update(kind=blk["kind"], steps=blk["steps"], known=blk["known"], cast=blk["cast"])
        if not blk["known"]:
            view["tag"] = _tag(bid, blk)
        if art:
            view["artefact"] = _artefact_view(bid, art, full=True)
    else:
        if blk["known"]:                                # a block regrouped into a battle hex
            view["kind"] = blk["kind"]                  # after its start stays face down
            view["cast"] = blk["cast"]                  # casting shows the wizard (D14)
            if fighting:
                view["steps"] = blk["steps"]
        if art and art["known"]:
            view["artefact"] = _artefact_view(bid, art, full=fighting)
    return view


def _artefact_view(bid: str, art: dict, *, full: bool) -> dict:
    """An artefact: its key once shown (D38), its charges to its owner and in its battle."""
    view = {"key": art["key"], "known": art["known"]}
    if full:
        view["steps"] = art["steps"]
    if not art["known"]:
        view["tag"] = _artefact_tag(bid, art)
    return view


def _artefact_tag(bid: str, art: dict) -> str:
    """The private fact an unshown artefact hides: which block carries which artefact."""
    return f"{bid}:{art['key']}"


def _battle_view(state: dict) -> dict | None:
    battle = state["battle"]
    if battle is None:
        return None
    hits = battle["hits"]
    return {"hex": battle["hex"], "round": battle["round"], "step": battle["step"],
            "attacker": battle["attacker"], "defender": battle["defender"],
            "sides": {k: v for k, v in sorted(battle["sides"].items())},
            "entered": {k: list(v) for k, v in sorted(battle["entered"].items())},
            "turns": list(battle["turns"]), "current": battle["current"],
            "hits": None if hits is None else {"left": hits["left"], "by": hits["by"],
                                                "spell": hits["spell"],
                                                "among": list(hits.get("among", [])),
                                                "seat": hits["seat"], "target": hits["target"],
                                                "chooser": hits.get("chooser")},
            "cast": None if battle["cast"] is None else dict(battle["cast"]),
            "dispellers": [a for a in battle["asked"] if isinstance(a, str)],
            "switching": [a for a in battle["asked"] if isinstance(a, int)],
            "retreats": dict(sorted(battle["retreats"].items())),
            "roll": _clone(battle["roll"]),
            "forced": list(battle["forced"]), "pursuit": battle["pursuit"],
            "winner": battle["winner"], "holder": battle["holder"],
            "regrouped": list(battle["regrouped"]), "arming": list(battle.get("arming", [])),
            "late": list(battle.get("late", []))}


def public_view(state: dict, seat: int | None = None) -> dict:
    """What ``seat`` (None: everyone) sees; never another seat's block kinds or its build."""
    maps = state["maps"]
    blocks = _blocks_view(state, seat)
    view = {
        "game": "wizard-kings", "turn": state["turn"], "phase": state["phase"],
        "to_act": rules.acting_seats(state), "players": state["players"],
        "options": dict(state["options"]), "armies": list(state["armies"]),
        "board": board_view(maps) if maps else None,
        "cities": _cities_view(state),
        "order": list(state["order"]),
        "mover": state["order"][state["mover"]] if state["phase"] == "move" else None,
        "initiative": {k: v for k, v in sorted(state["initiative"]["rolls"].items())},
        "blocks": blocks,
        "fights": {h: {"attacker": f["attacker"], "defender": f["defender"],
                       "sides": dict(sorted(f["sides"].items())),
                       "entered": {k: list(v) for k, v in sorted(f["entered"].items())},
                       "crossed": {k: list(v) for k, v in sorted(f.get("crossed", {}).items())}}
                   for h, f in sorted(state["fights"].items())},
        "new_blocks": [_new_block_view(blk, seat) for blk in state["new_blocks"]],
        "battle": _battle_view(state), "queue": list(state["queue"]),
        "lying": {h: [dict(a) for a in items] for h, items in sorted(state.get("lying", {}).items())},
        "building": (rules.build.waiting(state) if state["phase"] in ("recruit", "build", "place")
                     else []),
        "dead": [list(d) for d in state["dead"]], "forfeited": list(state["forfeited"]),
        "points": list(state["points"]), "victory_gold": rules.victory_gold(state),
        "moon": moon(state),
        "log": _clone(state["log"]),
        "scores": None if state["scores"] is None else list(state["scores"]),
        "end_reason": state["end_reason"],
        "scenario": scenarios.view(state),
        "chaos": sorted({b["kind"] for b in [*state["blocks"].values(), *state["new_blocks"]]
                         if b["kind"].startswith("chaos/")}),
        "next_id": state["next_id"], "rerolls": state["initiative"]["rerolls"],
        "ports": {k: list(v) for k, v in sorted(state["ports"].items())},
        "port_use": dict(sorted(state["port_use"].items())),
    }
    view["new_blocks"].sort(key=lambda b: json.dumps(b, sort_keys=True))
    return view


def _blocks_view(state: dict, seat: int | None) -> list[dict]:
    return [_block_view(state, bid, blk, seat) for bid, blk in sorted(state["blocks"].items())]


def _cities_view(state: dict) -> dict:
    return {h: {"owner": state["city_owner"][h], "controller": controller(state, h),
                "gold": state["gold"].get(h, 0)} for h in sorted(state["city_owner"])}


def _new_block_view(blk: dict, seat: int | None) -> dict:
    """A block the reveal put on the board that the ids shuffle has still to name (6.0): where
    it stands for everyone, its kind and strength for its owner."""
    view = {"owner": blk["owner"], "hex": blk["hex"], "armed": bool(blk.get("artefact"))}
    if seat == blk["owner"]:
        view.update(kind=blk["kind"], steps=blk["steps"])
        if blk.get("artefact"):
            art = blk["artefact"]
            view["artefact"] = {"key": art["key"], "known": art["known"], "steps": art["steps"]}
    return view


@lru_cache(maxsize=256)
def _army_lists(army: str, expansion: bool, more_kinds: tuple, more_spells: tuple) -> dict:
    """An army's lists as a seat's view shows them (with a scenario's extra kinds and spells,
    7.3, 7.4); built once, handed out as copies (``seat_view``)."""
    a = armies()[army]
    kinds = a.kinds
    if expansion:
        kinds = kinds + extras().expansion.get(army, ()) + extras().chaos
    kinds, spells = tuple(kinds) + more_kinds, tuple(a.spells) + more_spells
    artefacts = extras().artefacts.get(army, ()) if expansion else ()
    if expansion:
        kinds = kinds + extras().treasure
    return {"key": army, "kinds": {k.key: {"name": k.name, "rating": k.rating, "max": k.max,
                                           "move": k.move, "cost": k.cost, "count": k.count,
                                           "traits": sorted(k.traits),
                                           **({"rites": list(k.rites)} if k.rites else {})}
                                   for k in kinds},
            "spells": {s.key: {"name": s.name, "level": s.level, "phase": s.phase,
                               "effect": s.effect,
                               **{p: getattr(s, p) for p in ("dice", "fire", "steps", "range")
                                  if getattr(s, p)}} for s in spells},
            "artefacts": {i.key: {"name": i.name, "type": i.type, "rating": i.rating,
                                  "max": i.max, "cost": i.cost} for i in artefacts}}


def seat_view(state: dict, seat: int, *, keys=None) -> dict:
    """The public view plus the seat's own blocks in full, its army's lists and its draft.

    ``keys``: only these parts of it (of ``PARTS``), each equal to the whole view's, the board
    not a copy: for a caller that reads the view at once and changes nothing, the search bot's
    playouts, where its heuristic bots read six parts of thirty-six (``HeuristicBot.READS``)
    and the whole view was a quarter of a playout's time."""
    if keys is not None:
        return {key: PARTS[key](state, seat) for key in keys}
    view = public_view(state, seat)
    army = state["armies"][seat]
    view["seat"] = seat
    if army is not None:
        more_kinds, more_spells = scenarios.seat_kinds(state, seat)     # 7.3, 7.4
        view["army"] = _clone(_army_lists(army, bool(state["options"]["expansion"]),
                                          tuple(more_kinds), tuple(more_spells)))
    view["draft"] = _draft_view(state, seat)
    return view


def _draft_view(state: dict, seat: int) -> dict | None:
    draft = state["drafts"].get(str(seat))
    return None if draft is None else {
        "setup": draft["setup"], "done": draft["done"], "gold": dict(sorted(draft["gold"].items())),
        "blocks": [{"id": bid, "kind": blk["kind"], "steps": blk["steps"], "hex": blk["hex"],
                    **({"tag": _tag(bid, blk)} if not blk["known"] else {}),
                    **({"artefact": _artefact_view(bid, blk["artefact"], full=True)}
                       if blk.get("artefact") else {})}
                   for bid, blk in sorted(draft["blocks"].items())],
        "dropped": [dict(d) for d in draft.get("dropped", ())],
        **{key: list(draft[key]) for key in DRAFT_LISTS if key in draft},
        "new": draft["new"],
        **scenarios.draft_view(draft)}


# The parts of a seat's view that ``seat_view(state, seat, keys=...)`` builds alone.
PARTS = {
    "phase": lambda state, seat: state["phase"],
    "turn": lambda state, seat: state["turn"],
    "seat": lambda state, seat: seat,
    "cities": lambda state, seat: _cities_view(state),
    "blocks": _blocks_view,
    "board": lambda state, seat: board_view(state["maps"], shared=True) if state["maps"] else None,
    "battle": lambda state, seat: _battle_view(state),
    "draft": _draft_view,
}


# -- the ruleset --------------------------------------------------------------------------------

# The phases where ``act_in_place`` asks ``acting_seats`` alone: no chance is due in them
# without a scenario (rules.chance_spec), and "over" is not one of them.
_ACT_PHASES = frozenset(("recruit", "build", "move"))


class WizardKings(DictRuleset):
    """The engine contract for Wizard Kings (the shell: games/engine/dict_ruleset.py)."""

    spec = SPEC
    Options = Options
    chance_spec = staticmethod(rules.chance_spec)
    acting_seats = staticmethod(rules.acting_seats)
    refusal = staticmethod(refusal)
    chance_outcome = staticmethod(rules.chance_outcome)
    forfeit = staticmethod(rules.forfeit)
    before_event = staticmethod(rules.forget_listings)
    public_view = staticmethod(public_view)
    seat_view = staticmethod(seat_view)

    def check_options(self, players: int, options: Options) -> None:
        """Armies and maps are dealt by chance unless the options name them (1.21, 1.22)."""
        conflict = scenarios.option_conflict(dataclasses.asdict(options), players)
        if conflict is not None:
            raise InvalidOptions(conflict)
        _check_lists(options, players)

    def new_state(self, players: int, options: dict) -> dict:
        state = rules.new_state(players, options)
        rules.advance(state)
        return state

    def score_now(self, state: dict) -> list[int]:
        """1.23 (D12): the scores were the game ended now (``rules.standing_scores``): the gold
        of the cities each seat holds, which both the victory gold and the turn limit count (or
        the points gathered, or a scenario's turn-limit measure, 7.1-7.4, D52); a forfeited
        seat below all (D11)."""
        scores = rules.standing_scores(state)
        return [-1 if s in state["forfeited"] else score for s, score in enumerate(scores)]

    def legal_actions(self, state: dict, seat: int) -> list:
        if type(seat) is not int or seat not in rules.acting_seats(state):
            return []
        return rules.options_for(state, seat)

    def decide(self, state: dict, seat: int, action) -> None:
        """``rules.decide`` of a copy of the action (by ``_copy``, a JSON value), as ``apply``
        always did: the event (a record, a search's stored move) must not change with a state
        that may keep parts of it."""
        rules.decide(state, seat, _copy(action))

    def act_in_place(self, state: dict, seat: int, payload: dict) -> dict:
        """Ruleset.act_in_place (optional), in one call: ``check_action``'s refusal and
        ``apply_in_place`` of the action (every action of a validation). In recruiting,
        building and a move phase without a scenario no chance is ever due (``chance_spec``)
        and the match has not ended, so ``next`` is the acting seats and ``check_action``'s
        first questions come down to one ``acting_seats``; anything else takes the two calls."""
        action = payload["action"]
        if (type(seat) is int and state["phase"] in _ACT_PHASES
                and state.get("scenario") is None and seat in rules.acting_seats(state)):
            reason = actor_refusal(state, seat, action)
            if reason is not None:
                raise IllegalAction(reason)
        else:
            self.check_action(state, seat, action)
        return self.apply_in_place(state, Event("action", seat, payload))

    def clone(self, state: dict) -> dict:
        return clone_state(state)

    def determinize(self, view: dict, seat: int, rng) -> dict:
        """Everything the seat does not see drawn with ``rng`` (module ``determinize``)."""
        return determinize.determinize(view, seat, rng)

    def encode(self, state: dict) -> dict:
        return _clone(state)

    def decode(self, data: dict) -> dict:
        return _clone(data)

    def edition(self, version: int):
        """Versions 1 (before a fight recorded which block came in through which hexside),
        2 (before issue 38's pass rules) and 3 (before two players' east map was turned, D1)
        for the matches stored under them (editions.py)."""
        if version in (1, 2, 3):
            from .editions import WIZARD_KINGS_V1, WIZARD_KINGS_V2, WIZARD_KINGS_V3
            return {1: WIZARD_KINGS_V1, 2: WIZARD_KINGS_V2, 3: WIZARD_KINGS_V3}[version]
        return super().edition(version)

    # -- hooks ------------------------------------------------------------------------------
    def hidden_items(self, state: dict, seat: int | None) -> set[str]:
        """A seat: the id and kind of each of its blocks no battle has revealed, and of the
        blocks of its draft; None: nothing (no deck; the ids' shuffle is never shown)."""
        if seat is None:
            return set()
        items = {_tag(bid, blk) for bid, blk in state["blocks"].items()
                 if blk["owner"] == seat and not blk["known"]}
        items |= {_artefact_tag(bid, blk["artefact"]) for bid, blk in state["blocks"].items()
                  if blk["owner"] == seat and blk.get("artefact") and not blk["artefact"]["known"]}
        draft = state["drafts"].get(str(seat))
        if draft is not None:
            items |= {_tag(bid, blk) for bid, blk in draft["blocks"].items() if not blk["known"]}
            items |= {_artefact_tag(bid, blk["artefact"]) for bid, blk in draft["blocks"].items()
                      if blk.get("artefact") and not blk["artefact"]["known"]}
        return items

    @staticmethod
    def max_events(players: int, options: Options) -> int:
        """A true bound on the log: every loop of a turn is bounded (see docs, D13)."""
        blocks = scenarios.block_bound(options, players) * players   # 2.0: eight an army
        if options.expansion:                      # two more, three treasure, the chaos pool
            blocks += 5 * players + 7
        per_turn_turns = 4 * blocks                # four rounds, one turn a block a round
        # a turn: its act, dice, dispels, hits, forced retreats, and (2.7) a wait and a curse
        per_block_turn = 1 + 1 + 12 + 2 * blocks + 2 * blocks + 2 + 2
        battles = blocks                           # a battle needs a block in its hex
        battle = per_turn_turns * per_block_turn + 2 * players + 2 + 2 * blocks + 3 * players
        turns = rules.last_turn(dataclasses.asdict(options), players)    # 1.23 (D12)
        gold = (10 * scenarios.map_count(options, players) * (turns + 1)
                + options.army_gold * players)
        # 2.6-2.7: a spend a treasure step (12 an army), a hand-over and a drop an artefact (2
        # an army), a take a lying artefact (at most 14); arming and charging are paid in gold
        build = gold + 4 * blocks * 2 + 2 * blocks + players + 1 + players * (12 + 4 + 14)
        move = players * (3 * blocks + 1)           # a move, or a cast and its die (7.3)
        turn = rules.MAX_REROLLS + 2 + move + battles * battle + build + 1
        setup = scenarios.setup_events(options, players)
        return 4 + players + options.army_gold * players + blocks + setup + turns * turn

    # -- hooks of the balance benchmark ------------------------------------------------------
    @staticmethod
    def seat_roles(state: dict) -> list[str | None]:
        """What sets the seats apart: their armies (2.0)."""
        return list(state["armies"])

    @staticmethod
    def seat_positions(state: dict) -> list[int]:
        """Seats in seat order (initiative changes the order of play every turn, 4.1)."""
        return list(range(state["players"]))

    @staticmethod
    def ended_by_bound(state: dict) -> bool:
        """The turn limit, not a victory, ended the match (two players only; with more the
        turn limit is the rulebook's own end, 1.23)."""
        return state.get("end_reason") == "turn limit" and rules.victory_gold(state) > 0

    @staticmethod
    def conformance_options() -> list[dict]:
        """The variants the conformance suite plays besides the defaults: the Heroes & Treasures
        content with footnote 5's capture (2.5-2.8), and every scenario."""
        return [{"expansion": True, "capture_artefacts": True}, *scenarios.conformance_options()]

    def builtin_bots(self) -> dict[str, type]:
        from .bots import HeuristicBot
        from .undead import UndeadBot
        return {"random": RandomBot, "heuristic": HeuristicBot, "undead": UndeadBot}

    def bots(self) -> dict[str, type]:
        """Ruleset.bots, with this game's own search as ``search`` (games/wizard_kings/search.py:
        policy switching over ways to move)."""
        from .search import WizardKingsSearchBot
        return {**super().bots(), "search": WizardKingsSearchBot}


def _clone(state: dict) -> dict:
    """A deep copy of a JSON state (pickle copies plain dicts and lists three times faster than
    copy.deepcopy or a JSON round trip)."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


# How ``clone_state`` copies a state's keys (the rest, battle, fights, initiative, lying,
# new_blocks and a scenario's, through one pickle round trip):
_FLAT = frozenset(("armies", "city_owner", "forfeited", "gold", "maps", "options", "order",
                   "points", "port_use", "queue", "scores"))  # plain values in a list or dict
_ROWS = frozenset(("at", "ports", "dead"))  # lists of plain values, in a dict or a list


def clone_state(state: dict) -> dict:
    """``clone`` of a state (what ``apply`` copies, bench/search.py), key for key in its order:
    the flat lists and dicts by slicing, the hexes' ids and the ports row by row, the blocks
    (``build.copy_block``) and drafts one by one, the log's list with its entries shared, the
    rest through one pickle round trip (``_clone``). A log entry is never changed once written (each
    ``_log`` writes a fresh dict; tests/games/test_wizard_kings_fast_paths.py holds every apply
    to that), so two states may share them as they would share equal copies: the log was half
    of what a whole pickle copied."""
    copy, nested = {}, {}
    for key, value in state.items():
        if key in _FLAT:
            copy[key] = None if value is None else value.copy()
        elif key in _ROWS:
            copy[key] = ({k: row.copy() for k, row in value.items()} if type(value) is dict
                         else [row.copy() for row in value])
        elif key == "blocks":
            copy[key] = {bid: copy_block(block) for bid, block in value.items()}
        elif key == "drafts":
            copy[key] = {seat: _copy_draft(draft) for seat, draft in value.items()}
        elif key == "log":
            copy[key] = value.copy()
        elif type(value) is dict or type(value) is list:
            copy[key] = nested[key] = value             # copied below, in its place
        else:
            copy[key] = value
    if nested:
        copy.update(_clone(nested))
    return copy


# A draft's lists of ids and keys and its gold by hex: plain values (build.decide), sliced
_DRAFT_FLAT = frozenset(("gold", "gave", "got", "spent", "bought", "handed", "took"))


def _copy_draft(draft: dict) -> dict:
    """A copy of a seat's draft (build.fresh_draft): its blocks as blocks are copied, its
    lists of plain values and the gold by slicing, anything else by ``_copy``."""
    copied = draft.copy()
    for key, value in draft.items():
        if key == "blocks":
            copied[key] = {bid: copy_block(block) for bid, block in value.items()}
        elif key in _DRAFT_FLAT:
            copied[key] = value.copy()
        elif type(value) is dict or type(value) is list:
            copied[key] = _copy(value)
    return copied


def _copy(value):
    """A deep copy of a small JSON value (an action): for a few keys, faster than ``_clone``'s
    pickling, which was a tenth of a search playout's ``apply``). Only the lists and dicts
    inside are copied again: most actions hold strings alone, and a fold copies every one."""
    if type(value) is dict:
        copy = value.copy()
        for key, item in copy.items():
            if type(item) is dict or type(item) is list:
                copy[key] = _copy(item)
        return copy
    if type(value) is list:
        return [_copy(item) if type(item) is dict or type(item) is list else item
                for item in value]
    return value


def _check_lists(options: Options, players: int) -> None:
    """The armies and maps options, when given, must name one known item per seat."""
    if options.armies:
        names = options.armies.split(",")
        known = army_keys()
        if len(names) != players or len(set(names)) != players or not set(names) <= set(known):
            raise InvalidOptions(f"armies must name {players} different armies of {known}, "
                                 f"got {options.armies!r}")
    if options.maps:
        names = options.maps.split(",")
        if len(names) != players:
            raise InvalidOptions(f"maps must name one map per seat ({players}), got {options.maps!r}")
        if any(name.endswith(TURNED) for name in names):
            raise InvalidOptions(f"maps names the maps as printed (the option east_map turns the "
                                 f"east one, D1), got {options.maps!r}")
        try:
            board_of(tuple(names))
        except MapError as exc:
            raise InvalidOptions(f"maps: {exc}") from None


register(WizardKings())
