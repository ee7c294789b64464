"""Swiss events with absences, forfeits and withdrawals, against the FIDE-endorsed engine.

Issue 40: TRF import (item 3) reads every code of the reference engine or refuses the file with
the line and the reason; reference cases with absences and forfeits are in
`data/swiss-absences/` (see its README).
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.formats import Swiss
from tournaments.formats.swiss import swiss_pairing
from tournaments.formats.trf import TrfGame, export, from_swiss, parse

ABSENCES = Path(__file__).parent / "data" / "swiss-absences"
CASES = sorted(path.stem for path in ABSENCES.glob("*.trf"))


def reference(folder: Path, name: str) -> list[tuple[int, int]]:
    """The engine's round: (white, black) boards and (bye, 0)."""
    numbers = [int(word) for word in (folder / f"{name}.out").read_text().split()]
    return [(numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(numbers[0])]


def paired_from_trf(text: str) -> list[tuple[int, int]]:
    """Our round for a TRF history, as `manage.py trf pair` pairs it."""
    event = parse(text)
    found = swiss_pairing(event.records(), rounds_planned=event.planned_rounds,
                          initial_colour=event.initial_colour, absent=event.absent,
                          accelerations=event.accelerations)
    return list(found.pairs) + ([(found.bye, 0)] if found.bye else [])


def test_the_absence_cases_hold_every_kind_of_unplayed_round():
    texts = [(ABSENCES / f"{name}.trf").read_text() for name in CASES]
    assert len(CASES) >= 50
    for code in ("0000 - -", "0000 - Z", "0000 - H", " w +", " b -", "0000 - U"):
        assert any(code in text for text in texts), code


@pytest.mark.parametrize("name", CASES)
def test_it_pairs_absences_and_forfeits_as_the_fide_engine(name):
    assert set(paired_from_trf((ABSENCES / f"{name}.trf").read_text())) == set(reference(ABSENCES, name))


def test_trf_16_an_absence_marked_0000_dash_dash_is_not_a_played_round():
    """TRF-16 '-' with opponent 0000: not paired, no points. In the last column it announces that
    the player sits out the round to be paired (the engine pairs the others, issue 40.3)."""
    name = next(n for n in CASES if n.startswith("n21_R7_s12_r2"))
    text = (ABSENCES / f"{name}.trf").read_text()
    event = parse(text)
    assert event.rounds_played == 1
    marked = {p.number for p in event.players if len(p.games) == 2 and p.games[1] == TrfGame(None, "-", "-")}
    assert marked and marked <= event.absent
    first_round_absence = next(p for p in event.players if p.games[0] == TrfGame(None, "-", "-"))
    assert first_round_absence.half_points == 0 and first_round_absence.number not in event.absent
    paired = {n for pair in paired_from_trf(text) for n in pair if n}
    assert not paired & event.absent
    assert set(paired_from_trf(text)) == set(reference(ABSENCES, name))


def _line(body: str) -> str:
    return "001    1      A" + " " * 66 + "0.0    1" + body


GOOD = [_line(""), "001    2      B" + " " * 66 + "0.0    2", "XXR 3"]


@pytest.mark.parametrize("extra, reason", [
    ("250  1.0  1.0    1    1    1    2", "accelerations in 250 lines"),
    ("260   1   3    1    2", "forbidden pairs"),
    ("XXP    1    2", "forbidden pairs"),
    ("240 H   1    1", "byes announced"),
    ("013 W", "team tournaments"),
    ("299 something", "abnormal assignment"),
    ("XXC rank white1", "rank order"),
    ("192 FIDE_BURSTEIN", "not paired here"),
    ("162 W 3.0 D 1.0", "only win 1, draw 0.5, loss 0"),
    ("BBW  2.0", "only win 1, draw 0.5, loss 0"),
])
def test_trf_refuses_a_code_of_the_reference_engine_it_does_not_implement(extra, reason):
    text = "\n".join(GOOD + [extra]) + "\n"
    with pytest.raises(ValueError, match=f"TRF line 4: .*{reason}.*the line: '{extra[:3]}"):
        parse(text)


@pytest.mark.parametrize("cell, reason", [
    ("0000 - 1", "needs an opponent and a colour"),
    ("   2 - 1", "needs an opponent and a colour"),
    ("   2 w U", "has no opponent"),
    ("0000 w Z", "no opponent, so no colour"),
    ("   1 w 1", "its own opponent"),
    ("   2 w ?", "unknown result"),
])
def test_trf_refuses_a_round_cell_the_reference_engine_refuses(cell, reason):
    with pytest.raises(ValueError, match=f"TRF line 1: .*{reason}"):
        parse("\n".join([_line("  " + cell)] + GOOD[1:]) + "\n")


def test_trf_refuses_histories_that_contradict_themselves():
    one_sided = [_line("     2 w 1"), GOOD[1], "XXR 3"]
    with pytest.raises(ValueError, match="round 1 of player 1 contradicts the entry of player 2"):
        parse("\n".join(one_sided) + "\n")
    wrong_points = ["001    1      A" + " " * 66 + "0.0    1     2 w 1",
                    "001    2      B" + " " * 66 + "0.0    2     1 b 0", "XXR 3"]
    with pytest.raises(ValueError, match=r"points of player 1 \(0.0\) do not match the results \(1.0\)"):
        parse("\n".join(wrong_points) + "\n")


def test_trf_accepts_the_engines_other_spellings_of_what_it_implements():
    text = "\n".join(GOOD[:2] + ["142 3", "152 B", "192 FIDE_DUTCH_2025", "162 W 1.0 D 0.5 L 0.0"]) + "\n"
    event = parse(text)
    assert (event.planned_rounds, event.initial_colour) == (3, -1)


def test_the_trf_pair_command_refuses_with_the_line_and_the_reason(tmp_path):
    path = tmp_path / "forbidden.trf"
    path.write_text("\n".join(GOOD + ["XXP    1    2"]) + "\n")
    with pytest.raises(CommandError, match="TRF line 4: forbidden pairs"):
        call_command("trf", "pair", str(path), stdout=io.StringIO())


# ---------------------------------------------------------------- withdrawals in the format (issue 40.1, 40.2)

WITHDRAWALS = Path(__file__).parent / "data" / "swiss-withdrawals"
WITHDRAWAL_CASES = sorted(path.stem for path in WITHDRAWALS.glob("*.trf"))


def test_the_withdrawal_cases_hold_forfeits_and_absences():
    texts = [(WITHDRAWALS / f"{name}.trf").read_text() for name in WITHDRAWAL_CASES]
    assert len(WITHDRAWAL_CASES) >= 40
    assert sum(" w +" in t or " b +" in t for t in texts) >= 10
    assert sum("0000 - -" in t for t in texts) >= 20


@pytest.mark.parametrize("name", WITHDRAWAL_CASES)
def test_c04_1_withdrawn_entries_are_not_paired_and_forfeits_are_no_games(name):
    """FIDE C.04.1: a withdrawn player is not paired; a forfeited game is not a game played (no
    colour, no meeting). The format's next round (entries absent from it withdrawn) is the round
    the FIDE-endorsed engine pairs from the same history."""
    entries, rounds, outcomes, planned = parse((WITHDRAWALS / f"{name}.trf").read_text()).to_swiss()
    found = Swiss(rounds=planned).next_round(entries, rounds, outcomes)
    ours = [p.seats if not p.bye else (p.seats[0], 0) for p in found.pairings]
    assert set(ours) == set(reference(WITHDRAWALS, name))
    assert not {n for pair in ours for n in pair} & {e.id for e in entries if e.withdrawn}


@pytest.mark.parametrize("name", WITHDRAWAL_CASES)
def test_trf_16_export_writes_forfeits_and_absences_as_the_engine_read_them(name):
    """The export of a history with forfeits and withdrawals is the very file the engine paired."""
    text = (WITHDRAWALS / f"{name}.trf").read_text()
    event = parse(text)
    entries, rounds, outcomes, planned = event.to_swiss()
    again = export(from_swiss(entries, rounds, outcomes, planned, {p.number: p.name for p in event.players},
                              absent_next=frozenset(e.id for e in entries if e.withdrawn)))
    assert again.splitlines()[1:] == text.splitlines()[1:]


def test_issue_40_seven_players_one_withdrawn_after_round_1_no_bye():
    text = (WITHDRAWALS / "n7_R4_s2_r2.trf").read_text()
    assert "  0000 - -" in text.splitlines()[2]
    entries, rounds, outcomes, planned = parse(text).to_swiss()
    found = Swiss(rounds=planned).next_round(entries, rounds, outcomes)
    assert not any(p.bye for p in found.pairings) and len(found.pairings) == 3
    assert [p.seats for p in found.pairings] == reference(WITHDRAWALS, "n7_R4_s2_r2")


# ---------------------------------------------------------------- the service (issue 40.1, 40.2)

def _swiss_of_seven(db):
    from bots.services import builtin_bot_versions
    from tournaments.services import tournament_create, tournament_start

    versions = builtin_bot_versions(game="sorcado", thinking=False)
    names = sorted(versions)
    tournament = tournament_create(name="Withdrawals", game="sorcado", format="swiss", format_settings={"rounds": 3},
                                   entries=[versions[names[i % len(names)]] for i in range(7)])
    tournament_start(tournament=tournament, queue=False)
    return tournament


def _play_round(tournament):
    from bots.driver import match_drive
    from replays.models import Match

    for match in Match.objects.filter(pairing_game__pairing__tournament=tournament, status=Match.Status.RUNNING):
        match_drive(match_id=match.pk)


def _trf_pair(text: str) -> list[tuple[int, int]]:
    return paired_from_trf(text)


def test_a_withdrawn_entry_is_left_out_of_the_next_swiss_round_and_the_trf_says_so(db):
    from tournaments.models import Entry as EntryRow
    from tournaments.models import Round
    from tournaments.selectors import tournament_results, tournament_standings, tournament_trf
    from tournaments.services import correction_record, tournament_advance

    tournament = _swiss_of_seven(db)
    _play_round(tournament)
    leaving = EntryRow.objects.get(tournament=tournament, seed=2)
    correction_record(tournament=tournament, kind="withdraw", entry=leaving, reason="the author withdrew the bot")
    tournament_advance(tournament_id=tournament.pk, queue=False)
    second = tournament_results(tournament=tournament).rounds[1]
    seated = [e for p in second.pairings for e in p.seats]
    assert leaving.pk not in seated, "a withdrawn entry is not paired"
    assert len(second.pairings) == 3 and not any(p.bye for p in second.pairings), "six players: no bye"
    text = tournament_trf(tournament=tournament, before_round=2)
    assert parse(text).players[1].games[1:] == [TrfGame(None, "-", "-")]
    number = {e.pk: e.seed for e in EntryRow.objects.filter(tournament=tournament)}
    assert set(_trf_pair(text)) == {tuple(number[e] for e in p.seats) for p in second.pairings}
    _play_round(tournament)
    tournament_advance(tournament_id=tournament.pk, queue=False)
    assert Round.objects.filter(tournament=tournament).count() == 3
    after = parse(tournament_trf(tournament=tournament, before_round=3))
    assert after.players[1].games[1] == TrfGame(None, "-", "-") and after.absent == {2}
    row = next(s for s in tournament_standings(tournament=tournament) if s["entry"] == leaving.pk)
    assert not row["disqualified"], "a withdrawal is no disqualification: its results stand"


def test_a_disqualification_mid_round_is_a_forfeit_in_the_trf_and_no_later_pairing(db):
    from tournaments.models import Entry as EntryRow
    from tournaments.selectors import tournament_results, tournament_trf
    from tournaments.services import correction_record, tournament_advance

    tournament = _swiss_of_seven(db)
    cheat = EntryRow.objects.get(tournament=tournament, seed=1)
    correction_record(tournament=tournament, kind="disqualify", entry=cheat, reason="shared code")
    _play_round(tournament)
    tournament_advance(tournament_id=tournament.pk, queue=False)
    results = tournament_results(tournament=tournament)
    first = next(p for p in results.rounds[0].pairings if cheat.pk in p.seats)
    assert results.outcomes[first.key].forfeit
    assert cheat.pk not in {e for p in results.rounds[1].pairings for e in p.seats}
    event = parse(tournament_trf(tournament=tournament, before_round=2))
    opponent = [e for e in first.seats if e != cheat.pk][0]
    seeds = {e.pk: e.seed for e in EntryRow.objects.filter(tournament=tournament)}
    assert event.players[0].games[0].result == "-" and event.players[0].games[0].opponent == seeds[opponent]
    assert event.players[seeds[opponent] - 1].games[0].result == "+"
    assert event.absent == {1}
    assert set(_trf_pair(tournament_trf(tournament=tournament, before_round=2))) == \
        {tuple(seeds[e] for e in p.seats) if not p.bye else (seeds[p.seats[0]], 0) for p in results.rounds[1].pairings}


# ---------------------------------------------------------------- the Baku acceleration (issue 40.4)

BAKU = Path(__file__).parent / "data" / "swiss-baku"
BAKU_CASES = sorted(path.stem for path in BAKU.glob("*.trf"))


def test_c04_5_1_baku_gives_the_first_half_a_win_then_a_draw_of_virtual_points():
    """C.04.5.1 as the reference engine applies it: group A is the first (n-1)//2 + 1 pairing
    numbers; of the first (rounds+1)//2 rounds the first half add a win, the rest a draw."""
    from tournaments.formats.dutch import baku_accelerations

    assert baku_accelerations(10, 9) == {n: [2, 2, 2, 1, 1] for n in range(1, 6)}
    assert baku_accelerations(9, 7) == {n: [2, 2, 1, 1] for n in range(1, 6)}
    assert baku_accelerations(20, 5) == {n: [2, 2, 1] for n in range(1, 11)}


@pytest.mark.parametrize("name", BAKU_CASES)
def test_c04_5_1_an_accelerated_round_pairs_as_the_fide_engine(name):
    """The format with acceleration "baku" and `trf pair` on its export (XXA lines) give the
    round the FIDE-endorsed engine pairs."""
    event = parse((BAKU / f"{name}.trf").read_text())
    assert event.accelerations
    assert set(paired_from_trf((BAKU / f"{name}.trf").read_text())) == set(reference(BAKU, name))
    entries, rounds, outcomes, planned = event.to_swiss()
    found = Swiss(rounds=planned, acceleration="baku").next_round(entries, rounds, outcomes)
    assert {p.seats if not p.bye else (p.seats[0], 0) for p in found.pairings} == set(reference(BAKU, name))


def test_the_accelerated_cases_pair_otherwise_without_the_virtual_points():
    """The cases test the acceleration: without its virtual points most rounds pair otherwise."""
    differ = 0
    for name in BAKU_CASES:
        event = parse((BAKU / f"{name}.trf").read_text())
        found = swiss_pairing(event.records(), rounds_planned=event.planned_rounds)
        differ += set(found.pairs) | ({(found.bye, 0)} if found.bye else set()) != set(reference(BAKU, name))
    assert differ >= 30


def test_trf_192_baku_reads_as_the_baku_acceleration_and_xxa_lines_win():
    name = BAKU_CASES[0]
    text = (BAKU / f"{name}.trf").read_text()
    typed = "\n".join(line for line in text.splitlines() if not line.startswith("XXA")) + "\n192 FIDE_DUTCH_2025_BAKU\n"
    assert parse(typed).accelerations == parse(text).accelerations
    assert parse(text + "192 FIDE_DUTCH_2025_BAKU\n").accelerations == parse(text).accelerations
    assert not parse(typed.replace("_BAKU", "")).accelerations
    with pytest.raises(ValueError, match="TRF line .*virtual points must be whole or half points"):
        parse(text + "XXA    1  0.3\n")
    with pytest.raises(ValueError, match="more accelerated rounds than the"):
        parse(text + "XXA    1" + "  1.0" * 12 + "\n")


def test_the_swiss_format_refuses_an_unknown_acceleration():
    from tournaments.formats import FORMATS

    with pytest.raises(ValueError, match='acceleration must be "baku"'):
        FORMATS["swiss"].from_settings({"acceleration": "fast"})
    assert FORMATS["swiss"].from_settings({"acceleration": "baku"}).acceleration == "baku"
