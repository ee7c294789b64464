"""Signatures on the end of a match: which service wrote a log, so a re-sealed forgery fails.

The hash chain shows that a log was not changed *after* its last record; it cannot show who
wrote it. Once the seed is revealed anyone can re-derive every chance outcome, so a forger can
replay a finished match with other legal moves and re-hash the whole chain. What the forger
cannot do is sign: the service signs the end record (match_ended or match_aborted) with an
Ed25519 key and publishes the public half (GET /api/signing-keys/).

What is signed (docs/event-log.md, "Signatures"):

    H = record_hash(the end record with "signature" taken out of its payload)
    signed bytes = ASCII of "spellbound-arena/match-end/v1:" + H (64 lower-case hex digits)

H is the hash the end record would have unsigned: it covers the end's own fields (match, seq,
kind, time, result or reason, seed) and its prev_hash, and so, link by link, every earlier
record. The prefix keeps a signature of this service from meaning anything else. The signature
sits in the end's payload, ``{"algorithm": "ed25519", "key": key id, "value": 128 hex digits}``,
so the record's own hash covers it too and the chain stays as it always was.

A key id is the first 16 hex digits of sha256 of the 32-byte raw public key: a key file cannot
name a key other than its own.

No Django here: the offline validator (``python -m games.engine.log --keys keys.json``) uses this
module. ``cryptography`` is imported only to sign or verify, so validating without keys needs
nothing beyond the standard library.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Mapping

from .log import END_KINDS, LogError, Report, record_hash

ALGORITHM = "ed25519"
FIELD = "signature"  # the key of the signature in an end record's payload
DOMAIN = "spellbound-arena/match-end/v1:"
_HEX = re.compile(r"[0-9a-f]+")

# Report.signature: what the validator found at the end of the log.
VERIFIED = "verified"        # signed by one of the keys given, and the signature holds
UNCHECKED = "unchecked"      # signed, but no keys were given to check it with
UNSIGNED = "unsigned"        # the end carries no signature
UNKNOWN_KEY = "unknown_key"  # signed by a key that is not among those given
BAD = "bad"                  # signed by a key given, and the signature does not hold


def key_id(public_key: bytes) -> str:
    """The id of a raw 32-byte Ed25519 public key: a fingerprint, so it names only that key."""
    return hashlib.sha256(public_key).hexdigest()[:16]


def signed_message(record: dict) -> bytes:
    """The bytes signed for an end record: the domain prefix and the record's unsigned hash."""
    payload = {k: v for k, v in record["payload"].items() if k != FIELD}
    return (DOMAIN + record_hash({**record, "payload": payload})).encode("ascii")


def sign(record: dict, *, private_key, key: str) -> dict:
    """The signature object for an end record (any signature or hash it has is left out of
    what is signed). ``private_key`` is a cryptography Ed25519PrivateKey, ``key`` its id."""
    return {"algorithm": ALGORITHM, "key": key, "value": private_key.sign(signed_message(record)).hex()}


def shape_fault(signature) -> str | None:
    """Why ``signature`` is not a signature object as the service writes it, or None."""
    if not isinstance(signature, dict) or signature.keys() != {"algorithm", "key", "value"}:
        return "the signature is not an object with exactly the keys algorithm, key and value"
    if signature["algorithm"] != ALGORITHM:
        return f"the signature's algorithm {signature['algorithm']!r} is not {ALGORITHM!r}"
    key, value = signature["key"], signature["value"]
    if not (isinstance(key, str) and len(key) == 16 and _HEX.fullmatch(key)):
        return "the signature's key is not a key id (16 lower-case hex digits)"
    if not (isinstance(value, str) and len(value) == 128 and _HEX.fullmatch(value)):
        return "the signature's value is not 64 bytes in lower-case hex"
    return None


def end_status(record, keys: Mapping[str, bytes] | None) -> tuple[str, str]:
    """What the signature of an end record shows, as (status, why); ``keys`` maps key ids to raw
    public keys, None when there are none to check with. Raises LogError for a malformed
    signature: that is never a matter of policy."""
    seq = record.get("seq")
    if FIELD not in record["payload"]:  # a "signature": null is malformed, not unsigned
        return UNSIGNED, ("the end of the match is not signed: nothing shows which service wrote "
                          "this log, and anyone who knows the revealed seed can re-write it")
    signature = record["payload"][FIELD]
    fault = shape_fault(signature)
    if fault:
        raise LogError(seq, fault)
    key = signature["key"]
    if keys is None:
        return UNCHECKED, f"signed with key {key}, not checked (no public keys given)"
    if key not in keys:
        return UNKNOWN_KEY, (f"signed with key {key}, which is not among the public keys given "
                             f"({', '.join(sorted(keys)) or 'none'})")
    if not verify(keys[key], signed_message(record), bytes.fromhex(signature["value"])):
        return BAD, (f"the signature of key {key} does not hold: the log was changed after the "
                     f"service signed it (at this record or any before it), or it was never "
                     f"signed with that key")
    return VERIFIED, f"signed with key {key}"


def check_end(record: dict, *, keys: Mapping[str, bytes] | None, report: Report) -> None:
    """Record the signature of the last record, an end, on ``report``; raise LogError when it
    fails: always for a malformed or bad signature, and, once ``keys`` are given, for a missing
    one or one of a key not given (a forger needs only strip the signature or sign with a key of
    his own)."""
    status, why = end_status(record, keys)
    report.signature = status
    report.signing_key = record["payload"][FIELD]["key"] if status != UNSIGNED else None
    if status == BAD or (keys is not None and status != VERIFIED):
        raise LogError(record.get("seq"), why)
    if status != VERIFIED:
        report.notes.append(why)


def verify(public_key: bytes, message: bytes, value: bytes) -> bool:
    """Whether ``value`` is an Ed25519 signature of ``message`` by ``public_key`` (raw bytes)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(value, message)
    except InvalidSignature:
        return False
    return True


class KeyFileError(ValueError):
    """A key file that cannot be read as public keys: the message says why."""


def read_key_files(paths) -> dict[str, bytes]:
    """The public keys of every file in ``paths`` (see ``load_keys``); KeyFileError names the
    file that cannot be read and why."""
    keys = {}
    for path in paths:
        try:
            with open(path, encoding="utf-8") as fh:
                keys.update(load_keys(fh.read()))
        except (OSError, UnicodeDecodeError) as exc:
            raise KeyFileError(f"cannot read the key file {path}: {exc}") from None
        except KeyFileError as exc:
            raise KeyFileError(f"key file {path}: {exc}") from None
    return keys


def load_keys(text: str) -> dict[str, bytes]:
    """Public keys {key id: raw bytes} from the text of a key file: what GET /api/signing-keys/
    answers (a list of keys; a page with "results" or a single key is taken too), or PEM public
    keys ("-----BEGIN PUBLIC KEY-----"). Raises KeyFileError."""
    if text.lstrip().startswith("-----BEGIN"):
        return _pem_keys(text)
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise KeyFileError(f"neither JSON nor PEM: {exc}") from None
    if isinstance(document, dict):
        document = document.get("results", [document] if "key_id" in document else None)
    if not isinstance(document, list):
        raise KeyFileError("JSON keys are a list of objects with key_id, algorithm and public_key "
                           "(as GET /api/signing-keys/ answers)")
    keys = {}
    for number, entry in enumerate(document, start=1):
        if not isinstance(entry, dict):
            raise KeyFileError(f"key {number} is not an object")
        if entry.get("algorithm") != ALGORITHM:
            raise KeyFileError(f"key {number}: algorithm {entry.get('algorithm')!r} is not {ALGORITHM!r}")
        public = entry.get("public_key")
        if not (isinstance(public, str) and len(public) == 64 and _HEX.fullmatch(public)):
            raise KeyFileError(f"key {number}: public_key is not 32 bytes in lower-case hex")
        raw = bytes.fromhex(public)
        if entry.get("key_id") != key_id(raw):
            raise KeyFileError(f"key {number}: key_id {entry.get('key_id')!r} is not the id of its "
                               f"public key ({key_id(raw)})")
        keys[key_id(raw)] = raw
    if not keys:
        raise KeyFileError("the file lists no keys")
    return keys


def _pem_keys(text: str) -> dict[str, bytes]:
    """Every PEM public key of ``text``, each an Ed25519 key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    keys = {}
    blocks = re.findall(r"-----BEGIN PUBLIC KEY-----.*?-----END PUBLIC KEY-----", text, re.S)
    if not blocks:
        raise KeyFileError("no PEM public key (-----BEGIN PUBLIC KEY-----) in the file")
    for number, block in enumerate(blocks, start=1):
        try:
            public = serialization.load_pem_public_key(block.encode())
        except ValueError as exc:
            raise KeyFileError(f"PEM key {number}: {exc}") from None
        if not isinstance(public, Ed25519PublicKey):
            raise KeyFileError(f"PEM key {number} is not an Ed25519 key")
        raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        keys[key_id(raw)] = raw
    return keys
