"""The deployed Redis cache backend (config/cache.py): Django's, with one redis client per
connection pool, shared by threads. Runs against the real Redis of the PostgreSQL + Redis pass
(CELERY_BROKER_URL), under a key prefix of its own."""
import os
import secrets
import threading

import pytest
from django.core.cache.backends.redis import RedisCacheClient as DjangoClient

from config.cache import RedisCache

BROKER = os.environ.get("CELERY_BROKER_URL", "")
pytestmark = pytest.mark.skipif(not BROKER.startswith("redis://"),
                                reason="needs Redis (the PostgreSQL + Redis pass sets CELERY_BROKER_URL)")


def backend() -> RedisCache:
    return RedisCache(BROKER, {"KEY_PREFIX": f"cache-backend-test-{secrets.token_hex(8)}"})


def test_each_operation_uses_the_one_client_of_its_pool():
    cache = backend()
    cache.set("a", 1)
    first = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=True) is first
    assert cache._cache.get_client() is cache._cache.get_client()
    # Django's own client makes a new one each time: what this backend saves
    stock = DjangoClient([BROKER])
    assert stock.get_client() is not stock.get_client()


def test_backends_made_per_request_share_the_process_connections():
    """The deployed server runs each request in a copy of the loop's context, and Django's cache
    objects are per context: a new backend a request. They share the process's pool (and its
    open connections) and client; Django's own opened a pool, and so a connection, each."""
    import contextvars

    from django.core.cache import caches
    from django.test.utils import override_settings

    with override_settings(CACHES={"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": BROKER,
                                               "KEY_PREFIX": f"cache-backend-test-{secrets.token_hex(8)}"}}):
        made = [contextvars.copy_context().run(lambda: caches["default"]) for _ in range(3)]
        assert len({id(cache) for cache in made}) == 3  # a backend per context, as under a2wsgi
        for cache in made:
            cache.set("shared", 1)
        pools = {id(cache._cache._get_connection_pool(True)) for cache in made}
        clients = {id(cache._cache.get_client(write=True)) for cache in made}
        assert len(pools) == 1 and len(clients) == 1
        pool = made[0]._cache._get_connection_pool(True)
        assert len(pool._available_connections) + len(pool._in_use_connections) == 1
    stock = [DjangoClient([BROKER]) for _ in range(2)]
    assert stock[0]._get_connection_pool(True) is not stock[1]._get_connection_pool(True)


def test_values_round_trip_from_many_threads_at_once():
    cache = backend()
    failures = []

    def work(t: int):
        try:
            for i in range(200):
                cache.set(f"{t}-{i}", {"thread": t, "i": i, "body": b"x" * i}, 60)
                if cache.get(f"{t}-{i}") != {"thread": t, "i": i, "body": b"x" * i}:
                    failures.append((t, i))
            found = cache.get_many([f"{t}-{i}" for i in range(0, 200, 7)])
            if found != {f"{t}-{i}": {"thread": t, "i": i, "body": b"x" * i} for i in range(0, 200, 7)}:
                failures.append((t, "many"))
            cache.delete(f"{t}-0")
            if cache.get(f"{t}-0", "gone") != "gone":
                failures.append((t, "delete"))
        except Exception as error:  # noqa: BLE001  (reported below, with the thread)
            failures.append((t, repr(error)))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert cache._cache.get_client() is cache._cache.get_client(write=True)  # one server: one client
