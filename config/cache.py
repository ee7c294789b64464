"""The Redis cache backend as deployed (CACHE_URL): Django's own, its connections and its redis
client made once per process.

Two costs of Django's backend, measured under the load mix (docs/caching.md, "The request path"):

- Its cache objects are per context, not per thread (``django.core.cache.caches`` is an asgiref
  ``Local``), and the deployed server runs each request in a copy of the event loop's context
  (a2wsgi, config/asgi.py): every request got a new backend, with a new connection pool, so a
  request that asked the cache opened a new connection to Redis (6,861 connections in a 33 s
  run of the mix, each with its handshake). Here the pools are the process's, one per server
  and set of options, whatever backend object asks: connections are opened once and reused.
- ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` around the pool for every
  operation; redis-py 8 fills its table of about 170 response callbacks in ``__init__``. A
  ``redis.Redis`` is safe to share between threads (each command takes a connection from the
  pool), so each pool gets one client, made on first use.

Everything else is Django's backend unchanged; the class keeps its name (RedisCache), which the
rate limits (api/throttles.py) and ``check --deploy`` recognise.
"""
from __future__ import annotations

import threading

from django.core.cache.backends import redis as django_redis

_pools: dict = {}  # (server, pool class, options) -> the process's connection pool
_clients: dict = {}  # id(pool) -> the redis client around it
_lock = threading.Lock()


class RedisCacheClient(django_redis.RedisCacheClient):
    """Django's client, with the process's connection pools and one ``redis.Redis`` per pool."""

    def _get_connection_pool(self, write):
        index = self._get_connection_pool_index(write)
        key = (self._servers[index], self._pool_class, tuple(sorted((k, repr(v)) for k, v in self._pool_options.items())))
        pool = _pools.get(key)
        if pool is None:
            with _lock:
                pool = _pools.get(key)
                if pool is None:
                    pool = _pools[key] = self._pool_class.from_url(self._servers[index], **self._pool_options)
        return pool

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = _clients.get(id(pool))
        if client is None:
            with _lock:
                client = _clients.get(id(pool))
                if client is None:
                    client = _clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """django.core.cache.backends.redis.RedisCache with RedisCacheClient above."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
