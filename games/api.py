"""The games REST API. Views only translate HTTP to services/selectors."""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied, UnsupportedMediaType
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from engine.errors import EngineError

from . import ai_seats, checkpoints, receipts, selectors, services
from .api_limits import ScopedRateThrottle, refuse_if_full
from .audit import AuditRace, audit_game, verdict_in_force
from .errors import GameServiceError, NotVisible, NotYourSeat
from .eventstore import ConcurrencyConflict
from .models import Checkpoint, Game, Seat
from .refusals import REFUSALS, refusal_text
from .serializers import (ComposeInSerializer, ComposeOutSerializer, ErrorSerializer, EventOutSerializer, GameCreateSerializer, GameSummarySerializer,
                          MoveInSerializer, MoveOutSerializer, ReceiptCheckSerializer, ReceiptSerializer,
                          SeatTakeSerializer, SeatTokenSerializer, TimeoutInSerializer, VerdictSerializer,
                          ViewSerializer)

# Every error is {"error", "detail"} JSON: 400 bad input (a body over the
# size or depth limits included), 401 a bad credential, 403 not allowed,
# 404 no such thing, 409 a conflict, 415 a body that is not JSON, 429 over
# a rate limit (with Retry-After).
ERRORS = {code: ErrorSerializer for code in (400, 401, 403, 404, 409, 415, 429)}
GAME_STATUSES = ("in_progress", "finished")


def exception_handler(exc, context):
    """Service errors become ``{"error": code, "detail": message}`` with
    their status, and a refused move whose rule code games/refusals.py knows
    also ``"message"``: the same in the reader's language; everything else
    goes to DRF's handler."""
    if isinstance(exc, ConcurrencyConflict):
        return Response({"error": "stale-version", "detail": str(exc), "version": exc.actual},
                        status=status.HTTP_409_CONFLICT)
    if isinstance(exc, GameServiceError):
        # "message": the refusal in the reader's language (games/refusals.py), "detail" the engine's own
        body = {"error": exc.code, "detail": str(exc)}
        if exc.code in REFUSALS:
            body["message"] = refusal_text(exc.code, str(exc))
        return Response(body, status=exc.status)
    response = drf_exception_handler(exc, context)
    if isinstance(exc, UnsupportedMediaType) and response is not None and str(exc.detail).startswith("Unsupported"):
        response.data = {"error": "unsupported_media_type",
                         "detail": f"{exc.detail} The API takes application/json (UTF-8) bodies only."}
    elif response is not None and isinstance(response.data, dict) and "detail" in response.data:
        response.data = {"error": getattr(response.data["detail"], "code", "error"),
                         "detail": str(response.data["detail"])}
    elif response is not None and isinstance(response.data, (dict, list)):
        response.data = {"error": "invalid", "detail": _flatten(response.data), "fields": response.data}
    return response


def _flatten(data, prefix="") -> str:
    if isinstance(data, dict):
        return "; ".join(_flatten(v, f"{prefix}{k}: ") for k, v in data.items())
    if isinstance(data, list):
        return "; ".join(_flatten(v, prefix) for v in data)
    return f"{prefix}{data}"


def _is_staff(request) -> bool:
    return bool(getattr(request.user, "is_staff", False))


def _private(response: Response) -> Response:
    """An answer holding a credential or a rack: no cache (the browser's,
    a proxy's) keeps it."""
    response["Cache-Control"] = "no-store"
    return response


def _seat(request) -> Seat | None:
    return request.auth if isinstance(request.auth, Seat) else None


def _game(seat: Seat | None, game_id: int, games) -> Game:
    """The game the address names: the one a seat credential's lookup read
    already (all but the state) when it is that seat's, else read here.

    :raises Http404: no such game.
    """
    if seat is not None and seat.game_id == game_id:
        return seat.game
    return get_object_or_404(games, pk=game_id)


class GameListCreate(APIView):
    throttle_scope = "game-create"  # the POST; reads are never limited

    @extend_schema(responses={200: GameSummarySerializer(many=True), 400: ErrorSerializer},
                   parameters=[OpenApiParameter("status", str, enum=list(GAME_STATUSES))],
                   summary="List games")
    def get(self, request):
        wanted = request.query_params.get("status")
        if wanted is not None and wanted not in GAME_STATUSES:
            raise GameServiceError(f"status must be one of {', '.join(GAME_STATUSES)}, not {wanted!r}",
                                   "bad-status")
        games = selectors.game_list(status=wanted)[:200]
        return Response([selectors.game_summary(g) for g in games])

    @extend_schema(request=GameCreateSerializer, responses={201: GameSummarySerializer, **ERRORS},
                   summary="Create a game (digital: shuffled from a secret seed)")
    def post(self, request):
        data = GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if "deal" in v and not _is_staff(request):
            raise PermissionDenied("only staff may type in the deal of a real-table game")
        game = services.game_create(variant=v["variant"], players=v["players"], rules=v["rules"],
                                    seats=v.get("seats"), deal=v.get("deal"), first=v["first"],
                                    title=v["title"], actor=_actor(request), training=v["training"])
        return Response(selectors.game_summary(game), status=status.HTTP_201_CREATED)


def _move_answer(game_id: int, result: services.MoveResult) -> Response:
    """A recorded move's answer, with the signed receipt of the new head."""
    # MoveOutSerializer's fields, built directly (it documents the answer;
    # running it costs a move more than its engine check)
    answer = {"version": result.version, "move": result.move, "outcome": result.outcome,
              "game_over": result.game_over, "penalty_for": result.penalty_for, "rule": result.rule,
              "message": result.message, "receipt": receipts.receipt(game_id, result.version, result.head_hash)}
    return Response(answer, status=status.HTTP_201_CREATED)


def _actor(request) -> str:
    seat = _seat(request)
    if seat is not None:
        return f"seat:{seat.index}"
    if getattr(request.user, "is_authenticated", False):
        return f"user:{request.user.get_username()}"
    return "anonymous"


class GameDetail(APIView):
    @extend_schema(responses={200: GameSummarySerializer, 404: ErrorSerializer}, summary="A game's public facts")
    def get(self, request, game_id: int):
        game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
        return Response(selectors.game_summary(game))


class SeatTake(APIView):
    throttle_scope = "seat-take"

    @extend_schema(request=SeatTakeSerializer, responses={201: SeatTokenSerializer, **ERRORS},
                   summary="Take a seat; returns the seat's credential (once)")
    def post(self, request, game_id: int, index: int):
        game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
        data = SeatTakeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token = services.seat_take(game=game, index=index, name=data.validated_data["name"], user=request.user)
        return _private(Response({"game": game.pk, "seat": index, "token": token}, status=status.HTTP_201_CREATED))


class SeatCredential(APIView):
    """Staff: reissue (POST) or revoke (DELETE) a taken seat's credential.
    The old one stops working at once, for API clients and for browsers
    that exchanged it for their session."""

    def _seat_row(self, request, game_id: int, index: int) -> Seat:
        if not _is_staff(request):
            raise PermissionDenied("only staff may reissue or revoke a seat's credential")
        return get_object_or_404(Seat, game_id=game_id, index=index)

    @extend_schema(request=None, responses={201: SeatTokenSerializer, **ERRORS},
                   summary="Staff: a new credential for a taken seat (the old one stops working)")
    def post(self, request, game_id: int, index: int):
        seat = self._seat_row(request, game_id, index)
        token = services.seat_reissue(seat)
        return _private(Response({"game": game_id, "seat": index, "token": token}, status=status.HTTP_201_CREATED))

    @extend_schema(request=None, responses={204: None, **ERRORS},
                   summary="Staff: withdraw a seat's credential (the seat is open again)")
    def delete(self, request, game_id: int, index: int):
        seat = self._seat_row(request, game_id, index)
        services.seat_reissue(seat, revoke=True)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeatView(APIView):
    @extend_schema(responses={200: ViewSerializer, **ERRORS},
                   parameters=[OpenApiParameter("seat", int, description="staff only: whose view")],
                   summary="Your seat's view: own rack, table, counts, whose turn, version")
    def get(self, request, game_id: int):
        seat = _seat(request)
        game = _game(seat, game_id, Game.objects.all())
        raw = request.query_params.get("seat")
        index = None
        if raw is not None:  # an empty ?seat= is no seat number either
            if not (raw.isascii() and raw.isdigit()):
                raise GameServiceError(f"seat must be a whole number, got {raw!r}", "bad-seat")
            index = int(raw)
            if not 0 <= index < game.players:
                raise GameServiceError(f"game {game.pk} has seats 0 to {game.players - 1}", "bad-seat")
        if seat is not None:
            if seat.game_id != game.pk:
                raise NotYourSeat(f"this credential is for game {seat.game_id}, not game {game.pk}")
            if index is not None and index != seat.index:
                raise NotYourSeat(f"this credential is for seat {seat.index}, not seat {index}")
            if ai_seats.nudge_if_due(game):  # embedded mode: an AI seat's buy window has passed
                game = Game.objects.get(pk=game.pk)
            return _private(Response(_with_recent(request, game, selectors.game_view(game, seat.index))))
        if _is_staff(request):
            return _private(Response(_with_recent(request, game, selectors.game_view(game, index))))
        if index is not None:
            raise NotYourSeat("only staff (or the seat's own credential) may read a seat's view", "no-credential")
        return Response(_with_recent(request, game, selectors.game_view(game, None)))


def _with_recent(request, game: Game, view: dict) -> dict:
    """``?recent=1`` (what a live page polls while its socket is down): the
    view with the last moves in words and the seats' names, as a socket's
    frame carries them (``docs/live.md``)."""
    if request.query_params.get("recent") != "1":
        return view
    names = dict(game.seats.values_list("index", "name"))
    return {**view, "recent": selectors.recent_moves(game), "names": [names.get(i, "") for i in range(game.players)]}


_MOVE_IN_KEYS = frozenset(("move", "expected_version", "seat"))
_MOVE_MAX = MoveInSerializer().fields["move"].max_length


def _plain_move_in(data) -> dict | None:
    """A move's body as :class:`MoveInSerializer` validates it, checked
    here for the plain case the pages and the API's clients send (a
    one-line ASCII move, whole numbers) without building the serializer,
    which cost a tenth of a move's request; ``None`` for anything else,
    which the serializer then checks and answers as before."""
    if type(data) is not dict or not data.keys() <= _MOVE_IN_KEYS:
        return None
    move, version = data.get("move"), data.get("expected_version")
    if type(move) is not str or type(version) is not int or version < 0 or not move.isascii():
        return None
    move = move.strip()
    if not move or len(move) > _MOVE_MAX or "\x00" in move:
        return None
    out = {"move": move, "expected_version": version}
    if "seat" in data:
        if type(data["seat"]) is not int or data["seat"] < 0:
            return None
        out["seat"] = data["seat"]
    return out


class MoveSubmit(APIView):
    @extend_schema(request=MoveInSerializer, responses={201: MoveOutSerializer, **ERRORS},
                   summary="Submit a move at the version you saw",
                   description="409 if the game moved on since that version; 400 naming the rule "
                               "if the move is malformed or illegal (nothing is stored); a move the "
                               "rules turn into a penalty is recorded as the penalty and says so.")
    def post(self, request, game_id: int):
        v = _plain_move_in(request.data)
        if v is None:  # anything but the plain case: the serializer's checks and its error answers
            data = MoveInSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            v = data.validated_data
        seat = _seat(request)
        game = seat.game if seat is not None and seat.game_id == game_id else \
            get_object_or_404(Game.objects.only("id"), pk=game_id)
        if seat is not None:
            if seat.game_id != game.pk:
                raise NotYourSeat(f"this credential is for game {seat.game_id}, not game {game.pk}")
            if "seat" in v and v["seat"] != seat.index:
                raise NotYourSeat(f"this credential is for seat {seat.index}, not seat {v['seat']}")
            acting = seat.index
        elif _is_staff(request):
            acting = v.get("seat")
        else:
            raise NotYourSeat("send your seat credential: 'Authorization: Seat <token>'", "no-credential")
        stale = refuse_if_full(request, self, "move-stale")  # moves refused as stale are limited
        try:
            result = services.game_record_move(game=game.pk, move=v["move"], expected_version=v["expected_version"],
                                               seat=acting, actor=_actor(request))
        except ConcurrencyConflict:
            stale.take(request, "move-stale")
            raise
        return _move_answer(game.pk, result)


class TurnCompose(APIView):
    """The browser table's check of a turn being laid out: sent as the whole
    table after the turn, answered per meld (valid, why not, value), with
    the value laid and the engine's notation for it. Nothing is stored."""

    throttle_scope = "compose"

    @extend_schema(request=ComposeInSerializer, responses={200: ComposeOutSerializer, **ERRORS},
                   summary="Check a turn laid out on the table; the move that says it (nothing stored)")
    def post(self, request, game_id: int):
        data = ComposeInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = get_object_or_404(Game, pk=game_id)
        seat = _seat(request)
        if seat is None or seat.game_id != game.pk:
            raise NotYourSeat("laying out a turn needs this game's seat", "no-credential")
        if game.is_over or game.to_move != seat.index:
            raise GameServiceError("it is not your turn", "not-your-turn")
        state = services.load_state(game)
        try:
            answer = state.compose(data.validated_data["melds"])
        except NotImplementedError as exc:
            raise GameServiceError(str(exc), "no-table-turns") from None
        except EngineError as exc:
            raise GameServiceError(str(exc), "notation") from None
        return Response(answer)


class TurnTimeout(APIView):
    """The turn clock ran out: the rules' timeout move for the seat on turn."""

    throttle_scope = "timeout"

    @extend_schema(request=TimeoutInSerializer, responses={201: MoveOutSerializer, **ERRORS},
                   summary="Claim the timeout of the seat on turn once its turn clock ran out",
                   description="Any seat of the game (or staff) may claim it; every seat page does when "
                               "its clock reaches zero. 400 `clock-running` while time is left, "
                               "`no-clock` for games without a turn clock; 409 once the turn has ended.")
    def post(self, request, game_id: int):
        data = TimeoutInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = get_object_or_404(Game.objects.only("id"), pk=game_id)
        seat = _seat(request)
        if seat is not None and seat.game_id != game.pk:
            raise NotYourSeat(f"this credential is for game {seat.game_id}, not game {game.pk}")
        if seat is None and not _is_staff(request):
            raise NotYourSeat("only a seat of this game (or staff) may claim a timeout", "no-credential")
        result = services.game_claim_timeout(game=game.pk, expected_version=data.validated_data["expected_version"],
                                             actor=_actor(request))
        return _move_answer(game.pk, result)


class GameEvents(APIView):
    @extend_schema(responses={200: EventOutSerializer(many=True), **ERRORS},
                   summary="The events of a finished game (staff: any game)")
    def get(self, request, game_id: int):
        game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
        return Response(selectors.game_events(game, staff=_is_staff(request)))


class GameRecord(APIView):
    @extend_schema(responses={(200, "text/plain"): str, **ERRORS},
                   summary="Download the game record (engine text format)")
    def get(self, request, game_id: int):
        game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
        try:
            text = selectors.game_record_text(game, staff=_is_staff(request))
        except LookupError as exc:
            return Response({"error": "no-record-writer", "detail": str(exc)}, status=501)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.txt"'
        return response


class GameAnalysisView(APIView):
    @extend_schema(responses={(200, "application/json"): dict, (202, "application/json"): dict, **ERRORS},
                   summary="The post-game analysis of a finished game (every turn judged)",
                   description="409 while the game is in progress, for everyone (staff included): the "
                               "analysis names every rack. 404: no such game, or its variant has no analysis. "
                               "202 with Retry-After while a worker makes it (it is queued by this request "
                               "if it was not yet).")
    def get(self, request, game_id: int):
        from .analysis import analysis_dict

        game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
        found = analysis_dict(game)
        if found is None:
            return Response({"status": "pending", "detail": f"the analysis of game {game.pk} is being made; "
                                                            f"ask again shortly"},
                            status=202, headers={"Retry-After": "5"})
        return Response(found)


class GameAudit(APIView):
    # the POST that runs an audit is limited (scope "audit"); a refusal or an
    # answer from the stored verdict is cheap and is not counted
    audit_scope = "audit"

    @extend_schema(responses={200: VerdictSerializer, **ERRORS}, summary="The latest audit verdict")
    def get(self, request, game_id: int):
        game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
        verdict = selectors.latest_verdict(game)
        if verdict is None:
            return Response({"error": "not-audited", "detail": f"game {game.pk} has not been audited; "
                                                               f"POST to audit it"}, status=404)
        return Response(VerdictSerializer(verdict).data)

    @extend_schema(request=None, responses={200: VerdictSerializer, **ERRORS},
                   summary="Audit the game now (finished games; staff: any game)",
                   description="Staff audit any game and store a new verdict each time. Anyone else "
                               "may ask for a finished game: the stored verdict is answered only while "
                               "it was made from exactly the stream, rows and kept heads there are "
                               "now (a keyed digest of them all); otherwise the game is audited again "
                               "and the new verdict stored. 409 `audit-race` if the game moved on "
                               "during every read (nothing stored).")
    def post(self, request, game_id: int):
        game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
        staff = _is_staff(request)
        if not (game.is_over or staff):
            raise NotVisible(f"game {game.pk} is not over: only staff audit a game in play")
        if not staff:
            stored = verdict_in_force(game)
            if stored is not None:
                return Response(VerdictSerializer(stored).data)
        throttle = ScopedRateThrottle()
        self.throttle_scope = self.audit_scope
        if not throttle.allow_request(request, self):
            self.throttled(request, throttle.wait())
        try:
            verdict = audit_game(game)
        except AuditRace as exc:
            return Response({"error": "audit-race", "detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        fields = ("ok", "events_checked", "first_bad_version", "problem", "head_version", "head_hash",
                  "checkpoint_seq")
        return Response({"game": verdict.game_id, **{f: getattr(verdict, f) for f in fields}})


class ReceiptVerify(APIView):
    """Anyone holding a head receipt (a move's answer, the seat's view, a
    socket frame) asks whether the stream still has that event with that
    hash."""

    throttle_scope = "receipt"

    @extend_schema(request=ReceiptSerializer, responses={200: ReceiptCheckSerializer, **ERRORS},
                   summary="Check a head receipt against the stream",
                   description="200 with `ok: true` when the receipt's event is in the stream with its "
                               "hash; `ok: false` naming the missing tail (`events 34..37 are missing: "
                               "the stream ends at 33`) or the changed event. 400 `bad-receipt` for a "
                               "receipt that is malformed, of another game, or not signed by this "
                               "server.")
    def post(self, request, game_id: int):
        game = get_object_or_404(Game.objects.only("id"), pk=game_id)
        try:
            check = receipts.verify(game.pk, request.data)
        except receipts.BadReceipt as exc:
            raise GameServiceError(str(exc), "bad-receipt") from None
        return Response(ReceiptCheckSerializer(check).data)


class CheckpointLatest(APIView):
    """Staff: the newest checkpoint as a file to keep off the server."""

    @extend_schema(responses={(200, "application/json"): dict, **ERRORS},
                   summary="Staff: download the newest checkpoint of every stream's head")
    def get(self, request):
        if not _is_staff(request):
            raise PermissionDenied("only staff download checkpoints")
        row = Checkpoint.objects.order_by("-seq").first()
        if row is None:
            return Response({"error": "no-checkpoint", "detail": "no checkpoint has been written yet: "
                                                                 "manage.py checkpoint writes one"}, status=404)
        response = HttpResponse(json.dumps(checkpoints.export(row), indent=1), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="checkpoint-{row.seq}.json"'
        response["Cache-Control"] = "no-store"
        return response
