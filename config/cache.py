"""The Redis cache backend as deployed (CACHE_URL): Django's own, with its Redis client made once.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` around the connection pool
for every cache operation. The pool (and so the connections) is shared, but the client object is
not free: redis-py 8 fills its table of response callbacks in ``__init__``, about 170 entries, so
a read path that asks the cache three times builds three of them (bench/reads.py's profile: a
third of the time spent in Redis calls). A ``redis.Redis`` is safe to share between threads (each
command takes a connection from the pool), so here each pool gets one client, made on first use.
Everything else is Django's backend unchanged; the class keeps its name (RedisCache), which the
rate limits (api/throttles.py) and ``check --deploy`` recognise.
"""
from __future__ import annotations

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    """Django's client, with one ``redis.Redis`` per connection pool instead of one per call."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:  # two threads may both make one: either serves, the last is kept
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class RedisCache(django_redis.RedisCache):
    """django.core.cache.backends.redis.RedisCache with RedisCacheClient above."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
