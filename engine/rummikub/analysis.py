"""Post-game analysis of Sabra Rummikub and Rummikub XP: every turn against
the solver's best play from the mover's rack onto the table of that moment.

For each move of a finished game (:func:`analyse`), the solver answers on
the mover's actual rack and the table as laid out, under the game's own
rule options (:func:`engine.solver.solve`, initial-meld mode before the
player's initial meld); the play made is compared with it:

- ``could-go-out`` (miss): every tile of the rack fitted, and the player
  did not go out;
- ``could-open`` (miss): an initial meld existed and the player drew;
- ``drew-while-play-existed`` (inaccuracy): after the initial meld, a play
  existed and the player drew (or passed, or ran out of time);
- ``fewer-tiles`` (inaccuracy): the play placed fewer tiles than the best;
- ``less-value`` (inaccuracy): as many tiles, but :data:`VALUE_GAP` points
  or more less than the best play of that many tiles.

A mark is given only against a best play the game itself accepts (pushed
on the position as a legal move); the solver's readings of the joker
options are sound but not complete (``docs/solver.md``), so where the
player placed more than the solver found, the play made is the best.
``docs/analysis.md`` has the thresholds.
"""

from __future__ import annotations

from ..analysis import (DID, GameAnalysis, SeriesBuilder, engine_version, inaccuracy, judged, tiles,
                        load_game, miss, need_over, parse_checked, push_checked, solver_version)
from ..melds import meld_tiles
from ..tiles import face_value, tiles_of
from ..solver import solve
from .scoring import rack_value

#: as many tiles as the best play but this many points less: an inaccuracy
VALUE_GAP = 10


def _value(tiles) -> int:
    """Face values, a joker 30 (the solver's second objective)."""
    return sum(face_value(t, 30) for t in tiles)


def _table_melds(game) -> list[tuple]:
    return [m for m, k in sorted(game.table.items()) for _ in range(k)]


def _best(game, seat: int, rack: list[int], *, layout: bool):
    """The solver's best play for ``seat`` now: ``(tiles, value, move)``;
    ``move`` (with ``layout``) is the legal move laying it, or ``None``
    when the game refuses every layout tried."""
    rules = game.rules
    old = _table_melds(game)
    table = [t for m in old for t in meld_tiles(m)]
    if not game.initial_done[seat]:
        sol = solve(table, rack, initial_meld_done=False, rules=rules, tileset=game.tileset,
                    table_melds=old)
    else:
        sol = solve(table, rack, rules=rules, tileset=game.tileset, table_melds=old,
                    fewest_moves=layout)
    if not layout or not sol.tiles_placed:
        return sol.tiles_placed, sol.value_placed, None
    return sol.tiles_placed, sol.value_placed, _legal_move(game, seat, sol)


def _legal_move(game, seat: int, sol):
    try:
        move = game.play_to_table(sol.melds)
        if game.legal(move):
            return move
    except ValueError:
        pass
    from .ai.solver_play import best_legal_play, seat_view

    return best_legal_play(game, seat_view(game, seat), [int(t) for t in sol.play])


def judge_move(game, turn: int, move):
    """The judgement of ``move`` (not yet pushed) for the seat on turn of
    ``game`` (whose state is the position before it)."""
    seat = game.to_move
    rack = [int(t) for t in tiles_of(game.racks[seat])]
    made = list(move.tiles) if move.kind == "play" else []
    made_n, made_v = len(made), _value(made)
    best_n, best_v, best_move = _best(game, seat, rack, layout=False)
    gap = best_n > made_n or (best_n == made_n and best_v - made_v >= VALUE_GAP and made_n)
    if gap:
        best_n, best_v, best_move = _best(game, seat, rack, layout=True)
        if best_move is None or best_n < made_n or (best_n == made_n and best_v - made_v < VALUE_GAP):
            best_n, best_v, best_move, gap = made_n, made_v, None, False
    elif (made_n, made_v) > (best_n, best_v):
        best_n, best_v = made_n, made_v
    reasons = []
    opened = game.initial_done[seat]
    if gap:
        left_n, left_v = best_n - made_n, best_v - made_v
        if best_n == len(rack):
            reasons.append(miss("could-go-out", f"could have gone out: all {tiles(best_n)} of the "
                                                f"rack fitted ({best_move})",
                                tiles=best_n, move=str(best_move)))
        elif not opened and made_n == 0:
            reasons.append(miss("could-open", f"could have opened with {tiles(best_n)} worth "
                                              f"{best_v} (the initial meld needs "
                                              f"{game.rules.initial_meld}) but {DID[_did(move)]}",
                                tiles=best_n, value=best_v, need=game.rules.initial_meld, did=_did(move)))
        elif made_n == 0:
            reasons.append(inaccuracy("drew-while-play-existed",
                                      f"{DID[_did(move)]} while a play of {tiles(best_n)} existed",
                                      did=_did(move), tiles=best_n))
        elif left_n > 0:
            reasons.append(inaccuracy("fewer-tiles", f"placed {tiles(made_n)} where {best_n} fitted: "
                                                     f"{tiles(left_n)} worth {left_v} left behind",
                                      tiles=made_n, best=best_n, left_tiles=left_n, left_value=left_v))
        else:
            reasons.append(inaccuracy("less-value", f"placed {tiles(made_n)} worth {made_v} where "
                                                    f"{best_n} worth {best_v} fitted",
                                      tiles=made_n, value=made_v, best=best_n, best_value=best_v))
    figures = {"tiles_before": len(rack), "placed_value": made_v, "best_tiles": best_n,
               "best_value": best_v, "left_behind": best_n - made_n,
               "left_behind_value": max(0, best_v - made_v), "opened": opened}
    return seat, str(best_move) if best_move is not None else None, reasons, made_n, best_n, figures


def _did(move) -> str:
    """What the turn did instead, a key of :data:`engine.analysis.DID`."""
    return move.kind if move.kind in DID else "play"


def analyse(source) -> GameAnalysis:
    """The analysis of a finished Rummikub game (a record as text, a
    :class:`engine.records.GameRecord`, or a finished game started from a
    seed or a deal).

    :raises AnalysisError: the game is not over or does not replay.
    """
    game, moves = load_game(source)
    turns = []
    series = SeriesBuilder(game.players)
    joker_penalty = game.rules.joker_penalty
    for turn, text in moves:
        move = parse_checked(game, text, turn)
        seat, best, reasons, made, possible, figures = judge_move(game, turn, move)
        push_checked(game, move, turn)
        rack = tiles_of(game.racks[seat])
        figures.update(tiles_left=len(rack), value_left=rack_value(rack, joker_penalty))
        turns.append(judged(turn, seat, str(move), best, reasons, placed=made, possible=possible,
                            figures=figures))
        series.add(seat, turn, len(rack))
    need_over(game)
    return GameAnalysis(game.family, game.variant, game.players, tuple(turns), "tiles_left",
                        series.freeze(), engine_version(), solver_version())


__all__ = ["analyse", "judge_move", "VALUE_GAP"]
