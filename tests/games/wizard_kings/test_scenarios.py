"""The scenarios of Wizard Kings (1.1, 7.1-7.4) and 7.1's automatic Undead (the "undead" bot),
each test quoting its clause (Esperanto, then English)."""
from __future__ import annotations

import hashlib
import json

import pytest

from games.engine import chance
from games.engine.bots import RandomBot
from games.engine.protocol import Chance, Ended, InvalidOptions, ToAct
from games.engine.runner import hello_message, playout
from games.wizard_kings import battle, rules, scenarios
from games.wizard_kings.bots import HeuristicBot
from games.wizard_kings.content import kind_of
from games.wizard_kings.state import city_gold, place, pool, remove
from games.wizard_kings.undead import UndeadBot

from .conftest import RULESET, act, idle, make_state, roll

ISLAND, BARBARIANS, LAST, ALLIANCE = ("island-of-the-dead", "barbarian-attack",
                                      "last-wizard-standing", "alliance-spread")


def begin(key: str, salt: int = 0) -> dict:
    """A scenario set up and advanced through every chance node until a seat must act."""
    state = RULESET.setup(2, {"scenario": key})
    return settle(state, salt)


def settle(state: dict, salt: int = 0, first: int | None = None) -> dict:
    """Apply derived chance outcomes (``first``: the draw of the seat that chooses first)."""
    while isinstance(nxt := RULESET.next(state), Chance):
        if first is not None and state["phase"] == "deal":
            state = roll(state, [first])
            continue
        state = roll(state, chance.derive(b"s" * 32, "scenario", salt + len(state["log"]), nxt.spec))
    return state


def play_first(state: dict, until) -> dict:
    """Take each acting seat's first legal action (settling chance) until ``until(state)``;
    in a build, done."""
    for _ in range(2000):
        if until(state):
            return state
        nxt = RULESET.next(state)
        assert isinstance(nxt, ToAct), nxt
        seat = nxt.seats[0]
        legal = RULESET.legal_actions(state, seat)
        choice = {"type": "done"} if state["phase"] == "build" else legal[0]
        state = settle(act(state, seat, choice))
    raise AssertionError("did not get there")


def end_moves(state: dict) -> dict:
    """Every seat still moving says done; the battles begin."""
    while state["phase"] == "move":
        state = settle(act(state, RULESET.next(state).seats[0], {"type": "done"}))
    return settle(state)


def island(blocks, *, phase: str = "move") -> dict:
    """A 7.1 state on map 13 (seat 0 the Elves, seat 1 the Undead) with ``blocks``."""
    state = make_state(blocks, maps=("13",), phase=phase, options={"scenario": ISLAND},
                       armies_=["elves", "undead"])
    state["scenario"] = {"key": ISLAND, "stage": "placed", "first": None, "queue": [],
                         "armies": {}, "capitals": {}, "fallen": [], "heal": None, "winner": None}
    owners = {"Logyn": 0, "Garundy": 0}
    for h, city in rules.board(state).cities.items():
        state["city_owner"][h] = owners.get(city.name, 1)
    return state


def undead_bot(seed: int = 0) -> UndeadBot:
    bot = UndeadBot(RULESET, seed)
    bot.hello(hello_message(RULESET, RULESET.options({"scenario": ISLAND}), 2, 1))
    return bot


def ask(bot, state: dict, seat: int = 1):
    return bot.act({"type": "act", "seat": seat, "view": RULESET.view(state, seat),
                    "legal_actions": RULESET.legal_actions(state, seat)})


def names(state: dict) -> dict[str, str]:
    return {h: c.name for h, c in rules.board(state).cities.items()}


# -- 1.1 and the option ---------------------------------------------------------------------------

def test_1_1_each_scenario_starts_from_the_option_and_conflicting_options_are_refused():
    """1.1: "Ĉe via unua ludopartio oni rekomendas la soliteran scenejon La insulo de la
    mortintoj je 7.1 ... Oni havigas tie ĉi ankaŭ kromajn scenejojn" (the first game: the
    Island of the Dead; more scenarios are given)."""
    for key in (ISLAND, BARBARIANS, LAST, ALLIANCE):
        state = RULESET.setup(2, {"scenario": key})
        assert state["scenario"] is not None and state["scenario"]["key"] == key
        assert isinstance(RULESET.next(state), (Chance, ToAct))
    for options, players, word in (({"scenario": ISLAND}, 3, "2 players"),
                                   ({"scenario": ISLAND, "armies": "elves,orcs"}, 2, "armies"),
                                   ({"scenario": BARBARIANS, "maps": "16,15"}, 2, "maps"),
                                   ({"scenario": ISLAND, "turn_limit": 12}, 2, "10 turns"),
                                   ({"scenario": LAST, "expansion": True}, 2, "expansion"),
                                   ({"scenario": ALLIANCE, "victory_gold": 20}, 2, "victory")):
        with pytest.raises(InvalidOptions, match=word):
            RULESET.setup(players, options)
    assert RULESET.setup(2, {"scenario": BARBARIANS, "turn_limit": 14})["options"]["turn_limit"] == 14


def test_7_0_the_scenario_data_is_checked_and_the_roles_keep_their_printed_costs():
    """7.3: "Soldataĉaro (kosto 1) ... Meza soldataro (kosto 2) ... Elita soldataro (kosto 4)",
    7.4: "Kastelo (kosto 2)" (the roles' costs); every scenario's blocks exist."""
    data = scenarios._roles()
    for army, kinds in data["armies"].items():
        for role, key in kinds.items():
            assert kind_of(key).cost == data["cost"][role], (army, role, key)
    assert set(scenarios.scenarios()) == {ISLAND, BARBARIANS, LAST, ALLIANCE}
    assert [s.section for s in scenarios.scenarios().values()] == ["7.1", "7.2", "7.3", "7.4"]


# -- 7.1 The Island of the Dead ---------------------------------------------------------------------

def test_7_1_the_blocks_start_where_the_rulebook_puts_them():
    """7.1: "Komencaj urboj estas skribitaj inter krampoj": Castle (Bethi) C4 2, Skeleton
    (Bethi), Skeleton (Anzar), Zombies (Baven, Kreba, Atami) 2; Wicana (Logyn) 4, Ranger 3, two
    Pixies 3 (Logyn), Glader (Garundy) 1 (the starting cities are in brackets)."""
    state = begin(ISLAND)
    where = names(state)
    placed = sorted((blk["owner"], blk["kind"], blk["steps"], where[blk["hex"]])
                    for blk in state["blocks"].values())
    assert placed == sorted([
        (0, "elves/wicana", 4, "Logyn"), (0, "elves/ranger", 3, "Logyn"),
        (0, "elves/pixie", 3, "Logyn"), (0, "elves/pixie", 3, "Logyn"),
        (0, "elves/glader", 1, "Garundy"),
        (1, "undead/castle", 2, "Bethi"), (1, "undead/skeleton", 2, "Bethi"),
        (1, "undead/skeleton", 2, "Anzar"), (1, "undead/zombie", 2, "Baven"),
        (1, "undead/zombie", 2, "Kreba"), (1, "undead/zombie", 2, "Atami")])
    owners = {where[h]: o for h, o in state["city_owner"].items()}
    assert owners == {"Logyn": 0, "Garundy": 0, "Bethi": 1, "Anzar": 1, "Baven": 1, "Kreba": 1,
                      "Atami": 1}
    seen = [b for b in RULESET.view(state, 0)["blocks"] if b["owner"] == 1]
    assert seen and all("kind" not in b for b in seen)        # 2.0: still hidden


def test_7_1_the_undead_always_move_second_without_an_initiative_roll():
    """7.1: "Nemortintoj ĉiam moviĝas due ... Iniciativa sinsekvo kaj venkokondiĉoj restas la
    samaj" (the Undead always move second)."""
    state = begin(ISLAND)
    for turn in (1, 2):
        assert state["turn"] == turn and state["order"] == [0, 1]
        assert RULESET.next(state) == ToAct((0,))
        assert state["log"][-1].get("fixed") or any(e.get("fixed") for e in state["log"])
        state = play_first(state, lambda s, t=turn: s["turn"] > t)
        assert not any(r.get("rolls") for r in state["log"] if r["turn"] == turn + 1)


def test_7_1_the_undead_may_not_leave_thilenius():
    """7.1: "Nemortintoj regas la Insulon Thilenius kiun ne povas forlasi" (the Undead hold the
    island of Thilenius and may not leave it). 0102 is on the island, 0002 across its bridge."""
    state = island([("z", 1, "undead/zombie", 2, "0102"), ("e", 0, "elves/glader", 1, "0000")])
    state["order"], state["mover"] = [1, 0], 0
    reach = {a["to"] for a in RULESET.legal_actions(state, 1) if a["type"] == "move"}
    assert reach and all(scenarios.may_enter(state, 1, h) for h in reach)
    assert "0002" not in reach and scenarios.may_enter(state, 0, "0002")
    free = make_state([("z", 1, "undead/zombie", 2, "0102"), ("e", 0, "elves/glader", 1, "0000")],
                      maps=("13",), order=[1, 0])   # the same block in a custom game
    assert "0002" in {a["to"] for a in RULESET.legal_actions(free, 1) if a["type"] == "move"}


def test_7_1_an_undead_block_never_retreats_off_the_island():
    """7.1: "kiun ne povas forlasi" also in battle: retreats (5.4) stay on Thilenius."""
    state = island([("z", 1, "undead/zombie", 2, "0102"), ("p", 0, "elves/pixie", 1, "0000"),
                    ("g", 0, "elves/glader", 1, "0203"), ("c", 1, "undead/castle", 2, "0304")])
    state = end_moves(act(state, 0, {"type": "move", "block": "g", "to": "0102", "via": "0203"}))
    while state["battle"]["round"] < 2:
        bid = state["battle"]["current"]
        state = idle(state, bid)
    while state["battle"]["current"] != "z":
        bid = state["battle"]["current"]
        state = idle(state, bid)
    targets = {a["to"] for a in RULESET.legal_actions(state, 1) if a["type"] == "retreat"}
    assert targets and all(scenarios.may_enter(state, 1, h) for h in targets)
    unbound = {**state, "options": {**state["options"], "scenario": ""}}
    assert "0002" in set(battle.retreat_targets(unbound, "z")) - targets   # across the bridge


def test_7_1_the_elves_win_by_destroying_the_castle_in_bethi_else_the_undead_win():
    """7.1: "Elfoj venkas detruante la kastelon en Bethi ne pli longe ol 10 vicoj. Nemortintoj
    venkas aliokaze." (the Elves win by destroying the castle in Bethi within 10 turns; else the
    Undead win.)"""
    state = island([("c", 1, "undead/castle", 1, "0304"), ("w", 0, "elves/wicana", 4, "0300"),
                    ("r", 0, "elves/ranger", 3, "0303")])
    assert scenarios.verdict(state, "battle") is None
    remove(state, "c")                                  # the castle falls in a battle
    state["phase"], state["battle"], state["queue"] = "battle", None, []
    rules.advance(state)
    assert state["phase"] == "over" and state["end_reason"] == "castle destroyed"
    assert isinstance(RULESET.next(state), Ended) and state["scores"] == [1, 0]
    state = island([("c", 1, "undead/castle", 1, "0304"), ("w", 0, "elves/wicana", 4, "0300")])
    state["turn"] = 10
    rules._end_of_turn(state)
    assert state["end_reason"] == "turn limit" and state["scores"] == [0, 1]


def test_7_1_the_elves_may_build_two_more_gladers_and_a_castle():
    """7.1: "Elfoj povas konstrui du kromajn Gladers kaj unu Castle en amika urbo." (the Elves
    may build two extra Gladers and one Castle in a friendly city.)"""
    state = begin(ISLAND)
    assert pool(state, 0) == {"elves/glader": 2, "elves/castle": 1}
    state = island([("g", 0, "elves/glader", 1, "0300"), ("c", 1, "undead/castle", 2, "0304")])
    state["gold"]["0300"] = 3
    rules._start_build(state)
    offered = {(a["kind"], a["hex"]) for a in RULESET.legal_actions(state, 0) if a["type"] == "recruit"}
    assert ("elves/castle", "0300") in offered and ("elves/glader", "0300") in offered


def test_7_1_the_undead_create_no_new_blocks_and_rebuild_the_eliminated_ones():
    """7.1: "Oni ne povas krei novajn nemortintajn blokojn. Oni devas rekonstrui la forigitajn
    nemortintajn blokojn kun Forto 1" (no new Undead blocks; eliminated ones are rebuilt at
    strength 1)."""
    state = begin(ISLAND)
    assert pool(state, 1) == {}                          # no Necromancer, no Wraith
    zombie = next(b for b, blk in state["blocks"].items() if blk["kind"] == "undead/zombie")
    remove(state, zombie)
    assert pool(state, 1) == {"undead/zombie": 1}


def test_7_1_a_disbanded_castle_is_not_offered():
    """7.1 "detruante la kastelon" (D46): only the enemy destroys the castle; its own side may
    not disband it (6.5) nor combine it away."""
    state = island([("c", 1, "undead/castle", 2, "0304"), ("s", 1, "undead/skeleton", 2, "0304"),
                    ("w", 0, "elves/wicana", 4, "0300")])
    rules._start_build(state)
    legal = RULESET.legal_actions(state, 1)
    assert {"type": "disband", "block": "s"} in legal
    assert not [a for a in legal if a.get("block") == "c" and a["type"] == "disband"
                or a.get("from") == "c"]


# -- the automatic Undead (7.1) --------------------------------------------------------------------

def test_7_1_undead_bot_attacks_an_elf_block_within_its_move_allowance():
    """7.1: "Ĉiu bloko moviĝas por ataki elfan blokon ene de sia movkapablo" (each block moves
    to attack an Elf block within its move allowance)."""
    state = island([("s", 1, "undead/skeleton", 2, "0202"), ("p", 0, "elves/pixie", 1, "0204"),
                    ("w", 0, "elves/wicana", 4, "0300"), ("c", 1, "undead/castle", 2, "0304")])
    state["order"] = [1, 0]
    action = ask(undead_bot(), state)
    assert action["type"] == "move" and action["block"] == "s" and action["to"] == "0204"
    assert action in RULESET.legal_actions(state, 1)


def test_7_1_undead_bot_does_not_move_when_every_elf_is_out_of_reach():
    """7.1: "Se ĉiuj Elfoj estas ekster-atinge, la nemortinta bloko ne moviĝas." (a block with
    every Elf out of reach does not move.)"""
    state = island([("s", 1, "undead/skeleton", 2, "0202"), ("w", 0, "elves/wicana", 4, "0700"),
                    ("c", 1, "undead/castle", 2, "0304")])
    state["order"] = [1, 0]
    assert any(a["type"] == "move" for a in RULESET.legal_actions(state, 1))
    assert ask(undead_bot(), state) == {"type": "done"}


def test_7_1_undead_bot_rolls_between_several_hexes_in_reach():
    """7.1: "Kiam ekzistas pli ol unu ebla heksagona celo, ruligu loton por elekti la lokon.
    Ĉiuj en-atingaj heksagonoj havas la saman antaŭecon." (several targets: a roll, all equal.)"""
    state = island([("s", 1, "undead/skeleton", 2, "0202"), ("p", 0, "elves/pixie", 1, "0204"),
                    ("q", 0, "elves/pixie", 1, "0302"), ("c", 1, "undead/castle", 2, "0304")])
    state["order"] = [1, 0]
    chosen = {ask(undead_bot(seed), state)["to"] for seed in range(20)}
    assert chosen == {"0204", "0302"}


def test_7_1_undead_bot_joins_a_battle_the_elves_started():
    """7.1: "inkluzive por sin aldoni al batalo komencita de Elfoj" (including joining a battle
    started by the Elves)."""
    state = island([("z", 1, "undead/zombie", 2, "0204"), ("s", 1, "undead/skeleton", 2, "0202"),
                    ("g", 0, "elves/glader", 1, "0205"), ("c", 1, "undead/castle", 2, "0304")])
    state = act(state, 0, {"type": "move", "block": "g", "to": "0204", "via": "0205"})
    assert RULESET.next(state) == ToAct((1,)) and "0204" in state["fights"]
    action = ask(undead_bot(), state)
    assert action["type"] == "move" and action["to"] == "0204"


def test_7_1_undead_bot_retreats_at_strength_one_to_a_friendly_hex_first():
    """7.1: "Nemortinta bloko devas retreti se ĝi havas Forton 1 ĉe sia batalvico. Ĝi antaŭece
    retretu en amikan heksagonon, poste en neŭtran heksagonon." (an Undead block with strength 1
    at its combat turn must retreat, to a friendly hex first, then a neutral one.)"""
    state = island([("z", 1, "undead/zombie", 1, "0405"), ("c", 1, "undead/castle", 2, "0304"),
                    ("g", 0, "elves/glader", 1, "0305")])
    state = end_moves(act(state, 0, {"type": "move", "block": "g", "to": "0405", "via": "0305"}))
    bot = undead_bot()
    assert state["battle"]["current"] == "z" and state["battle"]["round"] == 1
    assert ask(bot, state) == {"type": "fire", "block": "z"}   # 5.4: no retreat in round 1
    state = idle(state, "z")
    state = idle(state, "g")
    assert state["battle"]["current"] == "z" and state["battle"]["round"] == 2
    retreats = {a["to"] for a in RULESET.legal_actions(state, 1) if a["type"] == "retreat"}
    assert "0304" in retreats and len(retreats) > 1
    assert ask(bot, state) == {"type": "retreat", "block": "z", "to": "0304"}
    state["blocks"]["z"]["steps"] = 2
    assert ask(bot, state) == {"type": "fire", "block": "z"}


def test_7_1_undead_bot_takes_losses_on_the_weakest_first():
    """7.1: "Nemortintajn perdojn oni apliku al la plej malfortaj unue." (Undead losses go to
    the weakest first; D55: where 5.32 lets the owner choose among equally strong blocks.)"""
    state = island([("z", 1, "undead/zombie", 2, "0304"), ("c", 1, "undead/castle", 2, "0304"),
                    ("s", 1, "undead/skeleton", 2, "0304")], phase="battle")
    view = RULESET.view(state, 1)
    bot = undead_bot()
    assert min(["c", "s", "z"], key=lambda b: bot._weakness(view, b)) == "z"


def test_7_1_undead_bot_rebuilds_first_then_adds_to_the_weakest_and_saves_only_when_stuck():
    """7.1: "Oni devas rekonstrui la forigitajn nemortintajn blokojn kun Forto 1 antaŭ ol aldoni
    paŝojn al la ekzistantaj blokoj. Oni elspezu la restantajn nemortintajn GPs ĉe la plej
    malfortaj blokoj unue kaj akumuli nur se novaj kontruadoj ne eblas." (rebuild eliminated
    blocks at strength 1 before adding steps; spend the rest on the weakest first; save only if
    nothing can be built.)"""
    state = island([("c", 1, "undead/castle", 2, "0304"), ("s", 1, "undead/skeleton", 3, "0304"),
                    ("z", 1, "undead/zombie", 1, "0304"), ("w", 0, "elves/wicana", 4, "0300")])
    rules._start_build(state)                           # Bethi yields 3 gold
    bot = undead_bot()
    first = ask(bot, state)
    assert first["type"] == "recruit" and first["kind"] in ("undead/zombie", "undead/skeleton")
    state = act(state, 1, first)
    second = ask(bot, state)
    new = next(b for b in state["drafts"]["1"]["blocks"] if b.startswith("new-"))
    assert second["type"] in ("recruit", "add")
    while (action := ask(bot, state))["type"] != "done":
        if action["type"] == "add":
            steps = {b: blk["steps"] for b, blk in state["drafts"]["1"]["blocks"].items()}
            addable = [a["block"] for a in RULESET.legal_actions(state, 1) if a["type"] == "add"]
            assert steps[action["block"]] == min(steps[b] for b in addable)
        state = act(state, 1, action)
    assert not [a for a in RULESET.legal_actions(state, 1) if a["type"] in ("recruit", "add")]
    assert state["drafts"]["1"]["blocks"][new]["steps"] >= 1


def test_7_1_undead_bot_plays_as_the_heuristic_bot_anywhere_else():
    """D56: the automatic Undead exist only in 7.1's Undead seat; elsewhere the bot says why and
    plays as the heuristic bot."""
    bot = UndeadBot(RULESET, 0)
    bot.hello(hello_message(RULESET, RULESET.options({}), 2, 1))
    assert "island-of-the-dead" in bot.fallback
    elves = UndeadBot(RULESET, 0)
    elves.hello(hello_message(RULESET, RULESET.options({"scenario": ISLAND}), 2, 0))
    assert "seat 1" in elves.fallback
    assert undead_bot().fallback is None
    assert RULESET.builtin_bots()["undead"] is UndeadBot


# -- 7.2 Barbarian Attack ---------------------------------------------------------------------------

def test_7_2_the_amazons_cover_the_seven_cities_and_the_barbarians_stand_in_the_desert():
    """7.2: "Situigu ĉiujn amazonajn blokojn je iliaj difinitaj fortoj tiel, ke almenaŭ 1 bloko
    kuŝu sur ĉiu el la 7 urboj. Situigu la 6 barbarajn blokojn en la du heksagonoj de la Sobara
    Desert. La Vikingoj devas kuŝi sur la marborda heksagono." (Amazons at their strengths with
    a block on each of the 7 cities; the 6 Barbarians in the two Sobara Desert hexes, the
    Vikings on the coastal one.)"""
    state = begin(BARBARIANS)
    assert state["phase"] == "place" and RULESET.next(state).seats == (0, 1)
    vikings = {a["hex"] for a in RULESET.legal_actions(state, 0) if a["kind"] == "barbarians/viking"}
    assert vikings == {"0301"}
    # the Amazons pile their blocks where they may; the options keep every city coverable
    state = play_first(state, lambda s: s["phase"] != "place")
    where = names(state)
    amazons = [blk for blk in state["blocks"].values() if blk["owner"] == 1]
    assert {where[b["hex"]] for b in amazons} == {c.name for c in rules.board(state).cities.values()}
    assert sorted((b["kind"], b["steps"]) for b in amazons) == sorted(
        [("amazons/charmer", 2), ("amazons/amazon", 4), ("amazons/amazon", 3), ("amazons/amazon", 2),
         ("amazons/guardian", 1), ("amazons/guardian", 2), ("amazons/bowlyn", 1), ("amazons/castle", 2)])
    desert = set(scenarios.hexes_named(("16",), "Sobara Desert"))
    barbarians = [b for b in state["blocks"].values() if b["owner"] == 0]
    assert len(barbarians) == 6 and {b["hex"] for b in barbarians} <= desert
    assert next(b for b in barbarians if b["kind"] == "barbarians/viking")["hex"] == "0301"


def test_7_2_barbarians_move_first_and_the_amazons_do_not_move_in_turn_1():
    """7.2: "Barbaroj moviĝas unue; Amazonoj ne moviĝas dum la unua vico." (the Barbarians move
    first; the Amazons do not move in turn 1.)"""
    state = play_first(begin(BARBARIANS), lambda s: s["phase"] == "move")
    assert state["order"] == [0, 1] and RULESET.next(state) == ToAct((0,))
    assert rules.move_options(state, 1) == [{"type": "done"}]
    state = act(state, 0, {"type": "done"})
    state = settle(state)
    assert state["phase"] != "move" or state["turn"] > 1          # the Amazons were skipped
    state = play_first(state, lambda s: s["phase"] == "move" and s["turn"] == 2
                       and s["order"][s["mover"]] == 1)
    assert len(rules.move_options(state, 1)) > 1                  # turn 2: they move


def test_7_2_barbarian_gold_comes_only_from_captured_amazon_cities():
    """7.2: "La barbara oro dum la konstrufazo estas produktita nur ĉe la kaptitaj amazonaj
    urboj." (Barbarian gold comes only from captured Amazon cities.)"""
    state = play_first(begin(BARBARIANS), lambda s: s["phase"] == "move")
    assert not [h for h, owner in state["city_owner"].items() if owner == 0]
    rules._start_build(state)
    assert state["drafts"]["0"]["gold"] == {}
    state = play_first(begin(BARBARIANS), lambda s: s["phase"] == "move")
    amazon = next(b for b, blk in state["blocks"].items() if blk["owner"] == 1 and blk["hex"] == "0203")
    barbarian = next(b for b, blk in state["blocks"].items() if blk["owner"] == 0
                     and blk["kind"] != "barbarians/viking")
    for bid in [b for b, blk in state["blocks"].items() if blk["hex"] == "0203"]:
        remove(state, bid)                                        # Nikaia taken
    place(state, barbarian, "0203")
    rules._start_build(state)
    assert state["drafts"]["0"]["gold"] == {"0203": 1}
    assert amazon not in state["blocks"]


def test_7_2_eliminated_blocks_stay_out_for_good():
    """7.2: "Lasu definitive ekster la partio la forigitajn blokojn." (eliminated blocks are out
    of the game for good.)"""
    state = play_first(begin(BARBARIANS), lambda s: s["phase"] == "move")
    spearmaid = next(b for b, blk in state["blocks"].items() if blk["kind"] == "barbarians/spearmaid")
    before = pool(state, 0)
    remove(state, spearmaid)
    assert pool(state, 0) == before and "barbarians/spearmaid" in state["dead"][0]
    disbanded = next(b for b, blk in state["blocks"].items() if blk["kind"] == "barbarians/cleric")
    remove(state, disbanded, killed=False)                  # 6.5: disbanding is no elimination
    assert pool(state, 0) == {**before, "barbarians/cleric": 1}


def test_7_2_barbarians_win_by_destroying_the_amazon_castle():
    """7.2: "Barbaroj venkas se detruas la amazonan kastelon." (the Barbarians win by
    destroying the Amazon castle.)"""
    state = play_first(begin(BARBARIANS), lambda s: s["phase"] == "move")
    assert scenarios.verdict(state, "battle") is None
    castle = next(b for b, blk in state["blocks"].items() if blk["kind"] == "amazons/castle")
    remove(state, castle)
    assert scenarios.verdict(state, "battle") == "castle destroyed"
    assert scenarios.scores(state, "castle destroyed") == [1, 0]


def test_7_2_amazons_win_holding_five_cities_at_the_end_of_a_turn_after_the_fifth():
    """7.2: "Amazonoj venkas se mastras kvin aŭ pli da urboj ĉe la fino de iu ajn vico post la
    5a vico." (the Amazons win holding five or more cities at the end of any turn after turn
    5.)"""
    state = play_first(begin(BARBARIANS), lambda s: s["phase"] == "move")
    state["turn"] = 5
    assert scenarios.verdict(state, "turn") is None             # D43: turn 6 is the first
    state["turn"] = 6
    assert scenarios.verdict(state, "turn") == "cities held"
    assert scenarios.scores(state, "cities held") == [0, 1]
    state = play_first(begin(BARBARIANS), lambda s: s["phase"] == "move")
    state["turn"] = 6
    barbarian = next(b for b, blk in state["blocks"].items() if blk["owner"] == 0)
    for city in ("0203", "0205", "0406"):                      # three cities taken: 4 left
        for bid in [b for b, blk in state["blocks"].items() if blk["hex"] == city]:
            remove(state, bid, killed=False)
        place(state, barbarian, city)
        state["blocks"][barbarian] = dict(state["blocks"][barbarian])
        barbarian = next(b for b, blk in state["blocks"].items() if blk["owner"] == 0
                         and blk["hex"] in ("0201", "0301"))
    assert sum(1 for h in state["city_owner"] if rules.controller(state, h) == 1) == 4
    assert scenarios.verdict(state, "turn") is None


# -- 7.3 Last Wizard Standing -----------------------------------------------------------------------

def test_7_3_a_roll_picks_who_chooses_the_army_and_the_other_chooses_the_map():
    """7.3: "Elektu armeon orkan aŭ feŭdan -rajto elekti unue difinita per lotoruligado. Kiu
    due elektas, tiu rajtas elekti unue la mapon." (choose Orcs or Feudals, a roll decides who
    chooses first; the second chooser chooses the map first.)"""
    for first in (0, 1):
        state = settle(RULESET.setup(2, {"scenario": LAST}), first=first)
        assert state["phase"] == "choose" and RULESET.next(state) == ToAct((first,))
        assert RULESET.legal_actions(state, first) == [{"type": "army", "army": "orcs"},
                                                       {"type": "army", "army": "feudals"}]
        state = act(state, first, {"type": "army", "army": "feudals"})
        other = 1 - first
        assert RULESET.next(state) == ToAct((other,))
        assert RULESET.legal_actions(state, other) == [{"type": "map", "map": "14"},
                                                       {"type": "map", "map": "15"}]
        state = act(state, other, {"type": "map", "map": "15"})
        assert state["armies"][first] == "feudals" and state["armies"][other] == "orcs"
        assert state["maps"][other] == "15" and state["maps"][first] == "14"
        assert state["phase"] == "place"


def test_7_3_every_army_is_placed_at_its_printed_strengths_on_its_own_map():
    """7.3: "Situigu ĉiujn blokojn je iliaj difinitaj fortoj. Ĉiuj ludantoj situigas sur 1
    mapon." (all blocks at their given strengths; each player places on one map.) The army list:
    Magiisto 4, three Soldataĉaroj 4, two Mezaj soldataroj 3, Elita 3, Kastelo (C4) 4."""
    state = play_first(begin(LAST), lambda s: s["phase"] == "move")
    b = rules.board(state)
    for seat in (0, 1):
        mine = [blk for blk in state["blocks"].values() if blk["owner"] == seat]
        assert sorted(blk["steps"] for blk in mine) == [3, 3, 3, 4, 4, 4, 4, 4]
        assert {b.map_of[blk["hex"]] for blk in mine} == {seat}
        assert all(blk["hex"] in b.cities for blk in mine)
        assert {h for h, o in state["city_owner"].items() if o == seat} <= {blk["hex"] for blk in mine}
        costs = sorted(kind_of(blk["kind"]).cost for blk in mine)
        assert costs == [1, 1, 1, 2, 2, 2, 2, 4]      # three cost 1, two cost 2, elite 4 (+ wizard, castle at 2)


def test_7_3_kuraco_heals_one_step_on_1_to_3_and_two_on_4_to_6():
    """7.3: "Ambaŭ magiistoj konas unu kroman 2-nivelan ekzorcon nomitan Kuraco, kiun oni povas
    ĵeti dum la movfazo. Ruligu 1d6: 1-3: kuracas 1 paŝon; 4-6: kuracas 2 paŝojn. Aldonu paŝojn
    al la bloko(j) ĉe la sama heksagono." (a level-2 heal cast in the move phase: 1d6, 1-3 heals
    one step, 4-6 two, to the blocks in the same hex.)"""
    for die, healed in ((3, 1), (4, 2)):
        state = make_state([("w", 0, "orcs/shaman", 4, "0302"), ("g", 0, "orcs/goblin", 1, "0302"),
                            ("h", 0, "orcs/orc", 2, "0302"), ("f", 1, "feudals/levy", 2, "1102")],
                           maps=("14", "15"), options={"scenario": LAST}, armies_=["orcs", "feudals"])
        state["scenario"] = {"key": LAST, "stage": "placed", "first": 0, "queue": [], "armies": {},
                             "capitals": {}, "fallen": [], "heal": None, "winner": None}
        cast = {"type": "cast", "block": "w", "spell": "scenario/kuraco"}
        assert cast in RULESET.legal_actions(state, 0)
        state = act(state, 0, cast)
        assert RULESET.next(state).spec == {"kind": "dice", "count": 1, "sides": 6}
        assert RULESET.legal_actions(state, 0) == []
        state = roll(state, [die])
        assert state["blocks"]["w"]["steps"] == 2 and state["blocks"]["w"]["cast"]
        assert state["blocks"]["g"]["steps"] + state["blocks"]["h"]["steps"] == 3 + healed
        assert state["blocks"]["g"]["steps"] == 1 + healed        # the weakest first (g < h)
        assert not [a for a in RULESET.legal_actions(state, 0) if a.get("block") == "w"]


def test_7_3_no_building_but_each_wizard_regains_two_steps_and_one_more_on_a_henge():
    """7.3: "Ĉiu magiisto rehavas 2 paŝojn dum la konstrufazo. Nenia konstruado okazas, krom ke
    magiistoj gajnas 1 paŝon ĉe Ŝtona Cirklo." (each wizard regains 2 steps in the build; no
    building happens, except wizards gain 1 step at a henge.) 0303 is map 14's henge."""
    state = make_state([("w", 0, "orcs/shaman", 1, "0302"), ("h", 1, "feudals/magus", 1, "0303"),
                        ("g", 0, "orcs/goblin", 1, "0302")],
                       maps=("14", "15"), options={"scenario": LAST}, armies_=["orcs", "feudals"])
    state["scenario"] = {"key": LAST, "stage": "placed", "first": 0, "queue": [], "armies": {},
                         "capitals": {}, "fallen": [], "heal": None, "winner": None}
    state["turn"] = 3
    rules._start_build(state)
    assert state["drafts"] == {} and RULESET.next(state) != ToAct((0, 1))
    rules.advance(state)
    assert state["blocks"]["w"]["steps"] == 3 and state["blocks"]["h"]["steps"] == 4
    assert state["blocks"]["g"]["steps"] == 1


def test_7_3_the_winner_has_more_gold_in_blocks_after_ten_turns():
    """7.3: "Venkinto estas tiu, kiu pli da GP en blokoj havas post 10 vicoj." (the winner has
    more gold in blocks after 10 turns.)"""
    state = make_state([("w", 0, "orcs/shaman", 4, "0302"), ("g", 0, "orcs/goblin", 3, "0302"),
                        ("k", 1, "feudals/knight", 3, "1102")],
                       maps=("14", "15"), options={"scenario": LAST}, armies_=["orcs", "feudals"])
    state["scenario"] = {"key": LAST, "stage": "placed", "first": 0, "queue": [], "armies": {},
                         "capitals": {}, "fallen": [], "heal": None, "winner": None}
    state["turn"] = 10
    rules._end_of_turn(state)
    assert state["end_reason"] == "turn limit" and state["scores"] == [4 * 2 + 3 * 1, 3 * 4]
    assert list(RULESET.next(state).result.placings) == [2, 1]


# -- 7.4 Alliance Spread ----------------------------------------------------------------------------

def alliance(first: int = 0) -> dict:
    state = settle(RULESET.setup(2, {"scenario": ALLIANCE}), first=first)
    for seat, army in ((first, "elves"), (1 - first, "orcs"), (first, "undead"),
                       (1 - first, "dwarves")):
        assert RULESET.next(state) == ToAct((seat,))
        state = act(state, seat, {"type": "army", "army": army})
    return state


def test_7_4_each_player_picks_two_armies_after_a_roll_and_sets_a_capital_on_each_map():
    """7.4: "Ĉiuj ludantoj elektas du armeojn. Difinu kiu rajtos elekti unue per lotoruligado.
    Ĉiu armeo komencas per 5 blokoj kaj starigas 1 ĉefurbon sur ĉiu mapo kie estu situigitaj
    ĉiuj 5 blokoj." (each player picks two armies, a roll decides who picks first; each army
    starts with 5 blocks, all in its capital, one capital on each map.)"""
    state = alliance(first=1)
    assert state["scenario"]["armies"] == {"1": ["elves", "undead"], "0": ["orcs", "dwarves"]}
    b = rules.board(state)
    maps_used = set()
    for seat in (1, 0, 1, 0):
        legal = RULESET.legal_actions(state, seat)
        assert legal and all(a["type"] == "capital" and b.map_of[a["hex"]] not in maps_used
                             and b.stack_limit(a["hex"]) >= 5 for a in legal)
        maps_used.add(b.map_of[legal[0]["hex"]])
        state = act(state, seat, legal[0])
    state = settle(state)
    assert state["phase"] == "move" and len(maps_used) == 4
    for army, hex_ in state["scenario"]["capitals"].items():
        here = [blk for blk in state["blocks"].values() if blk["hex"] == hex_]
        assert sorted(blk["steps"] for blk in here) == [2, 3, 3, 4, 4]
        assert {blk["kind"].split("/")[0] for blk in here} == {army}


def test_7_4_cities_left_empty_become_neutral_and_chaos_blocks_may_be_built():
    """7.4: "Oni lasu en ĉiuj urboj garnizonon por plu mastri ilin. Ili iĝas neŭtraj se
    malplenas. Oni povas konstrui novajn blokojn laŭvole, inkluzive tiujn ĥaosajn." (cities need
    a garrison; empty ones become neutral; new blocks may be built, chaos blocks included.)"""
    state = play_first(alliance(), lambda s: s["phase"] == "move")
    capitals = set(state["scenario"]["capitals"].values())
    held = {h for h in state["city_owner"] if rules.controller(state, h) is not None}
    assert held == capitals and set(state["city_owner"].values()) == {None}
    spare = pool(state, 0)
    assert "chaos/minotaur" in spare and "elves/glader" in spare and "undead/zombie" in spare
    assert "undead/wraith" not in spare and "orcs/goblin" not in spare     # on the board; not its army


def test_7_4_losing_a_castle_removes_its_army_and_both_castles_win():
    """7.4 (D50, D51): an army whose castle is destroyed leaves the board with all its blocks;
    a player wins by destroying both enemy castles."""
    state = play_first(alliance(), lambda s: s["phase"] == "move")
    castle = next(b for b, blk in state["blocks"].items() if blk["kind"] == "orcs/castle")
    remove(state, castle)
    assert scenarios.verdict(state, "battle") is None
    assert not [blk for blk in state["blocks"].values() if blk["kind"].startswith("orcs/")]
    assert "orcs/goblin" not in pool(state, 1) and state["scenario"]["fallen"] == ["orcs"]
    castle = next(b for b, blk in state["blocks"].items() if blk["kind"] == "dwarves/castle")
    remove(state, castle)
    assert scenarios.verdict(state, "battle") == "castles destroyed"
    assert scenarios.scores(state, "castles destroyed") == [1, 0]


def test_7_4_at_the_bound_fallen_enemy_armies_then_city_gold_decide():
    """7.4 plays "until one player wins" (D52): the engine stops at turn_limit and scores 100 a
    fallen enemy army plus the gold of the cities held."""
    state = play_first(alliance(), lambda s: s["phase"] == "move")
    castle = next(b for b, blk in state["blocks"].items() if blk["kind"] == "orcs/castle")
    remove(state, castle)
    scenarios.verdict(state, "battle")
    assert scenarios.scores(state, "turn limit") == [100 + city_gold(state, 0), city_gold(state, 1)]


def test_7_4_score_now_is_what_the_bound_would_score_and_decides_nothing():
    """7.4 plays "until one player wins" (D52): score_now is the bound's score as the board
    stands (100 a fallen enemy army plus city gold) and leaves the scenario undecided."""
    state = play_first(alliance(), lambda s: s["phase"] == "move")
    castle = next(b for b, blk in state["blocks"].items() if blk["kind"] == "orcs/castle")
    remove(state, castle)
    scenarios.verdict(state, "battle")
    before = json.dumps(state, sort_keys=True)
    assert RULESET.score_now(state) == [100 + city_gold(state, 0), city_gold(state, 1)]
    assert json.dumps(state, sort_keys=True) == before and state["scenario"]["winner"] is None
    assert scenarios.scores(state, "turn limit") == RULESET.score_now(state)


# -- whole games -------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", [ISLAND, BARBARIANS, LAST, ALLIANCE])
@pytest.mark.parametrize("bot", [RandomBot, HeuristicBot])
def test_every_scenario_plays_to_an_end(key, bot):
    """7.1-7.4: every scenario ends (a victory or its bound), with random and heuristic bots,
    within max_events and without an illegal action."""
    options = RULESET.options({"scenario": key})
    for seed in (1, 2):
        bots = {s: bot(RULESET, 10 * seed + s) for s in (0, 1)}
        records = playout(RULESET, 2, seed=hashlib.sha256(f"{key}{seed}".encode()).digest(),
                          bots=bots, options={"scenario": key},
                          max_events=RULESET.max_events(2, options))
        assert records[-1]["kind"] == "match_ended"
        assert not [r for r in records if r["kind"] == "forfeit"]
        assert sum(1 for r in records if r["kind"] == "action") > 20


def test_7_1_solitaire_the_undead_bot_against_the_elves_plays_to_an_end():
    """7.1: "Nemortintoj aŭtomate moviĝas ĉe solitera versio." (the Undead move automatically
    in the solitaire version.)"""
    options = {"scenario": ISLAND}
    for seed, elves in ((1, HeuristicBot), (2, RandomBot)):
        bots = {0: elves(RULESET, seed), 1: UndeadBot(RULESET, seed)}
        records = playout(RULESET, 2, seed=hashlib.sha256(f"solo{seed}".encode()).digest(),
                          bots=bots, options=options,
                          max_events=RULESET.max_events(2, RULESET.options(options)))
        assert records[-1]["kind"] == "match_ended"
        assert not [r for r in records if r["kind"] == "forfeit"]
        assert bots[1].fallback is None
