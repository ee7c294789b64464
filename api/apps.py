from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"

    def ready(self):
        from . import checks  # noqa: F401  (registers the deployment checks)
