"""API routes (the ladders)."""
from django.urls import path

from . import views_ladder as views

urlpatterns = [
    path("ladders/", views.LadderList.as_view(), name="ladder-list"),
    path("ladders/<str:game>/", views.LadderDetail.as_view(), name="ladder-detail"),
    path("ladders/<str:game>/leaderboard/", views.LadderLeaderboard.as_view(), name="ladder-leaderboard"),
    path("ladders/<str:game>/entries/", views.LadderEntryList.as_view(), name="ladder-entry-list"),
    path("ladders/<str:game>/entries/<int:bot_id>/", views.LadderEntryDetail.as_view(), name="ladder-entry-detail"),
]
