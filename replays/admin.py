"""The admin as an audit tool: matches, events, snapshots, validations and keys are read-only
(a match's clock, fault policy and driver lease are recorded facts, changed only by the services
that drive it); matches show their validation verdict and can be validated again."""
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from .models import Event, Match, SigningKey, Snapshot, Validation
from .services import match_validate


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never added, changed or deleted by hand: a fold of the logs or a recorded fact
    (tournaments.admin uses it too)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class EventInline(admin.TabularInline):
    model = Event
    fields = ("seq", "kind", "seat", "payload", "time", "hash")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("id", "ruleset", "players", "status", "validation", "created_at")
    list_filter = ("ruleset", "status", "imported", "unsigned")
    search_fields = ("id", "ruleset")
    readonly_fields = ("id", "viewer", "ruleset", "ruleset_version", "options", "players", "seats",
                       "seed_commitment", "status", "result", "time_control", "fault_policy", "driver_token",
                       "driver_lease_until", "queued_at", "created_at", "ended_at", "imported", "unsigned",
                       "validation")
    exclude = ("seed",)
    inlines = [EventInline]
    actions = ["validate_now"]

    @admin.display(description="replay viewer")
    def viewer(self, obj):
        return format_html('<a href="{}">open the replay viewer</a>', reverse("match-page", args=[obj.pk]))

    @admin.display(description="validation")
    def validation(self, obj):
        latest = obj.validations.first()
        if latest is None:
            return "not validated"
        return "valid" if latest.ok else f"FAILED at seq {latest.first_bad_seq}: {latest.reason}"

    @admin.action(description="Validate now")
    def validate_now(self, request, queryset):
        for match in queryset:
            verdict = match_validate(match=match)
            level = messages.SUCCESS if verdict.ok else messages.ERROR
            self.message_user(request, f"{match.id}: {'valid' if verdict.ok else verdict.reason}", level)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "kind", "seat", "time")
    list_filter = ("kind",)
    search_fields = ("match__id", "hash")


@admin.register(Snapshot)
class SnapshotAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq")


@admin.register(Validation)
class ValidationAdmin(ReadOnlyAdmin):
    list_display = ("match", "ok", "first_bad_seq", "reason", "created_at")
    list_filter = ("ok",)
    search_fields = ("match__id", "reason")


@admin.register(SigningKey)
class SigningKeyAdmin(ReadOnlyAdmin):
    """The public keys that sign match ends; made and rotated by manage.py signing_key only."""

    list_display = ("key_id", "algorithm", "created_at", "retired_at")
    readonly_fields = ("key_id", "algorithm", "public_key", "created_at", "retired_at")
