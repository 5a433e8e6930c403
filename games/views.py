"""Public pages: the list of games, one game drawn with its replay, and a
seat's page to play in the browser.

The pages read through :mod:`games.selectors` and write through one
:mod:`games.services` function each; what a reader may see is decided here:
racks and hands only once the game is over or to staff, a seat's own rack
on its seat page, the pool's order never.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import ai_seats, next_game, seat_session, selectors, services
from .clock import turn_clock
from .analysis import analysis_page, better_view, mistake_nav
from .errors import ConcurrencyConflict, GameServiceError
from .models import Game, Seat
from .refusals import refusal_text
from .replay import ReplayError
from .words import sentence

# ------------------------------------------------------------------ drawing
def draw_board(view: dict[str, Any], racks: list[list[str]] | None, seats: list[dict[str, Any]],
               own_seat: int | None = None) -> dict[str, Any]:
    """The drawing of an engine view: melds as rows of chips, one line per
    seat (rack when known, else its count), the pool count, whose turn and
    the scores. The family's description (:meth:`engine.family.Family.draw`)
    turns its view into chips; ``board`` is what the templates read of it
    (:class:`engine.family.Board`). A family the engine does not know is
    shown as its raw view."""
    from engine.registry import family_for

    try:
        family = family_for(view.get("family"))
    except ValueError:
        return {"known": False, "raw": view}
    drawn = family.draw(view)
    counts = drawn.counts
    if racks is None and view.get("racks") is not None:  # the engine shows every rack once over
        racks = view["racks"]
    if racks is None and own_seat is not None:
        own = view.get("rack", view.get("my_hand", view.get("my_rack")))
        racks = [own if i == own_seat else None for i in range(len(counts))]
    scores = view.get("scores") if view.get("is_over") else None
    totals = view.get("totals") or view.get("points")
    owners = drawn.owners or [None] * len(drawn.melds)
    names = {s["index"]: s["name"] for s in seats}
    flags, piles = drawn.flags, drawn.piles
    rows = []
    for i, count in enumerate(counts):
        hand = racks[i] if racks is not None and i < len(racks) else None
        rows.append({
            "index": i, "name": names.get(i, f"seat {i}"), "count": count,
            "tiles": [drawn.chip(t) for t in hand] if hand is not None else None,
            "to_move": view.get("to_move") == i, "own": own_seat == i,
            "flag": drawn.flag_text if i < len(flags) and flags[i] else "",
            "score": scores[i] if scores and i < len(scores) else None,
            "total": totals[i] if totals and i < len(totals) else None,
            "pile": piles[i] if piles is not None and i < len(piles) else None,
        })
    return {
        "known": True, "family": family.name, "board": family.board, "facts": drawn.facts,
        "melds": [{"chips": chips, "owner": names.get(owner, owner) if owner is not None else None}
                  for chips, owner in zip(drawn.melds, owners)],
        "seats": rows, "pool": drawn.pool, "to_move": view.get("to_move"),
        "to_move_name": names.get(view.get("to_move"), ""), "turn": view.get("turn"),
        "is_over": view.get("is_over"), "winners": [names.get(w, w) for w in view.get("winners", [])],
        "end_reason": view.get("end_reason", ""), "phase": view.get("phase"),
        "points": view.get("points"),
    }


def _is_staff(request) -> bool:
    return bool(getattr(request.user, "is_staff", False))


# -------------------------------------------------------------------- pages
def game_list(request):
    """Every game; the open games started from the start screen, found by
    name, each joined with one click; the games this browser holds a seat
    in; and "Play the computer" (:func:`game_practice`)."""
    from .lobby import practice_choices

    name = request.GET.get("name", "").strip()[:200]
    games = selectors.game_list()[:100]
    held = seat_session.held_games(request)
    return render(request, "games/game_list.html", {
        "games": games, "name": name,
        "open_games": [{"game": g, "open": [s for s in g.seats.all() if s.kind == Seat.Kind.HUMAN and not s.is_taken],
                        "seated": [s.name for s in g.seats.all() if s.is_taken or s.kind == Seat.Kind.AI]}
                       for g in selectors.open_games(name=name)[:50]],
        "mine": Game.objects.defer("state").filter(pk__in=held).order_by("-pk") if held else [],
        "practice": practice_choices(),
    })


@require_POST
def game_join(request, game_id: int):
    """Join an open game by its name in the list: the first open seat for a
    person goes to this browser, which lands on the seat page."""
    game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
    name = request.POST.get("name", "").strip()
    if not name:
        return render(request, "games/message.html", {"game": game, "message": _("Type your name to join.")},
                      status=400)
    seat = game.seats.filter(kind=Seat.Kind.HUMAN, token_hash="").order_by("index").first()
    if seat is None or game.is_over:
        return render(request, "games/message.html", {
            "game": game, "message": _("This game has no open seat left: someone took the last one.")
            if not game.is_over else _("This game is over.")}, status=409)
    try:
        token = services.seat_take(game=game, index=seat.index, name=name, user=request.user)
    except GameServiceError as exc:
        return render(request, "games/message.html", {"game": game, "message": _seat_refusal(exc)},
                      status=exc.status)
    seat_session.enter(request, token)
    return _private(redirect("games:play", game_id=game.pk))


def _seat_refusal(exc: GameServiceError) -> str:
    """A seat service's refusal in the reader's language, for the pages (the
    API answers with the service's own sentence and its code)."""
    sentences = {
        "seat-taken": _("This seat was taken meanwhile: choose another."),
        "seat-not-open": _("This seat cannot be taken: the computer plays it, or the game is over."),
        "bad-name": _("A name has at most 120 characters."),
        "bad-seat": _("This game has no such seat."),
    }
    return sentences.get(exc.code, str(exc))


def game_detail(request, game_id: int):
    """A game drawn after event ``?at=N`` (default: the latest) with replay
    links; racks only when the game is over or to staff.

    :raises Http404: no such game, or no event ``N``.
    """
    game = get_object_or_404(Game, pk=game_id)
    raw_at = request.GET.get("at")
    at = None
    if raw_at not in (None, ""):
        try:
            at = int(raw_at)
        except ValueError:
            return render(request, "games/message.html", {
                "game": game, "message": _("“at” must be an event number, not %(value)s.") % {"value": repr(raw_at)}},
                status=400)
    staff = _is_staff(request)
    hidden = game.is_over or staff
    try:
        board = selectors.game_board(game, at=at, hidden=hidden)
    except ReplayError as exc:
        return render(request, "games/message.html", {
            "game": game, "message": _("This game's stream does not replay (%(error)s); the audit names the bad "
                                       "event.") % {"error": exc}},
            status=500)
    except ValueError as exc:
        raise Http404(str(exc)) from None
    summary = selectors.game_summary(game)
    names = {s["index"]: s["name"] for s in summary["seats"]}
    version, last = board["version"], board["last_version"]
    nav = {"first": 1, "prev": max(1, version - 1), "next": min(last, version + 1), "last": last,
           "at_start": version <= 1, "at_end": version >= last}
    clock = turn_clock(game)
    if clock:
        clock["name"] = names.get(clock["seat"], f"seat {clock['seat']}")
    # the post-game analysis: only once the game is over, whoever reads
    review = analysis_page(game, names) if game.is_over else None
    judged = review["marks"].get(version) if review else None
    better = better_view(game, judged) if judged else None
    response = render(request, "games/game_detail.html", {
        "game": game, "summary": summary, "board": board, "analysis": review,
        "judged": judged, "mistake": mistake_nav(review, version),
        "better": draw_board(better, None, summary["seats"]) if better else None,
        "drawing": draw_board(board["view"], board["racks"], summary["seats"]),
        "nav": nav, "hidden_shown": hidden, "staff": staff, "clock": clock,
        "moves": [{**m, "name": names.get(m["seat"], ""), "words": sentence(m["said"], names.get(m["seat"], "")),
                   "mark": review["marks"][m["version"]]["mark"] if review and m["version"] in review["marks"] else ""}
                  for m in board["moves"]],
        "open_seats": [s for s in summary["seats"] if not s["taken"] and s["kind"] == Seat.Kind.HUMAN]
        if not game.is_over else [],
        "verdict": selectors.latest_verdict(game),
        "head": selectors.stream_head(game),
        "events": selectors.game_events(game, staff=staff) if hidden else None,
    })
    return _private(response) if staff else response  # staff see the racks of a game in play


def _private(response):
    """A seat's page: never cached, never named in a Referer to another site."""
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
    return response


@require_POST
def seat_take(request, game_id: int, index: int):
    """Take an open seat from the game page: the seat goes into this
    browser's session (:mod:`games.seat_session`) and the answer leads to
    the seat page, whose address holds no credential."""
    game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
    name = request.POST.get("name", "").strip()
    try:
        token = services.seat_take(game=game, index=index, name=name, user=request.user)
    except GameServiceError as exc:
        return render(request, "games/message.html", {"game": game, "message": _seat_refusal(exc)},
                      status=exc.status)
    seat_session.enter(request, token)
    return _private(redirect("games:play", game_id=game.pk))


def play_enter(request):
    """The seat link's landing page. A link ``/games/play/#<token>`` keeps
    the credential in the fragment, which browsers never send: the page's
    script posts it here (CSRF-checked), and a person can paste it into the
    form. The credential is exchanged for the session and the answer leads
    to the clean seat page. Only a POST exchanges: the GET forms that once
    did (``?token=``, ``/games/play/<token>/``) put the credential in access
    logs and let another site put its own seat into a visitor's session."""
    if request.method != "POST":
        return _private(render(request, "games/play_enter.html", {}))
    token = request.POST.get("token", "").strip()
    seat = seat_session.enter(request, token) if token else None
    if seat is None:
        message = _("unknown seat credential: paste the token the API gave you") if token else \
            _("paste your seat credential")
        return _private(render(request, "games/play_enter.html", {"message": message}, status=400))
    return _private(redirect("games:play", game_id=seat.game_id))


def play(request, game_id: int):
    """The seat page: own rack, the table, the others' counts, whose turn and
    the version, and a form that records a move at that version through
    :func:`games.services.game_record_move`; a refused move (notation,
    rules, stale version, not this seat's turn) is shown and nothing stored.
    The seat is the one this session holds in the game (or the signed-in
    user's); without one the page says how to get in (403).
    """
    seat = seat_session.seat_in_session(request, game_id)
    if seat is None:
        get_object_or_404(Game.objects.only("id"), pk=game_id)
        return _private(render(request, "games/play_enter.html", {
            "message": _("this browser holds no seat in game %(game)s: open your seat link, "
                         "or take an open seat on the game's page") % {"game": game_id}}, status=403))
    game = seat.game
    error = error_code = ""
    move = ""
    status = 200
    if request.method == "POST":
        move = request.POST.get("move", "")
        try:
            expected = int(request.POST.get("expected_version", ""))
        except ValueError:
            error = _("the form must send the version you saw (expected_version)")
            status = 400
        else:
            try:
                result = services.game_record_move(game=game.pk, move=move, expected_version=expected,
                                                   seat=seat.index, actor=f"seat:{seat.index}")
            except ConcurrencyConflict as exc:
                error, error_code, status = _("game %(game)s is no longer at version %(seen)s: reload and try "
                                              "again") % {"game": game.pk, "seen": exc.expected}, "", 409
            except GameServiceError as exc:
                # the engine's rule code, its sentence from the catalogue (games/refusals.py)
                error_code = getattr(exc, "code", "")
                error, status = refusal_text(error_code, str(exc)), exc.status
            else:
                url = reverse("games:play", kwargs={"game_id": game.pk})
                return _private(redirect(f"{url}?moved={result.version}"))
        game = Game.objects.get(pk=game.pk)
    elif ai_seats.nudge_if_due(game):  # embedded mode: an AI seat's buy window has passed
        game = Game.objects.get(pk=game.pk)
    view = selectors.game_view(game, seat.index)
    summary = selectors.game_summary(game)
    moved = request.GET.get("moved", "")
    names = {s["index"]: s["name"] for s in summary["seats"]}
    my_turn = game.to_move == seat.index or bool(view["view"].get("may_act"))
    table = None
    drawing = draw_board(view["view"], None, summary["seats"], own_seat=seat.index)
    board = drawing.get("board")
    if board is not None and board.script and not game.is_over:
        # the browser table of the family (static/games/table/), built on parts.js
        table = {"game": game.pk, "seat": seat.index, "version": view["version"], "view": view["view"],
                 "my_turn": game.to_move == seat.index, "csrf": get_token(request),
                 "names": [names.get(i, f"seat {i}") for i in range(game.players)],
                 "family": drawing["family"], "script": board.script, "global": board.script_global,
                 "clock": view["clock"],
                 "urls": {"move": reverse("games-api:game-moves", kwargs={"game_id": game.pk}),
                          "timeout": reverse("games-api:game-timeout", kwargs={"game_id": game.pk}),
                          "compose": reverse("games-api:game-compose", kwargs={"game_id": game.pk}),
                          "view": reverse("games-api:game-view", kwargs={"game_id": game.pk}) + "?recent=1"}}
    return _private(render(request, "games/play.html", {
        "game": game, "seat": seat, "version": view["version"], "table": table,
        "drawing": drawing,
        "recent": [{**m, "name": names.get(m["seat"], ""), "words": sentence(m["said"], names.get(m["seat"], ""))}
                   for m in selectors.recent_moves(game)],
        "error": error, "error_code": error_code, "move": move, "moved": moved if moved.isdigit() else "",
        "my_turn": my_turn, "receipt": view["receipt"],
        "names": [names.get(i, "") for i in range(game.players)],
        "next_kind": next_game.next_game_kind(game), "next_game": game.next_game_id,
    }, status=status))


@require_POST
def game_next(request, game_id: int):
    """"Play again" (or "Next game of the round") on a finished game's seat
    page: the first seat to ask makes the next game
    (:func:`games.next_game.game_next`); every seat that asks takes its own
    seat there (same index, same name), and lands on its seat page."""
    seat = seat_session.seat_in_session(request, game_id)
    if seat is None:
        get_object_or_404(Game.objects.only("id"), pk=game_id)
        return _private(render(request, "games/play_enter.html", {
            "message": _("This browser holds no seat in this game.")}, status=403))
    try:
        new = next_game.game_next(game=seat.game, actor=f"seat:{seat.index}")
    except GameServiceError as exc:
        return render(request, "games/message.html", {"game": seat.game, "message": _(
            "This game is still in play: finish it first.") if exc.code == "not-over" else str(exc)},
            status=exc.status)
    if new is None:
        return render(request, "games/message.html", {"game": seat.game, "message": _(
            "This was the round's last game at this table.")}, status=409)
    if seat_session.seat_in_session(request, new.pk) is None:
        try:
            token = services.seat_take(game=new, index=seat.index, name=seat.name, user=request.user)
        except GameServiceError as exc:
            return render(request, "games/message.html", {"game": new, "message": _seat_refusal(exc)},
                          status=exc.status)
        seat_session.enter(request, token)
    return _private(redirect("games:play", game_id=new.pk))


@require_POST
def game_practice(request):
    """"Play the computer" from the games list: one choice (the game and the
    computer's level) and the button; the other seats are the computer's,
    this browser holds seat 0 and lands on its seat page."""
    from .lobby import practice_game

    try:
        kwargs = practice_game(request.POST.get("choice", ""), request.POST.get("name", ""))
        game = services.game_create(actor="lobby", **kwargs)
    except (ValueError, GameServiceError) as exc:
        return render(request, "games/message.html", {"message": str(exc)}, status=400)
    token = services.seat_take(game=game, index=0, user=request.user)
    seat_session.enter(request, token)
    return _private(redirect("games:play", game_id=game.pk))


def game_new(request):
    """The start screen (:mod:`games.lobby`): a new game with its rule
    options, you in seat 0 (this browser holds it), then the seat page."""
    from .lobby import NewGameForm

    variant = (request.POST.get("variant") if request.method == "POST" else request.GET.get("variant")) or "sabra"
    if request.method == "POST":
        form = NewGameForm(request.POST, variant=variant)
        if form.is_valid():
            data = form.cleaned_data
            try:
                game = services.game_create(variant=form.variant_cls.variant, players=data["players"],
                                            rules=data["rules"], seats=data["seats"], title=data["title"],
                                            actor="lobby")
            except GameServiceError as exc:
                form.rule_error(str(exc))
            else:
                token = services.seat_take(game=game, index=0, user=request.user)
                seat_session.enter(request, token)
                return _private(redirect("games:play", game_id=game.pk))
        status = 400
    else:
        form = NewGameForm(variant=variant)
        status = 200
    return render(request, "games/new.html", {"form": form}, status=status)
