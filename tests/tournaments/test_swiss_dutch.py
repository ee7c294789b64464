"""The Swiss format as the FIDE (Dutch) system, C.04.3 (2025 rules), seat 0 = white.

Golden cases: `data/swiss-golden/` holds 62 of the reference cases of `../shared/swiss-golden`
(a TRF-16 history and the next round as bbpPairings v6.0.0, the FIDE-endorsed Dutch engine,
pairs it; an empty `.out` where no legal pairing exists): 8-64 players, odd fields (byes), round
1 to the last round, topscorers in the last round, the no-legal-pairing stop. The small rule
examples below were paired by the same engine too. The whole set runs in `bench/swiss.py`.
"""
from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.formats import Entry, Outcome, Swiss
from tournaments.formats.dutch import (BLACK, WHITE, DutchPlayer, NoDutchPairing, allocate_colours, dutch_pairing,
                                       dutch_players)
from tournaments.formats.matching import max_weight_matching, maximum_matching, perfect_after_adding
from tournaments.formats.swiss import fewest_rematches, swiss_pairing, swiss_records
from tournaments.formats.trf import TrfGame, TrfPlayer, TrfTournament, export, from_swiss, parse

GOLDEN = Path(__file__).parent / "data" / "swiss-golden"
CASES = sorted(path.stem for path in GOLDEN.glob("*.trf"))


def reference(name: str) -> list[tuple[int, int]] | None:
    """The engine's round: (white, black) boards and (bye, 0); None where it found no pairing."""
    numbers = [int(word) for word in (GOLDEN / f"{name}.out").read_text().split()]
    return [(numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(numbers[0])] if numbers else None


def next_round_by_the_format(event: TrfTournament) -> list[tuple[int, int]]:
    """Swiss.next_round on the history (ids = pairing numbers): seats, and (bye, 0)."""
    entries, rounds, outcomes, planned = event.to_swiss()
    found = Swiss(rounds=planned).next_round(entries, rounds, outcomes)
    return [p.seats if not p.bye else (p.seats[0], 0) for p in found.pairings]


def test_the_suite_carries_its_own_golden_cases():
    assert len(CASES) >= 60
    sizes = {int(name[1:].split("_")[0]) for name in CASES}
    assert sizes == {8, 9, 16, 17, 32, 33, 64}
    assert any(reference(name) is None for name in CASES), "the no-legal-pairing stop"


@pytest.mark.parametrize("name", CASES)
def test_it_pairs_and_seats_as_the_fide_engine(name):
    event = parse((GOLDEN / f"{name}.trf").read_text())
    expected = reference(name)
    if expected is None:        # no legal pairing: C.04.3 has no answer, the format falls back
        with pytest.raises(NoDutchPairing):
            dutch_pairing(dutch_players(event.records()), rounds_played=event.rounds_played,
                          rounds_planned=event.planned_rounds)
        assert swiss_pairing(event.records(), rounds_planned=event.planned_rounds).fallback
        return
    ours = next_round_by_the_format(event)
    assert {frozenset(pair) for pair in ours} == {frozenset(pair) for pair in expected}, "pairs"
    assert set(ours) == set(expected), "seats (colours)"
    assert ours == expected, "board order"


# ---------------------------------------------------------------- rule examples (paired by the engine)

def history(count: int, rounds: list[str], planned: int) -> TrfTournament:
    """A history from one string a round: "1-4 1:0, 2-5 =, 3 bye" (white first; 1:0, 0:1, =)."""
    players = {n: TrfPlayer(n, f"Player {n}") for n in range(1, count + 1)}
    for text in rounds:
        for cell in text.split(","):
            board, result = cell.split()
            if result == "bye":
                players[int(board)].games.append(TrfGame(None, "-", "U"))
                continue
            white, black = map(int, board.split("-"))
            codes = {"1:0": ("1", "0"), "0:1": ("0", "1"), "=": ("=", "=")}[result]
            players[white].games.append(TrfGame(black, "w", codes[0]))
            players[black].games.append(TrfGame(white, "b", codes[1]))
    return TrfTournament(list(players.values()), planned)


def boards(event: TrfTournament) -> list[tuple[int, int]]:
    found = swiss_pairing(event.records(), rounds_planned=event.planned_rounds, absent=event.absent)
    return list(found.pairs) + ([(found.bye, 0)] if found.bye else [])


def test_c04_3_c1_and_b6_no_rematch_and_an_exchange_before_a_worse_transposition():
    """C.1: two players shall not play each other more than once. 1-3 met, so S1 {1, 2} against
    S2 {3, 4} (B.2) can only be 1-4, 2-3, where nobody gets the colour preferred; the exchange
    of 2 and 3 (B.6) gives 1-2, 3-4 with every preference granted (C.12 outranks the order)."""
    event = history(4, ["1-3 =, 4-2 ="], planned=3)
    assert boards(event) == [(2, 1), (3, 4)]


def test_c04_3_c2_nobody_gets_a_second_pairing_allocated_bye():
    """C.2: a player who has already received a pairing-allocated bye shall not receive it again:
    4 and 5 share the lowest score with 3 but have had theirs."""
    event = history(5, ["1-3 1:0, 4-2 0:1, 5 bye", "1-2 =, 5-3 0:1, 4 bye"], planned=3)
    assert boards(event) == [(4, 1), (2, 5), (3, 0)]


def test_c04_3_c5_the_bye_goes_to_the_lowest_score():
    """C.5: minimise the score of the pairing-allocated-bye assignee (the 5 of the field who have
    scored 1 are paired among themselves and with the 0s; a 0 gets the bye)."""
    event = history(5, ["1-3 1:0, 4-2 0:1, 5 bye"], planned=3)
    assert boards(event) == [(5, 1), (2, 3), (4, 0)]


def test_c04_3_c9_the_bye_goes_to_the_player_with_fewest_unplayed_games():
    """C.9: minimise the number of unplayed games of the bye assignee: 5 sat round 1 out (Z), so
    of the two players on 0 points the bye goes to 3, although 5 ranks lower."""
    event = history(5, ["3-1 0:1, 2-4 ="], planned=3)
    event.players[4].games = [TrfGame(None, "-", "Z")]
    assert boards(parse(export(event))) == [(1, 2), (4, 5), (3, 0)]


TOPSCORERS = ["1-4 1:0, 2-5 1:0, 3-6 =", "1-6 1:0, 2-4 1:0, 5-3 ="]


def test_c04_3_c3_players_with_the_same_absolute_colour_preference_do_not_meet():
    """C.3: non-topscorers with the same absolute colour preference shall not meet. 1 and 2 lead
    with 2/2, both after white twice (A.6.a: they must have black); with two rounds to go they
    are not topscorers (A.7), so they are paired apart."""
    event = history(6, TOPSCORERS, planned=4)
    assert boards(event) == [(3, 1), (6, 2), (4, 5)]


def test_c04_3_a7_topscorers_may_break_the_colour_rule_in_the_last_round():
    """A.7 and C.3: in the last round topscorers (over 50 % of the maximum) may meet with the same
    absolute colour preference; E.2 then E.4: equal colour differences, so the higher ranked
    player 1 gets black and 2 its third white (C.11 counts that against the pairing)."""
    event = history(6, TOPSCORERS, planned=3)
    assert boards(event) == [(2, 1), (4, 3), (6, 5)]


def test_c04_3_e5_round_1_gives_white_on_board_1_then_alternates():
    """E.5 with XXC white1: the higher ranked player of each pair has an odd pairing number on
    boards 1, 3, ... and gets white; an even one on boards 2, 4, ... and gets black."""
    event = history(9, [], planned=5)
    assert boards(event) == [(1, 5), (6, 2), (3, 7), (8, 4), (9, 0)]


def player(number: int, colours: str, score: int = 0) -> DutchPlayer:
    """A player with a colour history such as "WBW"."""
    return DutchPlayer(number, score, frozenset(), tuple(WHITE if c == "W" else BLACK for c in colours), True, (0, 0))


@pytest.mark.parametrize("colours, difference, preference, absolute, strong", [
    ("", 0, 0, False, False),          # A.6.d: no games, no preference
    ("W", 1, BLACK, False, True),      # A.6.b: colour difference 1, a strong preference
    ("WB", 0, WHITE, False, False),    # A.6.c: difference 0, mild: alternate from the last game
    ("WW", 2, BLACK, True, False),     # A.6.a: difference above +1
    ("BWW", 1, BLACK, True, False),    # A.6.a: the same colour in the last two games
    ("WBBW", 0, BLACK, False, False),
])
def test_c04_3_a6_colour_difference_and_preferences(colours, difference, preference, absolute, strong):
    p = player(1, colours)
    assert (p.difference, p.preference, p.absolute, p.strong) == (difference, preference, absolute, strong)


@pytest.mark.parametrize("a, b, white, clause", [
    (player(1, "W"), player(2, "W"), 2, "E.4: the same strong preference, the higher ranked gets it"),
    (player(1, "B"), player(2, "W"), 1, "E.1: both preferences granted"),
    (player(1, "WB"), player(2, "BB"), 2, "E.2: an absolute preference before a mild one"),
    (player(1, "BWW"), player(2, "WW"), 1, "E.2: the wider colour difference of two absolute ones"),
    (player(1, "WB"), player(2, "BW"), 1, "E.1: mild preferences for white (1) and black (2)"),
    (player(1, "BW"), player(2, "WW"), 1, "E.2: absolute over mild"),
    (player(1, "WBW"), player(2, "BWW"), 1, "E.2: absolute (2) over strong (1)"),
    (player(1, "BWBW"), player(2, "WBBW"), 2, "E.3: 1 had white, 2 black the last time they differed"),
    (player(1, ""), player(2, ""), 1, "E.5: no preferences; 1, odd, gets the initial colour"),
    (player(2, ""), player(3, ""), 3, "E.5: no preferences; 2, even, gets the other colour"),
    (player(2, ""), player(3, "W"), 2, "E.1: the preference of the only player who has one"),
])
def test_c04_3_e_colour_allocation(a, b, white, clause):
    rank = {a.number: 0, b.number: 1}
    assert allocate_colours(a, b, rank, WHITE)[0] == white, clause


def test_a_series_counts_as_one_game_and_its_seat_0_is_the_colour():
    """best_of 3: 1 won its series from seat 0 (white) and 2 from seat 1, so round 2 seats 2 first."""
    entries = [Entry(10 + n, n) for n in range(1, 5)]
    fmt = Swiss(rounds=2, best_of=3)
    first = fmt.next_round(entries, [], {})
    assert [p.seats for p in first.pairings] == [(11, 13), (14, 12)] and first.pairings[0].games == 3
    outcomes = {"R1-1": Outcome("R1-1", {11: 1, 13: 2}), "R1-2": Outcome("R1-2", {14: 2, 12: 1})}
    second = fmt.next_round(entries, [first], outcomes)
    assert second.pairings[0].seats == (12, 11)


# ---------------------------------------------------------------- no legal pairing: the fallback

def test_without_a_legal_pairing_the_fallback_pairs_everyone_with_the_fewest_rematches():
    """The 8-player, 7-round history where the FIDE engine stops before round 6: each player's
    unplayed opponents form a 5-cycle and a triangle, so one rematch is unavoidable; the
    fallback makes exactly one and seats by E.1-E.5."""
    event = parse((GOLDEN / "n8_R7_s1_r6.trf").read_text())
    entries, rounds, outcomes, planned = event.to_swiss()
    found = Swiss(rounds=planned).next_round(entries, rounds, outcomes)
    seated = [entry for p in found.pairings for entry in p.seats]
    assert sorted(seated) == list(range(1, 9)) and not any(p.bye for p in found.pairings)
    met = {p.number: p.opponents for p in dutch_players(event.records())}
    rematches = [p.seats for p in found.pairings if p.seats[1] in met[p.seats[0]]]
    assert len(rematches) == 1 == fewest_possible(list(range(1, 9)), met)


def fewest_possible(players: list[int], met: dict[int, frozenset[int]]) -> int:
    """Brute force: the fewest rematches any split of `players` into pairs makes."""
    if not players:
        return 0
    first, rest = players[0], players[1:]
    return min((partner in met[first]) + fewest_possible([p for p in rest if p != partner], met)
               for partner in rest)


def test_the_fallback_avoids_a_rematch_before_the_colour_rule():
    """1 can only meet 3 without a rematch, and both must have black (C.3): no legal pairing
    (the engine stops). The fallback keeps to new opponents and seats 1-3 by E.4."""
    event = history(4, ["1-2 =, 3-4 =", "1-4 =, 3-2 ="], planned=4)
    found = swiss_pairing(event.records(), rounds_planned=4)
    assert found.fallback and found.pairs == ((3, 1), (2, 4))
    ranked = dutch_players(event.records())
    assert fewest_rematches(ranked).pairs == found.pairs


# ---------------------------------------------------------------- TRF-16

def test_trf_round_trip_keeps_every_result_code_and_column():
    event = TrfTournament([
        TrfPlayer(1, "Ann Example", 2105, [TrfGame(2, "w", "1"), TrfGame(None, "-", "U"), TrfGame(3, "b", "+")]),
        TrfPlayer(2, "Bob", 0, [TrfGame(1, "b", "0"), TrfGame(3, "w", "="), TrfGame(None, "-", "H")]),
        TrfPlayer(3, "Cy", 1800, [TrfGame(None, "-", "Z"), TrfGame(2, "b", "="), TrfGame(1, "w", "-")]),
    ], planned_rounds=5, initial_colour=BLACK, name="Round trip")
    text = export(event)
    assert parse(text) == event
    line = text.splitlines()[1]
    assert (line[:3], line[4:8], line[14:47].strip(), line[48:52], line[80:84], line[85:89]) == \
        ("001", "   1", "Ann Example", "2105", " 3.0", "   1")
    assert line[91:99] == "   2 w 1" and line[101:109] == "0000 - U"
    assert text.splitlines()[-2:] == ["XXR 5", "XXC black1"]


@pytest.mark.parametrize("name", ["n9_R7_s3_r6", "n33_R9_s2_r5", "n64_R9_s3_r8"])
def test_an_exported_golden_history_reads_back_as_the_same_pairing_input(name):
    event = parse((GOLDEN / f"{name}.trf").read_text())
    again = parse(export(event))
    assert again.records() == event.records()
    assert (again.planned_rounds, again.initial_colour) == (event.planned_rounds, event.initial_colour)
    assert again.to_swiss() == event.to_swiss()


def test_a_swiss_event_of_the_format_survives_trf():
    """from_swiss then to_swiss gives back the rounds (boards in the format's order) and outcomes."""
    entries = [Entry(n, n) for n in range(1, 12)]
    fmt, rounds, outcomes = Swiss(rounds=5), [], {}
    rng = random.Random(7)
    for _ in range(5):
        round_ = fmt.next_round(entries, rounds, outcomes)
        rounds.append(round_)
        for p in round_.pairings:
            if not p.bye:
                a, b = p.seats
                outcomes[p.key] = Outcome(p.key, rng.choice([{a: 1, b: 2}, {a: 2, b: 1}, {a: 1, b: 1}]))
    event = parse(export(from_swiss(entries, rounds, outcomes, 5)))
    assert event.to_swiss() == (entries, rounds, outcomes, 5)


def test_trf_with_an_absent_player_pairs_the_others():
    """A last column that only some players have, with a bye other than U, is the round being
    paired: those players sit it out."""
    event = history(5, ["1-3 1:0, 4-2 0:1, 5 bye"], planned=3)
    event.players[0].games.append(TrfGame(None, "-", "H"))
    assert event.rounds_played == 1 and event.absent == {1}
    assert sorted(n for pair in boards(event) for n in pair if n) == [2, 3, 4, 5]


def test_trf_refuses_what_it_cannot_read():
    good = export(history(2, ["1-2 1:0"], planned=1)).splitlines()
    with pytest.raises(ValueError, match="line 2: unknown result or colour"):
        parse("\n".join([good[0], good[1][:-1] + "?"] + good[2:]))
    half_point_bye = TrfTournament([TrfPlayer(1, "A", 0, [TrfGame(2, "w", "1")]),
                                    TrfPlayer(2, "B", 0, [TrfGame(1, "b", "0")]),
                                    TrfPlayer(3, "C", 0, [TrfGame(None, "-", "H")])])
    with pytest.raises(ValueError, match="player 3: a H without an opponent does not fit"):
        parse(export(half_point_bye)).to_swiss()       # the format has no half-point bye


# ---------------------------------------------------------------- the command

def test_the_trf_pair_command_prints_the_engine_format(tmp_path):
    for name in ("n17_R8_s2_r4", "n64_R9_s3_r8"):
        out = io.StringIO()
        call_command("trf", "pair", str(GOLDEN / f"{name}.trf"), stdout=out)
        assert out.getvalue() == (GOLDEN / f"{name}.out").read_text()
    with pytest.raises(CommandError, match="C.1-C.3"):
        call_command("trf", "pair", str(GOLDEN / "n8_R7_s1_r6.trf"), stdout=io.StringIO())
    out = io.StringIO()
    call_command("trf", "pair", "--fallback", str(GOLDEN / "n8_R7_s1_r6.trf"), stdout=out)
    assert out.getvalue().splitlines()[0] == "4"
    no_rounds = tmp_path / "x.trf"
    no_rounds.write_text(export(history(4, [], planned=3)).replace("XXR 3\n", ""))
    with pytest.raises(CommandError, match="XXR"):
        call_command("trf", "pair", str(no_rounds), stdout=io.StringIO())


# ---------------------------------------------------------------- a played tournament: API and command

GAME = "sorcado"


@pytest.fixture
def played_swiss(db):
    """A 5-entry, 3-round Swiss of built-in bots, played to its end. Bots that think (the search
    bot: half a second a move on the default clock) are left out: the TRF tests need played
    results, not strong play, and their matches would take most of a minute."""
    from bots.driver import match_drive
    from bots.services import builtin_bot_versions
    from replays.models import Match
    from tournaments.services import tournament_advance, tournament_create, tournament_start

    versions = builtin_bot_versions(game=GAME, thinking=False)
    names = sorted(versions)
    tournament = tournament_create(name="TRF cup", game=GAME, format="swiss", format_settings={"rounds": 3},
                                   entries=[versions[names[i % len(names)]] for i in range(5)])
    tournament_start(tournament=tournament, queue=False)
    for _ in range(100):
        running = Match.objects.filter(pairing_game__pairing__tournament=tournament, status=Match.Status.RUNNING)
        if not running.exists():
            tournament_advance(tournament_id=tournament.pk, queue=False)
            if not running.exists():
                break
        for match in running:
            match_drive(match_id=match.pk)
    tournament.refresh_from_db()
    return tournament


def test_the_api_serves_a_swiss_tournament_as_trf(played_swiss):
    from rest_framework.test import APIClient

    from tournaments.selectors import tournament_results

    client = APIClient()
    response = client.get(f"/api/tournaments/{played_swiss.pk}/trf/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    event = parse(response.content.decode())
    assert (event.name, event.planned_rounds, event.rounds_played, len(event.players)) == ("TRF cup", 3, 3, 5)
    results = tournament_results(tournament=played_swiss)
    number = {e.id: n for n, e in enumerate(sorted(results.entries, key=lambda e: e.seed), start=1)}
    _, rounds, outcomes, _ = event.to_swiss()
    assert [[tuple(number[e] for e in p.seats) for p in r.pairings] for r in results.rounds] == \
        [[p.seats for p in r.pairings] for r in rounds]
    assert {k: {number[e]: place for e, place in o.placings.items()} for k, o in results.outcomes.items()} == \
        {k: o.placings for k, o in outcomes.items()}
    # The history before round 3 pairs round 3 as the tournament did.
    before = parse(client.get(f"/api/tournaments/{played_swiss.pk}/trf/?round=3").content.decode())
    assert before.rounds_played == 2
    assert boards(before) == [p.seats if not p.bye else (p.seats[0], 0) for p in rounds[2].pairings]


def test_the_api_refuses_trf_for_other_formats_and_bad_rounds(played_swiss):
    from rest_framework.test import APIClient

    from bots.services import builtin_bot_versions
    from tournaments.services import tournament_create

    versions = list(builtin_bot_versions(game=GAME).values())
    robin = tournament_create(name="robin", game=GAME, format="round-robin", entries=versions[:2])
    client = APIClient()
    response = client.get(f"/api/tournaments/{robin.pk}/trf/")
    assert response.status_code == 400 and response.json()["error"]["code"] == "not_swiss"
    assert "round-robin" in response.json()["error"]["detail"]
    for bad in ("x", "9", "0"):
        response = client.get(f"/api/tournaments/{played_swiss.pk}/trf/?round={bad}")
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid", bad
    assert client.get("/api/tournaments/999999/trf/").status_code == 404


def test_the_trf_export_command_prints_the_same_file(played_swiss):
    out = io.StringIO()
    call_command("trf", "export", str(played_swiss.pk), stdout=out)
    assert parse(out.getvalue()).rounds_played == 3
    out = io.StringIO()
    call_command("trf", "export", str(played_swiss.pk), "--round", "2", stdout=out)
    assert parse(out.getvalue()).rounds_played == 1
    with pytest.raises(CommandError, match="no tournament"):
        call_command("trf", "export", "999999", stdout=io.StringIO())


# ---------------------------------------------------------------- the records the format feeds the engine

def test_swiss_records_follow_seed_order_and_count_a_bye_as_a_win():
    entries = [Entry(30, 3), Entry(10, 1), Entry(20, 2)]
    first = Swiss(rounds=2).next_round(entries, [], {})
    assert [p.seats for p in first.pairings] == [(10, 20), (30,)]
    records = swiss_records(entries, [first], {"R1-1": Outcome("R1-1", {10: 1, 20: 1})})
    assert records[3][0].points == 2 and records[3][0].pairing_bye
    assert (records[1][0].opponent, records[1][0].colour, records[1][0].points) == (2, WHITE, 1)



# ---------------------------------------------------------------- the matchings underneath

def best_by_brute_force(count: int, edges: dict[tuple[int, int], int], most_pairs: bool) -> tuple[int, int]:
    """(pairs, weight) of the best matching, by trying them all."""
    def best(free: list[int]) -> tuple[int, int]:
        if len(free) < 2:
            return (0, 0)
        first, rest = free[0], free[1:]
        options = [best(rest)]
        for other in rest:
            if (first, other) in edges:
                pairs, weight = best([v for v in rest if v != other])
                options.append((pairs + 1, weight + edges[(first, other)]))
        return max(options, key=lambda o: (o[0], o[1]) if most_pairs else (o[1], o[0]))
    return best(list(range(count)))


def test_the_weighted_matching_is_maximum_on_random_graphs():
    rng = random.Random(3)
    for _ in range(400):
        count = rng.randint(1, 9)
        edges = {(a, b): rng.choice([rng.randint(1, 6), rng.getrandbits(90) + 1])
                 for a in range(count) for b in range(a + 1, count) if rng.random() < 0.6}
        most_pairs = rng.random() < 0.3
        found = max_weight_matching(list(range(count)), edges, most_pairs=most_pairs)
        used = [v for pair in found for v in pair]
        assert len(used) == len(set(used)) and all(pair in edges for pair in found)
        pairs, weight = best_by_brute_force(count, edges, most_pairs)
        assert sum(edges[pair] for pair in found) == weight and (not most_pairs or len(found) == pairs)



def matching_cases(rng: random.Random, count: int):
    """Generated weighted graphs of `count` vertices like the brackets the Dutch engine builds:
    dense (most pairs allowed, as in round 2) or sparse, with weights from a few small values
    (many ties between matchings) or from lexicographic fields like `Weights.pair` (a few
    criteria bits above a wide order field)."""
    density = rng.choice([1.0, 0.9, 0.6, 0.3])
    style = rng.choice(["ties", "fields", "wide"])
    edges = {}
    for a in range(count):
        for b in range(a + 1, count):
            if rng.random() < density:
                if style == "ties":
                    weight = rng.randint(1, 4)
                elif style == "fields":
                    weight = (rng.randint(0, 3) << 20) | (rng.randint(0, 1) << 19) | rng.getrandbits(12)
                else:
                    weight = (rng.randint(1, 2) << 300) | ((count - b) << (4 * (count - a))) | rng.getrandbits(3)
                edges[(a, b)] = weight
    return edges


def test_the_matching_with_its_shortcuts_takes_the_same_steps_as_reading_every_edge():
    """The scan's shortcuts (issue 40.6: of the edges to free vertices only the heaviest is read;
    a tight edge to a T vertex already reached is not) must not change a single pairing: the
    same mates and the same final duals (so the same dual steps) as the full scan of every edge,
    on generated graphs of up to 60 vertices, ties included."""
    from tournaments.formats.matching import WeightedMatching
    rng = random.Random(406)
    differed = 0
    for case in range(300):
        count = rng.randint(2, 60 if case % 10 == 0 else 24)
        edges = matching_cases(rng, count)
        pairs, weights = list(edges), list(edges.values())
        fast = WeightedMatching(count, pairs, weights)
        full = WeightedMatching(count, pairs, weights, scan_all=True)
        mates = fast.solve()
        assert mates == full.solve() and fast.dualvar == full.dualvar
        differed += fast.dualvar != [max(weights, default=0)] * count + [0] * count
    assert differed > 250          # the cases do move the duals


def test_the_cardinality_matching_and_its_one_more_vertex_question():
    rng = random.Random(4)
    for _ in range(300):
        count = rng.randint(0, 9)
        edges = {(a, b): 1 for a in range(count) for b in range(a + 1, count) if rng.random() < 0.4}
        neighbours = [[b for b in range(count) if (min(a, b), max(a, b)) in edges] for a in range(count)]
        mate = maximum_matching(count, [list(n) for n in neighbours])
        assert sum(m != -1 for m in mate) == 2 * best_by_brute_force(count, edges, True)[0]
        extra = [[v for v in range(count) if rng.random() < 0.5] for _ in range(3)]
        answers = perfect_after_adding([list(n) for n in neighbours], [list(e) for e in extra])
        for candidate, answer in zip(extra, answers):
            grown = dict(edges) | {(v, count): 1 for v in candidate}
            assert answer == (2 * best_by_brute_force(count + 1, grown, True)[0] == count + 1)


def test_the_pairing_modules_import_without_django():
    """Habit 1: the formats are plain Python that a third party can run offline."""
    code = ("import sys; sys.modules['django'] = None; "
            "import tournaments.formats.dutch, tournaments.formats.dutch_brackets, "
            "tournaments.formats.matching, tournaments.formats.swiss, tournaments.formats.trf")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
