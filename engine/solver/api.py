"""The solver's public functions (see :mod:`engine.solver`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..errors import EngineError
from ..melds import canonical, meld_kind, meld_tiles, slot_tile
from ..tiles import JOKER, STANDARD, TILES, TileSet, counts_of, parse_tiles, tileset as _tileset
from . import core, dp


class SolverError(EngineError, ValueError):
    """A position the solver cannot answer: the table does not divide into
    valid melds, or the table as laid out breaks the rules asked for."""


@dataclass(frozen=True)
class Solution:
    """An optimal play and a witness arrangement.

    ``play`` lists the rack tiles placed (canonical order); ``melds`` divides
    table + play into valid melds (:mod:`engine.melds` slot tuples, each run
    ascending with every joker in the place of the tile it stands for);
    ``moved`` is the number of table tiles that left their meld (only
    computed when ``table_melds`` are given).
    """

    tiles_placed: int
    value_placed: int
    play: list = field(default_factory=list)
    melds: list = field(default_factory=list)
    moved: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The contract's output object (jokers written ``J``)."""
        out = {
            "tiles_placed": self.tiles_placed,
            "value_placed": self.value_placed,
            "play": [str(t) for t in self.play],
            "melds": [[str(TILES[slot_tile(s)]) for s in m] for m in self.melds],
        }
        if self.moved is not None:
            out["moved"] = self.moved
        return out


def _tiles(value, what: str) -> list[int]:
    if value is None:
        return []
    try:
        return [int(t) for t in parse_tiles(value)]
    except ValueError as exc:
        raise type(exc)(f"{what}: {exc}") from None


def _resolve_tileset(ts) -> TileSet:
    if isinstance(ts, TileSet):
        return ts
    return _tileset(ts or "standard")


def initial_meld_threshold(rules) -> int:
    """The initial-meld threshold of a rule set (an object with an
    ``initial_meld`` attribute or a dict with that key); 30 by default."""
    if rules is None:
        return 30
    for name in ("initial_meld", "initial_meld_points", "initial_meld_threshold"):
        if isinstance(rules, dict):
            if name in rules:
                return int(rules[name])
        elif hasattr(rules, name):
            return int(getattr(rules, name))
    return 30


def _split(tiles: list[int]) -> tuple[list[int], int]:
    c = counts_of(tiles)
    return c[:52], c[JOKER]


def divide(tiles, *, tileset="standard") -> list[tuple] | None:
    """A division of ``tiles`` into valid groups and runs, or ``None`` if
    there is none (the dispute "was the table valid").

    :param tiles: tokens (``"R1 R2 R3"`` or a list) or tile codes.
    :returns: melds as :mod:`engine.melds` slot tuples, or ``None``.
    :raises NotationError: an unknown tile or more copies than the set has.
    """
    ts = _resolve_tileset(tileset)
    t = _tiles(tiles, "tiles")
    ts.check(t)
    counts, jokers = _split(t)
    if not t:
        return []
    plan = dp.feasible(counts, [0] * 52, jokers, 0)
    if plan is None:
        return None
    melds, _ = core.build_melds(plan, counts, [0] * 52)
    return melds


def solve(table, rack, initial_meld_done: bool = True, *, rules=None,
          tileset="standard", table_melds=None,
          fewest_moves: bool = False) -> Solution:
    """The best play from ``rack`` onto ``table``.

    By default the table is a multiset that may be rearranged freely (seed
    000): the answer places the most rack tiles so that table + play divides
    into valid melds, and among those the most value (face values, a joker
    30). Before the initial meld (``initial_meld_done=False``) the tiles
    played must form melds by themselves worth at least the threshold (30, or
    the rule set's ``initial_meld``; a joker counts as the tile it stands
    for) and the table stays as it is; if no such play exists the answer is
    the empty play.

    :param table: the table's tiles (tokens or codes).
    :param rack: the rack's tiles.
    :param rules: a rule set or dict; ``initial_meld`` is read from it.
    :param tileset: ``"standard"``, ``"xp"`` or a :class:`TileSet`.
    :param table_melds: the table as laid out (melds as lists of tokens, or
        slot tuples); needed for ``fewest_moves``.
    :param fewest_moves: among the best plays, one that moves the fewest
        table tiles out of their melds.
    :raises NotationError: an unknown tile, or more copies than the set has.
    :raises SolverError: the table does not divide into valid melds.
    """
    ts = _resolve_tileset(tileset)
    tab = _tiles(table, "table")
    rk = _tiles(rack, "rack")
    ts.check(tab + rk)
    tcounts, jt = _split(tab)
    rcounts, jr = _split(rk)
    zero = [0] * 52
    if initial_meld_done:
        if tab and dp.feasible(tcounts, zero, jt, 0) is None:
            raise SolverError("the table cannot be divided into valid melds")
        cand = core.useful_rack(tcounts, rcounts, jt + jr)
        plan = core.best_plan(tcounts, cand, jt, jr)
        assert plan is not None
        melds, used = core.build_melds(plan, tcounts, cand)
        jokers_played = plan.jokers_used - jt
    else:
        table_arrangement = divide(tab, tileset=ts)
        if table_arrangement is None:
            raise SolverError("the table cannot be divided into valid melds")
        threshold = initial_meld_threshold(rules)
        cand = core.useful_rack(zero, rcounts, jr)
        plan = core.best_plan(zero, cand, 0, jr, threshold=threshold)
        if plan is None or plan.score == 0:
            return Solution(0, 0, [], list(table_arrangement))
        melds, used = core.build_melds(plan, zero, cand)
        jokers_played = plan.jokers_used
        melds = list(table_arrangement) + melds
    play = []
    for code in range(52):
        play.extend([TILES[code]] * used[code])
    play.extend([TILES[JOKER]] * jokers_played)
    value = sum(t % 13 + 1 for t in play if t != JOKER) + 30 * jokers_played
    return Solution(len(play), value, play, melds)


def could_open(rack, *, rules=None, tileset="standard") -> Solution | None:
    """The dispute "could that rack have opened": the best initial meld from
    ``rack`` alone, or ``None`` if none reaches the threshold.

    :raises NotationError: bad tiles.
    """
    s = solve([], rack, initial_meld_done=False, rules=rules, tileset=tileset)
    return s if s.tiles_placed else None


def could_play_more(table, rack, played: int, *, initial_meld_done: bool = True,
                    rules=None, tileset="standard") -> Solution | None:
    """The dispute "could that player have played more": a play of more
    than ``played`` rack tiles onto ``table``, or ``None``.

    :raises NotationError: bad tiles.
    :raises SolverError: the table does not divide.
    """
    s = solve(table, rack, initial_meld_done, rules=rules, tileset=tileset)
    return s if s.tiles_placed > played else None
