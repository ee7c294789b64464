"""The API of issue 40's Swiss items, as docs/tournaments.md shows it: a withdrawal recorded as a
correction, and a Swiss created with the Baku acceleration."""
from __future__ import annotations

from tournaments.models import Correction, Entry, Round, Tournament
from tournaments.services import tournament_start

from .conftest import filled_draft


def test_the_docs_withdrawal_example_leaves_the_entry_out_of_the_next_round(organiser, organiser_user, builtins):
    tournament = filled_draft(organiser_user, builtins, 7, fmt="swiss", settings={"rounds": 3})
    tournament_start(tournament=tournament, queue=False)
    entry = Entry.objects.filter(tournament=tournament, seed=2).get()
    response = organiser.post(f"/api/tournaments/{tournament.pk}/corrections/",
                              {"kind": "withdraw", "entry": entry.pk, "reason": "the author withdrew the bot"},
                              format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["kind"] == "withdraw" and Correction.objects.get().kind == "withdraw"
    missing = organiser.post(f"/api/tournaments/{tournament.pk}/corrections/",
                             {"kind": "withdraw", "reason": "no entry named"}, format="json")
    assert missing.status_code == 400 and "withdraw needs an entry" in missing.json()["error"]["detail"]


def test_the_docs_accelerated_swiss_example_is_created_and_a_bad_acceleration_refused(organiser):
    body = {"name": "Open", "game": "sorcado", "format": "swiss",
            "format_settings": {"rounds": 7, "acceleration": "baku"}}
    response = organiser.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    assert Tournament.objects.get(pk=response.json()["id"]).format_settings["acceleration"] == "baku"
    body["format_settings"] = {"acceleration": "fast"}
    refused = organiser.post("/api/tournaments/", body, format="json")
    assert refused.status_code == 400 and 'acceleration must be "baku"' in refused.json()["error"]["detail"]
    assert Tournament.objects.count() == 1 and not Round.objects.exists()
