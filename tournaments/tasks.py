"""Celery tasks of tournaments: they take ids, re-read the database and are safe to run twice."""
from celery import shared_task


@shared_task(name="tournaments.match_finished")
def match_finished(match_id: str) -> int:
    """A match ended: advance its tournament (if it belongs to one). Returns matches started."""
    from .models import PairingGame
    from .services import tournament_advance

    game = PairingGame.objects.filter(match_id=match_id).select_related("pairing").first()
    if game is None:
        return 0
    return len(tournament_advance(tournament_id=game.pairing.tournament_id))


@shared_task(name="tournaments.advance_tournament")
def advance_tournament(tournament_id: int) -> int:
    from .services import tournament_advance

    return len(tournament_advance(tournament_id=tournament_id))


@shared_task(name="tournaments.recompute_ratings")
def recompute_ratings(game: str) -> int:
    from .services import ratings_recompute

    return ratings_recompute(game=game)


@shared_task(name="tournaments.sweep_tournaments")
def sweep_tournaments() -> dict:
    """What finished matches owe their tournaments, found in the database alone (periodic, see
    settings): an advance a lost match_finished never made, ratings a lost recompute never
    stored. Returns counts of what it did."""
    from .services import tournaments_sweep

    return tournaments_sweep()
