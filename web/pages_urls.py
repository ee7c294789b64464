"""Server-rendered pages: the replay viewer and the tournament bracket."""
from django.urls import path

from . import pages

urlpatterns = [
    path("matches/<uuid:match_id>/", pages.match_page, name="match-page"),
    path("matches/<uuid:match_id>/frames.json", pages.match_frames_json, name="match-frames"),
    path("tournaments/<int:tournament_id>/", pages.tournament_page, name="tournament-page"),
]
