"""Users and API tokens: register, create a token (shown once), list and revoke your own."""
from django.conf import settings
from django.contrib.auth import authenticate
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .errors import ApiError
from .models import ApiToken
from .serializers_accounts import (TokenCreatedOutput, TokenCreateInput, TokenOutput, UserOutput,
                                   UserRegisterInput)
from .services import UsernameTaken, token_create, token_revoke, user_register
from .throttles import AtomicRateThrottle


class CredentialThrottle(AtomicRateThrottle):
    """Per client address, whoever is logged in: registration and password checks are what a
    scripted attacker hammers. Rate from settings.API_THROTTLE_CREDENTIALS (default 20/hour)."""

    scope = "credentials"

    def get_rate(self):
        return getattr(settings, "API_THROTTLE_CREDENTIALS", "20/hour")

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class UserRegister(APIView):
    """Register a user, so a client can start from nothing (then POST /api/tokens/)."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = [CredentialThrottle]

    @extend_schema(request=UserRegisterInput, responses={201: UserOutput}, auth=[])
    def post(self, request):
        data = UserRegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = user_register(**data.validated_data)
        except UsernameTaken as exc:  # a well-formed request; the name is in use
            raise ApiError(str(exc), code="username_taken", status_code=status.HTTP_409_CONFLICT) from None
        except ValueError as exc:
            raise ApiError(str(exc), code="registration_refused") from None
        return Response(UserOutput(user).data, status=status.HTTP_201_CREATED)


class TokenListCreate(ListAPIView):
    """Your API tokens (never their secrets); POST creates one and shows its plaintext once.

    POST authenticates by ``username`` + ``password`` in the body, or by the request's own
    session or token when the body has none."""

    serializer_class = TokenOutput

    def get_throttles(self):
        extra = [CredentialThrottle()] if self.request.method == "POST" else []
        return super().get_throttles() + extra

    def get_permissions(self):
        # POST checks the credentials in its body itself; listing tokens needs a user.
        return [AllowAny()] if self.request.method == "POST" else [IsAuthenticated()]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ApiToken.objects.none()
        return ApiToken.objects.filter(user=self.request.user).order_by("-created_at", "-id")

    @extend_schema(request=TokenCreateInput, responses={201: TokenCreatedOutput})
    def post(self, request):
        data = TokenCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = self._token_owner(request, data.validated_data)
        try:
            token, plaintext = token_create(user=user, name=data.validated_data["name"])
        except ValueError as exc:
            raise ApiError(str(exc), code="invalid") from None
        token.token = plaintext
        return Response(TokenCreatedOutput(token).data, status=status.HTTP_201_CREATED)

    @staticmethod
    def _token_owner(request, data):
        """The user named by the body's credentials, else the request's user."""
        if "username" in data or "password" in data:
            user = authenticate(request, username=data.get("username", ""), password=data.get("password", ""))
            if user is None:
                raise AuthenticationFailed("wrong username or password")
            return user
        if not request.user.is_authenticated:
            raise NotAuthenticated("send username and password, or authenticate the request")
        return request.user


class TokenRevoke(APIView):
    """Revoke one of your tokens (someone else's is a 404)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, token_id: int):
        token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
        token_revoke(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)
