"""The officials' side, in the Django admin: clubs, players, leagues,
tournaments (entries, seat the next round, close rounds, enter score sheets,
standings, CSV export), and the result events (read-only)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from . import selectors, services, views
from .models import (Club, Entry, League, Player, Result, ResultEvent, Round, SeatingConflict,
                     TableGame, Tournament)
from .services import LeagueError
from .sheet_forms import form_for, sheet_of
from .standings import METRICS
from .tournament_forms import TournamentForm


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "members", "leaderboard"]
    search_fields = ["name", "city"]
    prepopulated_fields = {"slug": ["name"]}

    @admin.display(description="players")
    def members(self, obj):
        return obj.players.count()

    @admin.display(description="leaderboard")
    def leaderboard(self, obj):
        return format_html('<a href="{}">leaderboard</a>', reverse("league:club", args=[obj.slug]))


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "history"]
    list_filter = ["club"]
    search_fields = ["name", "club__name", "user__username"]
    autocomplete_fields = ["user"]

    @admin.display(description="history")
    def history(self, obj):
        return format_html('<a href="{}">games</a>', reverse("league:player", args=[obj.pk]))


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "club", "table"]
    prepopulated_fields = {"slug": ["name", "season"]}

    @admin.display(description="league table")
    def table(self, obj):
        return format_html('<a href="{}">league table</a>', reverse("league:league", args=[obj.slug]))


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["player", "checked_in", "from_round", "withdrawn_after"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ["name", "club", "variant", "rounds", "table_size", "status", "public"]
    list_filter = ["status", "club", "variant"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [EntryInline]
    actions = ["seat_next_round", "export_standings"]
    change_form_template = "league/admin/tournament_change_form.html"
    fieldsets = [
        (None, {"fields": ["name", "slug", "club", "league", "date", "status"]}),
        ("Game", {"fields": ["family", "variant", "rules"]}),
        ("Format", {"fields": ["rounds", "table_size", "seating_method", "tiebreaks",
                               "ai_fill", "ai_level"]}),
    ]

    @admin.display(description="public page")
    def public(self, obj):
        return format_html('<a href="{}">standings</a>', reverse("league:tournament", args=[obj.slug]))

    def get_urls(self):
        own = [
            path("<int:pk>/seat/", self.admin_site.admin_view(self.seat_view),
                 name="league_tournament_seat"),
            path("<int:pk>/standings/", self.admin_site.admin_view(self.standings_view),
                 name="league_tournament_standings"),
            path("<int:pk>/standings.csv", self.admin_site.admin_view(self.csv_view),
                 name="league_tournament_csv"),
            path("round/<int:round_pk>/close/", self.admin_site.admin_view(self.close_view),
                 name="league_round_close"),
            path("game/<int:game_pk>/sheet/", self.admin_site.admin_view(self.sheet_view),
                 name="league_game_sheet"),
        ]
        return own + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = extra_context or {}
        tournament = Tournament.objects.filter(pk=object_id).first()
        if tournament is not None:
            extra_context["rounds"] = [
                {"round": rnd, "tables": selectors.round_tables(rnd)}
                for rnd in tournament.round_set.all()]
        return super().change_view(request, object_id, form_url, extra_context)

    # --- actions ---------------------------------------------------------------
    @admin.action(description="Seat the next round")
    def seat_next_round(self, request, queryset):
        for tournament in queryset:
            self._seat(request, tournament)

    @admin.action(description="Export standings (CSV)")
    def export_standings(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Choose one tournament to export.", messages.ERROR)
            return None
        tournament = queryset.get()
        return views.standings_csv(tournament, selectors.tournament_standings(tournament))

    def _seat(self, request, tournament):
        if not self.has_change_permission(request, tournament):
            self.message_user(request, "You may not change this tournament.", messages.ERROR)
            return
        try:
            rnd = services.round_seat(tournament=tournament)
        except LeagueError as exc:
            self.message_user(request, f"{tournament}: {exc}", messages.ERROR)
        else:
            self.message_user(request, f"{tournament}: round {rnd.number} seated at "
                                       f"{rnd.tables.count()} tables (seed {rnd.seed}, "
                                       f"repeat table-mates {rnd.repeat_mates}).",
                              messages.SUCCESS)

    # --- views -----------------------------------------------------------------
    def _back(self, tournament):
        return HttpResponseRedirect(reverse("admin:league_tournament_change", args=[tournament.pk]))

    def seat_view(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        if request.method == "POST":
            self._seat(request, tournament)
        return self._back(tournament)

    def close_view(self, request, round_pk):
        rnd = get_object_or_404(Round, pk=round_pk)
        if request.method == "POST":
            if not self.has_change_permission(request, rnd.tournament):
                self.message_user(request, "You may not change this tournament.", messages.ERROR)
            else:
                try:
                    services.round_close(round=rnd)
                except LeagueError as exc:
                    self.message_user(request, str(exc), messages.ERROR)
                else:
                    self.message_user(request, f"Round {rnd.number} closed.", messages.SUCCESS)
        return self._back(rnd.tournament)

    def standings_view(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        chosen = request.GET.get("round")
        rounds = [int(chosen)] if chosen and chosen.isdigit() else None
        standings = selectors.tournament_standings(tournament, rounds=rounds)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta, "title": f"Standings: {tournament}",
            "tournament": tournament, "chosen": rounds[0] if rounds else None,
            "round_numbers": list(tournament.round_set.values_list("number", flat=True)),
            "columns": [METRICS[k] for k in tournament.precedence],
            "rows": views._rows(standings, selectors.player_ratings(tournament.family),
                                selectors.tournament_entry_marks(tournament)),
        }
        return TemplateResponse(request, "league/admin/standings.html", context)

    def csv_view(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        return views.standings_csv(tournament, selectors.tournament_standings(tournament))

    def sheet_view(self, request, game_pk):
        game = get_object_or_404(TableGame.objects.select_related("table__round__tournament"),
                                 pk=game_pk)
        tournament = game.table.round.tournament
        seats = list(game.table.seats.select_related("entry__player").order_by("position"))
        current = game.results.filter(status=Result.Status.CONFIRMED).first()
        form = form_for(tournament)(request.POST or None, seats=seats, current=current)
        if request.method == "POST" and form.is_valid():
            if not self.has_change_permission(request, tournament):
                form.add_error(None, "You may not change this tournament.")
            else:
                sheet = sheet_of(form)
                try:
                    services.result_record_score_sheet(
                        game=game, sheet=sheet, actor=request.user.get_username(),
                        correction=current is not None)
                except LeagueError as exc:
                    form.add_error(None, str(exc))
                else:
                    self.message_user(request, f"{game} of round {game.table.round.number}: "
                                               "result recorded.", messages.SUCCESS)
                    return self._back(tournament)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta, "title": f"Score sheet: round {game.table.round.number}, {game}",
            "tournament": tournament, "game": game, "form": form, "current": current,
            "events": game.result_events.order_by("version"),
        }
        return TemplateResponse(request, "league/admin/score_sheet.html", context)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "seating_method", "seed",
                    "repeat_mates", "repeat_seats"]
    list_filter = ["status", "tournament"]
    readonly_fields = ["tournament", "number", "seed", "seating_method", "repeat_mates",
                       "repeat_seats", "status", "closed_at"]
    actions = ["close_rounds"]

    def has_add_permission(self, request):
        return False  # rounds are seated from the tournament

    @admin.action(description="Close the round(s)")
    def close_rounds(self, request, queryset):
        for rnd in queryset.order_by("number"):
            try:
                services.round_close(round=rnd)
            except LeagueError as exc:
                self.message_user(request, str(exc), messages.ERROR)
            else:
                self.message_user(request, f"{rnd} closed.", messages.SUCCESS)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ResultEvent)
class ResultEventAdmin(ReadOnlyAdmin):
    list_display = ["game", "version", "type", "actor", "recorded_at"]
    list_filter = ["type"]
    readonly_fields = ["game", "version", "type", "payload", "actor", "recorded_at"]


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    list_display = ["game", "status", "source", "scores", "winners"]
    list_filter = ["status", "source"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    """Check-in desk: tick players in as they arrive (a late arrival plays
    from the next round not yet seated); withdraw those who leave."""

    list_display = ["player", "tournament", "checked_in", "from_round", "withdrawn_after"]
    list_filter = ["tournament", "checked_in"]
    search_fields = ["player__name"]
    autocomplete_fields = ["player"]
    actions = ["check_in", "withdraw"]

    @admin.action(description="Check in (present from the next round not yet seated)")
    def check_in(self, request, queryset):
        for entry in queryset:
            services.entry_check_in(entry=entry)
        self.message_user(request, f"{queryset.count()} checked in.", messages.SUCCESS)

    @admin.action(description="Withdraw (not seated in later rounds)")
    def withdraw(self, request, queryset):
        for entry in queryset:
            try:
                services.entry_withdraw(entry=entry)
            except LeagueError as exc:
                self.message_user(request, str(exc), messages.ERROR)


@admin.register(SeatingConflict)
class SeatingConflictAdmin(admin.ModelAdmin):
    """Pairs who must not sit together (entered on the round desk)."""

    list_display = ["tournament", "player_a", "player_b", "reason", "created_at"]
    list_filter = ["tournament"]
    autocomplete_fields = ["player_a", "player_b"]
