"""The admin as an audit tool: bots are changed only through bots.services; versions are
read-only, and their archive bytes are never loaded into a page (sha256 and sizes say enough)."""
from django.contrib import admin

from .models import Bot, BotVersion


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    fields = ("number", "format", "filename", "sha256", "size", "file_count", "unpacked_size",
              "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).defer("archive")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "kind", "owner", "builtin_name", "created_at")
    list_filter = ("game", "kind")
    search_fields = ("name", "builtin_name", "description", "owner__username")
    list_select_related = ("owner",)
    readonly_fields = ("owner", "name", "game", "kind", "builtin_name", "created_at")
    inlines = [BotVersionInline]

    def has_add_permission(self, request):
        return False  # bot_create validates the name and game


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ("bot", "number", "format", "filename", "sha256", "size", "file_count",
                    "unpacked_size", "created_at")
    list_filter = ("format", "bot__game", "bot__kind")
    search_fields = ("bot__name", "bot__owner__username", "sha256", "filename")
    list_select_related = ("bot",)
    exclude = ("archive",)
    readonly_fields = ("bot", "number", "format", "filename", "sha256", "size", "file_count",
                       "unpacked_size", "created_at")

    def get_queryset(self, request):
        return super().get_queryset(request).defer("archive")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
