"""The OpenAPI schema describes a tournament's create body exactly (issue 40, item 11): for each
body below, the schema's verdict (jsonschema against /api/schema/) is the service's
(tournaments.services_drafts.checked_settings, which the API calls). The bodies sit on the
bounds that depend on the game and the format, which an "any object" schema did not state."""
import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator

from tournaments.services_drafts import DraftRefused, checked_settings


@pytest.fixture(scope="module")
def validator():
    components = SchemaGenerator().get_schema(request=None, public=True)["components"]
    root = {"$ref": "#/components/schemas/TournamentCreateInputRequest", "components": components}
    return jsonschema.Draft7Validator(root)


def service_accepts(body: dict) -> bool:
    try:
        checked_settings(**body)
        return True
    except DraftRefused:
        return False


BODIES = [
    # pods: 2 <= min_seats <= seats <= the game's seats, 1 <= advance < min_seats (defaults 4, 3, 2)
    ("sorcado", "pods", {}, {}),
    ("sorcado", "pods", {"min_seats": 2}, {}),                   # advance 2 by default: not < 2
    ("sorcado", "pods", {"min_seats": 2, "advance": 1}, {}),
    ("sorcado", "pods", {"seats": 5}, {}),                       # Sorcado takes 2-4 players
    ("wizard-kings", "pods", {"seats": 7}, {}),
    ("trap-the-wizard", "pods", {"seats": 7}, {}),               # Trap the Wizard takes 2-6
    ("sorcado", "pods", {"min_seats": 4, "seats": 3}, {}),
    ("sorcado", "pods", {"min_seats": 4, "advance": 3}, {}),
    ("warlock", "swiss-pods", {"min_seats": 2, "seats": 2}, {}),
    # a series is best of an odd number; SETTING_LIMITS
    ("sorcado", "swiss", {"best_of": 3}, {}),
    ("sorcado", "swiss", {"best_of": 4}, {}),
    ("sorcado", "swiss", {"best_of": 101}, {}),
    ("sorcado", "round-robin", {"cycles": 11}, {}),
    ("sorcado", "swiss", {"acceleration": "baku"}, {}),
    ("sorcado", "swiss", {"seats": 2}, {}),                      # not a Swiss setting
    # rules_options: each game's own options, with their choices and bounds
    ("sorcado", "swiss", {}, {"replays": 10}),
    ("sorcado", "swiss", {}, {"replays": 11}),
    ("sorcado", "swiss", {}, {"energy": 100}),                   # a Warlock option
    ("warlock", "swiss", {}, {"energy": 100}),
    # Trap the Wizard: rounds * turn_limit * (wizards + 3) events within the driver's limit
    ("trap-the-wizard", "swiss", {}, {"turn_limit": 100000}),    # 5 rounds, 3 wizards: 3 M events
    ("trap-the-wizard", "swiss", {}, {"turn_limit": 33333}),
    ("trap-the-wizard", "swiss", {}, {"turn_limit": 33334}),
    ("trap-the-wizard", "swiss", {}, {"rounds": 1, "wizards": 1, "turn_limit": 100000}),
    ("trap-the-wizard", "pods", {}, {"rounds": 20, "wizards": 6, "turn_limit": 5555}),
    ("trap-the-wizard", "pods", {}, {"rounds": 20, "wizards": 6, "turn_limit": 5556}),
]


@pytest.mark.parametrize("game,format_name,format_settings,options", BODIES)
def test_the_schema_accepts_a_tournament_body_exactly_when_the_service_does(validator, game, format_name,
                                                                             format_settings, options):
    body = {"name": "Open", "game": game, "format": format_name, "format_settings": format_settings,
            "rules_options": options}
    assert validator.is_valid(body) == service_accepts(body), next(iter(validator.iter_errors(body)), "accepted")


def test_the_bodies_above_include_refusals_and_acceptances(validator):
    verdicts = {service_accepts({"name": "Open", "game": g, "format": f, "format_settings": s, "rules_options": o})
                for g, f, s, o in BODIES}
    assert verdicts == {True, False}
