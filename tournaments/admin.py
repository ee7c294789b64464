"""Admin for tournaments, an audit tool: the tournament page shows its standings and bracket
(folds of the results). What the services record (tournaments, entries, rounds, pairings, their
games, ratings) is read-only here; the one change the admin makes is a correction, recorded with
its reason through ``correction_record`` and never edited, and a tournament is cancelled through
``tournament_cancel``."""
from django import forms
from django.contrib import admin, messages
from django.utils.html import format_html_join

from replays.admin import ReadOnlyAdmin  # shown, never added, changed or deleted by hand

from .models import Correction, Entry, Pairing, PairingGame, Rating, Round, Tournament
from .selectors import tournament_bracket, tournament_standings
from .services import correction_check, correction_record, tournament_cancel


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("seed", "bot_version")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """Created and run through the API (tournament_create validates the format, its settings and
    the entries); the admin cancels and records corrections, nothing else."""

    list_display = ("name", "game", "format", "status", "created_at")
    list_filter = ("game", "format", "status")
    search_fields = ("name",)
    readonly_fields = ("standings", "bracket")
    inlines = [EntryInline]
    actions = ["cancel"]

    @admin.action(description="Cancel (running matches are aborted, unrated; no new round starts)")
    def cancel(self, request, queryset):
        for tournament in queryset:
            tournament_cancel(tournament=tournament)
        self.message_user(request, f"cancelled {queryset.count()} tournament(s) still in draft or running",
                          messages.SUCCESS)

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
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "created_at")
    list_filter = ("tournament",)


@admin.register(Pairing)
class PairingAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "key", "seats", "games", "bye")
    list_filter = ("tournament", "bye")
    search_fields = ("key",)


@admin.register(PairingGame)
class PairingGameAdmin(ReadOnlyAdmin):
    list_display = ("pairing", "number", "match")
    search_fields = ("match__id", "pairing__key")


class CorrectionForm(forms.ModelForm):
    """A correction as ``correction_record`` checks it: the same refusals as the API's."""

    class Meta:
        model = Correction
        fields = ("tournament", "kind", "entry", "pairing", "placings", "reason")

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            data["placings"] = correction_check(
                tournament=data["tournament"], kind=data["kind"], reason=data.get("reason", ""),
                entry=data.get("entry"), pairing=data.get("pairing"), placings=data.get("placings"))
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data


@admin.register(Correction)
class CorrectionAdmin(admin.ModelAdmin):
    """Corrections are added (through correction_record, by the user logged in) and never
    changed or deleted: a wrong one is answered by another with its reason."""

    list_display = ("tournament", "kind", "entry", "pairing", "reason", "created_by", "created_at")
    list_filter = ("kind",)
    search_fields = ("reason",)
    form = CorrectionForm

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        recorded = correction_record(tournament=data["tournament"], kind=data["kind"], reason=data["reason"],
                                     entry=data.get("entry"), pairing=data.get("pairing"),
                                     placings=data.get("placings"), created_by=request.user)
        obj.__dict__.update(recorded.__dict__)  # the admin's log and redirect name the recorded row

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("game", "bot", "ordinal", "mu", "sigma", "matches")
    list_filter = ("game",)
    search_fields = ("bot__name",)
