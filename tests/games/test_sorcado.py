"""Rule tests for Sorcado, one per clause or decision of docs/rules/sorcado.md.

States are built directly (``playing``). The default test realm holds the sixteen monsters in the
order of content.MONSTERS, row by row, so position p holds MONSTER_IDS[p]:

     0 kobold       1 imp           2 skeleton    3 clockwork-spider
     4 salamander   5 troll         6 banshee     7 gargoyle
     8 sea-serpent  9 wyvern       10 basilisk   11 hydra
    12 lich        13 iron-colossus 14 storm-titan 15 archfiend

and the exploration deck holds the four spells. Seat s plays faction FACTIONS[s] (demonologist,
necromancer, ...); in the corners placement seat 0 sits at TL (slots T*, L*), seat 1 at BR.
"""
import functools
import json
import random
import time

import pytest

import games.sorcado  # noqa: F401  (registers "sorcado" until the registry lists it)
from games.engine import registry
from games.engine.bots import RandomBot
from games.engine.log import Folder, LogError, canonical_json, validate
from games.engine.protocol import Chance, Ended, Event, IllegalAction, Ruleset, ToAct
from games.engine.runner import playout
from games.sorcado import DEAL, MAGE_SHUFFLE, Sorcado, act, clone
from games.sorcado.bots import HeuristicBot
from games.sorcado.content import (CARD, CARD_V1, DISPEL, DIVINATION, FACTIONS, MAGE_CARDS,
                                   MAGE_POWER, MONSTERS, POWERS, REALM_CARDS, SLOTS, SPELLS,
                                   TRANSPOSITION, WHIRLWIND, captor, position_slots, realm_scores)

from .digest import fold_digest

R = registry.get("sorcado")
MONSTER_IDS = [m.id for m in MONSTERS]
KOBOLD, IMP, SKELETON, SPIDER = MONSTER_IDS[:4]


def playing(players=2, *, grid=None, deck=None, seat=0, options=None, **fields):
    """A state in the middle of play: factions by seat, full hands, seat ``seat`` about to look."""
    state = R.setup(players, R.options(options or {}))
    factions = list(FACTIONS[:players])
    state.update(grid=list(grid or MONSTER_IDS), deck=list(SPELLS if deck is None else deck),
                 factions=factions, hands=[list(MAGE_CARDS[f]) for f in factions],
                 shuffles=[list(range(8)) for _ in range(players)], order=list(range(players)),
                 phase="look", seat=seat)
    state.update(fields)
    return state


def with_spells(**spells_at):
    """The test realm with spells at the given positions (name=pos); displaced monsters and the
    remaining spells form the deck, displaced monsters first."""
    grid, deck = list(MONSTER_IDS), []
    for spell, pos in spells_at.items():
        deck.append(grid[pos])
        grid[pos] = f"SPL-{spell}"
    return grid, deck + [s for s in SPELLS if s not in grid]


def do(state, *actions):
    """Apply the actions in turn, each by the seat that acts."""
    for action in actions:
        nxt = R.next(state)
        assert isinstance(nxt, ToAct), nxt
        state = R.apply(state, Event.action(nxt.seats[0], action))
    return state


def look(pos):
    return {"type": "look", "pos": pos}


def refusal(state, action, seat=None):
    with pytest.raises(IllegalAction) as caught:
        R.check_action(state, R.next(state).seats[0] if seat is None else seat, action)
    return caught.value.reason


def text(view) -> str:
    return canonical_json(view)


def placed(*cards_by_seat):
    """Placed cards per seat from "SLOT=CARD" strings."""
    return [[item.split("=") for item in cards] for cards in cards_by_seat]


def captors(placements, grid=None, bans=None, factions=None):
    """realm_scores' captor list for the test realm."""
    n = len(placements)
    return realm_scores(grid or MONSTER_IDS, placements, factions or list(FACTIONS[:n]),
                        bans or [None] * 16)[0]


# -- the game type -------------------------------------------------------------------------------

def test_sorcado_spec_registered_with_its_game_type():
    """sorcado v2, 2-4 players, chance and hidden information, one seat at a time."""
    assert isinstance(R, Sorcado)
    spec = R.spec
    assert (spec.name, spec.version, spec.min_players, spec.max_players) == ("sorcado", 2, 2, 4)
    assert spec.chance and spec.hidden_information and not spec.simultaneous
    assert set(R.builtin_bots()) == {"random", "heuristic"}
    assert R.builtin_bots()["random"] is RandomBot


def test_sorcado_content_counts_match_the_rulebook_inhalt():
    """D20-D23: 32 mage cards (8 a faction), 16 monsters, 4 spells; every id distinct and no id
    inside another (views are searched as text)."""
    mages = [c for f in FACTIONS for c in MAGE_CARDS[f]]
    assert len(mages) == 32 and all(len(MAGE_CARDS[f]) == 8 for f in FACTIONS)
    assert len(MONSTERS) == 16 and len(SPELLS) == 4 and len(REALM_CARDS) == 20
    ids = mages + list(REALM_CARDS)
    assert len(set(ids)) == len(ids)
    assert not [(a, b) for a in ids for b in ids if a != b and a in b]


def test_sorcado_D20_every_faction_has_the_same_power_total():
    assert {f: sum(POWERS[f]) for f in FACTIONS} == {f: 24 for f in FACTIONS}
    assert all(sorted(MAGE_POWER[c] for c in MAGE_CARDS[f]) == sorted(POWERS[f]) for f in FACTIONS)


def test_sorcado_D22_the_faction_modifiers_are_one_pattern_turned_round_the_factions():
    """D22 (version 2): turning the factions one place round (Demonologist -> Necromancer ->
    Techno-Mage -> Elementalist -> Demonologist) maps the monster list onto itself, so the
    content favours no faction; each has +2 at strength 2, +1 and -1 at 3, +2 and -2 at 6."""
    turn = dict(zip(FACTIONS, FACTIONS[1:] + FACTIONS[:1]))
    cards = {(m.strength, m.margin, m.special, tuple(sorted(m.modifiers.items()))) for m in MONSTERS}
    turned = {(m.strength, m.margin, m.special,
               tuple(sorted((turn[f], v) for f, v in m.modifiers.items()))) for m in MONSTERS}
    assert turned == cards
    for faction in FACTIONS:
        mods = sorted((m.strength, m.modifiers[faction]) for m in MONSTERS if faction in m.modifiers)
        assert mods == [(2, 2), (3, -1), (3, 1), (6, -2), (6, 2)], (faction, mods)


def test_sorcado_D20_every_faction_holds_the_same_mage_powers():
    """D20 (version 2): the same eight powers for every faction (version 1's spreads decided the
    contested lines); version 1's cards are kept for its matches."""
    assert {tuple(sorted(MAGE_POWER[c] for c in MAGE_CARDS[f])) for f in FACTIONS} == {(0, 1, 2, 3, 3, 4, 5, 6)}
    assert R.edition(1).spec.version == 1
    from games.sorcado.content import CONTENT
    assert CONTENT[1].mage_cards["demonologist"] != CONTENT[2].mage_cards["demonologist"]
    assert CONTENT[1].card["MON-archfiend"].strength == 7 and CONTENT[2].card["MON-archfiend"].strength == 6


def test_sorcado_V_5_the_highest_drawn_card_plays_last():
    state = R.apply(R.setup(2, R.options({"factions": "by-seat"})), Event.chance(DEAL, list(range(20))))
    state = R.apply(state, Event.chance(MAGE_SHUFFLE, [7, 0, 1, 2, 3, 4, 5, 6]))  # DEM-6a: 6
    state = R.apply(state, Event.chance(MAGE_SHUFFLE, [6, 0, 1, 2, 3, 4, 5, 7]))  # NEC-5a: 5
    assert state["draws"] == [[6], [5]] and state["order"] == [1, 0]
    assert R.next(state) == ToAct((1,))
    assert state["hands"][0] == list(MAGE_CARDS["demonologist"])  # V.5: the card goes back


def test_sorcado_D6_a_tie_for_highest_shows_the_next_card_of_each_tied_shuffle():
    state = R.apply(R.setup(2, R.options({"factions": "by-seat"})), Event.chance(DEAL, list(range(20))))
    state = R.apply(state, Event.chance(MAGE_SHUFFLE, [3, 0, 1, 2, 4, 5, 6, 7]))  # 3, then 0
    state = R.apply(state, Event.chance(MAGE_SHUFFLE, [4, 1, 0, 2, 3, 5, 6, 7]))  # 3, then 1
    assert state["draws"] == [[3, 0], [3, 1]] and state["order"] == [0, 1]
    public = text(R.view(state, None))
    assert "[3,0,1,2,4,5,6,7]" not in public and "[4,1,0,2,3,5,6,7]" not in public and '"draws":[[3,0],[3,1]]' in public


# -- placement (V.4) -----------------------------------------------------------------------------

def test_sorcado_V_4a_corners_one_own_card_per_slot_on_the_two_sides_of_the_corner():
    state = playing(phase="place")
    slots = {a["slot"] for a in R.legal_actions(state, 0)}
    assert slots == {"T0", "T1", "T2", "T3", "L0", "L1", "L2", "L3"}
    assert "not open" in refusal(state, {"type": "place", "card": "DEM-6a", "slot": "B0"})
    state = do(state, {"type": "place", "card": "DEM-6a", "slot": "T0"}, {"type": "pass"})
    state.update(phase="place", seat=0)
    assert "T0" not in {a["slot"] for a in R.legal_actions(state, 0)}
    assert {a["slot"] for a in R.legal_actions(playing(seat=1, phase="place"), 1)} == \
        {"B0", "B1", "B2", "B3", "R0", "R1", "R2", "R3"}


def test_sorcado_V_4b_border_any_slot_until_it_holds_two_cards():
    state = playing(options={"placement": "border"}, phase="place",
                    placed=placed(["T0=DEM-6a"], ["T0=NEC-5a", "B3=NEC-4a"]))
    state["hands"][0].remove("DEM-6a")
    slots = {a["slot"] for a in R.legal_actions(state, 0)}
    assert len(slots) == 15 and "T0" not in slots and "B3" in slots


# -- the turn (S.1-S.5) --------------------------------------------------------------------------

def test_sorcado_S_1_a_turn_looks_at_two_cards_one_after_the_other():
    state = do(playing(), look(0))
    assert state["phase"] == "look" and "already" in refusal(state, look(0))
    state = do(state, look(5))
    assert state["phase"] == "swap" and state["known"][0][0] == KOBOLD and state["known"][0][5] == "MON-troll"
    assert R.legal_actions(state, 0) == [{"type": "swap"}, {"type": "keep"}]


def test_sorcado_S_1_a_spell_is_revealed_resolved_discarded_and_not_counted():
    grid, deck = with_spells(dispel=6)
    state = playing(grid=grid, deck=deck, bans=[None, 1] + [None] * 14, ban_used=[False, True])
    state = do(state, look(6))
    assert state["bans"] == [None] * 16  # Dispel acted
    assert state["discard"] == [DISPEL] and state["grid"][6] == "MON-banshee"  # refilled from the deck
    assert state["looked"] == [] and state["phase"] == "look"
    assert state["known"][0][6] is None  # the refill is unseen


def test_sorcado_S_2_the_two_cards_may_be_swapped_face_down_or_left():
    state = do(playing(), look(0), look(15), {"type": "swap"})
    assert state["grid"][0] == "MON-archfiend" and state["grid"][15] == KOBOLD
    assert state["phase"] == "place"
    kept = do(playing(), look(0), look(15), {"type": "keep"})
    assert kept["grid"] == MONSTER_IDS


def test_sorcado_S_3_a_mage_card_lies_face_down_beside_a_row_or_column():
    state = do(playing(), look(0), look(1), {"type": "keep"},
               {"type": "place", "card": "DEM-6a", "slot": "L2"})
    assert state["placed"][0] == [["L2", "DEM-6a"]] and "DEM-6a" not in state["hands"][0]
    public, other = R.view(state, None), R.view(state, 1)
    assert public["slots"]["L2"] == [0] and public["hand_sizes"] == [7, 8]
    assert "DEM-6a" not in text(public) and "DEM-6a" not in text(other)
    assert R.view(state, 0)["my_placed"] == [["L2", "DEM-6a"]]


def test_sorcado_S_4_B_1_the_ban_card_is_played_once():
    state = do(playing(), look(0), look(1), {"type": "keep"},
               {"type": "place", "card": "DEM-6a", "slot": "L2"}, {"type": "ban", "pos": 10})
    assert state["bans"][10] == 0 and state["ban_used"] == [True, False]
    state = do(state, look(2), look(3), {"type": "keep"}, {"type": "place", "card": "NEC-5a", "slot": "B1"},
               {"type": "pass"}, look(4), look(5), {"type": "keep"})
    state = do(state, {"type": "place", "card": "DEM-5a", "slot": "L3"})
    assert state["seat"] == 1 and state["phase"] == "look"  # no ban decision for a spent card


def test_sorcado_S_5_the_next_seat_in_the_order_takes_the_next_turn():
    state = playing(3, order=[2, 0, 1], seat=0)
    state = do(state, look(0), look(1), {"type": "keep"},
               {"type": "place", "card": "DEM-0a", "slot": "T0"}, {"type": "pass"})
    assert R.next(state) == ToAct((1,)) and state["prev_seen"] == [0, 1]


# -- looking (A.1, A.2) ----------------------------------------------------------------------------

def test_sorcado_A_1_at_most_one_of_the_previous_players_cards():
    state = playing(seat=1, prev_seen=[0, 1])
    assert {0, 1} <= {a["pos"] for a in R.legal_actions(state, 1)}
    state = do(state, look(0))
    assert look(1) not in R.legal_actions(state, 1)
    assert "previous player" in refusal(state, look(1))
    assert do(state, look(2))["phase"] == "swap"


def test_sorcado_D9_the_previous_players_looks_include_divination_and_follow_the_cards():
    grid, deck = with_spells(divination=5)
    state = do(playing(grid=grid, deck=deck), look(5), {"type": "divine", "pos": 12},
               look(0), look(1), {"type": "swap"}, {"type": "place", "card": "DEM-0a", "slot": "T0"},
               {"type": "pass"})
    assert state["seat"] == 1 and sorted(state["prev_seen"]) == [0, 1, 12]
    state = do(state, look(12))
    assert not {0, 1} & {a["pos"] for a in R.legal_actions(state, 1)}


def test_sorcado_A_2_a_spell_that_moves_the_first_card_frees_that_look():
    grid, deck = with_spells(whirlwind=3)
    state = do(playing(grid=grid, deck=deck), look(0), look(3))
    # Whirlwind turned row 0 (positions 0-2 around, 3 is the spell): 0->1, 1->2, 2->0
    assert state["grid"][:3] == [SKELETON, KOBOLD, IMP] and state["grid"][3] == "MON-clockwork-spider"
    assert state["looked"] == [] and state["phase"] == "look"
    assert state["known"][0][1] == KOBOLD and state["known"][0][0] is None
    assert do(state, look(1))["phase"] == "look"  # two looks still to take


def test_sorcado_A_2_a_spell_that_leaves_the_first_card_in_place_frees_nothing():
    grid, deck = with_spells(whirlwind=3)
    state = do(playing(grid=grid, deck=deck), look(12), look(3))
    assert state["looked"] == [12]
    assert do(state, look(0))["phase"] == "swap"


def freed_previous_card(options=None):
    """Seat 0 looks at the kobold (0), which the previous player saw with the lich (12); the
    Whirlwind at 3 turns row 0 (0->1, 1->2, 2->0), so the kobold's look is freed (A.2)."""
    grid, deck = with_spells(whirlwind=3)
    return do(playing(grid=grid, deck=deck, prev_seen=[0, 12], options=options), look(0), look(3))


def test_sorcado_D25_a_look_a_whirlwind_freed_still_counts_for_A_1():
    """A.1 "Du darfst nur maximal eine der Karten ansehen, die sich der vorherige Spieler
    angesehen hat"; A.2 "... so zählt diese erste Karte nicht zum Limit der anzusehenden Karten":
    the freed look leaves S.1's count of two, but the seat did look at one of the previous
    player's cards, so the other (the lich at 12) stays barred; the kobold itself may be looked
    at again (at its new place 1), and so may any other card."""
    state = freed_previous_card()
    assert state["looked"] == [] and state["freed"] == [1] and state["prev_seen"] == [1, 12]
    assert "previous player" in refusal(state, look(12))
    allowed = {a["pos"] for a in R.legal_actions(state, 0)}
    assert 12 not in allowed and {1, 5} <= allowed
    state = do(state, look(1), look(5))
    assert state["phase"] == "swap" and state["known"][0][1] == KOBOLD


def test_sorcado_D25_freed_look_s1_and_a1_option_frees_it_from_A_1_as_well():
    """D25 option freed_look="s1-and-a1" (version 1's reading): the freed look counts toward
    neither limit, so the seat may also look at the previous player's other card."""
    state = freed_previous_card({"freed_look": "s1-and-a1"})
    assert 12 in {a["pos"] for a in R.legal_actions(state, 0)}
    state = do(state, look(12))
    assert state["known"][0][12] == "MON-lich" and state["known"][0][1] == KOBOLD
    assert "previous player" in refusal(state, look(1))  # now A.1's one card is the lich


# -- the ban card (B.2, B.3) -----------------------------------------------------------------------

def test_sorcado_B_2_a_card_carries_one_ban_token():
    state = playing(phase="ban", bans=[None] * 10 + [1] + [None] * 5)
    assert {"type": "ban", "pos": 10} not in R.legal_actions(state, 0)
    assert "ban token" in refusal(state, {"type": "ban", "pos": 10})


def test_sorcado_B_3_a_banned_card_is_neither_looked_at_nor_moved():
    grid, deck = with_spells(whirlwind=3, transposition=7)
    bans = [None, 1] + [None] * 14
    state = playing(grid=grid, deck=deck, bans=bans)
    assert "ban token" in refusal(state, look(1))
    state = do(state, look(3))  # Whirlwind: 0 and 2 change places around the banned 1
    assert state["grid"][:3] == [SKELETON, IMP, KOBOLD]
    state = do(state, look(7))
    pairs = {(a["a"], a["b"]) for a in R.legal_actions(state, 0) if a["type"] == "transpose"}
    assert not any(1 in pair or 7 in pair for pair in pairs) and len(pairs) == 13 * 14 // 2
    assert "cannot be moved" in refusal(state, {"type": "transpose", "a": 0, "b": 1})


def test_sorcado_B_3_divination_may_look_at_a_banned_card():
    grid, deck = with_spells(divination=5)
    state = playing(grid=grid, deck=deck, bans=[None] * 10 + [1] + [None] * 5)
    state = do(state, look(5))
    assert state["phase"] == "divine" and R.view(state, None)["face_up"][5] == DIVINATION
    assert {"type": "divine", "pos": 10} in R.legal_actions(state, 0)
    assert "Divination card itself" in refusal(state, {"type": "divine", "pos": 5})
    state = do(state, {"type": "divine", "pos": 10})
    assert state["known"][0][10] == "MON-basilisk" and state["looked"] == []
    assert state["discard"] == [DIVINATION] and state["grid"][5] == "MON-troll"
    assert "ban token" in refusal(state, look(10))


def test_sorcado_B_3_divination_shows_a_banned_spell_without_letting_it_act():
    """B.3: "erlaubt die Karte Weissagung ... eine Karte mit einer Monster-Bannmarke anzusehen
    (jedoch nicht, sie zu bewegen)": a banned Whirlwind is seen, but neither acts nor leaves."""
    grid, deck = with_spells(divination=5, whirlwind=10)
    state = playing(grid=grid, deck=deck, bans=[None] * 10 + [1] + [None] * 5)
    row = state["grid"][8:12]
    state = do(state, look(5), {"type": "divine", "pos": 10})
    assert state["known"][0][10] == WHIRLWIND and state["grid"][10] == WHIRLWIND
    assert state["grid"][8:12] == row and state["bans"][10] == 1
    assert state["discard"] == [DIVINATION] and state["phase"] == "look"
    assert WHIRLWIND not in text(R.view(state, 1)) and WHIRLWIND not in text(R.view(state, None))


# -- the spells (D10-D12) ---------------------------------------------------------------------------

def test_sorcado_D11_transposition_swaps_two_cards_unseen_and_knowledge_follows():
    grid, deck = with_spells(transposition=6)
    known = [[KOBOLD] + [None] * 15, [None] * 15 + ["MON-archfiend"]]
    state = do(playing(grid=grid, deck=deck, known=known), look(6),
               {"type": "transpose", "a": 0, "b": 15})
    assert state["grid"][0] == "MON-archfiend" and state["grid"][15] == KOBOLD
    assert state["known"][0][15] == KOBOLD and state["known"][1][0] == "MON-archfiend"
    assert state["phase"] == "look" and state["discard"] == [TRANSPOSITION]
    declined = do(playing(grid=grid, deck=deck), look(6), {"type": "keep"})
    assert declined["grid"][:6] == grid[:6] and declined["phase"] == "look"


def test_sorcado_D10_a_spell_found_by_divination_is_revealed_and_resolved():
    grid, deck = with_spells(divination=0, dispel=1)
    state = playing(grid=grid, deck=deck, bans=[None] * 9 + [1] + [None] * 6)
    state = do(state, look(0), {"type": "divine", "pos": 1})
    assert state["discard"] == [DIVINATION, DISPEL] and state["bans"] == [None] * 16
    assert state["grid"][:2] == [KOBOLD, IMP] and state["phase"] == "look"


def test_sorcado_D11_whirlwind_spares_the_other_rows():
    grid, deck = with_spells(whirlwind=5)
    state = do(playing(grid=grid, deck=deck), look(5))
    assert state["grid"][4:8] == ["MON-gargoyle", "MON-troll", "MON-salamander", "MON-banshee"]
    assert state["grid"][:4] == MONSTER_IDS[:4] and state["grid"][8:] == MONSTER_IDS[8:]
    assert state["discard"] == [WHIRLWIND]


# -- knowledge and views (D7) -----------------------------------------------------------------------

def test_sorcado_D7_a_seat_that_did_not_look_does_not_know():
    state = do(playing(), look(0), look(13))
    assert R.view(state, 0)["known"][0] == KOBOLD and R.view(state, 0)["known"][13] == "MON-iron-colossus"
    assert R.view(state, 1)["known"] == [None] * 16
    for viewer in (1, None):
        assert KOBOLD not in text(R.view(state, viewer))
        assert "MON-iron-colossus" not in text(R.view(state, viewer))
    assert R.view(state, 1)["seen"] == [0, 13]  # which positions: public; what: not


def test_sorcado_D7_after_a_swap_it_saw_a_seat_still_knows_where_its_cards_are():
    state = do(playing(), look(0), look(1), {"type": "keep"},
               {"type": "place", "card": "DEM-0a", "slot": "T0"}, {"type": "pass"})
    state = do(state, look(0), look(9), {"type": "swap"})  # seat 1 moves the kobold to 9
    mine = R.view(state, 0)["known"]
    assert mine[9] == KOBOLD and mine[1] == IMP and mine[0] is None
    theirs = R.view(state, 1)["known"]
    assert theirs[9] == KOBOLD and theirs[0] == "MON-wyvern"


def test_sorcado_D7_every_movement_is_on_public_record():
    """D7: a swap, a Whirlwind and a Transposition happen face down in front of everyone."""
    grid, deck = with_spells(whirlwind=4, transposition=14)
    state = do(playing(grid=grid, deck=deck), look(0), look(9), {"type": "swap"})
    swap = {"seat": 0, "cause": "swap", "moves": [[0, 9], [9, 0]]}
    assert R.view(state, 1)["moves"] == R.view(state, None)["moves"] == [swap]
    state = do(state, {"type": "place", "card": "DEM-0a", "slot": "T0"}, {"type": "pass"},
               look(4), look(14), {"type": "transpose", "a": 1, "b": 2})
    assert R.view(state, 0)["moves"] == [swap, {"seat": 1, "cause": "whirlwind",
                                                "moves": [[5, 6], [6, 7], [7, 5]]},
                                         {"seat": 1, "cause": "transposition", "moves": [[1, 2], [2, 1]]}]


def test_sorcado_D7_the_public_view_shows_only_face_up_cards():
    grid, deck = with_spells(divination=5)
    state = do(playing(grid=grid, deck=deck), look(0), look(5))
    public = R.view(state, None)
    assert public["face_up"] == [None] * 5 + [DIVINATION] + [None] * 10
    body = text(public)
    assert not [c for c in list(REALM_CARDS) + list(MAGE_CARDS["demonologist"]) if c in body and c != DIVINATION]


def test_sorcado_D7_hidden_items_appear_only_in_their_owners_view():
    state = do(playing(), look(0), look(1), {"type": "keep"},
               {"type": "place", "card": "DEM-6a", "slot": "T0"}, {"type": "pass"}, look(2))
    mine, theirs, nobody = (R.hidden_items(state, s) for s in (0, 1, None))
    assert {KOBOLD, IMP, "DEM-6a", "DEM-0a"} <= mine and SKELETON in theirs and "NEC-5a" in theirs
    assert SKELETON not in nobody and "MON-archfiend" in nobody and DIVINATION in nobody
    for item in mine:
        assert json.dumps(item) in text(R.view(state, 0))
        assert json.dumps(item) not in text(R.view(state, 1)) + text(R.view(state, None))
    for item in nobody:
        assert not any(item in text(R.view(state, v)) for v in (0, 1, None))


# -- scoring (W, M, E) ----------------------------------------------------------------------------

def test_sorcado_W_1_W_2_row_plus_column_power_captures_the_monster():
    # the salamander at 4 (row 1, column 0): seat 0 has L1=3 and T0=2 (5), seat 1 R1=4
    caps = captors(placed(["L1=DEM-3a", "T0=DEM-2a"], ["R1=NEC-4a"]))
    assert caps[4] == 0
    caps = captors(placed(["L1=DEM-3a"], ["R1=NEC-4a"]))
    assert caps[4] == 1 and caps[5] is None  # margin 2 for the troll (M.1): 4 vs 3 is too little


def test_sorcado_W_3_a_tie_discards_the_monster():
    caps = captors(placed(["T3=DEM-3a"], ["B3=NEC-3a"]))
    assert caps[3] is None  # the spider: a Techno-Mage bonus only, so 3 against 3
    assert caps[7] == 1  # the gargoyle (M.2): Necromancer +1, Demonologist -1: 4 against 2


def test_sorcado_M_1_a_margin_must_be_reached_over_the_next_player():
    # the archfiend at 15 needs a lead of 3; necromancers lose 2 on it
    assert captors(placed(["T3=DEM-1a"], ["B3=NEC-5a"]))[15] is None  # 1+2=3 vs 5-2=3
    assert captors(placed(["T3=DEM-3a"], ["B3=NEC-4a"]))[15] == 0     # 5 vs 2
    assert captors(placed(["T3=DEM-2a"], ["B3=NEC-4a"]))[15] is None  # 4 vs 2: lead 2 < 3


def test_sorcado_M_2_faction_bonus_only_with_a_card_in_the_lines():
    # the imp at 1: demonologists +2
    assert captors(placed(["T1=DEM-2a"], ["B1=NEC-3a"]))[1] == 0
    assert captors(placed([], ["B1=NEC-1a"]))[1] == 1  # no card: no bonus


def test_sorcado_M_4_row_only_and_column_only():
    # sea serpent at 8 (row 2): row only; wyvern at 9 (column 1): column only
    caps = captors(placed(["T0=DEM-6a", "T1=DEM-6b"], ["R2=NEC-1a"]))
    assert caps[8] == 1 and caps[9] == 0
    caps = captors(placed(["L2=DEM-6a"], ["B1=NEC-1a"]))
    assert caps[8] == 0 and caps[9] == 1


def test_sorcado_M_4_the_kobold_goes_to_the_lowest_positive_total():
    assert captors(placed(["T0=DEM-6a"], ["B0=NEC-1a"]))[0] == 1
    assert captors(placed(["T0=DEM-1a"], ["B0=NEC-1a"]))[0] is None
    assert captors(placed(["T0=DEM-0a"], ["B0=NEC-2a"]))[0] == 1  # a total of 0 takes nothing


def test_sorcado_M_4_a_banned_basilisk_goes_to_the_banner():
    strong = placed(["T2=DEM-6a", "L2=DEM-6b"], [])
    assert captors(strong, bans=[None] * 10 + [1] + [None] * 5)[10] == 1
    assert captors(strong)[10] == 0


def test_sorcado_M_4_the_hydra_needs_two_cards_of_its_winner():
    assert captors(placed(["T3=DEM-6a"], ["B3=NEC-1a"]))[11] is None
    assert captors(placed(["T3=DEM-3a", "L2=DEM-1a"], ["B3=NEC-1a"]))[11] == 0


def test_sorcado_E_1_points_are_monster_strengths_plus_three_a_spell():
    grid, _ = with_spells(dispel=0)
    caps, scores = realm_scores(grid, placed(["L0=DEM-6a"], []), ["demonologist", "necromancer"],
                                [None] * 16)
    assert caps[:4] == [0, 0, 0, 0] and scores == [3 + CARD[IMP].strength + 2 + 2, 0]
    assert CARD[DISPEL].strength == 3


def test_sorcado_D14_the_game_ends_when_every_mage_card_lies():
    state = playing()
    state["hands"] = [["DEM-6a"], ["NEC-5a"]]
    state = do(state, look(0), look(1), {"type": "keep"}, {"type": "place", "card": "DEM-6a", "slot": "L0"},
               {"type": "pass"}, look(2), look(3), {"type": "keep"},
               {"type": "place", "card": "NEC-5a", "slot": "B0"}, {"type": "pass"})
    nxt = R.next(state)
    # seat 0 (L0=6): imp, skeleton, spider; seat 1 (B0=5): kobold (the lowest), salamander, lich
    assert isinstance(nxt, Ended) and state["scores"] == [2 + 2 + 2, 1 + 2 + 6]
    assert nxt.result.placings == (2, 1) and R.hidden_items(state, 0) == set()
    assert R.view(state, 1)["placed"][0] == [["L0", "DEM-6a"]]


def last_turn_tie(options=None):
    """Both seats hold one card, a 0 each: each takes only the 2-point monster its faction bonus
    wins (seat 0 the imp in row 0, seat 1 the salamander in column 0), a tie 2-2."""
    state = playing(options=options)
    state["hands"] = [["DEM-0a"], ["ELE-0a"]]
    state["factions"] = ["demonologist", "elementalist"]
    return do(state, look(0), look(1), {"type": "keep"}, {"type": "place", "card": "DEM-0a", "slot": "L0"},
              {"type": "pass"}, look(2), look(3), {"type": "keep"},
              {"type": "place", "card": "ELE-0a", "slot": "B0"}, {"type": "pass"})


def test_sorcado_E_2_a_tie_plays_again_by_default():
    """E.2 "Bei einem Unentschieden - spielt nochmal!": by default a tie for first deals a new
    game (new realm, new draw, same factions) instead of ending the match."""
    assert R.options({}).tie == "play-again"
    state = last_turn_tie()
    assert R.next(state) == Chance(DEAL) and state["game"] == 2 and state["phase"] == "deal"
    assert [game["scores"] for game in state["history"]] == [[2, 2]]
    assert state["factions"] == ["demonologist", "elementalist"] and state["placed"] == [[], []]


def test_sorcado_D18_tie_shared_option_ends_a_tie_as_a_shared_victory():
    """D18 option tie="shared": the tied seats share first place at once."""
    state = last_turn_tie({"tie": "shared"})
    assert R.next(state).result.placings == (1, 1) and state["history"] == []


def replay_tie_again(state):
    """Game 2 after last_turn_tie: the same cards and moves, so the same 2-2 tie."""
    state.update(playing(options=state["options"], history=state["history"], game=2,
                         hands=[["DEM-0a"], ["ELE-0a"]], factions=["demonologist", "elementalist"]))
    return do(state, look(0), look(1), {"type": "keep"}, {"type": "place", "card": "DEM-0a", "slot": "L0"},
              {"type": "pass"}, look(2), look(3), {"type": "keep"},
              {"type": "place", "card": "ELE-0a", "slot": "B0"}, {"type": "pass"})


def test_sorcado_E_2_play_again_deals_a_new_game_up_to_the_replay_limit():
    """E.2, D18: at most `replays` new games; a tie after the last stands as a shared victory."""
    state = replay_tie_again(last_turn_tie({"replays": 1}))
    assert R.next(state).result.placings == (1, 1)  # the limit is reached: the tie stands
    assert len(state["history"]) == 1 and state["game"] == 2
    again = replay_tie_again(last_turn_tie({"replays": 2}))
    assert R.next(again) == Chance(DEAL) and again["game"] == 3


def test_sorcado_E_2_the_tied_games_reveal_stays_in_every_view():
    """E.2, D18: after "spielt nochmal!" every view keeps what the tied game's end turned up
    for everyone (its public view at the end under tie="shared"), with cards by name and power,
    and nothing else: not the exploration deck, which was never shown."""
    shown = R.view(last_turn_tie({"tie": "shared"}), None)
    state = last_turn_tie()
    expected = {"game": 1, "scores": shown["scores"], "captures": shown["captures"],
                "bans": shown["bans"], "realm": [CARD[card].name for card in shown["face_up"]],
                "placed": [[[slot, MAGE_POWER[card]] for slot, card in cards] for cards in shown["placed"]]}
    assert state["history"] == [expected] and expected["realm"][:2] == ["Kobold", "Imp"]
    assert expected["placed"] == [[["L0", 0]], [["B0", 0]]] and expected["captures"][1] == 0
    state = R.apply(state, Event.chance(DEAL, list(range(19, -1, -1))))  # factions carry over
    for _ in range(2):
        state = R.apply(state, Event.chance(MAGE_SHUFFLE, list(range(8))))
    state = do(state, look(next(a["pos"] for a in R.legal_actions(state, state["seat"]))))
    assert R.hidden_items(state, None) and R.hidden_items(state, 0) and R.hidden_items(state, 1)
    for viewer in (None, 0, 1):
        view = R.view(state, viewer)
        assert view["history"] == [expected] and view["game"] == 2
        body = text(view)
        assert not [spell for spell in SPELLS if CARD[spell].name in text(view["history"])]
        assert not [c for c in R.hidden_items(state, None) if json.dumps(c) in body]
        others = set().union(*(R.hidden_items(state, s) for s in (0, 1) if s != viewer))
        assert not [c for c in others if json.dumps(c) in body]


# -- forfeits, legality, bounds ---------------------------------------------------------------------

def test_sorcado_D19_a_forfeit_discards_the_hand_ends_the_turn_and_places_last():
    grid, deck = with_spells(divination=5)
    state = do(playing(3, grid=grid, deck=deck, order=[0, 1, 2]), look(5))
    state = R.apply(state, Event.forfeit(0, "resigned"))
    assert state["hands"][0] == [] and state["seat"] == 1 and state["phase"] == "look"
    assert state["discard"] == [DIVINATION] and state["pending"] is None
    state = R.apply(state, Event.forfeit(2, "timeout"))
    nxt = R.next(state)
    assert isinstance(nxt, Ended) and nxt.result.placings == (2, 1, 2)


def test_sorcado_D13_a_forfeited_seats_ban_token_stays():
    state = do(playing(3, order=[0, 1, 2]), look(0), look(1), {"type": "keep"},
               {"type": "place", "card": "DEM-0a", "slot": "T0"}, {"type": "ban", "pos": 12})
    assert state["bans"][12] == 0
    state = R.apply(state, Event.forfeit(0, "resigned"))
    assert state["bans"][12] == 0 and "ban token" in refusal(do(state), look(12))


def test_sorcado_D19_the_last_opponent_leaving_scores_the_realm_at_once():
    grid, deck = with_spells(divination=5)
    state = do(playing(grid=grid, deck=deck), look(5))
    state = R.apply(state, Event.forfeit(1, "timeout"))
    nxt = R.next(state)
    assert isinstance(nxt, Ended) and nxt.result.placings == (1, 2)
    assert state["discard"] == [DIVINATION] and state["grid"][5] == "MON-troll"


def test_sorcado_D19_everyone_leaving_before_the_deal_ends_the_match():
    state = R.apply(R.setup(2, R.options({})), Event.forfeit(1, "crash"))
    assert R.next(state).result.placings == (1, 2)


GARBAGE = [None, 1, "look", [], {}, {"type": 1}, {"type": "look"}, {"type": "look", "pos": True},
           {"type": "look", "pos": 1.0}, {"type": "look", "pos": 99}, {"type": "look", "pos": [1]},
           {"type": "place", "card": ["x"], "slot": {}}, {"type": "transpose", "a": 2, "b": 1},
           {"type": "faction", "faction": ["demonologist"]}, {"type": "swap", "x": 1}]


@pytest.mark.parametrize("phase", ["look", "divine", "transpose", "swap", "place", "ban"])
def test_sorcado_check_refuses_garbage_with_a_reason_in_every_phase(phase):
    state = playing(phase=phase, pending=5 if phase in ("divine", "transpose") else None)
    for action in GARBAGE:
        if action not in R.legal_actions(state, 0):
            assert refusal(state, action, seat=0)
    for action in R.legal_actions(state, 0):
        R.check_action(state, 0, action)
        assert "does not act" in refusal(state, action, seat=1)


def test_sorcado_apply_leaves_its_input_alone_and_states_round_trip():
    state = playing()
    before = json.dumps(R.encode(state))
    after = do(state, look(0), look(1), {"type": "swap"})
    assert json.dumps(R.encode(state)) == before
    assert R.encode(R.decode(R.encode(after))) == R.encode(after)


def test_sorcado_matches_end_within_max_events_and_validate():
    for players, options in ((2, {}), (3, {"placement": "border"}), (4, {"tie": "shared"})):
        log = playout(R, players, seed=bytes([players]) * 32, options=options)
        assert len(log) <= R.max_events(players, R.options(options))
        assert validate(log).ok
    assert validate(playout(R, 4, seed=b"s" * 32)).ok


def test_sorcado_heuristic_bot_plays_legal_matches_from_its_view():
    bots = {0: HeuristicBot(R, 1), 1: RandomBot(R, 2), 2: HeuristicBot(R, 3)}
    log = playout(R, 3, seed=b"h" * 32, bots=bots)
    assert log[-1]["kind"] == "match_ended" and not [r for r in log if r["kind"] == "forfeit"]


# -- the balance hooks (bench/balance.py) -----------------------------------------------------------

def test_sorcado_balance_hooks_name_each_seats_faction_and_place_in_the_order():
    """seat_roles: the factions (V.3); seat_positions: the place in the V.5 order, 0 looks first;
    one entry per seat, a seat that left before the draw round the table after the others."""
    state = R.apply(R.setup(3, R.options({"factions": "by-seat"})), Event.chance(DEAL, list(range(20))))
    state = R.apply(state, Event.forfeit(1, "resigned"))
    state = R.apply(state, Event.chance(MAGE_SHUFFLE, [0, 1, 2, 3, 4, 5, 6, 7]))  # DEM-0a: 0
    state = R.apply(state, Event.chance(MAGE_SHUFFLE, [7, 0, 1, 2, 3, 4, 5, 6]))  # TEC-4b: 4
    assert state["order"] == [0, 2]  # seat 2 drew highest: it plays last
    assert R.seat_roles(state) == ["demonologist", "necromancer", "techno-mage"]
    assert R.seat_roles(R.setup(2, R.options({}))) == [None, None]
    assert R.seat_positions(state) == [0, 2, 1]
    log = playout(R, 4, seed=b"b" * 32)
    folder = Folder(log[0])
    for record in log[1:-1]:
        folder.step(record)
    final = folder.state
    positions = R.seat_positions(final)
    assert R.seat_roles(final) == final["factions"] and sorted(R.seat_roles(final)) == sorted(FACTIONS)
    assert [final["order"][p] for p in positions] == [0, 1, 2, 3]
    assert R.seat_positions(R.setup(2, R.options({}))) == [0, 1]


def test_sorcado_balance_hook_ended_by_bound_is_the_replay_cap():
    """ended_by_bound: D18's cap on replays, not E.2, ended the match: a tie that stands because
    `replays` games were replayed; not a tie under tie="shared", nor a decided game."""
    capped = replay_tie_again(last_turn_tie({"replays": 1}))
    assert isinstance(R.next(capped), Ended) and R.ended_by_bound(capped)
    assert not R.ended_by_bound(last_turn_tie({"tie": "shared"}))
    assert not R.ended_by_bound(last_turn_tie())  # replaying: not ended at all
    decided = playing()
    decided["hands"] = [["DEM-6a"], ["NEC-5a"]]
    decided = do(decided, look(0), look(1), {"type": "keep"}, {"type": "place", "card": "DEM-6a", "slot": "L0"},
                 {"type": "pass"}, look(2), look(3), {"type": "keep"},
                 {"type": "place", "card": "NEC-5a", "slot": "B0"}, {"type": "pass"})
    assert isinstance(R.next(decided), Ended) and not R.ended_by_bound(decided)


# -- what a seat knows, and determinize (issue 15.1) ------------------------------------------------

def test_sorcado_D7_known_by_shows_who_knows_each_position_and_follows_the_cards():
    """D7: "Which positions a seat looks at ... is public; the card is known only to the looker",
    and every movement is public: who knows which position is in every view, the card only in
    the looker's. A refilled place is known to nobody (D3)."""
    grid, deck = with_spells(transposition=6)
    state = do(playing(grid=grid, deck=deck), look(0), look(13), {"type": "swap"})
    for viewer in (0, 1, None):
        view = R.view(state, viewer)
        assert view["known_by"][0] == view["known_by"][13] == [0]
        assert sum(map(len, view["known_by"])) == 2
        assert (KOBOLD in text(view)) == (viewer == 0)
    state = do(state, {"type": "place", "card": "DEM-0a", "slot": "T0"}, {"type": "pass"},
               look(0), look(6), {"type": "transpose", "a": 0, "b": 1})
    known_by = R.view(state, None)["known_by"]
    assert known_by[1] == [0, 1] and known_by[0] == [] and known_by[13] == [0]
    assert known_by[6] == []  # the Transposition's place holds a card from the deck


def test_sorcado_A_2_freed_looks_are_in_every_view():
    """A.2, D25: a look a Whirlwind freed still limits A.1, so every view shows it (``freed``)."""
    state = freed_previous_card()
    for viewer in (0, 1, None):
        view = R.view(state, viewer)
        assert view["freed"] == [1] and view["looked"] == [] and view["prev_seen"] == [1, 12]


def test_sorcado_version_1_views_have_no_freed_or_known_by():
    """Version 1's views keep the shape they had (editions.py): the fields issue 15.1 added are
    version 2's."""
    edition = registry.get("sorcado", 1)
    state = edition.decode(edition.encode(do(playing(), look(0))))
    for viewer in (0, None):
        assert not {"freed", "known_by", "laid", "cards"} & set(edition.view(state, viewer))


def test_sorcado_S_3_D7_the_order_cards_were_laid_in_is_in_every_view():
    """S.3 "Platziere ... eine deiner Magierkarten verdeckt außerhalb des Reiches": face down,
    in view of all (D7). Who laid where, and in which order, is public; which card is not. The
    order is what a player at the table remembers and ``slots`` does not keep (issue 15.1: a
    view carries all the seat has learned), and determinize lays the drawn cards in it."""
    def turn(first, second, card, slot):
        return (look(first), look(second), {"type": "keep"},
                {"type": "place", "card": card, "slot": slot}, {"type": "pass"})

    state = do(playing(), *turn(0, 1, "DEM-6a", "T0"), *turn(2, 3, "NEC-6a", "R0"),
               *turn(4, 5, "DEM-5a", "L1"), *turn(6, 7, "NEC-5a", "B3"))
    for viewer in (0, 1, None):
        view = R.view(state, viewer)
        assert view["laid"] == [["T0", "L1"], ["R0", "B3"]]
        assert view["slots"]["R0"] == view["slots"]["B3"] == [1]
    assert "NEC-6a" not in text(R.view(state, 0)) and "DEM-6a" not in text(R.view(state, 1))
    for made in determinized(state, 0):
        assert [slot for slot, _ in made["placed"][1]] == ["R0", "B3"]  # as laid, not in SLOTS order


def determinized(state, seat, seeds=range(40)):
    """The states determinize draws for ``seat``'s view, one a seed, each checked to show that
    view."""
    view = R.view(state, seat)
    made = [R.determinize(view, seat, random.Random(seed)) for seed in seeds]
    assert all(R.view(m, seat) == view for m in made)
    return made


def test_sorcado_determinize_copies_what_the_seat_saw_and_draws_the_rest():
    """Issue 15.1: the seat's own cards and the realm cards it knows are copied; no card it has
    seen (known, discarded) lies anywhere it does not know; the unseen cards are drawn."""
    grid, deck = with_spells(whirlwind=5)
    state = do(playing(grid=grid, deck=deck), look(0), look(5), look(13), {"type": "keep"},
               {"type": "place", "card": "DEM-6a", "slot": "T0"}, {"type": "pass"})
    seen = {KOBOLD, "MON-iron-colossus", WHIRLWIND}
    drawn_at_2 = set()
    for made in determinized(state, 0):
        assert made["known"][0] == state["known"][0] and made["hands"][0] == state["hands"][0]
        assert made["placed"][0] == [["T0", "DEM-6a"]]
        others = [c for p, c in enumerate(made["grid"]) if made["known"][0][p] is None]
        assert not seen & set(others + made["deck"]) and len(made["deck"]) == 3
        drawn_at_2.add(made["grid"][2])
    assert len(drawn_at_2) > 5


def test_sorcado_determinize_draws_the_other_seats_cards_and_knowledge():
    """S.3: another seat's laid cards lie where ``slots`` shows them, drawn from its faction's
    eight, its hand the rest; what it knows (D7) is the drawn card wherever ``known_by`` names
    it, and that card is a monster (S.1: a look reveals a spell instead)."""
    state = do(playing(), look(0), look(1), {"type": "keep"},
               {"type": "place", "card": "DEM-0a", "slot": "T0"}, {"type": "pass"})
    state = do(state, look(2), look(3), {"type": "keep"})  # seat 1 sees them; seat 0 does not
    laid = set()
    for made in determinized(state, 0, range(100)):
        hand = made["hands"][1]
        assert hand == [c for c in MAGE_CARDS["necromancer"] if c in hand] and len(hand) == 8
        assert made["known"][1][2] == made["grid"][2] and made["known"][1][3] == made["grid"][3]
        assert made["grid"][2] not in SPELLS and made["grid"][3] not in SPELLS
        assert made["known"][1].count(None) == 14
    state = do(state, {"type": "place", "card": "NEC-6a", "slot": "B3"})
    for made in determinized(state, 0):
        [[slot, card]] = made["placed"][1]
        assert slot == "B3" and card not in made["hands"][1] and len(made["hands"][1]) == 7
        laid.add(card)
    assert len(laid) > 3  # the card itself is not copied: seat 0 never saw it


def test_sorcado_determinize_a_position_another_seat_knows_may_hide_a_spell_only_under_a_ban():
    """B.3: a Divination shows a banned spell without revealing it, so a position another seat
    knows may hold a spell only where a ban token lies (or after a Dispel lifted the tokens)."""
    grid, deck = with_spells(divination=5, whirlwind=10)
    state = playing(grid=grid, deck=deck, bans=[None] * 10 + [1] + [None] * 5)
    state = do(state, look(5), {"type": "divine", "pos": 10})  # seat 0 knows the Whirlwind at 10
    assert state["known"][0][10] == WHIRLWIND
    spells_at_10 = {m["grid"][10] for m in determinized(state, 1, range(200))} & set(SPELLS)
    assert spells_at_10  # the truth (a spell) is among the states drawn for seat 1


def test_sorcado_determinize_at_the_end_and_in_the_draw_copies_what_is_face_up():
    """W.1: at the end every card is face up, so only the deck's order is drawn; V.5, D6: the
    shuffles drawn show the powers ``draws`` shows (a shuffle not yet shown is not made)."""
    log = playout(R, 3, seed=b"e" * 32, bot_seed=4)
    folder = Folder(log[0])
    for record in log[1:-1]:
        folder.step(record)
        if folder.state["phase"] == "draw":
            for made in determinized(folder.state, 1, range(3)):
                assert made["shuffles"] == [None] * 3
    final = folder.state
    assert isinstance(R.next(final), Ended)
    for made in determinized(final, 2, range(5)):
        assert {k: v for k, v in made.items() if k not in ("deck", "shuffles")} == \
            {k: v for k, v in final.items() if k not in ("deck", "shuffles")}
        assert sorted(made["deck"]) == sorted(final["deck"])
        for seat, faction in enumerate(made["factions"]):
            shown = [MAGE_POWER[MAGE_CARDS[faction][i]] for i in made["shuffles"][seat]]
            assert shown[:len(made["draws"][seat])] == made["draws"][seat]


def test_sorcado_determinize_is_a_pure_function_of_view_and_rng_and_fast():
    """Issue 15.1: the same view and seed give the same state, the view is left alone, and a
    search bot can afford it (thousands a second)."""
    state = do(playing(3, order=[0, 1, 2]), look(0), look(1), {"type": "swap"})
    view = R.view(state, 1)
    before = text(view)
    first = R.determinize(view, 1, random.Random(9))
    assert text(view) == before
    assert text(R.encode(R.determinize(json.loads(before), 1, random.Random(9)))) == text(R.encode(first))
    started = time.perf_counter()
    for seed in range(300):
        R.determinize(view, 1, random.Random(seed))
    assert time.perf_counter() - started < 1.0


# -- version 1 matches (games/sorcado/editions.py) --------------------------------------------------

# Random playouts (2 players, tie="play-again", seed bytes([i]) * 32, bot_seed i, match "v1-i")
# written by the version 1 code (git ae50fce): the last record's hash and fold_digest of the log.
# Playout 2 replays a tied game; in playout 92 a seat looks at both cards the previous player saw
# after a Whirlwind freed the first (D25's version 1 reading).
VERSION_1_PLAYOUTS = {
    2: ("53148aaae958aa15f68d0510eeb8617202397e8b1e911e80b0a27959099e5dd1",
        "30f17baaadba775c3651e6ab61d89e0d4f370ac2fe75f4b9b9b7435bee05024e"),
    92: ("a91fdb8d41b80873333ad58edbd3e6d15e24adec4080e720a32dd7b94b33607d",
         "ce938f6a2e7a53c11526f859ca949a7a285e848a33b30d9604468b7a45971b42"),
}


@pytest.mark.parametrize("index", sorted(VERSION_1_PLAYOUTS))
def test_sorcado_version_1_matches_fold_by_edition_1_as_they_were_written(index):
    """A match keeps the rules it was played by: edition 1 writes, folds and shows a version 1
    match exactly as version 1 did (every option is written into match_created, so a stored
    tie="shared" default stays shared); the version 2 rules refuse the D25 playout."""
    head_hash, digest = VERSION_1_PLAYOUTS[index]
    edition = registry.get("sorcado", 1)
    assert edition.spec.version == 1 and edition is R.edition(1) and edition is not R
    log = playout(edition, 2, seed=bytes([index]) * 32, options={"tie": "play-again"},
                  bot_seed=index, match_id=f"v1-{index}")
    assert set(log[0]["payload"]["options"]) == {"placement", "factions", "tie", "replays"}
    assert log[-1]["hash"] == head_hash
    assert fold_digest(log) == (edition, digest)
    assert validate(log).ok
    if index == 92:
        as_version_2 = json.loads(json.dumps(log))
        as_version_2[0]["payload"].update(version=R.spec.version)
        folder = Folder(as_version_2[0])
        # version 2 deals other mage cards (D20), so it refuses the log even before D25's A.1
        with pytest.raises(LogError, match="is not a mage card in your hand"):
            for record in as_version_2[1:]:
                folder.step(record)


# -- the fold's fast paths agree with the slow ones they stand for (bench/fold.py) ------------------

FAST_PATH_OPTIONS = [{}, {"placement": "border"}, {"tie": "shared", "factions": "by-seat"},
                     {"freed_look": "s1-and-a1"}]


def playout_steps(count):
    """(state before, record) for every event of ``count`` random playouts, players and options
    cycling."""
    for index in range(count):
        log = playout(R, 2 + index % 3, seed=bytes([index]) * 32, bot_seed=index,
                      options=FAST_PATH_OPTIONS[index % len(FAST_PATH_OPTIONS)])
        folder = Folder(log[0])
        for record in log[1:-1]:
            yield folder.state, record
            folder.step(record)


def test_sorcado_apply_copies_what_each_decision_changes_and_nothing_it_needs_is_shared():
    """apply copies only what a common decision changes in place (clone_for), not the whole
    state (clone): over the states of random playouts with every option, every decision open
    (a few of the many placements and transpositions) makes the state the whole copy makes and
    leaves the state it was given as it was, and no state of the fold changes later."""
    rng = random.Random(3)
    kept, tried = [], set()
    for state, record in playout_steps(12):
        text = canonical_json(state)
        kept.append((state, text))
        nxt = R.next(state)
        if not isinstance(nxt, ToAct):
            continue
        seat = nxt.seats[0]
        legal = R.legal_actions(state, seat)
        for action in legal if len(legal) <= 17 else rng.sample(legal, 3):
            whole = clone(state)
            act(whole, seat, action)
            assert R.apply(state, Event.action(seat, action)) == whole, action
            assert canonical_json(state) == text, action
            tried.add((action["type"], state["phase"]))
    assert all(canonical_json(state) == text for state, text in kept)
    assert {("keep", "transpose"), ("keep", "swap"), ("swap", "swap"), ("pass", "ban"),
            ("ban", "ban"), ("look", "look"), ("place", "place")} <= tried


def reference_realm_scores(grid, placed, factions, bans, card_of):
    """W.1-W.3 position by position, each row and column collected from every placed card (the
    scoring as first written; content.realm_scores collects each seat's lines once)."""
    captures, scores = [], [0] * len(placed)
    for pos, realm in enumerate(grid):
        row_slots, column_slots = position_slots(pos)
        row = [[MAGE_POWER[c] for slot, c in cards if slot in row_slots] for cards in placed]
        column = [[MAGE_POWER[c] for slot, c in cards if slot in column_slots] for cards in placed]
        seat = captor(card_of[realm], row, column, factions, bans[pos])
        captures.append(seat)
        if seat is not None:
            scores[seat] += card_of[realm].strength
    return captures, scores


def test_sorcado_realm_scores_agree_with_scoring_position_by_position():
    """realm_scores sums each seat's cards beside each row and column once per scoring; on random
    tables (any slots, bans, factions, both editions' cards) it scores as the per-position
    reading of W.1-W.3 does."""
    rng = random.Random(5)
    for _ in range(800):
        players = rng.randint(2, 4)
        factions = rng.sample(FACTIONS, players)
        grid = rng.sample(REALM_CARDS, 16)
        placed = [[[rng.choice(SLOTS), rng.choice(MAGE_CARDS[f])] for _ in range(rng.randint(0, 8))]
                  for f in factions]
        bans = [rng.choice([None] * 6 + list(range(players))) for _ in range(16)]
        for card_of in (CARD, CARD_V1):
            assert realm_scores(grid, placed, factions, bans, card_of) == \
                reference_realm_scores(grid, placed, factions, bans, card_of)


def test_sorcado_check_action_and_looks_agree_with_the_contract_and_the_listed_actions():
    """Sorcado.check_action skips building ``next`` when the seat is the one to act, and a look
    is checked against A.1 directly rather than by listing every lookable card: for every seat
    (and seats that are no seat), the actions listed and every look at every position, both
    refuse exactly what Ruleset.check_action and legal_actions do, for the same reason."""
    def reason(check, state, seat, action):
        try:
            check(state, seat, action)
        except IllegalAction as exc:
            return exc.reason
        return None

    looks = 0
    for state, record in playout_steps(8):
        nxt = R.next(state)
        acting = nxt.seats[0] if isinstance(nxt, ToAct) else 0
        legal = R.legal_actions(state, acting)
        candidates = legal[:4] + [look(pos) for pos in range(16)] + [{"type": "pass"}]
        for seat in (*range(state["players"]), 5, True, None):
            for action in candidates:
                fast = reason(R.check_action, state, seat, action)
                assert fast == reason(functools.partial(Ruleset.check_action, R), state, seat, action)
                if (type(seat) is int and seat == acting and action["type"] == "look"
                        and state["phase"] == "look"):
                    assert (fast is None) == (action in legal), (action, state)
                    looks += 1
    assert looks > 1000


def test_sorcado_D7_the_public_views_slots_are_the_seats_that_placed_there_in_one_pass():
    """D7 (who placed where, not what): ``slots_placed`` walks the placed cards once; it gives
    what asking every slot in turn gives (a seat once per card, seats in order), at every state
    of random playouts of 2-4 players, with both placements."""
    from games.sorcado import SLOTS, slots_placed

    from .playouts import playout_states

    checked = 0
    for players in (2, 3, 4):
        for seed in range(3):
            for state in playout_states("sorcado", players, seed):
                reference = {slot: [s for s, cards in enumerate(state["placed"]) for at, _ in cards if at == slot]
                             for slot in SLOTS}
                assert slots_placed(state) == reference
                checked += any(reference.values())
    assert checked > 100  # states with cards placed, not only empty boards
