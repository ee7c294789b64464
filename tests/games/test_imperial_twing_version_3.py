"""Imperial Twing version 3 (issue 38): the rules version 3 changed, each test quoting its clause,
and the version 2 matches stored before it, which fold by editions.py as they were written.

States are built as in test_imperial_twing.py (``playing``: seat s plays CHARACTERS_BY_SEAT[s],
fire, water, life, air; seat 0 takes its action; dice given as faces).
"""
import json
from pathlib import Path

import pytest

from games.engine import registry
from games.engine.log import Folder, validate
from games.engine.protocol import Event
from games.imperial_twing.content import (CLOVER, CROSS, CUP, DOLL, HAT, MIROMON, OBJECT_IDS,
                                          ORNICLES, PANTS, SOCKS, SPIRAL, TEDDY, BRA, BOOTS)
from games.imperial_twing.editions import IMPERIAL_TWING_V2, OptionsV2
from tests.games.test_imperial_twing import (R, creature, do, duel_fight, fight, lay, ornicles_total,
                                             passes, playing, roll, spell)

# -- T.3 between the fights of a duel --------------------------------------------------------------


def test_imperial_twing_T_3_D9_D13_a_duelist_without_a_spell_draws_one_between_the_fights():
    """T.3 'Wenn du keine Zaubersprüche mehr auf der Hand hast, ziehst du immer sofort
    Spielkarten nach, bis du einen neuen Zauberspruch hast. Alle gezogenen Karten, die keine
    Zaubersprüche sind, werden sofort abgeworfen.' (Without a spell you always draw at once
    until you have one; the other cards are discarded.) No fight runs between the fights of a
    duel (DU.2 'Du greifst 3-mal hintereinander deinen Gegner an'), so the attacker that laid
    its only spell in fight 1 draws before fight 2, and again before fight 3, and wins the
    duel it would have lost laying nothing (D13)."""
    state = playing(hands=[["SP-fire-6a"], ["SP-water-1a", "SP-water-6a", "SP-water-1b"]],
                    ornicles=[1, 0], supply=ORNICLES - 1, objects=[[], [HAT]],
                    deck=["TRAP-1", "SP-fire-1a", "CAT-1", "SP-fire-5a", "SP-air-1a", "SP-air-2a"])
    state = fight(state, [spell("SP-fire-6a")], [spell("SP-water-1a")], kind="duel")
    state = passes(roll(state, 0, 0))
    assert state["duel"]["wins"] == 1 and state["fight"]["number"] == 2
    assert state["hands"][0] == ["SP-fire-1a"] and state["discard"][-1] == "TRAP-1"
    assert state["actor"] == 0 and state["phase"] == "commit"  # it has a spell to lay
    state = duel_fight(state, [spell("SP-fire-1a")], [spell("SP-water-6a")])
    state = passes(roll(state, 0, 0))  # the defender wins fight 2
    assert state["hands"][0] == ["SP-fire-5a"] and state["discard"][-1] == "CAT-1"
    state = duel_fight(state, [spell("SP-fire-5a")], [spell("SP-water-1b")])
    state = passes(roll(state, 0, 0))  # the attacker wins fight 3: two of three
    assert state["duel"] is None and state["active"] == [[HAT], []]
    assert state["ornicles"] == [1 + 2, 1] and ornicles_total(state) == ORNICLES  # DU.5


def test_imperial_twing_T_3_D14_a_duelist_forfeiting_between_two_fights_ends_the_duel():
    """D14: a duel's fighter that leaves between two of its fights (while a hand limit waits,
    the only decision there) ends the duel: the stake goes back to the attacker."""
    state = playing(hands=[["SP-fire-6a"], ["SP-water-1a", "SP-water-6a", "SP-life-1a", "SP-air-1a"]],
                    ornicles=[1, 0], supply=ORNICLES - 1, objects=[[], [HAT]],
                    deck=["SP-fire-2a", "SP-fire-1a"], event_deck=["EV-oracle"])
    state = fight(state, [spell("SP-fire-6a")], [spell("SP-water-1a")], kind="duel")
    state = passes(roll(state, 0, SPIRAL))  # the defender's Orakel draws it a fourth colour
    assert state["phase"] == "limit" and state["actor"] == 1 and state["fight"] is None
    assert state["duel"]["fought"] == 1
    state = R.apply(state, Event.forfeit(1, "timeout"))
    assert state["duel"] is None and state["ornicles"][0] == 1 + 1  # its stake and fight 1's


# -- the Doll and the earthquake --------------------------------------------------------------------

def test_imperial_twing_O_6_D22_an_earthquake_the_dolls_holder_draws_has_no_effect():
    """O.6 'Wenn du eine Ereigniskarte ziehst, hat sie keine Auswirkungen auf dich' (an event
    you draw has no effect on you): the earthquake ties the whole fight, its drawer's too, so
    drawn by the Doll's holder it changes nothing; drawn by another seat it ties the fight."""
    state = playing(hands=[["SP-fire-3a"], ["SP-water-2a"]], objects=[[DOLL], []],
                    event_deck=["EV-quake"])
    state = passes(roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a")]), SPIRAL, 0))
    assert state["last_fight"]["events"] == [[0, "EV-quake"]] and not state["last_fight"]["quake"]
    assert state["last_fight"]["outcomes"][0]["winner"] == "attacker"
    state = playing(hands=[["SP-fire-3a"], ["SP-water-2a"]], objects=[[DOLL], []],
                    event_deck=["EV-quake"])
    state = passes(roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a")]), 0, SPIRAL))
    assert state["last_fight"]["quake"] and state["last_fight"]["outcomes"][0]["winner"] == "tie"


# -- the Cup and the Socks in the endgame -----------------------------------------------------------

def endgame(hands, objects, retinues=None, options=None):
    """Seat 0 (fire) begins the endgame against seats 1 (water) and 2 (life)."""
    state = playing(3, hands=hands, objects=objects, retinues=retinues or [[], [], []],
                    options=options)
    return do(state, {"type": "begin_endgame"})


def test_imperial_twing_O_10_D18_the_cup_protects_its_holders_endgame_fight_only():
    """O.10 'Deine Gegner können keine berittenen Kreaturen nutzen, wenn sie dich angreifen ...
    In einer Mehrspieler-Situation (z. B. im Endspiel) gilt dies nur für Angriffe gegen dich,
    nicht gegen andere Spieler.' (In the endgame only for attacks against you, not against
    others.) The endgame attacker mounts its Phoenix; the pair counts against seat 1, and
    against seat 2, the Cup's holder, only the mount counts."""
    state = endgame([["SP-fire-4a"], ["SP-water-6a"], ["SP-life-5a", "SP-life-4a"]],
                    [[HAT, PANTS, BRA], [], [CUP]],
                    retinues=[["MT-fire-4-kriegsross", "CR-fire-3-phoenix"], [], []])
    state = do(state, spell("SP-fire-4a"))
    assert creature("MT-fire-4-kriegsross", "CR-fire-3-phoenix") in R.legal_actions(state, 0)
    state = lay(state, 0, [creature("MT-fire-4-kriegsross", "CR-fire-3-phoenix")])
    state = lay(lay(state, 1, [spell("SP-water-6a")]), 2, [spell("SP-life-5a"), spell("SP-life-4a")])
    state = passes(roll(state, 0, 0, 0))
    outcomes = {o["defender"]: o for o in state["last_fight"]["outcomes"]}
    assert (outcomes[1]["attacker_total"], outcomes[1]["winner"]) == (4 + 4 + 3, "attacker")
    assert (outcomes[2]["attacker_total"], outcomes[2]["winner"]) == (4 + 4, "defender")


def test_imperial_twing_O_10_D18_a_lone_cup_holder_in_the_endgame_bars_riders():
    """O.10: with the Cup's holder the only defender left, every fight of the endgame attack is
    against it, so no mounted creature may be laid (as in an attack, F.5)."""
    state = playing(hands=[["SP-fire-4a"], ["SP-water-6a"]], objects=[[HAT, PANTS, BRA], [CUP]],
                    retinues=[["MT-fire-4-kriegsross", "CR-fire-3-phoenix"], []])
    state = do(state, {"type": "begin_endgame"}, spell("SP-fire-4a"))
    legal = R.legal_actions(state, 0)
    assert creature("MT-fire-4-kriegsross") in legal
    assert creature("MT-fire-4-kriegsross", "CR-fire-3-phoenix") not in legal


def socks_endgame(options=None, cats=("CAT-1",)):
    """Seat 0 lays an air spell (not its colour: E.1 leaves its -4 alone) against seat 1 and
    seat 2, the Socks' holder; the dice fall -4, 0, 0."""
    state = endgame([["SP-air-4a", *cats], ["SP-water-3a"], ["SP-life-1a"]],
                    [[HAT, PANTS, BRA], [], [SOCKS]], options=options)
    state = do(state, spell("SP-air-4a"), spell("SP-water-3a"), spell("SP-life-1a"))
    return roll(state, -4, 0, 0)


def test_imperial_twing_O_9_D18_the_socks_bar_cats_against_their_holder_only():
    """O.9 'Deine Gegner können keine Katzenkarten gegen dich einsetzen, einschließlich Miromon.
    Dies hindert deinen Gegner nicht daran, Katzenkarten gegen andere Spieler einzusetzen'
    (your opponents cannot use cats against you; it does not stop them using cats against
    other players). D18: the endgame attacker's cat re-rolls its one die; the new die counts
    against seat 1, and against seat 2, the Socks' holder, the die before the cat (-4)."""
    state = socks_endgame(cats=("CAT-1", "CAT-2"))
    assert state["actor"] == 0 and {"type": "cat", "card": "CAT-1"} in R.legal_actions(state, 0)
    state = roll(do(state, {"type": "cat", "card": "CAT-1"}), 4)
    assert state["fight"]["sides"][0]["die"] == 4 and state["fight"]["sides"][0]["held"] == -4
    assert R.view(state, 1)["fight"]["sides"][0]["held"] == -4  # public, like every die
    state = passes(state)  # the second cat stays in the hand
    outcomes = {o["defender"]: o for o in state["last_fight"]["outcomes"]}
    assert (outcomes[1]["attacker_die"], outcomes[1]["winner"]) == (4, "attacker")  # 8 > 3
    assert (outcomes[2]["attacker_die"], outcomes[2]["winner"]) == (-4, "defender")  # 0 < 1
    assert state["last_fight"]["sides"]["0"]["held"] == -4


def test_imperial_twing_O_9_K_3_D18_miromon_may_not_touch_the_socks_holders_die():
    """O.9 'einschließlich Miromon': in the endgame Miromon may invert the attacker's own die
    or seat 1's, never the die of seat 2, the Socks' holder."""
    state = socks_endgame(cats=(MIROMON,))
    inverts = [a["target"] for a in R.legal_actions(state, 0) if a["type"] == "invert"]
    assert inverts == [0, 1]


def test_imperial_twing_O_5_O_9_D18_the_clovers_re_roll_counts_against_the_socks_holder_too():
    """O.5 'Wenn du angreifst, darfst du den Orn-Würfel noch einmal würfeln (dies wird von den
    Socken der Gewissheit nicht beeinflusst)': after a cat, the Clover's re-roll is the die of
    every fight again, the Socks' holder's too."""
    state = endgame([["SP-air-4a", "CAT-1"], ["SP-water-3a"], ["SP-life-1a"]],
                    [[CLOVER, PANTS, BRA], [], [SOCKS]])
    state = roll(do(state, spell("SP-air-4a"), spell("SP-water-3a"), spell("SP-life-1a")), -4, 0, 0)
    state = roll(do(state, {"type": "cat", "card": "CAT-1"}), -3)
    assert state["fight"]["sides"][0]["held"] == -4
    state = roll(do(state, {"type": "reroll"}), 2)  # nothing more to play: the fight ends
    assert "held" not in state["last_fight"]["sides"]["0"]
    assert [o["attacker_die"] for o in state["last_fight"]["outcomes"]] == [2, 2]


def test_imperial_twing_O_9_D18_option_socks_bar_all_bars_the_attackers_cats():
    """D18, option socks="bar-all" (version 2's reading): one defender's Socks bar the endgame
    attacker's cats against every defender."""
    state = socks_endgame(options={"socks": "bar-all"})
    assert state["phase"] != "respond"  # nothing to play: the window closed at once
    assert [o["attacker_die"] for o in state["last_fight"]["outcomes"]] == [-4, -4]


# -- objects gained during a fight, and the events' scopes ------------------------------------------

def test_imperial_twing_D30_an_object_gained_in_a_fight_works_at_once():
    """C.1 'Von nun an bist du mächtiger und kannst die Kräfte des magischen Objektes nutzen'
    (from now on you may use its powers), W.3 'Ereignisse werden sofort aufgelöst': the Pants
    the attacker's Fundstück brings count its cross, rolled by the cat after it, as 0."""
    rest = [o for o in OBJECT_IDS if o not in (TEDDY, HAT, PANTS)]
    state = playing(hands=[["SP-fire-3a", "CAT-1"], ["SP-water-2a"]], event_deck=["EV-find"],
                    object_row=[TEDDY, HAT], object_deck=[PANTS, *rest])
    state = roll(fight(state, [spell("SP-fire-3a")], [spell("SP-water-2a")]), SPIRAL, 0)
    assert state["active"][0] == [PANTS]
    state = passes(roll(do(state, {"type": "cat", "card": "CAT-1"}), CROSS))
    assert state["last_fight"]["outcomes"][0]["winner"] == "attacker"  # 3 + 0 against 2


def test_imperial_twing_EV_1_D31_events_name_you_all_or_the_others():
    """'Ereignisse ... können sowohl den Spieler, der das Ereignis zieht, als auch einige oder
    alle anderen Spieler betreffen' (the card types) against EV.1 'Ereigniskarten können nur
    dich oder alle Spieler betreffen' (D31): the Ornsturm hits every other side, the Elster
    takes from each opponent in the fight, and neither touches a seat outside it."""
    state = playing(3, hands=[["SP-fire-3a"], ["SP-water-3a"], ["SP-life-1a"]],
                    event_deck=["EV-storm", "EV-magpie"], ornicles=[0, 2, 2],
                    supply=ORNICLES - 4)
    state = fight(state, [spell("SP-fire-3a")], [spell("SP-water-3a")])
    assert state["phase"] == "roll"  # seat 2 holds no card of either side's colour to support
    state = passes(roll(state, SPIRAL, SPIRAL))  # Ornsturm for seat 0, Elster for seat 1
    outcome = state["last_fight"]["outcomes"][0]
    assert (outcome["attacker_total"], outcome["defender_total"]) == (3, 3 - 2)
    assert state["ornicles"] == [0 + 1, 2 + 0, 2]  # seat 1 took nothing: seat 0 had none
    assert ornicles_total(state) == ORNICLES


# -- the turn limit ------------------------------------------------------------------------------

def test_imperial_twing_D24_D25_at_the_turn_limit_objects_rank_first_then_ornicles():
    """D24 option turn_limit: 'scored by objects, then ornicles'; Z.1 'zunächst (mindestens)
    drei magische Objekte sammeln': two objects beat one object and fifteen ornicles (which
    100 + 10 x objects + ornicles, version 2's score, ranked first), and equal objects go by
    ornicles."""
    state = playing(objects=[[HAT], [PANTS, BRA]], ornicles=[15, 0], supply=ORNICLES - 15, turn=300)
    state = do(state, {"type": "pass"})
    assert state["end"] == {"by": "bound", "scores": [100 + 100 + 15, 100 + 200]}
    assert R.next(state).result.placings == (2, 1)
    state = playing(objects=[[HAT], [PANTS]], ornicles=[1, 2], supply=ORNICLES - 3, turn=300)
    assert R.next(do(state, {"type": "pass"})).result.placings == (2, 1)


# -- version 2 matches (games/imperial_twing/editions.py) ------------------------------------------

GOLDEN_V2 = Path(__file__).resolve().parent / "data" / "imperial-twing-v2-golden.jsonl"


def golden_v2():
    return [json.loads(line) for line in GOLDEN_V2.read_text().splitlines()]


def test_imperial_twing_version_2_is_an_edition_with_its_own_options():
    """A version 2 match is folded by edition 2: the version 2 options (no ``socks``) and no
    ``version`` in its states."""
    v2 = registry.get("imperial-twing", 2)
    assert v2 is IMPERIAL_TWING_V2 is R.edition(2) and v2.spec.version == 2 and R.spec.version == 3
    assert v2.Options is OptionsV2 and R.edition(1).Options is OptionsV2
    assert "socks" not in v2.options_json(v2.options({})) and "socks" in R.options_json(R.options({}))
    assert "version" not in v2.setup(2) and R.setup(2)["version"] == 3


@pytest.mark.parametrize("log", golden_v2(), ids=lambda log: log[0]["match"])
def test_imperial_twing_version_2_matches_fold_by_edition_2_as_they_were_written(log):
    """A match keeps the rules it was played by: the golden version 2 logs (written by the
    version 2 code, 2-4 seats; tests/games/test_editions.py checks every 50th state against
    the hashes it wrote) validate and fold by edition 2, and version 3 folds each to other
    states (T.3's draws between a duel's fights, the score at the end)."""
    assert log[0]["payload"]["version"] == 2 and "socks" not in log[0]["payload"]["options"]
    report = validate(log, get_ruleset=registry.get)
    assert report.ok and report.ended, report.reason
    old = Folder(log[0], get_ruleset=registry.get)
    assert old.ruleset is IMPERIAL_TWING_V2
    new_log = json.loads(json.dumps(log))
    new_log[0]["payload"]["version"] = 3
    new, differ = Folder(new_log[0]), False
    for record in log[1:-1]:
        old.step(record)
        if not differ:
            try:
                new.step(record)
            except Exception:  # an action version 2 allowed and version 3 does not
                differ = True
                continue
            mine = {k: v for k, v in new.state.items() if k != "version"}
            mine["options"] = {k: v for k, v in mine["options"].items() if k != "socks"}
            differ = mine != old.state
    assert "version" not in old.state and differ
    assert old.ruleset.next(old.state).result.to_json() == log[-1]["payload"]["result"]
