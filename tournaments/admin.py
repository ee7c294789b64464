"""Admin for tournaments: the tournament page shows its standings and bracket (folds of the
results); corrections are recorded with a reason and never edited."""
from django.contrib import admin
from django.utils.html import format_html_join

from .models import Correction, Entry, Pairing, PairingGame, Rating, Round, Tournament
from .selectors import tournament_bracket, tournament_standings


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("seed", "bot_version")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "format", "status", "created_at")
    list_filter = ("game", "format", "status")
    search_fields = ("name",)
    readonly_fields = ("status", "created_at", "finished_at", "cancelled_at", "standings", "bracket")
    inlines = [EntryInline]

    @admin.display(description="standings")
    def standings(self, obj):
        if not obj.pk or obj.status == Tournament.Status.DRAFT:
            return "-"
        return format_html_join("", "<div>{}. {} ({} pts)</div>",
                                ((r["rank"], r["bot"], r["points"]) for r in tournament_standings(tournament=obj)))

    @admin.display(description="bracket")
    def bracket(self, obj):
        if not obj.pk:
            return "-"
        lines = []
        for round_ in tournament_bracket(tournament=obj):
            for p in round_["pairings"]:
                seats = " v ".join(s["bot"] for s in p["seats"])
                lines.append((round_["round"], p["key"], seats, p["placings"] or "pending"))
        return format_html_join("", "<div>R{} {}: {} → {}</div>", lines)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "created_at")
    list_filter = ("tournament",)


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ("tournament", "key", "seats", "games", "bye")
    list_filter = ("tournament", "bye")
    search_fields = ("key",)


@admin.register(PairingGame)
class PairingGameAdmin(admin.ModelAdmin):
    list_display = ("pairing", "number", "match")
    search_fields = ("match__id", "pairing__key")


@admin.register(Correction)
class CorrectionAdmin(admin.ModelAdmin):
    list_display = ("tournament", "kind", "entry", "pairing", "reason", "created_by", "created_at")
    list_filter = ("kind",)
    search_fields = ("reason",)

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("game", "bot", "ordinal", "mu", "sigma", "matches")
    list_filter = ("game",)
    search_fields = ("bot__name",)
