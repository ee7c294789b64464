"""The search bench's fingerprint (bench/search.py): the stored games of a pool stand for the
code that played them, so every change a game could play differently by changes it, and a change
of code no game of the bench runs (a validation's act_in_place) does not."""
import pytest

from bench import search as bench_search
from bench.search import _code, _imports_tuning

RULES = '''
class Rules:
    """Doc."""

    def apply_in_place(self, state, event):
        return state + 1

    def act_in_place(self, state, seat, payload):
        return self.apply_in_place(state, payload)
'''


def test_a_validations_act_in_place_is_left_out_and_nothing_else():
    faster = RULES.replace("return self.apply_in_place(state, payload)", "return state + 1")
    assert _code(faster) == _code(RULES)
    assert _code(RULES.replace('"""Doc."""', '"""Other words."""')) == _code(RULES)
    assert _code(RULES.replace("return state + 1", "return state + 2")) != _code(RULES)
    assert _code(RULES.replace("def act_in_place", "def act_now")) != _code(RULES)


def _row(index: int, seat: int, placings: list[int]) -> dict:
    return {"index": index, "seat": seat, "placings": placings}


def test_a_pairing_is_read_against_the_best_bot_on_the_same_deals():
    from bench.search import paired

    baseline = [_row(0, 0, [1, 2]), _row(1, 1, [1, 2]), _row(2, 0, [1, 1]), _row(3, 1, [2, 1])]
    rows = [_row(0, 0, [2, 1]),  # a win lost
            _row(1, 1, [2, 1]),  # a loss won
            _row(2, 0, [1, 2]),  # a tie won
            _row(3, 1, [2, 1]),  # a win kept
            _row(4, 0, [1, 2])]  # no baseline game: not a deal of the comparison
    pair = paired(rows, baseline)
    assert pair["deals"] == 4
    assert pair["mine"] == [3, 0, 1] and pair["base"] == [2, 1, 1]
    assert (pair["better"], pair["worse"]) == (2, 1)
    assert paired(rows, []) is None


def test_the_sign_test_is_the_two_sided_binomial_tail():
    from bench.search import sign_test

    assert sign_test(5, 0) == sign_test(0, 5) == 2 / 32  # all five the same way: 2 x (1/2)^5
    assert sign_test(4, 1) == 2 * 6 / 32  # four or more of five one way, either way
    assert sign_test(3, 3) == 1.0 and sign_test(0, 0) == 1.0


@pytest.mark.parametrize("line, imports", [
    ("from games.engine.tuning import Evaluated, with_cut", True),
    ("from ..engine.tuning import with_cut", True),
    ("from games.engine import search, tuning", True),
    ("import games.engine.tuning", True),
    ("from games.engine.search import SearchBot", False),
    ("# games.engine.tuning is not imported here", False),
])
def test_a_game_that_tunes_its_search_has_the_tuning_module_in_its_fingerprint(tmp_path, line, imports):
    """games/engine/tuning.py is a tuned game's search code: a game package that imports it has
    it in its fingerprint, and the games that do not keep the fingerprints of their pools."""
    (tmp_path / "search.py").write_text(line + "\n")
    assert _imports_tuning(tmp_path) is imports


def test_the_tuning_module_is_in_the_fingerprint_of_imperial_twing_alone(monkeypatch):
    tuning = bench_search.ROOT / "games" / "engine" / "tuning.py"
    before = {game: bench_search.fingerprint(game) for game in ("imperial-twing", "sorcado")}
    real = type(tuning).read_text
    monkeypatch.setattr(type(tuning), "read_text",
                        lambda path, *a, **k: real(path, *a, **k) + ("\nCHANGED = 1\n" if path == tuning else ""))
    after = {game: bench_search.fingerprint(game) for game in ("imperial-twing", "sorcado")}
    assert after["imperial-twing"] != before["imperial-twing"]
    assert after["sorcado"] == before["sorcado"]


def test_the_dict_state_shell_is_in_the_fingerprint_of_the_games_on_it_alone(monkeypatch):
    """games/engine/dict_ruleset.py is the apply of Sorcado, Imperial Twing, Warlock and Wizard
    Kings (every playout of theirs runs it): a change there changes their fingerprints, and
    Trap the Wizard's (a Ruleset of its own) stays."""
    shell = bench_search.ROOT / "games" / "engine" / "dict_ruleset.py"
    games = ("sorcado", "imperial-twing", "warlock", "wizard-kings", "trap-the-wizard")
    before = {game: bench_search.fingerprint(game) for game in games}
    real = type(shell).read_text
    monkeypatch.setattr(type(shell), "read_text",
                        lambda path, *a, **k: real(path, *a, **k) + ("\nCHANGED = 1\n" if path == shell else ""))
    after = {game: bench_search.fingerprint(game) for game in games}
    assert [game for game in games if after[game] != before[game]] == list(games[:4])
