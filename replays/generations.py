"""Generations of cached reads (docs/caching.md): a token per scope, replaced by every write
that changes what the scope's reads show, so a cached read stored under an older token is never
served again.

Scopes: ``tournament:<id>`` (its standings and bracket: a result, a round, an entry, a
correction, its start or cancellation), ``leaderboard:<game>`` (the game's ratings). The tokens
live in the default cache (Redis where CACHE_URL names it, shared by every process). A write
replaces them when it is made and again when its transaction commits: a reader that read the
old rows before the commit stored its copy under a token that the commit replaces.
"""
from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import transaction

PREFIX = "generation:"


def generation_bump(*scopes: str) -> None:
    """Give each of ``scopes`` a new token now and another once the current transaction commits
    (outside one, both at once). The first makes the write's own transaction read what it
    wrote (a test's, or a service's that reads back); the second drops whatever a reader
    stored from the rows as they were before the commit."""
    def bump():
        cache.set_many({PREFIX + scope: secrets.token_hex(8) for scope in scopes}, timeout=None)

    bump()
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(bump)


def generations_of(scopes: list[str], found: dict | None = None) -> list[str]:
    """The current token of each scope (``found``: the cache's answer for their keys, when the
    caller fetched them with other keys in one round trip). A scope without a token (never
    written, or evicted) gets a fresh one: a missing token never matches a stored copy."""
    keys = [PREFIX + scope for scope in scopes]
    if found is None:
        found = cache.get_many(keys)
    missing = [key for key in keys if key not in found]
    if missing:
        for key in missing:
            cache.add(key, secrets.token_hex(8), timeout=None)
        found = {**found, **cache.get_many(missing)}
    return [found[key] for key in keys]


def tournament_scope(tournament_id) -> str:
    return f"tournament:{tournament_id}"


def leaderboard_scope(game: str) -> str:
    return f"leaderboard:{game}"
