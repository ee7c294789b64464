"""API routes (matches): list, detail, replay steps, raw events, export and validation."""
from django.urls import path

from . import views_matches as views

urlpatterns = [
    path("matches/", views.MatchList.as_view(), name="match-list"),
    path("matches/<uuid:pk>/", views.MatchDetail.as_view(), name="match-detail"),
    path("matches/<uuid:pk>/steps/<int:n>/", views.MatchStep.as_view(), name="match-step"),
    path("matches/<uuid:pk>/events/", views.MatchEvents.as_view(), name="match-events"),
    path("matches/<uuid:pk>/export/", views.MatchExport.as_view(), name="match-export"),
    path("matches/<uuid:pk>/validation/", views.MatchValidation.as_view(), name="match-validation"),
    path("matches/<uuid:pk>/validate/", views.MatchValidate.as_view(), name="match-validate"),
]
