"""Content tests for Wizard Kings: the seven armies and their spell lists in data/armies.json,
checked against the rulebook's clauses on armies (2.0), spells (2.21-2.22, 5.34) and the blocks
its scenarios name (7.1-7.4), and the loader's refusal of broken files. No Django needed."""
import copy
import json

import pytest

from games.wizard_kings import content
from games.wizard_kings.content import ContentError

ORDER = ["amazons", "barbarians", "dwarves", "elves", "feudals", "orcs", "undead"]
COLOURS = {"amazons": "red", "barbarians": "blue", "dwarves": "grey", "elves": "green",
           "feudals": "brown", "orcs": "orange", "undead": "black"}

# The blocks 7.1 and 7.2 print: (army, block name, rating, copies, most steps at the start).
NAMED = [
    ("7.1", "undead", "Castle", "C4", 1, 2),
    ("7.1", "undead", "Skeleton", "C2", 2, 2),
    ("7.1", "undead", "Zombie", "C1", 3, 2),
    ("7.1", "elves", "Wicana", "A+", 1, 4),
    ("7.1", "elves", "Ranger", "A2", 1, 3),
    ("7.1", "elves", "Pixie", "B1", 2, 3),
    ("7.1", "elves", "Glader", "C1", 3, 1),        # one on the board, "du kromajn Gladers"
    ("7.2", "amazons", "Charmer", "A+", 1, 2),
    ("7.2", "amazons", "Amazon", "C1", 3, 4),
    ("7.2", "amazons", "Guardian", "C2", 2, 2),
    ("7.2", "amazons", "Bowlyn", "A2", 1, 1),
    ("7.2", "amazons", "Castle", "C4", 1, 2),
    ("7.2", "barbarians", "Runeka", "A+", 1, 4),
    ("7.2", "barbarians", "Huscarl", "C2", 2, 4),
    ("7.2", "barbarians", "Spearmaid", "C1", 1, 4),
    ("7.2", "barbarians", "Cleric", "C2", 1, 3),
    ("7.2", "barbarians", "Viking", "B2", 1, 3),
]


def field(army):
    """The blocks of an army that are neither its wizard nor a castle."""
    return [k for k in army.kinds if not k.wizard and not k.castle]


def full_cost(army):
    return sum(k.max * k.cost * k.count for k in army.kinds)


def raw_file():
    return json.loads(content.ARMIES_FILE.read_text(encoding="utf-8"))


def broken(tmp_path, change):
    """A copy of armies.json with ``change`` applied to its data, loaded by content.armies."""
    data = copy.deepcopy(raw_file())
    change(data["armies"])
    path = tmp_path / "armies.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return lambda: content.armies(str(path))


def block(data, army, kind):
    return next(b for b in data[army]["blocks"] if b["kind"] == kind)


def test_wizard_kings_2_0_seven_armies_in_order_with_their_colours():
    """2.0: "La koloro por ĉiu armeo estas: Amazonoj: ruĝa, Barbaroj: blua, Nanoj: grizaj,
    Elfoj: verda, Feŭdoj: bruna, Orkoj: naranĝa, Nemortintoj: nigra"."""
    assert content.army_keys() == ORDER
    assert {k: a.colour for k, a in content.armies().items()} == COLOURS


def test_wizard_kings_2_0_every_army_has_eight_blocks_a_wizard_cheap_and_better_blocks_a_castle():
    """2.0: "Ĉiu armeo konsistas el 8 blokoj." ... "Ĉiuj inkludas magiiston, kelkajn
    malmultekostajn blokojn (kanon-furaĝoj), kelkajn pli bonajn blokojn (kaj pli multekostaj),
    kaj kastelon." """
    for army in content.armies().values():
        assert sum(k.count for k in army.kinds) == 8, army.key
        assert sum(k.count for k in army.kinds if k.wizard) == 1, army.key
        assert sum(k.count for k in army.kinds if k.castle) >= 1, army.key
        costs = {k.cost for k in field(army)}
        assert min(costs) == 1 and max(costs) >= 4, army.key


def test_wizard_kings_2_1_blocks_have_one_to_four_steps_and_castles_never_move():
    """2.11: "Blokoj havas fortojn kiuj varias de 1 al 4." 2.4: "Ili [kasteloj] povas moviĝi
    neniam." """
    for army in content.armies().values():
        for k in army.kinds:
            assert 1 <= k.max <= 4, k.key
            assert (k.move == 0) == k.castle, k.key
            assert k.move <= 4 and k.cost >= 1, k.key


def test_wizard_kings_2_2_the_wizards_are_a_plus_and_never_fire():
    """2.2: "La magiistaj blokoj estas markitaj per A+ aŭ B+ rilate al bataloj" ... "ĉiuj
    blokoj A+ aŭ B+ estas magiistoj." 7.3 and 7.4 print "Magiisto (A+)" with 4 steps."""
    for army in content.armies().values():
        wizard = next(k for k in army.kinds if k.wizard)
        assert wizard.rating == "A+" and wizard.fire == 0 and wizard.max == 4, army.key
        assert all(not k.rating.endswith("+") for k in army.kinds if not k.wizard)


def test_wizard_kings_2_21_three_level_one_two_level_two_one_level_three_spells():
    """2.21: "Ĉiu magiisto konas tiuj 6 ekzorcojn klarigitajn ĉe ilia ekzorcolisto; tri
    1-nivelaj ekzorcoj, du 2-nivelaj ekzorcoj kaj unu 3-nivela ekzorco." """
    for army in content.armies().values():
        assert sorted(s.level for s in army.spells) == [1, 1, 1, 2, 2, 3], army.key
        assert len({s.key for s in army.spells}) == 6, army.key


def test_wizard_kings_2_22_spell_dice_stay_modest():
    """2.22: "Magiistoj ĵetas siajn ekzorcojn malpliigante siajn fortojn po 1 poento ĉiu
    ekzorcnivelo" and its examples "ĵetu 4d6@F3", "ĵetu 2d6@F2": no damage spell promises more
    than two thirds of a hit for each step the wizard pays, no heal more than a step a step."""
    for army in content.armies().values():
        for s in army.spells:
            if s.effect in ("strike", "storm"):
                assert 1 <= s.fire <= 6 and s.dice >= 1, s.key
                assert s.dice * s.fire / 6 <= 2 / 3 * s.level + 1e-9, s.key
            if s.effect == "heal":
                assert 1 <= s.steps <= s.level, s.key
            if s.effect == "teleport":
                assert s.range >= 1, s.key


@pytest.mark.parametrize("scenario,army,name,rating,copies,steps", NAMED)
def test_wizard_kings_7_1_7_2_the_scenario_blocks_exist_with_their_ratings(
        scenario, army, name, rating, copies, steps):
    """7.1 (LA INSULO DE LA MORTO) and 7.2 (BARBARA ATAKO) print their blocks as "Bloko, Batalo,
    Paŝoj", e.g. "Skeleton (Bethi) C2 2", "Pixie (Logyn) B1 3", "Viking B2 3"; each must be a
    block of its army with that rating, enough copies, and room for its starting steps."""
    kinds = [k for k in content.armies()[army].kinds if k.name == name]
    assert len(kinds) == 1, (scenario, army, name)
    kind = kinds[0]
    assert kind.rating == rating
    assert kind.count >= copies
    assert kind.max >= steps


def test_wizard_kings_7_1_the_elves_have_exactly_their_scenario_blocks_and_a_castle():
    """7.1: "Elfoj povas konstrui du kromajn Gladers kaj unu Castle en amika urbo." The Elves of
    7.1 (Wicana, Ranger, two Pixies, a Glader) with two more Gladers and a Castle are eight."""
    elves = content.armies()["elves"]
    assert {(k.name, k.count) for k in elves.kinds} == {
        ("Wicana", 1), ("Ranger", 1), ("Pixie", 2), ("Glader", 3), ("Castle", 1)}


def test_wizard_kings_7_2_the_amazons_are_exactly_their_scenario_blocks():
    """7.2: "Situigu ĉiujn amazonajn blokojn je iliaj difinitaj fortoj": Charmer, three Amazons
    (one of 4 steps), two Guardians, a Bowlyn and the Castle are the whole army of eight."""
    amazons = content.armies()["amazons"]
    assert {(k.name, k.count) for k in amazons.kinds} == {
        ("Charmer", 1), ("Amazon", 3), ("Guardian", 2), ("Bowlyn", 1), ("Castle", 1)}


def test_wizard_kings_7_1_7_2_undead_and_barbarians_add_a_wizard_and_a_castle():
    """7.1 lists no Undead wizard and 7.2 no Barbarian castle, but 2.0 gives every army both
    ("Ĉiuj inkludas magiiston ... kaj kastelon"); 7.2's Cleric is a cleric (2.36: "Klerikoj
    povas normale lukti ... aŭ povas uzi riton") and its Vikings, set "sur la marborda
    heksagono", are ships (2.37: "Akvanoj estas marestaĵoj aŭ ŝipoj")."""
    undead = content.armies()["undead"]
    assert {k.name: k.count for k in undead.kinds}.keys() >= {"Castle", "Skeleton", "Zombie"}
    assert sum(k.count for k in undead.kinds if k.name not in ("Castle", "Skeleton", "Zombie")
               and not k.wizard) == 1
    barbarians = {k.name: k for k in content.armies()["barbarians"].kinds}
    assert any(k.castle and k.rating == "C4" for k in barbarians.values())
    assert "cleric" in barbarians["Cleric"].traits
    assert "water" in barbarians["Viking"].traits


def test_wizard_kings_7_4_every_army_has_the_roles_of_the_alliance_scenario():
    """7.4: "ĈIU ARMEO: Magiisto (A+) 4, Kastelo (kosto 2) 2, Soldataĉaro (kosto 1) 4, Meza
    soldataro (kosto 2) 3, Elita soldataro (kosto 4) 3"; 7.3 adds "Kastelo (C4) 4"."""
    for army in content.armies().values():
        assert any(k.cost == 1 and k.max == 4 for k in field(army)), army.key
        assert any(k.cost == 2 and k.max >= 3 for k in field(army)), army.key
        assert any(k.cost == 4 and k.max >= 3 for k in field(army)), army.key
        assert any(k.castle and k.rating == "C4" and k.max == 4 and k.cost == 2
                   for k in army.kinds), army.key


@pytest.mark.parametrize("army", ["orcs", "feudals"])
def test_wizard_kings_7_3_orcs_and_feudals_field_the_last_wizard_standing_lists(army):
    """7.3: "Elektu armeon orkan aŭ feŭdan"; "ĈIU ARMEO: Magiisto (A+) 4, Soldataĉaro (kosto 1)
    4 [thrice], Meza soldataro (kosto 2) 3 [twice], Elita soldataro (kosto 4) 3, Kastelo (C4)
    4"."""
    a = content.armies()[army]
    assert sum(k.count for k in field(a) if k.cost == 1 and k.max == 4) >= 3
    assert sum(k.count for k in field(a) if k.cost == 2 and k.max >= 3) >= 2
    assert sum(k.count for k in field(a) if k.cost == 4 and k.max >= 3) >= 1
    assert any(k.castle and k.rating == "C4" and k.max == 4 for k in a.kinds)


def test_wizard_kings_2_0_the_armies_are_roughly_equal():
    """2.0: "Armeoj konsistigantaj la bazan ludon estas proksimume egalvaloraj laŭ ties forto":
    the full cost of every army (each step of every block, 1.22, 2.14) is within 10 % of the
    others'."""
    costs = {k: full_cost(a) for k, a in content.armies().items()}
    assert max(costs.values()) <= 1.1 * min(costs.values()), costs
    assert min(costs.values()) > 50, costs                    # 1.22's 50 gp must choose


# -- the loader refuses broken files ----------------------------------------------------------

def test_wizard_kings_2_0_a_ninth_block_is_refused(tmp_path):
    """2.0: "Ĉiu armeo konsistas el 8 blokoj." A ninth Zombie breaks the Undead."""
    load = broken(tmp_path, lambda d: block(d, "undead", "zombie").update(count=4))
    with pytest.raises(ContentError, match=r"army undead: 2.0 gives every army 8 blocks, not 9"):
        load()


def test_wizard_kings_2_2_a_wizard_without_a_plus_is_refused(tmp_path):
    """2.2: "La magiistaj blokoj estas markitaj per A+ aŭ B+"."""
    load = broken(tmp_path, lambda d: block(d, "elves", "wicana").update(rating="A2"))
    with pytest.raises(ContentError, match=r"army elves, block 'wicana': A\+/B\+ is the mark"):
        load()


def test_wizard_kings_2_4_a_castle_that_moves_is_refused(tmp_path):
    """2.4: "Ili povas moviĝi neniam." """
    load = broken(tmp_path, lambda d: block(d, "dwarves", "castle").update(move=1))
    with pytest.raises(ContentError, match=r"army dwarves, block 'castle': castles and havens, and only they"):
        load()


def test_wizard_kings_2_21_two_level_three_spells_are_refused(tmp_path):
    """2.21: "tri 1-nivelaj ekzorcoj, du 2-nivelaj ekzorcoj kaj unu 3-nivela ekzorco"."""
    def change(d):
        next(s for s in d["orcs"]["spells"] if s["level"] == 2).update(level=3)
    load = broken(tmp_path, change)
    with pytest.raises(ContentError, match=r"army orcs: 2.21 .* not levels \[1, 1, 1, 2, 3, 3\]"):
        load()


def test_wizard_kings_2_22_an_unknown_effect_is_refused(tmp_path):
    """2.22: a battle spell's effect reads like "ĵetu 4d6@F3"; the list knows strike, storm,
    heal, rout and teleport only."""
    def change(d):
        spell = d["feudals"]["spells"][0]
        spell.update(effect="curse")
    load = broken(tmp_path, change)
    with pytest.raises(ContentError, match=r"army feudals, spell 'fire_dart': effect must be"):
        load()


def test_wizard_kings_2_22_a_strike_without_dice_is_refused(tmp_path):
    """2.22: "ĵetu 2d6@F2 ... oni devus ruli 2d6 kaj kalkuli kiel sukcesojn 1 kaj 2": a strike
    names its dice."""
    def change(d):
        spell = next(s for s in d["undead"]["spells"] if s["effect"] == "strike")
        del spell["dice"]
    load = broken(tmp_path, change)
    with pytest.raises(ContentError, match=r"army undead, spell 'chill_touch': a strike spell "
                                           r"takes \['dice', 'fire'\]"):
        load()
