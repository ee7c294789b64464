"""games/engine/tuning.py: a game's tuning of the generic search runs the generic iteration's
own code with its cut, and answers ``score_now`` with its evaluation."""
from games.engine import registry
from games.engine import search as generic
from games.engine.search import SearchBot
from games.engine.tuning import Evaluated, with_cut


def test_with_cut_runs_the_same_code_with_its_own_cut_and_leaves_the_generic_one_alone():
    tuned = with_cut(SearchBot._iterate, 3)
    assert tuned.__code__ is SearchBot._iterate.__code__
    assert tuned.__globals__["PLAYOUT_DECISIONS"] == 3
    assert SearchBot._iterate.__globals__["PLAYOUT_DECISIONS"] == generic.PLAYOUT_DECISIONS == 20


def test_evaluated_answers_score_now_with_the_evaluation_and_the_rest_with_the_rules():
    rules = registry.get("sorcado")
    seen = []

    def evaluate(ruleset, state):
        seen.append((ruleset, state))
        return [7.0, 1.0]

    evaluated = Evaluated(rules, evaluate)
    state = rules.setup(2, rules.options({}))
    assert evaluated.score_now(state) == [7.0, 1.0] and seen == [(rules, state)]
    assert evaluated.next(state) == rules.next(state)
    assert evaluated.spec is rules.spec and evaluated.view(state, 0) == rules.view(state, 0)
