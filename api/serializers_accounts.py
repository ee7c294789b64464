"""Input and output shapes of users and API tokens. Shapes only: the rules live in api.services."""
from rest_framework import serializers

from .models import ApiToken
from .serializers_base import Input


class UserRegisterInput(Input):
    username = serializers.CharField(max_length=150)
    # What the schema can say of AUTH_PASSWORD_VALIDATORS: at least 10 characters, not all
    # digits (a common password, or one too like the username, is refused too, with the reason).
    password = serializers.RegexField(r"^[^\x00]*[^\d\x00][^\x00]*$", min_length=10, max_length=128, write_only=True, trim_whitespace=False,
                                      help_text="10-128 characters, not all digits; not a common password "
                                                "nor one too like the username")
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class UserOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class TokenCreateInput(Input):
    name = serializers.CharField(max_length=64)
    username = serializers.CharField(required=False, help_text="With password: who you are, "
                                     "when the request carries no session or token.")
    password = serializers.CharField(required=False, write_only=True, trim_whitespace=False)


class TokenOutput(serializers.ModelSerializer):
    """A token as its owner sees it later: never the secret."""

    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "expires_at", "last_used_at", "revoked"]


class TokenCreatedOutput(TokenOutput):
    """A token just created: the plaintext, shown this once."""

    token = serializers.CharField(help_text="Send as 'Authorization: Bearer <token>'. Shown only now.")

    class Meta(TokenOutput.Meta):
        fields = TokenOutput.Meta.fields + ["token"]
