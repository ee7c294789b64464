"""The site for people (api.site): home, games, tournaments, matches, bots, my page, login and
logout. The viewer and the tournament page (api.pages_urls) share its frame."""
from django.urls import path

from . import site

urlpatterns = [
    path("", site.home, name="site-home"),
    path("games/", site.game_list, name="site-games"),
    path("games/<str:name>/", site.game_detail, name="site-game"),
    path("matches/", site.match_list, name="site-matches"),
    path("tournaments/", site.tournament_list, name="site-tournaments"),
    path("bots/<int:bot_id>/", site.bot_detail, name="site-bot"),
    path("me/", site.my_page, name="site-me"),
    path("login/", site.login_view, name="site-login"),
    path("logout/", site.logout_view, name="site-logout"),
]
