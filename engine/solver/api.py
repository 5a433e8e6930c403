"""The solver's public functions (see :mod:`engine.solver`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from operator import add
from typing import Any

from ..errors import EngineError, RuleOptionError
from ..melds import (GROUP_JOKER, RUN_JOKER, SABRA_MELDS, MeldRules, canonical,
                     interpretations, joker_candidates, meld_kind, parse_slot, slot_tile)
from ..tiles import JOKER, TILES, counts_of
from . import core
from .division import divide, divisible, read_tiles, resolve_tileset, split_counts
from .layout import arrange, moved_tiles


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


def _rules(rules) -> MeldRules:
    """The meld rules from ``None`` (the boxed Sabra rules), a
    :class:`MeldRules`, a dict of its options, or a family's rule set that
    offers them as ``meld_rules``.

    :raises RuleOptionError: unknown option or bad value.
    """
    if rules is None:
        return SABRA_MELDS
    if isinstance(rules, MeldRules):
        return rules
    if isinstance(rules, dict):
        return MeldRules.from_dict(rules)
    got = getattr(rules, "meld_rules", None)
    if isinstance(got, MeldRules):
        return got
    raise RuleOptionError(f"rules must be MeldRules, a dict of its options or a rule set "
                          f"with meld_rules, not {type(rules).__name__}")


_JOKER_KEYS = ("joker_sets", "joker_reuse")


def _joker_mode(rules: MeldRules, explicit) -> str:
    """``"free"``, ``"frozen"`` or ``"keep"`` (jokers keep their tiles)."""
    sets, reuse = rules.joker_sets, rules.joker_reuse
    if sets == "frozen":
        return "frozen"
    if sets == "keep-tile" or reuse != "any":
        return "keep"
    return "free"


def _parse_table_melds(table_melds) -> list[tuple]:
    """Melds as slot tuples from lists of tokens (``R5``, ``J``, ``J(R6)``)
    or slot tuples; a bare ``J`` takes the first reading of its meld.

    :raises NotationError: a bad token. :raises SolverError: not a meld.
    """
    out = []
    for m in table_melds:
        if isinstance(m, tuple) and all(isinstance(x, int) for x in m):
            slots = canonical(m)
        else:
            tokens = m.replace(",", " ").strip("[] ").split() if isinstance(m, str) else list(m)
            if any(str(t).upper() == "J" for t in tokens):
                tiles = read_tiles([t for t in tokens if "(" not in str(t)], "table_melds")
                tiles += [JOKER for t in tokens if "(" in str(t)]
                readings = interpretations(tiles)
                if not readings:
                    raise SolverError(f"table_melds: {' '.join(map(str, tokens))} is not a valid meld")
                slots = readings[0]
            else:
                slots = canonical(parse_slot(str(t)) if "(" in str(t) else int(read_tiles([t], "table_melds")[0])
                                  for t in tokens)
        if meld_kind(slots) is None:
            raise SolverError(f"table_melds: {list(m)} is not a valid meld")
        out.append(slots)
    return out


def _stand_ins(melds: list[tuple]) -> tuple[list[int], list[tuple]]:
    """For jokers that keep their tiles: the tile each table joker stands
    for, in melds where that tile is settled (a run; a group of four)."""
    codes, slots = [], []
    for m in melds:
        for k, s in enumerate(m):
            if s >= 52:
                (code,) = joker_candidates(m, k)
                codes.append(code)
                slots.append(s)
    return codes, slots


def _unsettled(m: tuple) -> bool:
    """A meld holding a joker that may stand for either of two tiles."""
    return any(s >= 52 and len(joker_candidates(m, k)) > 1 for k, s in enumerate(m))


@core.gc_paused()
def solve(table, rack, initial_meld_done: bool = True, *, rules=None,
          tileset="standard", table_melds=None,
          fewest_moves: bool = False, weights=None, named_options=None) -> Solution:
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
    :param rules: the meld rules (:class:`engine.melds.MeldRules`, a dict
        of its options, or a family's rule set offering ``meld_rules``);
        ``initial_meld`` and the joker options are read from it.
    :param tileset: ``"standard"``, ``"xp"`` or a :class:`TileSet`.
    :param table_melds: the table as laid out (melds as lists of tokens, or
        slot tuples); needed for ``fewest_moves``.
    :param fewest_moves: among the best plays, one that moves the fewest
        table tiles out of their melds.
    :param weights: 53 ints (0..999, the joker last) to maximise second in
        place of face values (the AI uses it to choose which tiles to keep);
        ``value_placed`` is still in face values.
    :param named_options: the option names the caller asked for (default:
        the keys of a ``rules`` dict): joker options among them that are not
        the free reading need ``table_melds``. A front end that reads a
        family's options itself (``python -m engine solve``) passes them.
    :raises NotationError: an unknown tile, or more copies than the set has.
    :raises SolverError: the table does not divide into valid melds.
    """
    ts = resolve_tileset(tileset)
    explicit = rules if isinstance(rules, dict) else named_options
    rs = _rules(rules)
    if rs.one_in_runs != "low":
        raise SolverError("the solver reads runs with 1 low only (one_in_runs='low')")
    prelude = core.PRELUDE and table_melds is None and initial_meld_done and not explicit and \
        not fewest_moves
    got = None
    if prelude and type(table) is list and type(rack) is list:
        # the table as a multiset, given as tile codes: the first steps in C
        # at once (None: the kernel is not there, or the tiles are to be
        # read and checked below, which name what is wrong)
        got = core.dp.prelude(table, rack, ts.copies, ts.jokers, core.MIRROR, core.SMALL_TABLE)
    if got is None:
        tab = read_tiles(table, "table")
        rk = read_tiles(rack, "rack")
        if prelude:
            got = core.dp.prelude(tab, rk, ts.copies, ts.jokers, core.MIRROR, core.SMALL_TABLE)
    if prelude:
        if got is False:
            raise SolverError("the table cannot be divided into valid melds")
        if got is not None:
            jt, jr, tp, cp, order, mirrored = got
            plan = core.best_plan(tp, cp, jt, jr,
                                  weights=core.oriented_weights(weights, order, mirrored))
            melds, used = core.build_melds(plan, order, mirrored)
            return _solution(used, plan.jokers_used - jt, melds, None)
    tall = rall = None
    if core.LEAN:
        # the counts read once (the check of copies and the solve)
        tall, rall = counts_of(tab), counts_of(rk)
        if tall[JOKER] + rall[JOKER] > ts.jokers or \
                max(map(add, tall[:JOKER], rall[:JOKER])) > ts.copies:
            ts.check(tab + rk)  # (raises, naming the tile)
    else:
        ts.check(tab + rk)
    old = None
    if table_melds is not None:
        old = _parse_table_melds(table_melds)
        if sorted(slot_tile(x) for m in old for x in m) != sorted(tab):
            raise SolverError("table_melds do not hold exactly the table's tiles")
    elif fewest_moves:
        raise SolverError("fewest_moves needs the table as laid out (table_melds)")
    mode = _joker_mode(rs, explicit) if old is not None and rules is not None else "free"
    if old is None and explicit and any(
            k in explicit for k in _JOKER_KEYS) and _joker_mode(rs, explicit) != "free":
        raise SolverError("the joker rule options asked for need the table as laid "
                          "out (table_melds)")
    zero = [0] * 52
    if not initial_meld_done:
        if old is not None:
            table_arrangement = old
        else:
            table_arrangement = divide(tab, tileset=ts)
            if table_arrangement is None:
                raise SolverError("the table cannot be divided into valid melds")
        cand = core.useful_rack(zero, counts_of(rk)[:52], counts_of(rk)[JOKER])
        plan = core.best_plan(zero, cand, 0, counts_of(rk)[JOKER],
                              threshold=rs.initial_meld)
        if plan is None or plan.score == 0:
            return Solution(0, 0, [], list(table_arrangement), 0 if old is not None else None)
        melds, used = core.build_melds(plan)
        return _solution(used, plan.jokers_used, list(table_arrangement) + melds,
                         0 if old is not None else None)
    locked: list[tuple] = []
    work = tab
    stand_slots: list[tuple] = []
    if mode == "frozen":
        locked = [m for m in old if any(x >= 52 for x in m)]
        work = [slot_tile(x) for m in old if not any(y >= 52 for y in m) for x in m]
    elif mode == "keep":
        # jokers stand in as the tiles they keep; a group of three with a
        # joker (two possible tiles) stays as it is
        locked = [m for m in old if _unsettled(m)]
        settled = [m for m in old if not _unsettled(m)]
        codes, slots = _stand_ins(settled)
        work = [slot_tile(x) for m in settled for x in m if x < 52] + codes
        stand_slots = list(zip(codes, slots))
    if tall is not None and work is tab:
        tcounts, jt = tall[:52], tall[JOKER]
        rcounts, jr = rall[:52], rall[JOKER]
    else:
        tcounts, jt = split_counts(work)
        rcounts, jr = split_counts(rk)
    # a table given as laid out is divisible already (every meld was checked)
    if work and old is None and not divisible(tcounts, jt):
        raise SolverError("the table cannot be divided into valid melds")
    cand = core.useful_rack(tcounts, rcounts, jt + jr)
    # solved with the colours renamed, fewest tiles first, and the numbers
    # reversed when the candidates come early so
    orient = core.oriented if core.LEAN else core.oriented_by_steps
    tp, cp, wp, order, mirrored = orient(tcounts, cand, jt, weights)
    plan = core.best_plan(tp, cp, jt, jr, weights=wp)
    assert plan is not None  # the table divides: placing nothing is a plan
    melds, used = core.build_melds(plan, order, mirrored)
    if mode == "keep":
        restored = _restore_jokers(melds, stand_slots)
        if restored is None:
            # no layout keeps every joker's tile settled: leave joker melds be
            return solve(table, rack, initial_meld_done, rules=replace(rs, joker_sets="frozen"),
                         tileset=ts, table_melds=old, fewest_moves=fewest_moves)
        melds = restored
    jokers_played = plan.jokers_used - jt
    if old is not None and (fewest_moves or mode != "free"):
        play = [t for code in range(52) for t in [code] * used[code]] + [JOKER] * jokers_played
        if mode == "frozen":
            free_old = [m for m in old if m not in locked]
        elif mode == "keep":
            free_old = [_virtual(m) for m in old if m not in locked]
        else:
            free_old = old
        laid = arrange(free_old, play, ts)
        if laid is not None and mode == "keep":
            laid = _restore_jokers(laid, stand_slots)
        if laid is not None:
            melds = laid
    melds = locked + melds
    moved = None
    if old is not None:
        moved = moved_tiles(old, melds)
    return _solution(used, jokers_played, melds, moved)


def _virtual(m: tuple) -> tuple:
    """A meld with each joker replaced by the tile it keeps."""
    codes, _ = _stand_ins([m])
    out, k = [], 0
    for x in m:
        if x >= 52:
            out.append(codes[k])
            k += 1
        else:
            out.append(x)
    return canonical(out)


def _restore_jokers(melds: list[tuple], stand: list[tuple]) -> list[tuple] | None:
    """Write back the jokers that stood in as the tiles they keep, each in a
    meld where it stands for that tile alone (a run, or a group of four);
    ``None`` if some stand-in has no such place."""
    melds = [list(m) for m in melds]
    for code, slot in stand:
        for m in melds:
            if code not in m:
                continue
            kind = meld_kind(canonical(m))
            if kind == "run":
                m[m.index(code)] = RUN_JOKER + code
                break
            if kind == "group" and len(m) == 4:
                m[m.index(code)] = GROUP_JOKER + code % 13
                break
        else:
            return None
    return [canonical(m) for m in melds]


def _solution(used: list[int], jokers: int, melds: list, moved) -> Solution:
    play = []
    value = 30 * jokers
    for code, k in enumerate(used):
        if k:
            play.extend([TILES[code]] * k)
            value += (code % 13 + 1) * k
    play.extend([TILES[JOKER]] * jokers)
    return Solution(len(play), value, play, melds, moved)


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
