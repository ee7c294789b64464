"""The service signs every match end; imports check the signature; keys rotate and old matches
still verify (replays/signing.py, games/engine/signature.py)."""
import json

import pytest
from django.core.management import CommandError, call_command

from games.engine import log, signature
from games.engine.log import record_hash, validate
from replays import signing
from replays.models import Event, Match, SigningKey, Validation
from replays.selectors import match_records
from replays.services import ImportRefused, match_abort, match_create, match_import, match_validate

from .test_import_export import _lines, _offline_log, _signed

MATCH = "6f1c1d2e-0000-4000-8000-00000000519e"


def _forged(genuine, *, keep_signature):
    """Another legal playout of the genuine match (same seed, id and times, other moves),
    re-sealed, with the genuine end's signature or none."""
    forged = _offline_log(match_id=MATCH, bot_seed=1)
    assert [r["payload"] for r in forged] != [r["payload"] for r in genuine]
    if keep_signature:
        forged[-1]["payload"]["signature"] = genuine[-1]["payload"]["signature"]
        forged[-1]["hash"] = record_hash(forged[-1])
    return forged


def _nothing_stored():
    return not (Match.objects.exists() or Event.objects.exists() or Validation.objects.exists())


def test_it_signs_the_end_of_every_match_it_plays(played_match):
    end = match_records(match=played_match)[-1]
    key = SigningKey.objects.get()
    assert end["kind"] == "match_ended" and end["payload"]["signature"]["key"] == key.key_id
    verdict = played_match.validations.first()
    assert verdict.ok and verdict.report["signature"] == "verified", verdict.report
    assert not played_match.unsigned
    # offline, with the keys as the API and manage.py signing_key list them
    keys = signature.load_keys(json.dumps([signing.signing_key_json(k) for k in signing.signing_keys_listed()]))
    assert validate(match_records(match=played_match), keys=keys).signature == "verified"


def test_it_signs_an_aborted_match(db):
    match = match_create(ruleset="trap-the-wizard", players=3)
    end = match_abort(match=match, reason="server shut down")
    assert end["payload"]["signature"]["key"] == SigningKey.objects.get().key_id
    verdict = match_validate(match=match)
    assert verdict.ok and verdict.report["signature"] == "verified", verdict.report


def test_a_stored_end_whose_signature_no_longer_holds_fails_validation(played_match):
    from .test_event_store import _tamper

    last = played_match.events.order_by("-seq").first()
    value = last.payload["signature"]["value"]
    forged = dict(last.payload["signature"], value=("0" if value[0] != "0" else "1") + value[1:])
    _tamper(played_match, last.seq, dict(last.payload, signature=forged), rehash_from_here=True)
    verdict = match_validate(match=played_match)  # the chain holds: only the signature tells
    assert not verdict.ok and verdict.first_bad_seq == last.seq and "does not hold" in verdict.reason


def test_a_match_signed_with_an_old_key_still_verifies_after_rotation(db, django_capture_on_commit_callbacks):
    old_log = _signed(_offline_log())
    old_key = SigningKey.objects.get()
    with django_capture_on_commit_callbacks(execute=True):  # the old private file goes on commit
        new_key = signing.signing_key_rotate()
    old_key.refresh_from_db()
    assert old_key.retired_at is not None and new_key.retired_at is None
    assert not (signing._key_path(old_key.key_id)).exists()  # a retired key never signs again
    assert signing.signing_key_current()[0] == new_key

    match = match_import(lines=_lines(old_log))
    assert match.validations.get().report["signing_key"] == old_key.key_id
    assert match_validate(match=match).ok
    new_match = match_create(ruleset="trap-the-wizard", players=3)
    end = match_abort(match=new_match, reason="test")
    assert end["payload"]["signature"]["key"] == new_key.key_id


def test_the_signing_key_command_lists_a_key_file_and_rotates(db, tmp_path, capsys):
    call_command("signing_key")
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 1 and listed[0]["retired"] is None
    call_command("signing_key", "--rotate")
    out, err = capsys.readouterr()
    rotated = json.loads(out)
    assert len(rotated) == 2 and f"rotated: new signing key {rotated[0]['key_id']}" in err
    assert rotated[1]["key_id"] == listed[0]["key_id"] and rotated[1]["retired"] is not None
    assert set(signature.load_keys(out)) == {k["key_id"] for k in rotated}


def test_a_missing_private_key_stops_the_end_with_a_reason_and_writes_nothing(db):
    match = match_create(ruleset="trap-the-wizard", players=3)
    key = signing.signing_key_create()
    signing._key_path(key.key_id).unlink()
    signing._PRIVATE.clear()
    with pytest.raises(signing.SigningKeyMissing, match=f"private key of signing key {key.key_id} cannot be read"):
        match_abort(match=match, reason="test")
    assert not match.events.filter(kind="match_aborted").exists()
    with pytest.raises(CommandError, match="signing_key --rotate"):
        call_command("signing_key")


# -- import ----------------------------------------------------------------------------------------

def test_an_untouched_export_verifies_offline_and_imports(db, tmp_path):
    genuine = _signed(_offline_log(match_id=MATCH))
    match = match_import(lines=_lines(genuine))
    assert not match.unsigned and match.validations.get().report["signature"] == "verified"
    exported = tmp_path / "export.jsonl"
    exported.write_text("".join(_lines(match_records(match=match))))
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps([signing.signing_key_json(k) for k in signing.signing_keys_listed()]))
    assert log.main([str(exported), "--keys", str(keys)]) == 0
    with pytest.raises(ImportRefused, match="already stored"):  # the signature held: the last check
        match_import(lines=exported.read_text().splitlines(keepends=True))


def test_a_resealed_forgery_with_the_signature_kept_is_refused_even_with_allow_unsigned(db):
    genuine = _signed(_offline_log(match_id=MATCH))
    for allow_unsigned in (False, True):
        forged = _forged(genuine, keep_signature=True)
        with pytest.raises(ImportRefused, match="does not hold") as refused:
            match_import(lines=_lines(forged), allow_unsigned=allow_unsigned)
        assert refused.value.report["first_bad_seq"] == forged[-1]["seq"]
        assert refused.value.report["signature"] == "bad"
        assert _nothing_stored()


def test_a_forgery_with_the_signature_stripped_is_refused_by_default(db):
    genuine = _signed(_offline_log(match_id=MATCH))
    forged = _forged(genuine, keep_signature=False)
    with pytest.raises(ImportRefused, match="the end of the match is not signed.*--allow-unsigned"):
        match_import(lines=_lines(forged))
    assert _nothing_stored()


def test_allow_unsigned_stores_a_stripped_log_marked_unsigned_never_as_genuine(db):
    forged = _forged(_signed(_offline_log(match_id=MATCH)), keep_signature=False)
    match = match_import(lines=_lines(forged), allow_unsigned=True)
    assert match.unsigned and match.imported
    assert match.validations.get().report["signature"] == "unsigned"
    assert match_validate(match=match).ok  # its validation no longer asks for a signature


def test_a_log_signed_with_a_key_we_do_not_know_is_refused_unless_allowed_unsigned(db):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    forged = _offline_log(match_id=MATCH)
    forged[-1]["payload"]["signature"] = signature.sign(forged[-1], private_key=Ed25519PrivateKey.generate(),
                                                        key="0123456789abcdef")
    forged[-1]["hash"] = record_hash(forged[-1])
    with pytest.raises(ImportRefused, match="signed with key 0123456789abcdef, which is not among"):
        match_import(lines=_lines(forged))
    assert _nothing_stored()
    match = match_import(lines=_lines(forged), allow_unsigned=True)
    assert match.unsigned and match.validations.get().report["signature"] == "unchecked"


def test_the_import_command_takes_allow_unsigned(db, tmp_path, capsys):
    path = tmp_path / "offline.jsonl"
    path.write_text("".join(_lines(_offline_log())))
    with pytest.raises(CommandError, match="not signed"):
        call_command("import", str(path))
    assert not Match.objects.exists()
    call_command("import", str(path), "--allow-unsigned")
    assert "UNSIGNED" in capsys.readouterr().out and Match.objects.get().unsigned
