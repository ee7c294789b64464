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

from tournaments.formats.swiss import swiss_pairing
from tournaments.formats.trf import TrfGame, parse

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
                          initial_colour=event.initial_colour, absent=event.absent)
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
    ("XXA    1  1.0", "accelerations"),
    ("250  1.0  1.0    1    1    1    2", "accelerations"),
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
    path = tmp_path / "accelerated.trf"
    path.write_text("\n".join(GOOD + ["XXA    1  1.0"]) + "\n")
    with pytest.raises(CommandError, match="TRF line 4: accelerations"):
        call_command("trf", "pair", str(path), stdout=io.StringIO())
