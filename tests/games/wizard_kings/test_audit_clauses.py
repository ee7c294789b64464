"""Issue 38's audit of Wizard Kings: the rules it found untested, wrong or missing from the
clause table, each test quoting its clause (Esperanto, with English) on the test maps of
conftest.py."""
from __future__ import annotations

from games.wizard_kings import movement, rules
from games.wizard_kings.board import distance
from games.wizard_kings.content import armies, kind_of
from games.wizard_kings.state import fire_number

from .conftest import (RULESET, act, find_kind, idle, make_state, moves_of, plain, reach, roll,
                       to_act)
from .test_battle import into_battle
from .test_build import build_state


def plain_c(k) -> bool:
    return plain(k) and k.letter == "C" and k.fire <= 2 and k.max >= 3


def seat_moves_done(state: dict, seats) -> dict:
    for seat in seats:
        if state["phase"] == "move" and to_act(state) == (seat,):
            state = act(state, seat, {"type": "done"})
    return state


# -- 2.32 and D6: a pass is a mountain hex ------------------------------------------------------

def test_2_32_and_d6_a_mountain_native_fights_one_better_in_a_pass():
    """2.32: "Montaranoj moviĝas tra montaraj ne haltante kaj ĝuas batalon +1 en montaraj
    heksagonoj" (mountain natives fight one better in mountain hexes); D6 and 3.15 ("Ĉe
    montpasejo la staklimo estas 2"): a pass is a mountain hex. Dwarf Axemen (C2) defending the
    pass 0501 hit on 1-3."""
    axeman = "dwarves/axeman"
    assert kind_of(axeman).fire == 2 and "mountain" in kind_of(axeman).traits
    foe = find_kind(plain_c)
    state = make_state([("ax", 1, axeman, 2, "0501"), ("f", 0, foe, 3, "0502")])
    state = into_battle(state, [("f", "0501", "0502")])
    assert state["battle"]["current"] == "ax"          # 5.2: the defender's C block first
    assert fire_number(state, "ax") == 3
    state = act(state, 1, {"type": "fire", "block": "ax"})
    state = roll(state, [3, 4])
    assert state["log"][-1]["hits"] == 1 and state["blocks"]["f"]["steps"] == 2
    # the same block out of the mountains hits on 1-2; version 2 gave a pass no natives
    assert fire_number({**state, "edition": 2}, "ax") == 2
    elsewhere = make_state([("ax", 1, axeman, 2, "0502")])
    assert fire_number(elsewhere, "ax") == 2


# -- 2.22 and D60: who may do nothing -----------------------------------------------------------

def test_2_22_d60_only_a_wizard_may_do_nothing_in_its_combat_turn():
    """2.22: "Dum batalo magiisto povas ĵeti po 1 ekzorco en ĉiu batalvico ... aŭ povas fari
    nenion se li/ŝi deziras nek lukti nek retreti" (a wizard may do nothing); 5.31 "Ĉiu bloko
    dum sia batalvico ruligas tiom da lotoj kiel indikite per ĝia nuna forto" and 5.4 "ĉiu
    bloko povas retreti anstataŭ lukti": every other block fires or retreats. In the pursuit
    round 5.21 "la defendantaj trupoj povas ataki" (may attack): passing is allowed there."""
    army = armies()["amazons"]
    wizard = next(k.key for k in army.kinds if k.wizard)
    c = find_kind(plain_c)
    state = make_state([("w", 0, wizard, 1, "1001"), ("a", 0, c, 2, "1001"),
                        ("d", 1, c, 4, "1002")])
    state = into_battle(state, [("w", "1002", "1001"), ("a", "1002", "1001")])
    assert state["battle"]["current"] == "w"
    assert {"type": "pass", "block": "w"} in RULESET.legal_actions(state, 0)
    state = act(state, 0, {"type": "pass", "block": "w"})
    assert state["battle"]["current"] == "d"
    kinds = {x["type"] for x in RULESET.legal_actions(state, 1)}
    assert kinds == {"fire"}                            # round 1: no retreat, no pass
    assert {"type": "pass", "block": "d"} in RULESET.legal_actions({**state, "edition": 2}, 1)
    state = idle(state)                                 # d fires and misses
    assert {x["type"] for x in RULESET.legal_actions(state, 0)} == {"fire"}
    state = idle(state)
    while state["battle"]["step"] == "turn":           # rounds 2 and 3
        bid = state["battle"]["current"]
        kinds = {x["type"] for x in RULESET.legal_actions(state, state["blocks"][bid]["owner"])}
        assert ("pass" in kinds) == (bid == "w")
        state = idle(state)
    assert state["battle"]["step"] == "pursue"
    state = act(state, 1, {"type": "pursue"})
    assert state["battle"]["round"] == 4
    while state["battle"]["current"] != "d":            # the attackers only retreat
        bid = state["battle"]["current"]
        state = act(state, 0, RULESET.legal_actions(state, 0)[0])
    assert {x["type"] for x in RULESET.legal_actions(state, 1)} == {"fire", "pass"}


# -- 4.5 into an enemy-held hex and a battle hex (4.9) ------------------------------------------

def test_4_5_no_attack_puts_more_blocks_in_an_enemy_hex_than_its_stacking_limit():
    """4.5: "Stoklimo estas la maksimuma kvanto da blokoj kiuj rajtas defendi aŭ ataki
    heksagonon" (the most blocks that may defend or attack a hex; clear: 4). Five attackers
    come at the clear 1002 through three hexsides (two a side, 4.6): the fifth has no room."""
    kind = find_kind(lambda k: plain(k) and k.move >= 2)
    starts = ["1001", "1001", "1101", "1101", "1102"]
    blocks = [(f"A{i}", 0, kind, 1, h) for i, h in enumerate(starts)] + [("D", 1, kind, 1, "1002")]
    state = make_state(blocks)
    for i in range(3):
        state = act(state, 0, {"type": "move", "block": f"A{i}", "to": "1002", "via": starts[i]})
    assert any(m["to"] == "1002" for m in moves_of(state, "A4"))      # a fourth fits
    state = act(state, 0, {"type": "move", "block": "A3", "to": "1002", "via": "1101"})
    assert not any(m["to"] == "1002" for m in moves_of(state, "A4"))  # a fifth does not
    assert len(state["at"]["1002"]) == 5                               # 4 attack, 1 defends


def test_4_9_a_joiner_picks_a_side_with_room_and_4_5_bars_a_full_battle():
    """4.9: "Ĉiuj ludantoj enirantaj en heksagonon kie jam okazas batalo inter aliaj du
    ludantoj devas alianciĝi jen kun la unua atakanto jen kun la defendanto ... La aliancanaj
    armeoj devas are obei la regulojn pri stoklimoj"; 4.5: "La ... kombinitaj armeoj ne povas
    entute superi la maksimuman stoklimon". Four attackers fill the attack side of 1002: a
    third player may join the defence only; with four defenders too it may not come in."""
    kind = find_kind(lambda k: plain(k) and k.move >= 2)
    starts = ["1001", "1001", "1101", "1101"]

    def joined(defenders):
        blocks = ([(f"A{i}", 0, kind, 1, h) for i, h in enumerate(starts)]
                  + [(f"D{i}", 1, kind, 1, "1002") for i in range(defenders)]
                  + [("J", 2, kind, 1, "1004")])
        state = make_state(blocks, players=3)
        for i, h in enumerate(starts):
            state = act(state, 0, {"type": "move", "block": f"A{i}", "to": "1002", "via": h})
        state = seat_moves_done(state, (0, 1))
        assert to_act(state) == (2,)
        return {m.get("side") for m in moves_of(state, "J") if m["to"] == "1002"}

    assert joined(1) == {"defend"}
    assert joined(4) == set()


# -- 5.34: one-step castles are immune to spells ------------------------------------------------

def castle_battle(castle_steps: int, other_steps: int | None = None):
    """An Amazon wizard (4 steps, A+: first) attacks a Feudal castle in 1002, with another
    Feudal block there if ``other_steps``."""
    army = armies()["amazons"]
    wizard = next(k.key for k in army.kinds if k.wizard)
    blocks = [("w", 0, wizard, 4, "1001"), ("c", 1, "feudals/castle", castle_steps, "1002")]
    if other_steps:
        blocks.append(("o", 1, find_kind(plain_c, "feudals"), other_steps, "1002"))
    state = into_battle(make_state(blocks), [("w", "1002", "1001")])
    assert state["battle"]["current"] == "w"
    return state, army


def test_5_34_a_spell_never_aims_at_or_hits_a_one_step_castle():
    """5.34: "1-paŝaj kasteloj estas imunaj kontraŭ ekzorcoj" (one-step castles are immune to
    spells), and "ekzorco neniam povas forigi la lastan paŝon de malamika bloko"."""
    state, army = castle_battle(1, other_steps=1)
    strike = next(s for s in army.spells if s.effect == "strike" and s.level == 1)
    storm = next(s for s in army.spells if s.effect == "storm")
    targets = {a.get("target") for a in RULESET.legal_actions(state, 0)
               if a["type"] == "cast" and a["spell"] == strike.key}
    assert targets == {"o"}                             # not the one-step castle
    two, _ = castle_battle(2)
    assert {a.get("target") for a in RULESET.legal_actions(two, 0)
            if a["type"] == "cast" and a["spell"] == strike.key} == {"c"}
    # a storm whose every die hits passes the castle by: the other block takes the hits, with
    # no choice between two equally strong blocks (5.32), and the castle keeps its step
    state = act(state, 0, {"type": "cast", "block": "w", "spell": storm.key})
    state = roll(state, [1] * storm.dice)
    assert state["battle"]["step"] != "hit"
    assert state["blocks"]["c"]["steps"] == 1 and "c" not in state["battle"]["forced"]
    assert state["blocks"]["o"]["steps"] == 1           # 5.34: a spell takes no last step


# -- footnote 8: damage at once -----------------------------------------------------------------

def test_footnote_8_damage_takes_effect_at_once():
    """Footnote 8: "batalo ne samtempe: La bataldamaĝoj tuj efikas" (combat is not
    simultaneous: damage takes effect at once). An attacking A block hits before the defending
    B blocks fire: the one it eliminates never fires, the one it hurts rolls fewer dice."""
    a = find_kind(lambda k: plain(k) and k.letter == "A" and k.max >= 3)
    b = find_kind(lambda k: plain(k) and k.letter == "B" and k.max >= 2)
    state = make_state([("a", 0, a, 3, "1001"), ("d1", 1, b, 2, "1002"), ("d2", 1, b, 1, "1002")])
    state = into_battle(state, [("a", "1002", "1001")])
    assert state["battle"]["turns"] == ["a", "d1", "d2"]
    state = act(state, 0, {"type": "fire", "block": "a"})
    state = roll(state, [1, 1, 6])                       # two hits: d1 2 -> 1, then a tie
    assert state["blocks"]["d1"]["steps"] == 1
    state = act(state, 1, {"type": "hit", "block": "d2"})
    assert "d2" not in state["blocks"] and state["battle"]["turns"] == ["d1"]
    state = act(state, 1, {"type": "fire", "block": "d1"})
    assert RULESET.next(state).spec["count"] == 1        # one step left: one die


# -- 4.4 and 2.13: free movement and moving less ------------------------------------------------

def test_4_4_blocks_move_freely_through_neutral_hexes():
    """4.4: "Malplenaj heksagonoj estas neŭtraj, krom la urboj ... Ludantoj povas movi tute
    libere tra neŭtraj heksagonoj" (players move freely through neutral hexes). 1002 is the
    only hex between 1001 and 1003: empty, a block goes through it; held by an enemy, the
    block must stop there (4.4: "devas halti enirinte malamikan heksagonon")."""
    kind = find_kind(lambda k: plain(k) and k.move == 2)
    state = make_state([("B", 0, kind, 1, "1001"), ("Z", 1, kind, 1, "1506")])
    assert "1003" in reach(state, "B")
    state = make_state([("B", 0, kind, 1, "1001"), ("Z", 1, kind, 1, "1002")])
    assert "1003" not in reach(state, "B") and "1002" in reach(state, "B")


def test_2_13_a_block_may_move_fewer_hexes_than_its_move_allowance():
    """2.13: "Bloko rajtas moviĝi malpli da heksagonoj ol tio difinita per ĝia movkapablo" (a
    block may move fewer hexes than its allowance): every hex within it is a move's end, and
    a seat may be done without moving it."""
    kind = find_kind(lambda k: plain(k) and k.move == 3)
    state = make_state([("B", 0, kind, 1, "1203"), ("Z", 1, kind, 1, "1506")])
    ends = reach(state, "B")
    assert {distance("1203", h) for h in ends} == {1, 2, 3}
    assert {"type": "done"} in RULESET.legal_actions(state, 0)
    state = act(state, 0, {"type": "done"})
    assert state["blocks"]["B"]["hex"] == "1203"


# -- the worked examples ------------------------------------------------------------------------

def test_3_3_movement_example_round_a_rivers_source_over_its_bridge_and_on_by_road():
    """3.3, "Rimarko: movekzemploj": the picture is not in the text, so its hexes [A]-[F]
    cannot be laid out as printed; its statements are scripted on t-west's river (hexsides
    between rows 4 and 5, columns 0-3, its source at 0305; bridge 0104|0105 on the road
    0103-0106). "la terblokoj povas moviĝi de [B] ĝis [A], kaj poste al [D] (ĉar la rivero
    naskiĝas en [A] kaj do ĝi estas ĉirkaŭirebla) ... La terblokoj ne povas rekte pasi de [B]
    ĝis [D] aŭ [E], sed povas pasi ĝis [F] tra la ponto" and "se tiu movado estas tute farita
    sur vojoj, movo ĝuas +1" (the example's move-1 block: no block of the seven armies moves
    1, so a move-2 block goes three along the road)."""
    kind = find_kind(lambda k: plain(k) and k.move == 2)
    b = movement.board(make_state([]))
    state = make_state([("B", 0, kind, 1, "0305"), ("Z", 1, kind, 1, "1506")])
    assert not movement.step_allowed(b, kind_of(kind), "0305", "0304")   # not straight across
    assert "0304" in reach(state, "B")                                   # round the source
    state = make_state([("B", 0, kind, 1, "0205"), ("Z", 1, kind, 1, "1506")])
    assert "0204" not in reach(state, "B") and "0304" not in reach(state, "B")
    state = make_state([("B", 0, kind, 1, "0106"), ("Z", 1, kind, 1, "1506")])
    assert "0103" in reach(state, "B")          # over the bridge, three hexes by road


def test_4_81_port_capacity_example_one_departure_and_one_arrival_fill_a_two_gold_port():
    """4.81: "2 gp-urbo permesas dum unu vico forvelon de 2 blokoj ale al alia haveno,
    albordiĝon de 2 blokoj aŭ kaj forvelon de 1 bloko kaj la albordiĝon de 1 bloko" (a 2-gold
    port: two departures, two arrivals, or one of each). Dune (0504) has 2 gold, Birch (0506)
    3; both are seat 0's ports."""
    kind = find_kind(lambda k: plain(k) and k.move == 2)
    state = make_state([("d0", 0, kind, 1, "0504"), ("d1", 0, kind, 1, "0504"),
                        ("b0", 0, kind, 1, "0506"), ("b1", 0, kind, 1, "0506"),
                        ("x", 1, kind, 1, "1506")], phase="initiative")
    state["initiative"] = {"rolls": {}, "tied": [0, 1], "rerolls": 0}
    state = roll(state, [6, 6, 1, 1])                  # seat 0 moves first
    state = act(state, 0, {"type": "move", "block": "d0", "to": "0506", "by": "water"})
    state = act(state, 0, {"type": "move", "block": "b0", "to": "0504", "by": "water"})
    assert state["port_use"]["0504"] == 2
    assert not any(m.get("by") for m in moves_of(state, "d1"))     # Dune is full
    assert not any(m.get("by") for m in moves_of(state, "b1"))     # no landing at Dune either
    assert rules.acting_seats(state) == [0]


def test_5_4_retreat_example_two_blocks_a_round_through_the_one_clear_hexside():
    """5.4: "se nur unu ebena latero haveblas por la retreto, du blokoj povus retreti tra ĝi
    ĉiun batalrondon" (with one clear hexside open, two blocks may retreat through it each
    round). Three defenders in 1002; the attacker came from 1001 and seat 0 holds 1101, 1102,
    0902 and 0901: only 1002|1003 is open."""
    kind = find_kind(plain_c)
    state = make_state([("A", 0, kind, 3, "1001")]
                       + [(f"H{h}", 0, kind, 1, h) for h in ("1101", "1102", "0902", "0901")]
                       + [(f"D{i}", 1, kind, 1, "1002") for i in range(3)])
    state = into_battle(state, [("A", "1002", "1001")])
    while state["battle"]["round"] == 1:
        state = idle(state)
    retreats = {a["to"] for a in RULESET.legal_actions(state, 1) if a["type"] == "retreat"}
    assert state["battle"]["current"] == "D0" and retreats == {"1003"}
    for bid in ("D0", "D1"):
        state = act(state, 1, {"type": "retreat", "block": bid, "to": "1003"})
    assert state["battle"]["current"] == "D2"
    assert not any(a["type"] == "retreat" for a in RULESET.legal_actions(state, 1))
    state = idle(state)                                  # D2 fires (and misses)
    state = idle(state)                                  # A too
    assert state["battle"]["round"] == 3 and state["battle"]["current"] == "D2"
    state = act(state, 1, {"type": "retreat", "block": "D2", "to": "1003"})
    assert sorted(state["at"]["1003"]) == ["D0", "D1", "D2"]


def test_6_2_production_example_a_two_gold_city_makes_two_one_gold_steps_or_one_two_gold():
    """6.2: "urbo 2 (supozante ke sur ĝi ne troviĝas gp amasigitaj) permesas al ties posedanto
    produkti 2 fortopoentojn kostantajn 1 gp-ojn, aŭ 1 fortopoenton kostantan 2 gp-ojn" (a
    2-gold city with nothing saved: two 1-gold steps or one 2-gold step). Cedar (0003) has 2
    gold; seat 0's other cities' gold stays their own."""
    one = find_kind(lambda k: plain(k) and k.cost == 1 and k.max >= 3)
    two = find_kind(lambda k: plain(k) and k.cost == 2 and k.max >= 2)
    blocks = [("a", 0, one, 1, "0003"), ("b", 0, two, 1, "0003"), ("x", 1, one, 1, "1506")]
    state = build_state(blocks)
    assert state["gold"]["0003"] == 2
    state = act(state, 0, {"type": "add", "block": "a"})
    legal = RULESET.legal_actions(state, 0)
    assert {"type": "add", "block": "a"} in legal and {"type": "add", "block": "b"} not in legal
    state = act(state, 0, {"type": "add", "block": "a"})
    legal = RULESET.legal_actions(state, 0)
    assert not any(x["type"] == "add" and x["block"] in ("a", "b") for x in legal)
    state = build_state(blocks)
    state = act(state, 0, {"type": "add", "block": "b"})
    legal = RULESET.legal_actions(state, 0)
    assert not any(x["type"] == "add" and x["block"] in ("a", "b") for x in legal)
    assert not any(x["type"] == "recruit" and x["hex"] == "0003" for x in legal)
