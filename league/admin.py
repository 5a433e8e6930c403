"""The officials' side, in the Django admin: clubs, players, leagues,
tournaments (entries, seat the next round, close rounds, enter score sheets,
standings, CSV export), and the result events (read-only)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.rule_forms import RuleOptionsField, VariantChoiceField

from . import selectors, services, views
from .models import (Club, Entry, League, Player, Result, ResultEvent, Round,
                     TableGame, Tournament)
from .services import LeagueError
from .sheet_forms import ContractScoreSheetForm, OkeyScoreSheetForm, ScoreSheetForm
from .standings import METRICS


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


def _metric_sentence(metric) -> str:
    doc = (type(metric).__doc__ or "").strip().split("\n")[0]
    return doc if doc and not doc.startswith("A ranking criterion") else ""  # the name says it


class TiebreakWidget(forms.Widget):
    """The tie-breaks in order, from the metric registry: a position per
    metric (blank: not used), with what it means; arrows move a row up or
    down (the positions follow)."""

    def value_from_datadict(self, data, files, name):
        if not any(key.startswith(f"{name}__") for key in data):
            return data.get(name)  # the JSON list of older forms and of the API
        return {key[len(name) + 2:]: data.get(key, "") for key in data if key.startswith(f"{name}__")}

    def value_omitted_from_data(self, data, files, name):
        return name not in data and not any(key.startswith(f"{name}__") for key in data)

    def render(self, name, value, attrs=None, renderer=None):
        chosen = [k for k in (value if isinstance(value, list) else []) if k in METRICS]
        keys = chosen + [k for k in METRICS if k not in chosen]
        rows = format_html_join("", '<tr data-metric="{}"><td><input type="number" min="1" max="{}" size="2" '
                                    'name="{}__{}" id="id_{}__{}" value="{}" aria-label="position of {}"></td>'
                                    '<td><b>{}</b> <span class="help">{}</span></td>'
                                    '<td><button type="button" class="up" aria-label="move {} up">&uarr;</button>'
                                    '<button type="button" class="down" aria-label="move {} down">&darr;</button>'
                                    '</td></tr>',
                                ((k, len(METRICS), name, k, name, k,
                                  chosen.index(k) + 1 if k in chosen else "", METRICS[k].name,
                                  METRICS[k].name, _metric_sentence(METRICS[k]), METRICS[k].name, METRICS[k].name)
                                 for k in keys))
        script = mark_safe(
            "<script>(function(t){t.addEventListener('click',function(e){var b=e.target.closest('button');"
            "if(!b)return;var r=b.closest('tr'),o=b.classList.contains('up')?r.previousElementSibling:"
            "r.nextElementSibling;if(!o)return;if(b.classList.contains('up'))t.tBodies[0].insertBefore(r,o);"
            "else t.tBodies[0].insertBefore(o,r);var n=1;Array.prototype.forEach.call(t.tBodies[0].rows,"
            "function(x){var i=x.querySelector('input');if(i.value!==''){i.value=n++;}});});})"
            "(document.currentScript.previousElementSibling);</script>")
        return format_html('<table class="tiebreaks"><thead><tr><th>Order</th><th>Tie-break</th><th></th></tr>'
                           '</thead><tbody>{}</tbody></table>{}', rows, script)


class TiebreakField(forms.Field):
    widget = TiebreakWidget

    def to_python(self, value):
        import json

        if value in (None, ""):
            return []
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise forms.ValidationError('give a list of metric keys, e.g. ["wins", "points"]') from None
        if isinstance(value, list):
            return value
        if isinstance(value, dict):
            placed = []
            for key, raw in value.items():
                if str(raw).strip() == "":
                    continue
                try:
                    placed.append((int(raw), key))
                except ValueError:
                    raise forms.ValidationError(f"the position of {key} is a number, not {raw!r}") from None
            positions = [p for p, _ in placed]
            if len(set(positions)) != len(positions):
                raise forms.ValidationError("two tie-breaks have the same position")
            return [key for _, key in sorted(placed)]
        raise forms.ValidationError('give a list of metric keys, e.g. ["wins", "points"]')


class TournamentForm(forms.ModelForm):
    """The tournament in the admin: the variant from a list, its rule options
    as real fields (one per option, with the engine's sentence), the
    tie-breaks from the metric registry."""

    rules = RuleOptionsField(help_text="the variant's rule options; changing the variant starts from "
                                       "its defaults (save, then set them)")
    tiebreaks = TiebreakField(required=False, help_text="number the tie-breaks in the order they decide "
                                                        "(blank: not used; empty: the family's default)")

    class Meta:
        model = Tournament
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from engine.errors import EngineError
        from engine.registry import find_variant
        from games.lobby import variants

        self.fields["variant"] = VariantChoiceField(
            choices=[(c.variant, f"{c.family} · {c.variant}") for c in variants()],
            initial=self.instance.variant if self.instance.pk else "sabra")
        if "family" in self.fields:
            self.fields["family"].required = False  # it follows from the variant (clean)
            self.fields["family"].help_text = "set from the variant"
        stored = self.instance.variant if self.instance.pk else "sabra"
        posted = self.data.get(self.add_prefix("variant")) if self.is_bound else None
        try:
            cls = find_variant(posted or stored)
        except EngineError:
            cls = find_variant(stored)
        self.variant_changed = bool(posted) and cls.variant != stored
        # rule inputs posted for another variant's options are not read as this one's
        self.fields["rules"].set_variant(find_variant(stored) if self.variant_changed else cls)

    def clean(self):
        """The variant must be one the engine knows, with rule options it
        accepts; the family follows from the variant."""
        data = super().clean()
        variant = data.get("variant")
        if self.variant_changed and "rules" not in self.errors:
            data["rules"] = {}  # a new variant starts from its defaults
            self.instance.rules = {}  # also when no option inputs were sent
        if variant:
            from engine.errors import EngineError
            from engine.registry import find_variant

            try:
                cls = find_variant(variant)
                cls.rules_from_dict(data.get("rules") or {})
            except EngineError as exc:
                self.add_error("rules" if "rule" in str(exc) and "rules" not in self.errors else "variant",
                               str(exc))
            else:
                data["family"] = cls.family
                data["variant"] = cls.variant
                if not data.get("tiebreaks"):
                    data["tiebreaks"] = selectors.default_precedence(cls.family)
                from games.ai_seats import available_levels

                level = services.ai_level_for(cls.family, data.get("ai_level") or "")
                known = available_levels(cls.family)
                if known and level not in known:
                    self.add_error("ai_level", f"{cls.variant} has the AI level(s) {', '.join(known)}, "
                                               f"not {level!r}")
                else:
                    data["ai_level"] = level
                if not cls.min_players <= (data.get("table_size") or 0) <= cls.max_players:
                    self.add_error("table_size", f"{cls.variant} takes {cls.min_players} to "
                                                 f"{cls.max_players} players at a table")
        return data

    def clean_tiebreaks(self):
        keys = self.cleaned_data.get("tiebreaks") or []
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise forms.ValidationError('give a list of metric keys, e.g. ["wins", "points"]')
        unknown = [k for k in keys if k not in METRICS]
        if unknown:
            raise forms.ValidationError(
                f"unknown tie-break(s) {', '.join(unknown)}; known: {', '.join(sorted(METRICS))}")
        if len(set(keys)) != len(keys):
            raise forms.ValidationError("a tie-break is listed twice")
        return keys


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
            "rows": views._rows(standings, selectors.player_ratings(tournament.family)),
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
        contract = tournament.family == "contract"
        okey = tournament.family == "okey"
        form_class = (ContractScoreSheetForm if contract else OkeyScoreSheetForm if okey
                      else ScoreSheetForm)
        form = form_class(request.POST or None, seats=seats, current=current)
        if request.method == "POST" and form.is_valid():
            if not self.has_change_permission(request, tournament):
                form.add_error(None, "You may not change this tournament.")
            else:
                sheet = ({"hands": form.hands()} if contract else {"okey_games": form.games()} if okey
                         else {"racks": form.racks()})
                try:
                    services.result_record_score_sheet(
                        game=game, **sheet, actor=request.user.get_username(),
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
