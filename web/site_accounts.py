"""Accounts on the site (issue 39.1): sign up, change one's password, and create and revoke API
tokens, beside the login and logout of web.site.

Sign-up takes the rules of POST /api/users/ as they are: its input serializer
(UserRegisterInput) and its service (api.services.user_register, Django's password validators),
counted by the same CredentialThrottle; the form adds only a second copy of the password, which
a person typing blind needs and a script does not. Tokens are api.services' token_create and
token_revoke, as POST /api/tokens/ and DELETE /api/tokens/<id>/: a new token's plaintext is
shown once, in the answer to the POST (never in a URL, never again). Every form is a POST with
Django's CSRF token (CsrfViewMiddleware refuses one without).
"""
from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from api.models import ApiToken
from api.serializers_accounts import UserRegisterInput
from api.services import MAX_TOKEN_NAME, UsernameTaken, token_create, token_revoke, user_register
from .site import site_page
from api.views_accounts import CredentialThrottle


def _errors_of(serializer) -> list[str]:
    """The serializer's refusals as sentences: "password: Ensure this field has ..."."""
    return [f"{field}: {message}" if field != "non_field_errors" else str(message)
            for field, messages in serializer.errors.items() for message in messages]


def _next_url(request) -> str:
    """Where to go after signing up: ``next`` when it is a path of this site, else my page."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return reverse("site-me")


@site_page
@require_http_methods(["GET", "POST"])
def signup_view(request):
    """The sign-up form: a new user by the rules of POST /api/users/, logged in at once. A
    refusal (a weak password, a taken name, two passwords that differ) shows its reasons with a
    400 (409 for a taken name, as the API) and the form keeps what was typed but the passwords."""
    if request.user.is_authenticated:
        return redirect("site-me")
    context = {"next": request.POST.get("next") or request.GET.get("next") or "",
               "username": request.POST.get("username", ""), "email": request.POST.get("email", "")}
    if request.method == "GET":
        return render(request, "site/signup.html", context)
    throttle = CredentialThrottle()
    if not throttle.allow_request(request, None):
        minutes = max(1, round((throttle.wait() or 60) / 60))
        return render(request, "site/signup.html", {**context, "errors": [
            f"Too many attempts from your address: try again in about {minutes} minute{'s' if minutes > 1 else ''}."]},
            status=429)
    if request.POST.get("password") != request.POST.get("password_again"):
        return render(request, "site/signup.html", {**context, "errors": ["The two passwords differ."]}, status=400)
    data = UserRegisterInput(data={k: request.POST[k] for k in ("username", "password", "email") if k in request.POST})
    if not data.is_valid():
        return render(request, "site/signup.html", {**context, "errors": _errors_of(data)}, status=400)
    try:
        user = user_register(**data.validated_data)
    except UsernameTaken as exc:
        return render(request, "site/signup.html", {**context, "errors": [str(exc)]}, status=409)
    except ValueError as exc:
        return render(request, "site/signup.html", {**context, "errors": [str(exc)]}, status=400)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(_next_url(request))


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change (the old password, the new one twice, AUTH_PASSWORD_VALIDATORS);
    the session stays logged in, the user's other sessions end."""

    template_name = "site/password.html"
    success_url = reverse_lazy("site-me")

    def form_valid(self, form):
        response = super().form_valid(form)
        response["Location"] = f"{self.success_url}?password=changed"
        return response

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


password_change_view = site_page(login_required(PasswordChangeView.as_view()))


def _tokens_page(request, *, created=None, errors=(), status=200):
    tokens = ApiToken.objects.filter(user=request.user).order_by("-created_at", "-id")
    return render(request, "site/tokens.html", {"tokens": tokens, "created": created, "errors": list(errors),
                                                "max_name": MAX_TOKEN_NAME}, status=status)


@site_page
@login_required
@require_http_methods(["GET", "POST"])
def tokens_view(request):
    """My API tokens (never their secrets); the form's POST creates one and shows its plaintext
    this once, with how to send it."""
    if request.method == "GET":
        return _tokens_page(request)
    try:
        token, plaintext = token_create(user=request.user, name=request.POST.get("name", ""))
    except ValueError as exc:
        return _tokens_page(request, errors=[str(exc)], status=400)
    token.plaintext = plaintext
    response = _tokens_page(request, created=token)
    response["Cache-Control"] = "no-store"  # the secret is in this page only
    return response


@site_page
@login_required
@require_POST
def token_revoke_view(request, token_id):
    """Revoke one of my tokens (someone else's is the site's 404, as the API's)."""
    token_revoke(token=get_object_or_404(ApiToken, pk=token_id, user=request.user))
    return redirect(f"{reverse('site-tokens')}?revoked={token_id}")
