"""Content tests for the Heroes & Treasures expansion of Wizard Kings (data/extras.json): the
seven chaos blocks, the two expansion blocks of each army, the clerics' rites and the moon of the
lycanthropes, checked against the rulebook's clauses (2.0 with footnote 3, 2.36, 2.39, 2.5, 2.8,
5.34), and the loader's refusal of broken files. No Django needed."""
import copy
import json

import pytest

from games.wizard_kings import content
from games.wizard_kings.content import ContentError


def raw_file():
    return json.loads(content.EXTRAS_FILE.read_text(encoding="utf-8"))


def broken(tmp_path, change):
    """A copy of extras.json with ``change`` applied to its data, loaded by content.extras."""
    data = copy.deepcopy(raw_file())
    change(data)
    path = tmp_path / "extras.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return lambda: content.extras(str(path))


def expansion_kinds():
    return [k for kinds in content.extras().expansion.values() for k in kinds]


def all_kinds():
    """Every block kind: the seven armies', the expansion's and the chaos blocks."""
    base = [k for a in content.armies().values() for k in a.kinds]
    return base + expansion_kinds() + list(content.extras().chaos)


def test_wizard_kings_2_0_the_expansion_file_loads():
    """2.0: "Ene de la etendiĝo **Heroes & Treasures** estas haveblaj pliaj blokoj por la 7
    armeoj." The file exists and loads, and its blocks are found by key like any other."""
    assert content.EXTRAS_FILE.exists()
    more = content.extras()
    assert more.chaos and more.expansion and more.rites and more.moon
    for kind in expansion_kinds() + list(more.chaos):
        assert content.kind_of(kind.key) is kind
    for key in more.rites:
        assert content.spell_of(key) is more.rites[key]


def test_wizard_kings_2_0_footnote_3_seven_chaos_blocks_and_two_blocks_for_each_army():
    """2.0, footnote 3: "Ĉiu etendiĝo enhavas 21 hazarde elektitajn blokojn, el kiuj 14 estas
    normalaj (po 2 por ĉiu armeo) kaj 7 blokoj pri Ĥaoso, kiuj estas aldoneblaj al iu ajn
    bando." """
    more = content.extras()
    assert len(more.chaos) == 7
    assert all(k.count == 1 for k in more.chaos)
    assert sorted(more.expansion) == sorted(content.army_keys())
    for army, kinds in more.expansion.items():
        assert sum(k.count for k in kinds) == 2, army
        assert all(k.army == army for k in kinds), army
    assert sum(k.count for k in expansion_kinds()) + len(more.chaos) == 21
    assert len({k.key for k in all_kinds()}) == len(all_kinds())


def test_wizard_kings_2_5_chaos_blocks_may_go_berserk_and_lycanthropes_are_chaos_too():
    """2.5: "HĀosa estaĵo povas ataki normale laŭ sia batalmontrilo, aŭ iĝi **Frenezulo**" ...
    "Likanthropoj (bestohomoj, flava bordo) estas ankaŭ hĀosaj estaĵoj. Ili povas iĝi
    **Frenezuloj** kaj krome, ili estas influitaj de la lunfazoj." Every chaos block has the
    chaos trait and a hit number to double (no wizard); some are lycanthropes; no block outside
    the seven is chaos or a lycanthrope."""
    chaos = content.extras().chaos
    for kind in chaos:
        assert "chaos" in kind.traits and not kind.wizard and kind.fire >= 1, kind.key
    assert 1 <= sum("lycanthrope" in k.traits for k in chaos) < 7
    others = [k for k in all_kinds() if k.army != "chaos"]
    assert not any(k.traits & {"chaos", "lycanthrope"} for k in others)


def test_wizard_kings_2_8_every_hero_has_one_step():
    """2.8: "La heroaj blokoj posedas nur unu paŝon (do, ili havas neniom da punktoj borde)."
    The expansion has heroes, and each has at most one step; none is a wizard."""
    heroes = [k for k in all_kinds() if "hero" in k.traits]
    assert len(heroes) >= 2
    for kind in heroes:
        assert kind.max == 1 and not kind.wizard and kind.move >= 1, kind.key


def test_wizard_kings_2_39_every_haven_is_d3_and_never_moves():
    """2.39: "La etendiĝo **Heroes & Treasures** enhavas **havenajn** blokojn (*Haven*). Tiuj
    apudmaraj urboj havantaj havenan blokon (kiu povas lukti laŭ batalmontrilo D3) ĝuas +1 je
    iliaj transportaj kapabloj (vidu 4.81)." A haven is a normal expansion block, rated D3, and
    stays in its port (move 0, like a castle, 2.4)."""
    havens = [k for k in all_kinds() if "haven" in k.traits]
    assert len(havens) >= 1
    for kind in havens:
        assert kind.rating == "D3" and kind.move == 0, kind.key
        assert kind.army in content.army_keys(), kind.key
    assert all(k.letter != "D" for k in all_kinds() if "haven" not in k.traits)


def test_wizard_kings_2_36_every_cleric_names_rites_of_the_list():
    """2.36: "Klerikoj povas normale lukti (laŭ ties batalmontrilo) **aŭ** povas uzi riton.
    Klerikoj malfortiĝas je 1 uzinte riton. Vidu ritoliston por klerikoj." Every cleric, the
    Barbarians' of armies.json and the expansion's, knows two or three rites of the list, and
    the expansion adds at least one cleric."""
    rites = content.extras().rites
    clerics = [k for k in all_kinds() if "cleric" in k.traits]
    assert "barbarians/cleric" in {k.key for k in clerics}
    assert any(k.key != "barbarians/cleric" for k in clerics)
    for kind in clerics:
        assert 2 <= len(kind.rites) <= 3 and len(set(kind.rites)) == len(kind.rites), kind.key
        assert all(r.startswith("rite/") and r in rites for r in kind.rites), kind.key
        assert kind.fire >= 1, kind.key                        # "normale lukti"
    assert all(not k.rites for k in all_kinds() if "cleric" not in k.traits)
    assert {r for k in clerics for r in k.rites} == set(rites)  # no rite without a cleric


def test_wizard_kings_2_36_5_34_rites_are_modest_battle_acts():
    """2.36: a cleric "povas normale lukti ... **aŭ** povas uzi riton" (a rite takes its combat
    turn, so it is a battle act) and "malfortiĝas je 1 uzinte riton"; 5.34: "Tiu ĉi limigo
    [neniam forigi la lastan paŝon] estas aplikenda ankaŭ al ... la klerikaj ritoj". The list
    has 4-8 rites: strike, storm, heal or rout, of the battle phase, worth no more than a
    level-1 spell (2/3 of a hit, or one step healed) for the step they cost."""
    rites = content.extras().rites
    assert 4 <= len(rites) <= 8
    for key, rite in rites.items():
        assert key.startswith("rite/") and rite.army == "rite", key
        assert rite.effect in ("strike", "storm", "heal", "rout"), key
        assert rite.phase == "battle" and rite.level == 1, key
        if rite.effect in ("strike", "storm"):
            assert rite.dice >= 1 and 1 <= rite.fire <= 6, key
            assert rite.dice * rite.fire / 6 <= 2 / 3 + 1e-9, key
        if rite.effect == "heal":
            assert rite.steps == 1, key


def test_wizard_kings_2_5_the_moon_has_a_cycle_and_changes_only_its_own_phases():
    """2.5: lycanthropes "estas influitaj de la lunfazoj". The moon is a cycle of distinct
    phases, one a turn; its changes to a lycanthrope's hit number name phases of that cycle,
    are at most one either way and cancel out over the cycle, so lycanthropes are priced at
    their printed rating."""
    more = content.extras()
    assert len(more.moon) >= 2 and len(set(more.moon)) == len(more.moon)
    assert set(more.moon_fire) <= set(more.moon)
    assert any(more.moon_fire.values())
    assert all(isinstance(v, int) and abs(v) <= 1 for v in more.moon_fire.values())
    assert sum(more.moon_fire.values()) == 0


def test_wizard_kings_2_0_every_army_gets_expansion_blocks_of_equal_worth():
    """2.0: the armies "estas proksimume egalvaloraj laŭ ties forto"; the expansion keeps them
    so: each army's two blocks cost the same at full strength (every step, 1.22, 2.14)."""
    costs = {army: sum(k.max * k.cost * k.count for k in kinds)
             for army, kinds in content.extras().expansion.items()}
    assert len(set(costs.values())) == 1, costs


# -- the loader refuses broken files ----------------------------------------------------------

def test_wizard_kings_footnote_3_six_chaos_blocks_are_refused(tmp_path):
    """2.0, footnote 3: "... kaj 7 blokoj pri Ĥaoso". A file with six is refused."""
    load = broken(tmp_path, lambda d: d["chaos"].pop())
    with pytest.raises(ContentError, match=r"footnote 3: seven chaos blocks, not 6"):
        load()


def test_wizard_kings_2_8_a_hero_with_two_steps_is_refused(tmp_path):
    """2.8: "La heroaj blokoj posedas nur unu paŝon"."""
    def change(d):
        hero = next(b for b in d["expansion"]["amazons"] if "hero" in b["traits"])
        hero.update(max=2)
    load = broken(tmp_path, change)
    with pytest.raises(ContentError, match=r"army amazons, block 'queen': a hero has one step "
                                           r"\(2\.8\)"):
        load()


def test_wizard_kings_2_36_a_rite_that_teleports_is_refused(tmp_path):
    """2.36: a cleric "povas normale lukti ... **aŭ** povas uzi riton": a rite replaces the
    cleric's combat turn, so it is a battle act and never a move-phase teleport."""
    def change(d):
        d["rites"].append({"key": "blink", "name": "Blink", "effect": "teleport", "range": 2,
                           "why": "broken"})
    load = broken(tmp_path, change)
    with pytest.raises(ContentError, match=r"spell 'blink': teleport is a move-phase spell"):
        load()


def test_wizard_kings_2_5_a_chaos_block_without_the_chaos_trait_is_refused(tmp_path):
    """2.5: "HĀosaj blokoj havas etiketojn kun bordoj malhele brunaj": a block of the chaos
    seven must carry the chaos trait (and so may go berserk)."""
    def change(d):
        minotaur = next(b for b in d["chaos"] if b["kind"] == "minotaur")
        minotaur["traits"] = [t for t in minotaur["traits"] if t != "chaos"]
    load = broken(tmp_path, change)
    with pytest.raises(ContentError, match=r"chaos block chaos/minotaur: one copy, trait chaos"):
        load()
