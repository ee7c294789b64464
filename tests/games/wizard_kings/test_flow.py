"""The turn of Wizard Kings ("LUDOVICOJ", 4.1, 4.9, 5.1), each test quoting its clause."""
from __future__ import annotations

from games.wizard_kings import rules
from games.wizard_kings.content import kind_of

from .conftest import RULESET, act, idle, find_kind, make_state, plain, reach, roll, to_act


def test_4_1_the_highest_two_dice_move_first_and_ties_roll_again():
    """4.1: "Ĉiu ludanto ruligas 2d6. Ludanto kies tuta rezulto pli altas gajnas la iniciativon,
    movas unue kaj estu nomata Ludanto 1." [1]: "Ruligu denove por nuligi eblajn remisojn." """
    kind = find_kind(plain)
    state = make_state([("a", 0, kind, 1, "0302"), ("b", 1, kind, 1, "1204"),
                        ("c", 2, kind, 1, "1502")], players=3, phase="move")
    rules._start_turn(state)
    assert RULESET.next(state).spec == {"kind": "dice", "count": 6, "sides": 6}
    state = roll(state, [6, 5, 3, 3, 5, 6])            # 11, 6, 11: seats 0 and 2 tie
    assert RULESET.next(state).spec == {"kind": "dice", "count": 4, "sides": 6}
    state = roll(state, [1, 1, 2, 2])                  # 2 against 4: seat 2 is Player 1
    assert state["order"] == [2, 0, 1] and to_act(state) == (2,)


def test_3_12_a_land_block_stops_in_the_desert_and_a_desert_native_goes_on():
    """3.12: "La terblokoj devas halti kiam eniras dezertan heksagonon, krom la dezertanoj."
    (The desert of t-west is 0303; its neighbours 0202 and 0404 lie either side.)"""
    from games.wizard_kings import movement
    walker = find_kind(lambda k: plain(k) and k.move == 2)
    native = find_kind(lambda k: "desert" in k.traits and k.move >= 2 and not k.flyer)
    state = make_state([("a", 0, walker, 1, "0302"), ("n", 0, native, 1, "0402")])
    assert "0303" in reach(state, "a") and "0303" in reach(state, "n")
    assert movement._stops_in(kind_of(walker), "desert")
    assert not movement._stops_in(kind_of(native), "desert")


def test_4_9_a_third_player_entering_a_battle_joins_a_side_and_may_switch_each_round():
    """4.9: "Ĉiuj ludantoj enirantaj en heksagonon kie jam okazas batalo inter aliaj du
    ludantoj devas alianciĝi jen kun la unua atakanto jen kun la defendanto. Armeo tiel
    alianciĝita povas ŝanĝi sian aliancon ĉe ĉiu batalvico" """
    kind = find_kind(lambda k: plain(k) and k.letter == "C")
    state = make_state([("a", 0, kind, 1, "1001"), ("d", 1, kind, 4, "1002"),
                        ("c", 2, kind, 1, "1102")], players=3)
    state = act(state, 0, {"type": "move", "block": "a", "to": "1002", "via": "1001"})
    while to_act(state) != (2,):
        state = act(state, to_act(state)[0], {"type": "done"})
    joins = [m for m in RULESET.legal_actions(state, 2) if m.get("to") == "1002"]
    assert {m["side"] for m in joins} == {"attack", "defend"}
    state = act(state, 2, next(m for m in joins if m["side"] == "attack"))
    while state["phase"] == "move":
        state = act(state, to_act(state)[0], {"type": "done"})
    assert state["battle"]["sides"] == {"0": "attack", "1": "defend", "2": "attack"}
    for _ in range(3):                                 # round 1: every block passes
        bid = state["battle"]["current"]
        state = idle(state, bid)
    assert state["battle"]["step"] == "switch" and to_act(state) == (2,)
    state = act(state, 2, {"type": "switch"})
    assert state["battle"]["sides"]["2"] == "defend"


def test_5_1_battle_reveals_the_blocks_and_their_kinds_stay_known():
    """5.1: "Malkovru la batalantajn blokojn klinante ilin antaŭen tiel ke ili kuŝu montrante
    sian lateron kun la nuna forto direkte al la kontraŭulo." """
    kind = find_kind(lambda k: plain(k) and k.letter == "C")
    state = make_state([("a", 0, kind, 2, "1001"), ("d", 1, kind, 3, "1002")])
    seen = next(b for b in RULESET.view(state, 0)["blocks"] if b["id"] == "d")
    assert "kind" not in seen and "steps" not in seen
    state = act(state, 0, {"type": "move", "block": "a", "to": "1002", "via": "1001"})
    while state["phase"] == "move":
        state = act(state, to_act(state)[0], {"type": "done"})
    seen = next(b for b in RULESET.view(state, 0)["blocks"] if b["id"] == "d")
    assert seen["kind"] == kind and seen["steps"] == 3
    assert RULESET.hidden_items(state, 1) == set()      # nothing of seat 1 is secret now


def test_2_35_natives_fight_one_better_in_their_terrain():
    """2.32: "Montaranoj ... ĝuas batalon +1 en montaraj heksagonoj"; 2.35: "Urbanoj ĝuas
    batalon +1 en urbaj heksagonoj"; 2.31: "(ekz. B2 > B3)". Alder (0200) is a city."""
    from games.wizard_kings.state import fire_number
    citizen = find_kind(lambda k: "city" in k.traits and k.fire)
    plain_kind = find_kind(lambda k: plain(k) and k.fire)
    state = make_state([("c", 0, citizen, 1, "0200"), ("p", 0, plain_kind, 1, "0200"),
                        ("o", 0, citizen, 1, "0302")])
    assert fire_number(state, "c") == kind_of(citizen).fire + 1
    assert fire_number(state, "o") == kind_of(citizen).fire
    assert fire_number(state, "p") == kind_of(plain_kind).fire


def test_d5_3_14_a_land_block_stops_in_a_swamp_and_an_amphibian_goes_on():
    """3.14 (D5): "La terblokoj devas halti kiam eniras arbaran heksagonon, krom la amfibioj" in
    the swamp's own section: a slip for "marĉan"; 2.34: amphibians "moviĝas ankaŭ tra marĉoj ne
    haltante". """
    from games.wizard_kings import movement
    walker = kind_of(find_kind(plain))
    amphibian = kind_of(find_kind(lambda k: "amphibian" in k.traits))
    assert movement._stops_in(walker, "swamp") and not movement._stops_in(amphibian, "swamp")


def test_3_17_only_flyers_cross_water_in_this_stage():
    """3.17: "Heksagonoj akvoplenaj. Nur akvanoj povas situi ĉe mara aŭ laka heksagono." The
    water of t-west is 0605-0706; flyers may fly over it (2.37) but not stop there."""
    walker = find_kind(lambda k: plain(k) and k.move >= 2)
    flyer = find_kind(lambda k: k.flyer and k.move >= 3)
    state = make_state([("w", 0, walker, 1, "0504"), ("f", 0, flyer, 1, "0504")])
    assert not {"0605", "0606", "0705", "0706"} & reach(state, "w")
    assert not {"0605", "0606", "0705", "0706"} & reach(state, "f")
    assert "0704" in reach(state, "f")


def test_d11_a_seat_that_forfeits_leaves_the_board_and_its_cities_neutral():
    """D11: the forfeiting seat's blocks leave; its empty cities belong to nobody."""
    from games.engine.protocol import Event
    kind = find_kind(plain)
    state = make_state([("a", 0, kind, 1, "0302"), ("b", 1, kind, 1, "1204"),
                        ("c", 2, kind, 1, "1502")], players=3)
    state = RULESET.apply(state, Event.forfeit(1, "timeout"))
    assert "b" not in state["blocks"]
    assert state["city_owner"]["1000"] is None and state["city_owner"]["0200"] == 0
    assert to_act(state) == (0,)
