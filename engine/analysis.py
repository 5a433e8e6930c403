"""Post-game analysis: every turn of a finished game judged by the engine,
as a chess site's analysis board marks every move.

This module holds what the families share; each family judges its own
turns in ``engine/<family>/analysis.py`` (a module-level ``analyse``), found
through :func:`engine.registry.analyser_for`. What is judged, and the
thresholds of the marks, are in ``docs/analysis.md``.

- :class:`Reason`: why a turn was marked, a short code and a sentence.
- :class:`TurnJudgement`: one turn (the moves one seat made in a row, or a
  buy): the play made and the best play found, both in the family's
  notation; the mark (``"best"``, ``"inaccuracy"``, ``"miss"``); figures.
- :class:`GameAnalysis`: every turn, a summary per seat (accuracy = what
  was placed over what could have been, misses, inaccuracies) and one
  series per seat for a chart (tiles left, distance to win or points in
  hand after each of its turns), with the versions that made it.
  ``to_dict`` / ``from_dict`` round-trip through JSON.
- :func:`load_game`: the start of a game and its moves, from a record (text
  or :class:`engine.records.GameRecord`) or a game that writes one.

An analysis sees every rack: it is made only of a finished game (the caller
never shows it earlier) and is deterministic: the same game gives the same
analysis, on any machine (the solver's answers never depend on it).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import EngineError

#: bumped whenever a family's judging changes what an analysis says (2: the
#: reasons carry their ``params``)
ANALYSIS_VERSION = 2
MARKS = ("best", "inaccuracy", "miss")
SERIES_KINDS = ("tiles_left", "distance_to_win", "points_in_hand")


class AnalysisError(EngineError, ValueError):
    """A game that cannot be analysed: not over, or a record that does not
    replay (the message says which)."""


@lru_cache(maxsize=None)
def engine_version() -> str:
    """The installed tablekeeper version, with the analysis version."""
    try:
        from importlib.metadata import version

        pkg = version("tablekeeper")
    except Exception:  # pragma: no cover - run from a tree not installed
        pkg = "0"
    return f"tablekeeper {pkg}, analysis {ANALYSIS_VERSION}"


@lru_cache(maxsize=None)
def solver_version() -> str:
    """The solver's programme: the digest of its sources (every module of
    ``engine/solver``; the compiled build runs the same ``dp.py``, so
    answers do not depend on it) and what its bound runs on (the simplex
    in C with the digest of ``_lp.c``, or which HiGHS), whose relaxation
    can choose between plays of the same tiles and value
    (:func:`engine.solver.bound.backend`)."""
    from .solver import bound

    digest = hashlib.sha256()
    for src in sorted((Path(__file__).resolve().parent / "solver").glob("*.py")):
        digest.update(src.name.encode() + b"\0" + src.read_bytes())
    return f"solver sha256:{digest.hexdigest()[:16]}, LP {bound.backend()}"


@dataclass(frozen=True)
class Reason:
    """Why a turn is marked: ``code`` for programs (``"could-go-out"``),
    ``text`` for people (in English), the mark it gives (``"miss"`` or
    ``"inaccuracy"``), and ``params``: the values the sentence names (counts,
    tiles or cards and moves in the family's notation, JSON-safe), by name,
    so that a page can say the same sentence in its reader's language.
    What each name means, by code, is in ``docs/analysis.md``: a name
    ending in ``tiles`` is a count of tiles (said ``1 tile``, ``3 tiles``:
    :func:`tiles`), ``did`` what a turn did instead (:data:`DID`)."""

    code: str
    text: str
    mark: str = "inaccuracy"
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "text": self.text, "mark": self.mark, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Reason":
        """The reason back from :meth:`to_dict`; a dict stored before the
        reasons had params gives empty ``params``."""
        return cls(d["code"], d["text"], d.get("mark", "inaccuracy"), dict(d.get("params") or {}))


def tiles(n: int) -> str:
    """``1 tile``, ``3 tiles``: a count of tiles in a reason's words."""
    return f"{n} tile" if n == 1 else f"{n} tiles"


#: what a turn did instead of a better play (a reason's ``did`` param), in words
DID = {"draw": "drew", "pass": "passed", "timeout": "ran out of time",
       "penalty": "took a penalty", "play": "played"}


def miss(code: str, text: str, **params) -> Reason:
    return Reason(code, text, "miss", params)


def inaccuracy(code: str, text: str, **params) -> Reason:
    return Reason(code, text, "inaccuracy", params)


def mark_of(reasons) -> str:
    """The worst mark among ``reasons``; ``"best"`` when there is none."""
    marks = {r.mark for r in reasons}
    return "miss" if "miss" in marks else "inaccuracy" if marks else "best"


@dataclass(frozen=True)
class TurnJudgement:
    """One turn judged.

    - ``turn``: the number of the turn's first move in the game's record
      (1-based, the record's move lines); ``moves`` how many move lines it
      spans (a draw-lay-discard turn is several).
    - ``seat``: who moved; ``played``: the moves made, in the family's
      notation (several joined by ``" ; "``); ``best``: the best play found,
      in the same notation, or ``None`` where nothing better was found.
    - ``mark``: ``"best"``, ``"inaccuracy"`` or ``"miss"``; ``reasons``.
    - ``placed`` / ``possible``: what the turn put down (tiles, cards, steps
      towards a win) and what the best play would have; a seat's accuracy
      sums them over the game.
    - ``figures``: JSON-safe numbers of the turn (``tiles_left``,
      ``value_left``, ``distance_to_win``, ``points_in_hand``, ``hand`` ...).
    """

    turn: int
    seat: int
    played: str
    best: str | None
    mark: str
    reasons: tuple[Reason, ...] = ()
    placed: int = 0
    possible: int = 0
    moves: int = 1
    figures: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if self.mark not in MARKS:
            raise ValueError(f"a mark is one of {', '.join(MARKS)}, not {self.mark!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "moves": self.moves, "seat": self.seat,
                "played": self.played, "best": self.best, "mark": self.mark,
                "reasons": [r.to_dict() for r in self.reasons],
                "placed": self.placed, "possible": self.possible,
                "figures": dict(self.figures)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TurnJudgement":
        return cls(turn=d["turn"], seat=d["seat"], played=d["played"], best=d.get("best"),
                   mark=d["mark"], reasons=tuple(Reason.from_dict(r) for r in d.get("reasons", ())),
                   placed=d.get("placed", 0), possible=d.get("possible", 0),
                   moves=d.get("moves", 1), figures=dict(d.get("figures", {})))


def judged(turn: int, seat: int, played: str, best: str | None, reasons, *, placed: int = 0,
           possible: int = 0, moves: int = 1, figures: dict | None = None) -> TurnJudgement:
    """A :class:`TurnJudgement` whose mark follows from its reasons; the best
    play is kept only where the turn is marked."""
    reasons = tuple(reasons)
    mark = mark_of(reasons)
    return TurnJudgement(turn, seat, played, best if mark != "best" else None, mark, reasons,
                         placed, max(placed, possible), moves, dict(figures or {}))


@dataclass(frozen=True)
class GameAnalysis:
    """A finished game's analysis (see the module docstring).

    ``series[seat]`` is a list of ``(turn, value)`` after each of that
    seat's turns, of the kind ``series_kind`` names.
    """

    family: str
    variant: str
    players: int
    turns: tuple[TurnJudgement, ...]
    series_kind: str
    series: tuple[tuple[tuple[int, int], ...], ...]
    engine_version: str
    solver_version: str | None = None

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: turns judged, best, inaccuracies, misses, placed,
        possible and accuracy (placed / possible, 1.0 when nothing could
        have been placed), rounded to 4 places."""
        out = []
        for seat in range(self.players):
            mine = [t for t in self.turns if t.seat == seat]
            placed = sum(t.placed for t in mine)
            possible = sum(t.possible for t in mine)
            out.append({
                "seat": seat, "turns": len(mine),
                "best": sum(1 for t in mine if t.mark == "best"),
                "inaccuracies": sum(1 for t in mine if t.mark == "inaccuracy"),
                "misses": sum(1 for t in mine if t.mark == "miss"),
                "placed": placed, "possible": possible,
                "accuracy": round(placed / possible, 4) if possible else 1.0,
            })
        return out

    def mistakes(self) -> list[TurnJudgement]:
        """The turns not marked best, in order (what ``n``/``p`` step to)."""
        return [t for t in self.turns if t.mark != "best"]

    def to_dict(self) -> dict[str, Any]:
        return {"family": self.family, "variant": self.variant, "players": self.players,
                "engine_version": self.engine_version, "solver_version": self.solver_version,
                "series_kind": self.series_kind,
                "series": [[list(p) for p in s] for s in self.series],
                "summary": self.summary(),
                "turns": [t.to_dict() for t in self.turns]}

    def to_json(self) -> str:
        """Canonical JSON text (sorted keys): equal analyses give equal text."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GameAnalysis":
        """The analysis back from :meth:`to_dict` (the summary is derived).

        :raises AnalysisError: a dict that is not an analysis.
        """
        try:
            return cls(family=d["family"], variant=d["variant"], players=int(d["players"]),
                       turns=tuple(TurnJudgement.from_dict(t) for t in d["turns"]),
                       series_kind=d["series_kind"],
                       series=tuple(tuple((int(a), int(b)) for a, b in s) for s in d["series"]),
                       engine_version=d["engine_version"], solver_version=d.get("solver_version"))
        except (KeyError, TypeError, ValueError) as exc:
            raise AnalysisError(f"not an analysis: {exc!r}") from None


class SeriesBuilder:
    """Collects ``(turn, value)`` per seat for :attr:`GameAnalysis.series`."""

    def __init__(self, players: int):
        self.points: list[list[tuple[int, int]]] = [[] for _ in range(players)]

    def add(self, seat: int, turn: int, value: int) -> None:
        self.points[seat].append((turn, int(value)))

    def freeze(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        return tuple(tuple(s) for s in self.points)


def load_game(source):
    """The fresh start of ``source`` and its moves: ``(game, moves)``, each
    move ``(turn, text)`` with the seat written in front of it taken off
    where the family's notation does not name the seat.

    ``source``: a record as text, a :class:`engine.records.GameRecord`, or
    a game that writes records (``setup_tags()`` and ``move_stack``; one
    started from a seed or a typed-in deal).

    :raises AnalysisError: the game is not over, or the record cannot be
        read or started.
    """
    from .errors import RecordError
    from .records import GameRecord, read_record, record_from_game, split_seat, start_game

    try:
        if isinstance(source, str):
            rec = read_record(source)
        elif isinstance(source, GameRecord):
            rec = source
        else:
            if not getattr(source, "is_over", False):
                raise AnalysisError("the game is not over: only a finished game is analysed")
            rec = record_from_game(source, comments=False)
        game = start_game(rec)
    except RecordError as exc:
        raise AnalysisError(f"cannot read the game: {exc}") from None
    named = getattr(game, "moves_name_seat", False)
    moves = []
    for i, (text, _, _) in enumerate(rec.moves, 1):
        moves.append((i, text if named else split_seat(text)[1]))
    return game, moves


def parse_checked(game, text: str, turn: int):
    """A move of the game being analysed, read in its notation.

    :raises AnalysisError: the move does not parse, or the game is over.
    """
    if game.is_over:
        raise AnalysisError(f"turn {turn} ({text!r}) comes after the end of the game")
    try:
        return game.parse_move(text)
    except (ValueError, EngineError) as exc:
        raise AnalysisError(f"turn {turn} ({text!r}) does not replay: {exc}") from None


def push_checked(game, move, turn: int):
    """Push a move of the game being analysed; its outcome.

    :raises AnalysisError: the move is illegal (the record does not replay).
    """
    try:
        return game.push(move)
    except (ValueError, EngineError) as exc:
        raise AnalysisError(f"turn {turn} ({move}) does not replay: {exc}") from None


def need_over(game) -> None:
    """:raises AnalysisError: the replayed game is not over."""
    if not game.is_over:
        raise AnalysisError("the game is not over: only a finished game is analysed")
