"""The Heroes & Treasures blocks in play (option ``expansion``): chaos blocks and berserk, the
moon and the lycanthropes (2.5), clerics' rites (2.36), havens (2.39) and heroes (2.8)."""
from __future__ import annotations

from games.wizard_kings.content import extras, kind_of
from games.wizard_kings.state import fire_number, pool

from .conftest import RULESET, act, idle, find_kind, make_state, plain, roll
from .test_battle import battle_state, letter


def test_2_5_a_chaos_block_may_go_berserk_for_double_dice_then_loses_a_step():
    """2.5: "HĀosa estaĵo povas ataki normale laŭ sia batalmontrilo, aŭ iĝi Frenezulo
    (berserk), kio havigas al ĝi duoblon da lotoj dum batalo (ekz. 3d6 > 6d6) dum tiu
    batalvico, sed poste, ĝi perdos unu paŝon." """
    chaos = next(k for k in extras().chaos if k.letter in "AB" and not k.flyer
                 and "lycanthrope" not in k.traits)
    state = battle_state([("m", chaos.key, 3, "1001")], [("d", letter("C"), 4)])
    assert state["battle"]["current"] == "m"
    legal = RULESET.legal_actions(state, 0)
    assert {"type": "berserk", "block": "m"} in legal and {"type": "fire", "block": "m"} in legal
    state = act(state, 0, {"type": "berserk", "block": "m"})
    assert RULESET.next(state).spec == {"kind": "dice", "count": 6, "sides": 6}
    state = roll(state, [1, 1, 6, 6, 6, 6])
    assert state["blocks"]["m"]["steps"] == 2 and state["blocks"]["d"]["steps"] == 2


def test_2_5_the_moon_changes_a_lycanthropes_hit_number_turn_by_turn():
    """2.5: "Likanthropoj ... estas influitaj de la lunfazoj" (D26: one phase a turn; the full
    moon adds one to their hit number, the new moon takes one)."""
    were = next(k for k in extras().chaos if "lycanthrope" in k.traits)
    state = make_state([("w", 0, were.key, 2, "0302")])
    native_bonus = fire_number(state, "w") - were.fire - extras().moon_fire.get("new", 0)
    by_phase = {}
    for turn in range(1, len(extras().moon) + 1):
        state["turn"] = turn
        phase = extras().moon[turn - 1]
        by_phase[phase] = fire_number(state, "w")
        assert by_phase[phase] == were.fire + native_bonus + extras().moon_fire.get(phase, 0)
    assert by_phase["full"] == by_phase["new"] + 2


def test_2_36_a_cleric_performs_a_rite_instead_of_firing_and_loses_a_step():
    """2.36: "Klerikoj povas normale lukti (laŭ ties batalmontrilo) aŭ povas uzi riton. Klerikoj
    malfortiĝas je 1 uzinte riton." 5.34: rites never take a last step either."""
    cleric = kind_of("barbarians/cleric")
    state = battle_state([("c", cleric.key, 3, "1001")], [("d", letter("C"), 1)])
    while state["battle"]["current"] != "c":
        bid = state["battle"]["current"]
        state = idle(state, bid)
    rites = [a for a in RULESET.legal_actions(state, 0) if a["type"] == "rite"]
    assert rites and {a["rite"] for a in rites} <= set(cleric.rites)
    from games.wizard_kings.content import spell_of
    strike = next(a for a in rites if spell_of(a["rite"]).effect in ("strike", "storm")
                  and a.get("target", "d") == "d")
    state = act(state, 0, strike)
    assert state["blocks"]["c"]["steps"] == 2
    assert state["battle"]["step"] == "roll"                 # no Dispel Magic against a rite
    state = roll(state, [1] * RULESET.next(state).spec["count"])
    assert state["blocks"]["d"]["steps"] == 1                 # the last step stays (5.34)


def test_2_39_a_haven_adds_one_to_its_ports_capacity():
    """2.39: "Tiuj apudmaraj urboj havantaj havenan blokon ... ĝuas +1 je iliaj transportaj
    kapabloj (vidu 4.81)." Dune (0504, 2 gold) is a port of t-west."""
    from games.wizard_kings.movement import _port_left
    from games.wizard_kings.state import board
    haven = next(k for ks in extras().expansion.values() for k in ks if "haven" in k.traits)
    kind = find_kind(plain)
    bare = make_state([("b", 0, kind, 1, "0504")])
    held = make_state([("b", 0, kind, 1, "0504"), ("h", 0, haven.key, 1, "0504")])
    assert _port_left(bare, board(bare), "0504") == 2
    assert _port_left(held, board(held), "0504") == 3
    assert haven.move == 0 and haven.rating == "D3"


def test_2_8_a_hero_ignores_hexside_limits_and_crosses_mountains():
    """2.8: "Ili estas kalkulitaj rilate al blokstako, sed ne rilate al paslimo. Krome, ili rajtas
    trairi montaron ne limigate." """
    hero = next(k for ks in extras().expansion.values() for k in ks
                if "hero" in k.traits and not k.traits & {"forest", "mountain", "amphibian"})
    kind = find_kind(plain)
    state = make_state([("a1", 0, kind, 1, "1001"), ("a2", 0, kind, 1, "1001"),
                        ("h", 0, hero.key, 1, "1001"), ("d", 1, kind, 1, "1002")],
                       options={"expansion": True})
    for bid in ("a1", "a2"):
        state = act(state, 0, {"type": "move", "block": bid, "to": "1002", "via": "1001"})
    assert {"type": "move", "block": "h", "to": "1002", "via": "1001"} in \
        RULESET.legal_actions(state, 0)
    mountain = make_state([("h", 0, hero.key, 1, "0400")], options={"expansion": True})
    assert any(a.get("to") == "0401" for a in RULESET.legal_actions(mountain, 0))


def test_footnote_3_the_expansion_adds_two_blocks_an_army_and_the_chaos_blocks_to_the_pool():
    """2.0, footnote 3: "Ĉiu etendiĝo enhavas 21 hazarde elektitajn blokojn, el kiuj 14 estas
    normalaj (po 2 por ĉiu armeo) kaj 7 blokoj pri Ĥaoso, kiuj estas aldoneblaj al iu ajn bando."
    A chaos block on the board is nobody else's to build (D27)."""
    kind = find_kind(plain, "orcs")
    base = make_state([("o", 0, kind, 1, "0302"), ("x", 1, "elves/glader", 1, "1506")])
    assert not any(k.startswith("chaos/") for k in pool(base, 0))
    chaos = extras().chaos[0]
    more = make_state([("o", 0, kind, 1, "0302"), ("x", 1, chaos.key, 1, "1506")],
                      options={"expansion": True}, armies_=["orcs", "elves"])
    mine = pool(more, 0)
    assert sum(n for k, n in mine.items() if k.startswith("orcs/")) == 8 - 1 + 2
    assert chaos.key not in mine and len([k for k in mine if k.startswith("chaos/")]) == 6


def test_matches_with_the_expansion_end_and_validate_at_every_player_count():
    """The conformance suite plays the default options; with the expansion on, random and
    heuristic bots (berserk, rites, heroes, havens, the moon) play to an end at 2-7 players and
    every log validates (hash chain, every action legal where it stands, chance re-derived)."""
    import hashlib

    from games.engine.bots import RandomBot
    from games.engine.log import validate
    from games.engine.runner import playout
    from games.wizard_kings.bots import HeuristicBot
    kinds = set()
    for players in range(2, 8):
        for index in range(1):
            bots = {s: (HeuristicBot if (s + index) % 2 else RandomBot)(RULESET, seed=10 * players + s)
                    for s in range(players)}
            seed = hashlib.sha256(f"expansion|{players}|{index}".encode()).digest()
            records = playout(RULESET, players, seed=seed, bots=bots, options={"expansion": True},
                              match_id=f"x{players}{index}",
                              max_events=RULESET.max_events(players, RULESET.options({"expansion": True})))
            assert records[-1]["kind"] == "match_ended"
            report = validate(records, get_ruleset=lambda name, version=None: RULESET)
            assert report.ok, report.to_json()
            kinds |= {r["payload"]["action"]["type"] for r in records if r["kind"] == "action"}
            kinds |= {k for r in records if r["kind"] == "action"
                      for k in [r["payload"]["action"].get("kind", "")] if k.startswith("chaos/")}
    assert {"berserk", "rite"} <= kinds and any(k.startswith("chaos/") for k in kinds)
