"""API routes (accounts): registration and API tokens."""
from django.urls import path

from . import views_accounts as views

urlpatterns = [
    path("users/", views.UserRegister.as_view(), name="user-register"),
    path("tokens/", views.TokenListCreate.as_view(), name="token-list"),
    path("tokens/<int:token_id>/", views.TokenRevoke.as_view(), name="token-detail"),
]
