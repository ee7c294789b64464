"""Rule tests for Imperial Twing, one per clause or decision of docs/rules/imperial-twing.md.

States are built directly (``playing``): seat s plays the element CHARACTERS_BY_SEAT[s]
(fire, water, life, air), it is seat 0's turn and its action decision; the deck holds every
card no hand or retinue holds, in content order. Dice are given as faces (``roll(state, 3, -1)``).
"""
import collections
import json
import random
import time
from pathlib import Path

import pytest

from games.engine import registry
from games.engine.bots import RandomBot
from games.engine.log import Folder, canonical_json, validate
from games.engine.protocol import Chance, Ended, Event, IllegalAction, ToAct
from games.engine.runner import playout
from games.imperial_twing import advance
from games.imperial_twing.bots import HeuristicBot
from games.imperial_twing.content import (BOOTS, BRA, CARD, CLOVER, CROSS, CUP, DIE_FACES, DOLL,
                                          EVENT_IDS, EVENTS, HAT, MIROMON, OBJECT_IDS, ORNICLES,
                                          PANTS, PLAY_IDS, SOCKS, SPIRAL, SUN, TEDDY)
from games.imperial_twing.fight import fighters

R = registry.get("imperial-twing")
CHARACTERS_BY_SEAT = ("fire", "water", "life", "air")


def playing(players=2, *, hands=None, retinues=None, seat=0, options=None, **fields):
    """A state in the middle of play: seat ``seat`` to take its action."""
    state = R.setup(players, R.options(dict({"characters": "choose"}, **(options or {}))))
    hands = [list(h) for h in (hands or [["SP-fire-3a"], ["SP-water-3a"], ["SP-life-3a"], ["SP-air-3a"]][:players])]
    retinues = [list(r) for r in (retinues or [[] for _ in range(players)])]
    used = {c for pile in hands + retinues for c in pile}
    objects = fields.pop("objects", [[] for _ in range(players)])
    owned = {o for pile in objects for o in pile}
    state.update(stage="play", characters=list(CHARACTERS_BY_SEAT[:players]), hands=hands,
                 retinues=retinues, deck=[c for c in PLAY_IDS if c not in used],
                 object_deck=[o for o in OBJECT_IDS if o not in owned][2:],
                 object_row=[o for o in OBJECT_IDS if o not in owned][:2],
                 active=[list(o[:3]) for o in objects], aside=[list(o[3:]) for o in objects],
                 event_deck=list(EVENT_IDS), seat=seat, turn=1, draws=[], start_tied=[seat])
    state.update(fields)
    advance(state)
    return state


def do(state, *actions):
    """Apply the actions in turn, each by the seat that acts."""
    for action in actions:
        nxt = R.next(state)
        assert isinstance(nxt, ToAct), f"expected a decision, got {nxt} before {action}"
        state = R.apply(state, Event.action(nxt.seats[0], action))
    return state


def roll(state, *faces):
    """The chance event due now, with the dice showing ``faces``."""
    nxt = R.next(state)
    assert isinstance(nxt, Chance) and nxt.spec["kind"] == "dice", nxt
    assert nxt.spec["count"] == len(faces)
    return R.apply(state, Event.chance(nxt.spec, [DIE_FACES.index(f) + 1 for f in faces]))


def passes(state, count=10):
    """Every fighter passes until the window closes (at most ``count`` passes)."""
    for _ in range(count):
        if state["phase"] != "respond":
            break
        state = do(state, {"type": "pass"})
    return state


def lay(state, seat, cards):
    """``seat`` lays the cards (actions) and closes its side if it is still open."""
    state = do(state, *cards)
    if state["phase"] == "commit" and state["actor"] == seat:
        state = do(state, {"type": "done"})
    return state


def fight(state, attacker_cards, defender_cards, target=1, kind="attack"):
    """Seat 0 attacks (or duels) ``target``: both lay their cards and close their sides."""
    state = lay(do(state, {"type": kind, "target": target}), 0, attacker_cards)
    return lay(state, target, defender_cards)


def duel_fight(state, attacker_cards, defender_cards, defender=1):
    """The next fight of a running duel."""
    return lay(lay(state, 0, attacker_cards), defender, defender_cards)


def spell(card):
    return {"type": "spell", "card": card}


def creature(card, rider=None):
    return {"type": "creature", "card": card, **({"rider": rider} if rider else {})}


def ornicles_total(state):
    stakes = (state["fight"]["stakes"] if state["fight"] else 0) + (1 if state["duel"] else 0)
    return state["supply"] + sum(state["ornicles"]) + stakes


# -- the game and its box ----------------------------------------------------------------------

def test_imperial_twing_spec_registered_with_its_game_type():
    assert R.spec.name == "imperial-twing" and (R.spec.min_players, R.spec.max_players) == (2, 4)
    assert R.spec.chance and R.spec.hidden_information and not R.spec.simultaneous
    assert set(R.builtin_bots()) == {"random", "heuristic"}


def test_imperial_twing_BOX_D20_D21_D22_D26_the_designed_content():
    """'160 Spielkarten', four characters, objects and events in two languages (D20): 106 play
    cards, nine objects, sixteen events, a twelve-sided die."""
    kinds = collections.Counter(CARD[c].kind for c in PLAY_IDS)
    assert kinds == {"spell": 56, "creature": 20, "mount": 8, "cat": 12, "trap": 10}
    assert 4 + 2 * len(OBJECT_IDS) + 2 * len(EVENT_IDS) + len(PLAY_IDS) == 160
    assert len(OBJECT_IDS) == 9 and len(EVENT_IDS) == 16 and len(DIE_FACES) == 12
    assert MIROMON in PLAY_IDS and CARD[MIROMON].kind == "cat"
    for element in CHARACTERS_BY_SEAT:  # the elements mirror each other
        mine = [CARD[c] for c in PLAY_IDS if CARD[c].element == element and c != MIROMON]
        assert sorted((c.kind, c.power) for c in mine) == sorted(
            (c.kind, c.power) for c in (CARD[x] for x in PLAY_IDS if CARD[x].element == "fire"))
    assert sum(e.amount for e in EVENTS if e.effect == "bonus" and e.scope == "self") == 0


# -- set-up and start -----------------------------------------------------------------------------

def test_imperial_twing_V_1_to_V_6_D2_characters_drawn_decks_shuffled_three_cards_dealt():
    """V.1 'zieht (oder wählt) ... eine der Charakterkarten'; V.6 'Jeder Spieler zieht DREI
    Spielkarten ... und legt alle gezogenen Kreaturen offen vor sich'."""
    records = playout(R, 3, seed=b"v" * 32, bot_seed=1)
    folder = Folder(records[0], get_ruleset=registry.get)
    kinds = []
    for record in records[1:]:
        if folder.state["stage"] == "start_roll":
            break
        kinds.append(record["payload"]["spec"]["kind"])
        folder.step(record)
    state = folder.state
    assert kinds == ["choice", "choice", "choice", "shuffle", "shuffle", "shuffle"]
    assert sorted(state["characters"]) == sorted(set(state["characters"]))
    assert len(state["object_row"]) == 2  # V.3: two objects face up
    for seat in range(3):
        assert all(CARD[c].kind in ("creature", "mount") for c in state["retinues"][seat])
        assert not any(CARD[c].kind in ("creature", "mount") for c in state["hands"][seat])
        assert any(CARD[c].kind == "spell" for c in state["hands"][seat])  # V.7


def test_imperial_twing_V_7_without_a_spell_draw_until_one_and_discard_the_rest():
    """V.7 'zieht er zusätzliche Spielkarten, bis er eine neue Zauberspruchkarte hat. Alle
    zusätzlich gezogenen Karten, die keine Zauberspruchkarten sind, werden sofort abgeworfen.'"""
    state = playing(hands=[["CAT-1"], ["SP-water-3a"]], deck=["TRAP-1", "CR-fire-1-salamander",
                                                              "SP-life-2a", "SP-air-1a"])
    assert state["hands"][0] == ["CAT-1", "SP-life-2a"]
    assert state["discard"] == ["TRAP-1", "CR-fire-1-salamander"]  # a creature too: not a spell
    assert state["deck"] == ["SP-air-1a"]


def test_imperial_twing_B_1_D3_the_highest_roll_begins_and_only_ties_roll_again():
    """B.1 'der Spieler mit der höchsten Augenzahl beginnt (... gleiche Augenzahl ... erneut)'."""
    state = playing(3, stage="start_roll", seat=None, start_tied=[0, 1, 2], turn=0)
    assert state["phase"] == "start_roll"
    state = roll(state, 4, 4, SUN)
    assert state["phase"] == "direction" and state["seat"] == 2  # D3: the sun ranks above +4
    state = playing(3, stage="start_roll", seat=None, start_tied=[0, 1, 2], turn=0)
    state = roll(state, 4, 4, -2)
    assert state["start_tied"] == [0, 1] and R.next(state).spec["count"] == 2
    state = roll(state, SPIRAL, 1)
    assert state["seat"] == 1


def test_imperial_twing_B_2_the_start_player_chooses_the_direction_D4_not_at_two():
    """B.2 'Der Startspieler ... bestimmt die Spielrichtung'."""
    state = playing(3, stage="direction", seat=2, turn=0)
    assert R.legal_actions(state, 2) == [{"type": "direction", "direction": "clockwise"},
                                         {"type": "direction", "direction": "counterclockwise"}]
    state = do(state, {"type": "direction", "direction": "counterclockwise"})
    assert state["seat"] == 2 and state["turn"] == 1
    state = do(state, {"type": "pass"})
    assert state["seat"] == 1  # counterclockwise: 2, 1, 0
    two = playing(2, stage="start_roll", seat=None, start_tied=[0, 1], turn=0)
    assert roll(two, 1, 2)["phase"] == "action"  # D4


# -- the turn ----------------------------------------------------------------------------------------

def test_imperial_twing_T_1_T_2_H_5_T_4_8_a_turn_draws_one_card_creatures_join_the_retinue():
    """T.1 'Zu Beginn deines Zuges ziehst du 1 Karte ... Alle Karten mit magischen Kreaturen
    werden sofort offen vor dir auf den Tisch gelegt.'"""
    state = playing(deck=["SP-fire-1a", "CR-water-2-nixe", "SP-air-1a"])
    state = do(state, {"type": "pass"})  # T.4.8: seat 0 draws two
    assert state["hands"][0] == ["SP-fire-3a", "SP-fire-1a"] and state["retinues"][0] == ["CR-water-2-nixe"]
    assert state["seat"] == 1 and state["hands"][1] == ["SP-water-3a", "SP-air-1a"]


def test_imperial_twing_T_4_T_4_1_the_eight_actions_offered():
    """T.4: attack, duel, buy, trap, cat ritual, begin the endgame, endgame attack, pass."""
    state = playing(hands=[["SP-fire-3a", "CAT-1", "CAT-2", "CAT-3", "TRAP-1"], ["SP-water-3a"]],
                    retinues=[[], ["CR-fire-2-glutkobold"]], ornicles=[3, 0],
                    objects=[[HAT, PANTS, BRA], [SOCKS]])
    kinds = [a["type"] for a in R.legal_actions(state, 0)]
    assert kinds == ["attack", "duel", "buy", "buy", "trap", "ritual", "begin_endgame", "pass"]
    state["in_endgame"][0] = True
    assert "endgame_attack" in [a["type"] for a in R.legal_actions(state, 0)]


def test_imperial_twing_T_3_D9_the_spell_draw_comes_after_the_fight():
    """T.3 'Wenn du keine Zaubersprüche mehr auf der Hand hast, ziehst du immer sofort ...';
    D9: spells laid in a fight are still held until it ends."""
    state = playing(hands=[["SP-fire-3a"], ["SP-water-1a"]], deck=["SP-fire-6a", "SP-air-1a"])
    state = do(state, {"type": "attack", "target": 1}, spell("SP-fire-3a"))
    assert state["actor"] == 1 and state["hands"][0] == []  # nothing more to lay: closed
    state = do(state, spell("SP-water-1a"))
    state = passes(roll(state, 1, 1))
    assert state["hands"][0] == ["SP-fire-6a"] and state["hands"][1] == ["SP-air-1a"]


def test_imperial_twing_H_1_H_2_more_than_three_colours_discards_one_colour():
    """H.2 'Wenn du mehr als drei Farben auf der Hand hast, lege Zaubersprüche einer Farbe auf
    den Ablagestapel.'"""
    hand = ["SP-fire-3a", "SP-water-2a", "SP-water-1a", "SP-life-1a"]
    state = playing(hands=[hand, ["SP-water-3a"]], deck=["SP-air-6a"])
    state = do(state, {"type": "pass"})
    assert state["phase"] == "limit" and state["actor"] == 0
    assert [a["element"] for a in R.legal_actions(state, 0)] == ["fire", "water", "life", "air"]
    state = do(state, {"type": "discard_colour", "element": "water"})
    assert sorted(state["hands"][0]) == sorted(["SP-fire-3a", "SP-life-1a", "SP-air-6a"])
    assert state["discard"][-2:] == ["SP-water-2a", "SP-water-1a"]


def test_imperial_twing_H_3_at_most_fifteen_spells():
    """H.3 'Du kannst nur maximal 15 Zaubersprüche auf der Hand haben.'"""
    hand = [c for c in PLAY_IDS if c.startswith("SP-fire-")][:13] + ["SP-water-1a"]
    state = playing(hands=[hand, ["SP-water-3a"]], deck=["SP-water-2a", "SP-water-2b"])
    state = do(state, {"type": "pass"})
    assert state["phase"] == "limit"
    assert all(a["type"] == "discard_spell" for a in R.legal_actions(state, 0))
    state = do(state, {"type": "discard_spell", "card": "SP-fire-1a"})
    assert len(state["hands"][0]) == 15 and state["seat"] == 1


# -- fights ---------------------------------------------------------------------------------------

def test_imperial_twing_F_3_an_attack_needs_a_spell_and_takes_three_of_one_colour():
    """F.3 'Du MUSST mindestens einen Zauberspruch ausspielen ... bis zu drei Zaubersprüche
    desselben Elements'."""
    hand = ["SP-fire-1a", "SP-fire-2a", "SP-fire-3a", "SP-fire-4a", "SP-water-5a"]
    state = playing(hands=[hand, ["SP-water-3a"]], retinues=[["CR-fire-2-glutkobold"], []])
    state = do(state, {"type": "attack", "target": 1})
    legal = R.legal_actions(state, 0)
    assert {"type": "done"} not in legal and creature("CR-fire-2-glutkobold") not in legal
    state = do(state, spell("SP-fire-4a"))
    assert spell("SP-water-5a") not in R.legal_actions(state, 0)
    state = do(state, spell("SP-fire-3a"), spell("SP-fire-2a"))
    assert not any(a["type"] == "spell" for a in R.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="F.3"):
        R.check(state, 0, spell("SP-fire-1a"))


def test_imperial_twing_F_5_F_6_F_8_H_6_R_1_R_2_a_creature_per_spell_mounts_carry_one_of_their_colour():
    """F.5 'eine Kreatur der gleichen Farbe für jeden gelegten Zauberspruch'; R.1 a mount
    carries 'eine Kreatur mit gleicher oder geringerer Stärke und gleicher Farbe'; R.2 'Reittiere
    tragen niemals andere Reittiere'."""
    retinue = ["MT-fire-2-wolpertinger", "MT-fire-4-kriegsross", "CR-fire-3-phoenix",
               "CR-fire-1-salamander", "CR-water-1-wassergeist"]
    state = playing(hands=[["SP-fire-3a"], ["SP-water-3a"]], retinues=[retinue, []])
    state = do(state, {"type": "attack", "target": 1}, spell("SP-fire-3a"))
    legal = R.legal_actions(state, 0)
    assert creature("MT-fire-4-kriegsross", "CR-fire-3-phoenix") in legal
    assert creature("MT-fire-2-wolpertinger", "CR-fire-3-phoenix") not in legal  # 3 > 2
    assert creature("MT-fire-4-kriegsross", "MT-fire-2-wolpertinger") not in legal  # R.2
    assert creature("CR-water-1-wassergeist") not in legal  # F.5: the spells' colour
    state = do(state, creature("MT-fire-4-kriegsross", "CR-fire-3-phoenix"))
    assert state["phase"] == "commit" and state["actor"] == 1  # one spell, one unit: closed
    state = do(state, spell("SP-water-3a"))
    state = passes(roll(state, 0, 0))
    assert state["last_fight"]["outcomes"][0]["attacker_total"] == 3 + 4 + 3


def test_imperial_twing_F_10_to_F_13_E_2_N_1_the_winner_takes_an_ornicle_the_losers_creatures_go():
    """F.10 'Wer am Ende die meisten Punkte hat, gewinnt und erhält 1 Ornikel'; F.11 spells are
    discarded; F.12 the winner's creatures return; F.13 the loser's go, E.2 except the
    attacker's own colour."""
    state = playing(hands=[["SP-fire-1a"], ["SP-water-3a"]],
                    retinues=[["CR-fire-1-salamander"], ["CR-water-2-nixe"]])
    state = fight(state, [spell("SP-fire-1a"), creature("CR-fire-1-salamander")],
                  [spell("SP-water-3a"), creature("CR-water-2-nixe")])
    state = passes(roll(state, 0, 0))
    assert state["ornicles"] == [0, 1] and state["supply"] == ORNICLES - 1
    assert state["retinues"] == [["CR-fire-1-salamander"], ["CR-water-2-nixe"]]  # E.2 and F.12
    assert {"SP-fire-1a", "SP-water-3a"} <= set(state["discard"])
    state = playing(hands=[["SP-fire-6a"], ["SP-water-1a"]],
                    retinues=[[], ["CR-water-2-nixe", "CR-fire-3-phoenix"]], seat=1)
    state = do(state, {"type": "attack", "target": 0}, spell("SP-water-1a"), creature("CR-water-2-nixe"),
               spell("SP-fire-6a"))
    state = passes(roll(state, 0, 0))
    assert "CR-water-2-nixe" in state["retinues"][1]  # water is seat 1's own colour: E.2
    state = playing(hands=[["SP-fire-6a"], ["SP-life-1a"]], retinues=[[], ["CR-life-2-dryade"]], seat=1)
    state = do(state, {"type": "attack", "target": 0}, spell("SP-life-1a"), creature("CR-life-2-dryade"),
               spell("SP-fire-6a"))
    state = passes(roll(state, 0, 0))
    assert "CR-life-2-dryade" in state["discard"]  # F.13: not its colour, lost


def test_imperial_twing_F_14_a_tie_returns_creatures_and_pays_nobody():
    """F.14 'Bei Gleichstand ... kehren alle Kreaturen aller Spieler in ihr Gefolge zurück'."""
    state = playing(hands=[["SP-fire-2a"], ["SP-water-2a"]],
                    retinues=[["CR-fire-1-salamander"], ["CR-water-1-wassergeist"]])
    state = fight(state, [spell("SP-fire-2a"), creature("CR-fire-1-salamander")],
                  [spell("SP-water-2a"), creature("CR-water-1-wassergeist")])
    state = passes(roll(state, 1, 1))
    assert state["last_fight"]["outcomes"][0]["winner"] == "tie"
    assert state["ornicles"] == [0, 0] and state["retinues"][1] == ["CR-water-1-wassergeist"]


def test_imperial_twing_W_2_W_5_D19_the_sun_wins_the_cross_loses_two_alike_tie():
    """W.2 'Sonne: Du hast sofort gewonnen! Kreuz: Du hast sofort verloren!'; W.5 'Wenn beide
    Spieler einen kritischen Treffer oder einen kritischen Fehlschlag landen ... unentschieden'."""
    def outcome(a, d):
        state = playing(hands=[["SP-fire-1a"], ["SP-water-6a"]])
        state = fight(state, [spell("SP-fire-1a")], [spell("SP-water-6a")])
        return passes(roll(state, a, d))["last_fight"]["outcomes"][0]["winner"]
    assert outcome(SUN, 4) == "attacker" and outcome(4, CROSS) == "attacker"
    assert outcome(CROSS, -4) == "defender" and outcome(SUN, CROSS) == "attacker"
    assert outcome(SUN, SUN) == "tie" and outcome(CROSS, CROSS) == "tie"


def test_imperial_twing_E_1_W_1_negative_rolls_count_zero_with_a_spell_of_ones_colour():
    """E.1 'zählen die negativen Zahlen als Null. Aber ein kritischer Fehlschlag ist immer noch
    ein kritischer Fehlschlag.'"""
    state = playing(hands=[["SP-fire-2a"], ["SP-fire-3a"]])
    state = fight(state, [spell("SP-fire-2a")], [spell("SP-fire-3a")])
    last = passes(roll(state, -4, -4))["last_fight"]["outcomes"][0]
    assert (last["attacker_total"], last["defender_total"]) == (2, -1)  # seat 1 is water


def test_imperial_twing_S_1_S_2_N_2_F_7_a_shield_rolls_no_die_and_wins_no_ornicle():
    """S.1 'so viele Tiere einer Farbe als Schild'; S.2 'würfelt NICHT ... und erhält auch keine
    Ornikel, sollte er gewinnen'."""
    shield = ["CR-water-4-leviathan", "CR-water-3-krake", "CR-fire-1-salamander"]
    state = playing(hands=[["SP-fire-1a"], ["SP-water-3a"]], retinues=[[], shield])
    state = do(state, {"type": "attack", "target": 1}, spell("SP-fire-1a"), creature("CR-water-4-leviathan"))
    legal = R.legal_actions(state, 1)
    assert creature("CR-water-3-krake") in legal and creature("CR-fire-1-salamander") not in legal
    assert spell("SP-water-3a") not in legal
    state = do(state, creature("CR-water-3-krake"))  # no more water creatures: closed
    state = passes(roll(state, 4))  # one die: the shield does not roll
    assert state["last_fight"]["outcomes"][0]["winner"] == "defender" and state["ornicles"] == [0, 0]
    assert sorted(state["retinues"][1]) == sorted(shield)


# -- cats, Miromon, traps -------------------------------------------------------------------------

def test_imperial_twing_K_1_F_9_D15_a_cat_re_rolls_and_the_last_roll_stands():
    """K.1 'Sie erlauben Dir, die Würfel noch einmal neu zu werfen ... du musst immer das
    Ergebnis des letzten Würfelwurfs verwenden'."""
    state = playing(hands=[["SP-fire-2a", "CAT-1", "CAT-2"], ["SP-water-3a"]])
    state = fight(state, [spell("SP-fire-2a")], [spell("SP-water-3a")])
    state = roll(state, -3, 0)
    assert state["phase"] == "respond" and state["actor"] == 0
    state = roll(do(state, {"type": "cat", "card": "CAT-1"}), 4)
    state = roll(do(state, {"type": "cat", "card": "CAT-2"}), 1)
    state = passes(state)
    assert state["last_fight"]["sides"]["0"]["die"] == 1 and state["ornicles"] == [0, 0]


def test_imperial_twing_K_3_miromon_inverts_any_die_of_the_fight_D27():
    """K.3 'kehrt das Ergebnis eines Würfelwurfes um, entweder für dich selbst oder deinen
    Gegner: Kritischer Fehlschlag wird zu kritischem Treffer, -4 wird zu 4, Ereignis wird zu 0'."""
    state = playing(hands=[["SP-fire-2a", MIROMON], ["SP-water-3a"]])
    state = fight(state, [spell("SP-fire-2a")], [spell("SP-water-3a")])
    state = roll(state, 0, SUN)
    assert {"type": "invert", "target": 1} in R.legal_actions(state, 0)
    state = passes(do(state, {"type": "invert", "target": 1}))
    assert state["last_fight"]["sides"]["1"]["die"] == CROSS
    assert state["last_fight"]["outcomes"][0]["winner"] == "attacker"
    state = playing(hands=[["SP-fire-2a", MIROMON], ["SP-water-3a"]], event_deck=["EV-oracle"])
    state = roll(fight(state, [spell("SP-fire-2a")], [spell("SP-water-3a")]), SPIRAL, 0)
    state = passes(do(state, {"type": "invert", "target": 0}))
    assert state["last_fight"]["sides"]["0"]["die"] == 0  # D27: the event stays resolved
    assert state["last_fight"]["events"] == [[0, "EV-oracle"]]


def test_imperial_twing_P_1_P_3_R_3_a_trap_in_a_fight_discards_one_creature_of_a_mounted_pair():
    """P.3 'Du kannst eine magische Kreatur deines Gegners entfernen ... Im Falle eines
    Reittieres und eines Reiters wird nur eines abgeworfen ... auch nachdem die Orn-Würfel
    geworfen wurden.'"""
    state = playing(hands=[["SP-fire-2a"], ["SP-water-1a", "TRAP-1"]],
                    retinues=[["MT-fire-4-kriegsross", "CR-fire-3-phoenix"], []])
    state = fight(state, [spell("SP-fire-2a"), creature("MT-fire-4-kriegsross", "CR-fire-3-phoenix")],
                  [spell("SP-water-1a")])
    state = roll(state, 0, 4)
    assert state["actor"] == 1  # the attacker has nothing to play: skipped (D15)
    state = do(state, {"type": "trap", "card": "TRAP-1", "target": "MT-fire-4-kriegsross"})
    state = passes(state)
    last = state["last_fight"]
    assert last["sides"]["0"]["units"] == [{"card": "CR-fire-3-phoenix", "rider": None, "extra": False}]
    assert last["outcomes"][0]["attacker_total"] == 5 and "MT-fire-4-kriegsross" in state["discard"]


def test_imperial_twing_P_2_T_4_4_D29_the_trap_action_catches_a_creature_of_ones_colour():
    """P.2 'Als Aktion kannst du eine magische Kreatur deiner Charakterfarbe aus dem Gefolge eines
    anderen Spielers fangen und zu deinem Gefolge hinzufügen. Damit ist dein Zug beendet.'"""
    state = playing(hands=[["SP-fire-2a", "TRAP-1"], ["SP-water-3a"]],
                    retinues=[[], ["CR-fire-4-feuerdrache", "CR-water-2-nixe"]])
    assert [a for a in R.legal_actions(state, 0) if a["type"] == "trap"] == [
        {"type": "trap", "card": "TRAP-1", "target": "CR-fire-4-feuerdrache"}]
    state = do(state, {"type": "trap", "card": "TRAP-1", "target": "CR-fire-4-feuerdrache"})
    assert state["retinues"] == [["CR-fire-4-feuerdrache"], ["CR-water-2-nixe"]] and state["seat"] == 1


# -- objects -------------------------------------------------------------------------------------

def test_imperial_twing_O_2_the_teddy_adds_a_creature_of_any_colour():
    """O.2 'Füge eine zusätzliche magische Kreatur einer beliebigen Farbe ... hinzu'."""
    state = playing(hands=[["SP-fire-2a"], ["SP-water-3a"]], objects=[[TEDDY], []],
                    retinues=[["CR-fire-1-salamander", "CR-life-4-baumriese"], []])
    state = do(state, {"type": "attack", "target": 1}, spell("SP-fire-2a"), creature("CR-fire-1-salamander"),
               creature("CR-life-4-baumriese"))
    assert state["actor"] == 1
    state = passes(roll(do(state, spell("SP-water-3a")), 0, 0))
    assert state["last_fight"]["outcomes"][0]["attacker_total"] == 7


def test_imperial_twing_O_3_O_8_pants_and_bra_turn_criticals_to_zero():
    """O.3 'Wenn du einen kritischen Fehlschlag würfelst, zählt dies als 0 auf dem Würfel und hat
    somit keinen Effekt.' (your critical failure counts 0); O.8 'Die kritischen Treffer deiner
    Gegner zählen als 0 gegen dich.' (your opponents' suns count 0 against you)"""
    state = playing(hands=[["SP-fire-3a"], ["SP-water-2a"]], objects=[[PANTS], []])
    state = passes(roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a")]), CROSS, 0))
    outcome = state["last_fight"]["outcomes"][0]
    assert (outcome["winner"], outcome["attacker_die"]) == ("attacker", 0)  # 3 + 0 against 2
    state = playing(hands=[["SP-fire-3a"], ["SP-water-2a"]], objects=[[PANTS], [BRA]])
    state = passes(roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a")]), CROSS, SUN))
    assert state["last_fight"]["outcomes"][0]["winner"] == "defender"  # 3 + 0 against the sun
    state = playing(hands=[["SP-fire-3a"], ["SP-water-2a"]], objects=[[BRA], []])
    state = passes(roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a")]), 0, SUN))
    assert state["last_fight"]["outcomes"][0]["winner"] == "attacker"  # the sun counts 0


def test_imperial_twing_O_4_O_5_D6_hat_and_clover_re_roll_once_a_fight():
    """O.4 'Wenn du einen Angriff abwehrst, darfst du den Orn-Würfel noch einmal würfeln';
    O.5 'Wenn du angreifst, darfst du den Orn-Würfel noch einmal würfeln'."""
    state = playing(hands=[["SP-fire-3a"], ["SP-water-2a"]], objects=[[CLOVER], [HAT]])
    state = roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a")]), -2, -3)
    assert state["actor"] == 0
    state = roll(do(state, {"type": "reroll"}), 2)  # the attacker's Clover
    assert state["actor"] == 1
    state = roll(do(state, {"type": "reroll"}), 4)  # the defender's Hat; once each: closed
    assert state["phase"] == "action" and state["seat"] == 1
    assert (state["last_fight"]["sides"]["0"]["die"], state["last_fight"]["sides"]["1"]["die"]) == (2, 4)


def test_imperial_twing_O_6_EV_3_D22_the_doll_keeps_its_holders_events_off_it():
    """O.6 'Wenn du eine Ereigniskarte ziehst, hat sie keine Auswirkungen auf dich, beeinflusst
    aber alle anderen Spieler entsprechend.'"""
    state = playing(hands=[["SP-fire-3a"], ["SP-water-2a"]], objects=[[DOLL], []],
                    event_deck=["EV-rain", "EV-blessing"], ornicles=[0, 0])
    state = roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a")]), SPIRAL, 0)
    assert state["event_discard"] == ["EV-rain"]
    assert state["last_fight"]["outcomes"][0]["winner"] == "attacker"
    assert state["ornicles"] == [1, 1]  # seat 0: the win's ornicle only; seat 1: the rain's


def test_imperial_twing_O_7_O_9_boots_bar_traps_socks_bar_cats():
    """O.7 'Deine Gegner können keine Fallenkarten gegen dich einsetzen.'; O.9 'Deine Gegner
    können keine Katzenkarten gegen dich einsetzen, einschließlich Miromon.'"""
    state = playing(hands=[["SP-fire-3a", "CAT-1", MIROMON, "TRAP-1"], ["SP-water-2a"]],
                    retinues=[[], ["CR-water-2-nixe", "CR-fire-1-salamander"]], objects=[[], [BOOTS, SOCKS]])
    assert not any(a["type"] == "trap" for a in R.legal_actions(state, 0))
    state = fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a"), creature("CR-water-2-nixe")])
    state = roll(state, -4, 0)
    assert state["phase"] != "respond"  # nothing to play: the window closes at once
    assert state["last_fight"]["outcomes"][0]["winner"] == "defender"


def test_imperial_twing_O_10_D18_the_cup_bars_riders_against_its_holder():
    """O.10 'Deine Gegner können keine berittenen Kreaturen nutzen, wenn sie dich angreifen'."""
    state = playing(hands=[["SP-fire-3a"], ["SP-water-2a"]], objects=[[], [CUP]],
                    retinues=[["MT-fire-4-kriegsross", "CR-fire-3-phoenix"], []])
    state = do(state, {"type": "attack", "target": 1}, spell("SP-fire-3a"))
    legal = R.legal_actions(state, 0)
    assert creature("MT-fire-4-kriegsross") in legal
    assert creature("MT-fire-4-kriegsross", "CR-fire-3-phoenix") not in legal


def test_imperial_twing_O_1_C_3_D12_three_active_objects_rearranged_once_a_turn():
    """O.1 'du kannst nur drei magische Objekte auf einmal benutzen ... jederzeit wechseln ...,
    außer während eines Kampfes'."""
    state = playing(objects=[[HAT, PANTS, BRA, SOCKS], []])
    arrangements = [a for a in R.legal_actions(state, 0) if a["type"] == "activate"]
    assert len(arrangements) == 3  # C(4,3) less the current one
    state = do(state, {"type": "activate", "objects": sorted([SOCKS, PANTS, BRA])})
    assert sorted(state["active"][0]) == sorted([SOCKS, PANTS, BRA]) and state["aside"][0] == [HAT]
    assert not any(a["type"] == "activate" for a in R.legal_actions(state, 0))
    assert state["seat"] == 0  # free: the turn goes on


def test_imperial_twing_C_1_C_2_C_4_T_4_3_D1_buying_costs_three_and_the_row_refills():
    """C.1 'Wenn du genug Ornikel hast (3, um genau zu sein ...)'; C.2 'ziehst du eine neue
    Karte vom Stapel der magischen Gegenstände'; D1: option object_price for the 5 of T.4.3."""
    state = playing(ornicles=[3, 0], supply=ORNICLES - 3)
    row = list(state["object_row"])
    state = do(state, {"type": "buy", "object": row[1]})
    assert state["active"][0] == [row[1]] and state["ornicles"][0] == 0 and state["supply"] == ORNICLES
    assert state["seat"] == 1  # C.4: buying is the turn's action
    assert len(state["object_row"]) == 2 and row[0] in state["object_row"]
    dear = playing(ornicles=[3, 0], options={"object_price": 5})
    assert not any(a["type"] == "buy" for a in R.legal_actions(dear, 0))


def test_imperial_twing_RI_1_K_2_K_4_T_4_5_D21_three_cats_bring_the_top_object():
    """RI.1 'kannst du drei Katzen opfern/abwerfen, um das nächste magische Objekt vom Stapel
    ... zu ziehen'; D21: Miromon goes last."""
    state = playing(hands=[["SP-fire-1a", "CAT-1", MIROMON, "CAT-2", "CAT-3"], ["SP-water-2a"]])
    top = state["object_deck"][0]
    state = do(state, {"type": "ritual"})
    assert state["active"][0] == [top] and state["hands"][0] == ["SP-fire-1a", MIROMON]
    state = playing(hands=[["SP-fire-1a", "CAT-1", MIROMON, "CAT-2"], ["SP-water-2a"]])
    state = do(state, {"type": "ritual"})  # K.4: Miromon serves in the ritual like any cat
    assert state["hands"][0] == ["SP-fire-1a"] and MIROMON in state["discard"]


def test_imperial_twing_DU_1_to_DU_5_T_4_2_D5_a_duel_is_best_of_three_for_an_object():
    """DU.1 a staked ornicle; DU.2 'Du greifst 3-mal ... 2 von 3 Kämpfen gewinnen'; DU.5 the
    winner takes an object and its stake back; D5: decided fights stop the duel."""
    hand0 = ["SP-fire-6a", "SP-fire-5a", "SP-fire-4a"]
    state = playing(hands=[hand0, ["SP-water-1a", "SP-water-1b", "SP-water-1c"]], ornicles=[1, 0],
                    supply=ORNICLES - 1, objects=[[], [HAT, PANTS]])
    state = fight(state, [spell("SP-fire-6a")], [spell("SP-water-1a")], kind="duel")
    assert state["ornicles"][0] == 0 and ornicles_total(state) == ORNICLES
    state = passes(roll(state, 0, 0))
    assert state["duel"]["wins"] == 1 and state["fight"]["number"] == 2
    state = duel_fight(state, [spell("SP-fire-5a")], [spell("SP-water-1b")])
    state = passes(roll(state, 0, 0))
    assert state["phase"] == "take" and state["actor"] == 0  # two objects to choose from
    state = do(state, {"type": "take", "object": PANTS})
    assert state["active"] == [[PANTS], [HAT]] and state["duel"] is None
    assert state["ornicles"][0] == 1 + 2 and ornicles_total(state) == ORNICLES  # stake + two wins


def test_imperial_twing_DU_6_a_defender_winning_two_takes_the_stake():
    """DU.6 'Wenn der Verteidiger 2 von 3 Duellen gewinnt, ... bekommt den eingesetzten Ornikel'."""
    state = playing(hands=[["SP-fire-1a", "SP-fire-1b"], ["SP-water-6a", "SP-water-5a"]], ornicles=[1, 0],
                    supply=ORNICLES - 1, objects=[[], [HAT]])
    state = fight(state, [spell("SP-fire-1a")], [spell("SP-water-6a")], kind="duel")
    state = passes(roll(state, 0, 0))
    state = duel_fight(state, [spell("SP-fire-1b")], [spell("SP-water-5a")])
    state = passes(roll(state, 0, 0))
    assert state["duel"] is None and state["ornicles"] == [0, 3] and state["active"][1] == [HAT]


def test_imperial_twing_M_1_to_M_5_D17_a_supporter_stakes_an_ornicle_and_a_card():
    """M.2 'Setze einen Ornikel ein und unterstütze eine Seite mit einem Zauberspruch / einer
    Kreatur der entsprechenden Farbe'; M.3 win: one more ornicle and the stake back; M.4 loss:
    the winner gets the stake and one more for the win."""
    hands = [["SP-fire-2a"], ["SP-water-3a"], ["SP-fire-3a", "SP-water-1a"]]
    state = playing(3, hands=hands, ornicles=[0, 0, 1], supply=ORNICLES - 1)
    state = fight(state, [spell("SP-fire-2a")], [spell("SP-water-3a")])
    assert state["phase"] == "support" and state["actor"] == 2
    assert {"type": "support", "side": 0, "card": "SP-fire-3a"} in R.legal_actions(state, 2)
    assert {"type": "support", "side": 0, "card": "SP-water-1a"} not in R.legal_actions(state, 2)
    state = do(state, {"type": "support", "side": 0, "card": "SP-fire-3a"})
    state = roll(state, 0, 0)  # M.5: the supporter rolls no die
    assert state["phase"] == "action"  # and is asked nothing in the window: it closed at once
    assert state["last_fight"]["outcomes"][0]["attacker_total"] == 5
    assert state["ornicles"] == [1, 0, 2] and ornicles_total(state) == ORNICLES
    state = playing(3, hands=hands, ornicles=[0, 0, 1], supply=ORNICLES - 1)
    state = fight(state, [spell("SP-fire-2a")], [spell("SP-water-3a")])
    state = passes(roll(do(state, {"type": "support", "side": 0, "card": "SP-fire-3a"}), CROSS, 0))
    assert state["ornicles"] == [0, 2, 0]


def test_imperial_twing_G_1_to_G_7_T_4_6_T_4_7_D11_D28_the_endgame_is_one_against_all():
    """G.3 'Dein Angriff richtet sich gegen alle verbleibenden Spieler'; G.5 'Jeder Kampf wird
    einzeln abgewickelt'; G.6 a win takes an object; G.7 a loss gives the opponent an ornicle;
    G.2, D11: a beaten seat with no object left leaves the game."""
    hands = [["SP-fire-4a"], ["SP-water-6a"], ["SP-life-1a"]]
    state = playing(3, hands=hands, objects=[[HAT, PANTS, BRA], [], [SOCKS]])
    state = do(state, {"type": "begin_endgame"}, spell("SP-fire-4a"), spell("SP-water-6a"),
               spell("SP-life-1a"))
    state = roll(state, 1, 1, 0)
    state = passes(state)
    assert [o["winner"] for o in state["last_fight"]["outcomes"]] == ["defender", "attacker"]
    assert state["ornicles"][1] == 1 and state["active"][0] == [HAT, PANTS, BRA] and state["aside"][0] == [SOCKS]
    assert state["left"] == [[2, "beaten", 1]] and state["in_endgame"][0]
    state = do(state, {"type": "pass"})  # seat 1's turn
    assert state["seat"] == 0 and {"type": "endgame_attack"} in R.legal_actions(state, 0)


def test_imperial_twing_G_8_losing_one_of_three_objects_ends_the_endgame():
    """G.8 'Wenn einer deiner drei magischen Gegenstände gestohlen wird, endet die Endspielphase
    für dich'."""
    state = playing(hands=[["SP-fire-6a", "SP-fire-5a"], ["SP-water-1a", "SP-water-1b"]], ornicles=[1, 0],
                    supply=ORNICLES - 1, objects=[[], [HAT, PANTS, BRA]], in_endgame=[False, True])
    state = fight(state, [spell("SP-fire-6a")], [spell("SP-water-1a")], kind="duel")
    state = passes(roll(state, 0, 0))
    state = duel_fight(state, [spell("SP-fire-5a")], [spell("SP-water-1b")])
    state = passes(roll(state, 0, 0))
    state = do(state, {"type": "take", "object": BRA})
    assert state["in_endgame"] == [False, False]


def test_imperial_twing_G_9_Z_1_D25_the_last_seat_in_the_game_wins():
    """G.9 'Wenn du die letzte Person im Spiel bist, hast du gewonnen'."""
    state = playing(hands=[["SP-fire-6a"], ["SP-water-1a"]], objects=[[HAT, PANTS, BRA], [SOCKS]])
    state = do(state, {"type": "begin_endgame"}, spell("SP-fire-6a"), spell("SP-water-1a"))
    state = passes(roll(state, 0, 0))
    nxt = R.next(state)
    assert isinstance(nxt, Ended) and nxt.result.placings == (1, 2)
    assert state["end"]["by"] == "rules" and state["active"][0] == [HAT, PANTS, BRA]


def test_imperial_twing_A_1_to_A_4_D14_a_resigning_seat_gives_its_objects_away():
    """A.3 'verteile deine magischen Gegenstände und Ornikel an die anderen Spieler, wie du
    möchtest'; D14: the resign action exists with resignation="free"."""
    state = playing(3, ornicles=[2, 0, 0], supply=ORNICLES - 2, objects=[[HAT], [], []],
                    options={"resignation": "free"})
    state = do(state, {"type": "resign"})
    assert state["phase"] == "give"
    state = do(state, {"type": "give", "to": 2, "object": HAT}, {"type": "give", "to": 1, "ornicles": 2})
    assert state["active"][2] == [HAT] and state["ornicles"] == [0, 2, 0]
    assert state["left"] == [[0, "resigned", 1]] and state["seat"] == 1
    assert not any(a["type"] == "resign" for a in R.legal_actions(playing(), 0))  # default


def test_imperial_twing_EV_1_EV_2_W_3_F_15_the_attackers_event_comes_first():
    """EV.2 'muss der Hauptangreifer zuerst eine Ereigniskarte ziehen ... Dann ziehen die
    anderen Spieler'; W.3 'Ereignisse werden sofort aufgelöst'."""
    state = playing(hands=[["SP-fire-3a"], ["SP-water-3a"]], event_deck=["EV-surge", "EV-headwind"])
    state = roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-3a")]), SPIRAL, SPIRAL)
    assert state["last_fight"]["events"] == [[0, "EV-surge"], [1, "EV-headwind"]]
    outcome = state["last_fight"]["outcomes"][0]
    assert (outcome["attacker_total"], outcome["defender_total"]) == (6, 1)


def test_imperial_twing_D14_a_fighter_forfeiting_calls_the_fight_off():
    state = playing(3, hands=[["SP-fire-3a"], ["SP-water-3a"], ["SP-life-1a"]],
                    retinues=[["CR-fire-1-salamander"], [], []])
    state = do(state, {"type": "attack", "target": 1}, spell("SP-fire-3a"), creature("CR-fire-1-salamander"))
    state = R.apply(state, Event.forfeit(0, "resigned"))
    assert state["fight"] is None and state["seat"] == 1 and 0 in state["forfeited"]
    assert "CR-fire-1-salamander" in state["discard"] and state["hands"][1][0] == "SP-water-3a"
    assert state["left"] == [[0, "forfeit", 1]]


def test_imperial_twing_D24_D25_the_turn_limit_ends_the_match_scored_by_objects():
    state = playing(objects=[[HAT], [PANTS, BRA]], ornicles=[5, 0], supply=ORNICLES - 5, turn=300)
    state = do(state, {"type": "pass"})
    assert state["end"] == {"by": "bound", "scores": [205, 300]}
    assert R.next(state).result.placings == (2, 1)


def test_imperial_twing_Z_1_G_9_D25_score_now_is_what_the_turn_limit_would_score():
    """Z.1 'zunächst (mindestens) drei magische Objekte sammeln'; G.9 'Wenn du die letzte
    Person im Spiel bist, hast du gewonnen'; D25: the search bot's score_now is the score the
    turn limit would give as the seats stand: 100 + 100 x objects + ornicles in the game
    (objects first, then ornicles), the rank of its leaving for a seat that left; a forfeited
    seat is below every other."""
    state = playing(3, objects=[[HAT], [PANTS, BRA], []], ornicles=[5, 0, 0],
                    supply=ORNICLES - 5, turn=300, left=[[2, "beaten", 250]])
    before = json.dumps(state, sort_keys=True)
    assert R.score_now(state) == [100 + 100 + 5, 100 + 200 + 0, 1]
    assert json.dumps(state, sort_keys=True) == before  # the state is not changed
    assert R.score_now(dict(state, forfeited=[1])) == [205, -1, 1]
    after = do(state, {"type": "pass"})  # D24: the turn limit scores the match
    assert after["end"] == {"by": "bound", "scores": R.score_now(state)}


# -- whole matches -------------------------------------------------------------------------------

def test_imperial_twing_check_refuses_garbage_with_a_reason():
    state = playing()
    for junk in (None, 3, "attack", {"type": 5}, {"type": "attack"}, {"type": "attack", "target": 0},
                 {"type": "attack", "target": 1, "x": 1}, {"type": "buy", "object": HAT}, [1]):
        with pytest.raises(IllegalAction) as caught:
            R.check(state, 0, junk)
        assert caught.value.reason
    with pytest.raises(IllegalAction, match="does not act"):
        R.check(state, 1, {"type": "pass"})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_imperial_twing_deep_random_matches_validate_conserve_ornicles_and_hide_hands(players):
    """Random matches to the end: every log validates; ornicles are never made or lost (30 in
    all); no view shows another seat's hand card."""
    for index in range(12):
        records = playout(R, players, seed=bytes([index, players]) * 16, bot_seed=index,
                          match_id=f"deep{index}", max_events=R.max_events(players, R.options({})))
        assert validate(records, get_ruleset=registry.get).ok
        folder = Folder(records[0], get_ruleset=registry.get)
        for record in records[1:-1]:
            folder.step(record)
            state = folder.state
            assert ornicles_total(state) == ORNICLES, record["seq"]
            if record["seq"] % 7:
                continue
            held = {seat: R.hidden_items(state, seat) for seat in [*range(players), None]}
            for viewer in [*range(players), None]:
                text = canonical_json(R.view(state, viewer))
                others = set().union(*(held[s] for s in held if s != viewer)) - held[viewer]
                leaked = [c for c in others if canonical_json(c) in text]
                assert not leaked, (record["seq"], viewer, leaked)


def test_imperial_twing_heuristic_bot_beats_random_in_70_percent_of_200_two_player_games():
    wins = 0
    for index in range(200):
        me = index % 2
        bots = {s: (HeuristicBot(R, index) if s == me else RandomBot(R, index + 1)) for s in (0, 1)}
        records = playout(R, 2, seed=index.to_bytes(4, "big") * 8, bots=bots, match_id=f"h{index}",
                          max_events=R.max_events(2, R.options({})))
        wins += records[-1]["payload"]["result"]["placings"][me] == 1
    assert wins >= 140, f"the heuristic bot won {wins} of 200"


def test_imperial_twing_F_1_F_2_F_4_the_attack_lies_face_up_and_the_defender_must_defend():
    """F.1 'einen beliebigen anderen Spieler angreifen'; F.2 'leg dann die Karten ... offen auf
    den Tisch'; F.4 'Der Gegner MUSS sich verteidigen'."""
    state = playing(3, hands=[["SP-fire-3a"], ["SP-water-3a", "CAT-1"], ["SP-life-1a"]])
    assert [a["target"] for a in R.legal_actions(state, 0) if a["type"] == "attack"] == [1, 2]
    state = do(state, {"type": "attack", "target": 1}, spell("SP-fire-3a"))
    assert R.view(state, 2)["fight"]["sides"][0]["spells"] == ["SP-fire-3a"]
    assert {"type": "done"} not in R.legal_actions(state, 1)
    assert R.legal_actions(state, 1) == [spell("SP-water-3a")]


def test_imperial_twing_H_4_D16_protected_creatures_and_the_also_traps_option():
    """H.4 'Kreaturen mit der gleichen Farbe wie dein Charakter sind geschützt (siehe unten)':
    by default E.2's return after a lost attack; with protected="also-traps" also from traps."""
    def trap_targets(options):
        state = playing(hands=[["SP-fire-2a"], ["SP-water-1a", "TRAP-1"]], options=options,
                        retinues=[["CR-fire-3-phoenix", "CR-water-2-nixe"], []])
        state = fight(state, [spell("SP-fire-2a"), creature("CR-fire-3-phoenix")], [spell("SP-water-1a")])
        state = roll(state, 0, 0)
        if state["phase"] != "respond":  # nothing to play: the window closed at once
            return []
        return [a["target"] for a in R.legal_actions(state, 1) if a["type"] == "trap"]
    assert trap_targets({}) == ["CR-fire-3-phoenix"]
    assert trap_targets({"protected": "also-traps"}) == []


def test_imperial_twing_W_4_after_an_event_a_cat_may_re_roll():
    """W.4 'Nachdem ein Ereignis eingetreten ist, können beide Spieler ... eine Katzenkarte
    ausspielen, um ihre Würfel neu zu werfen.'"""
    state = playing(hands=[["SP-fire-2a"], ["SP-water-3a", "CAT-1"]], event_deck=["EV-oracle"])
    state = roll(fight(state, [spell("SP-fire-2a")], [spell("SP-water-3a")]), 0, SPIRAL)
    assert state["fight"]["events"] == [[1, "EV-oracle"]] and state["actor"] == 1
    state = roll(do(state, {"type": "cat", "card": "CAT-1"}), 3)
    assert state["last_fight"]["sides"]["1"]["die"] == 3


def test_imperial_twing_D7_an_empty_deck_is_the_shuffled_discard_pile():
    state = playing(deck=["SP-air-1a"], discard=["SP-life-1a", "TRAP-1", "CAT-5"])
    state = do(state, {"type": "pass"})
    nxt = R.next(state)
    assert state["phase"] == "reshuffle" and nxt.spec == {"kind": "shuffle", "n": 3}
    state = R.apply(state, Event.chance(nxt.spec, [2, 0, 1]))
    assert state["hands"][0][-2:] == ["SP-air-1a", "CAT-5"] and state["reshuffles"] == 1
    assert state["deck"] == ["TRAP-1"] or state["hands"][1][-1] == "SP-life-1a"


def test_imperial_twing_D8_D13_no_spell_to_find_and_a_defence_with_nothing():
    state = playing(hands=[["SP-fire-2a"], ["CAT-1"]], deck=["TRAP-1"], discard=["CAT-2"])
    assert state["hands"][1] == ["CAT-1"] and state["phase"] == "action"  # D8: nothing to find
    state = do(state, {"type": "attack", "target": 1}, spell("SP-fire-2a"))
    state = roll(state, 0)  # D13: the empty defence is closed for it, rolls no die, counts 0
    assert state["last_fight"]["outcomes"][0]["winner"] == "attacker"
    assert state["last_fight"]["outcomes"][0]["defender_total"] == 0


def test_imperial_twing_D10_the_supply_pays_what_it_has_and_nobody_goes_below_zero():
    state = playing(hands=[["SP-fire-3a"], ["SP-water-2a"]], supply=0, ornicles=[20, 10])
    state = passes(roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a")]), 0, 0))
    assert state["last_fight"]["outcomes"][0]["winner"] == "attacker"
    assert state["ornicles"] == [20, 10] and state["supply"] == 0  # no ornicle left to pay
    state = playing(hands=[["SP-fire-3a"], ["SP-water-2a"]], event_deck=["EV-tax"])
    state = passes(roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a")]), SPIRAL, 0))
    assert state["ornicles"] == [1, 0] and state["supply"] == ORNICLES - 1


def test_imperial_twing_D5_a_duel_nobody_wins_twice_returns_the_stake():
    state = playing(hands=[["SP-fire-3a", "SP-fire-3b", "SP-fire-1a"], ["SP-water-3a", "SP-water-3b", "SP-water-6a"]],
                    ornicles=[1, 0], supply=ORNICLES - 1, objects=[[], [HAT]])
    state = fight(state, [spell("SP-fire-3a")], [spell("SP-water-3a")], kind="duel")
    state = passes(roll(state, 0, 0))  # a tie
    state = duel_fight(state, [spell("SP-fire-3b")], [spell("SP-water-3b")])
    state = passes(roll(state, 0, 0))  # a tie
    assert state["fight"]["number"] == 3
    state = duel_fight(state, [spell("SP-fire-1a")], [spell("SP-water-6a")])
    state = passes(roll(state, 0, 0))  # the defender wins one of three
    assert state["duel"] is None and state["ornicles"] == [1, 1] and state["active"] == [[], [HAT]]


def test_imperial_twing_D2_characters_may_be_chosen_in_seat_order():
    state = R.setup(3, R.options({"characters": "choose"}))
    assert state["phase"] == "character" and state["actor"] == 0
    state = do(state, {"type": "character", "element": "air"})
    assert {"type": "character", "element": "air"} not in R.legal_actions(state, 1)
    state = do(state, {"type": "character", "element": "fire"}, {"type": "character", "element": "life"})
    assert state["characters"] == ["air", "fire", "life"] and R.next(state).spec["kind"] == "shuffle"


# -- what a seat knows, and determinize (issue 15.1) ------------------------------------------------

def called_off():
    """Seat 0 attacks seat 1, both lay a spell, and seat 0 forfeits: D14 calls the fight off."""
    state = playing(3, hands=[["SP-fire-3a"], ["SP-water-3a", "SP-water-1a"], ["SP-life-1a"]])
    state = do(state, {"type": "attack", "target": 1}, spell("SP-fire-3a"), spell("SP-water-3a"))
    return R.apply(state, Event.forfeit(0, "resigned"))


def test_imperial_twing_D14_cards_a_called_off_fight_gives_back_stay_known_to_all():
    """D14 'A fight whose fighter forfeits is called off: cards back to their owners': the spell
    seat 1 laid face up is back in its hand, and every view remembers it is there (``revealed``)
    until it leaves the hand again."""
    state = called_off()
    assert state["fight"] is None and "SP-water-3a" in state["hands"][1]
    for viewer in (1, 2, None):
        assert R.view(state, viewer)["revealed"] == [[], ["SP-water-3a"], []]
    assert "SP-water-3a" not in R.hidden_items(state, 1)
    for made in (R.determinize(R.view(state, 2), 2, random.Random(seed)) for seed in range(20)):
        assert "SP-water-3a" in made["hands"][1] and len(made["hands"][1]) == len(state["hands"][1])
    assert state["seat"] == 1 and state["phase"] == "action"
    state = do(state, {"type": "attack", "target": 2}, spell("SP-water-3a"))
    assert R.view(state, None)["revealed"] == [[], [], []] and "revealed" not in state


def test_imperial_twing_D14_a_forfeiting_supporters_card_is_discarded_not_lost():
    """D14: the forfeiting seat's stake is returned and its cards are discarded, the card it
    supported with among them (every play card stays somewhere: 106 in all)."""
    hands = [["SP-fire-2a"], ["SP-water-3a"], ["SP-fire-3a", "SP-water-1a"]]
    state = playing(3, hands=hands, ornicles=[0, 0, 1], supply=ORNICLES - 1)
    state = fight(state, [spell("SP-fire-2a")], [spell("SP-water-3a")])
    state = do(state, {"type": "support", "side": 0, "card": "SP-fire-3a"})
    state = R.apply(state, Event.forfeit(2, "timeout"))
    assert {"SP-fire-3a", "SP-water-1a"} <= set(state["discard"])
    assert ornicles_total(state) == ORNICLES and state["fight"]["supporters"] == []


def test_imperial_twing_the_view_carries_the_bookkeeping_every_seat_follows():
    """Issue 15.1 (perfect recall): who has passed in a window (D15), the draws still due while
    the discard pile is reshuffled (D7), whether the turn's action is taken."""
    state = playing(hands=[["SP-fire-2a"], ["SP-water-3a", "CAT-1"]], event_deck=["EV-oracle"])
    state = roll(fight(state, [spell("SP-fire-2a")], [spell("SP-water-3a")]), 0, SPIRAL)
    assert R.view(state, 0)["fight"]["window"] == state["fight"]["window"] is not None
    state = playing(deck=["SP-air-1a"], discard=["SP-life-1a", "TRAP-1", "CAT-5"])
    state = do(state, {"type": "pass"})
    view = R.view(state, 1)
    assert view["phase"] == "reshuffle" and view["turn_over"] is True
    assert view["pending_draws"] == [{"seat": 0, "count": 1, "mode": "plain"}]


def determinized_states(players, count=3, every=5):
    """(state, seat, determinized state) along random playouts, every ``every``-th event."""
    for index in range(count):
        records = playout(R, players, seed=bytes([index, players, 15]) * 11, bot_seed=index,
                          options={"turn_limit": 60})
        folder = Folder(records[0])
        for record in records[1:-1]:
            folder.step(record)
            if record["seq"] % every or isinstance(R.next(folder.state), Ended):
                continue
            for seat in range(players):
                view = R.view(folder.state, seat)
                yield folder.state, seat, R.determinize(view, seat, random.Random(record["seq"]))


@pytest.mark.parametrize("players", [2, 4])
def test_imperial_twing_determinize_deals_hands_the_rules_allow_and_the_engine_would_ask(players):
    """Issue 15.1: the seat's view is kept; the other hands hold no card the view places
    elsewhere and no creature (T.1: it joins the retinue); and the state is one the engine
    stands still in: carrying out what is automatic (``advance``) changes nothing, so no hand
    breaks a limit (H.1-H.3) or lacks a spell it would draw at once (T.3, D9), and the seat
    asked in a fight has something to decide (D13, D15, D17)."""
    checked = 0
    for state, seat, made in determinized_states(players):
        view = R.view(state, seat)
        assert R.view(made, seat) == view
        assert made["hands"][seat] == state["hands"][seat]
        placed = set(made["discard"]) | {c for r in made["retinues"] for c in r}
        for other, hand in enumerate(made["hands"]):
            assert not placed & set(hand) and all(CARD[c].kind not in ("creature", "mount") for c in hand)
        assert sorted(made["deck"] + [c for h in made["hands"] for c in h]) == \
            sorted(state["deck"] + [c for h in state["hands"] for c in h])
        still = R.decode(R.encode(made))
        advance(still)
        assert (still["phase"], still["actor"], still["hands"], still["draws"]) == \
            (made["phase"], made["actor"], made["hands"], made["draws"])
        checked += 1
    assert checked > 100


def test_imperial_twing_determinize_is_a_pure_function_of_view_and_rng_and_fast():
    """Issue 15.1: the same view and seed give the same state, the view is left alone, the
    other hands are drawn (not copied), and a search bot can afford it."""
    state = next(s for s, seat, _ in determinized_states(3, count=1, every=1)
                 if s["phase"] == "action" and s["turn"] >= 6 and seat == 0)
    view = R.view(state, 0)
    before = canonical_json(view)
    made = [R.determinize(view, 0, random.Random(seed)) for seed in range(300)]
    assert canonical_json(view) == before
    assert canonical_json(R.encode(R.determinize(view, 0, random.Random(1)))) == \
        canonical_json(R.encode(made[1]))
    assert len({tuple(m["hands"][1]) for m in made}) > 20
    started = time.perf_counter()
    for seed in range(300):
        R.determinize(view, 0, random.Random(seed))
    assert time.perf_counter() - started < 1.0


# -- version 1 matches (games/imperial_twing/editions.py) ------------------------------------------

GOLDEN_V1 = Path(__file__).resolve().parent / "data" / "imperial-twing-v1-golden.jsonl"
# The golden version 1 logs (tests/games/test_editions.py, written by the version 1 code) in which
# a seat leaves mid-fight: the seq of its forfeit, and whether it fought (D14: the fight is called
# off with spells on the table) or supported. Version 2 folds each of them to other states.
V1_FORFEITS_IN_A_FIGHT = {
    "golden-imperial-twing-v1-2-3": (25, "fighter"),
    "golden-imperial-twing-v1-3-4": (30, "fighter"),
    "golden-imperial-twing-v1-4-5": (50, "fighter"),  # an illegal answer, not a resignation
    "golden-imperial-twing-v1-4-6": (38, "fighter"),  # a supporter's spell goes back too
    "golden-imperial-twing-v1-3-7": (107, "supporter"),  # with a creature
    "golden-imperial-twing-v1-4-8": (77, "supporter"),  # with a spell
}


def golden_v1(match):
    return next(log for log in map(json.loads, GOLDEN_V1.read_text().splitlines())
                if log[0]["match"] == match)


def fold_until(log, seq, *, version):
    """The state after event ``seq`` of ``log`` folded by the rules of ``version``."""
    log = json.loads(json.dumps(log))
    log[0]["payload"]["version"] = version
    folder = Folder(log[0])
    assert folder.ruleset.spec.version == version
    for record in log[1:seq + 1]:
        folder.step(record)
    return folder.state


def test_imperial_twing_D14_version_1_keeps_no_revealed_and_loses_a_forfeiting_supporters_card():
    """Version 1 (editions.py) as it was: a called-off fight gives the spells back unrecorded,
    and a forfeiting supporter's card leaves the game (105 play cards left of 106)."""
    v1 = registry.get("imperial-twing", 1)
    assert v1.spec.version == 1 and v1 is R.edition(1) and v1 is not R and R.spec.version == 3
    state = playing(3, hands=[["SP-fire-3a"], ["SP-water-3a", "SP-water-1a"], ["SP-life-1a"]])
    state = do(state, {"type": "attack", "target": 1}, spell("SP-fire-3a"), spell("SP-water-3a"))
    state = v1.apply(state, Event.forfeit(0, "resigned"))
    assert "SP-water-3a" in state["hands"][1] and "revealed" not in state
    assert v1.view(state, 2)["revealed"] == [[], [], []]
    hands = [["SP-fire-2a"], ["SP-water-3a"], ["SP-fire-3a", "SP-water-1a"]]
    state = playing(3, hands=hands, ornicles=[0, 0, 1], supply=ORNICLES - 1)
    state = fight(state, [spell("SP-fire-2a")], [spell("SP-water-3a")])
    state = do(state, {"type": "support", "side": 0, "card": "SP-fire-3a"})
    state = v1.apply(state, Event.forfeit(2, "timeout"))
    places = state["deck"] + state["discard"] + [c for pile in state["hands"] + state["retinues"] for c in pile]
    assert "SP-fire-3a" not in places and "SP-water-1a" in state["discard"]
    assert ornicles_total(state) == ORNICLES and len(places) == len(PLAY_IDS) - 2 - 1  # 2 fight on


@pytest.mark.parametrize("match", sorted(V1_FORFEITS_IN_A_FIGHT))
def test_imperial_twing_version_1_matches_fold_by_edition_1_as_they_were_written(match):
    """A match keeps the rules it was played by: a stored version 1 log folds by edition 1 to
    the states version 1 wrote (test_editions.py checks them), and the version 2 rules would fold
    it to others, D14: a called-off fight's spells ``revealed`` in a hand, a forfeiting
    supporter's card in the discard pile."""
    seq, role = V1_FORFEITS_IN_A_FIGHT[match]
    log = golden_v1(match)
    assert log[0]["payload"]["version"] == 1 and log[seq]["kind"] == "forfeit"
    before = fold_until(log, seq - 1, version=1)
    old, new = fold_until(log, seq, version=1), fold_until(log, seq, version=2)
    fight_, seat = before["fight"], log[seq]["seat"]
    assert old != new and "revealed" not in old
    if role == "fighter":
        assert seat in fighters(fight_)
        back = {c for s in fighters(fight_) if s != seat for c in fight_["sides"][s]["spells"]}
        back |= {s["card"] for s in fight_["supporters"] if CARD[s["card"]].kind == "spell"}
        assert back and back == {c for cards in new["revealed"] for c in cards}
    else:
        card = next(s["card"] for s in fight_["supporters"] if s["seat"] == seat)
        assert seat not in fighters(fight_) and card in new["discard"]
        assert card not in old["discard"] + [c for pile in old["hands"] + old["retinues"] for c in pile]


def test_imperial_twing_version_2_would_flag_stored_version_1_snapshots():
    """Snapshots (every 50th event) are re-folds of the version the log names: edition 1 gives
    each one version 1 stored, the version 2 rules differ at some of them (a revealed card
    still in a hand, a supporter's card missing from version 1's discard pile)."""
    flagged = set()
    for log in map(json.loads, GOLDEN_V1.read_text().splitlines()):
        stored = {r["seq"]: R.edition(1).encode(fold_until(log, r["seq"], version=1))
                  for r in log[50:-1:50]}
        if any(R.encode(fold_until(log, seq, version=2)) != state for seq, state in stored.items()):
            flagged.add(log[0]["match"])
        assert validate(log, snapshots=stored).ok
    assert flagged == {"golden-imperial-twing-v1-4-5", "golden-imperial-twing-v1-4-6",
                       "golden-imperial-twing-v1-3-7", "golden-imperial-twing-v1-4-8"}
