"""API of the workers: open and follow disputes; the state of a task a
person waits for. Views only translate HTTP to :mod:`games.disputes` and
:mod:`games.task_state`."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from . import disputes
from .api import ERRORS, _actor, _is_staff, _seat
from .errors import NotYourSeat
from .models import Dispute, Game
from .serializers import TextField
from .task_state import task_state

STATES = ["waiting", "running", "done", "failed"]


class DisputeInSerializer(serializers.Serializer):
    move_version = serializers.IntegerField(min_value=1, help_text="the version of the disputed move's event")
    kind = serializers.ChoiceField(
        choices=Dispute.Kind.values,
        error_messages={"invalid_choice": "unknown dispute kind \"{input}\" (one of "
                                          + ", ".join(Dispute.Kind.values) + ")"},
        help_text="table_invalid, could_open, not_best (Rummikub); winning_hand (contract rummy)")
    note = TextField(required=False, allow_blank=True, default="", max_length=2000)
    claimed_table = serializers.ListField(child=TextField(max_length=8), required=False,
                                          allow_empty=False, max_length=200,
                                          help_text="officials: the tiles seen on a real table")


class DisputeOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    move_version = serializers.IntegerField()
    kind = serializers.CharField()
    opened_by = serializers.CharField()
    note = serializers.CharField()
    claimed_table = serializers.ListField(child=serializers.CharField(), allow_null=True)
    status = serializers.ChoiceField(choices=STATES, help_text="the state of the task settling it")
    attempts = serializers.IntegerField()
    upheld = serializers.BooleanField(allow_null=True)
    verdict = serializers.CharField()
    summary = serializers.CharField()
    evidence = serializers.JSONField(allow_null=True)
    error = serializers.CharField()
    opened_version = serializers.IntegerField(allow_null=True)
    resolved_version = serializers.IntegerField(allow_null=True)
    created_at = serializers.CharField(allow_null=True)
    finished_at = serializers.CharField(allow_null=True)


class TaskStateSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=STATES)
    attempts = serializers.IntegerField()
    result = serializers.JSONField(allow_null=True)
    error = serializers.CharField()
    created_at = serializers.CharField(allow_null=True)
    started_at = serializers.CharField(allow_null=True)
    finished_at = serializers.CharField(allow_null=True)


def _viewer(request, game: Game) -> dict:
    seat = _seat(request)
    return {"staff": _is_staff(request),
            "seat": seat.index if seat is not None and seat.game_id == game.pk else None}


class GameDisputes(APIView):
    throttle_scope = "dispute"  # the POST; reads are never limited

    @extend_schema(responses={200: DisputeOutSerializer(many=True), **ERRORS}, summary="A game's disputes")
    def get(self, request, game_id: int):
        game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
        viewer = _viewer(request, game)
        return Response([disputes.dispute_data(d, **viewer)
                         for d in game.disputes.select_related("game").order_by("id")])

    @extend_schema(request=DisputeInSerializer,
                   responses={201: DisputeOutSerializer, 200: DisputeOutSerializer, **ERRORS},
                   summary="Open a dispute on a move (a seat credential, or staff as the official); "
                           "a worker settles it with the solver (Rummikub) or the engine's "
                           "judge (contract rummy)",
                   description="The same dispute again (same move, kind and claimed table) opens nothing: "
                               "200 with the first one (its id, state and verdict); the judge runs once.")
    def post(self, request, game_id: int):
        game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
        data = DisputeInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        seat = _seat(request)
        if seat is not None:
            if seat.game_id != game.pk:
                raise NotYourSeat(f"this credential is for game {seat.game_id}, not game {game.pk}")
            if "claimed_table" in v:
                raise PermissionDenied("only an official (staff) types in a claimed table")
            acting = seat.index
        elif _is_staff(request):
            acting = None
        else:
            raise NotYourSeat("send your seat credential ('Authorization: Seat <token>') "
                              "or sign in as an official", "no-credential")
        dispute = disputes.dispute_open(game=game, move_version=v["move_version"], kind=v["kind"],
                                        seat=acting, note=v["note"], claimed_table=v.get("claimed_table"),
                                        actor=_actor(request))
        reused = getattr(dispute, "reused", False)
        dispute.refresh_from_db()
        return Response(disputes.dispute_data(dispute, **_viewer(request, game)),
                        status=status.HTTP_200_OK if reused else status.HTTP_201_CREATED)


class DisputeDetail(APIView):
    @extend_schema(responses={200: DisputeOutSerializer, **ERRORS},
                   summary="A dispute: its task state (waiting, running, done, failed), verdict and evidence")
    def get(self, request, dispute_id: int):
        dispute = get_object_or_404(Dispute.objects.select_related("game"), pk=dispute_id)
        return Response(disputes.dispute_data(dispute, **_viewer(request, dispute.game)))


class DisputeRetry(APIView):
    @extend_schema(request=None, responses={202: DisputeOutSerializer, **ERRORS},
                   summary="Staff: queue a failed dispute again")
    def post(self, request, dispute_id: int):
        if not _is_staff(request):
            raise PermissionDenied("only staff retry a dispute")
        dispute = get_object_or_404(Dispute.objects.select_related("game"), pk=dispute_id)
        dispute = disputes.dispute_retry(dispute=dispute)
        return Response(disputes.dispute_data(dispute, staff=True), status=status.HTTP_202_ACCEPTED)


class TaskStateView(APIView):
    @extend_schema(responses={200: TaskStateSerializer, **ERRORS},
                   summary="The state of a worker task by its key (e.g. standings:tournament:3:round:2)")
    def get(self, request, key: str):
        state = task_state(key)
        if state is None:
            raise NotFound(f"no task {key!r}")
        return Response(state)


class StandingsOutSerializer(serializers.Serializer):
    subject = serializers.CharField()
    version = serializers.IntegerField()
    type = serializers.CharField()
    recorded_at = serializers.CharField()
    payload = serializers.JSONField()


class StandingsLatest(APIView):
    @extend_schema(responses={200: StandingsOutSerializer, **ERRORS},
                   summary="The latest recorded standings of a subject (tournament:3, tournament:3:round:2, "
                           "league:1, club:2), with its version")
    def get(self, request, subject: str):
        from .models import StandingsEvent

        event = StandingsEvent.objects.filter(subject=subject).order_by("-version").first()
        if event is None:
            raise NotFound(f"no standings recorded for {subject!r}")
        return Response({"subject": event.subject, "version": event.version, "type": event.type,
                         "recorded_at": event.recorded_at.isoformat(), "payload": event.payload})
