"""Warlock version 3 (issue 38, "rules to the letter"): the rules version 2 did not follow,
each as the rulebook says it, each with the option that keeps version 2's reading, and the
version 2 edition that folds version 2's logs as they were written. Helpers and conventions as
in tests/games/test_warlock.py (seat s+1 sits to the left of seat s)."""
import json
from pathlib import Path

from games.engine import registry
from games.engine.log import Folder, LogError, canonical_json
from games.engine.protocol import Event, ToAct
from games.warlock import combat
from games.warlock.editions import V2_RULES, WARLOCK_V2

from .test_warlock import (FILLER, THREE, R, act, acts, attack, c, cut, defend, position, task,
                           threat, walk, walking_giant)

DATA = Path(__file__).resolve().parent / "data"


# -- 8.5: the laid spell against a wandering creature -----------------------------------------

def goblins_at_thulsa(options=None):
    """Quorm (white, seat 0) sends Goblins at Thulsa (black, seat 1), who lays Crows at Quorm;
    Anvar (seat 2) learns. The Goblins wander and reach Thulsa, whose hand holds nothing
    against them."""
    hands = [[c("goblins")], [c("crows"), c("wings")], [c("wings", 2), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1), options=options)
    state = cut(state, high=True)   # Quorm's cut: the Goblins wander
    return cut(state, high=True)    # Thulsa's cut: he is attacked


def test_warlock_8_5_the_laid_spell_may_defend_against_a_wandering_creature():
    """8.5: "Jeder betroffene Zauberer muß jetzt das Zauberbuch einmal abheben. Erscheint dabei
    erneut eine Zahl größer oder gleich 10, wird er angegriffen und muß sich gegen das Wesen
    verteidigen. Dabei kann er auch seinen bereits verdeckt auf dem Tisch liegenden Zauberspruch
    verwenden." (Each wizard met cuts; on 10 or more he is attacked and must defend; he may also
    use the spell he has already laid face down on the table.) Thulsa's Crows (black: 5) repel
    Quorm's Goblins (white: 3, 5.2.4). D28: the Crows leave the duel they were laid for (Quorm is
    not attacked by them), nothing is paid again (4.1.6), the card is replaced (8.5.1); 5.5: it
    is his only defence, so he must use it. Without the rule he is banished and Quorm earns 30."""
    state = goblins_at_thulsa()
    assert task(state) == "ward" and R.next(state) == ToAct((1,))
    assert R.legal_actions(state, 1) == [defend(c("crows"))]
    top = state["deck"][0]
    state = act(state, 1, defend(c("crows")))
    assert state["role"][1] == "duel" and state["energy"] == [199 - 4, 199 - 5, 199 - 3]
    assert top in state["hands"][1] and c("crows") in state["discard"]
    assert {"round": 1, "segment": 1, "event": "ward", "seat": 1, "spells": ["crows"],
            "laid": True} in state["log"]
    assert walk(state) is None  # 8.5.1: repelled, the Goblins go back to their place in the duel
    assert [(t["cards"], t["target"]) for t in state["threats"]] == [([c("goblins")], 1)]
    assert (state["segment"], task(state)) == (2, "learn")  # no meeting: the Crows are spent
    state = act(state, 2, R.legal_actions(state, 2)[-1])
    # segment 2: the Goblins, a normal attack again, reach Thulsa; nothing reaches Quorm
    assert {(e["seat"], e["threat"]) for e in state["log"] if e["segment"] == 2
            and e["event"] in ("defence", "undefended")} == {(1, 1)}


def test_warlock_8_5_option_laid_spell_ward_false_is_version_2():
    """Option ``laid_spell_ward=false`` (version 2): only the hand defends against a creature;
    Thulsa cannot, so he is banished at once (4.1.2) and Quorm earns 30 (8.5.4)."""
    state = goblins_at_thulsa({"laid_spell_ward": False})
    assert state["role"][1] == "limbo" and state["energy"][0] == 199 - 4 + 30


def test_warlock_8_5_D28_no_laid_spell_in_a_defence_segment_nor_a_creature_on_its_way():
    """D28: the laid spell is the one laid in this attack segment; a wizard whose own spell is a
    creature still walking cannot use it (it is on its way), and in a defence segment, where a
    creature cast as a defence walks after the wave's other defences took effect, nothing is
    laid face down: only spells on their way are on the table."""
    hands = [[c("goblins")], [c("goblins", 2), c("wings")], [c("wings", 2), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1))
    state = cut(state, high=True)   # Quorm's Goblins wander
    assert any(t["kind"] == "walk" for t in state["tasks"])  # Thulsa's Goblins still to cut
    state = cut(state, high=True)   # Thulsa attacked: no defence, so banished at once (4.1.2)
    assert state["role"][1] == "limbo" and state["energy"][0] == 199 - 4 + 30
    # segment 2: Quorm's Crows and Anvar's White Knight fly at Thulsa (the Knight waits for the
    # next wave, D23); Thulsa answers the Crows with Trolls (6 against 4), which walk first
    crows = threat([c("crows")], 0, 1, "white")
    knight = threat([c("white-knight")], 2, 1, "white", points=4)
    state = position(THREE, [[c("wings")], [c("trolls"), c("dwarves")], [c("wings", 2)]],
                     threats=[crows, knight], segment=1)
    state = act(state, 1, defend(c("trolls")))
    state = cut(state, high=True)   # the Trolls wander
    state = cut(state, high=True)   # Anvar attacked: his Knight (AW against Trolls) is on the
    assert state["role"][2] == "limbo"  # table, but not laid this segment: banished at once


def test_warlock_8_5_the_heuristic_bot_defends_with_its_laid_spell_when_it_is_cheapest():
    """The built-in heuristic bot weighs the laid spell (8.5) at what it cost: the laid Crows
    (5) before a Swordsman from the hand (6), an Anti-Hero from the hand (4) before the Crows."""
    from games.warlock.bots import HeuristicBot

    for spare, choice in (("swordsman", c("crows")), ("anti-hero", c("anti-hero"))):
        hands = [[c("goblins")], [c("crows"), c(spare)], [c("wings", 2), FILLER[0]]]
        state = walking_giant(hands, circle=(0, 1))
        state = cut(cut(state, high=True), high=True)
        legal = R.legal_actions(state, 1)
        assert {tuple(a["cards"]) for a in legal} == {(c("crows"),), (c(spare),)}
        answer = HeuristicBot(R, 1).act({"type": "act", "seat": 1, "view": R.view(state, 1),
                                         "legal_actions": legal})
        assert answer == defend(choice)


# -- 3.3.1, 3.3.2, 4.7: the balance segment (D26) ------------------------------------------------

def test_warlock_3_3_1_D26_learners_swap_in_the_balance_segment_too():
    """3.3.1: "Sie müssen pro Duell-Segment (3.3.2.) eine Karte aus ihrer Hand ablegen und dafür
    eine neue vom Stapel ziehen" (one card per duel segment); 3.3.2: "Das Duell ist in sieben
    Segmente gegliedert: ... Segment 7: Bilanz"; 4.7: "in jedem Duellsegment". D26: the balance is
    the seventh duel segment, so learners swap in it too, before its reckoning (3 energy)."""
    state = position(THREE, [[c("crows")], [c("dwarves")], [c("wings"), c("shield")]],
                     circle=[0, 1], segment=6)
    assert (state["segment"], task(state), R.next(state)) == (7, "learn", ToAct((2,)))
    state = act(state, 2, {"type": "swap", "card": c("wings")})
    assert state["round"] == 2 and state["energy"][2] == 196
    assert {"round": 1, "segment": 7, "event": "learned", "seat": 2, "discarded": "wings"} in \
        state["log"]


def test_warlock_3_3_1_D26_option_learn_in_balance_false_is_version_2():
    """Option ``learn_in_balance=false`` (version 2): learners swap in segments 1-6 only."""
    state = position(THREE, [[c("crows")], [c("dwarves")], [c("wings"), c("shield")]],
                     circle=[0, 1], segment=6, options={"learn_in_balance": False})
    assert state["round"] == 2 and state["energy"][2] == 199


# -- 4.8.2 "(siehe aber: 8.5.6.)" (D27) -----------------------------------------------------------

def giant_banishes_thulsa(options=None):
    """Quorm's Giant (seat 0) walks in segment 1 and banishes Thulsa (seat 1), who has nothing
    against it; Anvar (seat 2) stays in the duel, Mephisto (seat 3) learns. Segment 2: Quorm
    and Anvar defend; segment 3: nobody can attack, so the duel ends and the balance follows."""
    hands = [[c("giant"), c("siren-song")], [c("crows"), FILLER[2]], [c("dwarves"), c("wings")],
             [c("wings", 2), FILLER[0], FILLER[1]]]
    state = walking_giant(hands, circle=(0, 1, 2), wizards=THREE + ["mephisto"], options=options)
    state = cut(state, high=True)
    state = cut(state, high=True)   # Thulsa: banished by the creature
    assert state["role"][1] == "limbo" and state["creature_banished"][1]
    for _ in range(3):
        state = cut(state, high=False)
    assert walk(state) is None
    return state


def play_on(state, limit=40):
    """Every seat takes its first legal action until the round ends; the decisions met."""
    met = []
    while state["round"] == 1 and limit:
        limit -= 1
        met.append((state["segment"], task(state), R.next(state).seats))
        for seat in R.next(state).seats:
            state = act(state, seat, R.legal_actions(state, seat)[0])
    return state, met


def test_warlock_4_8_2_D27_a_wizard_a_creature_banished_returns_only_at_the_balance():
    """4.8.2: "Ein Spieler, der während eines Angriffs- oder Verteidigungssegments in den Limbo
    verbannt wurde, kann in einem beliebigen darauffolgenden Segment von dort zurückkehren,
    vorausgesetzt, er kann dafür 30 Energiepunkte aufbringen (siehe aber: 8.5.6.)." 8.5.6: "Ein
    Zauberer, der von dem wandernden Wesen in den Limbo geschickt wurde, scheidet aus dem
    laufenden Duell aus." D27: the "but" is the exception: banished by a wandering creature, he
    may not return during the duel; he returns at the balance (3.3.5, 4.8.3), paying 30."""
    state, met = play_on(giant_banishes_thulsa())
    assert not [m for m in met if m[1] == "return"]
    assert [m[0] for m in met if m[1] == "learn" and m[2] == (1,)] == []  # he never learned
    assert state["round"] == 2 and state["role"][1] is None and state["energy"][1] == 199 - 5 - 30
    assert {"round": 1, "segment": 7, "event": "returned", "seat": 1} in state["log"]
    assert R.view(state, None)["flow"]["creature_banished"] == [False] * 4  # a new round


def test_warlock_4_8_2_D27_option_creature_limbo_until_balance_false_is_version_2():
    """Option ``creature_limbo_until_balance=false`` (version 2): he may return in the next
    segment like any banished wizard, and then learns (4.8.3)."""
    state, met = play_on(giant_banishes_thulsa({"creature_limbo_until_balance": False}))
    assert met[0] == (2, "return", (1,)) and (2, "learn", (1,)) in met


# -- 5.2.2 with two-card spells ------------------------------------------------------------------

def test_warlock_5_2_2_an_identical_two_card_spell_reflects_both():
    """5.2.2: "Zur Verteidigung kann ein dem Angriffszauber identischer Zauberspruch ausgespielt
    werden. Beide Zaubersprüche werden dann auf ihre Urheber reflektiert"; 8.1.2: wielder and
    weapon "werden dann gemeinsam als ein Zauberspruch ausgespielt"; 8.4: the Priest with the
    Holy Staff likewise. So an identical pair reflects (R†): a Black Knight with a Black Sword
    against the same pair (version 2: only repelled by value), Priest and Staff against Priest
    and Staff (version 2: no defence at all). An armed wizard is still fought by value only
    (5.4), a wielder with another weapon is no identical spell."""
    knight = threat([c("black-knight"), c("black-sword")], 0, 1, "black")
    priest = threat([c("priest"), c("holy-staff")], 0, 1, "white")
    armed = threat([c("black-sword")], 0, 1, "black", points=3)
    assert combat.result(knight, [c("black-knight", 2), c("black-sword", 2)], "black", 3) == "R†"
    assert combat.result(priest, [c("priest", 2), c("holy-staff", 2)], "white", 3) == "R†"
    assert combat.result(knight, [c("black-knight", 2), c("golden-sword")], "black", 3) is None
    assert combat.result(armed, [c("black-sword", 2)], "black", 3) == "A"  # 4 + 3 >= 4 + 3
    assert combat.result(knight, [c("black-knight", 2), c("black-sword", 2)], "black", 3,
                         pairs=False) == "A"
    assert combat.result(priest, [c("priest", 2), c("holy-staff", 2)], "white", 3,
                         pairs=False) is None


def test_warlock_5_2_2_identical_priest_and_staff_fly_back_in_a_defence_segment():
    """5.2.2 in play (R†, D2): Morcus defends against Anvar's Priest and Staff with his own; both
    spells fly back to their casters, who must now defend against them. Option
    ``identical_pairs_reflect=false`` (version 2): Morcus has no defence and is banished."""
    flying = threat([c("priest"), c("holy-staff")], 1, 0, "white", points=4)
    hands = [[c("priest", 2), c("holy-staff", 2), c("mirror")], [c("wings"), c("mirror", 2)]]
    state = position(["morcus", "anvar"], hands, threats=[flying], segment=1)
    assert R.legal_actions(state, 0) == [defend(c("mirror")),
                                         defend(c("priest", 2), c("holy-staff", 2))]
    state = act(state, 0, defend(c("priest", 2), c("holy-staff", 2)))
    assert state["energy"][0] == 199 - 9
    assert {(tuple(t["cards"]), t["target"]) for t in state["threats"]} | {
        (tuple(t["cards"]), t["target"]) for t in
        R.view(state, None)["decision"]["threats"].values()} >= {
        ((c("priest"), c("holy-staff")), 1), ((c("priest", 2), c("holy-staff", 2)), 0)}
    old = position(["morcus", "anvar"], [hands[0][:2], hands[1]], threats=[flying], segment=1,
                   options={"identical_pairs_reflect": False})
    assert {"round": 1, "segment": 2, "event": "undefended", "seat": 0, "threat": 101} in old["log"]


# -- D8, 4.6: identical spells meeting in a duel of two ------------------------------------------

def test_warlock_D8_4_6_identical_spells_of_equal_value_cancel_in_a_duel_of_two():
    """4.6: "Thulsa hat »Krähen« gezaubert (Kampfwert 5), während Quorm sich für »Zwerge«
    entschieden hat (Kampfwert 5). Beide Zauber wirken aufeinander, da sie den gleichen
    Kampfwert haben (siehe 4.2.) und heben einander deshalb auf." (Equal combat values act on
    each other and cancel.) D8: identical physical spells meet by combat value too: Thulsa's and
    Mephisto's Crows (both black: 5) cancel and an attack segment follows; Thulsa's black Crows
    (5) against Quorm's white Crows (4): only Thulsa's acts on the other, so he chooses (4.2.1).
    Option ``meet_identical="pass"`` (version 2): they pass and a defence segment follows."""
    hands = [[c("crows"), c("wings")], [c("crows", 2), c("wings", 2)]]
    state = position(["thulsa", "mephisto"], hands)
    state = acts(state, (0, attack(c("crows"))), (1, attack(c("crows", 2))))
    assert state["threats"] == [] and {c("crows"), c("crows", 2)} <= set(state["discard"])
    assert (state["segment"], task(state)) == (2, "attack")  # 4.6: "Es folgt wieder ein Angriffssegment"
    state = position(["thulsa", "quorm"], hands)
    state = acts(state, (0, attack(c("crows"))), (1, attack(c("crows", 2))))
    assert task(state) == "influence" and R.next(state) == ToAct((0,))
    state = position(["thulsa", "mephisto"], hands, options={"meet_identical": "pass"})
    state = acts(state, (0, attack(c("crows"))), (1, attack(c("crows", 2))))
    assert (state["segment"], task(state)) == (2, "defend")


# -- versions ------------------------------------------------------------------------------------

def v2_logs():
    return [json.loads(line) for line in (DATA / "warlock-v2-golden.jsonl").read_text().splitlines()]


def test_version_2_logs_fold_to_their_version_2_snapshots_by_the_edition():
    """docs/event-log.md, "Versions": a match keeps the rules it was played by. The 5 golden logs
    of tests/games/data/warlock-v2-golden.jsonl (2-6 seats, random and heuristic bots) were played
    by version 2's code, which wrote the hashes of every state it folded (checked with every
    golden file by tests/games/test_editions.py). Here: they fold by ``Warlock.edition(2)``, whose
    states have version 2's shape (no ``creature_banished``, none of version 3's five options),
    a version 2 snapshot decodes and encodes as it was, and the edition plays version 2's rules:
    version 3's code with those options fixed (``V2_RULES``)."""
    assert R.spec.version == 3 and R.edition(2) is WARLOCK_V2
    logs = v2_logs()
    assert len(logs) == 5
    for records in logs:
        folder = Folder(records[0], get_ruleset=registry.get)
        assert folder.ruleset is WARLOCK_V2 and folder.ruleset.spec.version == 2
        assert {k: folder.state["options"][k] for k in V2_RULES} == V2_RULES
        for record in records[1:-1]:
            folder.advance(record)
            text = canonical_json(WARLOCK_V2.encode(folder.state))
            data = json.loads(text)
            assert "creature_banished" not in data and not set(V2_RULES) & set(data["options"])
            assert canonical_json(WARLOCK_V2.encode(WARLOCK_V2.decode(data))) == text
        assert folder.ruleset.next(folder.state).result.to_json() == \
            records[-1]["payload"]["result"]


def test_version_2_logs_do_not_fold_by_the_version_3_rules():
    """The edition matters: each of version 3's rules, alone, refuses a move some version 2 log
    made (the logs were chosen so): played on by version 3's rules the logs break."""
    for rule in V2_RULES:
        broken = 0
        for records in v2_logs():
            options = dict(records[0]["payload"]["options"],
                           **{k: v for k, v in V2_RULES.items() if k != rule})
            created = dict(records[0], payload=dict(records[0]["payload"], version=3,
                                                    options=options))
            folder = Folder(created, get_ruleset=registry.get)
            assert folder.ruleset.spec.version == 3
            try:
                for record in records[1:-1]:
                    folder.step(record)
            except LogError:
                broken += 1
        assert broken, rule


def test_version_3_states_keep_the_new_options_and_creature_banished():
    """Version 3's own states carry the five options (with the book's defaults) and
    ``creature_banished``; the public view shows both."""
    state = R.setup(3, R.options({}))
    assert {k: state["options"][k] for k in V2_RULES} == {
        "laid_spell_ward": True, "learn_in_balance": True, "creature_limbo_until_balance": True,
        "identical_pairs_reflect": True, "meet_identical": "value"}
    assert state["creature_banished"] == [False] * 3
    view = R.view(R.apply(state, Event.chance({"kind": "dice", "count": 1, "sides": 6}, [1])), None)
    assert view["flow"]["creature_banished"] == [False] * 3 and view["options"]["learn_in_balance"]
