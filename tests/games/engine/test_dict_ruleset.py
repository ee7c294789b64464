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


def test_an_editions_setup_takes_options_built_for_the_game_as_they_are():
    """Each game's setup took an instance of its own Options as it was (and an edition's, a
    subclass of them); the shell keeps that: game_options is the game's class, not the
    edition's."""
    from games.sorcado import Options as SorcadoOptions

    edition = registry.get("sorcado").edition(1)
    assert edition.Options is not SorcadoOptions and edition.game_options() is SorcadoOptions
    built = SorcadoOptions(tie="shared")
    assert edition.setup(2, built)["options"]["tie"] == "shared"
    with pytest.raises(InvalidOptions):
        edition.setup(2, {"freed_look": "s1-only"})  # from JSON: the edition's own options


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
