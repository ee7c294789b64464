"""The public keys that sign the ends of matches: what an auditor needs to check an export
offline (python -m games.engine.log --keys, docs/event-log.md "Signatures")."""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny

from replays.signing import signing_keys_listed


class SigningKeySerializer(serializers.Serializer):
    key_id = serializers.CharField(help_text="sha256 of the raw public key, first 16 hex digits; "
                                             "the key a match end's signature names.")
    algorithm = serializers.ChoiceField(choices=["ed25519"])
    public_key = serializers.CharField(help_text="The raw 32-byte Ed25519 public key in hex.")
    created = serializers.DateTimeField(source="created_at")
    retired = serializers.DateTimeField(source="retired_at", allow_null=True,
                                        help_text="Signs nothing from then on; what it signed still verifies.")


class SigningKeyList(ListAPIView):
    """Every key the service ever signed match ends with, retired ones too, newest first. Public,
    paged like every list (a service has a handful: one page); the page saved to a file is a key
    file for the offline validator."""

    permission_classes = [AllowAny]
    serializer_class = SigningKeySerializer

    def get_queryset(self):
        return signing_keys_listed()

    @extend_schema(tags=["matches"],
                   description="The Ed25519 public keys that sign match ends (the signature in the "
                               "payload of match_ended and match_aborted). Save the answer as "
                               "keys.json and check an export offline with python -m "
                               "games.engine.log --keys keys.json replay.jsonl.")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)
