"""The service's signing keys: the private half in a file, the public half in the database.

``event_append`` signs every match_ended and match_aborted with the current key
(games/engine/signature.py says what is signed). The current key is the newest one not retired;
on the embedded defaults the first end a service writes creates it. ``manage.py signing_key
--rotate`` retires it and makes a new one: retired public keys stay listed, so every match they
signed still verifies; the retired private key file is deleted, since it must never sign again.

Private keys are PKCS #8 PEM files named ``<key id>.pem`` in SIGNING_KEY_DIR, readable by the
owner only. Two processes that both find no key at the same moment make one each: both are
listed and both verify, and the newer one signs from then on.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import signature

from .models import SigningKey


class SigningKeyMissing(Exception):
    """The current key's private file is not where settings say: nothing can be signed."""


_PRIVATE: dict[tuple[str, str], Ed25519PrivateKey] = {}  # (directory, key id) -> key: read once
_LOCK = threading.Lock()


def _key_path(key_id: str) -> Path:
    return Path(settings.SIGNING_KEY_DIR) / f"{key_id}.pem"


def _raw_public(private_key: Ed25519PrivateKey) -> bytes:
    return private_key.public_key().public_bytes(serialization.Encoding.Raw,
                                                 serialization.PublicFormat.Raw)


def _private_key(key: SigningKey) -> Ed25519PrivateKey:
    """The private key of ``key`` from its file (cached per process); SigningKeyMissing if the
    file is missing or holds another key."""
    path = _key_path(key.key_id)
    cached = _PRIVATE.get((str(path.parent), key.key_id))
    if cached is not None:
        return cached
    try:
        private_key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError) as exc:
        raise SigningKeyMissing(
            f"the private key of signing key {key.key_id} cannot be read from {path} ({exc}): "
            f"restore the file, or make a new key with manage.py signing_key --rotate") from None
    if not isinstance(private_key, Ed25519PrivateKey) or _raw_public(private_key).hex() != key.public_key:
        raise SigningKeyMissing(f"{path} does not hold the private key of signing key {key.key_id}")
    _PRIVATE[(str(path.parent), key.key_id)] = private_key
    return private_key


def signing_key_create() -> SigningKey:
    """A new key: its private file written (owner-only) before its public row is stored, so a
    listed key always has its private half."""
    private_key = Ed25519PrivateKey.generate()
    raw = _raw_public(private_key)
    key_id = signature.key_id(raw)
    path = _key_path(key_id)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    pem = private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as fh:
        fh.write(pem)
    _PRIVATE[(str(path.parent), key_id)] = private_key
    return SigningKey.objects.create(key_id=key_id, algorithm=signature.ALGORITHM,
                                     public_key=raw.hex(), created_at=timezone.now())


def signing_key_current() -> tuple[SigningKey, Ed25519PrivateKey]:
    """The key that signs now and its private half, made on first use. Read on every call (one
    indexed query) rather than cached, so a rotation in another process takes effect at once."""
    key = SigningKey.objects.filter(retired_at__isnull=True).order_by("-created_at", "-key_id").first()
    if key is None:
        with _LOCK:  # one new key per process, however many threads end matches at once
            key = SigningKey.objects.filter(retired_at__isnull=True).order_by("-created_at", "-key_id").first()
            if key is None:
                key = signing_key_create()
    return key, _private_key(key)


def signing_key_rotate() -> SigningKey:
    """Retire every current key and make a new one; the retired private files are deleted once
    the rotation is committed (before that a rollback would still need them)."""
    with transaction.atomic():
        retired = list(SigningKey.objects.select_for_update().filter(retired_at__isnull=True))
        SigningKey.objects.filter(pk__in=[k.pk for k in retired]).update(retired_at=timezone.now())
        key = signing_key_create()
        transaction.on_commit(lambda: _private_files_delete([k.key_id for k in retired]))
    return key


def _private_files_delete(key_ids: list[str]) -> None:
    for key_id in key_ids:
        path = _key_path(key_id)
        _PRIVATE.pop((str(path.parent), key_id), None)
        path.unlink(missing_ok=True)


def signing_keys_listed():
    """Every signing key, retired ones too, newest first."""
    return SigningKey.objects.order_by("-created_at", "-key_id")


def signing_key_json(key: SigningKey) -> dict:
    """A key as GET /api/signing-keys/ lists it and the offline validator reads it."""
    return {"key_id": key.key_id, "algorithm": key.algorithm, "public_key": key.public_key,
            "created": key.created_at.isoformat(), "retired": key.retired_at and key.retired_at.isoformat()}


def signing_keys_public() -> dict[str, bytes]:
    """Every public key the service ever signed with, retired ones too: {key id: raw bytes}."""
    return {key_id: bytes.fromhex(public)
            for key_id, public in SigningKey.objects.values_list("key_id", "public_key")}


def end_payload_signed(*, match: str, seq: int, kind: str, seat: int | None, payload: dict,
                       time: str, prev_hash: str) -> dict:
    """``payload`` of an end record with the current key's signature added: call with the
    record's final fields, since the signature covers every one of them."""
    key, private_key = signing_key_current()
    unsigned = {k: v for k, v in payload.items() if k != signature.FIELD}
    record = {"match": match, "seq": seq, "kind": kind, "seat": seat, "payload": unsigned,
              "time": time, "prev_hash": prev_hash}
    return {**unsigned, signature.FIELD: signature.sign(record, private_key=private_key, key=key.key_id)}
