from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("", include("api.pages_urls")),
]

handler400 = "api.errors.json_bad_request"
handler404 = "api.errors.json_not_found"
handler500 = "api.errors.json_server_error"
