"""The search bench's fingerprint (bench/search.py): the stored games of a pool stand for the
code that played them, so every change a game could play differently by changes it, and a change
of code no game of the bench runs (a validation's act_in_place) does not."""
from bench.search import _code

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
