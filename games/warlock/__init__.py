"""Warlock, after the rulebook shared/rulebooks/warlock.de.md: the spell duel of 2-6 wizards.

Clauses are cited by the rulebook's own section numbers (e.g. "4.8.2"); where the text is silent
or contradicts itself a decision D1..Dn decides, listed with the German text in
docs/rules/warlock.md. Each round every wizard secretly decides to duel or to learn (3.1); the
duellists form a circle (3.2) and fight seven segments (3.3): attacks (secret, simultaneous),
defences (secret, simultaneous), reflections, wandering creatures, and the balance. The last
wizard in the game wins (6).

Modules: ``content`` (wizard cards, spell book, both tables), ``combat`` (plays, values, what a
defence does), ``rules`` (the flow of a match as a task list), this module (the engine contract:
checks with reasons, views), ``knowledge`` (what a seat knows of the hidden cards, and
``determinize``), ``bots`` (the heuristic bot).
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from games.engine.bots import RandomBot
from games.engine.dict_ruleset import DictRuleset
from games.engine.protocol import Event, GameSpec, IllegalAction, option
from games.engine.registry import register

from . import combat, core, knowledge, rules
from .core import LEARNING_COST, clone, clone_state
from .content import WIZARD, kind

SPEC = GameSpec(name="warlock", title="Warlock", version=3, min_players=2, max_players=6,
                chance=True, hidden_information=True, simultaneous=True,
                rulebook="warlock.de.md")

ACTION_KEYS = {"decide": {"type", "choice"}, "pick": {"type", "victim"}, "swap": {"type", "card"},
               "stop": {"type"}, "return": {"type"}, "wait": {"type"}, "attack": {"type", "cards"},
               "mock": {"type"}, "defend": {"type", "cards"},
               "conjure": {"type", "cards", "as"}, "influence": {"type", "choice"},
               "redirect": {"type", "victim"}}
TASK_ACTIONS = {"decide": ("decide",), "pick": ("pick",), "swap": ("swap", "stop"),
                "learn": ("swap",), "return": ("return", "wait"), "attack": ("attack", "mock"),
                "defend": ("defend",), "ward": ("defend",), "conjure": ("conjure",),
                "influence": ("influence",), "redirect": ("redirect",)}


@dataclass(frozen=True)
class Options:
    """The variants; every default is the rulebook's value or a documented decision."""

    energy: int = option(199, "2, 7: energy at the start (7: more for a longer game)",
                         min=60, max=999)
    max_rounds: int = option(40, "D5: the round limit; then the wizards still in the game "
                             "place by energy", min=1, max=200)
    double_reflection: str = option("sender", "D2 (5.2.5 vs 5.2.2): on R† the attack flies back "
                                    "to the wizard who sent it (as in example 5.2.5) or to the "
                                    "one who cast it", choices=("sender", "caster"))
    wander_bonus_in_limbo: bool = option(False, "D1 (4.1.3 vs 8.5.4): does a wanderer's creator "
                                         "banished himself still earn the 30-energy bonus")
    lone_swap_cost: int = option(3, "D4 (4.3): energy a card swapped in a round without a duel "
                                 "costs", choices=(0, 3))
    max_reflections: int = option(8, "D6: reflections in one segment; later ones repel",
                                  min=0, max=50)
    max_walk_steps: int = option(12, "D6, D13: cuts and defences in one walk of a wandering "
                                 "creature", min=1, max=60)
    max_walk_depth: int = option(3, "D14 (8.5.7): creatures walking at once (one waiting for "
                                 "another to return); a creature cast beyond it does not walk",
                                 min=1, max=6)
    wander_threshold: int = option(10, "8.5: the cut that sets a creature wandering",
                                   min=1, max=15)
    laid_spell_ward: bool = option(True, "8.5: a wizard a wandering creature attacks may "
                                   "defend with the spell he laid this attack segment (false: "
                                   "from his hand only, as version 2)")
    learn_in_balance: bool = option(True, "3.3.1, 3.3.2, 4.7 (D26): learners swap in the "
                                    "balance segment (7) too (false: in segments 1-6 only, as "
                                    "version 2)")
    creature_limbo_until_balance: bool = option(True, "4.8.2 \"(siehe aber: 8.5.6.)\" (D27): a "
                                                "wizard a wandering creature banished stays in "
                                                "limbo until the balance (false: he may return in "
                                                "any later segment, as version 2)")
    identical_pairs_reflect: bool = option(True, "5.2.2, 8.1.2, 8.4: an identical two-card "
                                           "spell (wielder and weapon, Priest and Staff) "
                                           "reflects both spells (false: only one-card spells "
                                           "do, as version 2)")
    meet_identical: str = option("value", "D8 (4.6, 4.2): in a duel of two, identical physical "
                                 "spells meet by combat value, equal values cancel (\"pass\": "
                                 "identical spells pass each other, as version 2)",
                                 choices=("value", "pass"))


# -- checking ------------------------------------------------------------------------------------

def _short(value) -> str:
    """A value as a short text for a reason."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _spelling(action) -> str:
    """An action as canonical JSON text (True is not 1)."""
    return json.dumps(action, sort_keys=True)


def _malformed(state: dict, seat, action) -> str | None:
    """Why ``action`` is no action ``seat`` could take now whatever the cards (the seat does not
    act, the action is not an object with a type, the task takes no action of its type, its keys
    are not the type's), else None: what ``refusal`` and ``refusal_by_listing`` both ask first."""
    if type(seat) is not int or seat not in rules.acting_seats(state):
        return f"seat {_short(seat)} does not act now"
    if not isinstance(action, dict) or type(action.get("type")) is not str:
        return f"an action is a JSON object with a string 'type', got {_short(action)}"
    task = state["tasks"][0]
    allowed = TASK_ACTIONS[task["kind"]]
    type_ = action["type"]
    if type_ not in allowed:
        return (f"{_short(type_)} is not possible now ({task['kind']}); "
                f"possible: {list(allowed)}")
    keys = ACTION_KEYS[type_]
    if len(action) != len(keys) or not keys.issuperset(action):
        return f"a {type_} action has exactly the keys {sorted(keys)}"
    return None


def refusal(state: dict, seat, action) -> str | None:
    """Why ``action`` is not legal for ``seat`` now (None: it is); never raises on any JSON.
    A well-formed action is checked as it is (``_is_legal``), without the listing of every
    legal action and its spelling; only a refusal lists them, for its reason
    (``refusal_by_listing`` is the check it stands for, tests/games/test_warlock_fast_paths.py
    holds the two to the same answers)."""
    malformed = _malformed(state, seat, action)
    if malformed is not None:
        return malformed
    task = state["tasks"][0]
    if _is_legal(state, task, seat, action):
        return None
    return _why_not(state, seat, action, rules.options_for(state, task, seat))


_CHOICES = {"decide": ("duel", "learn"), "influence": ("pass", "defend")}


def _is_legal(state: dict, task: dict, seat: int, action: dict) -> bool:
    """Whether a well-formed ``action`` (its type allowed by the task, its keys exact) is one
    of ``rules.options_for(state, task, seat)`` spelled alike (True is not 1): read off the
    action where that is direct, else looked up in the listing. A listing of card plays holds
    strings and lists of strings only, which only their equals equal (==), so ``in`` finds a
    play exactly where its spelling would."""
    kind_, type_ = task["kind"], action["type"]
    if type_ == "swap":
        if kind_ == "learn" and state["role"][seat] not in ("learn", "away"):
            return False
        card = action["card"]
        return (type(card) is str and state["energy"][seat] > task.get("cost", LEARNING_COST)
                and task.get("left", 1) > 0 and card in state["hands"][seat])
    if type_ == "stop":
        return kind_ == "swap" and not task["forced"]
    if kind_ in _CHOICES:
        choice = action["choice"]
        return type(choice) is str and choice in _CHOICES[kind_]
    if kind_ == "return":
        return state["role"][seat] == "limbo"
    if kind_ == "pick":
        victim = action["victim"]
        return type(victim) is int and victim in task["candidates"] and not state["out"][victim]
    if kind_ == "redirect":
        victim = action["victim"]
        if type(victim) is not int or victim == seat or victim not in task["candidates"]:
            return False
        return victim in (core.not_in_limbo(state) if task["threat"]["walking"]
                          else state["circle"])
    if type_ == "attack":
        return _is_attack_option(state, seat, action["cards"])
    if type_ == "defend" and kind_ == "defend":
        return _is_defence_option(state, seat, task["threats"][str(seat)], action["cards"])
    return action in rules.options_for(state, task, seat)  # cards: strings only


def _play_in_hand(hand: list, cards) -> bool:
    """``cards`` is one of ``combat.candidate_plays(hand)`` (a list of strings, as == finds)."""
    if type(cards) is not list:
        return False
    if len(cards) == 1:
        return type(cards[0]) is str and cards[0] in hand
    if len(cards) == 2:
        first, second = cards
        return (type(first) is str and type(second) is str and first in hand and second in hand
                and combat.shape(cards) in ("pair", "priest"))
    return False


def _is_attack_option(state: dict, seat: int, cards) -> bool:
    """``cards`` is one of ``duel.attack_options(state, seat)``, asked of the play itself."""
    hand, energy = state["hands"][seat], state["energy"][seat]
    if not _play_in_hand(hand, cards):
        return False
    if combat.is_attack(cards) and combat.cost(cards) <= energy:
        return True
    if len(cards) != 1 or kind(cards[0]).role != "witch":
        return False
    # D9: the first Witch he can pay for, if the rest of the hand holds an attack (8.3.2)
    witches = [c for c in hand if kind(c).role == "witch" and kind(c).cost <= energy]
    return (bool(witches) and cards[0] == witches[0]
            and bool(combat.attack_plays([c for c in hand if kind(c).role != "witch"], 10**6)))


def _is_defence_option(state: dict, seat: int, threat: dict, cards) -> bool:
    """``cards`` is one of ``duel.defence_options(state, seat, threat, witch=True)``, asked of
    the play itself."""
    hand, energy = state["hands"][seat], state["energy"][seat]
    if not _play_in_hand(hand, cards):
        return False
    me, pairs = core.wizard(state, seat), state["options"]["identical_pairs_reflect"]
    if kind(cards[0]).role != "witch":
        return (combat.cost(cards) <= energy and combat.result(
            threat, cards, me.colour, me.points, pairs=pairs) in combat.SUCCESS)
    if len(cards) != 1:
        return False
    witches = [c for c in hand if kind(c).role == "witch" and kind(c).cost <= energy]
    if not witches or cards[0] != witches[0]:
        return False
    rest = [c for c in hand if kind(c).role != "witch"]
    return combat.witch_repels(threat, me.colour) or combat.has_defence_play(
        rest, 10**6, threat, me.colour, me.points, pairs=pairs)


def refusal_by_listing(state: dict, seat, action) -> str | None:
    """``refusal`` as it was: every legal action listed and spelled (canonical JSON), the
    action legal if its spelling is among theirs. Kept as the reference the fast check is
    tested against (tests/games/test_warlock_fast_paths.py); the service calls ``refusal``."""
    malformed = _malformed(state, seat, action)
    if malformed is not None:
        return malformed
    task = state["tasks"][0]
    legal = rules.options_for(state, task, seat)
    spelled = _spelling(action)
    if spelled in {_spelling(a) for a in legal}:
        return None
    return _why_not(state, seat, action, legal)


def _why_not(state: dict, seat: int, action: dict, legal: list) -> str:
    """A reason a bot author can read for a well-formed but illegal action."""
    hand, energy = state["hands"][seat], state["energy"][seat]
    if "cards" in action:
        cards = action["cards"]
        if not isinstance(cards, list) or any(type(c) is not str for c in cards):
            return f"cards must be a list of card ids, got {_short(cards)}"
        missing = [c for c in cards if c not in hand]
        if missing:
            return f"{_short(missing[0])} is not a card in your hand"
        if len(set(cards)) != len(cards):
            return "a card can be named only once"
        if cards and not combat.shape(cards) and kind(cards[0]).role != "witch":
            return ("one spell is one card, a wielder then a weapon (8.1.2), or the Priest then "
                    "the Holy Staff (8.4)")
        if action["type"] in ("attack", "defend") and combat.cost(cards) > energy:
            return f"that spell costs {combat.cost(cards)} energy, you have {energy} (4.9)"
        if action["type"] == "attack":
            return "that is not an attack spell (5.1, 8.3.2, 8.4)"
        if action["type"] == "defend":
            return "that spell does not defend against this attack (5.2-5.4)"
        return "the Witch cannot cast that now (8.3)"
    if action["type"] == "mock":
        return "you can attack, so you must (4.1.5)"
    if action["type"] == "swap":
        if type(action["card"]) is not str or action["card"] not in hand:
            return f"{_short(action['card'])} is not a card in your hand"
        return "you cannot pay for learning a card now (4.7, D3)"
    if action["type"] == "stop":
        return "you must learn three cards (4.3)"
    if action["type"] in ("pick", "redirect"):
        return f"victim must be one of {[a['victim'] for a in legal]}, got {_short(action['victim'])}"
    if action["type"] in ("decide", "influence"):
        return f"choice must be one of {[a['choice'] for a in legal]}, got {_short(action['choice'])}"
    return f"{_short(action)} is not legal now"


# -- views --------------------------------------------------------------------------------------

def _threat_view(threat: dict) -> dict:
    """A spell in flight as views show it (all public)."""
    return {"id": threat["id"], "cards": list(threat["cards"]),
            "spells": [kind(c).key for c in threat["cards"]], "caster": threat["caster"],
            "sender": threat["sender"], "target": threat["target"], "walking": threat["walking"]}


def _decision_view(state: dict) -> dict | None:
    """The public facts of the decision under way (never a pending choice)."""
    if not state["tasks"] or state["phase"] == "over":
        return None
    task = state["tasks"][0]
    if task["kind"] not in rules.DECISIONS:
        return None
    view = {"kind": task["kind"]}
    if task["kind"] in rules.SIMULTANEOUS:
        view["seats"] = list(task["seats"])
        view["chosen"] = sorted(int(s) for s in state["choices"])
    else:
        view["seat"] = task["seat"]
    if task["kind"] == "defend":
        view["threats"] = {k: _threat_view(t) for k, t in task["threats"].items()}
    if task["kind"] in ("ward", "redirect"):
        view["threat"] = _threat_view(task["threat"])
    if task["kind"] in ("pick", "redirect"):
        view["candidates"] = list(task["candidates"])
    if task["kind"] == "conjure":
        view.update(use=task["use"], witch=task["witch"])
        if task.get("threat"):
            view["threat"] = _threat_view(task["threat"])
        if task.get("opposing"):
            view["opposing"] = _threat_view(task["opposing"])
    if task["kind"] == "influence":
        view.update(mine=task["mine"], theirs=task["theirs"])
    if task["kind"] in ("swap", "learn"):
        view.update(forced=task.get("forced", True), left=task.get("left", 1))
    return view


def public_view(state: dict) -> dict:
    """What everyone sees: wizards, energy, roles, the circle, spells on the table, the walk,
    the last cut, the discard pile, the round's record; never a hand, the book or a pending
    secret choice."""
    over = state["phase"] == "over"
    head = state["tasks"][0]["kind"] if state["tasks"] else state["phase"]
    return {
        "game": "warlock", "round": state["round"], "segment": state["segment"],
        "phase": "over" if over else head, "to_act": rules.acting_seats(state),
        "players": state["players"], "options": dict(state["options"]),
        "wizards": [None if w is None else {"name": w, "colour": WIZARD[w].colour,
                                             "points": WIZARD[w].points} for w in state["wizard"]],
        "energy": list(state["energy"]), "roles": list(state["role"]),
        "in_game": [not o for o in state["out"]], "forfeited": list(state["forfeited"]),
        "hand_sizes": [len(h) for h in state["hands"]], "duel_master": state["dm"],
        "next_duel_master": state["next_dm"], "circle": list(state["circle"]),
        "exhausted": list(state["exhausted"]),
        "attacks": [_threat_view(t) for t in state["threats"]],
        "decision": _decision_view(state),
        "walks": [{"spell": _threat_view(w["spell"]), "creator": w["creator"],
                   "sender": w["sender"], "at": w["at"], "quiet": w["quiet"], "steps": w["steps"],
                   "walking": w["started"],
                   "returns_as": "attack" if w["resume"] is None else w["resume"]["use"],
                   "defender": None if w["resume"] is None else w["resume"]["seat"]}
                  for w in state["walks"]],
        "cut": None if state["cut"] is None else dict(state["cut"]),
        "deck_size": len(state["deck"]), "discard": list(state["discard"]),
        "log": clone(state["log"]),  # plain JSON: a pickle round trip, several times faster than deepcopy
        "scores": None if state["scores"] is None else list(state["scores"]),
        "end_reason": state["end_reason"], "flow": knowledge.flow_view(state),
    }


def _secret_token(state: dict, seat: int) -> str | None:
    """A string naming the seat's pending secret choice, shown to that seat only."""
    choice = state["choices"].get(str(seat))
    if choice is None:
        return None
    return f"WL-secret-{seat}-{state['round']}-{state['segment']}-{choice['type']}"


def seat_view(state: dict, seat: int) -> dict:
    """The public view plus the seat's hand, what it knows of the cards it cannot see
    (``shuffles``) and its own pending secret choice."""
    view = public_view(state)
    choice = state["choices"].get(str(seat))
    view.update(seat=seat, hand=list(state["hands"][seat]),
                shuffles=knowledge.shuffles_view(state, seat),
                my_choice=None if choice is None else {"action": copy.deepcopy(choice),
                                                       "token": _secret_token(state, seat)})
    return view


# -- the ruleset --------------------------------------------------------------------------------

class Warlock(DictRuleset):
    """The engine contract for Warlock (the shell: games/engine/dict_ruleset.py)."""

    spec = SPEC
    Options = Options
    new_state = staticmethod(rules.new_state)  # 2: the wizard cards and the deal follow as chance
    chance_spec = staticmethod(rules.chance_spec)
    acting_seats = staticmethod(rules.acting_seats)
    refusal = staticmethod(refusal)
    chance_outcome = staticmethod(rules.chance_outcome)
    forfeit = staticmethod(rules.forfeit)
    public_view = staticmethod(public_view)
    seat_view = staticmethod(seat_view)
    clone = staticmethod(clone_state)

    # ``rules.decide`` of a copy of the action (``core.copy_action``: a JSON value), as ``apply``
    # always did: the event (a record, a search's stored move) must not change with a state
    # that may keep parts of it; one call, no method between (every action of a fold)
    decide = staticmethod(rules.decide_copy)

    def act_in_place(self, state: dict, seat: int, payload: dict) -> dict:
        """Ruleset.act_in_place (optional), in one call: ``check_action``'s refusal for a seat
        that acts now, then the action decided on the state itself (every action of a
        validation); anything else as ``check_action`` and ``apply_in_place`` do it."""
        action = payload["action"]
        if type(seat) is int and seat in rules.acting_seats(state):
            reason = self.refusal(state, seat, action)
            if reason is not None:
                raise IllegalAction(reason)
            self.decide(state, seat, action)
            return state
        self.check_action(state, seat, action)
        return self.apply_in_place(state, Event("action", seat, payload))

    def legal_actions(self, state: dict, seat: int) -> list:
        """Every action of the current decision for ``seat``, in a stable order."""
        if type(seat) is not int or seat not in rules.acting_seats(state):
            return []
        return rules.options_for(state, state["tasks"][0], seat)

    def determinize(self, view: dict, seat: int, rng) -> dict:
        """A state drawn from those ``seat`` cannot tell apart (see ``knowledge``)."""
        return knowledge.determinize(view, seat, rng)

    def score_now(self, state: dict) -> list[int]:
        """6, D5, D25: the scores were the round limit reached now (``core.standing_scores``:
        10,000 + energy in the game, 30 less in limbo, 4.8.4; the stamp of leaving out of it;
        a forfeited seat below all)."""
        return core.standing_scores(state)

    def edition(self, version: int):
        """Version 2 (before issue 38's rules) and version 1 (before the state kept what
        everyone knows of the hidden cards) for the matches stored under them (editions.py)."""
        if version in (1, 2):
            from .editions import WARLOCK_V1, WARLOCK_V2
            return WARLOCK_V1 if version == 1 else WARLOCK_V2
        return super().edition(version)

    # -- hooks ------------------------------------------------------------------------------
    def hidden_items(self, state: dict, seat: int | None) -> set[str]:
        """A seat: its hand and its pending secret choice; None: the spell book."""
        if seat is None:
            return set(state["deck"])
        token = _secret_token(state, seat)
        return set(state["hands"][seat]) | ({token} if token else set())

    @staticmethod
    def max_events(players: int, options: Options) -> int:
        """A true bound on the log (D6): every loop in a round is bounded by the options."""
        p, r, s = players, options.max_reflections, options.max_walk_steps
        threats = p + 2 * r                       # each reflection adds at most one spell
        walk = 3 * (s + 2)                        # cuts, defences and redirects of one walk
        nested = sum(s ** level for level in range(options.max_walk_depth))
        walks = (p + threats) * nested            # attack and defence creatures, and (8.5.7)
        #                                           up to one nested walk per step of a walk
        banishments = threats + walks * (s + 2) + 2 * p
        per_segment = (3 * p                      # returns and learning
                       + 2 * p + 1                # attacks, Witch spells, 4.2.1
                       + walks * walk             # walks and nested walks (8.5.7)
                       + 2 * threats + r          # defences, Witch spells, redirects
                       + 2 * p)                   # reshuffle slack
        draws = 6 * (2 * p + 2 * threats + 2 * walks * (s + 2)) + 7 * banishments * 6 + 10 * p
        balance = 3 * p                           # 3.3.1 (D26): the balance's swaps, slack
        per_round = p + p + 4 * p + 6 * per_segment + balance + draws + 1
        return 2 + 2 * p + 1 + options.max_rounds * per_round

    # -- hooks of the balance benchmark (bench/balance.py) ----------------------------------
    @staticmethod
    def seat_roles(state: dict) -> list[str | None]:
        """What sets the seats apart: their wizards' colours (2)."""
        return [WIZARD[w].colour if w else None for w in state["wizard"]]

    @staticmethod
    def seat_positions(state: dict) -> list[int]:
        """D15: seat 0 is the first duel master and the circle runs in seat order."""
        return list(range(state["players"]))

    @staticmethod
    def ended_by_bound(state: dict) -> bool:
        """D5: the round limit, not the rules, ended the match."""
        return state.get("end_reason") == "round limit"

    def builtin_bots(self) -> dict[str, type]:
        """The built-in bots by name."""
        from .bots import HeuristicBot
        return {"random": RandomBot, "heuristic": HeuristicBot}


register(Warlock())
