"""Wizard Kings' end of a match (1.23, D12): two players play to the victory gold with no turn
limit (a safety bound only); more than two players end after 10 turns; ``turn_limit`` 10 keeps
version 2's two-player game. Each test quotes its clause."""
from __future__ import annotations

from games.wizard_kings import rules
from games.wizard_kings.state import city_gold

from .conftest import RULESET, act, find_kind, make_state, plain

def end_of_turn(turn: int, blocks, **kw) -> dict:
    """``blocks`` on the board, turn ``turn`` played to its build, every seat done building:
    the state after the turn's end (1.23 is asked there)."""
    state = make_state(blocks, phase="move", **kw)
    state["turn"] = turn
    players = state["players"]
    state["order"], state["mover"] = list(range(players)), players     # every mover is done
    rules.advance(state)                                # no battles: the build begins
    assert state["phase"] == "build"
    for seat in range(players):
        state = act(state, seat, {"type": "done"})
    return state


def level_blocks():
    """Each seat on its own map, holding its own 10 gold: nobody has the 15 that win."""
    kind = find_kind(plain)
    return [("a", 0, kind, 1, "0200"), ("x", 1, kind, 1, "1000")]


def test_1_23_two_players_have_no_turn_limit_and_play_on_after_turn_10():
    """1.23: "Ĉe partio inter 2 ludantoj uzantaj du mapojn, ludanto venkas kiam regas urbojn
    valorantajn 15 gp fine de iu ajn vico" (in a game of 2 players on two maps a player wins when
    holding cities worth 15 gp at the end of any turn); the 10 turns are only "Ĉe partioj inter
    pli ol 2 ludantoj"."""
    state = end_of_turn(10, level_blocks())
    assert city_gold(state, 0) == city_gold(state, 1) == 10 < rules.victory_gold(state) == 15
    assert state["options"]["turn_limit"] == 0          # the default: the rulebook's
    assert state["phase"] == "initiative" and state["turn"] == 11 and state["end_reason"] is None
    state = end_of_turn(25, level_blocks())
    assert state["phase"] == "initiative" and state["turn"] == 26


def test_1_23_two_players_still_end_at_the_victory_gold_after_turn_10():
    """1.23: "Ĉe partio inter 2 ludantoj uzantaj du mapojn, ludanto venkas kiam regas urbojn
    valorantajn 15 gp fine de iu ajn vico" (in a game of 2 players on two maps a player wins when
    holding cities worth 15 gp at the end of any turn); the 10 turns are only "Ĉe partioj inter
    pli ol 2 ludantoj"."""
    kind = find_kind(plain)
    state = end_of_turn(17, [("a", 0, kind, 1, "1000"), ("b", 0, kind, 1, "1006"),
                             ("x", 1, kind, 1, "1503")])
    assert city_gold(state, 0) == 16
    assert state["phase"] == "over" and state["end_reason"] == "victory gold"
    assert RULESET.next(state).result.placings == (1, 2)


def test_d12_a_two_player_match_ends_at_the_safety_bound_scored_by_the_gold_of_cities_held():
    """D12: 1.23 gives two players no turn limit; a safety bound of ``SAFETY_TURNS`` (40) turns
    ends a match nobody wins, scored as the turn limit scores: the gold of the cities each seat
    holds (the higher wins, equal gold draws)."""
    assert rules.SAFETY_TURNS == 40
    kind = find_kind(plain)
    state = end_of_turn(rules.SAFETY_TURNS - 1, level_blocks())
    assert state["phase"] == "initiative"
    blocks = level_blocks() + [("b", 0, kind, 1, "1303")]          # seat 0 takes Gum (2)
    state = end_of_turn(rules.SAFETY_TURNS, blocks)
    assert state["phase"] == "over" and state["end_reason"] == "turn limit"
    assert state["scores"] == [12, 8] and RULESET.next(state).result.placings == (1, 2)
    state = end_of_turn(rules.SAFETY_TURNS, level_blocks())
    assert state["scores"] == [10, 10] and RULESET.next(state).result.placings == (1, 1)


def test_1_23_more_than_two_players_end_after_10_turns():
    """1.23: "Ĉe partioj inter pli ol 2 ludantoj, konsilindas limigi la partiodaŭron je 10
    vicoj aŭ pli." (in games of more than 2 players, limiting the game to 10 turns or more is
    advisable.)"""
    state = end_of_turn(9, [], players=3, maps=("10", "11", "12"))
    assert state["phase"] == "initiative" and state["turn"] == 10
    state = end_of_turn(10, [], players=3, maps=("10", "11", "12"))
    assert rules.victory_gold(state) == 0
    assert state["phase"] == "over" and state["end_reason"] == "turn limit"


def test_d12_turn_limit_10_keeps_version_2s_two_player_game():
    """D12: ``turn_limit`` 10 (version 2's default) ends a two-player game after turn 10 too,
    scored by the gold of the cities held; the victory gold still ends it before."""
    options = {"turn_limit": 10}
    state = end_of_turn(9, level_blocks(), options=options)
    assert state["phase"] == "initiative"
    state = end_of_turn(10, level_blocks(), options=options)
    assert state["phase"] == "over" and state["end_reason"] == "turn limit"
    assert state["scores"] == [10, 10]


def test_d12_a_scenario_keeps_its_10_turns_by_default():
    """D41, D12: a scenario has no victory gold, so the default (0) is 10 turns, as 7.1's "ne
    pli longe ol 10 vicoj" and 7.3's "post 10 vicoj" ask."""
    assert rules.last_turn({"turn_limit": 0, "scenario": "island-of-the-dead",
                            "victory_gold": -1}, 2) == 10
    assert rules.last_turn({"turn_limit": 0, "scenario": "", "victory_gold": 0}, 2) == 10
    assert rules.last_turn({"turn_limit": 0, "scenario": "", "victory_gold": -1}, 2) == 40
    assert rules.last_turn({"turn_limit": 0, "scenario": "", "victory_gold": -1}, 5) == 10
    assert rules.last_turn({"turn_limit": 12, "scenario": "", "victory_gold": -1}, 2) == 12


def test_d13_max_events_bounds_the_two_player_game_to_its_safety_bound():
    """D13, D12: the log's bound counts the turns a match can last: forty for two players by
    default, ten for more, ``turn_limit`` when it is set."""
    two = RULESET.max_events(2, RULESET.options({}))
    assert two > RULESET.max_events(2, RULESET.options({"turn_limit": 10})) * 3
    assert RULESET.max_events(2, RULESET.options({"turn_limit": 40})) == two
    assert RULESET.max_events(3, RULESET.options({})) == RULESET.max_events(
        3, RULESET.options({"turn_limit": 10}))


def test_d12_version_2_matches_keep_their_10_turns():
    """Versions, D12: version 2's default was 10 turns for every game. A stored match names its
    ``turn_limit`` (match_created holds every option), so a version 2 log folds as it was played
    whatever the default; the version 2 edition's Options still show version 2's default."""
    import json
    from pathlib import Path

    from games.engine import registry
    current = registry.get("wizard-kings")
    assert current.options({}).turn_limit == 0
    assert current.edition(2).options({}).turn_limit == 10
    assert current.edition(1).options({}).turn_limit == 10
    assert current.edition(2).setup(2, {})["options"]["turn_limit"] == 10
    golden = Path(__file__).resolve().parents[1] / "data" / "wizard-kings-v2-golden.jsonl"
    logs = [json.loads(line) for line in golden.read_text().splitlines() if line.strip()]
    assert logs and all("turn_limit" in log[0]["payload"]["options"] for log in logs)
