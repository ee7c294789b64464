from django.apps import AppConfig


class WebConfig(AppConfig):
    """The site for people, server-rendered: its pages (home, games, ladders, tournaments, matches,
    bots, accounts), the replay viewer, their templates, scripts and styles. The REST API is
    api/; both read the domain apps' selectors and call their services."""

    name = "web"
    default_auto_field = "django.db.models.BigAutoField"
