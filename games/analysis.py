"""Post-game analysis of a stored game: the engine's judgement of every turn
(:mod:`engine.analysis`), kept as a rebuildable projection of the stream.

- :func:`analysis_build` (service): analyse a finished game through
  ``engine.registry.analyser_for(game.variant)`` from its stream and store
  the result (:class:`~games.models.GameAnalysisRow`) with the versions
  that made it and the stream head it was made from. Running it again
  gives the same row (the analysis is deterministic).
- :func:`analysis_of` (selector): the stored analysis, built on first
  asking and again when the stream or the engine moved on (the command
  line and the tests; the web asks :func:`analysis_requested`).
- :func:`analysis_requested` (service): the stored analysis, or ``None``
  after queueing it for a worker. With workers, a page or an API request
  never runs the solver itself (a 4-player game takes up to a second or
  more of it); embedded, the process is its own worker and makes it.
- :func:`analysis_page` (selector): what the pages draw of it: each move
  event's mark, the mistakes, the summary per seat with names, the chart;
  ``{"pending": True}`` while a worker makes it.

An analysis names every rack's tiles, so nothing of it exists, or is shown,
before the game ends, to anyone, staff included: every function here
refuses a game in progress (:class:`AnalysisNotReady`, HTTP 409).
The family is never named here: the engine's analyser and its
``GameAnalysis`` carry everything the pages need.
"""

from __future__ import annotations

import logging
from typing import Any

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from . import eventstore as es
from . import outbox
from .errors import GameServiceError
from .models import Event, Game, GameAnalysisRow

TASK = "games.analyse"
# a missing analysis asked for by a page is queued at most once in this
# many seconds a game (a task that failed is asked for again after it)
REQUEST_EVERY = 300
log = logging.getLogger(__name__)


class AnalysisNotReady(GameServiceError):
    """The game is not over: its analysis would show the racks."""

    status = 409
    code = "analysis-not-ready"


class NoAnalysis(GameServiceError):
    """The game's family has no analyser, or its stream cannot be analysed."""

    status = 404
    code = "no-analysis"


def _need_over(game: Game) -> None:
    if not game.is_over:
        raise AnalysisNotReady(f"game {game.pk} is not over: its analysis is shown when it ends")


def _head(game: Game) -> tuple[int, str]:
    row = Event.objects.filter(game=game).order_by("-version").values("version", "hash").first()
    return (row["version"], row["hash"]) if row else (0, "")


def _current_versions() -> tuple[str, str]:
    from engine.analysis import engine_version, solver_version

    return engine_version(), solver_version()


def analysis_build(*, game: Game | int) -> GameAnalysisRow:
    """Analyse finished ``game`` from its stream and store the analysis
    (replacing an older one). Safe to run twice: the same stream gives the
    same row.

    :raises AnalysisNotReady: the game is not over.
    :raises NoAnalysis: no analyser for the variant, or the stream does not
        analyse (the message says why).
    """
    from engine.analysis import AnalysisError
    from engine.registry import analyser_for

    if not isinstance(game, Game):
        game = Game.objects.get(pk=game)
    _need_over(game)
    try:
        analyse = analyser_for(game.variant)
    except (LookupError, ValueError, ImportError, NotImplementedError) as exc:
        raise NoAnalysis(f"the {game.variant} engine has no post-game analysis: {exc}") from None
    from .services import state_from_stream

    version, digest = _head(game)
    try:
        result = analyse(state_from_stream(game, use_snapshots=False))
    except AnalysisError as exc:
        raise NoAnalysis(f"game {game.pk} cannot be analysed: {exc}") from None
    except (AttributeError, TypeError, LookupError) as exc:  # a family that writes no records
        log.warning("game %s: no analysis: %r", game.pk, exc)
        raise NoAnalysis(f"game {game.pk} cannot be analysed: {type(exc).__name__}: {exc}") from None
    with transaction.atomic():
        row, _ = GameAnalysisRow.objects.update_or_create(game=game, defaults={
            "data": result.to_dict(), "engine_version": result.engine_version,
            "solver_version": result.solver_version or "", "head_version": version, "head_hash": digest})
    return row


def _stale(row: GameAnalysisRow, game: Game) -> bool:
    engine, _solver = _current_versions()
    return row.engine_version != engine or (row.head_version, row.head_hash) != _head(game)


def analysis_of(game: Game, *, build: bool = True):
    """The stored analysis of finished ``game`` as an engine
    ``GameAnalysis`` (built now when missing or made from an older stream
    head or engine, unless ``build`` is false: then ``None``).

    :raises AnalysisNotReady: the game is not over (whoever asks).
    :raises NoAnalysis: no analyser for the variant or a stream that does
        not analyse.
    """
    from engine.analysis import GameAnalysis

    _need_over(game)
    row = GameAnalysisRow.objects.filter(game=game).first()
    if row is None or _stale(row, game):
        if not build:
            return None
        row = analysis_build(game=game)
    return GameAnalysis.from_dict(row.data)


def _has_analyser(game: Game) -> bool:
    from engine.registry import analyser_for

    try:
        analyser_for(game.variant)
    except Exception:  # noqa: BLE001 - an unknown variant or a family without analysis
        return False
    return True


def analysis_requested(game: Game):
    """The stored analysis of finished ``game`` (an engine ``GameAnalysis``)
    if it is current, else ``None`` after queueing its making for a worker
    (through the outbox, at most once in :data:`REQUEST_EVERY` seconds a
    game; the task a game's end queued counts). Where tasks run in this
    process (the embedded default, no broker) this process is the worker:
    the analysis is made now and returned.

    :raises AnalysisNotReady: the game is not over.
    :raises NoAnalysis: the variant has no analyser, or (made here) the
        stream does not analyse.
    """
    _need_over(game)
    found = analysis_of(game, build=False)
    if found is not None:
        return found
    if outbox.tasks_run_here():
        return analysis_of(game)
    if not _has_analyser(game):
        raise NoAnalysis(f"the {game.variant} engine has no post-game analysis")
    from .models import OutboxMessage

    recent = OutboxMessage.objects.filter(topic=TASK, game=game,
                                          created_at__gte=timezone.now() - timedelta(seconds=REQUEST_EVERY))
    if not recent.exists():
        with transaction.atomic():
            outbox.enqueue(TASK, [game.pk], game=game, event_version=game.version)
    return None


def analysis_dict(game: Game) -> dict[str, Any] | None:
    """The API's answer: the analysis as JSON with the stream head it was
    made from; ``None`` while a worker makes it (:func:`analysis_requested`).
    :raises AnalysisNotReady, NoAnalysis: as :func:`analysis_requested`."""
    a = analysis_requested(game)
    if a is None:
        return None
    row = GameAnalysisRow.objects.get(game=game)
    return {"game": game.pk, "head": {"version": row.head_version, "hash": row.head_hash}, **a.to_dict()}


def move_versions(game: Game) -> list[int]:
    """The event version of each move of the game's record, in order: the
    record's move ``n`` (an analysis's ``turn``) is event ``move_versions[n-1]``."""
    return [e.version for e in es.load(game.pk) if e.type == es.MOVE_RECORDED]


def analysis_page(game: Game, names: dict[int, str]) -> dict[str, Any] | None:
    """What the game page shows of a finished game's analysis, or ``None``
    where there is none (no analyser, a stream that does not analyse), or
    ``{"pending": True}`` while a worker makes it (:func:`analysis_requested`).

    ``{"marks": {version: turn}, "turns": [...], "mistakes": [versions],
    "summary": [...], "chart": svg, "series_kind"}``: every event of a
    judged turn maps to that turn (``mark``, ``best``, ``reasons`` in the
    active language (:func:`games.analysis_words.reason_text`), ``seat``,
    ``name``, ``first`` the turn's first event).

    :raises AnalysisNotReady: the game is not over.
    """
    from .analysis_chart import series_chart
    from .analysis_words import reason_text

    try:
        a = analysis_requested(game)
    except NoAnalysis:
        return None
    if a is None:
        return {"pending": True, "marks": {}, "mistakes": []}
    versions = move_versions(game)
    turns, marks = [], {}
    for t in a.turns:
        span = versions[t.turn - 1:t.turn - 1 + max(1, t.moves)]
        if not span:
            continue
        item = {"first": span[0], "last": span[-1], "seat": t.seat, "name": names.get(t.seat, f"seat {t.seat}"),
                "mark": t.mark, "played": t.played, "best": t.best,
                "reasons": [reason_text(r) for r in t.reasons]}
        turns.append(item)
        for v in span:
            marks[v] = item
    summary = [{**s, "name": names.get(s["seat"], f"seat {s['seat']}"), "percent": round(100 * s["accuracy"], 1)}
               for s in a.summary()]
    series = [[(versions[turn - 1] if 0 < turn <= len(versions) else turn, value) for turn, value in s]
              for s in a.series]
    return {"marks": marks, "turns": turns, "summary": summary, "series_kind": a.series_kind,
            "mistakes": [t["first"] for t in turns if t["mark"] != "best"],
            "chart": series_chart(series, [names.get(i, f"seat {i}") for i in range(a.players)],
                                  a.series_kind, last=versions[-1] if versions else 1),
            "engine_version": a.engine_version}


@outbox.on_events
def analysis_queue(game: Game, events):
    """Outbox handler: a stream that finished queues its analysis."""
    if any(e.type == es.GAME_FINISHED for e in events):
        yield outbox.Message(TASK, [game.pk])


def better_view(game: Game, item: dict[str, Any] | None) -> dict[str, Any] | None:
    """The public view of the table had the judged turn ``item`` (of
    :func:`analysis_page`) made its better play: the position before the
    turn rebuilt from the stream, the better play's moves pushed on it.
    ``None`` when the turn has no better play or it does not replay (a
    family whose better play is not a move of its notation).

    :raises AnalysisNotReady: the game is not over.
    """
    from engine.errors import EngineError

    from .replay import ReplayError, rebuild
    from .services import _seed

    _need_over(game)
    if not item or not item.get("best"):
        return None
    events = es.load(game.pk)
    try:
        state = rebuild([e for e in events if e.version < item["first"]], seed=_seed(game, events)).state
        for text in item["best"].split(" ; "):
            state.push(state.parse_move(text))
    except (ValueError, EngineError, ReplayError, LookupError):
        return None
    return state.view(None)


def mistake_nav(review: dict[str, Any] | None, version: int) -> dict[str, int | None]:
    """The first event of the previous and the next mistake around event
    ``version`` (what ``p`` and ``n`` jump to), ``None`` where there is none."""
    if not review:
        return {"prev": None, "next": None}
    current = review["marks"].get(version, {}).get("first", version)
    before = [v for v in review["mistakes"] if v < current]
    after = [v for v in review["mistakes"] if v > current]
    return {"prev": before[-1] if before else None, "next": after[0] if after else None}
