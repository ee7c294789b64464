"""API routes (tournaments and leaderboards)."""
from django.urls import path

from . import views_tournaments as views

urlpatterns = [
    path("tournaments/", views.TournamentListCreate.as_view(), name="tournament-list"),
    path("tournaments/<int:tournament_id>/", views.TournamentDetail.as_view(), name="tournament-detail"),
    path("tournaments/<int:tournament_id>/entries/", views.EntryListCreate.as_view(), name="tournament-entries"),
    path("tournaments/<int:tournament_id>/entries/<int:entry_id>/", views.EntryDetail.as_view(),
         name="tournament-entry"),
    path("tournaments/<int:tournament_id>/start/", views.TournamentStart.as_view(), name="tournament-start"),
    path("tournaments/<int:tournament_id>/cancel/", views.TournamentCancel.as_view(), name="tournament-cancel"),
    path("tournaments/<int:tournament_id>/standings/", views.TournamentStandings.as_view(),
         name="tournament-standings"),
    path("tournaments/<int:tournament_id>/bracket/", views.TournamentBracket.as_view(), name="tournament-bracket"),
    path("tournaments/<int:tournament_id>/rounds/", views.TournamentRounds.as_view(), name="tournament-rounds"),
    path("tournaments/<int:tournament_id>/trf/", views.TournamentTrf.as_view(), name="tournament-trf"),
    path("tournaments/<int:tournament_id>/corrections/", views.CorrectionListCreate.as_view(),
         name="tournament-corrections"),
    path("leaderboards/<str:game>/", views.Leaderboard.as_view(), name="leaderboard"),
]
