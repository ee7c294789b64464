from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    name = "replays"
    verbose_name = "Replays (event store)"
