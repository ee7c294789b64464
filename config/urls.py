from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("", include("web.pages_urls")),
    path("", include("web.site_urls")),
]

handler400 = "api.errors.json_bad_request"
# The API's JSON envelope under /api/, the site's own page elsewhere (web.site.page_not_found).
handler404 = "web.site.page_not_found"
handler500 = "api.errors.json_server_error"
