"""Writes of the API's own state: user registration and API tokens.

The plaintext of a token exists only in the return value of ``token_create``; the database
keeps its hash (api.models).
"""
from __future__ import annotations

import hashlib
import secrets
import string
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import (get_default_password_validators,
                                                     get_password_validators, validate_password)
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import ApiToken

PREFIX_LENGTH = 8
# Used when settings.AUTH_PASSWORD_VALIDATORS is empty: registration never takes any password.
FALLBACK_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
MAX_TOKEN_NAME = 64


def secret_hash(secret: str) -> str:
    """The stored form of a token's secret part."""
    return hashlib.sha256(secret.encode()).hexdigest()


PREFIX_ALPHABET = string.ascii_letters + string.digits


def _new_prefix() -> str:
    """8 letters and digits: no '.', which separates prefix and secret, and no '-', so that a token
    never begins like a command-line option (``client.py --token -Ab...`` would read it as one)."""
    return "".join(secrets.choice(PREFIX_ALPHABET) for _ in range(PREFIX_LENGTH))


def token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """A new token of ``user`` and its plaintext ``<prefix>.<secret>``, to be shown once.
    Raises ValueError for an empty or over-long name."""
    name = (name or "").strip()
    if not name or len(name) > MAX_TOKEN_NAME:
        raise ValueError(f"a token needs a name of 1-{MAX_TOKEN_NAME} characters")
    expires_at = timezone.now() + timedelta(days=settings.API_TOKEN_DAYS)
    for _ in range(5):  # a prefix collision is astronomically rare; retry rather than fail
        prefix, secret = _new_prefix(), secrets.token_urlsafe(32)
        try:
            with transaction.atomic():
                token = ApiToken.objects.create(user=user, name=name, prefix=prefix,
                                                key_hash=secret_hash(secret), expires_at=expires_at)
            return token, f"{prefix}.{secret}"
        except IntegrityError:
            continue
    raise RuntimeError("could not allocate a unique token prefix")


def token_revoke(*, token: ApiToken) -> ApiToken:
    """Revoke ``token`` for good (idempotent); the row stays as a record."""
    ApiToken.objects.filter(pk=token.pk).update(revoked=True)
    token.revoked = True
    return token


def token_touch(*, token: ApiToken) -> None:
    """Record a use, at most once a minute per token (a write per request would be waste)."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > timedelta(minutes=1):
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


class UsernameTaken(ValueError):
    """Another user has the name (compared without case)."""


def user_register(*, username: str, password: str, email: str = ""):
    """A new user with a password that passes Django's validators. Raises ValueError with the
    reasons for a taken or bad username or a weak password."""
    User = get_user_model()
    user = User(username=username, email=email)
    try:
        user.full_clean(exclude=["password"], validate_unique=False)
    except ValidationError as exc:
        raise ValueError(" ".join(m for ms in exc.message_dict.values() for m in ms)) from None
    if User.objects.filter(username__iexact=username).exists():
        raise UsernameTaken(f"the username {username!r} is taken")
    try:
        validators = get_default_password_validators() or get_password_validators(FALLBACK_PASSWORD_VALIDATORS)
        validate_password(password, user=user, password_validators=validators)
    except ValidationError as exc:
        raise ValueError(" ".join(exc.messages)) from None
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # a concurrent registration of the same name won
        raise UsernameTaken(f"the username {username!r} is taken") from None
    return user
