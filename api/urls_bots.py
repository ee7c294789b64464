"""API routes (bots and their versions)."""
from django.urls import path

from . import views_bots as views

urlpatterns = [
    path("bots/", views.BotListCreate.as_view(), name="bot-list"),
    path("me/bots/", views.MyBotList.as_view(), name="my-bot-list"),
    path("bots/<int:bot_id>/", views.BotDetail.as_view(), name="bot-detail"),
    path("bots/<int:bot_id>/versions/", views.BotVersionListUpload.as_view(), name="bot-version-list"),
    path("bots/<int:bot_id>/versions/<int:number>/", views.BotVersionDetail.as_view(),
         name="bot-version-detail"),
    path("bots/<int:bot_id>/versions/<int:number>/code/", views.BotVersionCode.as_view(),
         name="bot-version-code"),
]
