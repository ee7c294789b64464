"""Wizard Kings recruitment (1.22), building (6.x), victory (1.23) and hidden blocks, each test
quoting its clause."""
from __future__ import annotations

import json

from games.wizard_kings import rules
from games.wizard_kings.content import armies, kind_of
from games.wizard_kings.state import city_gold

from .conftest import RULESET, act, find_kind, make_state, plain, to_act


def build_state(blocks, **kw):
    """``blocks`` on the test maps, at the start of the build phase of turn 1."""
    state = make_state(blocks, phase="move", **kw)
    state["order"], state["mover"] = [0, 1], 2          # every mover is done
    rules.advance(state)                                # no battles: the build begins
    assert state["phase"] == "build"
    return state


def test_6_1_each_city_yields_its_gold_to_the_city_that_spends_it():
    """6.1: "Tiu ĉi estas la kvanto de Orpoentoj (gp) produktataj de ĉiu urbo dum ĉiu
    konstrufazo." 6.2: "Blokoj estas produktataj nur en amikaj urboj uzante la gp-ojn haveblajn
    en tiu urbo." """
    kind = find_kind(lambda k: plain(k) and k.cost <= 2)
    state = build_state([("a", 0, kind, 1, "0200"), ("x", 1, kind, 1, "1000")])
    assert state["gold"]["0200"] == 3 and state["gold"]["0003"] == 2   # seat 0's cities
    assert state["gold"]["1000"] == 3
    legal = RULESET.legal_actions(state, 0)
    assert {"type": "add", "block": "a"} in legal
    hexes = {a["hex"] for a in legal if a["type"] == "recruit"}
    assert hexes <= {"0200", "0506", "0003", "0504"} and "1000" not in hexes


def test_6_3_unspent_gold_stays_on_the_city_and_is_captured_with_it():
    """6.3: "Orpoentoj povas esti garditaj por estonta uzo ... estas kaptitaj se neniu bloko
    defendas ilin." 6.4: "Kaptinto ricevas la gp-ojn produktatajn de urbo" """
    kind = find_kind(plain)
    state = build_state([("a", 0, kind, 1, "0302"), ("x", 1, kind, 1, "1506")])
    state = act(state, 0, {"type": "done"})
    state = act(state, 1, {"type": "done"})
    assert state["gold"]["1000"] == 3                   # saved on Elm, seat 1's city
    # seat 0 takes the empty Elm: the marker and the next income are its own
    state["blocks"]["a"]["hex"] = None
    state["at"]["0302"].remove("a")
    del state["at"]["0302"]
    from games.wizard_kings.state import place
    place(state, "a", "1000")
    state["phase"], state["order"], state["mover"] = "move", [0, 1], 2
    rules.advance(state)                                # to the battles (none), then the build
    assert state["phase"] == "build"
    assert state["gold"]["1000"] == 6
    assert "1000" in state["drafts"]["0"]["gold"] and "1000" not in state["drafts"]["1"]["gold"]


def test_6_0_builds_are_secret_until_every_seat_is_done():
    """6.0: "ludantoj elspezas sian oron samtempe"; 2.0: the kind of a block is hidden from the
    opponent."""
    kind = find_kind(lambda k: plain(k) and k.cost <= 3)
    state = build_state([("a", 0, kind, 1, "0200"), ("x", 1, kind, 1, "1000")])
    assert set(to_act(state)) == {0, 1}
    recruit = next(a for a in RULESET.legal_actions(state, 0) if a["type"] == "recruit")
    state = act(state, 0, recruit)
    other = RULESET.view(state, 1)
    assert len(other["blocks"]) == 2 and other["draft"]["blocks"][0]["id"] == "x"
    mine = RULESET.view(state, 0)
    assert any(b["id"].startswith("new-") for b in mine["draft"]["blocks"])
    state = act(state, 0, {"type": "done"})
    state = act(state, 1, {"type": "done"})
    new = [b for b in RULESET.view(state, 1)["blocks"] if b["owner"] == 0 and b["id"] != "a"]
    assert len(new) == 1 and new[0]["hex"] == recruit["hex"] and "kind" not in new[0]


def test_6_5_combining_moves_steps_within_a_hex_and_disbanding_loses_them():
    """6.5: "Forto de bloko povas esti laŭvole transdonita de unu bloko al alia sur la sama
    heksagono. Oni povas eksigi blokojn ... La forto (paŝoj) de bloko perdiĝas." """
    kind = find_kind(lambda k: plain(k) and k.max >= 3)
    state = build_state([("a", 0, kind, 2, "0302"), ("b", 0, kind, 1, "0302"),
                         ("x", 1, kind, 1, "1506")])
    state = act(state, 0, {"type": "combine", "from": "b", "to": "a"})
    draft = state["drafts"]["0"]["blocks"]
    assert draft["a"]["steps"] == 3 and "b" not in draft
    assert {"type": "combine", "from": "a", "to": "b"} not in RULESET.legal_actions(state, 0)
    state = act(state, 0, {"type": "disband", "block": "a"})
    state = act(state, 0, {"type": "done"})
    state = act(state, 1, {"type": "done"})
    assert "a" not in state["blocks"] and "b" not in state["blocks"]


def test_6_6_a_wizard_on_a_henge_gains_a_step_at_each_build():
    """6.6: "Magiisto (A+ aŭ B+) situanta ĉe Ŝtona Cirklo senpage ricevas + 1 paŝon ĉe ĉiu
    konstrufazo." (The henge of t-west is 0402.)"""
    army = next(iter(armies().values()))
    wizard = next(k for k in army.kinds if k.wizard)
    state = build_state([("w", 0, wizard.key, 1, "0402"), ("x", 1, find_kind(plain), 1, "1506")])
    assert state["blocks"]["w"]["steps"] == 2


def test_1_22_the_army_is_recruited_for_fifty_gold_with_a_block_on_every_city():
    """1.22: "Ludantoj rekrutas sian armeon kontraŭ kosto je 50 gp ... Ĉiu bloko devas komenci
    ĉe urbo (3.2) kaj oni devige surmetu almenaŭ unu blokon sur ĉiun urbon." """
    state = RULESET.setup(2, RULESET.options({"maps": "t-west,t-east", "armies": "elves,orcs"}))
    assert state["phase"] == "recruit" and set(to_act(state)) == {0, 1}
    assert {"type": "done"} not in RULESET.legal_actions(state, 0)
    spent = 0
    while {"type": "done"} not in RULESET.legal_actions(state, 0):
        legal = RULESET.legal_actions(state, 0)
        cover = [a for a in legal if a["type"] == "recruit"
                 and not any(b["hex"] == a["hex"] for b in state["drafts"]["0"]["blocks"].values())]
        action = min(cover, key=lambda a: kind_of(a["kind"]).cost)
        spent += kind_of(action["kind"]).cost
        state = act(state, 0, action)
    hexes = {b["hex"] for b in state["drafts"]["0"]["blocks"].values()}
    assert hexes == {"0200", "0506", "0003", "0504"}
    assert state["drafts"]["0"]["gold"]["purse"] == 50 - spent
    for action in RULESET.legal_actions(state, 0):
        if action["type"] == "recruit":
            assert kind_of(action["kind"]).cost <= 50 - spent


def test_1_23_fifteen_gold_of_cities_wins_a_two_player_game_at_the_end_of_a_turn():
    """1.23: "Ĉe partio inter 2 ludantoj uzantaj du mapojn, ludanto venkas kiam regas urbojn
    valorantajn 15 gp fine de iu ajn vico" """
    kind = find_kind(plain)
    state = build_state([("a", 0, kind, 1, "1000"), ("b", 0, kind, 1, "1006"),
                         ("x", 1, kind, 1, "1503")])
    assert city_gold(state, 0) == 16 and rules.victory_gold(state) == 15
    state = act(state, 0, {"type": "done"})
    state = act(state, 1, {"type": "done"})
    assert state["phase"] == "over" and state["end_reason"] == "victory gold"
    assert RULESET.next(state).result.placings == (1, 2)


def test_1_23_score_now_is_the_gold_of_the_cities_each_seat_holds():
    """1.23: "ludanto venkas kiam regas urbojn valorantajn 15 gp fine de iu ajn vico" (D12: the
    turn limit counts the same gold): the search bot's score_now is the gold of the cities each
    seat holds as the board stands, or the points gathered with scoring="accumulated"; a
    forfeited seat is below every other."""
    kind = find_kind(plain)
    state = build_state([("a", 0, kind, 1, "1000"), ("b", 0, kind, 1, "1006"),
                         ("x", 1, kind, 1, "1503")])
    # seat 0: its own Alder 3, Birch 3, Cedar 2, Dune 2 and Elm 3, Fir 3 taken; seat 1: Gum 2
    # (empty, on its map) and Hazel 2
    before = json.dumps(state, sort_keys=True)
    assert RULESET.score_now(state) == [16, 4]
    assert json.dumps(state, sort_keys=True) == before  # the state is not changed
    assert RULESET.score_now(dict(state, forfeited=[1])) == [16, -1]
    assert RULESET.score_now(dict(state, options=dict(state["options"], scoring="accumulated"),
                                  points=[4, 9])) == [4, 9]
    after = act(act(state, 0, {"type": "done"}), 1, {"type": "done"})
    assert after["end_reason"] == "victory gold"
    assert after["scores"] == RULESET.score_now(state)  # the end then scored what score_now said


def test_hidden_blocks_an_opponent_sees_where_a_block_is_not_what():
    """2.0: "Ĉar blokojn oni surtabuligas stare, tipo kaj forto de ĉiu bloko aperas malkaŝe al
    la kontraŭulo" is the opposite of what blocks hide: standing blocks show their face to their
    owner only, and battle reveals them (5.1)."""
    kind = find_kind(plain)
    state = make_state([("a", 0, kind, 2, "0302"), ("x", 1, kind, 1, "1506")])
    theirs = next(b for b in RULESET.view(state, 1)["blocks"] if b["id"] == "a")
    assert theirs == {"id": "a", "owner": 0, "hex": "0302", "moved": False, "armed": False}
    mine = next(b for b in RULESET.view(state, 0)["blocks"] if b["id"] == "a")
    assert mine["kind"] == kind and mine["steps"] == 2
    assert RULESET.hidden_items(state, 0) == {f"a:{kind}"}
