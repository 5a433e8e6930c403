"""Post-game analysis of an Okey match: every turn (the draw from the middle
or the take of the discard, then the discard or the finish) against the
distance to a winning hand.

The **distance to win** of a rack (:func:`distance`) is the fewest tiles to
change so that 14 of its tiles are a winning hand: the least ``k`` such
that the rack, with ``k`` more okeys (a changed tile may become whatever a
meld needs), holds 14 tiles in complete sets and runs (or seven pairs,
where the rules allow them) (:func:`engine.okey.ai.eval.cover`). A winning
rack is at 0. Every tile of the match is known to the analysis; a draw
from the middle is never judged by the tile it turned up (the player could
not see it), only the discard after it is. Reasons (``docs/analysis.md``):

- ``win-not-declared`` (miss): some discard left a winning 14 and the
  player discarded without finishing;
- ``win-by-take-missed`` (miss): the previous player's discard completed a
  winning hand and the player drew from the middle;
- ``okey-discarded`` (inaccuracy): the okey (the real joker) thrown away;
- ``discard-worse`` (inaccuracy): another discard left the rack nearer a
  win;
- ``take-better`` (inaccuracy): taking the discard brought the rack nearer
  a win for sure, and the draw from the middle ended the turn further.
"""

from __future__ import annotations

from functools import lru_cache

from ..analysis import (GameAnalysis, SeriesBuilder, engine_version, inaccuracy, judged,
                        load_game, miss, need_over, parse_checked, push_checked)
from .ai.eval import cover
from .game import sort_key
from .hand import finishing_discards, tile_text

HAND = 14


def distance(rack, okey: int, rules, at_least: int = 0) -> int:
    """The fewest tiles to change so that 14 tiles of ``rack`` (14 or 15
    game tile codes) make a winning hand (0: it wins). ``at_least``: a
    lower bound known to the caller (the search starts there)."""
    return _distance(tuple(sorted(rack)), okey, rules, at_least)


@lru_cache(maxsize=100_000)
def _distance(rack: tuple[int, ...], okey: int, rules, at_least: int) -> int:
    for k in range(at_least, HAND + 1):
        if cover(rack, okey, rules, k) >= HAND:
            return k
    return HAND  # pragma: no cover - 14 okeys always cover


def best_discard(rack, okey: int, rules) -> tuple[int, int]:
    """``(distance, tile)``: the discard from a 15-tile rack leaving it
    nearest a win (the lowest tile in the game's order among equals)."""
    floor = distance(rack, okey, rules)   # no discard leaves it nearer
    best = None
    for t in sorted(set(rack), key=sort_key):
        rest = list(rack)
        rest.remove(t)
        d = distance(rest, okey, rules, floor)
        if best is None or d < best[0]:
            best = (d, t)
            if d == floor:
                break
    return best


def _finish_tile(tiles: list[int], okey: int) -> int:
    """The finishing discard worth most: the okey itself where it is one."""
    return okey if okey in tiles else tiles[0]


class _Turn:
    def __init__(self, turn: int, seat: int, game_no: int, before: int):
        self.turn, self.seat, self.game_no, self.before = turn, seat, game_no, before
        self.played: list[str] = []
        self.take = None          # (distance after the best discard, tile) had it taken
        self.take_rack: list[int] = []
        self.take_wins: int | None = None   # the finishing tile after a take
        self.drawn = None         # (best distance, tile, finishing tiles) after the draw
        self.after = 0


def _judge(t: _Turn, okey: int):
    actions = [p.split()[0] for p in t.played]
    last = t.played[-1].split()
    reasons, best = [], None
    best_after, best_tile, fin = t.drawn or (t.after, None, [])
    if fin and last[0] == "discard":
        tile = _finish_tile(fin, okey)
        reasons.append(miss("win-not-declared", f"held a winning hand: finish {tile_text(tile)} "
                                                f"would have won", tile=tile_text(tile)))
        best = f"finish {tile_text(tile)}"
    if t.take_wins is not None and "draw" in actions and last[0] != "finish":
        reasons.append(miss("win-by-take-missed", f"taking the discard made a winning hand "
                                                  f"(finish {tile_text(t.take_wins)})",
                            tile=tile_text(t.take_wins)))
        best = best or f"take ; finish {tile_text(t.take_wins)}"
    if last[0] == "discard" and last[1] == tile_text(okey):
        reasons.append(inaccuracy("okey-discarded", f"threw away the okey ({tile_text(okey)})",
                                  tile=tile_text(okey)))
    if not fin and last[0] == "discard" and t.after > best_after:
        reasons.append(inaccuracy("discard-worse", f"discarding {tile_text(best_tile)} left the "
                                                   f"hand {best_after} from a win, not {t.after}",
                                  tile=tile_text(best_tile), best=best_after, made=t.after))
        best = best or f"discard {tile_text(best_tile)}"
    if t.take is not None and "draw" in actions and t.take_wins is None \
            and t.take[0] < t.before and t.take[0] < t.after:
        reasons.append(inaccuracy("take-better", f"taking the discard and discarding "
                                                 f"{tile_text(t.take[1])} would have left the hand "
                                                 f"{t.take[0]} from a win; the turn ended {t.after}",
                                  tile=tile_text(t.take[1]), best=t.take[0], made=t.after))
        best = best or f"take ; discard {tile_text(t.take[1])}"
    nearest = min(best_after, t.take[0] if t.take else best_after, 0 if t.take_wins is not None else HAND)
    return best, reasons, max(0, t.before - t.after), max(0, t.before - nearest), best_after


def analyse(source) -> GameAnalysis:
    """The analysis of a finished Okey match (a record as text, a
    :class:`engine.records.GameRecord`, or a finished match).

    :raises AnalysisError: the match is not over or does not replay.
    """
    game, moves = load_game(source)
    rules = game.rules
    turns = []
    series = SeriesBuilder(game.n)
    cur: _Turn | None = None
    for turn, text in moves:
        move = parse_checked(game, text, turn)
        seat, okey, game_no = game.to_move, game.okey, game.game_no
        if cur is None:
            cur = _Turn(turn, seat, game_no, distance(game.racks[seat], okey, rules))
        if game.phase == "draw" and move.action in ("draw", "take") and cur.take is None:
            t = game.takeable()
            if t is not None:
                rack = game.racks[seat] + [t]
                fin = finishing_discards(rack, okey, rules)
                cur.take_wins = _finish_tile(fin, okey) if fin else None
                cur.take = (distance(rack, okey, rules), None)
                cur.take_rack = rack
        if game.phase == "discard" and move.action in ("discard", "finish") and cur.drawn is None:
            rack = game.racks[seat]
            fin = game.finishing_tiles(seat)
            cur.drawn = (0, fin[0], fin) if fin else (distance(rack, okey, rules), None, [])
        held = list(game.racks[seat])
        push_checked(game, move, turn)
        cur.played.append(str(move))
        if move.action in ("discard", "finish"):
            if move.action == "finish":
                after = 0
            else:
                floor = cur.drawn[0] if cur.drawn else 0
                rest = list(held)
                rest.remove(move.tile)      # the rack as the discard left it
                after = distance(rest, okey, rules, floor)
                if after > floor and len(held) == HAND + 1:
                    cur.drawn = best_discard(held, okey, rules) + ([],)
            cur.after = after
            if cur.take is not None and cur.take[1] is None and cur.take[0] < min(cur.before, after):
                cur.take = best_discard(cur.take_rack, okey, rules)   # the tile, and exactly
            best, reasons, placed, possible, best_after = _judge(cur, okey)
            figures = {"game": game_no + 1, "distance_before": cur.before,
                       "distance_to_win": after, "best_distance": min(best_after, after)}
            turns.append(judged(cur.turn, seat, " ; ".join(cur.played), best, reasons,
                                placed=placed, possible=possible, moves=len(cur.played),
                                figures=figures))
            series.add(seat, cur.turn, after)
            cur = None
    need_over(game)
    return GameAnalysis(game.family, game.variant, game.n, tuple(turns), "distance_to_win",
                        series.freeze(), engine_version(), None)


__all__ = ["analyse", "distance", "best_discard"]
