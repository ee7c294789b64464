"""Bearer tokens: ``Authorization: Bearer <prefix>.<secret>`` (see api.models.ApiToken).

A missing header leaves the request anonymous (session auth may still apply); a header that
names a bad, expired or revoked token is a 401 with the reason, never a silent anonymous request.
"""
import hmac

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

KEYWORD = "Bearer"


class ApiTokenAuthentication(BaseAuthentication):
    """Authenticate by an API token; ``request.auth`` is the ApiToken row."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("the Authorization header must be 'Bearer <token>'")
        try:
            raw = parts[1].decode()
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("the token is not valid text") from None
        return self.authenticate_token(raw)

    def authenticate_token(self, raw: str):
        """The (user, token) a plaintext token stands for, or AuthenticationFailed with why."""
        from .models import ApiToken
        from .services import secret_hash, token_touch

        prefix, dot, secret = raw.partition(".")
        token = ApiToken.objects.select_related("user").filter(prefix=prefix).first() if dot else None
        # Compare even without a row, so a wrong prefix costs as long as a wrong secret.
        expected = token.key_hash if token else "0" * 64
        if not hmac.compare_digest(expected, secret_hash(secret)) or token is None:
            raise exceptions.AuthenticationFailed("invalid token")
        if token.revoked:
            raise exceptions.AuthenticationFailed("this token has been revoked")
        if token.expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed("this token has expired; create a new one")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("this user is inactive")
        token_touch(token=token)
        return token.user, token

    def authenticate_header(self, request):
        return KEYWORD


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """Documents the bearer token in the OpenAPI schema."""

    target_class = "api.authentication.ApiTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "<prefix>.<secret>",
                "description": "An API token from POST /api/tokens/, shown once."}
