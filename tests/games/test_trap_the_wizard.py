"""Rule tests for Trap the Wizard, one per clause or decision of docs/rules/trap-the-wizard.md.

Positions are built directly. Field numbers are those of the documented default wheel4 board
(rim_between=7, spoke_between=5): rim 0..31 clockwise with start fields 0, 8, 16, 24 and special
fields 4, 12, 20, 28; spoke of arm a = 32+5a .. 36+5a from the start field inwards, its special
field 34+5a; centre 52. Two players sit on arms 0 and 2 (start fields 0 and 16); pieces 0-2 are
seat 0's wizards, 3-5 seat 1's, 6 the joker.
"""
import dataclasses
import functools
import json
import pathlib
import random
import subprocess
import sys

import pytest

from games import trap_the_wizard as rules
from games.engine import registry
from games.engine.log import Folder, LogError, validate
from games.engine.protocol import Chance, Ended, Event, IllegalAction, InvalidOptions, Ruleset, ToAct
from games.engine.runner import playout
from games.trap_the_wizard import DIE, TrapTheWizard
from games.trap_the_wizard.bots import GreedyBot

from .digest import fold_digest

R = registry.get("trap-the-wizard")
CENTRE = 52
JOKER2 = 6  # the joker's piece id with two players of three wizards


def position(players=2, *, fields=None, captives=None, roll=None, turn=0, options=None, **changes):
    """A state after setup with pieces moved (field None: out of the game), captives given (a
    captive leaves the board) and, if ``roll``, the die already rolled for ``turn``."""
    state = R.setup(players, R.options(options or {}))
    placed, held = list(state.fields), list(state.captives)
    for piece, field in (fields or {}).items():
        placed[piece] = field
    for piece, pieces in (captives or {}).items():
        held[piece] = tuple(pieces)
        for captive in pieces:
            placed[captive] = None
    return dataclasses.replace(state, fields=tuple(placed), captives=tuple(held), turn=turn,
                               roll=roll, remaining=roll or 0, rolls=1 if roll else 0, **changes)


def move(wizard, to, steps):
    return {"type": "move", "wizard": wizard, "to": to, "steps": steps}


def play(state, wizard, to, steps):
    return R.apply(state, Event.action(state.turn, move(wizard, to, steps)))


def roll(state, value):
    return R.apply(state, Event.chance(DIE, [value]))


def targets(state, wizard):
    """{(to, steps)} of the legal moves of ``wizard``."""
    return {(a["to"], a["steps"]) for a in R.legal_actions(state, state.turn)
            if a["type"] == "move" and a["wizard"] == wizard}


def refusal(state, action, seat=None):
    with pytest.raises(IllegalAction) as caught:
        R.check(state, state.turn if seat is None else seat, action)
    return caught.value.reason


def first_move(state):
    return next(a for a in R.legal_actions(state, state.turn) if a["type"] == "move")


# -- spec, options, board -----------------------------------------------------------------------

def test_ttw_spec_registered_with_its_game_type():
    """The registry entry: trap-the-wizard v2, 2-6 players, dice, no hidden information."""
    spec = R.spec
    assert isinstance(R, TrapTheWizard)
    assert (spec.name, spec.version, spec.min_players, spec.max_players) == ("trap-the-wizard", 2, 2, 6)
    assert spec.chance and not spec.hidden_information and not spec.simultaneous


@pytest.mark.parametrize("raw", [
    {"board": "wheel5"}, {"rim_between": 0}, {"spoke_between": 21}, {"wizards": "3"},
    {"wizards": True}, {"rounds": 0}, {"turn_limit": 0}, {"joker_return": "home"}, {"colour": "red"},
    {"six": "never"},
])
def test_ttw_options_bad_values_raise_invalid_options(raw):
    """Options: an unknown name or a value out of range is refused."""
    with pytest.raises(InvalidOptions):
        R.options(raw)


def test_ttw_options_player_count_must_fit_the_board():
    """D1, D3: a wheel seats at most one player per arm; the game takes 2-6 players."""
    with pytest.raises(InvalidOptions):
        R.setup(5, R.options({"board": "wheel4"}))
    for players in (1, 7):
        with pytest.raises(InvalidOptions):
            R.setup(players, R.options({}))
    assert R.setup(5, R.options({"board": "wheel6"})).players == 5


def test_ttw_d1_default_wheel4_board():
    """D1, D2: 4 start fields, 7 fields between them, spokes of 5 to one centre; the middle of
    each rim segment and of each spoke is special."""
    board = R.view(position(), None)["board"]
    kinds = {f["id"]: f["kind"] for f in board["fields"]}
    links = {f["id"]: set(f["neighbours"]) for f in board["fields"]}
    assert len(kinds) == 53 and board["centre"] == CENTRE and kinds[CENTRE] == "centre"
    assert {f for f, k in kinds.items() if k == "start"} == {0, 8, 16, 24}
    assert {f for f, k in kinds.items() if k == "special"} == {4, 12, 20, 28, 34, 39, 44, 49}
    assert links[0] == {1, 31, 32} and links[36] == {35, CENTRE} and links[CENTRE] == {36, 41, 46, 51}
    assert all(a in links[b] for a in links for b in links[a])  # undirected


def test_ttw_d1_auto_board_is_wheel6_for_five_or_six_players():
    """D1: "auto" uses wheel6 (6 arms, 79 fields) for 5-6 players."""
    for players, fields in ((4, 53), (5, 79), (6, 79)):
        assert len(R.view(R.setup(players, R.options({})), None)["board"]["fields"]) == fields


def test_ttw_d1_a_six_from_the_start_field_reaches_the_centre():
    """D1: the spoke has 5 fields, so a six from the start field ends on the centre."""
    state = position(roll=6)
    assert (CENTRE, 6) in targets(state, 0)


def test_ttw_d3_seat_i_sits_on_arm_i_times_arms_over_players():
    """D3: seat i sits on arm i*A//n."""
    homes = {n: R.view(R.setup(n, R.options({})), None)["board"]["homes"] for n in (2, 3, 5, 6)}
    assert homes == {2: [0, 16], 3: [0, 8, 16], 5: [0, 8, 16, 24, 32], 6: [0, 8, 16, 24, 32, 40]}


def test_ttw_d3_a_start_field_of_no_seat_is_an_ordinary_field():
    """D3: with two players the start field 8 is nobody's: wizards land and capture there."""
    state = position(fields={0: 10, 3: 8}, roll=2)
    after = play(state, 0, 8, 2)
    assert after.fields[3] is None and 3 in after.captives[0]


def test_ttw_view_is_the_public_state_and_the_board():
    """No hidden information: every seat sees the same view, with the whole state and the board
    with drawing coordinates."""
    state = position(fields={0: 10}, roll=3)
    views = [R.view(state, seat) for seat in (None, 0, 1)]
    assert views[0] == views[1] == views[2]
    assert R.decode(views[0]["state"]) == state
    assert all({"x", "y", "kind", "neighbours"} <= set(f) for f in views[0]["board"]["fields"])
    views[0]["board"]["fields"].clear()  # a bot may spoil its copy, never the next view
    assert len(R.view(state, None)["board"]["fields"]) == 53


def test_ttw_state_round_trips_and_apply_does_not_mutate():
    """Contract: decode(encode(s)) == s through JSON; apply leaves its input as it was."""
    state = position(fields={0: 10, 3: 13}, captives={3: [1, JOKER2]}, roll=3)
    before = R.encode(state)
    after = play(state, 0, 13, 3)
    assert R.encode(state) == before
    assert R.decode(json.loads(json.dumps(R.encode(after)))) == after
    assert after != state


def test_ttw_games_package_imports_without_django():
    """Architecture: nothing under games/ imports Django."""
    code = "import sys, games.trap_the_wizard.bots; sys.exit('django' in sys.modules)"
    root = pathlib.Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root).returncode == 0


# -- §1 pieces, capture ----------------------------------------------------------------------------

def test_ttw_1_1_three_wizards_each_start_on_their_start_field():
    """§1.1 "Jeder Spieler hat drei Zauberer, welche auf dem jeweiligen Startfeld beginnen";
    §4.1 the joker starts in the centre."""
    state = R.setup(3, R.options({}))
    assert state.fields == (0, 0, 0, 8, 8, 8, 16, 16, 16, CENTRE)
    assert isinstance(R.next(state), Chance) and R.next(state).spec == DIE


def test_ttw_1_2_the_die_decides_the_steps():
    """§1.2 "entsprechend der gewürfelten Augenzahl bewegt": the roll sets the steps to move."""
    state = roll(position(fields={0: 10}), 4)
    assert R.next(state) == ToAct((0,))
    assert {a["steps"] for a in R.legal_actions(state, 0)} == {4}


def test_ttw_1_3_landing_on_enemies_captures_them():
    """§1.3 "ein Feld mit gegnerischen Zauberern erreicht, werden diese gefangen"."""
    state = position(fields={0: 10, 3: 13, 4: 13}, roll=3)
    after = play(state, 0, 13, 3)
    assert after.fields[3] is None and after.fields[4] is None
    assert set(after.captives[0]) == {3, 4} and after.fields[0] == 13


def test_ttw_1_3_a_capture_takes_the_whole_stack():
    """§1.3, D18: the captured wizard's own captives (here our wizard 1 and the joker) go along."""
    state = position(fields={0: 10, 3: 13}, captives={3: [1, JOKER2]}, roll=3)
    after = play(state, 0, 13, 3)
    assert sorted(after.captives[0]) == [1, 3, JOKER2] and after.captives[3] == ()


def test_ttw_1_3_no_capture_on_special_fields():
    """§1.3 "(außer es handelt sich um eines der Spezialfelder ...)": both stay on field 12."""
    state = position(fields={0: 10, 3: 12}, roll=2)
    after = play(state, 0, 12, 2)
    assert after.fields[0] == after.fields[3] == 12 and after.captives[0] == ()


def test_ttw_d4_passing_over_enemies_captures_nothing():
    """§1.3 "erreicht", D4: only the field a move ends on matters; paths pass occupied fields."""
    state = position(fields={0: 10, 3: 11, 4: 12}, roll=3)
    after = play(state, 0, 13, 3)
    assert after.fields[3] == 11 and after.fields[4] == 12 and after.captives[0] == ()


def test_ttw_1_4_most_caught_wizards_wins():
    """§1.4 "so viele gegnerische Zauberer wie möglich zu fangen": placings follow the points."""
    state = position(history=((1, 3), (2, 1)), ended=True)
    result = R.next(state).result
    assert result.scores == (3, 4) and result.placings == (2, 1)


# -- §2 moving ----------------------------------------------------------------------------------

def test_ttw_2_1_a_wizard_moves_exactly_the_roll():
    """§2.1 "nur genau um so viele Felder ... wie gewürfelt wurde": from 10 a 3 ends on 7, 13 or,
    through the free start field 8, on spoke field 37."""
    state = position(fields={0: 10}, roll=3)
    assert targets(state, 0) == {(7, 3), (13, 3), (37, 3)}
    assert "no path of exactly 3 steps from 10 to 12" in refusal(state, move(0, 12, 3))


def test_ttw_d4_a_path_never_visits_a_field_twice():
    """D4: no reversal: a 2 from field 10 cannot come back to 10 (or 9, 11)."""
    state = position(fields={0: 10}, roll=2)
    assert targets(state, 0) == {(8, 2), (12, 2)}


def test_ttw_2_2_a_roll_is_not_split_between_wizards():
    """§2.2 "Das Aufteilen eines Zuges ... ist nicht erlaubt": fewer steps only to return home."""
    state = position(fields={0: 10}, roll=5)
    assert all(a["steps"] == 5 for a in R.legal_actions(state, 0))
    assert "may stop short" in refusal(state, move(0, 12, 2))


def test_ttw_2_3_a_returning_wizard_may_stop_short_at_home():
    """§2.3 "Die einzige Ausnahme ... wenn ein Zauberer ins Startfeld zurückkehrt"."""
    state = position(fields={0: 3}, captives={0: [3]}, roll=5)
    assert (0, 3) in targets(state, 0)
    assert play(state, 0, 0, 3).fields[0] == 0


def test_ttw_2_4_the_rest_of_the_roll_goes_to_another_wizard():
    """§2.4 "können die restlichen Punkte von einem anderen Zauberer in Anspruch genommen werden"."""
    state = play(position(fields={0: 3}, captives={0: [3]}, roll=5), 0, 0, 3)
    assert R.next(state) == ToAct((0,)) and state.remaining == 2
    actions = R.legal_actions(state, 0)
    assert {"type": "pass"} in actions
    assert {a["wizard"] for a in actions if a["type"] == "move"} == {1, 2}
    assert {a["steps"] for a in actions if a["type"] == "move"} == {2}
    assert "returned home with this roll" in refusal(state, move(0, 2, 2))


def test_ttw_d6_the_rest_may_be_declined():
    """D6: the rest of a roll is optional: "pass" ends the turn."""
    state = play(position(fields={0: 3}, captives={0: [3]}, roll=5), 0, 0, 3)
    after = R.apply(state, Event.action(0, {"type": "pass"}))
    assert isinstance(R.next(after), Chance) and after.turn == 1


def test_ttw_d6_the_rest_is_lost_when_no_other_wizard_can_use_it():
    """D6: with no other free wizard the rest of the roll is lost and the turn passes."""
    state = position(fields={0: 3, 1: None, 2: None}, captives={0: [3]}, roll=5)
    after = play(state, 0, 0, 3)
    assert isinstance(R.next(after), Chance) and after.turn == 1


def test_ttw_d6_a_second_return_passes_on_what_is_left():
    """D6: a wizard using the rest may itself return and pass on what is left of it."""
    state = position(fields={0: 3, 1: 1}, captives={0: [3], 1: [4]}, roll=5)
    state = play(play(state, 0, 0, 3), 1, 0, 1)
    assert state.remaining == 1 and targets(state, 2) == {(1, 1), (31, 1), (32, 1)}


def test_ttw_d6_freed_wizards_may_use_the_rest():
    """D6, §3.4: an own wizard freed onto the start field counts as "another wizard"."""
    state = position(fields={0: 3, 2: None}, captives={0: [3, 1]}, roll=5)
    after = play(state, 0, 0, 3)
    assert after.fields[1] == 0 and targets(after, 1) == {(2, 2), (30, 2), (33, 2)}


def test_ttw_d9_a_move_is_compulsory():
    """D9: with a fresh roll and a legal move, "pass" is refused."""
    state = position(roll=4)
    assert {"type": "pass"} not in R.legal_actions(state, 0)
    assert "a move is due" in refusal(state, {"type": "pass"})


def test_ttw_2_5_a_six_may_roll_again_or_pass():
    """§2.5 "Wenn der Spieler eine sechs gewürfelt hat, darf er noch einen Spielzug machen":
    "darf" is leave, not a duty (D20): after a six the player rolls again or passes the turn."""
    after_six = play(position(fields={0: 10}, roll=6), 0, 40, 6)
    assert R.next(after_six) == ToAct((0,)) and after_six.again and after_six.roll is None
    assert R.legal_actions(after_six, 0) == [{"type": "roll"}, {"type": "pass"}]
    rolled = R.apply(after_six, Event.action(0, {"type": "roll"}))
    assert R.next(rolled) == Chance(DIE) and rolled.turn == 0 and not rolled.again
    passed = R.apply(after_six, Event.action(0, {"type": "pass"}))
    assert R.next(passed) == Chance(DIE) and passed.turn == 1 and not passed.again
    after_five = play(position(fields={0: 10}, roll=5), 0, 15, 5)
    assert R.next(after_five) == Chance(DIE) and after_five.turn == 1 and not after_five.again


def test_ttw_d20_six_compulsory_option_rolls_again_at_once():
    """D20 option six="compulsory" (version 1's reading of §2.5): the six's player rolls again
    with no choice."""
    after_six = play(position(fields={0: 10}, roll=6, options={"six": "compulsory"}), 0, 40, 6)
    assert R.next(after_six) == Chance(DIE) and after_six.turn == 0 and not after_six.again
    assert R.legal_actions(after_six, 0) == []


def test_ttw_d20_the_choice_after_a_six_is_roll_or_pass_only():
    """§2.5, D20: while the six's player chooses, no die is due and nothing but roll or pass is
    legal; "roll" is no action at any other time."""
    after_six = play(position(fields={0: 10}, roll=6), 0, 40, 6)
    assert "roll again" in refusal(after_six, move(0, 41, 1))
    assert refusal(after_six, {"type": "roll", "again": True})
    assert "does not act now" in refusal(after_six, {"type": "roll"}, seat=1)
    with pytest.raises(IllegalAction, match="no die roll is due"):
        roll(after_six, 3)
    assert refusal(position(fields={0: 10}, roll=3), {"type": "roll"})


def test_ttw_d20_leaving_while_choosing_passes_the_turn():
    """D15, D20: a seat that leaves while it chooses after a six rolls no more; the next seat
    rolls."""
    after_six = play(position(3, fields={0: 10}, roll=6), 0, 40, 6)
    left = R.apply(after_six, Event.forfeit(0, "timeout"))
    assert R.next(left) == Chance(DIE) and left.turn == 1 and not left.again


def blocked_position():
    """Four players on a wheel with 5 rim fields between start fields (starts 0, 6, 12, 18; special
    3, 9, 15, 21, 26, 31): seat 0's only wizard on 3; the specials that a 6 reaches from 3 hold two
    stacks each, and a 3 reaches only start fields."""
    return position(4, options={"rim_between": 5}, fields={
        0: 3, 1: None, 2: None, 3: 9, 4: 9, 5: 21, 6: 21, 7: 26, 8: 26, 9: 31, 10: 31})


def test_ttw_d10_no_legal_move_passes_the_turn():
    """D10: when no move is legal the roll is over; here a 3 from 3 reaches only start fields."""
    after = roll(blocked_position(), 3)
    assert isinstance(R.next(after), Chance) and after.turn == 1 and after.rolls == 1


def test_ttw_d10_a_six_rolls_again_even_without_a_move():
    """D10, §2.5: a six with no legal move still earns the next roll (to take or pass, D20)."""
    after = roll(blocked_position(), 6)
    assert R.next(after) == ToAct((0,)) and after.again and after.rolls == 1
    assert R.legal_actions(after, 0) == [{"type": "roll"}, {"type": "pass"}]


def test_ttw_d11_seats_without_free_wizards_are_skipped():
    """D11: a seat whose wizards are all captive or out rolls no more this round."""
    state = position(3, fields={0: 10}, captives={0: [3, 4], 6: [5]}, roll=2)
    assert play(state, 0, 12, 2).turn == 2


# -- §3 fields and returning --------------------------------------------------------------------

def test_ttw_3_1_two_stacks_at_most_on_a_field():
    """§3.1 "Auf jeden Spielfeld können höchstens zwei Zauberer stehen"."""
    state = position(fields={0: 10, 1: 13, 2: 13}, roll=3)
    assert (13, 3) not in targets(state, 0)
    assert "field 13 holds two stacks" in refusal(state, move(0, 13, 3))


def test_ttw_3_1_the_start_field_has_no_limit():
    """§3.1 "(ausgenommen dem Startfeld)": a fourth wizard may join three on the start field."""
    state = position(fields={0: 3}, captives={0: [4]}, roll=3, options={"wizards": 4})
    assert state.fields[1:4] == (0, 0, 0)
    assert play(state, 0, 0, 3).fields[:4] == (0, 0, 0, 0)


def test_ttw_3_2_two_wizards_of_one_player_share_any_field():
    """§3.2 "zwei Zauberer eines Spielers können auf demselben Feld stehen"."""
    state = position(fields={0: 10, 1: 13}, roll=3)
    assert play(state, 0, 13, 3).fields[:2] == (13, 13)


def test_ttw_3_2_different_players_share_only_special_fields():
    """§3.2 "zwei Zauberer von unterschiedlichen Spielern ... nur auf den Spezialfeldern": on a
    special field an enemy and an own stack fill it; on a plain field the enemy is caught."""
    full = position(fields={0: 10, 1: 12, 3: 12}, roll=2)
    assert "field 12 holds two stacks" in refusal(full, move(0, 12, 2))
    plain = play(position(fields={0: 11, 3: 13}, roll=2), 0, 13, 2)
    assert plain.fields[3] is None


def test_ttw_d19_captives_do_not_count_toward_capacity():
    """D19: a wizard carrying captives is one stack."""
    state = position(fields={0: 10, 1: 13}, captives={1: [3, 4]}, roll=3)
    assert (13, 3) in targets(state, 0)


def test_ttw_3_3_no_return_to_start_without_enemy_captives():
    """§3.3 "nicht möglich auf das Startfeld zurückzukehren, es sei denn, er hat gegnerische
    Zauberer gefangen"; D8: the joker or own wizards alone do not count."""
    for held in ([], [JOKER2], [1]):
        state = position(fields={0: 3}, captives={0: held}, roll=3)
        assert (0, 3) not in targets(state, 0)
        assert "may not return to its start field" in refusal(state, move(0, 0, 3))


def test_ttw_d5_never_land_on_another_players_start_field():
    """D5: field 16 is seat 1's start field: no landing there, but paths pass over it."""
    state = position(fields={0: 10}, roll=6)
    assert "field 16 is the start field of seat 1" in refusal(state, move(0, 16, 6))
    assert (18, 5) in targets(position(fields={0: 13}, roll=5), 0)


def test_ttw_3_4_a_return_delivers_enemies_and_frees_own_wizards():
    """§3.4 "werden die gegnerischen Zauberer aus dem Spiel genommen und eigene ... befreit";
    D7: the joker goes back to the centre."""
    state = position(fields={0: 3}, captives={0: [3, 1, JOKER2]}, roll=3)
    after = play(state, 0, 0, 3)
    assert after.fields[3] is None and all(3 not in c for c in after.captives)
    assert after.delivered == (1, 0) and after.fields[1] == 0
    assert after.fields[JOKER2] == CENTRE and after.captives[0] == ()


def test_ttw_d7_joker_return_keep_leaves_the_joker_with_its_carrier():
    """D7 option joker_return="keep": the carrier keeps the joker after delivering."""
    state = position(fields={0: 3}, captives={0: [3, JOKER2]}, roll=3, options={"joker_return": "keep"})
    after = play(state, 0, 0, 3)
    assert after.captives[0] == (JOKER2,) and after.fields[JOKER2] is None


# -- §4 the joker -------------------------------------------------------------------------------

def test_ttw_4_1_landing_on_the_joker_takes_it():
    """§4.1, D7: the joker starts in the centre and is taken by landing on its field; it belongs
    to nobody (§4.2), so it scores no point."""
    state = play(position(fields={0: 36}, roll=1), 0, CENTRE, 1)
    assert state.captives[0] == (JOKER2,) and state.fields[JOKER2] is None
    scored = play(position(fields={0: 36}, roll=1, options={"turn_limit": 1}), 0, CENTRE, 1)
    assert scored.history == ((0, 0),)


def test_ttw_d7_the_joker_takes_no_room():
    """D7: the joker does not count toward the two stacks of a field."""
    state = position(fields={0: 36, 1: CENTRE, 2: CENTRE}, roll=1)
    assert "holds two stacks" in refusal(state, move(0, CENTRE, 1))
    state = position(fields={0: 36, 1: CENTRE}, roll=1)
    assert (CENTRE, 1) in targets(state, 0)


def test_ttw_4_2_the_joker_never_moves_by_itself():
    """§4.2 "Diese Figur gehört keinem Spieler": no seat may move it."""
    assert "is the joker" in refusal(position(roll=2), move(JOKER2, 2, 2))


def test_ttw_4_3_joker_carrier_captures_on_special_fields():
    """§4.3 "kann er mit diesem Zauberer auch auf einem Spezialfeld gegnerische Spielfiguren fangen"."""
    state = position(fields={0: 10, 3: 12, 4: 12}, captives={0: [JOKER2]}, roll=2)
    after = play(state, 0, 12, 2)
    assert set(after.captives[0]) == {JOKER2, 3, 4}


def test_ttw_d7_a_captured_joker_serves_its_captor():
    """D7, D18: catching the joker's carrier hands the joker, and its power, to the captor."""
    after = play(position(fields={0: 10, 3: 13}, captives={3: [JOKER2]}, roll=3), 0, 13, 3)
    assert set(after.captives[0]) == {3, JOKER2}
    fields = list(after.fields)
    fields[4] = 12  # an enemy on the special field next to wizard 0
    again = dataclasses.replace(after, fields=tuple(fields), turn=0, roll=1, remaining=1)
    assert 4 in play(again, 0, 12, 1).captives[0]


# -- §5 rounds and match ------------------------------------------------------------------------

def test_ttw_5_1_a_round_ends_when_one_player_is_left():
    """§5.1 "Eine Runde endet wann nur mehr ein Spieler übrig ist"; D14: round 2 opens with seat 1."""
    state = position(fields={0: 10, 3: 13}, captives={0: [4, 5]}, roll=3)
    after = play(state, 0, 13, 3)
    assert after.history == ((3, 0),) and after.round == 2 and after.turn == 1
    assert after.fields == R.setup(2, R.options({})).fields


def test_ttw_5_2_a_point_per_caught_wizard_delivered_or_held():
    """§5.2 "einen Punkt pro gefangenen Zauberer", D12: delivered this round plus enemy wizards
    held at the round's end; own wizards held and the joker score nothing."""
    state = position(fields={0: 10, 3: 20}, captives={0: [4], 3: [1, 5, JOKER2]}, roll=2,
                     delivered=(1, 0), options={"turn_limit": 1})
    after = play(state, 0, 12, 2)
    assert after.history == ((2, 1),)


def test_ttw_5_2_score_now_is_what_the_round_would_score_as_it_stands():
    """§5.2 "einen Punkt pro gefangenen Zauberer", §5.3, D12: the search bot's score_now is the
    match points so far plus what the round would give now (delivered, and enemy wizards held;
    own wizards and the joker nothing); a forfeited seat is below every other."""
    state = position(fields={0: 10, 3: 20}, captives={0: [4], 3: [1, 5, JOKER2]}, roll=2,
                     delivered=(1, 0), history=((2, 3),))
    # seat 0: 2 so far, 1 delivered, holds enemy 4; seat 1: 3 so far, holds enemy 1 (own 5, joker: 0)
    assert R.score_now(state) == [2 + 1 + 1, 3 + 0 + 1]
    assert R.score_now(dataclasses.replace(state, forfeited=(1,))) == [4, -1]
    after = play(dataclasses.replace(state, options=R.options({"turn_limit": 1})), 0, 12, 2)
    assert after.history[-1] == (1 + 1, 0 + 1)  # the round's scoring then gave what score_now said


def test_ttw_d13_turn_limit_ends_a_stuck_round():
    """D13: after turn_limit die rolls in a round the round is scored as it stands; a six of
    the last roll offers no other (D20)."""
    state = position(fields={0: 10}, captives={0: [3]}, options={"turn_limit": 3})
    state = dataclasses.replace(state, rolls=2)
    after = play(roll(state, 2), 0, 12, 2)
    assert after.history == ((1, 0),) and after.round == 2
    still = play(roll(dataclasses.replace(state, rolls=1), 2), 0, 12, 2)
    assert still.round == 1
    six = play(roll(state, 6), 0, 40, 6)
    assert six.history == ((1, 0),) and six.round == 2 and not six.again


def test_ttw_5_3_a_match_is_five_rounds():
    """§5.3 "Ein komplettes Spiel besteht aus fünf einzelnen Runden"; D14: round r opens with
    seat (r-1) mod n; the match score is the sum of the rounds."""
    state = R.setup(3, R.options({"turn_limit": 1}))
    openers = []
    while not isinstance(R.next(state), Ended):
        openers.append(state.turn)
        state = roll(state, 1)
        if not isinstance(R.next(state), Chance):
            state = R.apply(state, Event.action(state.turn, first_move(state)))
    assert len(state.history) == 5 and openers == [0, 1, 2, 0, 1]
    assert R.next(state).result.scores == (0, 0, 0)


def test_ttw_d14_a_forfeited_seat_does_not_open_a_round():
    """D14: round 2 opens with seat 1 unless it has left; then seat 2 opens."""
    state = R.apply(R.setup(3, R.options({"turn_limit": 1})), Event.forfeit(1, "resigned"))
    state = roll(state, 1)
    state = R.apply(state, Event.action(0, first_move(state)))
    assert state.round == 2 and state.turn == 2


# -- forfeits -----------------------------------------------------------------------------------

def test_ttw_d15_forfeit_removes_the_seats_wizards_and_frees_its_captives():
    """D15: the seat's free wizards and the own wizards they hold leave; enemy wizards they hold
    go back to their owners' start fields; the joker to the centre."""
    state = position(3, fields={3: 13}, captives={3: [0, 4, 9]}, roll=2)
    after = R.apply(state, Event.forfeit(1, "timeout"))
    assert after.forfeited == (1,) and after.fields[3:6] == (None, None, None)
    assert all(c == () for c in after.captives) and after.fields[0] == 0 and after.fields[9] == CENTRE
    assert after.turn == 0 and after.roll == 2
    assert play(after, 0, 2, 2).turn == 2


def test_ttw_d15_forfeit_of_the_seat_to_move_passes_the_turn():
    """D15: if the leaving seat was to move, the next seat rolls (a six of its does not count)."""
    state = position(3, turn=1, roll=6)
    after = R.apply(state, Event.forfeit(1, "crash"))
    assert isinstance(R.next(after), Chance) and after.turn == 2


def test_ttw_d15_a_forfeited_seat_held_by_others_still_scores_for_them():
    """D15: wizards of the leaving seat already caught stay caught and count for the captor."""
    state = position(3, fields={0: 10, 6: 20}, captives={0: [3, 4]}, roll=2, options={"turn_limit": 1})
    after = play(R.apply(state, Event.forfeit(1, "resigned")), 0, 12, 2)
    assert after.history == ((2, 0, 0),)


def test_ttw_d16_forfeit_leaving_one_seat_ends_the_match_forfeiter_last():
    """D16: with fewer than two seats in play the round is scored and the match ends; the
    forfeited seat is placed last whatever its points."""
    state = position(fields={0: 10}, captives={0: [3, 4]}, history=((0, 5),))
    after = R.apply(state, Event.forfeit(1, "resigned"))
    result = R.next(after).result
    assert result.scores == (2, 5) and result.placings == (1, 2)


# -- actions as data ----------------------------------------------------------------------------

@pytest.mark.parametrize("action", [
    None, 3, "move", [], {}, {"type": 1}, {"type": ["move"]}, {"type": "move"}, {"type": "pass", "x": 1},
    {1: 2}, {**move(0, 13, 3), "why": 1}, move(True, 13, 3), move(0, 13.0, 3), move([], {}, None),
    move(-1, 13, 3), move(0, 99, 3), move(0, 13, 9), move(0, 13, 0),
])
def test_ttw_check_refuses_garbage_with_a_reason(action):
    """check: any JSON value that is not a legal action is refused with a reason, never a crash."""
    assert refusal(position(fields={0: 10}, roll=3), action)


def test_ttw_check_names_the_fault():
    """check: reasons a bot author can act on."""
    state = position(fields={0: 10, 3: 20, 1: None}, roll=3)
    assert refusal(state, move(4, 19, 3)) == "wizard 4 belongs to seat 1"
    assert "wizard 1 is not on the board" in refusal(state, move(1, 13, 3))
    assert "seat 1 does not act now" in refusal(state, move(3, 23, 3), seat=1)
    assert "does not act now" in refusal(state, move(0, 13, 3), seat=False)
    assert R.legal_actions(state, 1) == []


def test_ttw_legal_actions_are_exactly_the_checked_actions():
    """legal_actions lists every action check accepts, and nothing else."""
    state = position(fields={0: 3, 1: 13, 3: 12, 4: 11}, captives={0: [5]}, roll=5)
    candidates = [move(w, to, s) for w in range(-1, 8) for to in range(-1, 54) for s in range(0, 7)]
    accepted = []
    for action in candidates + [{"type": "pass"}]:
        try:
            R.check(state, 0, action)
            accepted.append(action)
        except IllegalAction:
            pass
    assert sorted(map(json.dumps, accepted)) == sorted(map(json.dumps, R.legal_actions(state, 0)))
    assert move(0, 0, 3) in accepted


def test_ttw_offline_playout_validates():
    """Contract: a random four-player match ends within max_events and its log validates."""
    log = playout(R, 4, seed=b"s" * 32)
    assert log[-1]["kind"] == "match_ended" and validate(log).ok
    assert len(log) <= R.max_events(4, R.options({}))
    actions = [r["payload"]["action"]["type"] for r in log if r["kind"] == "action"]
    assert {"roll", "pass"} <= set(actions)  # random bots took and passed extra rolls


def test_ttw_max_events_bounds_a_match_that_uses_every_roll():
    """D13, D20: with one roll a round the longest log is the envelope, a forfeit a seat and one
    roll of a chance, a move per wizard, a pass and the six's choice: tight enough to fail."""
    options = R.options({"turn_limit": 1, "rounds": 1, "wizards": 1})
    assert R.max_events(2, options) == 2 + 2 + 1 * 1 * (1 + 3)
    log = playout(R, 2, seed=b"m" * 32, options={"turn_limit": 1, "rounds": 1, "wizards": 1})
    assert len(log) <= R.max_events(2, options)


def test_ttw_builtin_bots_greedy_prefers_a_capture():
    """Bots: random and greedy are offered; greedy takes the enemy on 13 over the moves to 7/37,
    and after a six it rolls again."""
    assert set(R.builtin_bots()) == {"random", "greedy"}
    state = position(fields={0: 10, 3: 13, 1: None, 2: None}, roll=3)
    after_six = play(position(fields={0: 10}, roll=6), 0, 40, 6)
    for seed in range(5):
        bot = GreedyBot(R, seed)
        choice = bot.act({"type": "act", "seat": 0, "view": R.view(state, 0),
                          "legal_actions": R.legal_actions(state, 0)})
        assert choice == move(0, 13, 3)
        again = bot.act({"type": "act", "seat": 0, "view": R.view(after_six, 0),
                         "legal_actions": R.legal_actions(after_six, 0)})
        assert again == {"type": "roll"}


# -- the balance hooks (bench/balance.py) -----------------------------------------------------------

def test_ttw_balance_hooks_name_each_seats_arm_and_place_in_the_order():
    """seat_roles: the arm each seat sits on (D3); seat_positions: seat 0 opens the first round,
    the turn runs in seat order (D14); one entry per seat, matching the board's start fields."""
    for players, arms in ((2, [0, 2]), (3, [0, 1, 2]), (5, [0, 1, 2, 3, 4])):
        state = R.setup(players, R.options({}))
        board = R.view(state, None)["board"]
        assert R.seat_roles(state) == [f"arm {a}" for a in arms]
        assert [8 * a for a in arms] == board["homes"]  # the start field of arm a is 8a
        assert R.seat_positions(state) == list(range(players)) and state.turn == 0


def test_ttw_balance_hook_ended_by_bound_is_the_turn_limit_ending_the_last_round():
    """ended_by_bound: D13's turn limit, not §5.1, ended the last round (and so the match)."""
    stuck = play(roll(position(fields={0: 10}, options={"turn_limit": 1, "rounds": 1}), 2), 0, 12, 2)
    assert stuck.ended and R.ended_by_bound(stuck)
    caught = play(position(fields={0: 10, 3: 13}, captives={0: [4, 5]}, roll=3,
                           options={"rounds": 1}), 0, 13, 3)
    assert caught.ended and not R.ended_by_bound(caught)
    last_roll = play(position(fields={0: 10, 3: 13}, captives={0: [4, 5]}, roll=3,
                              options={"rounds": 1, "turn_limit": 1}), 0, 13, 3)
    assert last_roll.ended and not R.ended_by_bound(last_roll)  # §5.1 on the limit's roll
    playing = dataclasses.replace(position(options={"turn_limit": 1}), rolls=1)
    assert not R.ended_by_bound(playing)  # not ended


# -- version 1 matches (games/trap_the_wizard/editions.py) -------------------------------------------

def test_ttw_version_1_matches_fold_by_edition_1_as_they_were_written():
    """A match keeps the rules it was played by: edition 1 writes, folds and shows a version 1
    match exactly as version 1 did (the values come from the version 1 code, git ae50fce: a
    random 3-player playout, rounds=2, turn_limit=30, seed bytes(32), bot_seed 0, match
    "v1-0"); the version 2 rules refuse its first six followed at once by a die."""
    edition = registry.get("trap-the-wizard", 1)
    assert edition.spec.version == 1 and edition is R.edition(1) and edition is not R
    log = playout(edition, 3, seed=bytes(32), options={"rounds": 2, "turn_limit": 30},
                  bot_seed=0, match_id="v1-0")
    assert "six" not in log[0]["payload"]["options"]
    assert log[-1]["hash"] == "32ecfb74bce8536975bafef0cb3784836cdf4ef6f752361a37d4b44318d0f6cb"
    assert fold_digest(log) == (edition, "91090cf27d04dd59bebd21c13f635a3e82dca8cbd8cbf0b9be6890f5803b3519")
    assert validate(log).ok
    as_version_2 = json.loads(json.dumps(log))
    as_version_2[0]["payload"].update(version=R.spec.version)
    folder = Folder(as_version_2[0])
    with pytest.raises(LogError, match="no chance node now"):
        for record in as_version_2[1:]:
            folder.step(record)


# -- the fold's fast paths agree with the rules they shortcut (bench/fold.py) ---------------------

FAST_PATH_OPTIONS = [{"rounds": 1}, {"rounds": 1, "joker_return": "keep", "wizards": 5},
                     {"rounds": 1, "board": "wheel6", "rim_between": 2, "spoke_between": 1},
                     {"rounds": 1, "six": "compulsory", "turn_limit": 60}]


def folded_states(players, options, seed):
    """Every state of a random playout, folded from its log."""
    log = playout(R, players, seed=bytes([seed]) * 32, bot_seed=seed, options=options)
    folder, states = Folder(log[0]), []
    for record in log[1:-1]:
        folder.step(record)
        states.append(folder.state)
    return states


def crowded_positions(count, seed):
    """Random positions where the seat to act has little room: the other pieces crowd the fields
    its wizards can reach with the rest of the roll (special fields and start fields among them),
    some pieces are held by free wizards (the joker too), some are out of the game, some of the
    seat's wizards are home already with the roll."""
    rng = random.Random(seed)
    for _ in range(count):
        players = rng.randint(2, 6)
        options = rng.choice([{}, {"wizards": 1}, {"wizards": 2}, {"wizards": 5},
                              {"board": "wheel6", "rim_between": 2, "spoke_between": 1}])
        state = R.setup(players, R.options(options))
        lay, per_seat = rules.layout(state), state.options.wizards
        board = lay.board
        turn, remaining = rng.randrange(players), rng.randint(1, 6)
        own = range(turn * per_seat, (turn + 1) * per_seat)
        fields = [rng.randrange(board.size) for _ in range(state.joker + 1)]
        targets = sorted({to for w in own for steps in range(1, remaining + 1)
                          for to in board.reach[fields[w]][steps]} | set(lay.homes))
        for piece in range(state.joker + 1):
            if piece not in own and rng.random() < 0.7:
                fields[piece] = rng.choice(targets)
        captives = [[] for _ in fields]
        for piece in rng.sample(range(state.joker + 1), rng.randint(0, state.joker)):
            holders = [w for w in range(state.joker) if w != piece and fields[w] is not None]
            if holders and not captives[piece] and rng.random() < 0.8:
                captives[rng.choice(holders)].append(piece)
            fields[piece] = None
        yield dataclasses.replace(
            state, fields=tuple(fields), captives=tuple(map(tuple, captives)), turn=turn,
            roll=6, remaining=remaining, moved=tuple(w for w in own if rng.random() < 0.2))


def test_ttw_has_move_agrees_with_the_listed_moves():
    """has_move decides every die roll of a fold without listing moves or reasons, so it is held
    to _moves, which legal_actions lists: over crowded random positions and the positions of
    random playouts it says exactly whether the seat to act has a move (D9, D10)."""
    playouts = [state for index, options in enumerate(FAST_PATH_OPTIONS)
                for state in folded_states(2 + index, options, index)[::7] if not state.ended]
    checked = moving = 0
    for state in [*crowded_positions(4000, 1), *playouts]:
        expected = next(rules._moves(state), None) is not None
        assert rules.has_move(state) is expected, R.encode(state)
        checked, moving = checked + 1, moving + expected
    assert checked > 4100 and 0.2 < moving / checked < 0.9, (checked, moving)


def test_ttw_check_action_agrees_with_the_contracts_check_action():
    """TrapTheWizard.check_action skips building ``next`` when the seat is the one to act; for
    every seat (and seats that are no seat) and actions legal or not, it refuses exactly what
    Ruleset.check_action refuses, for the same reason."""
    def reason(check, state, seat, action):
        try:
            check(state, seat, action)
        except IllegalAction as exc:
            return exc.reason
        return None

    seen = set()
    for state in folded_states(3, {"rounds": 1}, 7)[:600]:
        actions = [*R.legal_actions(state, state.turn)[:3], move(0, 5, 1), {"type": "roll"},
                   {"type": "pass"}]
        for seat in (0, 1, 2, 3, True, 1.0, None):
            for action in actions:
                fast = reason(R.check_action, state, seat, action)
                assert fast == reason(functools.partial(Ruleset.check_action, R), state, seat, action)
                seen.add(fast is None)
    assert seen == {True, False}


def test_ttw_act_in_place_moves_and_refuses_as_check_and_apply_do():
    """A validation checks and applies most moves in one call (act_in_place), whose common case
    (an own wizard walking the whole roll to an empty field that is nobody's start field, §2.1,
    D5) skips move_refusal: over crowded random positions and random playouts, every legal move
    and moves near them (other wizards, fields, steps; out of range too) leave the state
    check_action and apply leave, or are refused for the reason check_action gives."""
    def outcome(call, state, action):
        try:
            return "state", R.encode(call(R.decode(R.encode(state)), action))
        except IllegalAction as exc:
            return "refused", exc.reason

    def two_calls(state, action):
        R.check_action(state, state.turn, action)
        return R.apply(state, Event.action(state.turn, action))

    rng = random.Random(16)
    playouts = [state for index, options in enumerate(FAST_PATH_OPTIONS)
                for state in folded_states(2 + index, options, index)[::5]
                if not state.ended and state.roll is not None and not state.again]
    seen = set()
    for state in [*crowded_positions(1500, 2), *playouts]:
        size = rules.layout(state).board.size
        candidates = [a for a in R.legal_actions(state, state.turn) if a["type"] == "move"]
        candidates += [move(rng.randint(-1, state.joker + 1), rng.randint(-1, size),
                            rng.choice([state.remaining, state.remaining, rng.randint(0, 7)]))
                       for _ in range(6)]
        for action in candidates:
            fused = outcome(lambda s, a: R.act_in_place(s, s.turn, {"action": a}), state, action)
            assert fused == outcome(two_calls, state, action), (R.encode(state), action)
            seen.add(fused[0])
    assert seen == {"state", "refused"}
