"""Wizard Kings battles (section 5) and spells (2.2), played event by event on the test maps."""
from __future__ import annotations

from games.wizard_kings.content import armies, kind_of
from games.wizard_kings.state import fire_number

from .conftest import RULESET, act, idle, find_kind, make_state, plain, roll, to_act


def letter(l, *, army=None):
    return find_kind(lambda k: k.letter == l and not k.wizard and not k.castle
                     and not k.flyer and "water" not in k.traits, army)


def into_battle(state, entries):
    """Seat moves ``entries`` [(block, to, via)], then every mover says done: the battle phase."""
    for bid, to, via in entries:
        state = act(state, state["blocks"][bid]["owner"], {"type": "move", "block": bid, "to": to,
                                                           "via": via})
    while state["phase"] == "move":
        state = act(state, to_act(state)[0], {"type": "done"})
    return state


def battle_state(attackers, defenders, hex_="1002"):
    """Attackers [(id, kind, steps, from)] of seat 0 enter ``hex_`` held by defenders
    [(id, kind, steps)] of seat 1; returns the state at the first decision of the battle."""
    blocks = [(b, 0, k, s, h) for b, k, s, h in attackers] + [(b, 1, k, s, hex_) for b, k, s in defenders]
    state = make_state(blocks)
    return into_battle(state, [(b, hex_, h) for b, _, _, h in attackers])


def test_5_21_the_rulebook_battle_example_order_of_turns():
    """5.21: "Tri blokoj A2, B2 kaj B1 atakas malamikan heksagonon defendatan de du blokoj B3,
    C1. La batalrondoj okazus jene: Atakanto A2, defendanto B3, atakantoj B2 kaj B1, defendanto
    C1." (5.2: "La defendantaj A-blokoj atakas antaŭ ol la atakantaj A-blokoj".)"""
    state = battle_state([("a1", letter("A"), 2, "1001"), ("a2", letter("B"), 2, "1001"),
                          ("a3", letter("B"), 1, "1101")],
                         [("d1", letter("B"), 3), ("d2", letter("C"), 1)])
    assert state["phase"] == "battle"
    assert state["battle"]["turns"] == ["a1", "d1", "a2", "a3", "d2"]
    order = []
    for _ in range(5):
        bid = state["battle"]["current"]
        order.append(bid)
        state = idle(state, bid)
    assert order == ["a1", "d1", "a2", "a3", "d2"]
    assert state["battle"]["round"] == 2            # "ripetiĝas tri fojojn"


def test_5_31_the_ogre_example_three_dice_at_three_hit_twice():
    """5.31: "Ogro forto 3 ruligas 3 lotojn. Ogroj havas batalmontrilon B3 ... Supozante ke la
    lotorezultoj estus 2, 3 kaj 5, tiu ogro trafas du fojojn kaj malsukcesas unu fojon." """
    ogre = find_kind(lambda k: k.fire == 3 and not k.wizard and not k.castle and not k.flyer
                     and not k.traits & {"forest", "mountain", "desert", "amphibian", "city",
                                         "water"})
    target = letter("C")
    state = battle_state([("ogre", ogre, 3, "1001")], [("d1", target, 4)])
    while state["battle"]["current"] != "ogre":
        bid = state["battle"]["current"]
        state = idle(state, bid)
    assert fire_number(state, "ogre") == 3
    state = act(state, 0, {"type": "fire", "block": "ogre"})
    assert RULESET.next(state).spec == {"kind": "dice", "count": 3, "sides": 6}
    state = roll(state, [2, 3, 5])
    assert state["log"][-1]["hits"] == 2
    assert state["blocks"]["d1"]["steps"] == 2


def test_5_32_each_hit_goes_to_the_strongest_enemy_block_its_owner_picking_among_equals():
    """5.32: "la kolizio direktiĝas al la plej forta malamika bloko. Se du aŭ pli da malamikaj
    blokoj egalas je forto, ties posedanto rajtas decidi" """
    shooter = letter("A")
    c = letter("C")
    state = battle_state([("s", shooter, 3, "1001")], [("d1", c, 3), ("d2", c, 3), ("d3", c, 1)])
    assert state["battle"]["current"] == "s"
    state = act(state, 0, {"type": "fire", "block": "s"})
    state = roll(state, [1, 1, 6])                   # two hits
    assert state["battle"]["step"] == "hit" and to_act(state) == (1,)
    assert {a["block"] for a in RULESET.legal_actions(state, 1)} == {"d1", "d2"}
    state = act(state, 1, {"type": "hit", "block": "d2"})
    # the second hit needs no choice: d1 (3 steps) is now the strongest alone
    assert state["blocks"]["d2"]["steps"] == 2 and state["blocks"]["d1"]["steps"] == 2
    assert state["blocks"]["d3"]["steps"] == 1
    assert state["battle"]["step"] == "turn"


def test_5_4_no_retreat_in_the_first_round_and_attackers_leave_by_the_side_they_came():
    """5.4: "Blokoj ne rajtas retreti dum la unua batalrondo." "Atakanto povas retreti nur tra
    tiuj lateroj tra kiuj li/ŝi eniris. Defendanto povas retreti tra lateroj ne uzitaj de la
    atakanto por eniri." """
    b = letter("B")
    state = battle_state([("a", b, 2, "1001")], [("d", b, 2)])
    kinds = {x["type"] for x in RULESET.legal_actions(state, to_act(state)[0])}
    assert "retreat" not in kinds
    for _ in range(2):                                # round 1: both pass
        bid = state["battle"]["current"]
        state = idle(state, bid)
    assert state["battle"]["round"] == 2
    first = state["battle"]["current"]
    retreats = {x["to"] for x in RULESET.legal_actions(state, state["blocks"][first]["owner"])
                if x["type"] == "retreat"}
    if first == "a":
        assert retreats == {"1001"}
    else:
        assert retreats and "1001" not in retreats


def test_5_21_after_three_rounds_the_attacker_retreats_and_the_defender_may_pursue():
    """5.21: "Bataloj daŭras tri batalrondojn. Se oni ne venkis post tiuj tri rondoj, atakantoj
    devas retreti (5.4). Tiumomente eblas ludi, fakultative de la defendanto, kvaran persekutan
    rondon" """
    b = letter("B")
    state = battle_state([("a", b, 2, "1001")], [("d", b, 2)])
    for _ in range(6):
        bid = state["battle"]["current"]
        state = idle(state, bid)
    assert state["battle"]["step"] == "pursue" and to_act(state) == (1,)
    state = act(state, 1, {"type": "pursue"})
    assert state["battle"]["round"] == 4
    # the pursuit round: the defender fires, the attacker may only retreat
    while state["battle"] is not None and state["battle"]["step"] == "turn":
        bid = state["battle"]["current"]
        seat = state["blocks"][bid]["owner"]
        legal = RULESET.legal_actions(state, seat)
        if seat == 0:
            assert {x["type"] for x in legal} == {"retreat"}
            state = act(state, 0, legal[0])
        else:
            assert {x["type"] for x in legal} == {"fire", "pass"}
            state = idle(state, bid)
    assert state["blocks"]["a"]["hex"] == "1001"


def test_5_5_the_winner_regroups_into_neighbouring_friendly_or_neutral_hexes():
    """5.5: "Fininte batalon, la venkinto povas regrupiĝi ... movi siajn blokojn de la
    konkerita heksagono en iu ajn apudan heksagonon amikan aŭ neŭtran" """
    a = letter("A")
    state = battle_state([("a", a, 3, "1001")], [("d", letter("C"), 1)])
    state = act(state, 0, {"type": "fire", "block": "a"})
    state = roll(state, [1, 1, 1])
    assert "d" not in state["blocks"]
    assert state["battle"]["step"] == "regroup" and to_act(state) == (0,)
    legal = RULESET.legal_actions(state, 0)
    assert {"type": "regroup", "block": "a", "to": "1001"} in legal
    state = act(state, 0, {"type": "regroup", "block": "a", "to": "1001"})
    state = act(state, 0, {"type": "done"})
    assert state["battle"] is None


def wizard_state(spell_effect, target_steps=2):
    """A battle where seat 0's wizard (4 steps) acts first against one enemy C block."""
    army = next(a for a in armies().values()
                if any(s.effect == spell_effect and s.phase == "battle" for s in a.spells))
    wizard = next(k.key for k in army.kinds if k.wizard)
    spell = next(s for s in army.spells if s.effect == spell_effect and s.phase == "battle")
    c = letter("C")
    state = battle_state([("w", wizard, 4, "1001"), ("f", letter("C", army=army.key), 1, "1001")],
                         [("d", c, target_steps)])
    return state, spell


def test_2_22_a_spell_costs_its_level_in_steps_and_5_34_never_takes_a_last_step():
    """2.22: "Magiistoj ĵetas siajn ekzorcojn malpliigante siajn fortojn po 1 poento ĉiu
    ekzorcnivelo." 5.34: "ekzorco neniam povas forigi la lastan paŝon de malamika bloko ... 1-paŝa
    bloko kiu ricevis damaĝon kulpe de ekzorco estas devigata retreti." """
    state, spell = wizard_state("strike", target_steps=1)
    assert state["battle"]["current"] == "w"
    state = act(state, 0, {"type": "cast", "block": "w", "spell": spell.key, "target": "d"})
    assert state["blocks"]["w"]["steps"] == 4 - spell.level
    state = roll(state, [1] * spell.dice)             # every die hits
    assert state["blocks"]["d"]["steps"] == 1          # the last step stays
    assert state["battle"]["step"] == "retreat" and to_act(state) == (1,)
    assert {x["type"] for x in RULESET.legal_actions(state, 1)} == {"retreat"}


def test_2_21_dispel_magic_costs_a_step_and_dispels_on_three_or_more_after_the_level():
    """2.21: "La magiistoj malpliigas sian forton je 1 poento ... ruligas 1d6 kaj subtrahas el
    la rezulto la nivelon de la ekzorco ... Se rezulto egalas aŭ pli grandas ol 3, la ekzorco
    estas dispelata" """
    army = next(a for a in armies().values()
                if any(s.effect == "storm" for s in a.spells))
    spell = next(s for s in army.spells if s.effect == "storm")
    wizard = next(k.key for k in army.kinds if k.wizard)
    other = next(a for a in armies().values() if a.key != army.key)
    enemy_wizard = next(k.key for k in other.kinds if k.wizard)
    state = battle_state([("w", wizard, 4, "1001")], [("e", enemy_wizard, 3), ("d", letter("C"), 2)])
    while state["battle"]["current"] != "w":
        bid = state["battle"]["current"]
        state = idle(state, bid)
    state = act(state, 0, {"type": "cast", "block": "w", "spell": spell.key})
    assert state["battle"]["step"] == "dispel" and to_act(state) == (1,)
    state = act(state, 1, {"type": "dispel"})
    assert state["blocks"]["e"]["steps"] == 2
    state = roll(state, [spell.level + 3])            # exactly 3 after the level: dispelled
    assert state["log"][-1]["dispelled"] is True
    assert state["battle"]["cast"] is None and state["battle"]["current"] != "w"


def test_2_24_a_killed_wizard_never_returns_to_its_army():
    """2.24: "mortigita magiisto neniam povas esti denove rekrutita." """
    from games.wizard_kings.state import pool, remove
    army = next(iter(armies().values()))
    wizard = next(k.key for k in army.kinds if k.wizard)
    killed = make_state([("w", 0, wizard, 1, "0302"), ("x", 1, find_kind(plain), 1, "1506")])
    assert wizard not in pool(killed, 0)              # on the board
    remove(killed, "w")
    assert wizard not in pool(killed, 0) and killed["dead"][0] == [wizard]
    disbanded = make_state([("w", 0, wizard, 1, "0302"), ("x", 1, find_kind(plain), 1, "1506")])
    remove(disbanded, "w", killed=False)              # 6.5: a disbanded block may be rebuilt
    assert pool(disbanded, 0)[wizard] == 1 and kind_of(wizard).wizard
