"""API tokens in the admin: who holds which (by prefix), when they expire; never the secret."""
from django.contrib import admin

from .models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("prefix", "user", "name", "created_at", "expires_at", "last_used_at", "revoked")
    list_filter = ("revoked",)
    search_fields = ("prefix", "user__username", "name")
    readonly_fields = ("user", "prefix", "key_hash", "name", "created_at", "expires_at", "last_used_at")

    def has_add_permission(self, request):
        return False  # tokens are created through the API, which shows the secret once
