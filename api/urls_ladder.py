"""API routes (the ladders and scrimmages)."""
from django.urls import path

from . import views_ladder as views
from . import views_scrimmages

urlpatterns = [
    path("ladders/", views.LadderList.as_view(), name="ladder-list"),
    path("ladders/<str:game>/", views.LadderDetail.as_view(), name="ladder-detail"),
    path("ladders/<str:game>/leaderboard/", views.LadderLeaderboard.as_view(), name="ladder-leaderboard"),
    path("ladders/<str:game>/entries/", views.LadderEntryList.as_view(), name="ladder-entry-list"),
    path("ladders/<str:game>/entries/<int:bot_id>/", views.LadderEntryDetail.as_view(), name="ladder-entry-detail"),
    path("scrimmages/", views_scrimmages.ScrimmageListCreate.as_view(), name="scrimmage-list"),
    path("scrimmages/<int:scrimmage_id>/", views_scrimmages.ScrimmageDetail.as_view(), name="scrimmage-detail"),
]
