"""The site for people (web.site, web.site_accounts, web.site_bots, web.site_ladder,
web.site_tournaments): home, games, bots, ladders, tournaments (organised from the site too),
matches, my page, login and logout, sign-up, password change and API tokens. The viewer and the
tournament page (web.pages_urls) share its frame."""
from django.urls import path, re_path

from . import site, site_accounts, site_bots, site_ladder, site_play, site_tournaments

urlpatterns = [
    path("", site.home, name="site-home"),
    path("games/", site.game_list, name="site-games"),
    path("games/<str:name>/", site.game_detail, name="site-game"),
    path("matches/", site.match_list, name="site-matches"),
    path("tournaments/", site.tournament_list, name="site-tournaments"),
    path("tournaments/new/", site_tournaments.tournament_create_page, name="site-tournament-new"),
    path("tournaments/<int:tournament_id>/entries/", site_tournaments.tournament_entry_page,
         name="site-tournament-entry"),
    path("tournaments/<int:tournament_id>/start/", site_tournaments.tournament_start_page,
         name="site-tournament-start"),
    path("tournaments/<int:tournament_id>/cancel/", site_tournaments.tournament_cancel_page,
         name="site-tournament-cancel"),
    path("bots/", site_bots.bot_list, name="site-bots"),
    path("bots/new/", site_bots.bot_create_page, name="site-bot-new"),
    path("bots/<int:bot_id>/", site.bot_detail, name="site-bot"),
    path("bots/<int:bot_id>/versions/", site_bots.bot_version_upload_page, name="site-bot-upload"),
    path("bots/<int:bot_id>/ladder/", site_ladder.ladder_entry_toggle, name="site-bot-ladder"),
    path("ladders/", site_ladder.ladder_list, name="site-ladders"),
    path("ladders/<str:name>/", site_ladder.ladder_detail, name="site-ladder"),
    path("scrimmages/", site_ladder.scrimmage_list, name="site-scrimmages"),
    path("scrimmages/<int:scrimmage_id>/", site_ladder.scrimmage_detail, name="site-scrimmage"),
    path("play/", site_play.play_page, name="site-play"),
    path("me/", site.my_page, name="site-me"),
    path("login/", site.login_view, name="site-login"),
    path("logout/", site.logout_view, name="site-logout"),
    path("signup/", site_accounts.signup_view, name="site-signup"),
    path("password/", site_accounts.password_change_view, name="site-password"),
    path("tokens/", site_accounts.tokens_view, name="site-tokens"),
    path("tokens/<int:token_id>/revoke/", site_accounts.token_revoke_view, name="site-token-revoke"),
    # Last: any other URL is the site's 404 page, DEBUG or not (site.unknown_page).
    re_path(r"^(?P<path>.*)$", site.unknown_page, name="site-unknown"),
]
