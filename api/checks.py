"""System checks of the deployment that Django's own `check --deploy` does not make."""
from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.caches, deploy=True)
def check_shared_cache(app_configs=None, **kwargs):
    """The throttles count in the default cache: a per-process cache lets every server process
    allow the whole rate on its own."""
    backend = settings.CACHES["default"]["BACKEND"]
    if backend.endswith(("LocMemCache", "DummyCache")):
        return [checks.Warning(
            f"the default cache ({backend.rsplit('.', 1)[-1]}) is per process, so each server "
            f"process would allow the API's whole request rate on its own",
            hint="set CACHE_URL to a Redis database (e.g. redis://redis:6379/1)",
            id="arena.W001")]
    return []
