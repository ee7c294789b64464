"""Request rates counted atomically: DRF's throttles with the read-check-write of their history
made one step.

DRF's SimpleRateThrottle reads a client's history from the cache, checks it and writes it back
with the new request: two requests at once both read N-1 and both pass, and the last write wins
(issue 40, item 7: 8 parallel anonymous connections got 1,499 responses in 5 s against
600/minute). Here the history is the same sliding window (a request is counted for ``duration``
seconds, at most ``num_requests`` at a time), kept

- in Redis, when the default cache is Redis (CACHE_URL): a sorted set of request times, trimmed,
  counted and added to by one Lua script, which Redis runs alone; every server process shares it;
- elsewhere (the embedded defaults: one process, a per-process memory cache), under one lock of
  the process, so its threads never interleave the read and the write.
"""
from __future__ import annotations

import functools
import threading
import uuid

from django.conf import settings
from rest_framework import throttling

# KEYS[1]: the client's history; ARGV: now, duration (s), limit, a unique member for this request.
# Returns {1 if allowed else 0, requests in the window (this one included if allowed), the oldest's time}.
_RECORD = """
local now, duration, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - duration)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
    redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
    count = count + 1
    allowed = 1
end
redis.call('EXPIRE', KEYS[1], math.ceil(duration))
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return {allowed, count, oldest or ARGV[1]}
"""

_memory_lock = threading.Lock()


@functools.cache
def _redis_script(location: str):
    """The script registered on a client of the cache's Redis (one connection pool a process)."""
    import redis

    return redis.Redis.from_url(location).register_script(_RECORD)


def _redis_location() -> str | None:
    """The default cache's Redis URL, None when the default cache is not Redis."""
    config = settings.CACHES["default"]
    if not config["BACKEND"].endswith("RedisCache"):
        return None
    location = config["LOCATION"]
    return location if isinstance(location, str) else location[0]


class AtomicRateThrottle(throttling.SimpleRateThrottle):
    """SimpleRateThrottle's sliding window, recorded atomically (see the module's docstring)."""

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        location = _redis_location()
        if location is not None:
            allowed, self.count, oldest = _redis_script(location)(
                keys=[self.cache.make_and_validate_key(self.key)],
                args=[repr(self.now), self.duration, self.num_requests, uuid.uuid4().hex])
            self.oldest = float(oldest)
            return bool(allowed)
        with _memory_lock:
            history = [t for t in self.cache.get(self.key, []) if t > self.now - self.duration]
            allowed = len(history) < self.num_requests
            if allowed:
                history.insert(0, self.now)
                self.cache.set(self.key, history, self.duration)
        self.count, self.oldest = len(history), (history[-1] if history else self.now)
        return allowed

    def wait(self):
        """DRF's advice: the window's rest spread over the requests it will free."""
        remaining = self.duration - (self.now - self.oldest)
        available = self.num_requests - self.count + 1
        if available <= 0:
            return None
        return max(0.0, remaining) / available


class AnonRateThrottle(throttling.AnonRateThrottle, AtomicRateThrottle):
    """DRF's anonymous rate (per client address), counted atomically."""


class UserRateThrottle(throttling.UserRateThrottle, AtomicRateThrottle):
    """DRF's per-user rate, counted atomically. An anonymous request is counted by the
    anonymous rate alone where the view counts it and that rate is the stricter (it is by default: 600 against
    3,000 a minute): DRF would count the same address in both, and the looser count can never
    refuse what the stricter allowed, so it would only cost a round trip to Redis a request."""

    def get_cache_key(self, request, view):
        if (not request.user.is_authenticated and _anonymous_rate_is_stricter(self)
                and any(issubclass(kind, AnonRateThrottle) for kind in view.throttle_classes)):
            return None
        return super().get_cache_key(request, view)


def _anonymous_rate_is_stricter(user_throttle: UserRateThrottle) -> bool:
    """Does the anonymous rate allow at most the user rate, over a window at least as long?"""
    anon = AnonRateThrottle.THROTTLE_RATES.get(AnonRateThrottle.scope)
    if anon is None or user_throttle.rate is None:
        return False
    count, duration = user_throttle.parse_rate(anon)
    return count <= user_throttle.num_requests and duration >= user_throttle.duration


class ScopedRateThrottle(throttling.ScopedRateThrottle, AtomicRateThrottle):
    """DRF's per-view scope rate, counted atomically."""

