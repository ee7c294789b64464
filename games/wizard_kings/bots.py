"""The heuristic built-in bot for Wizard Kings.

It reads only its view and its legal actions (and the published army lists). Rules of thumb a
player would use: recruit a block on every city, then fill the wizard and the blocks that hit
best per gold; march on the nearest city it does not hold, take empty enemy cities, attack only
where its blocks outnumber the defenders; in battle fire, cast the strongest spell it can pay
for without dying, retreat from a lost fight towards its own cities, pursue a weaker attacker;
build steps where they hit best per gold.

It plays for 1.23's two-player victory, 15 gold of cities at the end of any turn: a capture that
reaches it comes first, its own cities an enemy holds are retaken before others are taken, a
city of its own map (which stays its own while empty, footnote 7) keeps its last block only
where an enemy block is near, a captured city always, and blocks keep marching and join their
own stacks on the way. Equal choices are broken towards the front (``_Front``), the same for
both seats: the first listed lies west, and taking it gave the east seat some 25 points more
wins in the game to the victory.
"""
from __future__ import annotations

from dataclasses import dataclass

from games.engine.bots import Bot

from .board import distance
from .content import artefact_of, kind_of, spell_of


def _value(kind_key: str) -> float:
    """Expected hits a round per gold of a step (wizards count as a solid 1/3)."""
    kind = kind_of(kind_key)
    if kind.wizard:
        return 0.6
    return (kind.fire / 6) / kind.cost + (0.1 if kind.flyer else 0)


# hexes to the nearest target, by the targets (the cities a seat does not hold) and the hex: a
# distance is geometry, the same on every board, and the targets change only when a city does,
# so the search bot's playouts (thousands of moves weighed a move) ask each one once
_NEAREST: dict[tuple[str, ...], dict[str, int]] = {}
_NEAREST_KEPT = 1024  # sets of targets kept before the memo starts afresh


THREAT = 3  # hexes: an enemy block this near a city may take it next turn (most move 2-3)


@dataclass(frozen=True)
class MoveWeights:
    """How the movement scores a block's move (``HeuristicBot._move``); the defaults are the
    heuristic bot's own. The best move scoring above ``floor`` is made, none: ``done``."""

    capture: float = 8.0  # into a city it does not hold and no enemy block holds: capture + ...
    per_gold: float = 3.0  # ... per_gold times the city's gold
    win: float = 6.0  # into an enemy's hex where its blocks (there and able to reach it) will
    need: int = 1  # outnumber the enemy's by ``need`` or more
    lose: float = -3.0  # ... where they will not
    city: float = 4.0  # ... added where that hex is a city
    garrison: float = -3.0  # added for the last block leaving a city it holds (see ``threat``)
    wizard: float = -0.5  # added for a wizard (wizards follow, they do not lead)
    floor: float = -0.5  # a move that loses no ground is made: blocks keep marching
    # 1.23, two players: the victory is 15 gold of cities at the end of any turn
    retake: float = 6.0  # added for an attack on its own city an enemy holds (its gold back)
    threat: int = 2  # >0: its own city keeps a garrison only where an enemy block is this near
    guard: float = 0.0  # into its own empty city an enemy block is ``threat`` hexes from
    victory: float = 20.0  # added to a capture that brings its cities to the victory gold
    join: float = 1.0  # added on the way where the hex holds its own blocks (concentrate)


class _Front:
    """A tie-break between equal choices: how near a hex lies to the cities its seat does not
    hold, the front. Choices are listed west to east, so without it the first of equal ones
    lies west: forward for the east seat and back for the west one, which gave the east seat
    (seat 1) some 25 points more wins in the two-player game."""

    def __init__(self, view: dict, seat: int):
        self.targets = [h for h, c in (view.get("cities") or {}).items() if c["controller"] != seat]
        self.memo: dict[str, float] = {}

    def near(self, hex_: str | None) -> float:
        """Up to a hundredth of a point (never more than a real difference of a weight)."""
        if not self.targets or hex_ is None:
            return 0.0
        found = self.memo.get(hex_)
        if found is None:
            mean = sum(distance(hex_, t) for t in self.targets) / len(self.targets)
            found = self.memo[hex_] = -0.0005 * mean
        return found


class HeuristicBot(Bot):
    """Plays by the rules of thumb in the module doc; ``weights`` score its moves (the search bot
    plays it with other weights, games/wizard_kings/search.py)."""

    name = "heuristic"
    # The parts of its view it reads: the search bot's playouts build only these
    # (seat_view's ``keys``); tests/games/wizard_kings/test_search.py holds it to them.
    READS = ("phase", "cities", "blocks", "board", "battle", "draft")

    def __init__(self, ruleset, seed: int = 0, *, weights: MoveWeights | None = None):
        super().__init__(ruleset, seed)
        self.weights = weights or MoveWeights()

    def act(self, message: dict):
        view, legal = message["view"], message["legal_actions"]
        phase = view["phase"]
        if phase in ("recruit", "build"):
            choice = self._build(view, legal)
        elif phase == "move":
            choice = self._move(view, legal)
        elif phase in ("choose", "place"):
            choice = self._setup(view, legal)
        else:
            choice = self._battle(view, legal)
        return choice if choice in legal else legal[-1] if legal[-1].get("type") == "done" else legal[0]

    # -- building ----------------------------------------------------------------------------
    def _build(self, view, legal):
        draft = view["draft"]
        covered = {b["hex"] for b in draft["blocks"]}
        front = _Front(view, self.seat)
        best, best_score = None, 0.0
        for action in legal:
            if action["type"] == "recruit":
                score = _value(action["kind"]) + (5 if action["hex"] not in covered else 0)
                if kind_of(action["kind"]).castle:
                    score += 0.2 if action["hex"] not in covered else -0.3
                score += front.near(action["hex"])
            elif action["type"] == "add":
                blk = next(b for b in draft["blocks"] if b["id"] == action["block"])
                score = _value(blk["kind"]) + 0.15 + front.near(blk["hex"])
            elif action["type"] in ("arm", "charge"):   # 2.7: a charge on a strong block
                blk = next(b for b in draft["blocks"] if b["id"] == action["block"])
                score = 0.1 * blk["steps"] if not kind_of(blk["kind"]).wizard else 0.2
            elif action["type"] == "take":
                score = 1.0
            else:
                continue
            if score > best_score:
                best, best_score = action, score
        return best or {"type": "done"}

    # -- a scenario's set-up (7.2-7.4) -------------------------------------------------------
    def _setup(self, view, legal):
        """Choices in order; a placement covers an empty hex first, the castle on the best city."""
        if legal[0]["type"] != "place":
            return legal[0]
        taken = {b["hex"] for b in view["draft"]["blocks"]}
        gold = {h: c["gold"] for h, c in view["board"]["cities"].items()}

        def score(action):
            castle = kind_of(action["kind"]).castle
            return ((action["hex"] not in taken) * 10 + (gold.get(action["hex"], 0) if castle else 0)
                    + action["steps"] * 0.1)
        return max(legal, key=score)

    # -- movement ----------------------------------------------------------------------------
    def _move(self, view, legal):
        me, weights = self.seat, self.weights
        cities = view["cities"]
        targets = [h for h, c in cities.items() if c["controller"] != me]
        mine = {b["id"]: b for b in view["blocks"] if b["owner"] == me}
        enemy_at: dict[str, int] = {}
        mine_at: dict[str, int] = {}
        for b in view["blocks"]:
            bucket = mine_at if b["owner"] == me else enemy_at
            bucket[b["hex"]] = bucket.get(b["hex"], 0) + 1
        reach: dict[str, set] = {}
        for action in legal:
            if action["type"] == "move":
                reach.setdefault(action["to"], set()).add(action["block"])
        key = tuple(targets)
        nearest = _NEAREST.get(key)
        if nearest is None:
            if len(_NEAREST) >= _NEAREST_KEPT:
                _NEAREST.clear()
            nearest = _NEAREST[key] = {}

        def near(hex_: str) -> int:
            found = nearest.get(hex_)
            if found is None:
                found = nearest[hex_] = min(distance(hex_, t) for t in targets)
            return found

        front = _Front(view, me)

        gold = view["board"]["cities"]
        held = sum(gold[h]["gold"] for h, c in cities.items() if c["controller"] == me)
        owners = {c["owner"] for c in cities.values()} - {None}
        to_win = 15 * len(owners) // 2 if len(owners) == 2 else 0   # 1.23: two players
        threat = weights.threat
        danger: dict[str, bool] = {}

        def threatened(hex_: str) -> bool:
            """Is an enemy block within ``threat`` hexes of ``hex_`` (always, threat 0)?"""
            found = danger.get(hex_)
            if found is None:
                found = danger[hex_] = not threat or any(distance(hex_, e) <= threat
                                                         for e in enemy_at)
            return found

        facts: dict[str, tuple] = {}  # block -> (its hex's near, last in a city it holds, wizard)
        best, best_score = None, weights.floor
        for action in legal:
            if action["type"] != "move":
                continue
            bid, to = action["block"], action["to"]
            fact = facts.get(bid)
            if fact is None:
                blk = mine[bid]
                src = blk["hex"]
                last = (src in cities and cities[src]["controller"] == me
                        and mine_at.get(src, 0) == 1
                        and (cities[src]["owner"] != me or threatened(src)))
                fact = facts[bid] = (near(src) if targets else 0, last,
                                     kind_of(blk["kind"]).wizard)
            from_near, last, wizard = fact
            enemies = enemy_at.get(to)
            score = 0.0
            if to in cities and cities[to]["controller"] != me and not enemies:
                score = weights.capture + weights.per_gold * gold[to]["gold"]
                if to_win and held + gold[to]["gold"] >= to_win:
                    score += weights.victory            # 1.23: the capture that wins
            elif enemies:
                ours = mine_at.get(to, 0) + len(reach.get(to, ()))
                score = ((weights.win if ours >= enemies + weights.need else weights.lose)
                         + (weights.city if to in cities else 0))
                if to in cities and cities[to]["owner"] == me:
                    score += weights.retake             # its own city back
            elif targets:
                score = from_near - (nearest.get(to) or near(to))
                if (weights.guard and to in cities and cities[to]["owner"] == me
                        and not mine_at.get(to) and threatened(to)):
                    score += weights.guard + gold[to]["gold"]
                elif weights.join and mine_at.get(to) and to not in cities:
                    score += weights.join
            if last:
                score += weights.garrison               # keep a garrison in a held city
            if wizard:
                score += weights.wizard                 # wizards follow, they do not lead
            score += front.near(to)                     # the first of equals lies forward
            if score > best_score:
                best, best_score = action, score
        return best or {"type": "done"}

    # -- battle ------------------------------------------------------------------------------
    def _battle(self, view, legal):
        battle = view["battle"]
        kinds = {a["type"] for a in legal}
        if "hit" in kinds:
            return legal[0]
        if "dispel" in kinds:
            spell = spell_of(battle["cast"]["spell"])
            return {"type": "dispel" if spell.level >= 2 else "let"}
        if "stay" in kinds:
            return {"type": "stay"}
        if "keep" in kinds:
            return {"type": "keep"}
        mine, theirs = self._strengths(view, battle)
        if "pursue" in kinds:
            return {"type": "pursue" if mine >= theirs else "no_pursuit"}
        if "regroup" in kinds or kinds == {"done"}:
            return {"type": "done"}
        casts = [a for a in legal if a["type"] == "cast"]
        invokes = [a for a in legal if a["type"] == "invoke"]
        if invokes and mine >= 0.6 * theirs:           # 2.7: a charge, whatever the level
            return max(invokes, key=lambda a: (spell_of(a["spell"]).level,
                                               spell_of(a["spell"]).dice))
        wield = next((a for a in legal if a["type"] == "wield"), None)
        if wield is not None:
            me = next(b for b in view["blocks"] if b["id"] == wield["block"])
            weapon = artefact_of(me["artefact"]["key"])
            own = kind_of(me["kind"])
            if "fire" not in kinds or own.wizard or weapon.fire > own.fire:
                return wield
        if casts:
            me = next(b for b in view["blocks"] if b["id"] == casts[0]["block"])
            affordable = [a for a in casts if spell_of(a["spell"]).level < me["steps"]]
            if affordable:
                return max(affordable, key=lambda a: (spell_of(a["spell"]).level,
                                                      spell_of(a["spell"]).dice))
        me = next((b for b in view["blocks"] if b["id"] == battle.get("current")), None)
        steps = me.get("steps", 1) if me else 1
        berserk = [a for a in legal if a["type"] == "berserk"]
        if berserk and steps >= 2:
            return berserk[0]                           # 2.5: double dice for a step
        rites = [a for a in legal if a["type"] == "rite"
                 and spell_of(a["rite"]).effect in ("strike", "storm")]
        if rites and steps >= 2 and mine >= theirs:
            return max(rites, key=lambda a: spell_of(a["rite"]).dice * spell_of(a["rite"]).fire)
        retreats = [a for a in legal if a["type"] == "retreat"]
        if retreats and (mine < 0.6 * theirs or "fire" not in kinds and "pass" not in kinds):
            return self._retreat(view, retreats)
        for action in legal:
            if action["type"] == "fire":
                return action
        return next((a for a in legal if a["type"] == "pass"), legal[0])

    def _retreat(self, view, retreats):
        """5.4: back towards its own cities (the nearest one it holds), not the first hex listed,
        which lies west of the battle for every seat."""
        home = [h for h, c in view["cities"].items() if c["controller"] == self.seat]
        if not home:
            return retreats[0]
        return min(retreats, key=lambda a: min(distance(a["to"], h) for h in home))

    def _strengths(self, view, battle):
        sides = battle["sides"]
        my_side = sides.get(str(self.seat))
        mine = theirs = 0
        for b in view["blocks"]:
            if b["hex"] != battle["hex"]:
                continue
            if sides.get(str(b["owner"])) == my_side:
                mine += b.get("steps", 2)
            else:
                theirs += b.get("steps", 2)
        return mine, theirs
