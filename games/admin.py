"""Admin: games with their seats, read-only events, audit verdicts, outbox."""

from django.contrib import admin, messages

from .audit import AuditRace, audit_game
from .models import AuditVerdict, Checkpoint, Event, Game, OutboxMessage, Seat, Snapshot


class ReadOnlyMixin:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ("index", "name", "kind", "ai_level", "taken_at")
    readonly_fields = fields
    extra = 0


class EventInline(ReadOnlyMixin, admin.TabularInline):
    model = Event
    fields = ("version", "type", "actor", "recorded_at", "payload", "hash")
    readonly_fields = fields
    extra = 0
    show_change_link = True


class VerdictInline(ReadOnlyMixin, admin.TabularInline):
    model = AuditVerdict
    fields = ("checked_at", "ok", "events_checked", "first_bad_version", "problem")
    readonly_fields = fields
    extra = 0


@admin.action(description="Audit the selected games (replay, hash chain, seed, scores)")
def audit_selected(modeladmin, request, queryset):
    bad = 0
    for game in queryset:
        try:
            verdict = audit_game(game)
        except AuditRace as exc:
            modeladmin.message_user(request, f"game {game.pk}: not judged: {exc}", messages.WARNING)
            continue
        if not verdict.ok:
            bad += 1
            modeladmin.message_user(request, str(verdict), messages.ERROR)
    modeladmin.message_user(request, f"{queryset.count()} audited, {bad} with problems",
                            messages.WARNING if bad else messages.SUCCESS)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "__str__", "variant", "mode", "status", "version", "to_move", "scores", "updated_at")
    list_filter = ("status", "variant", "mode", "training")
    search_fields = ("title", "seats__name")
    readonly_fields = ("family", "variant", "rules", "players", "first", "mode", "training", "status", "version",
                       "to_move", "scores", "created_at", "updated_at")
    fields = ("title",) + readonly_fields
    inlines = [SeatInline, VerdictInline, EventInline]
    actions = [audit_selected]

    def has_add_permission(self, request):
        return False  # games are created through the services (API, league, demo)


@admin.register(Event)
class EventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "version", "type", "schema_version", "actor", "recorded_at", "short_hash")
    list_filter = ("type",)
    search_fields = ("game__id",)
    list_select_related = ("game",)

    @admin.display(description="hash")
    def short_hash(self, obj):
        return obj.hash[:12]


@admin.register(AuditVerdict)
class AuditVerdictAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "ok", "events_checked", "first_bad_version", "problem", "checked_at")
    list_filter = ("ok",)


@admin.register(Checkpoint)
class CheckpointAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only; staff download the newest as a file from
    ``/api/checkpoints/latest/`` (docs/security.md)."""

    list_display = ("seq", "created_at", "reason", "streams", "hash")
    fields = ("seq", "created_at", "reason", "prev_hash", "hash", "signature", "heads")

    @admin.display(description="streams")
    def streams(self, obj):
        return len(obj.heads)


@admin.register(OutboxMessage)
class OutboxAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "topic", "args", "status", "attempts", "last_error", "created_at", "sent_at")
    list_filter = ("status", "topic")


@admin.register(Snapshot)
class SnapshotAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "version", "created_at")


# --- workers: disputes, task states, standings events ------------------------------

from .models import Dispute, StandingsEvent, TaskRun  # noqa: E402


@admin.action(description="Queue the selected disputes again (failed or stuck)")
def retry_disputes(modeladmin, request, queryset):
    from .disputes import DisputeError, dispute_retry

    queued = 0
    for dispute in queryset:
        try:
            dispute_retry(dispute=dispute)
            queued += 1
        except DisputeError as exc:
            modeladmin.message_user(request, str(exc), messages.WARNING)
    modeladmin.message_user(request, f"{queued} dispute(s) queued")


@admin.register(Dispute)
class DisputeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "game", "move_version", "kind", "opened_by_seat", "status", "verdict", "upheld",
                    "attempts", "created_at", "finished_at")
    list_filter = ("status", "kind", "upheld")
    search_fields = ("game__id", "game__title", "verdict")
    readonly_fields = ("game", "move_version", "kind", "opened_by_seat", "actor", "note", "claimed_table",
                       "opened_version", "status", "attempts", "upheld", "verdict", "summary", "evidence",
                       "resolved_version", "error", "created_at", "started_at", "finished_at")
    actions = [retry_disputes]


@admin.register(TaskRun)
class TaskRunAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("key", "name", "status", "attempts", "started_at", "finished_at")
    list_filter = ("status", "name")
    search_fields = ("key",)
    readonly_fields = ("key", "name", "status", "attempts", "result", "error", "created_at", "started_at",
                       "finished_at")


@admin.register(StandingsEvent)
class StandingsEventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("subject", "version", "type", "recorded_at", "actor")
    list_filter = ("type",)
    search_fields = ("subject",)
    readonly_fields = ("subject", "version", "type", "payload", "digest", "actor", "recorded_at")


@admin.action(description="Reissue the credential of the selected taken seats (old links stop working)")
def reissue_credentials(modeladmin, request, queryset):
    from . import services
    from .errors import GameServiceError

    for seat in queryset:
        try:
            token = services.seat_reissue(seat)
        except GameServiceError as exc:
            messages.warning(request, str(exc))
            continue
        messages.success(request, f"game {seat.game_id} seat {seat.index} ({seat.name}): new seat link "
                                  f"/games/play/#{token} (shown once)")


@admin.action(description="Revoke the credential of the selected seats (the seat is open again)")
def revoke_credentials(modeladmin, request, queryset):
    from . import services
    from .errors import GameServiceError

    done = 0
    for seat in queryset:
        try:
            services.seat_reissue(seat, revoke=True)
            done += 1
        except GameServiceError as exc:
            messages.warning(request, str(exc))
    messages.success(request, f"{done} seat credential(s) revoked")


@admin.register(Seat)
class SeatAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "index", "name", "kind", "ai_level", "user", "taken_at")
    list_filter = ("kind",)
    search_fields = ("name", "game__title")
    fields = ("game", "index", "name", "kind", "ai_level", "user", "taken_at")
    readonly_fields = fields
    actions = [reissue_credentials, revoke_credentials]
