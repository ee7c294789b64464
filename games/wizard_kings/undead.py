"""The automatic Undead of 7.1 (The Island of the Dead) as a built-in bot, "undead".

7.1: "Nemortintoj aŭtomate moviĝas ĉe solitera versio." The bot follows the scenario's procedure
and nothing else, reading only its view and its legal actions:

- move: its unpinned blocks one after the other (in id order, D53), each to attack an Elf block
  within its move allowance, joining a battle the Elves started as well; a block with every Elf
  out of reach does not move;
- several hexes (or several hexsides into one hex) in reach: "ruligu loton por elekti la lokon":
  the die roll is the bot's seeded random choice, every choice equally likely (the rulebook's
  1d6 with re-rolls is the same uniform draw; D54);
- battle: a block with strength 1 at its combat turn retreats when it may (5.4: not in the
  first round), to a friendly hex first, then a neutral one, by a road if it can; the others
  fire; losses go to the weakest block first where the rules let the owner choose (5.32 ties,
  D55); it always pursues and never dispels (it has no wizard) nor regroups;
- build: "Oni devas rekonstrui la forigitajn nemortintajn blokojn kun Forto 1 antaŭ ol aldoni
  paŝojn ... ĉe la plej malfortaj blokoj unue kaj akumuli nur se novaj kontruadoj ne eblas":
  rebuild an eliminated block wherever it can, then add steps to the weakest block, and say
  done (saving the gold) only when nothing more can be built.

Anywhere else (another game, another scenario, the Elves' seat) it cannot follow 7.1, so it
plays as the heuristic bot and says why in ``fallback`` (D56).
"""
from __future__ import annotations

from games.engine.bots import Bot

from .bots import HeuristicBot
from .content import kind_of

SCENARIO = "island-of-the-dead"
UNDEAD_SEAT = 1          # 7.1 "Nemortintoj ĉiam moviĝas due": seat 1 (data/scenarios.json)


class UndeadBot(Bot):
    """7.1's automatic Undead (the module doc is its procedure)."""

    name = "undead"

    def __init__(self, ruleset, seed: int = 0):
        super().__init__(ruleset, seed)
        self.fallback: str | None = None
        self._heuristic = HeuristicBot(ruleset, seed)

    def hello(self, message: dict) -> None:
        super().hello(message)
        self._heuristic.hello(message)
        options = message.get("options") or {}
        if message.get("game") != "wizard-kings":
            self.fallback = f"the automatic Undead play only Wizard Kings, not {message.get('game')}"
        elif options.get("scenario") != SCENARIO:
            self.fallback = "the automatic Undead play only the scenario island-of-the-dead (7.1)"
        elif message["seat"] != UNDEAD_SEAT:
            self.fallback = f"in 7.1 the Undead are seat {UNDEAD_SEAT}, not seat {message['seat']}"
        else:
            self.fallback = None

    def act(self, message: dict):
        if self.fallback is not None:
            return self._heuristic.act(message)
        view, legal = message["view"], message["legal_actions"]
        phase = view["phase"]
        if phase == "move":
            return self._move(view, legal)
        if phase == "battle":
            return self._battle(view, legal)
        if phase == "build":
            return self._build(view, legal)
        return legal[-1] if legal[-1].get("type") == "done" else legal[0]

    def roll(self, choices: list):
        """7.1 "ruligu loton": every choice equally likely, from the bot's seeded generator."""
        return choices[0] if len(choices) == 1 else self.rng.choice(choices)

    # -- move ------------------------------------------------------------------------------------
    def _move(self, view: dict, legal: list[dict]):
        """Each block in turn attacks an Elf hex in reach, chosen by a roll; none: it stays."""
        elves = {b["hex"] for b in view["blocks"] if b["owner"] != self.seat}
        moves: dict[str, list[dict]] = {}
        for action in legal:
            if action["type"] == "move":
                moves.setdefault(action["block"], []).append(action)
        for bid in sorted(moves):
            targets = sorted({a["to"] for a in moves[bid] if a["to"] in elves})
            if targets:
                to = self.roll(targets)
                return self.roll([a for a in moves[bid] if a["to"] == to])
        return {"type": "done"}

    # -- battle ----------------------------------------------------------------------------------
    def _battle(self, view: dict, legal: list[dict]):
        kinds = {a["type"] for a in legal}
        battle = view["battle"]
        if "hit" in kinds:
            return min(legal, key=lambda a: self._weakness(view, a["block"]))
        for answer in ("let", "stay", "pursue"):
            if answer in kinds:
                return {"type": answer}
        if "regroup" in kinds or kinds == {"done"}:
            return {"type": "done"}
        retreats = [a for a in legal if a["type"] == "retreat"]
        if battle["step"] == "retreat" or kinds == {"retreat"}:
            return self._retreat(view, retreats)
        me = next(b for b in view["blocks"] if b["id"] == battle["current"])
        if me["steps"] == 1 and retreats:
            return self._retreat(view, retreats)       # 7.1: "devas retreti se ... Forton 1"
        for action in legal:
            if action["type"] == "fire":
                return action
        return next((a for a in legal if a["type"] == "pass"), legal[0])

    def _weakness(self, view: dict, bid: str) -> tuple:
        """7.1 "perdojn oni apliku al la plej malfortaj unue": among equally strong blocks the
        one that fires worst, then the cheapest (D55)."""
        blk = next(b for b in view["blocks"] if b["id"] == bid)
        kind = kind_of(blk["kind"])
        return (blk["steps"], kind.fire if not kind.castle else 9, kind.cost, bid)

    def _retreat(self, view: dict, retreats: list[dict]):
        """7.1: "antaŭece retretu en amikan heksagonon, poste en neŭtran heksagonon. Retretojn
        oni faru laŭ vojoj se tio eblas." Friendly before neutral, by road before not."""
        here = view["battle"]["hex"]
        roads = set(view["board"]["roads"])
        mine = {b["hex"] for b in view["blocks"] if b["owner"] == self.seat and b["hex"] != here}
        held = {h for h, c in view["cities"].items() if c["controller"] == self.seat}

        def rank(action) -> tuple:
            to = action["to"]
            friendly = to in mine or to in held
            road = "|".join(sorted((here, to))) in roads
            return (not friendly, not road)
        best = min(rank(a) for a in retreats)
        return self.roll([a for a in retreats if rank(a) == best])

    # -- build -----------------------------------------------------------------------------------
    def _build(self, view: dict, legal: list[dict]):
        """Rebuild eliminated blocks at strength 1, then steps to the weakest, then save."""
        recruits = [a for a in legal if a["type"] == "recruit"]
        if recruits:
            return self.roll(recruits)
        adds = [a for a in legal if a["type"] == "add"]
        if adds:
            steps = {b["id"]: b["steps"] for b in view["draft"]["blocks"]}
            weakest = min(steps[a["block"]] for a in adds)
            return self.roll([a for a in adds if steps[a["block"]] == weakest])
        return {"type": "done"}
