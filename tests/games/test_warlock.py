"""Rule tests for Warlock, one per numbered section of the rulebook or decision of
docs/rules/warlock.md, named ``test_warlock_<section>_...``.

Positions are built directly (``position``): the wizards by seat, their hands, the circle of
duellists, and the task the match stands at; ``rules.run`` then carries out what is automatic.
Seats sit clockwise: seat s+1 is to the left of seat s. Card ids are ``WL-<spell>-<copy>``.
"""
import json
import random

import pytest

from games.engine.bots import RandomBot
from games.engine.log import canonical_json
from games.engine.protocol import Chance, Ended, Event, IllegalAction, ToAct
from games.engine.runner import playout
from games.warlock import SPEC, Warlock, combat, rules
from games.warlock.bots import HeuristicBot
from games.warlock.core import clone, leave, reward, take, victim_of
from games.warlock.content import (CARD_IDS, MAGIC_TABLE, PHYSICAL_TABLE, SPELLS, WIZARD,
                                   WIZARDS, kind)

R = Warlock()


def c(key, copy=1):
    """A card id."""
    return f"WL-{key}-{copy}"


def position(wizards, hands, *, circle=None, energy=None, roles=None, dm=None, threats=(),
             segment=0, tasks=None, options=None, deck=None, exhausted=None, round=1):
    """A round under way: wizards by seat (names), hands by seat, the circle of duellists (default
    all seats in seat order) standing before segment ``segment + 1`` (or at ``tasks``)."""
    players = len(wizards)
    state = R.setup(players, R.options(options or {}))
    circle = list(range(players)) if circle is None else list(circle)
    used = {card for hand in hands for card in hand}
    state.update(
        wizard=list(wizards), hands=[list(h) for h in hands], round=round, segment=segment,
        deck=list(deck) if deck is not None else [x for x in CARD_IDS if x not in used],
        energy=list(energy or [199] * players), phase="play",
        role=list(roles or ["duel" if s in circle else "learn" for s in range(players)]),
        circle=circle, dm=circle[0] if dm is None and circle else (dm or 0),
        next_dm=circle[-1] if circle else None, threats=[dict(t) for t in threats],
        exhausted=list(exhausted or [False] * players),
        tasks=list(tasks) if tasks is not None else [{"kind": "segment"}])
    rules.run(state)
    return state


def threat(cards, caster, target, colour, points=3, **extra):
    """An attack in flight, as reveal_attacks makes it."""
    return {"id": 100 + caster, "cards": list(cards), "caster": caster, "colour": colour,
            "points": points, "sender": caster, "target": target, "no_bonus": False,
            "walking": False, **extra}


def act(state, seat, action):
    return R.apply(state, Event.action(seat, action))


def acts(state, *moves):
    for seat, action in moves:
        state = act(state, seat, action)
    return state


def attack(*cards):
    return {"type": "attack", "cards": list(cards)}


def defend(*cards):
    return {"type": "defend", "cards": list(cards)}


def task(state):
    return state["tasks"][0]["kind"] if state["tasks"] else None


def refusal(state, seat, action):
    with pytest.raises(IllegalAction) as caught:
        R.check_action(state, seat, action)
    return caught.value.reason


def cut(state, high):
    """Answer the due cut with a card reading 10 or more (``high``) or less."""
    spec = R.next(state).spec
    assert spec["kind"] == "dice"
    source = state["deck"] or state["discard"]
    k = next(i for i, card in enumerate(source, 1) if (kind(card).number >= 10) == high)
    return R.apply(state, Event.chance(spec, [k]))


def walk(state):
    """The creature walking now (the top of the stack), or None."""
    return state["walks"][-1] if state["walks"] else None


def text(view):
    return canonical_json(view)


FILLER = [c("holy-staff", 1), c("holy-staff", 2), c("holy-staff", 3)]  # useless alone (8.4.1)


# -- the game type and content -------------------------------------------------------------

def test_warlock_1_spec_two_to_six_wizards_simultaneous_hidden_chance():
    """1: "Warlock ist ein Spiel für 2-6 Personen"."""
    assert (SPEC.name, SPEC.version, SPEC.min_players, SPEC.max_players) == ("warlock", 3, 2, 6)
    assert SPEC.chance and SPEC.hidden_information and SPEC.simultaneous
    for players in (1, 7):
        with pytest.raises(Exception):
            R.setup(players, R.options({}))
    assert set(R.builtin_bots()) == {"random", "heuristic"}


def test_warlock_2_content_128_spells_six_wizard_cards_distinct_ids():
    """2: "6 Zauberer-Karten, 128 Zauberspruch-Karten"; ids never inside another id."""
    assert len(CARD_IDS) == 128 == sum(s.count for s in SPELLS)
    assert len(set(CARD_IDS)) == 128
    assert not [(a, b) for a in CARD_IDS for b in CARD_IDS if a != b and f'"{a}"' in f'"{b}"']
    assert sorted(w.colour for w in WIZARDS) == ["black"] * 3 + ["white"] * 3
    assert sum(w.points for w in WIZARDS if w.colour == "white") == sum(
        w.points for w in WIZARDS if w.colour == "black")


def test_warlock_2_setup_wizard_cards_deal_seven_and_199_energy():
    """2: each draws a wizard card face down, seven spells each, the rest is the spell book;
    "Zu Beginn des Spiels besitzt jeder Zauberer 199 EP"; the player left of the dealer (D15:
    seat 0) is the first duel master."""
    state = R.setup(3, R.options({}))
    for sides in (6, 5, 4):
        assert R.next(state) == Chance({"kind": "dice", "count": 1, "sides": sides})
        state = R.apply(state, Event.chance(R.next(state).spec, [1]))
    assert state["wizard"] == ["quorm", "morcus", "anvar"]
    assert R.next(state) == Chance({"kind": "shuffle", "n": 128})
    state = R.apply(state, Event.chance({"kind": "shuffle", "n": 128}, list(range(128))))
    assert [len(h) for h in state["hands"]] == [7, 7, 7] and len(state["deck"]) == 128 - 21
    assert state["energy"] == [199] * 3 and state["dm"] == 0
    assert R.next(state) == ToAct((0, 1, 2))


def test_warlock_2_an_empty_spell_book_is_the_reshuffled_discard_pile():
    """2: "Ist der Stapel verbraucht, werden die abgelegten Karten gemischt und bilden ein neues
    Zauberbuch." The reshuffle is a chance event; its order never shows in a view."""
    state = position(["quorm", "thulsa"], [[c("crows")], [c("dwarves")]], circle=[], deck=[],
                     roles=["learn", "learn"], tasks=[{"kind": "round_end"}])
    state = clone(state)
    state["discard"] = [c("wings", i) for i in range(1, 6)]
    state["owed"] = [0]
    assert R.next(state) == Chance({"kind": "shuffle", "n": 5})
    state = R.apply(state, Event.chance({"kind": "shuffle", "n": 5}, [4, 3, 2, 1, 0]))
    assert c("wings", 5) in state["hands"][0]
    assert state["deck"] == [c("wings", i) for i in (4, 3, 2, 1)] and state["discard"] == []
    assert "[4,3,2,1,0]" not in text(R.view(state, 0))


def test_warlock_7_a_longer_game_starts_with_more_energy():
    """7: "können die Zauberer das Spiel mit mehr als 199 Energiepunkten beginnen"."""
    assert R.setup(2, R.options({"energy": 300}))["energy"] == [300, 300]


# -- 3.1 the decision phase ------------------------------------------------------------------------

def decision_round(players=3, energy=None):
    wizards = [w.key for w in WIZARDS[:players]]
    hands = [[c("crows", s + 1), c("wings", s + 1), c("shield", s + 1)] for s in range(players)]
    return position(wizards, hands, circle=[], energy=energy, roles=[None] * players,
                    tasks=[{"kind": "round"}], round=0)


def test_warlock_3_1_everyone_decides_at_once_and_in_secret():
    """3.1: "Die Spieler müssen nur mitteilen, ob sie sich entschieden haben. Wie ihre
    Entscheidung ausgefallen ist, behalten sie zunächst für sich." Each choice is its own event;
    nobody else's view or legal actions show it before all have chosen."""
    state = decision_round()
    assert R.next(state) == ToAct((0, 1, 2))
    state = act(state, 1, {"type": "decide", "choice": "learn"})
    assert R.next(state) == ToAct((0, 2))
    token = R.view(state, 1)["my_choice"]["token"]
    assert R.view(state, 1)["my_choice"]["action"] == {"type": "decide", "choice": "learn"}
    assert token in R.hidden_items(state, 1)
    for viewer in (0, 2, None):
        view = text(R.view(state, viewer))
        assert token not in view and '"learn"' not in view.replace('"roles"', "")
    assert R.view(state, 0)["decision"]["chosen"] == [1]
    assert R.view(state, 0)["roles"] == [None, None, None]
    assert R.legal_actions(state, 1) == []
    state = acts(state, (0, {"type": "decide", "choice": "duel"}),
                 (2, {"type": "decide", "choice": "duel"}))
    assert state["role"] == ["duel", "learn", "duel"]


def test_warlock_4_5_learners_pay_10_shared_by_the_duellists_rounded_up():
    """4.5: "Alle Spieler, die ... das Lernen ... vorziehen, müssen sofort 10 Energiepunkte
    zahlen. Die ... Summe wird unter den am Duell teilnehmenden Zauberern aufgeteilt. Sie
    schreiben sich ihren Anteil (aufgerundet) gut." One learner, two duellists: 5 each; two
    learners, three duellists (of five): 20 / 3 -> 7 each."""
    state = decision_round(3)
    state = acts(state, (0, {"type": "decide", "choice": "duel"}),
                 (1, {"type": "decide", "choice": "learn"}),
                 (2, {"type": "decide", "choice": "duel"}))
    assert state["energy"] == [204, 189, 204]
    state = decision_round(5)
    for seat, choice in enumerate(["duel", "learn", "duel", "learn", "duel"]):
        state = act(state, seat, {"type": "decide", "choice": choice})
    assert state["energy"] == [206, 189, 206, 189, 206]


def test_warlock_4_5_nobody_pays_when_nobody_duels():
    """4.5: "Wenn kein Zauberer in die Arena geht, braucht keiner etwas zu bezahlen.\""""
    state = decision_round(3)
    for seat in range(3):
        state = act(state, seat, {"type": "decide", "choice": "learn"})
    assert state["energy"] == [199, 199, 199]


# -- 3.2 the arrangement, 4.4 -------------------------------------------------------------------

def test_warlock_3_2_the_duel_master_picks_a_victim_who_picks_the_next_the_last_closes():
    """3.2: the duel master picks a victim who stands to his left and picks in turn; "Der zuletzt
    ausgewählte Zauberer schließt den Kreis und greift seinerseits den Duellmeister an. Er wird
    auch automatisch Duellmeister in der nächsten Runde.\""""
    state = decision_round(4)
    for seat in range(4):
        state = act(state, seat, {"type": "decide", "choice": "duel"})
    assert task(state) == "pick" and R.next(state) == ToAct((0,))
    assert R.legal_actions(state, 0) == [{"type": "pick", "victim": v} for v in (1, 2, 3)]
    state = act(state, 0, {"type": "pick", "victim": 2})
    assert R.next(state) == ToAct((2,))
    state = act(state, 2, {"type": "pick", "victim": 1})
    assert state["circle"] == [0, 2, 1, 3] and state["next_dm"] == 3
    assert [victim_of(state, s) for s in (0, 2, 1, 3)] == [2, 1, 3, 0]


def test_warlock_4_4_a_duel_master_who_learns_passes_the_office_to_the_next_duellist_left():
    """3.2, 4.4: "Nimmt der Duellmeister nicht am Duell teil ..., muß er beide Duellmeister-Karten
    an den nächsten am Duell teilnehmenden Spieler zu seiner Linken abgeben"; also when the duel
    master has left the game."""
    state = decision_round(4)
    for seat, choice in enumerate(["learn", "learn", "duel", "duel"]):
        state = act(state, seat, {"type": "decide", "choice": choice})
    assert state["dm"] == 2 and state["circle"] == [2, 3]
    state = decision_round(3)
    state = clone(state)
    state["out"][0], state["dm"] = True, 0
    state["tasks"] = [{"kind": "round"}]
    rules.run(state)
    assert state["dm"] == 1


# -- 3.3.1 / 4.7 learning, 4.3 ------------------------------------------------------------------

def test_warlock_3_3_1_learners_swap_one_card_each_segment_for_3_energy():
    """3.3.1, 4.7: "müssen ... in jedem Duellsegment eine Karte ablegen und eine neue vom
    Kartenstapel ziehen ... Jede neu aufgenommene Karte kostet 3 Energiepunkte." D16: learners
    swap one after another clockwise from the duel master, before the duellists choose."""
    state = position(["quorm", "thulsa", "anvar"],
                     [[c("crows")], [c("dwarves")], [c("wings"), c("shield")]], circle=[0, 1])
    assert task(state) == "learn" and R.next(state) == ToAct((2,))
    assert R.legal_actions(state, 2) == [{"type": "swap", "card": c("wings")},
                                         {"type": "swap", "card": c("shield")}]
    assert "not possible" in refusal(state, 2, {"type": "stop"})
    top = state["deck"][0]
    state = act(state, 2, {"type": "swap", "card": c("wings")})
    assert state["hands"][2] == [c("shield"), top] and state["energy"][2] == 196
    assert c("wings") in state["discard"] and task(state) == "attack"


def test_warlock_4_3_a_lone_duellist_learners_must_swap_three_he_may_and_becomes_duel_master():
    """4.3: "Wenn nur ein Zauberer in der Arena anwesend ist, findet kein Duell statt, und
    Spieler, die neue Zaubersprüche lernen wollen, müssen drei ihrer Karten tauschen ... Der
    Zauberer, der ... allein in der Arena stand, kann bis zu drei seiner Karten tauschen und wird
    außerdem automatisch Duellmeister in der nächsten Spielrunde." 4.3.2: the next round begins
    when all are done. D4: every swap costs 3 (option lone_swap_cost)."""
    state = decision_round(3)
    state = acts(state, (0, {"type": "decide", "choice": "learn"}),
                 (1, {"type": "decide", "choice": "duel"}),
                 (2, {"type": "decide", "choice": "learn"}))
    assert state["energy"] == [189, 219, 189]
    assert R.next(state) == ToAct((0,))
    assert {"type": "stop"} not in R.legal_actions(state, 0)
    for _ in range(3):
        state = act(state, 0, {"type": "swap", "card": state["hands"][0][0]})
    assert state["energy"][0] == 180 and R.next(state) == ToAct((1,))
    assert {"type": "stop"} in R.legal_actions(state, 1)
    state = act(state, 1, {"type": "stop"})
    for _ in range(3):
        state = act(state, 2, {"type": "swap", "card": state["hands"][2][0]})
    assert state["round"] == 2 and state["dm"] == 1 and task(state) == "decide"


def test_warlock_4_3_1_nobody_duels_everyone_may_learn_three_and_the_master_stays():
    """4.3.1: "Hat kein Spieler Interesse an einem Duell, darf jeder bis zu drei neue
    Zaubersprüche lernen, und der Duellmeister bleibt im Amt.\""""
    state = decision_round(3)
    state["dm"] = 1
    state = clone(state)
    for seat in range(3):
        state = act(state, seat, {"type": "decide", "choice": "learn"})
    assert R.next(state) == ToAct((1,))  # clockwise from the duel master
    state = act(state, 1, {"type": "swap", "card": state["hands"][1][0]})
    state = act(state, 1, {"type": "stop"})
    state = act(state, 2, {"type": "stop"})
    state = act(state, 0, {"type": "stop"})
    assert state["round"] == 2 and state["dm"] == 1 and state["energy"] == [199, 196, 199]


# -- 3.3.2-3.3.4, 4.1 the duel ------------------------------------------------------------------

THREE = ["quorm", "thulsa", "anvar"]  # white 3, black 3, white 4


def test_warlock_3_3_3_attacks_are_chosen_in_secret_then_paid_and_laid_before_the_left_victim():
    """3.3.3, 4.1.1, 4.1.6: everyone picks an attack face down; on the reveal its energy is
    paid and it lies before the wizard to the left. Until all have chosen, nothing shows."""
    hands = [[c("lightning"), c("wings")], [c("thunderclap"), c("shield", 2)],
             [c("darkness"), c("shield", 3)]]
    state = position(THREE, hands)
    assert task(state) == "attack" and R.next(state) == ToAct((0, 1, 2))
    state = act(state, 0, attack(c("lightning")))
    assert state["energy"][0] == 199 and c("lightning") in state["hands"][0]
    assert c("lightning") not in text(R.view(state, 1)) and c("lightning") not in text(
        R.legal_actions(state, 1))
    state = acts(state, (1, attack(c("thunderclap"))), (2, attack(c("darkness"))))
    assert state["energy"] == [191, 193, 194]
    flying = R.view(state, None)["decision"]["threats"]  # segment 2: everyone defends at once
    assert {k: (t["caster"], t["cards"]) for k, t in flying.items()} == {
        "1": (0, [c("lightning")]), "2": (1, [c("thunderclap")]), "0": (2, [c("darkness")])}


def test_warlock_3_3_2_with_three_or_more_segments_alternate_attack_and_defence():
    """3.3.2: "Segment 1, 3 und 5: Angriff; Segment 2, 4 und 6: Verteidigung; Segment 7:
    Bilanz"."""
    hands = [[c("lightning"), c("wings"), c("crows")],
             [c("thunderclap"), c("shield", 2), c("crows", 2)],
             [c("darkness"), c("shield", 3), c("crows", 3)]]
    state = position(THREE, hands)
    assert (state["segment"], task(state)) == (1, "attack")
    state = acts(state, (0, attack(c("lightning"))), (1, attack(c("thunderclap"))),
                 (2, attack(c("darkness"))))
    assert (state["segment"], task(state)) == (2, "defend")
    state = acts(state, (0, defend(c("wings"))), (1, defend(c("shield", 2))),
                 (2, defend(c("shield", 3))))
    assert (state["segment"], task(state)) == (3, "attack")
    assert state["role"] == ["duel", "duel", "duel"]


def test_warlock_4_1_2_5_6_no_defence_means_limbo_at_once_and_30_for_the_attacker():
    """4.1.2, 5.6, 3.3.4: "Jeder Zauberer, der sich gegen einen Angriff nicht verteidigen kann
    ..., wird sofort in den Limbo verbannt"; 4.1.3: the attacker earns 30 energy; 4.8: the
    banished wizard refills his hand to seven."""
    t = threat([c("lightning")], 0, 1, "white")
    state = position(THREE, [[c("crows")], [c("dwarves")], [c("crows", 2)]], threats=[t],
                     segment=1, energy=[191, 199, 199])
    assert state["role"][1] == "limbo" and state["energy"] == [221, 199, 199]
    assert len(state["hands"][1]) == 7 and state["circle"] == [0, 2]
    assert c("lightning") in state["discard"] and (state["segment"], task(state)) == (3, "return")


def test_warlock_5_5_who_can_defend_must_and_only_defences_are_offered():
    """5.5: "Ein Zauberer muß eine zur Verteidigung brauchbare Karte ausspielen, wenn er eine
    solche besitzt." There is no pass; a card that does not defend is refused with a reason."""
    t = threat([c("lightning")], 0, 1, "white")
    state = position(["quorm", "thulsa"], [[c("crows")], [c("shield"), c("dwarves")]],
                     threats=[t], segment=1)
    assert R.legal_actions(state, 1) == [defend(c("shield"))]
    assert "does not defend" in refusal(state, 1, defend(c("dwarves")))
    assert "not a card in your hand" in refusal(state, 1, defend(c("mirror")))


def test_warlock_4_1_5_who_cannot_attack_mocks_and_attacks_no_more_this_round():
    """4.1.5: "Ist er dazu nicht in der Lage, muß er dennoch eine Karte »wie zum Angriff«
    ausspielen ... In eventuell folgenden Angriffssegmenten nimmt er nicht am Ausspielen von
    Angriffszaubern teil." Who can attack must."""
    hands = [[c("lightning"), c("wings", 2)], [c("wings"), c("shield", 2)],
             [c("darkness"), c("invisibility")]]
    state = position(THREE, hands)
    assert R.legal_actions(state, 1) == [{"type": "mock"}]
    assert "must" in refusal(state, 0, {"type": "mock"})
    state = acts(state, (0, attack(c("lightning"))), (1, {"type": "mock"}),
                 (2, attack(c("darkness"))))
    assert state["exhausted"] == [False, True, False]
    flying = R.view(state, None)["decision"]["threats"]
    assert {k: t["caster"] for k, t in flying.items()} == {"1": 0, "0": 2}


def test_warlock_4_9_a_spell_he_cannot_pay_for_cannot_be_cast():
    """4.9: "Ein Spieler, der nicht mehr genügend Energiepunkte besitzt, um eine seiner
    Zauberkarten auszuspielen, handelt entsprechend der in 4.1.5. beschriebenen Regel." D3:
    energy never goes below zero."""
    state = position(["quorm", "thulsa"], [[c("petrify")], [c("crows")]], energy=[8, 199])
    assert R.legal_actions(state, 0) == [{"type": "mock"}]
    assert "energy" in refusal(state, 0, attack(c("petrify")))


def test_warlock_4_1_4_no_bonus_for_an_attack_that_spent_all_his_energy():
    """4.1.4: "Ein Zauberer bekommt keine Energie-Bonuspunkte, wenn er für seinen Angriffszauber
    seine gesamte Energie verbraucht." 4.8 b: he is banished himself."""
    state = position(["quorm", "thulsa"], [[c("lightning")], [c("crows")]], energy=[8, 199])
    state = acts(state, (0, attack(c("lightning"))), (1, attack(c("crows"))))
    assert state["out"][0] and state["energy"][0] == 0  # banished with nothing: gone (4.8.5)
    assert not any(e.get("event") == "bonus" and e["seat"] == 0 for e in state["log"])
    state = clone(state)
    state["out"][0], state["role"][0], state["energy"][0] = False, "limbo", 0
    reward(state, {"sender": 0, "caster": 0, "no_bonus": True, "walking": False})
    assert state["energy"][0] == 0


def test_warlock_4_1_3_defending_with_the_last_energy_banishes_and_pays_the_attacker():
    """4.1.3: the bonus is due when "der Gegner sich zwar gegen einen Angriff ... verteidigen
    kann, dafür aber seine gesamte Energie verbraucht und deshalb in den Limbo verbannt wird"."""
    t = threat([c("lightning")], 0, 1, "white")
    state = position(["quorm", "thulsa"], [[c("crows")], [c("shield")]], threats=[t],
                     segment=1, energy=[100, 4])
    state = act(state, 1, defend(c("shield")))
    assert state["energy"][0] == 130
    assert state["out"][1]  # 4.8.5: nothing left to return with


def test_warlock_4_1_7_spent_spells_go_to_the_discard_pile():
    """4.1.7: "Ausgespielte Zaubersprüche kommen auf einen Ablagestapel, sobald sie ihre Aufgabe
    erfüllt haben.\""""
    t = threat([c("lightning")], 0, 1, "white")
    state = position(["quorm", "thulsa"], [[c("crows")], [c("shield")]], threats=[t],
                     segment=1)
    state = act(state, 1, defend(c("shield")))
    assert {c("lightning"), c("shield")} <= set(state["discard"])
    assert R.view(state, None)["discard"] == state["discard"]


# -- 4.2 duels of two, 4.6 ---------------------------------------------------------------------

def test_warlock_4_6_worked_example_crows_and_dwarves_cancel_then_knight_against_sword():
    """4.6, played event by event: Thulsa (black) and Quorm (white, 3 combat points) duel.
    Segment 1: Crows (5) against Dwarves (5) act on each other and cancel; no defence segment.
    Segment 2 (an attack): Black Knight (4) against Magic Sword (4 + 3 = 7): only Quorm's spell
    influences, so Quorm chooses; he lets them pass, and a defence segment follows in which Quorm
    defends against the Knight and Thulsa against Quorm with the sword."""
    thulsa = [c("crows"), c("black-knight"), c("black-sword"), c("wings")]
    quorm = [c("dwarves"), c("magic-sword"), c("siren-song"), c("wings", 2)]
    state = position(["thulsa", "quorm"], [thulsa, quorm])
    assert (state["segment"], R.next(state)) == (1, ToAct((0, 1)))
    state = acts(state, (0, attack(c("crows"))), (1, attack(c("dwarves"))))
    assert state["energy"] == [194, 194] and state["threats"] == []
    assert {c("crows"), c("dwarves")} <= set(state["discard"])
    assert (state["segment"], task(state)) == (2, "attack")  # "Es folgt wieder ein Angriffssegment"
    state = acts(state, (0, attack(c("black-knight"))), (1, attack(c("magic-sword"))))
    assert state["energy"] == [189, 190]
    assert task(state) == "influence" and R.next(state) == ToAct((1,))
    state = act(state, 1, {"type": "influence", "choice": "pass"})
    assert (state["segment"], task(state)) == (3, "defend") and R.next(state) == ToAct((0, 1))
    assert R.legal_actions(state, 1) == [defend(c("siren-song"))]
    assert R.legal_actions(state, 0) == [defend(c("black-sword"))]  # 5.4: value 3 + 4 >= 7
    state = acts(state, (1, defend(c("siren-song"))), (0, defend(c("black-sword"))))
    assert state["energy"] == [185, 186] and state["threats"] == []
    assert state["role"] == ["duel", "duel"]


def test_warlock_4_2_1_the_influencing_caster_may_defend_and_an_attack_segment_follows():
    """4.2.1: "Entscheidet er sich aber für Verteidigung, wirkt sein Zauberspruch ... gegen den
    Angriffszauber des Gegners, und ein Angriffssegment folgt.\""""
    state = position(["thulsa", "quorm"], [[c("black-knight"), c("crows")],
                                           [c("magic-sword"), c("dwarves")]])
    state = acts(state, (0, attack(c("black-knight"))), (1, attack(c("magic-sword"))),
                 (1, {"type": "influence", "choice": "defend"}))
    assert state["threats"] == [] and (state["segment"], task(state)) == (2, "attack")


def test_warlock_4_2_2_spells_that_cannot_meet_make_a_defence_segment():
    """4.2.2: "Können die Zauber einander nicht beeinflussen, handelt es sich um ein gewöhnliches
    Angriffssegment, und ein Verteidigungssegment folgt.\""""
    state = position(["thulsa", "quorm"], [[c("lightning"), c("shield")],
                                           [c("thunderclap"), c("shield", 2)]])
    state = acts(state, (0, attack(c("lightning"))), (1, attack(c("thunderclap"))))
    assert (state["segment"], task(state)) == (2, "defend")
    assert len(R.view(state, None)["decision"]["threats"]) == 2


def test_warlock_4_2_3_with_two_the_balance_banishes_only_50_behind():
    """4.2.3: "Besitzt einer von ihnen mindestens 50 Energiepunkte mehr als der Gegner, wird der
    energieärmere Zauberer in den Limbo verbannt." Then he returns for 30 (3.3.5)."""
    for energy, banished in (([150, 100], True), ([149, 100], False)):
        state = position(["thulsa", "quorm"], [[c("wings")], [c("wings", 2)]], energy=energy,
                         segment=6)
        assert state["round"] == 2
        assert state["energy"] == ([150, 70] if banished else energy)


# -- 3.3.5 the balance ----------------------------------------------------------------------------

def test_warlock_3_3_5_the_poorest_duellist_is_banished_and_returns_for_30():
    """3.3.5: "Derjenige Duellteilnehmer mit den wenigsten verbleibenden Energiepunkten wird
    sofort in den Limbo verbannt ... Alle in der laufenden Spielrunde in den Limbo verbannten
    Zauberer müssen jetzt von dort zurückkehren." The closing wizard becomes duel master."""
    state = position(THREE, [[c("wings")], [c("wings", 2)], [c("wings", 3)]],
                     energy=[120, 100, 130], segment=6)
    assert state["energy"] == [120, 70, 130] and state["round"] == 2 and state["dm"] == 2
    assert len(state["hands"][1]) == 7  # 4.8: refilled in limbo
    state = position(THREE, [[c("wings")], [c("wings", 2)], [c("wings", 3)]],
                     energy=[100, 100, 130], segment=6)
    assert state["energy"] == [100, 100, 130]  # a shared lowest: all stay


# -- 4.8 limbo ---------------------------------------------------------------------------------

def banished_in_segment_1(energy=(199, 199, 199)):
    """Anvar (seat 2) banished in segment 1 by a lightning he could not answer."""
    t = threat([c("lightning")], 1, 2, "black")
    hands = [[c("crows"), c("wings")], [c("dwarves"), c("shield")], [c("crows", 2)]]
    return position(THREE, hands, threats=[t], segment=1, energy=list(energy))


def test_warlock_4_8_2_a_banished_wizard_may_return_for_30_energy_in_a_later_segment():
    """4.8.2, 4.8.4: "kann in einem beliebigen darauffolgenden Segment von dort zurückkehren,
    vorausgesetzt, er kann dafür 30 Energiepunkte aufbringen"; 4.8.3: he then stays out of the
    duel and learns a card in every segment that follows."""
    state = banished_in_segment_1()
    assert state["role"][2] == "limbo"
    assert state["segment"] == 3 and task(state) == "return" and R.next(state) == ToAct((2,))
    assert R.legal_actions(state, 2) == [{"type": "return"}, {"type": "wait"}]
    state = act(state, 2, {"type": "return"})
    assert state["energy"][2] == 169 and state["role"][2] == "away"
    assert task(state) == "learn" and R.next(state) == ToAct((2,))
    state = act(state, 2, {"type": "swap", "card": state["hands"][2][0]})
    assert state["energy"][2] == 166 and 2 not in state["circle"]


def test_warlock_4_8_3_every_banished_wizard_returns_at_the_latest_at_the_balance():
    """4.8.3: "Jeder Verbannte muß spätestens während des Bilanzsegments aus dem Limbo
    zurückkehren.\""""
    state = banished_in_segment_1()
    state = act(state, 2, {"type": "wait"})
    state = clone(state)
    state["segment"], state["tasks"] = 6, [{"kind": "segment"}]  # skip to the balance
    rules.run(state)
    assert state["round"] == 2 and not state["out"][2] and state["energy"][2] == 169
    assert {"round": 1, "segment": 7, "event": "returned", "seat": 2} in state["log"]


def test_warlock_4_8_5_too_little_energy_leaves_the_game():
    """4.8.5: "Ein Spieler, der zu wenig Energiepunkte besitzt, um aus dem Limbo
    zurückzukehren, scheidet sofort aus dem Spiel aus." D4: 30 or less is too little."""
    state = banished_in_segment_1(energy=(199, 199, 30))
    assert state["out"][2] and state["hands"][2] == [] and state["role"][2] == "out"


def test_warlock_4_8_b_spending_all_energy_banishes():
    """4.8 b: "seine gesamte Energie verbraucht ist"."""
    t = threat([c("lightning")], 0, 1, "white")
    state = position(["quorm", "thulsa"], [[c("crows")], [c("shield")]], threats=[t],
                     segment=1, energy=[100, 60])
    state = clone(state)
    state["energy"][1] = 4
    state = act(state, 1, defend(c("shield")))
    assert state["energy"][1] == 0 and state["out"][1]


# -- 5 spells and defences -----------------------------------------------------------------------

def test_warlock_5_1_the_witch_staff_and_priest_are_no_attack_alone():
    """5.1, 8.3.2, 8.4, 8.4.1: the Witch is no attack on her own, the Holy Staff is useless
    without the Priest, and the Priest attacks only with the Staff."""
    assert not combat.is_attack([c("witch")]) and not combat.is_attack([c("holy-staff")])
    assert not combat.is_attack([c("priest")])
    assert combat.is_attack([c("priest"), c("holy-staff")])
    state = position(["quorm", "thulsa"], [[c("witch"), c("priest"), c("holy-staff")],
                                           [c("crows")]])
    assert R.legal_actions(state, 0) == [attack(c("priest"), c("holy-staff")), attack(c("witch"))]


def test_warlock_5_2_1_invisibility_defends_in_exactly_these_magic_rows():
    """5.2.1: "»Unsichtbarkeit« ist eine Verteidigungsmöglichkeit gegen »Kanone«,
    »Dunkelheit«, »Unsichtbarkeit«, »Versteinern« und »Luftleere«.\""""
    rows = {row for row, entries in MAGIC_TABLE.items() if "invisibility" in entries}
    assert rows == {"cannon", "darkness", "invisibility", "petrify", "vacuum"}
    assert not any("invisibility" in entries for entries in PHYSICAL_TABLE.values())


def test_warlock_5_2_3_siren_song_defends_in_exactly_these_physical_rows_with_and_without_bow():
    """5.2.3: Siren Song defends against Black Knight, Dwarves, Giant, Hero, Super-Hero and
    White Knight, each "mit und ohne Bogen" (8.1.2: a wielder with a bow is fought in the bow's
    row, which lists Siren Song)."""
    rows = {row for row, entries in PHYSICAL_TABLE.items() if "siren-song" in entries}
    assert rows == {"black-knight", "dwarves", "giant", "hero", "super-hero", "white-knight",
                    "magic-bow"}
    for wielder in ("black-knight", "white-knight", "hero", "super-hero"):
        for cards in ([c(wielder)], [c(wielder), c("magic-bow")], [c(wielder), c("magic-spear")]):
            t = threat(cards, 0, 1, "white", points=3)
            assert combat.result(t, [c("siren-song")], "black", 3) == "A", cards
    assert combat.result(threat([c("crows")], 0, 1, "white"), [c("siren-song")], "black", 3) is None


def test_warlock_5_2_2_an_identical_spell_reflects_both_to_their_casters():
    """5.2.2: "Zur Verteidigung kann ein dem Angriffszauber identischer Zauberspruch ausgespielt
    werden. Beide Zaubersprüche werden dann auf ihre Urheber reflektiert.\""""
    assert combat.result(threat([c("cannon")], 0, 1, "black"), [c("cannon", 2)], "black", 2) == "R†"
    assert combat.result(threat([c("crows")], 0, 1, "black"), [c("crows", 2)], "white", 2) == "R†"


def test_warlock_5_2_4_combat_value_depends_on_the_casters_colour():
    """5.2.4: a spell of at least the attack's combat value defends; "der Kampfwert [hängt]
    davon ab, ob die Zaubersprüche von schwarzen oder weißen Zauberern ausgespielt wurden"."""
    dwarves_by_black = threat([c("dwarves")], 0, 1, "black")    # 4
    dwarves_by_white = threat([c("dwarves")], 0, 1, "white")    # 5
    assert combat.result(dwarves_by_black, [c("crows")], "white", 3) == "A"  # 4 >= 4
    assert combat.result(dwarves_by_white, [c("crows")], "white", 3) is None  # 4 < 5
    assert combat.result(dwarves_by_white, [c("crows")], "black", 3) == "A"  # 5 >= 5


def test_warlock_5_3_a_physical_spell_without_value_is_fought_by_the_table_only():
    """5.3: "Wenn der ausgespielte Zauberspruch keinen Kampfwert besitzt, aber dennoch als
    physischer Angriff eingesetzt werden kann (z. B. der Anti-Held), kann er nur mit Methode
    5.2.3. bekämpft werden." Not by value, not by an identical spell."""
    anti = threat([c("anti-hero")], 0, 1, "white")
    assert combat.result(anti, [c("dragon")], "black", 3) is None
    assert combat.result(anti, [c("anti-hero", 2)], "black", 3) is None
    assert combat.result(anti, [c("hero")], "black", 3) == "A"


def test_warlock_5_4_an_armed_wizard_is_fought_by_combat_value_only():
    """5.4: "Hat sich ein Zauberer mit einer Waffe ausgerüstet, kann er nur mit Methode 5.2.4.
    bekämpft werden." The bow row does not apply to a wizard with a bow."""
    armed = threat([c("magic-bow")], 0, 1, "white", points=3)  # 3 + 3 = 6
    assert combat.result(armed, [c("siren-song")], "black", 3) is None
    assert combat.result(armed, [c("magic-bow", 2)], "black", 3) == "A"  # 3 + 3 >= 6
    assert combat.result(armed, [c("crows")], "black", 3) is None  # 5 < 6
    assert combat.result(armed, [c("trolls")], "black", 3) == "A"  # 6 >= 6


def test_warlock_5_7_conditional_codes_read_the_colours():
    """5.7: AW / AS: repelled if the defender is white / black; A* / A†: if the attack was cast
    by a white / black wizard."""
    lightning = threat([c("lightning")], 0, 1, "black")
    assert combat.result(lightning, [c("wings")], "white", 3) == "A"     # AW
    assert combat.result(lightning, [c("wings")], "black", 3) is None
    assert combat.result(lightning, [c("darkness")], "black", 3) == "A"  # AS
    thunder_white = threat([c("thunderclap")], 0, 1, "white")
    assert combat.result(thunder_white, [c("wings")], "black", 3) == "A"  # A*
    assert combat.result(threat([c("thunderclap")], 0, 1, "black"), [c("wings")], "black", 3) is None
    cannon_black = threat([c("cannon")], 0, 1, "black")
    assert combat.result(cannon_black, [c("shield")], "white", 3) == "A"  # A†
    assert combat.result(threat([c("cannon")], 0, 1, "white"), [c("shield")], "white", 3) is None


def test_warlock_5_7_R_the_reflector_names_any_duellist_who_defends_at_once():
    """5.7 R: "Der Verursacher der Reflexion kann jeden noch im Duell befindlichen Zauberer als
    Opfer bestimmen. Der dadurch betroffene Zauberer muß sich sofort gegen diesen Angriffszauber
    verteidigen." 4.1.3: if he cannot, the reflector earns 30."""
    t = threat([c("lightning")], 0, 1, "white")
    hands = [[c("crows")], [c("mirror")], [c("crows", 2)]]
    state = position(THREE, hands, threats=[t], segment=1)
    state = act(state, 1, defend(c("mirror")))
    assert task(state) == "redirect" and R.legal_actions(state, 1) == [
        {"type": "redirect", "victim": 0}, {"type": "redirect", "victim": 2}]
    state = act(state, 1, {"type": "redirect", "victim": 2})
    assert state["role"][2] == "limbo" and state["energy"][1] == 199 - 6 + 30
    assert state["segment"] == 3  # resolved within segment 2 (3.3.4)


def test_warlock_4_1_3_both_reflected_both_banished_both_earn_30():
    """4.1.3: "werden beide Zauberer verbannt, erhalten auch beide die Prämie"."""
    t = threat([c("cannon")], 0, 1, "black", points=4)
    state = position(["mephisto", "stileppo"], [[c("lightning")], [c("cannon", 2)]],
                     threats=[t], segment=1, energy=[150, 150])
    state = act(state, 1, defend(c("cannon", 2)))
    bonuses = sorted(e["seat"] for e in state["log"] if e["event"] == "bonus")
    assert bonuses == [0, 1] and state["energy"] == [150 + 30 - 30, 150 - 7 + 30 - 30]


# -- 5.2.5 worked example ------------------------------------------------------------------

def cannon_duel(options=None):
    """5.2.5 set up: Mephisto's Cannon flies at Stileppo (cast and paid in segment 1)."""
    t = threat([c("cannon")], 0, 1, "black", points=4)
    mephisto = [c("vacuum"), c("lightning"), c("petrify")]
    stileppo = [c("cannon", 2), c("cannon", 3), c("invisibility"), c("crows")]
    return position(["mephisto", "stileppo"], [mephisto, stileppo], threats=[t], segment=1,
                    energy=[192, 199], options=options)


def test_warlock_5_2_5_worked_example_cannons_reflect_until_mephisto_is_banished():
    """5.2.5, event by event: Stileppo answers the Cannon with a Cannon: both fly back. Mephisto
    defends with Vacuum, Stileppo with another Cannon: a new reflection (D2: the attacking cannon
    flies back to the wizard who sent it, Mephisto). Stileppo defends with Invisibility; Mephisto
    cannot defend against the second Cannon: limbo at once, Stileppo earns 30. All within two
    segments (3.3.4)."""
    state = cannon_duel()
    assert (state["segment"], task(state), R.next(state)) == (2, "defend", ToAct((1,)))
    state = act(state, 1, defend(c("cannon", 2)))
    flying = R.view(state, None)["decision"]["threats"]
    assert {k: (t["cards"], t["sender"]) for k, t in flying.items()} == {
        "0": ([c("cannon")], 1), "1": ([c("cannon", 2)], 0)}
    assert R.next(state) == ToAct((0, 1))
    state = act(state, 0, defend(c("vacuum")))
    state = act(state, 1, defend(c("cannon", 3)))
    assert state["role"][0] == "limbo"  # no defence against the cannon that came back
    assert R.next(state) == ToAct((1,)) and R.legal_actions(state, 1) == [defend(c("invisibility"))]
    state = act(state, 1, defend(c("invisibility")))
    assert state["energy"][1] == 199 - 7 - 7 - 5 + 30
    exchange = [e for e in state["log"] if e["event"] in ("double reflection", "bonus",
                                                          "undefended", "repelled")]
    assert [e["event"] for e in exchange] == ["double reflection", "repelled",
                                              "double reflection", "undefended", "bonus",
                                              "repelled"]
    assert {e["segment"] for e in exchange} == {2}  # "Diese Aktion dauert nur zwei Segmente"
    assert state["round"] == 2  # the duel ended (one left); balance: Mephisto returned
    assert state["energy"][0] == 192 - 6 - 30


def test_warlock_D2_option_caster_sends_both_cannons_back_to_stileppo():
    """D2 (5.2.5 versus 5.2.2): with ``double_reflection="caster"`` both spells go back to the
    wizard who cast them, and in the second exchange that is Stileppo twice."""
    state = cannon_duel({"double_reflection": "caster"})
    state = act(state, 1, defend(c("cannon", 2)))
    state = acts(state, (0, defend(c("vacuum"))), (1, defend(c("cannon", 3))))
    flying = R.view(state, None)["decision"]["threats"]
    assert list(flying) == ["1"] and [t["target"] for t in state["threats"]] == [1]
    assert state["role"][0] == "duel" and R.next(state) == ToAct((1,))


# -- 8 special spells ---------------------------------------------------------------------------

def test_warlock_8_1_1_a_wizard_arms_himself_weapon_plus_his_combat_points():
    """8.1.1: "Der Kampfwert der Waffe ... wird zum physischen Kampfwert des Zauberers
    hinzugezählt"; 2: the wizard card's number counts when he wields a magic weapon."""
    assert combat.value([c("magic-sword")], "white", WIZARD["quorm"].points) == 7
    assert combat.value([c("black-sword")], "black", WIZARD["mephisto"].points) == 8


def test_warlock_8_1_2_a_wielder_and_a_weapon_are_one_spell_both_paid_values_added():
    """8.1.2, 8.2, 5.2: "Beide Karten werden dann gemeinsam als ein Zauberspruch ausgespielt.
    Ihr Kampfwert wird ... zusammengerechnet. Sowohl das Wesen als auch die Waffe kosten
    Energiepunkte." One defence answers both."""
    pair = [c("black-knight"), c("black-sword")]
    assert combat.value(pair, "black", 3) == 8 and combat.cost(pair) == 9
    state = position(["thulsa", "quorm"], [pair + [c("crows")], [c("wings")]])
    assert attack(*pair) in R.legal_actions(state, 0)
    assert attack(c("black-sword"), c("black-knight")) not in R.legal_actions(state, 0)
    assert "wielder then a weapon" in refusal(state, 0, attack(c("black-sword"), c("black-knight")))


def test_warlock_8_1_2_the_wielders_row_defends_the_pair_except_with_a_magic_bow():
    """8.1.2: "Jeder Zauberspruch, der laut Tabelle »Physischer Kampf« gegen das Wesen ...
    wirksam ist, gilt auch als Verteidigung, wenn das Wesen mit einer magischen Waffe
    ausgerüstet ist. Ausnahme: ... »Magischen Bogen« ... muß gegen den »Magischen Bogen«
    verteidigt werden.\""""
    with_sword = threat([c("black-knight"), c("black-sword")], 0, 1, "black")
    assert combat.result(with_sword, [c("shield")], "white", 3) == "A"  # BK row: A†
    with_bow = threat([c("black-knight"), c("magic-bow")], 0, 1, "black")
    assert combat.result(with_bow, [c("shield")], "white", 3) == "A"  # bow row: A
    assert combat.row(with_bow["cards"]) == ("physical", "magic-bow")
    hero_bow = threat([c("hero"), c("magic-bow")], 0, 1, "white")
    assert combat.result(hero_bow, [c("anti-hero")], "black", 3) is None  # hero row, not bow's
    assert combat.result(threat([c("hero")], 0, 1, "white"), [c("anti-hero")], "black", 3) == "A"


def witch_duel():
    """8.3.3 set up: Morcus (white) and Anvar (white) duel; Morcus holds the Witch."""
    morcus = [c("witch"), c("lightning"), c("shield"), c("wings")]
    anvar = [c("thunderclap"), c("darkness"), c("shield", 2)]
    state = position(["morcus", "anvar"], [morcus, anvar])
    state = acts(state, (0, attack(c("witch"))), (1, attack(c("thunderclap"))))
    return state


def test_warlock_8_3_3_worked_example_the_witch_conjures_a_free_defence_against_the_thunderclap():
    """8.3.3, event by event: both choose face down; Anvar's Thunderclap, Morcus' Witch. The
    Witch repels the Thunderclap by the magic table, so Morcus may have her create a second
    spell that repels it: he draws a replacement and saves its energy; an attack segment
    follows (4.2.1)."""
    state = witch_duel()
    assert state["energy"] == [193, 193] and task(state) == "conjure"
    legal = R.legal_actions(state, 0)
    assert {"type": "conjure", "cards": [c("lightning")], "as": "attack"} in legal
    assert {"type": "conjure", "cards": [], "as": "defence"} in legal
    assert {"type": "conjure", "cards": [c("shield")], "as": "defence"} in legal
    top = state["deck"][0]
    state = act(state, 0, {"type": "conjure", "cards": [c("shield")], "as": "defence"})
    assert state["energy"] == [193, 193] and top in state["hands"][0]
    assert state["threats"] == [] and (state["segment"], task(state)) == (2, "attack")
    assert {c("witch"), c("shield"), c("thunderclap")} <= set(state["discard"])


def test_warlock_8_3_3_worked_example_the_witch_casts_an_attack_and_morcus_must_defend():
    """8.3.3: "Außerdem hat er aber die Möglichkeit, von der Hexe einen Angriffszauber auslösen
    zu lassen. In diesem Fall muß er sich selbst gegen den Donnerschlag verteidigen, spart aber
    wiederum Energiepunkte und kann sich eine ... Ersatzkarte ... nehmen.\""""
    state = witch_duel()
    state = act(state, 0, {"type": "conjure", "cards": [c("lightning")], "as": "attack"})
    assert state["energy"] == [193, 193] and len(state["hands"][0]) == 3
    assert (state["segment"], task(state)) == (2, "defend")
    assert defend(c("shield")) in R.legal_actions(state, 0)


def test_warlock_8_3_1_the_witch_in_defence_repels_alone_or_conjures_for_free():
    """8.3, 8.3.1: only the Witch is paid; what she casts is free and replaced at once."""
    t = threat([c("darkness")], 0, 1, "white")
    state = position(["quorm", "thulsa"], [[c("crows")], [c("witch"), c("invisibility")]],
                     threats=[t], segment=1)
    assert defend(c("witch")) in R.legal_actions(state, 1)
    state = act(state, 1, defend(c("witch")))
    assert task(state) == "conjure" and state["energy"][1] == 193
    state = act(state, 1, {"type": "conjure", "cards": [c("invisibility")], "as": "defence"})
    assert state["energy"][1] == 193 and len(state["hands"][1]) == 1 and state["threats"] == []


def test_warlock_8_3_2_the_witch_attacks_only_with_an_attack_beside_her():
    """8.3.2: "Sie kann nur dann in einem Angriffssegment gespielt werden, wenn die Karte(n), die
    gleichzeitig mit ihr zum Einsatz kommt (kommen), zum Angriff geeignet ist (sind).\""""
    state = position(["quorm", "thulsa"], [[c("witch"), c("wings")], [c("crows")]])
    assert R.legal_actions(state, 0) == [{"type": "mock"}]


def test_warlock_8_4_the_priest_with_the_holy_staff_is_one_magic_attack():
    """8.4, 8.4.1: the Priest attacks only with the Holy Staff, "wie in 8.1.2. beschrieben"; it
    is fought in the Priest's row of the magic table."""
    t = threat([c("priest"), c("holy-staff")], 0, 1, "white")
    assert combat.result(t, [c("darkness")], "black", 3) == "A"
    assert combat.result(t, [c("shield")], "black", 3) == "A"  # A*: cast by a white wizard
    assert combat.cost([c("priest"), c("holy-staff")]) == 9


# -- 8.5 wandering creatures -----------------------------------------------------------------

def walking_giant(hands, *, energy=None, circle=(0, 1), wizards=THREE, roles=None, options=None):
    """Seat 0 attacks seat 1 with a Giant in segment 1, the other duellists with their first
    spell; learners learn away the last card of their hand (give them a filler there)."""
    state = position(list(wizards), hands, circle=list(circle), energy=energy, roles=roles,
                     options=options)
    while task(state) in ("learn", "attack"):
        for seat in R.next(state).seats:
            legal = R.legal_actions(state, seat)
            state = act(state, seat, legal[-1] if task(state) == "learn" else legal[0])
    return state


def test_warlock_8_5_a_cut_below_10_and_the_creature_stays_in_the_duel():
    """8.5: "Erscheint dabei eine Karte mit einer Zahl größer oder gleich 10, beginnt das
    erschaffene Wesen zu wandern" — below 10 it is an ordinary attack."""
    state = walking_giant([[c("giant")], [c("crows")], [c("wings")]])
    assert task(state) == "cut" and R.next(state).spec == {"kind": "dice", "count": 1,
                                                           "sides": len(state["deck"])}
    state = cut(state, high=False)
    assert walk(state) is None and state["cut"]["number"] < 10
    assert task(state) == "influence"  # 4.2: the Giant (7) would repel the Crows (4)


def test_warlock_8_5_the_creature_walks_left_and_attacks_whoever_cuts_10_learners_too():
    """8.5, 8.5.5: from the creator's left neighbour, in seat order, learners too; each cuts;
    10 or more: attacked, he defends in the usual way (8.5.1: paid; his card replaced)."""
    hands = [[c("giant")], [c("crows")], [c("siren-song"), c("wings"), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1))  # seat 2 learns
    state = cut(state, high=True)
    assert walk(state)["at"] == 1 and R.next(state).spec["kind"] == "dice"
    state = cut(state, high=False)  # seat 1 cuts low: it walks on to seat 2
    assert walk(state)["at"] == 2
    state = cut(state, high=True)
    assert task(state) == "ward" and R.legal_actions(state, 2) == [defend(c("siren-song"))]
    top = state["deck"][0]
    state = act(state, 2, defend(c("siren-song")))
    assert state["energy"][2] == 199 - 3 - 4 and top in state["hands"][2]
    assert walk(state) is None  # 8.5.1: repelled, it returns to its place in the duel
    assert [t["target"] for t in state["threats"] if t["cards"] == [c("giant")]] == [1]


def test_warlock_8_5_4_each_wizard_the_creature_banishes_pays_its_creator_30():
    """8.5.4: "Der Zauberer, der den wandernden Zauberspruch ausgelöst hat, erhält für jeden
    durch das wandernde Wesen in den Limbo verbannten Zauberer 30 Energiepunkte." 4.1.3 the
    last bullet; 8.5.9: it may attack the same wizard twice (here: it walks on)."""
    hands = [[c("giant")], [c("crows")], [c("wings"), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1))
    state = cut(state, high=True)
    state = cut(state, high=True)  # seat 1 cannot answer a giant: banished
    assert state["role"][1] == "limbo" and state["energy"][0] == 199 - 8 + 30
    assert walk(state)["at"] == 2
    state = cut(state, high=True)  # seat 2 neither
    assert state["role"][2] == "limbo" and state["energy"][0] == 199 - 8 + 60


def test_warlock_8_5_2_when_the_arena_is_empty_the_creature_is_discarded_and_the_duel_ends():
    """8.5.2: "die wandernde Kreatur alle in der Arena befindlichen Zauberer in den Limbo bringt,
    worauf die Karte abgelegt wird und das Duell beendet ist"; D1 (8.5.4 over 4.1.3): the creator
    banished by his own creature earns nothing for himself."""
    hands = [[c("giant")], [c("crows")], [c("wings"), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1))
    state = cut(state, high=True)
    state = cut(state, high=True)   # seat 1 banished (+30 to seat 0)
    state = cut(state, high=False)  # seat 2 cuts low
    state = cut(state, high=True)   # the creator himself: banished
    assert c("giant") in state["discard"]
    assert [e["returned"] for e in state["log"] if e["event"] == "walk ended"] == [False]
    assert [e["seat"] for e in state["log"] if e["event"] == "bonus"] == [0]  # for seat 1 only
    assert (state["segment"], task(state)) == (7, "learn")  # D26: the learner swaps at the balance
    state = act(state, 2, R.legal_actions(state, 2)[-1])
    assert state["round"] == 2 and state["energy"][:2] == [199 - 8 + 30 - 30, 199 - 5 - 30]


def test_warlock_8_5_3_all_cut_below_10_and_it_returns_to_its_place():
    """8.5.3: "alle betroffenen Zauberer eine Karte mit Zahlen kleiner als 10 aus dem Zauberbuch
    aufgedeckt haben, worauf das Wesen an seinen Platz im Duell zurückkehrt" (D13: once every
    wizard not in limbo has cut low in a row)."""
    state = walking_giant([[c("giant")], [c("crows")], [c("wings"), FILLER[0]]], circle=(0, 1))
    state = cut(state, high=True)
    for _ in range(3):
        state = cut(state, high=False)
    assert walk(state) is None
    assert [t["target"] for t in state["threats"] if t["cards"] == [c("giant")]] == [1]


def test_warlock_8_5_1_a_reflected_creature_walks_on_from_the_reflector_who_earns_the_bonus():
    """8.5.1: "Der wandernde Zauber kann dabei zu jedem Zauberer, der nicht im Limbo ist,
    reflektiert werden. Sollte der letztgenannte dabei in den Limbo geschickt werden, setzt das
    Wesen seine Wanderung fort, und zwar zum links vom Verursacher der Reflexion sitzenden
    Zauberer." 8.5.4 Achtung: the reflector earns the bonus, not the creator."""
    hands = [[c("giant")], [c("mirror")], [c("wings"), FILLER[0]], [c("wings", 2), FILLER[1]]]
    state = walking_giant(hands, circle=(0, 1), wizards=THREE + ["thulsa"][:0] + ["mephisto"],
                          roles=["duel", "duel", "learn", "learn"])
    state = cut(state, high=True)
    state = cut(state, high=True)  # seat 1 attacked, reflects with the Mirror
    state = act(state, 1, defend(c("mirror")))
    assert task(state) == "redirect"
    state = act(state, 1, {"type": "redirect", "victim": 3})
    assert state["role"][3] == "limbo" and state["energy"][1] == 199 - 6 + 30
    assert state["energy"][0] == 199 - 8
    assert walk(state)["at"] == 2  # left of the reflector


def test_warlock_8_5_8_the_creators_own_banishment_does_not_stop_its_return():
    """8.5.8: "kehrt der Zauber nach Beendigung seiner Wanderung dennoch an seinen Platz im Duell
    zurück, und derjenige Zauberer, gegen den der Angriff ursprünglich gerichtet war, muß sich
    jetzt dagegen verteidigen.\""""
    hands = [[c("giant")], [c("crows"), c("siren-song")], [c("crows", 2)], [c("wings"), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1, 2), wizards=THREE + ["mephisto"])
    state = cut(state, high=True)
    state = cut(state, high=False)  # seat 1
    state = cut(state, high=False)  # seat 2
    state = cut(state, high=False)  # seat 3 (learning)
    state = cut(state, high=True)   # seat 0, the creator: no defence
    assert state["role"][0] == "limbo" and state["energy"][0] == 199 - 8  # D1: no bonus
    for _ in range(3):
        state = cut(state, high=False)
    assert walk(state) is None
    assert any(t["cards"] == [c("giant")] and t["target"] == 1 for t in state["threats"])


def test_warlock_8_5_9_a_creature_may_attack_the_same_wizard_twice():
    """8.5.9: "Es ist möglich, daß ein wandernder Zauber denselben Zauberer zweimal angreift."
    Thulsa reflects the Giant onto Anvar, who is banished; it walks on from Thulsa's left, past
    Quorm, and reaches Thulsa again."""
    hands = [[c("giant")], [c("crows"), c("mirror"), c("mirror", 2)], [c("wings"), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1))
    state = cut(state, high=True)
    state = cut(state, high=True)  # thulsa
    state = act(state, 1, defend(c("mirror")))
    state = act(state, 1, {"type": "redirect", "victim": 2})
    assert state["role"][2] == "limbo" and walk(state)["at"] == 0
    state = cut(state, high=False)  # quorm
    state = cut(state, high=True)   # thulsa, a second time
    assert task(state) == "ward" and R.next(state) == ToAct((1,))
    assert defend(c("mirror", 2)) in R.legal_actions(state, 1)


def test_warlock_8_5_9_no_return_from_limbo_while_a_creature_walks():
    """8.5.9: "Kein Zauberer kann aus dem Limbo zurückkehren, solange ein Zauber wandert." A
    return is a decision at the start of a segment only, and walks end within their segment."""
    hands = [[c("giant")], [c("crows")], [c("wings"), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1))
    state = cut(state, high=True)
    state = cut(state, high=True)  # seat 1 banished
    assert walk(state) is not None and R.next(state) == Chance(R.next(state).spec)
    assert not any(t["kind"] == "return" for t in state["tasks"])


def test_warlock_4_8_1_wandering_creatures_pass_by_wizards_in_limbo():
    """4.8.1, 8.5.5: "Wandernde Zaubersprüche wirken im Limbo nicht": the walk skips seat 3."""
    hands = [[c("giant")], [c("crows")], [c("wings"), FILLER[0]], [c("wings", 2)]]
    state = walking_giant(hands, circle=(0, 1), wizards=THREE + ["mephisto"],
                          roles=["duel", "duel", "learn", "limbo"])
    state = cut(state, high=True)
    seen = []
    for _ in range(3):
        seen.append(walk(state)["at"])
        state = cut(state, high=False)
    assert seen == [1, 2, 0] and walk(state) is None  # three low cuts: it returns (8.5.3)


def test_warlock_8_2_only_knights_and_heroes_carry_a_weapon():
    """8.2: "Diese Zaubersprüche können zusammen mit den in 8.1. genannten Waffen ausgespielt
    werden" — Crows cannot carry the sword; the wizard may wield it himself (8.1.1)."""
    state = position(["thulsa", "quorm"], [[c("crows"), c("black-sword"), c("hero")],
                                           [c("wings")]])
    assert R.legal_actions(state, 0) == [attack(c("crows")), attack(c("black-sword")),
                                         attack(c("hero")), attack(c("hero"), c("black-sword"))]


def test_warlock_8_5_7_a_creature_cast_against_a_wandering_creature_walks_first():
    """8.5.7: "Zur Abwehr gegen einen wandernden Zauber kann auch ein ebenfalls wandernder Zauber
    ausgespielt werden. Dieser muß abgewickelt werden, bevor der erste wandernde Zauber an seinen
    Platz im Duell zurückkehrt." Thulsa answers Quorm's walking Goblins with a Giant, which
    walks itself (banishing Anvar: 30 for Thulsa), then repels the Goblins."""
    hands = [[c("goblins")], [c("crows"), c("giant")], [c("wings"), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1))
    state = cut(state, high=True)   # the goblins wander
    state = cut(state, high=True)   # thulsa is attacked
    # (8.5: his laid Crows would repel the Goblins too, test_warlock_8_5_the_laid_spell_...)
    assert R.legal_actions(state, 1) == [defend(c("giant")), defend(c("crows"))]
    state = act(state, 1, defend(c("giant")))
    assert len(state["walks"]) == 2 and R.next(state).spec["kind"] == "dice"
    state = cut(state, high=True)   # thulsa's giant wanders too
    assert walk(state)["at"] == 2 and walk(state)["creator"] == 1
    state = cut(state, high=True)   # anvar (learning) cannot answer a giant
    assert state["role"][2] == "limbo" and state["energy"][1] == 199 - 5 - 8 + 30
    state = cut(state, high=False)  # quorm
    assert len(state["walks"]) == 2
    state = cut(state, high=False)  # thulsa: both not in limbo cut low, the giant returns (D13)
    assert state["walks"] == [] and c("giant") in state["discard"]  # it repelled the goblins
    assert [e["code"] for e in state["log"] if e["event"] == "warded"] == ["A"]
    assert [t["target"] for t in state["threats"] if t["cards"] == [c("goblins")]] == [1]


def test_warlock_8_5_a_creature_cast_as_a_defence_in_the_duel_walks_before_it_defends():
    """8.5: "Wann immer eines dieser Wesen erschaffen wird, kann es geschehen, daß es sich
    selbständig macht" — also a creature cast as a defence (D14). Thulsa's Giant, cast against
    Quorm's Trolls, cuts high and walks; both cut low, it returns and repels the Trolls."""
    t = threat([c("trolls")], 0, 1, "white")  # 5
    state = position(["quorm", "thulsa"], [[c("crows")], [c("giant"), c("crows", 2)]],
                     threats=[t], segment=1)
    state = act(state, 1, defend(c("giant")))
    assert task(state) == "cut" and walk(state)["creator"] == 1
    assert walk(state)["resume"]["use"] == "defence" and state["threats"] == []
    public = R.view(state, None)["walks"]
    assert [(w["returns_as"], w["defender"]) for w in public] == [("defence", 1)]
    state = cut(state, high=True)   # it wanders, first to Quorm (Thulsa's left)
    assert walk(state)["at"] == 0 and walk(state)["started"]
    state = cut(state, high=False)  # Quorm
    state = cut(state, high=False)  # Thulsa: all not in limbo cut low (8.5.3): it returns
    assert state["walks"] == [] and state["threats"] == []
    assert {c("trolls"), c("giant")} <= set(state["discard"])
    assert [e["event"] for e in state["log"] if e["event"] in ("wanders", "walk ended", "repelled")] \
        == ["wanders", "walk ended", "repelled"]


def test_warlock_8_5_a_defending_creature_that_cuts_low_defends_at_once():
    """8.5: below 10 the creature does not walk: the defence takes effect at once."""
    t = threat([c("trolls")], 0, 1, "white")
    state = position(["quorm", "thulsa"], [[c("crows")], [c("giant"), c("crows", 2)]],
                     threats=[t], segment=1)
    state = cut(act(state, 1, defend(c("giant"))), high=False)
    assert state["walks"] == [] and state["threats"] == []
    assert [e["event"] for e in state["log"] if e["event"] in ("wanders", "repelled")] == ["repelled"]


def test_warlock_8_5_7_creatures_nest_three_deep_and_return_in_order():
    """8.5.7: a wandering creature cast against a wandering creature "muß abgewickelt werden,
    bevor der erste wandernde Zauber an seinen Platz im Duell zurückkehrt" — at any depth up to
    ``max_walk_depth`` (D14). Quorm's Goblins meet Thulsa's Giant, which meets Anvar's Witch
    conjuring a Dragon (8.3, free); the Dragon returns first, then the Giant, then the Goblins."""
    hands = [[c("goblins")], [c("crows"), c("giant")], [c("witch"), c("dragon"), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1))
    state = cut(state, high=True)   # the Goblins wander, to Thulsa
    state = cut(state, high=True)
    state = act(state, 1, defend(c("giant")))
    state = cut(state, high=True)   # the Giant wanders, to Anvar
    state = cut(state, high=True)
    assert R.legal_actions(state, 2) == [defend(c("dragon")), defend(c("witch"))]
    state = act(state, 2, defend(c("witch")))
    assert task(state) == "conjure" and R.view(state, 2)["decision"]["use"] == "ward"
    assert R.legal_actions(state, 2) == [{"type": "conjure", "cards": [c("dragon")], "as": "defence"}]
    energy = state["energy"][2]
    state = act(state, 2, {"type": "conjure", "cards": [c("dragon")], "as": "defence"})
    assert len(state["walks"]) == 3 and state["energy"][2] == energy  # 8.3.1: free
    state = cut(state, high=True)   # the Dragon wanders, to Quorm
    for _ in range(3):
        state = cut(state, high=False)
    assert state["walks"] == []
    assert [(e["event"], e.get("seat")) for e in state["log"] if e["event"] in ("warded", "walk ended")] \
        == [("walk ended", None), ("warded", 2), ("walk ended", None), ("warded", 1), ("walk ended", None)]
    assert [t["target"] for t in state["threats"] if t["cards"] == [c("goblins")]] == [1]


def test_warlock_D14_option_max_walk_depth_bounds_nesting():
    """D14: with ``max_walk_depth=1`` a creature cast against a walking creature defends at once."""
    hands = [[c("goblins")], [c("crows"), c("giant")], [c("wings"), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1), options={"max_walk_depth": 1})
    state = cut(state, high=True)
    state = cut(state, high=True)
    state = act(state, 1, defend(c("giant")))
    assert state["walks"] == [] and c("giant") in state["discard"]
    assert [e["code"] for e in state["log"] if e["event"] == "warded"] == ["A"]


def test_warlock_D14_a_double_reflection_against_a_creature_sends_it_on_like_R():
    """D14: against a wandering creature R† acts as R: the defender names its next victim."""
    hands = [[c("giant")], [c("crows"), c("anti-hero")], [c("wings"), FILLER[0]]]
    state = walking_giant(hands, circle=(0, 1))
    state = cut(state, high=True)
    state = cut(state, high=True)
    assert R.legal_actions(state, 1) == [defend(c("anti-hero"))]  # giant row: anti-hero R†
    state = act(state, 1, defend(c("anti-hero")))
    assert task(state) == "redirect" and R.legal_actions(state, 1) == [
        {"type": "redirect", "victim": 0}, {"type": "redirect", "victim": 2}]


def test_warlock_D1_option_a_creator_in_limbo_may_still_earn_for_his_creature():
    """D1 (4.1.3 versus 8.5.4): by default a creator banished by his own creature earns nothing
    for the wizards it banishes afterwards (8.5.4); ``wander_bonus_in_limbo`` gives him 4.1.3's
    bonus. Nobody earns for banishing himself."""
    hands = [[c("giant")], [c("crows")], [c("wings"), FILLER[0]]]
    for allowed, bonuses in ((False, []), (True, [0])):
        state = position(THREE, hands, circle=[0, 1],
                         options={"wander_bonus_in_limbo": allowed})
        state = act(state, 2, {"type": "swap", "card": FILLER[0]})
        state = acts(state, (0, attack(c("giant"))), (1, attack(c("crows"))))
        state = cut(state, high=True)
        state = cut(state, high=False)  # seat 1
        state = cut(state, high=False)  # seat 2
        state = cut(state, high=True)   # seat 0, the creator, banished by his own giant
        state = cut(state, high=True)   # seat 1 banished
        assert [e["seat"] for e in state["log"] if e["event"] == "bonus"] == bonuses


def test_warlock_4_1_the_duel_ends_early_when_nobody_can_attack():
    """4.1: "Aufgrund eines Mangels an Angriffskarten ... kann es jedoch bereits vorher enden." """
    state = position(THREE, [[c("wings")], [c("wings", 2)], [c("wings", 3)]])
    state = acts(state, (0, {"type": "mock"}), (1, {"type": "mock"}), (2, {"type": "mock"}))
    assert state["round"] == 2 and task(state) == "decide"


def test_warlock_D3_a_learner_pays_what_he_has_and_with_nothing_left_is_banished():
    """D3, 4.5, 4.8 b: energy never goes below zero; the fee takes what is there."""
    state = decision_round(3, energy=[199, 5, 199])
    state = acts(state, (0, {"type": "decide", "choice": "duel"}),
                 (1, {"type": "decide", "choice": "learn"}),
                 (2, {"type": "decide", "choice": "duel"}))
    assert state["energy"] == [202, 0, 202] and state["out"][1]


def test_warlock_D4_option_swaps_without_a_duel_may_be_free():
    """D4 (4.3): swaps in a round without a duel cost 3 like learning; option 0 makes them free."""
    state = position(["quorm", "thulsa"], [[c("wings")], [c("crows")]], circle=[],
                     roles=[None, None], tasks=[{"kind": "round"}], round=0,
                     options={"lone_swap_cost": 0})
    state = acts(state, (0, {"type": "decide", "choice": "learn"}),
                 (1, {"type": "decide", "choice": "learn"}),
                 (0, {"type": "swap", "card": c("wings")}))
    assert state["energy"] == [199, 199]


def test_warlock_D8_identical_spells_pass_each_other_in_a_duel_of_two():
    """D8: in the attack segment of a duel of two a reflection is no influence: two Cannons
    (magic: no combat value to meet by, 4.6) fly past each other and a defence segment follows
    (4.2.2). Identical physical spells meet by value: test_warlock_D8_4_6_..."""
    state = position(["mephisto", "stileppo"], [[c("cannon"), c("vacuum")],
                                                [c("cannon", 2), c("vacuum", 2)]])
    state = acts(state, (0, attack(c("cannon"))), (1, attack(c("cannon", 2))))
    assert (state["segment"], task(state)) == (2, "defend")


def test_warlock_D10_a_spell_whose_victim_left_the_duel_is_discarded():
    t = threat([c("lightning")], 0, 2, "white")
    state = position(THREE, [[c("crows")], [c("crows", 2)], [c("wings")]], circle=[0, 1],
                     roles=["duel", "duel", "limbo"], threats=[t], segment=1)
    assert c("lightning") in state["discard"] and state["role"][2] == "limbo"


def test_warlock_D11_spells_still_flying_after_segment_6_are_discarded():
    t = threat([c("lightning")], 0, 1, "white")
    state = position(["quorm", "thulsa"], [[c("crows")], [c("crows", 2)]], threats=[t],
                     segment=6)
    assert state["round"] == 2 and c("lightning") in state["discard"]
    assert state["energy"] == [199, 199]


def test_warlock_D16_learners_swap_clockwise_from_the_duel_master():
    """D16 (3.3.1 "Die Spieler tauschen Karten im Uhrzeigersinn"): one after another, clockwise
    from the duel master, before the duellists choose."""
    wizards = ["quorm", "thulsa", "anvar", "mephisto"]
    hands = [[c("wings")], [c("wings", 2)], [c("crows")], [c("crows", 2)]]
    state = position(wizards, hands, circle=[2, 3])
    assert state["dm"] == 2 and R.next(state) == ToAct((0,))
    state = act(state, 0, {"type": "swap", "card": c("wings")})
    assert R.next(state) == ToAct((1,))


# -- 6 the winner ---------------------------------------------------------------------------------

def test_warlock_6_the_last_wizard_in_the_game_wins():
    """6: "Es gewinnt derjenige Zauberer, der als letzter im Spiel verblieben ist"."""
    state = banished_in_segment_1(energy=(199, 199, 30))
    state = clone(state)
    leave(state, 0)
    rules.run(state)
    result = R.next(state)
    assert isinstance(result, Ended) and result.result.placings == (2, 1, 3)


def test_warlock_6_the_last_two_leaving_in_the_same_segment_share_the_win():
    """6: "Sollten sich die beiden letzten Zauberer gleichzeitig (im selben Segment) aus dem Spiel
    zaubern, müssen sie Sieg und Titel teilen.\""""
    state = position(["thulsa", "quorm"], [[c("black-knight"), c("black-sword")],
                                           [c("white-knight"), c("golden-sword")]],
                     energy=[9, 9])
    state = acts(state, (0, attack(c("black-knight"), c("black-sword"))),
                 (1, attack(c("white-knight"), c("golden-sword"))))
    assert state["out"] == [True, True] and state["left_at"][0] == state["left_at"][1]
    result = R.next(state)
    assert isinstance(result, Ended) and result.result.placings == (1, 1)


# -- decisions -------------------------------------------------------------------------------------

def test_warlock_D5_the_round_limit_ends_the_match_by_energy():
    """D5: at ``max_rounds`` the wizards still in the game place by energy."""
    state = position(THREE, [[c("wings")], [c("wings", 2)], [c("wings", 3)]],
                     energy=[120, 100, 130], segment=6, options={"max_rounds": 1})
    result = R.next(state)
    assert isinstance(result, Ended) and result.result.placings == (2, 3, 1)


def test_warlock_6_D5_D25_score_now_is_what_the_round_limit_would_score():
    """6: "Es gewinnt derjenige Zauberer, der als letzter im Spiel verblieben ist"; 4.8.4: "Die
    Rückkehr aus dem Limbo kostet in jedem Fall 30 Energiepunkte." D5, D25: the search bot's
    score_now is the score the round limit would give now: 10,000 + energy in the game, 30 less
    in limbo (he pays it by the balance at the latest), the stamp of leaving out of it; a
    forfeited seat is below every other."""
    state = banished_in_segment_1()
    state = act(state, 2, {"type": "wait"})
    state = clone(state)
    state["options"]["max_rounds"] = 1
    energy = list(state["energy"])
    assert state["role"][2] == "limbo" and energy[2] == 199
    before = json.dumps(state, sort_keys=True)
    assert R.score_now(state) == [10_000 + energy[0], 10_000 + energy[1], 10_000 + 199 - 30]
    assert json.dumps(state, sort_keys=True) == before  # the state is not changed
    gone = clone(state)
    leave(gone, 0)
    gone["forfeited"] = [1]
    assert R.score_now(gone) == [gone["left_at"][0], -1, 10_000 + 169]
    state["segment"], state["tasks"] = 6, [{"kind": "segment"}]  # skip to the balance
    after = clone(state)
    rules.run(after)
    assert after["end_reason"] == "round limit"
    assert after["scores"] == R.score_now(state)  # the round limit then gave what score_now said

def test_warlock_D6_the_event_bound_holds_for_random_playouts_at_every_size():
    """D6: max_events is a true bound; random matches end by themselves well inside it."""
    for players in range(2, 7):
        for seed in range(3):
            records = playout(R, players, seed=bytes([players, seed]) * 16, bot_seed=seed,
                              max_events=R.max_events(players, R.options()))
            assert records[-1]["kind"] == "match_ended"
            assert len(records) < R.max_events(players, R.options()) // 20


def test_warlock_D12_a_forfeit_drops_the_pending_secret_choice_and_the_match_goes_on():
    """D12: a seat that forfeits leaves the game; the others' choices stand."""
    state = decision_round(3)
    state = act(state, 0, {"type": "decide", "choice": "duel"})
    state = R.apply(state, Event.forfeit(1, "resigned"))
    assert state["out"][1] and R.next(state) == ToAct((2,))
    state = act(state, 2, {"type": "decide", "choice": "duel"})
    assert state["circle"] == [0, 2]


def test_warlock_check_refuses_garbage_with_reasons_and_never_raises_otherwise():
    state = decision_round(2)
    for garbage in (None, 1, "duel", [], {}, {"type": 3}, {"type": "decide"},
                    {"type": "decide", "choice": "maybe"}, {"type": "attack", "cards": "x"},
                    {"type": "decide", "choice": "duel", "extra": 1}):
        reason = refusal(state, 0, garbage)
        assert isinstance(reason, str) and reason
    assert "does not act" in refusal(state, 5, {"type": "decide", "choice": "duel"})


def test_warlock_views_show_no_other_hand_no_book_and_no_shuffle():
    """Hidden information: a seat sees its own hand only; nobody sees the spell book."""
    state = decision_round(3)
    for viewer in (0, 1, 2, None):
        view = text(R.view(state, viewer))
        for seat in range(3):
            for card in state["hands"][seat]:
                assert (f'"{card}"' in view) == (seat == viewer)
        assert not any(f'"{card}"' in view for card in state["deck"])
    assert R.hidden_items(state, None) == set(state["deck"])
    assert json.loads(json.dumps(R.view(state, 0))) == R.view(state, 0)


# -- hidden information and determinize (issue 15.1) ---------------------------------------------

def determinized(state, seat, seeds=range(20)):
    """The states ``determinize`` draws from ``seat``'s view, each checked to show that view."""
    view = R.view(state, seat)
    made = [R.determinize(view, seat, random.Random(seed)) for seed in seeds]
    assert all(R.view(m, seat) == view for m in made)
    return made


def spells(cards):
    return sorted(kind(card).key for card in cards)


def test_warlock_2_after_a_reshuffle_the_book_holds_only_the_reshuffled_cards():
    """2: "Ist der Stapel verbraucht, werden die abgelegten Karten gemischt und bilden ein neues
    Zauberbuch." Everyone saw the discard pile, so everyone knows the new book holds only those
    cards, and how many of them each hand has drawn since (the view's ``shuffles``); a
    determinized book never holds a card dealt before."""
    state = position(["quorm", "thulsa"], [[c("crows")], [c("dwarves"), c("dragon")]],
                     circle=[], deck=[], roles=["learn", "learn"], tasks=[{"kind": "round_end"}])
    state = clone(state)
    state["discard"] = [c("wings", i) for i in range(1, 6)]
    state["owed"] = [0, 1]
    state = R.apply(state, Event.chance({"kind": "shuffle", "n": 5}, [4, 3, 2, 1, 0]))
    assert state["hands"] == [[c("crows"), c("wings", 5)],
                              [c("dwarves"), c("dragon"), c("wings", 4)]]
    assert R.view(state, 0)["shuffles"] == [
        {"shuffle": 0, "hands": [1, 2], "book": 0, "unseen": {"dragon": 1, "dwarves": 1},
         "mine": [c("crows")]},
        {"shuffle": 1, "hands": [1, 1], "book": 3, "unseen": {"wings": 4}, "mine": [c("wings", 5)]}]
    for made in determinized(state, 0):
        assert spells(made["deck"]) == ["wings"] * 3
        assert spells(made["hands"][1]) == ["dragon", "dwarves", "wings"]


def test_warlock_D24_the_spell_cut_to_the_bottom_stays_known_and_so_does_who_draws_it():
    """D24: the card cut is shown and goes to the bottom of the book, so its spell is known
    there; the wizard who draws it at last is known to hold it until a card of that spell leaves
    his hand (nobody can tell whether it was that one)."""
    deck = [c("giant", 1), c("crows", 2), c("hero", 1), c("wings", 1)]
    hands = [[c("crows", 1)], [c("dwarves", 1), c("giant", 2)], [c("dragon", 1), c("shield", 1)]]
    state = position(THREE, hands, circle=[], deck=deck, roles=["learn"] * 3,
                     tasks=[{"kind": "cut", "seat": 0}])
    state = R.apply(state, Event.chance(R.next(state).spec, [1]))
    assert state["deck"][-1] == c("giant", 1) and R.view(state, 2)["flow"]["book_bottom"] == "giant"
    for made in determinized(state, 0):
        assert kind(made["deck"][-1]).key == "giant"
    state = clone(state)
    state["owed"] = [0, 0, 0, 1]
    rules.run(state)
    assert state["hands"][1][-1] == c("giant", 1) and state["deck"] == []
    assert R.view(state, 0)["flow"]["known"] == [{"seat": 1, "spell": "giant", "shuffle": 0}]
    assert {spells(m["hands"][2]).count("giant") for m in determinized(state, 0)} == {0, 1}
    assert all("giant" in spells(m["hands"][1]) for m in determinized(state, 0))
    take(state, 1, [c("giant", 2)])
    assert R.view(state, 0)["flow"]["known"] == []


def test_warlock_3_1_another_seats_secret_decision_is_drawn_not_copied():
    """3.1: "Wie ihre Entscheidung ausgefallen ist, behalten sie zunächst für sich." A
    determinized state holds a choice for every seat that has chosen, drawn from its legal
    actions; the seat's own pending choice is its own."""
    state = decision_round()
    state = acts(state, (1, {"type": "decide", "choice": "learn"}),
                 (2, {"type": "decide", "choice": "learn"}))
    drawn = {m["choices"]["1"]["choice"] for m in determinized(state, 0)}
    assert drawn == {"duel", "learn"}
    assert all(m["choices"]["2"] == {"type": "decide", "choice": "learn"}
               for m in determinized(state, 2))


def test_warlock_3_3_4_a_determinized_defender_can_defend():
    """3.3.4: "Zauberer, die dazu nicht in der Lage sind, werden sofort in den Limbo verbannt":
    a wizard in a defence wave holds a defence he can pay for. With 4 energy against Lightning
    only a Shield will do, and every determinized hand of his has one (drawn again, or placed)."""
    t = threat([c("lightning")], 0, 1, "white")
    hands = [[c("crows")], [c("shield"), c("dwarves")]]
    deck = [card for card in CARD_IDS if card not in [c("lightning"), *hands[0], *hands[1]]]
    state = position(["quorm", "thulsa"], hands, threats=[t], segment=1, energy=[199, 4],
                     deck=deck)
    assert R.next(state) == ToAct((1,))
    for made in determinized(state, 0, seeds=range(60)):
        assert R.legal_actions(made, 1) and "shield" in spells(made["hands"][1])


def test_warlock_determinize_depends_on_the_view_only_and_leaves_it_alone():
    """Issue 15.1: the same view and seed give the same state; the view is not changed."""
    state = decision_round()
    state = act(state, 1, {"type": "decide", "choice": "learn"})
    view = R.view(state, 0)
    before = text(view)
    first = R.determinize(view, 0, random.Random(3))
    assert text(view) == before
    assert text(R.encode(R.determinize(json.loads(before), 0, random.Random(3)))) == text(
        R.encode(first))
    assert sorted(first["hands"][1] + first["hands"][2] + first["deck"]) == sorted(
        state["hands"][1] + state["hands"][2] + state["deck"])


# -- bots ---------------------------------------------------------------------------------------

def test_warlock_heuristic_bot_beats_random_in_at_least_70_percent_of_200_two_player_games():
    """Issue 10, item 7: 200 two-player games, seats alternating; a shared win is no win."""
    wins = 0
    for game in range(200):
        seat = game % 2
        bots = {seat: HeuristicBot(R, game), 1 - seat: RandomBot(R, 1000 + game)}
        records = playout(R, 2, seed=f"hvr{game}".encode().ljust(32, b"."), bots=bots,
                          max_events=R.max_events(2, R.options()))
        placings = records[-1]["payload"]["result"]["placings"]
        wins += placings[seat] == 1 and placings[1 - seat] == 2
    assert wins >= 140, wins


def test_warlock_heuristic_bot_plays_legal_matches_at_every_size():
    for players in range(2, 7):
        bots = {s: HeuristicBot(R, s) for s in range(players)}
        records = playout(R, players, seed=bytes([9, players]) * 16, bots=bots,
                          max_events=R.max_events(players, R.options()))
        assert records[-1]["kind"] == "match_ended"
        assert not [r for r in records if r["kind"] == "forfeit"]


# -- version 1 (games/warlock/editions.py) ----------------------------------------------------

def test_version_1_logs_fold_to_their_version_1_snapshots_by_the_edition():
    """docs/event-log.md, "Versions": a match keeps the rules it was played by. Version 2 added
    to the state what everyone knows of the hidden cards (issue 15.1); the 5 golden logs of
    tests/games/data were played by version 1's code, which also wrote the hashes of every state
    it folded (checked for every golden file by tests/games/test_editions.py). Here: version 1's
    states have version 1's shape, and a version 1 snapshot decodes and encodes as it was."""
    import json
    from pathlib import Path

    from games.engine import registry
    from games.engine.log import Folder

    assert R.spec.version == 3
    path = Path(__file__).resolve().parent / "data" / "warlock-v1-golden.jsonl"
    logs = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(logs) == 5
    for records in logs:
        folder = Folder(records[0], get_ruleset=registry.get)
        edition = folder.ruleset
        assert edition is R.edition(1) and edition.spec.version == 1
        for record in records[1:-1]:
            folder.advance(record)
            text = canonical_json(edition.encode(folder.state))
            assert "known" not in json.loads(text) and "known" in folder.state  # version 1's shape
            # a version 1 snapshot decodes (the knowledge starts empty) and encodes as it was
            assert canonical_json(edition.encode(edition.decode(json.loads(text)))) == text
