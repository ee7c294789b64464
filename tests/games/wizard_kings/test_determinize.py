"""Wizard Kings determinize (issue 15.1): the view is the seat's whole information state, and a
state rebuilt from it draws only what the seat does not see, each test quoting its clause."""
from __future__ import annotations

import random

from games.engine.protocol import Chance, Ended, Event
from games.engine.search import sample_outcome
from games.wizard_kings import rules
from games.wizard_kings.content import extras, kind_of
from games.wizard_kings.scenarios import hexes_named

from .conftest import RULESET, act, find_kind, make_state, plain


def build_state(blocks, **kw) -> dict:
    """``blocks`` on the test maps, at the start of the build phase of turn 1."""
    state = make_state(blocks, phase="move", **kw)
    state["order"], state["mover"] = [0, 1], 2
    rules.advance(state)
    assert state["phase"] == "build"
    return state


def determinized(state: dict, seat: int, seed: int = 0) -> dict:
    made = RULESET.determinize(RULESET.view(state, seat), seat, random.Random(seed))
    assert RULESET.view(made, seat) == RULESET.view(state, seat)
    return made


def states_of_a_playout(options: dict, players: int = 2, seed: int = 1):
    """Every state of a random legal playout (chance drawn), to the end."""
    rng = random.Random(seed)
    state = RULESET.setup(players, options)
    while not isinstance(nxt := RULESET.next(state), Ended):
        yield state
        if isinstance(nxt, Chance):
            event = Event.chance(nxt.spec, sample_outcome(nxt.spec, rng))
        else:
            seat = rng.choice(nxt.seats)
            event = Event.action(seat, rng.choice(RULESET.legal_actions(state, seat)))
        state = RULESET.apply(state, event)


def test_perfect_recall_a_seat_has_the_same_choices_and_chances_in_states_it_cannot_tell_apart():
    """Issue 15.1: "This requires each view to carry everything the seat has learned": in a
    determinized state the seat's legal actions, and the chance due, are the real ones."""
    for index, state in enumerate(states_of_a_playout({"turn_limit": 2, "expansion": True})):
        for seat in range(2):
            made = determinized(state, seat, index)
            assert RULESET.legal_actions(made, seat) == RULESET.legal_actions(state, seat)
            assert repr(RULESET.next(made)) == repr(RULESET.next(state))


def test_6_0_a_done_seats_secret_build_is_drawn_not_copied():
    """6.0: "ludantoj elspezas sian oron samtempe": seat 0 cannot tell seat 1's builds apart,
    so neither can its determinization; seat 1 is done in it, by a build of its own."""
    kind = find_kind(lambda k: plain(k) and k.cost <= 2)
    start = build_state([("a", 0, kind, 1, "0200"), ("x", 1, kind, 1, "1000")])
    saved = act(start, 1, {"type": "done"})
    spent = act(act(start, 1, {"type": "add", "block": "x"}), 1, {"type": "done"})
    assert RULESET.view(saved, 0) == RULESET.view(spent, 0)
    assert RULESET.encode(determinized(saved, 0)) == RULESET.encode(determinized(spent, 0))
    drafts = [determinized(saved, 0, seed)["drafts"]["1"] for seed in range(12)]
    assert all(d["done"] for d in drafts)
    assert len({repr(d) for d in drafts}) > 1            # drawn: not always the same build


def test_6_5_the_seats_own_draft_choices_stay_in_its_view():
    """6.5: "Du aŭ pli da blokoj en la sama heksagono povas esti kombinitaj": a block that gave
    a step takes none back, which the view must remember for the seat."""
    kind = find_kind(lambda k: plain(k) and k.max >= 3 and k.cost <= 3)
    state = build_state([("a", 0, kind, 2, "0302"), ("b", 0, kind, 2, "0302"),
                         ("x", 1, kind, 1, "1000")])
    state = act(state, 0, {"type": "combine", "from": "a", "to": "b"})
    draft = RULESET.view(state, 0)["draft"]
    assert draft["gave"] == ["a"] and draft["got"] == ["b"]
    made = determinized(state, 0)
    assert {"type": "combine", "from": "b", "to": "a"} not in RULESET.legal_actions(made, 0)
    assert RULESET.legal_actions(made, 0) == RULESET.legal_actions(state, 0)


def test_6_0_the_new_blocks_stand_on_the_board_before_the_ids_shuffle_names_them():
    """6.0: every build becomes real at once: the seat knows its new blocks' kinds, and every
    seat sees where the others' stand, before the shuffle gives them ids."""
    kind = find_kind(lambda k: plain(k) and k.cost <= 3 and k.count >= 2)
    state = build_state([("a", 0, kind, 1, "0200"), ("x", 1, kind, 1, "1000")])
    for seat, city in ((0, "0200"), (1, "1000")):
        state = act(state, seat, {"type": "recruit", "kind": kind, "hex": city})
        state = act(state, seat, {"type": "done"})
    assert state["phase"] == "ids"
    shown = RULESET.view(state, 0)["new_blocks"]
    assert {"owner": 0, "hex": "0200", "armed": False, "kind": kind, "steps": 1} in shown
    assert {"owner": 1, "hex": "1000", "armed": False} in shown
    made = determinized(state, 0)
    assert RULESET.next(made) == RULESET.next(state)      # the same shuffle is due
    theirs = [b for b in made["new_blocks"] if b["owner"] == 1]
    assert [b["hex"] for b in theirs] == ["1000"]
    assert theirs[0]["kind"].startswith(state["armies"][1] + "/")


def test_2_0_a_hidden_block_takes_only_a_kind_its_army_has_left():
    """2.0: each army has its own blocks; 2.24: a killed wizard never returns; 2.4: one castle,
    which never moves: a hidden block is none of what the seat saw elsewhere or knows lost."""
    army = "orcs"
    castle = find_kind(lambda k: k.castle, army)
    wizard = find_kind(lambda k: k.wizard, army)
    blocks = [("a", 0, find_kind(plain, "feudals"), 2, "0302"), ("c", 1, castle, 2, "1000")]
    blocks += [(f"h{i}", 1, find_kind(plain, army), 1, hex_) for i, hex_ in
               enumerate(("1102", "1103", "1104", "1006", "1303"))]
    state = make_state(blocks)
    state["blocks"]["c"]["known"] = True                 # a battle showed the castle
    state["dead"][1].append(wizard)
    for seed in range(20):
        made = determinized(state, 0, seed)
        drawn = [made["blocks"][f"h{i}"]["kind"] for i in range(5)]
        assert all(k.startswith(army + "/") for k in drawn)
        assert castle not in drawn and wizard not in drawn
        counts = {k: drawn.count(k) for k in drawn}
        assert all(n <= kind_of(k).count for k, n in counts.items())


def test_7_1_the_undead_castle_stands_where_the_rulebook_put_it():
    """7.1: the Undead castle starts at Bethi and 2.4: "Kasteloj neniam moviĝas": the Elves
    know where it is whatever else they cannot tell."""
    state = next(s for s in states_of_a_playout({"scenario": "island-of-the-dead"}, seed=3)
                 if s["phase"] == "move")
    bethi = hexes_named(("13",), "Bethi")[0]
    for seed in range(10):
        made = determinized(state, 0, seed)
        castles = [b["hex"] for b in made["blocks"].values() if b["kind"] == "undead/castle"]
        assert castles == [bethi]


def test_d27_a_chaos_block_out_of_the_box_is_drawn_for_a_seat_that_may_have_it():
    """D27 (2.5, footnote 3): each chaos block exists once and is built only while off the
    board, so every seat sees which are out; a hidden one is some other seat's block."""
    kind = find_kind(lambda k: plain(k) and k.cost <= 2)
    chaos = extras().chaos[0].key
    state = build_state([("a", 0, kind, 1, "0200"), ("x", 1, chaos, 1, "1000"),
                         ("y", 1, kind, 1, "1006")], options={"expansion": True},
                        armies_=[kind.split("/")[0], "orcs"])
    assert RULESET.view(state, 0)["chaos"] == [chaos]
    for seed in range(10):
        made = determinized(state, 0, seed)
        assert [b["kind"] for b in made["blocks"].values()].count(chaos) == 1
        assert RULESET.legal_actions(made, 0) == RULESET.legal_actions(state, 0)


def test_5_31_the_dice_due_in_a_battle_are_in_the_view():
    """5.31: "rulu tiom da ĵetkuboj kiom da paŝoj": the roll under way (whose, how many, at what
    hit number) is public, and a determinized state rolls the same dice."""
    # the first of some random playouts with a battle (which ones have one depends on the armies'
    # content, e.g. their moves)
    rolls = next((found for seed in range(5, 25)
                  if (found := [s for s in states_of_a_playout({"turn_limit": 3}, players=3, seed=seed)
                                if s["battle"] is not None and s["battle"]["step"] == "roll"])), [])
    assert rolls
    for state in rolls[:10]:
        assert RULESET.view(state, 1)["battle"]["roll"] == state["battle"]["roll"]
        made = determinized(state, 1)
        assert RULESET.next(made) == RULESET.next(state)
        assert made["battle"]["roll"] == state["battle"]["roll"]


def test_4_6_the_hexside_counts_follow_the_blocks_that_came_in():
    """4.6: "nur po 2 blokoj ... tra ĉiu heksagona latero": the seat sees which blocks came
    into a battle to come through which hexside; the count follows from their kinds."""
    kind = find_kind(plain, "orcs")
    state = make_state([("a", 0, kind, 2, "1102"), ("b", 0, kind, 2, "1103"),
                        ("x", 1, find_kind(plain, "feudals"), 1, "1203")])
    state = act(state, 0, {"type": "move", "block": "a", "to": "1203", "via": "1102"})
    fight = RULESET.view(state, 1)["fights"]["1203"]
    assert fight["crossed"] == {"1102|1203": ["a"]}
    made = determinized(state, 1)
    side = made["fights"]["1203"]["crossings"]
    expected = 0 if kind_of(made["blocks"]["a"]["kind"]).flyer else 1
    assert side.get("attack", {}).get("1102|1203", 0) == expected
    own = determinized(state, 0)["fights"]["1203"]["crossings"]
    assert own == state["fights"]["1203"]["crossings"]             # the mover knows its own
