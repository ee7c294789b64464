from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("", include("api.pages_urls")),
    path("", include("api.site_urls")),
]

handler400 = "api.errors.json_bad_request"
# The API's JSON envelope under /api/, the site's own page elsewhere (api.site.page_not_found).
handler404 = "api.site.page_not_found"
handler500 = "api.errors.json_server_error"
