"""games/engine/dict_ruleset.py: the Ruleset shell of the dict-state games (Sorcado, Imperial
Twing, Warlock, Wizard Kings, and the conformance suite's toy Nim). The conformance suite plays
every game through it; these are the parts a playout does not reach."""
import pytest

from games.engine import registry
from games.engine.dict_ruleset import DictRuleset, short_text
from games.engine.protocol import Event, IllegalAction, InvalidOptions

DICT_GAMES = ("sorcado", "imperial-twing", "warlock", "wizard-kings")


@pytest.mark.parametrize("game", DICT_GAMES)
def test_the_four_dict_state_games_and_their_editions_stand_on_the_shell(game):
    current = registry.get(game)
    assert isinstance(current, DictRuleset) and isinstance(current.edition(1), DictRuleset)
    for method in ("setup", "next", "check", "apply", "apply_in_place"):
        assert getattr(type(current), method) is getattr(DictRuleset, method), method


def test_setup_takes_options_built_for_the_ruleset_or_for_its_game_as_they_are():
    """Each game's setup took options built already as they were: Sorcado, Warlock and Wizard
    Kings those of the game's Options (an edition's subclass them, or Warlock's version 2 hands
    on the game's it built from its own), Imperial Twing those of the ruleset's (its version 2
    has options of its own); the shell takes both."""
    from games.sorcado import Options as SorcadoOptions

    sorcado_v1 = registry.get("sorcado").edition(1)
    assert sorcado_v1.built_options() == (sorcado_v1.Options, SorcadoOptions)
    assert sorcado_v1.setup(2, SorcadoOptions(tie="shared"))["options"]["tie"] == "shared"
    with pytest.raises(InvalidOptions):
        sorcado_v1.setup(2, {"freed_look": "s1-only"})  # from JSON: the edition's own options
    for game in DICT_GAMES:
        current = registry.get(game)
        for version in range(1, current.spec.version + 1):
            rules = current.edition(version)
            built = rules.options(None)  # an edition's own (Imperial Twing's v2: no subclass)
            state = rules.setup(rules.spec.min_players, built)
            assert rules.setup(rules.spec.min_players, None) == state, (game, version)


@pytest.mark.parametrize("game", DICT_GAMES)
def test_an_engine_refuses_an_event_kind_it_never_sees_and_a_forfeit_of_no_seat(game):
    rules = registry.get(game)
    state = rules.setup(rules.spec.min_players, None)
    for kind in ("match_ended", "no-such-kind"):
        for apply in (rules.apply, rules.apply_in_place):
            with pytest.raises(IllegalAction, match=f"an engine never sees {kind!r} events"):
                apply(rules.decode(rules.encode(state)), Event(kind, None, {}))
    with pytest.raises(IllegalAction, match="forfeit names no seat"):
        rules.apply(state, Event.forfeit(rules.spec.max_players, "resigned"))


def test_a_reason_shows_a_value_in_at_most_sixty_characters():
    assert short_text("pass") == "'pass'"
    assert len(short_text("x" * 100)) == 60 and short_text("x" * 100).endswith("...")


def _overrides_a_hook(klass) -> bool:
    return any(getattr(klass, hook) is not getattr(DictRuleset, hook)
               for hook in ("before_event", "after_event"))


def test_a_class_calls_the_event_hooks_exactly_where_it_overrides_one():
    """``_event_hooks`` (decided once per class) says whether a class overrides
    ``before_event`` or ``after_event``: of every dict-state game and edition, and of classes
    below them that override one hook or none; a class that does has both called, in order."""
    for game in DICT_GAMES:
        current = registry.get(game)
        for version in range(1, current.spec.version + 1):
            klass = type(current.edition(version))
            assert klass._event_hooks == _overrides_a_hook(klass), (game, version)
    assert registry.get("imperial-twing")._event_hooks and registry.get("wizard-kings")._event_hooks
    assert not registry.get("warlock")._event_hooks and not registry.get("sorcado")._event_hooks

    calls = []

    class Counting(type(registry.get("warlock"))):
        def after_event(self, state):
            calls.append(("after", state["phase"]))

    class Below(Counting):
        def before_event(self, state):
            calls.append(("before", state["phase"]))

    class Plain(type(registry.get("warlock"))):
        pass

    assert Counting._event_hooks and Below._event_hooks and not Plain._event_hooks
    for klass, expected in ((Counting, [("after", "play")]),
                            (Below, [("before", "play"), ("after", "play")]), (Plain, [])):
        calls.clear()
        rules = klass()
        state = rules.setup(2, None)
        rules.apply_in_place(state, Event.chance(rules.next(state).spec, [1]))
        assert calls == expected, klass


@pytest.mark.parametrize("game", DICT_GAMES)
def test_skipping_the_no_op_hooks_changes_no_state_of_random_playouts(game):
    """``apply_in_place`` as it was (both hooks called on every event: ``_event_hooks`` True on
    the instance) gives the same state as the shell's on every state of random playouts of
    every edition of every dict-state game, for every event the playout applies."""
    import copy
    import random

    from games.engine.protocol import Chance, Ended
    from games.engine.search import sample_outcome

    current = registry.get(game)
    applied = 0
    for version in range(1, current.spec.version + 1):
        rules = current.edition(version)
        reference = copy.copy(rules)
        reference._event_hooks = True
        for players in sorted({rules.spec.min_players, rules.spec.max_players}):
            rng = random.Random(7 * version + players)
            state = rules.setup(players, None)
            for _ in range(3000):
                nxt = rules.next(state)
                if isinstance(nxt, Ended):
                    break
                if isinstance(nxt, Chance):
                    event = Event.chance(nxt.spec, sample_outcome(nxt.spec, rng))
                else:
                    seat = nxt.seats[0]
                    event = Event.action(seat, rng.choice(rules.legal_actions(state, seat)))
                slow = reference.apply_in_place(copy.deepcopy(state), event)
                state = rules.apply_in_place(state, event)
                assert state == slow, (game, version, players, event)
                applied += 1
    assert applied > 200
