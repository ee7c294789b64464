"""Treasure (2.6) and artefacts (2.7, footnotes 4 and 5), option ``expansion``: each test quotes
its clause and plays it event by event on the test maps."""
from __future__ import annotations

from games.wizard_kings import rules
from games.wizard_kings.content import artefact_of, extras, kind_of, spell_of
from games.wizard_kings.state import pool

from .conftest import RULESET, act, idle, find_kind, make_state, plain, roll, to_act
from .test_battle import into_battle, letter

EXP = {"expansion": True}
SILVER, GOLD = "treasure/silver", "treasure/gold"


def build_state(blocks, options=EXP, **kw):
    """``blocks`` on the test maps at the start of the build phase of turn 1."""
    state = make_state(blocks, phase="move", options=options, **kw)
    state["order"], state["mover"] = [0, 1], 2
    rules.advance(state)
    assert state["phase"] == "build"
    return state


def armed(state, bid, key, steps):
    state["blocks"][bid]["artefact"] = {"key": key, "steps": steps, "known": False}
    return state


def both_done(state):
    for seat in (0, 1):
        if seat in to_act(state):
            state = act(state, seat, {"type": "done"})
    return state


def weapon_of(army, *, letter_=None):
    return next(a for a in extras().artefacts[army] if a.type == "weapon"
                and (letter_ is None or a.letter == letter_))


def magic_of(army):
    return next(a for a in extras().artefacts[army] if a.type == "magic")


# -- 2.6 treasure ------------------------------------------------------------------------------

def test_2_6_silver_costs_1_a_step_up_to_4_gold_5_a_step_up_to_20():
    """2.6: "La arĝentoblokoj kostas po 1 gp ĉiu paŝo kaj akumulas ĝis 4 gp-ojn. Orblokoj
    kostas po 5 gp ĉiu paŝo kaj akumulas ĝis 20 gp-ojn." "Ili estas aldoneblaj al blokoj
    ajn-koloraj": every army may add them, with the expansion only."""
    silver, gold = kind_of(SILVER), kind_of(GOLD)
    assert (silver.cost, silver.cost * silver.max) == (1, 4)
    assert (gold.cost, gold.cost * gold.max) == (5, 20)
    kind = find_kind(plain)
    for army in ("elves", "orcs"):
        state = make_state([("a", 0, kind, 1, "0302")], options=EXP, armies_=[army, "undead"])
        assert pool(state, 0)[SILVER] == silver.count and pool(state, 0)[GOLD] == gold.count
    state = make_state([("a", 0, kind, 1, "0302")])
    assert SILVER not in pool(state, 0) and GOLD not in pool(state, 0)


def test_2_6_treasure_spent_in_its_city_pays_for_blocks_built_there():
    """2.6: "Tiujn ĉi blokojn oni povas elspezi dum la konstrufazo por rekruti kaj plibonigi
    blokojn ĉe la sama heksagono kie ili troviĝas." (D34: in a friendly city, 6.2.)"""
    dear = find_kind(lambda k: plain(k) and k.cost >= 4)
    state = build_state([("g", 0, GOLD, 2, "0003"), ("x", 1, find_kind(plain), 1, "1506")],
                        armies_=[dear.split("/")[0], "undead" if "undead" not in dear else "orcs"])
    assert state["drafts"]["0"]["gold"]["0003"] == 2    # Cedar's income only
    legal = RULESET.legal_actions(state, 0)
    assert {"type": "recruit", "kind": dear, "hex": "0003"} not in legal
    state = act(state, 0, {"type": "spend", "block": "g"})
    draft = state["drafts"]["0"]
    assert draft["gold"]["0003"] == 7 and draft["blocks"]["g"]["steps"] == 1
    state = act(state, 0, {"type": "recruit", "kind": dear, "hex": "0003"})
    state = both_done(state)                             # one new block: no shuffle is due
    assert state["blocks"]["g"]["steps"] == 1
    assert state["gold"]["0003"] == 7 - kind_of(dear).cost
    assert any(b["kind"] == dear for b in state["blocks"].values())


def test_2_6_treasure_outside_a_city_is_not_spent_and_never_bought_back():
    """2.6 with 6.2: "Blokoj estas produktataj nur en amikaj urboj" (D34: treasure is spent in
    a friendly city); a step spent is not bought back in the same build (the build would
    never end)."""
    state = build_state([("s", 0, SILVER, 2, "0302"), ("t", 0, SILVER, 2, "0200"),
                         ("x", 1, find_kind(plain), 1, "1506")], armies_=["orcs", "elves"])
    legal = RULESET.legal_actions(state, 0)
    assert {"type": "spend", "block": "t"} in legal
    assert {"type": "spend", "block": "s"} not in legal
    state = act(state, 0, {"type": "spend", "block": "t"})
    assert {"type": "add", "block": "t"} not in RULESET.legal_actions(state, 0)


def test_2_6_silver_turns_into_gold_within_the_stacking_limit():
    """2.6: "Tiuj ĉi blokoj estas interŝanĝeblaj inter si (ekz. 5 arĝentobloko > 1 orbloko,
    ktp.) sed atentendas la staklimo en la heksagono." """
    state = build_state([("s", 0, SILVER, 3, "0003"), ("x", 1, find_kind(plain), 1, "1506")],
                        armies_=["orcs", "elves"])
    for _ in range(3):
        state = act(state, 0, {"type": "spend", "block": "s"})
    assert "s" not in state["drafts"]["0"]["blocks"]          # all its gold is on Cedar
    assert state["drafts"]["0"]["gold"]["0003"] == 5
    assert {"type": "recruit", "kind": GOLD, "hex": "0003"} in RULESET.legal_actions(state, 0)
    from games.wizard_kings.state import board
    limit = board(state).stack_limit("0003")
    full = [(f"f{i}", 0, letter("C", army="orcs"), 1, "0003") for i in range(limit - 1)]
    state = build_state(full + [("s", 0, SILVER, 4, "0003"), ("x", 1, find_kind(plain), 1, "1506")],
                        armies_=["orcs", "elves"])
    b = RULESET
    for _ in range(3):                                         # 2 + 3 gold, Cedar stays full
        state = act(state, 0, {"type": "spend", "block": "s"})
    assert state["drafts"]["0"]["gold"]["0003"] == 5
    assert {"type": "recruit", "kind": GOLD, "hex": "0003"} not in b.legal_actions(state, 0)


def test_2_6_treasure_never_fires_but_holds_its_hex_and_takes_hits():
    """2.6 prints no combat rating for treasure (D31): it never fires, takes hits like any
    block (gold spilled) and, a block, counts for the stacking limit."""
    kind = letter("C")
    state = make_state([("a", 0, kind, 3, "1001"), ("g", 1, GOLD, 3, "1002")], options=EXP,
                       armies_=[kind.split("/")[0], "undead" if "undead" not in kind else "orcs"])
    state = into_battle(state, [("a", "1002", "1001")])
    assert state["battle"]["turns"][-1] == "g"                # the last letter, D
    while state["battle"]["current"] != "g":
        state = idle(state, state["battle"]["current"])
    legal = RULESET.legal_actions(state, 1)
    assert {"type": "fire", "block": "g"} not in legal and {"type": "pass", "block": "g"} in legal
    state = idle(state, "g")
    state = act(state, 0, {"type": "fire", "block": "a"})      # round 2
    state = roll(state, [1, 1, 6])
    assert state["blocks"]["g"]["steps"] == 1


# -- 2.7 artefacts -----------------------------------------------------------------------------

def test_2_7_an_artefact_is_made_on_a_block_in_a_friendly_city_one_a_carrier():
    """2.7: "Ĉiu artefakto devas esti 'transportita' de militunuo, maksimume po 1 artefakto
    ĉiu transportanto." Footnote 5: artefacts have an army's colours (D32: each army makes
    its own two, a charge at a time, with the city's gold)."""
    kind = find_kind(lambda k: plain(k) and k.army == "feudals")
    state = build_state([("a", 0, kind, 2, "0200"), ("b", 0, kind, 2, "0302"),
                         ("x", 1, find_kind(plain), 1, "1506")], armies_=["feudals", "orcs"])
    state["drafts"]["0"]["gold"]["0200"] = 10           # Alder's marker holds saved gold
    legal = RULESET.legal_actions(state, 0)
    arms = [a for a in legal if a["type"] == "arm"]
    assert {a["artefact"] for a in arms} == {a.key for a in extras().artefacts["feudals"]}
    assert {a["block"] for a in arms} == {"a"}                 # Alder is a city, 0302 is not
    key = arms[0]["artefact"]
    state = act(state, 0, arms[0])
    draft = state["drafts"]["0"]
    assert draft["blocks"]["a"]["artefact"] == {"key": key, "steps": 1, "known": False}
    assert draft["gold"]["0200"] == 10 - artefact_of(key).cost
    legal = RULESET.legal_actions(state, 0)
    assert not [a for a in legal if a["type"] == "arm" and a["block"] == "a"]
    assert {a["artefact"] for a in legal if a["type"] == "arm"} <= {
        a.key for a in extras().artefacts["feudals"]} - {key}
    plain_game = build_state([("a", 0, kind, 2, "0200"), ("x", 1, find_kind(plain), 1, "1506")],
                             options={}, armies_=["feudals", "orcs"])
    assert not [a for a in RULESET.legal_actions(plain_game, 0) if a["type"] == "arm"]


def test_2_7_a_weapon_gives_its_rating_its_carrier_may_wait_for_its_own():
    """2.7: "Magiaj armiloj: ili ŝanĝas la batalmontrilon de la bloko portanta ĝin al tiu de
    la armilo (ne la forto). Estas fakultative ĝin uzi." "Ĉiu uzo de artefakto malpligas 1 ties
    forton." (D36: the carrier's turn comes at the earlier letter; it may wait for the later.)"""
    weapon = weapon_of("feudals", letter_="A")
    carrier = letter("C", army="feudals")
    state = make_state([("a", 0, carrier, 3, "1001"), ("d", 1, letter("B", army="orcs"), 3, "1002")],
                       options=EXP, armies_=["feudals", "orcs"])
    state = into_battle(armed(state, "a", weapon.key, 2), [("a", "1002", "1001")])
    assert state["battle"]["turns"] == ["a", "d"]              # A before B
    legal = RULESET.legal_actions(state, 0)
    assert {"type": "wield", "block": "a"} in legal and {"type": "wait", "block": "a"} in legal
    assert {"type": "fire", "block": "a"} not in legal
    state = act(state, 0, {"type": "wield", "block": "a"})
    assert RULESET.next(state).spec == {"kind": "dice", "count": 3, "sides": 6}   # its steps
    assert state["blocks"]["a"]["artefact"]["steps"] == 1
    state = roll(state, [weapon.fire, weapon.fire + 1, 6])      # one hit at the weapon's number
    assert state["blocks"]["d"]["steps"] == 2
    state = idle(state, "d")
    # round 2: it waits, then fires in the C turn with its own rating, no weapon there
    assert state["battle"]["turns"] == ["a", "d"]
    state = act(state, 0, {"type": "wait", "block": "a"})
    assert state["battle"]["turns"] == ["d", "a"]
    state = idle(state, "d")
    legal = RULESET.legal_actions(state, 0)
    assert {"type": "fire", "block": "a"} in legal and {"type": "wield", "block": "a"} not in legal
    assert {"type": "wait", "block": "a"} not in legal


def test_2_7_the_last_charge_used_the_artefact_is_gone():
    """2.7: "Ĉiu uzo de artefakto malpligas 1 ties forton": at no strength it is gone."""
    weapon = weapon_of("feudals", letter_="A")
    state = make_state([("a", 0, letter("C", army="feudals"), 2, "1001"),
                        ("d", 1, letter("C", army="orcs"), 4, "1002")],
                       options=EXP, armies_=["feudals", "orcs"])
    state = into_battle(armed(state, "a", weapon.key, 1), [("a", "1002", "1001")])
    state = act(state, 0, {"type": "wield", "block": "a"})
    state = roll(state, [6, 6])
    assert "artefact" not in state["blocks"]["a"]
    assert state["battle"]["current"] == "d"


def test_2_7_a_magic_artefact_casts_its_armys_spells_up_to_its_level_a_charge_each():
    """2.7: "Magiaj artefaktoj: ebligas al portanto ĵeti sorĉojn ĝis la nivelo difinita en la
    artefakto (aŭ malpli). Uzi la artefakton elĉerpas la batalvicon de la portanto. Malsame al
    magiisto, artefakto malpliigas nur po unu paŝo ĉiu ĵetita sorĉo, sendepende de ties
    nivelo." """
    item = magic_of("orcs")
    carrier = letter("C", army="orcs")
    state = make_state([("a", 0, carrier, 2, "1001"), ("d", 1, letter("C", army="feudals"), 3, "1002")],
                       options=EXP, armies_=["orcs", "feudals"])
    state = into_battle(armed(state, "a", item.key, 2), [("a", "1002", "1001")])
    while state["battle"]["current"] != "a":
        state = idle(state, state["battle"]["current"])
    invokes = [a for a in RULESET.legal_actions(state, 0) if a["type"] == "invoke"]
    levels = {spell_of(a["spell"]).level for a in invokes}
    assert invokes and max(levels) <= item.level
    assert {spell_of(a["spell"]).army for a in invokes} == {"orcs"}
    storm = next(a for a in invokes if spell_of(a["spell"]).effect == "storm"
                 and spell_of(a["spell"]).level == item.level)
    state = act(state, 0, storm)
    assert state["blocks"]["a"]["steps"] == 2                  # the carrier pays nothing
    assert state["blocks"]["a"]["artefact"]["steps"] == 1
    assert state["battle"]["step"] == "roll"                   # no enemy wizard to dispel
    state = roll(state, [1] + [6] * (spell_of(storm["spell"]).dice - 1))
    assert state["blocks"]["d"]["steps"] == 2
    assert (state["battle"]["round"], state["battle"]["current"]) == (2, "d")  # its turn is spent


def test_2_7_artefacts_never_take_hits_and_die_with_their_carrier():
    """2.7: "Artefaktoj neniam ricevas koliziojn dum batalo, sed estas detruitaj se sia
    transportanto estas forigita" """
    item = magic_of("feudals")
    state = make_state([("a", 0, letter("C", army="orcs"), 2, "1001"),
                        ("d", 1, letter("C", army="feudals"), 1, "1002")],
                       options=EXP, armies_=["orcs", "feudals"])
    state = into_battle(armed(state, "d", item.key, 2), [("a", "1002", "1001")])
    while state["battle"]["current"] != "a":
        state = idle(state, state["battle"]["current"])
    state = act(state, 0, {"type": "fire", "block": "a"})
    state = roll(state, [1, 1])                                 # two hits: the second is wasted
    assert "d" not in state["blocks"]
    assert item.key not in {b.get("artefact", {}).get("key") for b in state["blocks"].values()}
    assert not state["lying"]


def test_footnote_5_option_a_fallen_carriers_artefact_is_captured_and_breaks_on_a_6():
    """Footnote 5: "FAKULTATIVA REGULO: Oni povas permesi kapti la malamikajn artefaktojn, sed
    tiuj ĉi povos ĵeti sorĉojn nur el ĝiaj propraj koloroj. Ĉiun fojon malamika artefakto
    estas uzita, ruligo 1d6: se rezulto estas 6 la artefakto estas detruita." """
    weapon = weapon_of("feudals", letter_="A")
    opts = {**EXP, "capture_artefacts": True}
    state = make_state([("a", 0, letter("C", army="orcs"), 3, "1001"),
                        ("d", 1, letter("C", army="feudals"), 1, "1002")],
                       options=opts, armies_=["orcs", "feudals"])
    state = into_battle(armed(state, "d", weapon.key, 2), [("a", "1002", "1001")])
    while state["battle"]["current"] != "a":
        bid = state["battle"]["current"]
        state = idle(state, bid)
    state = act(state, 0, {"type": "fire", "block": "a"})
    state = roll(state, [1, 6, 6])
    assert state["lying"] == {"1002": [{"key": weapon.key, "steps": 2}]}
    while state["phase"] == "battle":
        state = act(state, 0, {"type": "done"})
    assert state["phase"] == "build"
    state = act(state, 0, {"type": "take", "block": "a", "artefact": weapon.key})
    state = both_done(state)
    assert state["blocks"]["a"]["artefact"]["key"] == weapon.key and not state["lying"]
    # used by its captor: the charge goes, then 1d6; a 6 breaks it
    state = make_state([("a", 0, letter("C", army="orcs"), 3, "1001"),
                        ("e", 1, letter("C", army="feudals"), 4, "1002")],
                       options=opts, armies_=["orcs", "feudals"])
    state = into_battle(armed(state, "a", weapon.key, 2), [("a", "1002", "1001")])
    state = act(state, 0, {"type": "wield", "block": "a"})
    assert RULESET.next(state).spec == {"kind": "dice", "count": 1, "sides": 6}
    state = roll(state, [6])
    assert "artefact" not in state["blocks"]["a"]               # broken, but this use stands
    assert RULESET.next(state).spec == {"kind": "dice", "count": 3, "sides": 6}
    state = roll(state, [1, 6, 6])
    assert state["blocks"]["e"]["steps"] == 3


def test_2_7_the_carrier_changes_only_between_rounds():
    """2.7: "Oni decidu komence de la batalon kiu transportos la artefakton kaj nur inter
    batalvicoj oni povas ŝanĝi ĝin." """
    weapon = weapon_of("orcs")
    state = make_state([("a", 0, letter("C", army="orcs"), 2, "1001"),
                        ("b", 0, letter("C", army="orcs"), 3, "1001"),
                        ("d", 1, letter("C", army="feudals"), 4, "1002")],
                       options=EXP, armies_=["orcs", "feudals"])
    state = armed(state, "a", weapon.key, 2)
    state = into_battle(state, [("a", "1002", "1001"), ("b", "1002", "1001")])
    assert state["battle"]["step"] == "arm" and to_act(state) == (0,)
    assert RULESET.legal_actions(state, 0) == [{"type": "hand", "from": "a", "to": "b"},
                                               {"type": "keep"}]
    state = act(state, 0, {"type": "hand", "from": "a", "to": "b"})
    assert state["blocks"]["b"]["artefact"]["key"] == weapon.key
    assert "artefact" not in state["blocks"]["a"]
    assert state["battle"]["step"] == "turn"                   # no hand-over within a round
    assert not [a for a in RULESET.legal_actions(state, 0) if a["type"] == "hand"]


def test_2_7_an_abandoned_artefact_lies_for_its_own_army_to_take_again():
    """2.7: "Artefaktoj moviĝas, regrupiĝas kaj retretas kune kun siaj transportantoj, aŭ
    povas esti forlasitaj." (D35: it lies in the hex, public; without footnote 5's option only
    its own army takes it.)"""
    item = magic_of("feudals")
    kind = letter("C", army="feudals")
    state = build_state([("a", 0, kind, 2, "0200"), ("x", 1, letter("C", army="orcs"), 1, "1506")],
                        armies_=["feudals", "orcs"])
    state = armed(state, "a", item.key, 2)
    state["drafts"]["0"]["blocks"]["a"]["artefact"] = dict(state["blocks"]["a"]["artefact"])
    state = act(state, 0, {"type": "drop", "block": "a"})
    assert {"type": "take", "block": "a", "artefact": item.key} not in RULESET.legal_actions(state, 0)
    state = both_done(state)
    assert state["lying"] == {"0200": [{"key": item.key, "steps": 2}]}
    assert RULESET.view(state, 1)["lying"] == {"0200": [{"key": item.key, "steps": 2}]}
    assert "artefact" not in state["blocks"]["a"]


def test_2_7_an_opponent_sees_that_a_block_carries_an_artefact_not_which():
    """2.0: blocks are secret; an artefact is a block of its own (footnote 4: it is not counted
    for stacking): others see it stand by its carrier, not what it is, until a battle (D38)."""
    item = weapon_of("orcs")
    state = make_state([("a", 0, letter("C", army="orcs"), 2, "0302"),
                        ("x", 1, letter("C", army="feudals"), 1, "1506")],
                       options=EXP, armies_=["orcs", "feudals"])
    state = armed(state, "a", item.key, 2)
    theirs = next(b for b in RULESET.view(state, 1)["blocks"] if b["id"] == "a")
    assert theirs["armed"] is True and "artefact" not in theirs
    mine = next(b for b in RULESET.view(state, 0)["blocks"] if b["id"] == "a")
    assert mine["artefact"] == {"key": item.key, "known": False, "steps": 2,
                                "tag": f"a:{item.key}"}
    assert f"a:{item.key}" in RULESET.hidden_items(state, 0)


def test_footnote_4_artefacts_count_for_neither_stacking_nor_hexside_limits():
    """2.7: "Oni ne kalkulu la artefaktojn rilate al la staklimo nek rilate al la paslimo⁴." """
    from games.wizard_kings.state import board
    kind = letter("C", army="orcs")
    probe = make_state([("a", 0, kind, 2, "1001")], options=EXP, armies_=["orcs", "feudals"])
    limit = board(probe).stack_limit("1002")
    blocks = [(f"s{i}", 0, kind, 1, "1002") for i in range(limit - 1)] + [("a", 0, kind, 2, "1001")]
    for with_artefacts in (False, True):
        state = make_state(blocks, options=EXP, armies_=["orcs", "feudals"])
        if with_artefacts:
            armed(state, "a", weapon_of("orcs").key, 1)
            armed(state, "s0", magic_of("orcs").key, 1)
        assert {"type": "move", "block": "a", "to": "1002"} in [
            {k: v for k, v in m.items() if k in ("type", "block", "to")}
            for m in RULESET.legal_actions(state, 0) if m["type"] == "move"]
