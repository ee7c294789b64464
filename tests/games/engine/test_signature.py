"""Signed match ends, offline: what is signed, what a forger can and cannot do, the key files and
the exit codes of python -m games.engine.log --keys."""
import datetime as dt
import hashlib
import json

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from games.engine import log, registry, signature
from games.engine.log import canonical_json, record_hash, validate
from games.engine.runner import playout

MATCH = "6f1c1d2e-0000-4000-8000-0000000051a9"
SEED = b"s" * 32


def _key():
    """A fresh Ed25519 key: (private key, key id, raw public key)."""
    private_key = Ed25519PrivateKey.generate()
    raw = private_key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return private_key, signature.key_id(raw), raw


def _playout(bot_seed=0):
    """A finished Trap the Wizard match; another bot seed plays other legal moves on the same
    seed and match id, so every chance outcome still matches its derivation: a perfect forgery
    of the chain."""
    clock = iter(range(10**6))
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    return playout(registry.get("trap-the-wizard"), 3, seed=SEED, options={"rounds": 1}, match_id=MATCH,
                   bot_seed=bot_seed,
                   time=lambda: (start + dt.timedelta(microseconds=next(clock))).isoformat(timespec="microseconds"))


def _sign(records, private_key, key):
    end = records[-1]
    end["payload"]["signature"] = signature.sign(end, private_key=private_key, key=key)
    end["hash"] = record_hash(end)
    return records


def _forged(genuine, *, keep_signature=True):
    """Another legal match on the genuine one's seed, re-sealed, carrying the genuine end's
    signature (or none)."""
    forged = _playout(bot_seed=1)
    assert [r["payload"] for r in forged] != [r["payload"] for r in genuine]
    if keep_signature:
        forged[-1]["payload"]["signature"] = genuine[-1]["payload"]["signature"]
        forged[-1]["hash"] = record_hash(forged[-1])
    return forged


@pytest.fixture
def signed():
    """(genuine signed records, {key id: raw public key}, the private key, its id)."""
    private_key, key, raw = _key()
    return _sign(_playout(), private_key, key), {key: raw}, private_key, key


def test_it_signs_the_documented_bytes(signed):
    records, keys, _, key = signed
    end = records[-1]
    unsigned = {k: v for k, v in end.items() if k != "hash"}
    unsigned["payload"] = {k: v for k, v in end["payload"].items() if k != "signature"}
    head = hashlib.sha256(canonical_json(unsigned).encode()).hexdigest()
    assert signature.signed_message(end) == f"spellbound-arena/match-end/v1:{head}".encode()
    assert signature.verify(keys[key], signature.signed_message(end), bytes.fromhex(end["payload"]["signature"]["value"]))
    assert end["payload"]["signature"]["key"] == hashlib.sha256(keys[key]).hexdigest()[:16]


def test_a_genuine_log_verifies_with_its_key(signed):
    records, keys, _, key = signed
    report = validate(records, keys=keys)
    assert report.ok and report.ended and report.chance_verified, report
    assert (report.signature, report.signing_key) == ("verified", key)


def test_without_keys_a_signed_log_is_valid_but_unchecked(signed):
    records, _, _, key = signed
    report = validate(records)
    assert report.ok and report.signature == "unchecked"
    assert any(f"signed with key {key}, not checked" in note for note in report.notes)


def test_a_resealed_forgery_with_the_signature_kept_is_refused_at_the_end(signed):
    genuine, keys, _, key = signed
    forged = _forged(genuine)
    assert validate(forged).ok  # the chain and the rules alone cannot tell
    report = validate(forged, keys=keys)
    assert not report.ok and report.first_bad_seq == forged[-1]["seq"]
    assert report.signature == "bad" and f"the signature of key {key} does not hold" in report.reason


def test_a_resealed_forgery_with_the_signature_stripped_is_refused_given_keys(signed):
    genuine, keys, _, _ = signed
    forged = _forged(genuine, keep_signature=False)
    unchecked = validate(forged)
    assert unchecked.ok and unchecked.signature == "unsigned"
    report = validate(forged, keys=keys)
    assert not report.ok and report.first_bad_seq == forged[-1]["seq"]
    assert report.signature == "unsigned" and "the end of the match is not signed" in report.reason


def test_a_forgery_signed_with_the_forgers_own_key_is_refused(signed):
    genuine, keys, _, _ = signed
    forger_key, forger_id, _ = _key()
    forged = _sign(_forged(genuine, keep_signature=False), forger_key, forger_id)
    report = validate(forged, keys=keys)
    assert not report.ok and report.signature == "unknown_key"
    assert f"signed with key {forger_id}, which is not among the public keys given" in report.reason


def test_an_end_changed_after_signing_is_refused_even_if_only_its_time_moved(signed):
    records, keys, _, _ = signed
    records[-1]["time"] = records[-1]["time"].replace("2026-01-01", "2026-01-02")
    records[-1]["hash"] = record_hash(records[-1])
    report = validate(records, keys=keys)
    assert not report.ok and report.signature == "bad"


def test_a_signature_that_is_not_the_services_shape_is_refused_without_keys_too(signed):
    records, _, _, _ = signed
    records[-1]["payload"]["signature"]["value"] = records[-1]["payload"]["signature"]["value"][:-2]
    records[-1]["hash"] = record_hash(records[-1])
    report = validate(records)
    assert not report.ok and report.first_bad_seq == records[-1]["seq"]
    assert "64 bytes in lower-case hex" in report.reason


@pytest.mark.parametrize("change, reason", [
    (lambda sig: None, "not an object with exactly the keys"),
    (lambda sig: {**sig, "extra": 1}, "not an object with exactly the keys"),
    (lambda sig: {**sig, "algorithm": "rsa"}, "algorithm 'rsa' is not 'ed25519'"),
    # one capital hex digit: upper-casing the whole id changed nothing when the random key's id
    # was all decimal digits (1 key in 1,800), and CI failed
    (lambda sig: {**sig, "key": sig["key"][:-1] + "F"}, "not a key id"),
], ids=["null", "extra-key", "algorithm", "key-spelling"])
def test_a_malformed_signature_is_refused_with_its_reason(signed, change, reason):
    records, keys, _, _ = signed
    records[-1]["payload"]["signature"] = change(records[-1]["payload"]["signature"])
    records[-1]["hash"] = record_hash(records[-1])
    for given in (None, keys):
        report = validate(records, keys=given)
        assert not report.ok and report.first_bad_seq == records[-1]["seq"] and reason in report.reason


def test_an_aborted_match_is_signed_and_checked_like_an_ended_one(signed):
    genuine, keys, private_key, key = signed
    records = [dict(r) for r in genuine[:20]]
    records.append(log.seal(match=MATCH, seq=20, kind="match_aborted", seat=None,
                            payload={"reason": "server shut down", "seed": SEED.hex()},
                            time=records[-1]["time"], prev_hash=records[-1]["hash"]))
    assert not validate(records, keys=keys).ok
    report = validate(_sign(records, private_key, key), keys=keys)
    assert report.ok and report.signature == "verified"


def test_an_unfinished_log_has_no_signature_to_check():
    records = _playout()[:30]
    report = validate(records, keys={})
    assert report.ok and not report.ended and report.signature == ""


# -- key files ------------------------------------------------------------------------------------

def _api_entry(key, raw, retired=None):
    return {"key_id": key, "algorithm": "ed25519", "public_key": raw.hex(),
            "created": "2026-01-01T00:00:00Z", "retired": retired}


def test_key_files_take_the_apis_list_a_page_a_single_key_and_pem():
    private_key, key, raw = _key()
    _, old, old_raw = _key()
    listed = [_api_entry(key, raw), _api_entry(old, old_raw, "2026-01-02T00:00:00Z")]
    assert signature.load_keys(json.dumps(listed)) == {key: raw, old: old_raw}
    assert signature.load_keys(json.dumps({"count": 2, "results": listed})) == {key: raw, old: old_raw}
    assert signature.load_keys(json.dumps(_api_entry(key, raw))) == {key: raw}
    pem = private_key.public_key().public_bytes(serialization.Encoding.PEM,
                                                serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    assert signature.load_keys(pem) == {key: raw}


@pytest.mark.parametrize("text, reason", [
    ("not a key", "neither JSON nor PEM"),
    ("[]", "lists no keys"),
    ('{"keys": 1}', "a list of objects"),
    ('[{"key_id": "0000000000000000", "algorithm": "rsa", "public_key": "00"}]', "algorithm 'rsa'"),
    ('[{"key_id": "0000000000000000", "algorithm": "ed25519", "public_key": "abc"}]', "32 bytes in lower-case hex"),
    ('[{"key_id": "0000000000000000", "algorithm": "ed25519", "public_key": "' + "11" * 32 + '"}]',
     "is not the id of its public key"),
    ("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", "PEM key 1"),
])
def test_a_bad_key_file_is_refused_with_a_reason(text, reason):
    with pytest.raises(signature.KeyFileError, match=reason):
        signature.load_keys(text)


# -- the command line -----------------------------------------------------------------------------

def _write(path, records):
    path.write_text("".join(canonical_json(r) + "\n" for r in records))
    return str(path)


def test_the_cli_exit_codes_with_keys(signed, tmp_path, capsys):
    genuine, keys, _, key = signed
    keyfile = tmp_path / "keys.json"
    keyfile.write_text(json.dumps([_api_entry(key, keys[key])]))
    replay = _write(tmp_path / "genuine.jsonl", genuine)
    assert log.main([replay, "--keys", str(keyfile)]) == log.EXIT_OK == 0
    assert json.loads(capsys.readouterr().out)["signature"] == "verified"

    forged = _write(tmp_path / "forged.jsonl", _forged(genuine))
    assert log.main([forged]) == 0  # without keys nothing can tell
    capsys.readouterr()
    assert log.main([forged, "--keys", str(keyfile)]) == log.EXIT_INVALID == 1
    assert "does not hold" in json.loads(capsys.readouterr().out)["reason"]

    stripped = _write(tmp_path / "stripped.jsonl", _forged(genuine, keep_signature=False))
    assert log.main([stripped, "--keys", str(keyfile)]) == 1
    assert "not signed" in json.loads(capsys.readouterr().out)["reason"]


def test_the_cli_refuses_a_bad_or_missing_key_file_as_usage(signed, tmp_path, capsys):
    genuine, _, _, _ = signed
    replay = _write(tmp_path / "genuine.jsonl", genuine)
    (tmp_path / "bad.json").write_text("{}")
    assert log.main([replay, "--keys", str(tmp_path / "bad.json")]) == log.EXIT_USAGE == 2
    assert "key file" in capsys.readouterr().err
    assert log.main([replay, "--keys", str(tmp_path / "missing.json")]) == 2
    assert "cannot read the key file" in capsys.readouterr().err


def test_the_cli_checks_against_every_key_file_given(signed, tmp_path):
    genuine, keys, private_key, key = signed
    other_private, other, other_raw = _key()
    pem = tmp_path / "current.pem"
    pem.write_bytes(other_private.public_key().public_bytes(serialization.Encoding.PEM,
                                                            serialization.PublicFormat.SubjectPublicKeyInfo))
    old = tmp_path / "old.json"
    old.write_text(json.dumps([_api_entry(key, keys[key])]))
    replay = _write(tmp_path / "genuine.jsonl", genuine)
    assert log.main([replay, "--keys", str(pem)]) == 1
    assert log.main([replay, "--keys", str(pem), "--keys", str(old)]) == 0


def test_the_command_reports_a_refused_signature_as_json_not_a_traceback(signed, tmp_path):
    """Issue 40, item 8: under ``python -m`` the module is loaded twice; a signature refused by
    games.engine.signature (which raises the imported module's LogError) must still be reported
    as the JSON every other refusal is, with ``first_bad_seq``, exit status 1."""
    import subprocess
    import sys
    from pathlib import Path

    genuine, keys, _, key = signed
    keyfile = tmp_path / "keys.json"
    keyfile.write_text(json.dumps([_api_entry(key, keys[key])]))
    root = Path(log.__file__).resolve().parents[2]
    for name, records, reason in (("forged", _forged(genuine), "does not hold"),
                                  ("stripped", _forged(genuine, keep_signature=False), "not signed")):
        replay = _write(tmp_path / f"{name}.jsonl", records)
        done = subprocess.run([sys.executable, "-m", "games.engine.log", replay, "--keys", str(keyfile)],
                              cwd=tmp_path, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
                              capture_output=True, text=True, timeout=120)
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == log.EXIT_INVALID, (done.stdout, done.stderr)
        report = json.loads(done.stdout)
        assert report["ok"] is False and reason in report["reason"]
        assert report["first_bad_seq"] == records[-1]["seq"]
    done = subprocess.run([sys.executable, "-m", "games.engine.log", _write(tmp_path / "genuine.jsonl", genuine),
                           "--keys", str(keyfile)],
                          cwd=tmp_path, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == log.EXIT_OK and json.loads(done.stdout)["signature"] == "verified"
