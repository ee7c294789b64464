"""API routes (remote seats: docs/remote.md)."""
from django.urls import path

from . import views_remote as views

urlpatterns = [
    path("remote/stream/", views.RemoteStream.as_view(), name="remote-stream"),
    path("remote/next/", views.RemoteNext.as_view(), name="remote-next"),
    path("matches/<uuid:pk>/seats/<int:seat>/act/", views.RemoteAnswer.as_view(), name="remote-answer"),
]
