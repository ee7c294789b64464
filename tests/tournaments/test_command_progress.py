"""Issue 39.6, "the demo's progress bar is readable when output is captured": manage.py
tournament redraws its bar in place (a carriage return) on a terminal only; captured (a pipe, a
file, CI's log) it writes one line per finished round."""
import io

from django.core.management import call_command

from tournaments.models import Tournament

GAME = "sorcado"


class Terminal(io.StringIO):
    def isatty(self):
        return True


def _run(stderr):
    call_command("tournament", "--game", GAME, "--format", "round-robin", "--bots", "random,heuristic,random",
                 stdout=io.StringIO(), stderr=stderr)
    return Tournament.objects.latest("id")


def test_captured_output_gets_a_line_per_round_and_no_carriage_return(db):
    captured = io.StringIO()
    tournament = _run(captured)
    rounds = tournament.rounds.count()
    text = captured.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert rounds == 3 and len(lines) == rounds
    for number, line in enumerate(lines, start=1):
        assert line.startswith(f"round {number}: [{'#' * 20}] ") and line.endswith(" played)"), line


def test_a_terminal_gets_the_bar_redrawn_in_place(db):
    terminal = Terminal()
    _run(terminal)
    text = terminal.getvalue()
    assert text.count("\r") >= 3 and text.endswith("\n") and text.count("\n") == 1
