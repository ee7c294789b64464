"""REST API routes. Each resource family has its own urls module."""
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import views, views_signing

urlpatterns = [
    path("", views.ApiRoot.as_view(), name="api-root"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("games/", views.GameList.as_view(), name="game-list"),
    path("games/<str:game>/schema/", views.GameSchema.as_view(), name="game-schema"),
    path("health/", views.Health.as_view(), name="health"),
    path("signing-keys/", views_signing.SigningKeyList.as_view(), name="signing-key-list"),
    path("", include("api.urls_accounts")),
    path("", include("api.urls_bots")),
    path("", include("api.urls_tournaments")),
    path("", include("api.urls_matches")),
    path("", include("api.urls_ladder")),
    path("", include("api.urls_remote")),
    # Last: any other /api/ URL is a JSON 404 in the error envelope, DEBUG or not (with DEBUG on,
    # Django would answer with its HTML page listing every route).
    re_path(r"^", views.not_found),
]
