"""Imperial Twing's determinize (issue 15.1): a full state that a seat cannot tell from the one
it sees.

Everything on the table is in every view (views.py), so a seat's view lacks only the other
hands and the order of the three decks (docs/rules/imperial-twing.md, "Hidden information and
determinize"). Those are drawn with the rng:

- the play cards nobody has shown (every card but the discard pile, the retinues, the cards in
  the fight, the seat's own hand and the cards a called-off fight gave back, ``revealed``) are
  dealt to the other hands, ``hand_sizes`` of them, and the rest is the deck. A hand holds
  spells, cats and traps only (T.1: a creature or mount joins the retinue face up), at most
  three spell colours and fifteen spells (H.1-H.3, checked whenever no fight runs, D9) except
  for the seat that must discard now (``limit``: it holds more, four colours if it can), and
  a spell whenever no fight runs and a spell can be found (T.3, D9); a seat drawing until a
  spell (``pending_draws``) holds none yet; and the seat that decides in a fight holds a card
  that gives it something to decide (the engine skips a seat with nothing to lay, support or
  play, D13, D15, D17);
- the object deck is the objects no view places, the event deck the events not in the event
  discard, each in a random order.

It reads nothing but the view, the seat, the rng and the content; ``view`` is left as it was.
"""
from __future__ import annotations

from .content import CARD, ELEMENTS, EVENT_IDS, MIROMON, OBJECT_IDS, PLAY_IDS, is_spell
from .fight import commit_actions, held_die, responses, support_actions
from .table import MAX_COLOURS, MAX_SPELLS

SETUP_STAGES = {"characters": "characters", "character": "characters", "deck": "deck",
                "objects": "objects", "events": "events"}
HAND_KINDS = ("spell", "cat", "trap")
DEALS = 20  # tries at dealing the hidden hands within the rules before any deal will do


def determinize(view: dict, seat: int, rng) -> dict:
    """A state whose ``view(state, seat)`` is ``view``."""
    stage = stage_of(view)
    state = table(view, stage)
    hands, deck = play_cards(view, seat, state, rng)
    state.update(hands=hands, deck=deck, object_deck=object_deck(view, rng),
                 event_deck=event_deck(view, rng))
    return state


def stage_of(view: dict) -> str:
    """The stage of set-up or play (V.1-V.6, B.1-B.2): the phase names it during the set-up;
    the start roll lasts until there is a start player, who then may choose the direction."""
    phase = view["phase"]
    if phase in SETUP_STAGES:
        return SETUP_STAGES[phase]
    if view["first_seat"] is None:
        return "start_roll"
    return "direction" if phase == "direction" else "play"


def table(view: dict, stage: str) -> dict:
    """Everything public, copied from the view into the state's shape."""
    n, result = view["players"], view["result"]
    state = {
        "players": n, "options": dict(view["options"]), "stage": stage, "phase": view["phase"],
        "actor": view["to_act"][0] if view["to_act"] else None,
        "characters": list(view["characters"]), "discard": list(view["discard"]),
        "retinues": [list(r) for r in view["retinues"]], "object_row": list(view["object_row"]),
        "active": [list(o) for o in view["active_objects"]],
        "aside": [list(o) for o in view["aside_objects"]],
        "removed_objects": list(view["removed_objects"]), "event_discard": list(view["events_drawn"]),
        "ornicles": list(view["ornicles"]), "supply": view["supply"],
        "in_endgame": list(view["in_endgame"]),
        "left": [[d["seat"], d["how"], d["turn"]] for d in view["left"]],
        "forfeited": [d["seat"] for d in view["left"] if d["how"] == "forfeit"],
        "start_rolls": [[list(r) for r in rolls] for rolls in view["start_rolls"]],
        "start_tied": list(view["start_tied"]), "first_seat": view["first_seat"],
        "seat": view["seat_to_play"], "direction": 1 if view["direction"] == "clockwise" else -1,
        "turn": view["turn"], "arranged": view["arranged"], "turn_over": view["turn_over"],
        "draws": [dict(t) for t in view["pending_draws"]],
        "event_queue": list(view["pending_events"]), "fight": fight_state(view["fight"], n),
        "duel": dict(view["duel"]) if view["duel"] else None,
        "takes": [dict(t) for t in view["takes"]],
        "give": {"seat": view["giving"]} if view["giving"] is not None else None,
        "last_fight": view["last_fight"],  # never changed in place (clone shares it too)
        "reshuffles": view["reshuffles"], "event_reshuffles": view["event_reshuffles"],
        "end": dict(result, scores=list(result["scores"])) if result else None,
    }
    if any(view["revealed"]):
        state["revealed"] = [list(cards) for cards in view["revealed"]]
    return state


def fight_state(fight: dict | None, players: int) -> dict | None:
    """The fight in progress (F.2: all of it lies face up), sides indexed by seat."""
    if fight is None:
        return None
    sides = [None] * players
    for side in fight["sides"]:
        sides[side["seat"]] = {"mode": side["mode"], "colour": side["colour"],
                               "spells": list(side["spells"]),
                               "units": [dict(u) for u in side["units"]], "done": side["done"],
                               "die": side["die"], "rerolled": side["rerolled"],
                               "bonus": side["bonus"], **held_die(side)}
    return {"kind": fight["kind"], "attacker": fight["attacker"],
            "defenders": list(fight["defenders"]), "number": fight["number"],
            "step": fight["step"], "sides": sides,
            "supporters": [dict(s) for s in fight["supporters"]],
            "support_queue": list(fight["support_queue"]), "stakes": fight["stakes"],
            "rolling": list(fight["rolling"]),
            "window": dict(fight["window"]) if fight["window"] else None,
            "events": [list(e) for e in fight["events"]], "quake": fight["quake"]}


def shown_cards(view: dict, state: dict) -> set[str]:
    """Every play card whose place the view shows: the discard pile, the retinues, the fight,
    the seat's hand and what a called-off fight gave back."""
    shown = set(view["discard"]) | set(view.get("hand", ()))
    for cards in state["retinues"] + view["revealed"]:
        shown.update(cards)
    fight = state["fight"]
    if fight is not None:
        for side in fight["sides"]:
            if side is not None:
                shown.update(side["spells"])
                shown.update(c for u in side["units"] for c in (u["card"], u["rider"]) if c)
        shown.update(s["card"] for s in fight["supporters"])
    return shown


def cards_dealt(view: dict, state: dict) -> bool:
    """V.2: are the play cards in the game? Not before the deck is shuffled (nor at an end
    that every other seat left before it was)."""
    if state["stage"] in ("characters", "deck"):
        return False
    return bool(view["deck_size"] or any(view["hand_sizes"]) or view["discard"]
                or any(view["retinues"]))


def play_cards(view: dict, seat: int, state: dict, rng) -> tuple[list, list]:
    """V.2, V.6, T.1: the hands and the deck. The seat's own hand is copied; the others are
    dealt from the cards nobody has shown, within the rules of a hand (``HandRules``)."""
    if not cards_dealt(view, state):
        return [[] for _ in range(view["players"])], []
    if view["phase"] == "over":  # the end shows every hand
        hands = [list(h) for h in view["hands"]]
        unseen = [c for c in PLAY_IDS if c not in shown_cards(view, state)
                  and not any(c in h for h in hands)]
        rng.shuffle(unseen)
        return hands, unseen
    shown = shown_cards(view, state)
    unseen = [c for c in PLAY_IDS if c not in shown]  # a fixed order, then drawn
    rng.shuffle(unseen)
    holdable = [c for c in unseen if CARD[c].kind in HAND_KINDS]
    rules = HandRules(view, state, unseen)
    others = [s for s in range(view["players"]) if s != seat]
    forced = rules.reserve(state, others, holdable)
    taken = {c for cards in forced.values() for c in cards}
    holdable = [c for c in holdable if c not in taken]
    for _ in range(DEALS):  # a first-fit deal can corner the last hands when the deck is thin
        hands = deal_hands(view, seat, rules, forced, holdable)
        if not rules.broken:
            break
        rng.shuffle(holdable)
    dealt = {c for hand in hands for c in hand}
    deck = [c for c in unseen if c not in dealt]
    if len(deck) != view["deck_size"]:
        raise ValueError(f"the view's cards do not add up: {len(deck)} left for a deck of "
                         f"{view['deck_size']}")
    return hands, deck


def deal_hands(view: dict, seat: int, rules: "HandRules", forced: dict, holdable: list) -> list:
    """Every hand: the seat's own copied, the others ``forced`` and dealt by ``rules``."""
    rules.broken = False
    hands = [list(view["hand"]) if other == seat else None for other in range(view["players"])]
    for other in sorted(forced, key=rules.dealing_order):
        known = list(view["revealed"][other])
        drawn = rules.deal(other, known + forced[other],
                           view["hand_sizes"][other] - len(known) - len(forced[other]), holdable)
        taken = set(drawn)
        holdable = [c for c in holdable if c not in taken]
        hands[other] = forced[other] + drawn + known
    return hands


class HandRules:
    """What a hidden hand must be at this moment (H.1-H.3, T.3, D9), and a dealer that draws
    cards in the rng's order keeping to it."""

    def __init__(self, view: dict, state: dict, unseen: list[str]):
        settled = state["fight"] is None and view["phase"] != "over"
        findable = any(is_spell(c) for c in view["discard"]) or any(is_spell(c) for c in unseen)
        self.spell_needed = settled and findable  # T.3, D9: else it would draw one at once
        self.over = view["to_act"][0] if view["phase"] == "limit" else None
        self.no_spell = {t["seat"] for t in view["pending_draws"] if t["mode"] == "until_spell"}
        self.known = {s: list(cards) for s, cards in enumerate(view["revealed"])}
        self.sizes = view["hand_sizes"]
        self.broken = False  # the last deal could not keep to the rules

    def reserve(self, state: dict, others: list[int], holdable: list[str]) -> dict[int, list]:
        """The cards some hands must hold, set aside before any hand is dealt: the deciding
        seat's card that lets it decide, and a spell for each hand that needs one (T.3)."""
        forced = {other: [] for other in others}
        actor = state["actor"]
        if actor in forced and self.sizes[actor] > len(self.known[actor]):
            card = enabling_card(state, actor, self.known[actor], holdable)
            forced[actor] += [card] if card else []
        if not self.spell_needed:
            return forced
        spare = (c for c in holdable if is_spell(c) and c not in forced.get(actor, ()))
        for other in others:
            held = self.known[other] + forced[other]
            if (other != self.over and other not in self.no_spell and self.sizes[other] > len(held)
                    and not any(is_spell(c) for c in held)):
                forced[other] += [card for card in [next(spare, None)] if card]
        return forced

    def dealing_order(self, seat: int) -> int:
        """The hands the most particular about their cards are dealt first: the one over a
        limit, then those that may hold no spell."""
        return 0 if seat == self.over else 1 if seat in self.no_spell else 2

    def deal(self, seat: int, known: list[str], size: int, holdable: list[str]) -> list[str]:
        """``size`` cards for ``seat`` (besides ``known``), the first that fit in the order of
        ``holdable``; if the rules cannot be met, the first cards whatever they are."""
        if size <= 0:
            return []
        if seat in self.no_spell:
            pool = [c for c in holdable if not is_spell(c)]
            self.broken |= len(pool) < size
            return (pool if len(pool) >= size else holdable)[:size]
        if seat == self.over:
            return self._over_limit(known, size, holdable)
        hand = self._within_limits(known, size, holdable)
        self.broken |= len(hand) < size
        return hand if len(hand) == size else holdable[:size]

    def _within_limits(self, known: list[str], size: int, holdable: list[str]) -> list[str]:
        """H.1-H.3 kept, counting the cards ``known`` to be in the hand."""
        colours = {CARD[c].element for c in known if is_spell(c)}
        spells = sum(1 for c in known if is_spell(c))
        hand = []
        for card in holdable:
            if len(hand) == size:
                break
            if is_spell(card):
                element = CARD[card].element
                if spells >= MAX_SPELLS or (element not in colours and len(colours) >= MAX_COLOURS):
                    continue
                colours.add(element)
                spells += 1
            hand.append(card)
        return hand

    def _over_limit(self, known: list[str], size: int, holdable: list[str]) -> list[str]:
        """H.2: the seat that must discard holds spells of four colours (H.3: else sixteen
        spells), the rest drawn as they come."""
        held = {CARD[c].element for c in known if is_spell(c)}
        hand = []
        for element in ELEMENTS:
            card = next((c for c in holdable if is_spell(c) and CARD[c].element == element), None)
            if element not in held and card is not None and len(hand) < size:
                hand.append(card)
                held.add(element)
        if len(held) <= MAX_COLOURS:
            hand = [c for c in holdable if is_spell(c)][:size]
        taken = set(hand)
        return hand + [c for c in holdable if c not in taken][:size - len(hand)]


def can_decide(state: dict, seat: int) -> bool:
    """Would the engine ask ``seat`` now? In a fight it skips a seat with nothing to lay (D13),
    to support with (D17) or to play in the window (D15)."""
    phase = state["phase"]
    if phase == "commit":
        actions = commit_actions(state, seat)
        return bool(actions) and actions != [{"type": "done"}]
    if phase == "support":
        return bool(support_actions(state, seat))
    if phase == "respond":
        return bool(responses(state, seat))
    return True


def enabling_card(state: dict, seat: int, known: list[str], holdable: list[str]) -> str | None:
    """The first card of ``holdable`` that lets the deciding ``seat`` decide, if what it is
    known to hold does not already (None). The rules read a card by its kind and colour (and
    Miromon by name), so one card of each kind is tried."""
    probe = dict(state, hands=[[] for _ in range(state["players"])])
    probe["hands"][seat] = list(known)
    if can_decide(probe, seat):
        return None
    tried = {}
    for card in holdable:
        kind = CARD[card].kind
        key = card if card == MIROMON else (kind, CARD[card].element if kind == "spell" else None)
        if key not in tried:
            probe["hands"][seat] = known + [card]
            tried[key] = can_decide(probe, seat)
        if tried[key]:
            return card
    return None


def object_deck(view: dict, rng) -> list[str]:
    """V.3, C.2: the objects not face up, owned or removed, in a random order (none before
    the object deck is shuffled)."""
    placed = set(view["object_row"]) | set(view["removed_objects"])
    for objects in view["active_objects"] + view["aside_objects"]:
        placed.update(objects)
    deck = [o for o in OBJECT_IDS if o not in placed]
    rng.shuffle(deck)
    return deck[:view["object_deck_size"]]


def event_deck(view: dict, rng) -> list[str]:
    """V.3, D23: the events not in the event discard, in a random order (none before the event
    deck is shuffled)."""
    drawn = set(view["events_drawn"])
    deck = [e for e in EVENT_IDS if e not in drawn]
    rng.shuffle(deck)
    return deck[:view["event_deck_size"]]
