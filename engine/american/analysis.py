"""Post-game analysis of American and International Rummikub: every turn
(a draw or take, the lays, the discard) against the most the rack could
lay then.

The table of these games is not rearranged (melds are owned; a turn adds
new melds, extends melds and frees jokers), and runs may have a 1 high,
which the Rummikub solver does not read; so the judge is the family's own
meld search (:mod:`.ai.melds`: the disjoint melds laying the most tiles,
then the table's melds each rack tile extends), and every better play it
finds is pushed on a copy of the position before the turn is marked
against it. Reasons (``docs/analysis.md``):

- ``held-back-trump`` (miss, American): the face-up trump let the player
  go out this turn (taking it is one move that goes out), and they drew or
  took the discard instead;
- ``closed-hand-missed`` (miss, International): some discard left one of
  the 40 closed hands and the player did not declare it;
- ``could-go-out`` (miss): after the draw every tile but one could be laid
  and the player did not go out;
- ``could-open`` (miss): the initial meld was possible and nothing was laid;
- ``laid-nothing`` (inaccuracy): after the initial meld, tiles could be
  laid and none were;
- ``fewer-tiles`` (inaccuracy): fewer tiles laid than the search found.
"""

from __future__ import annotations

from collections import Counter

from ..analysis import (GameAnalysis, SeriesBuilder, engine_version, inaccuracy, judged, tiles,
                        load_game, miss, need_over, parse_checked, push_checked)
from ..melds import meld_tiles, meld_value
from ..errors import IllegalMoveError
from .ai import best_closed
from .ai.melds import best_cover, extensions
from .moves import Move
from .scoring import international_points, tile_points


def _lay_plan(game, seat: int, rack: Counter):
    """The most the rack may lay now: ``(melds, adds, rest)``, rest the
    tiles left on the rack (a Counter)."""
    mr = game.rules.meld_rules
    melds = best_cover(rack, mr)
    rest = Counter(rack)
    for m in melds:
        rest.subtract(Counter(meld_tiles(m)))
    rest = +rest
    if not game.melded[seat]:
        value = sum(meld_value(m, mr) for m in melds)
        left = sum(rest.values())
        if not melds or (value < game.rules.initial_meld
                         and not (game.rules.international and left == 1)):
            return [], [], Counter(rack)
        return melds, [], rest
    table = list(game.table) + [[seat, m] for m in melds]
    adds = [(n, s) for n, s in extensions(rest, table, mr) if n <= len(game.table)]
    for _, s in adds:
        rest.subtract(Counter(s))
    return melds, adds, +rest


def _try(game, moves: list[Move], *, win: bool):
    """Whether ``moves`` are legal in turn on a copy of ``game`` (and, with
    ``win``, end it with the mover the winner)."""
    seat = game.to_move
    trial = type(game).from_snapshot(game.snapshot())
    try:
        for mv in moves:
            trial.push(mv)
    except (IllegalMoveError, ValueError):
        return False
    return not win or (trial.over and trial.winner == seat)


def _trump_win(game, seat: int) -> Move | None:
    """American: the trump move going out, when the trump lets the seat."""
    if game.rules.international or game.trump is None or not game.melded[seat]:
        return None
    rack = Counter(game.racks[seat])
    rack[game.trump] += 1
    melds, adds, rest = _lay_plan(game, seat, rack)
    if sum(rest.values()) != 1:
        return None
    move = Move("trump", next(iter(rest)), tuple(melds), tuple(adds))
    return move if _try(game, [move], win=True) else None


def _closed(game, seat: int) -> Move | None:
    """International: the ``closed`` move of highest score the rack allows."""
    if not game.rules.international or game.melded[seat] or len(game.racks[seat]) != 15:
        return None
    return best_closed(game, seat)


def _play_options(game, seat: int):
    """After the draw: ``(tiles layable, moves laying them, goes out)``,
    each checked on a copy of the position."""
    rack = Counter(game.racks[seat])
    melds, adds, rest = _lay_plan(game, seat, rack)
    laid = sum(len(m) for m in melds) + sum(len(s) for _, s in adds)
    if not laid:
        return 0, [], False
    moves = [Move("lay", melds=tuple(melds), adds=tuple(adds))]
    if sum(rest.values()) == 1:
        out = moves + [Move("discard", next(iter(rest)))]
        if _try(game, out, win=True):
            return laid, out, True
    if _try(game, moves, win=False):
        return laid, moves, False
    return 0, [], False


class _Turn:
    """What is known of one turn while its moves are replayed."""

    def __init__(self, turn: int, seat: int):
        self.turn, self.seat = turn, seat
        self.played: list[str] = []
        self.trump: Move | None = None
        self.options = None            # (laid, moves, goes out), after the draw
        self.closed: Move | None = None
        self.melded_before = None
        self.made = 0


def _judge(game, t: _Turn) -> tuple:
    seat = t.seat
    reasons, best = [], None
    laid, moves, out = t.options or (0, [], False)
    won = game.over and game.winner == seat
    actions = [p.split()[0] for p in t.played]
    possible = laid
    if t.trump is not None and "trump" not in actions:
        reasons.append(miss("held-back-trump", f"could have taken the trump and gone out "
                                               f"({t.trump}) but {actions[0]} instead",
                            move=str(t.trump), action=actions[0]))
        best = str(t.trump)
        possible = max(possible, sum(len(m) for m in t.trump.melds)
                       + sum(len(s) for _, s in t.trump.adds))
    closed_won = won and game.win.get("kind") == "closed"     # declared, or laid at once
    if t.closed is not None and not closed_won:
        reasons.append(miss("closed-hand-missed", f"could have declared a closed hand "
                                                  f"({t.closed})", move=str(t.closed)))
        best = best or str(t.closed)
        possible = max(possible, 14)
    if not won:
        if out:
            reasons.append(miss("could-go-out", f"could have gone out: every tile but one "
                                                f"could be laid ({' ; '.join(map(str, moves))})",
                                moves=" ; ".join(map(str, moves))))
        elif laid and not t.made and not t.melded_before:
            reasons.append(miss("could-open", f"could have made the initial meld with "
                                              f"{tiles(laid)} ({moves[0]})", tiles=laid, move=str(moves[0])))
        elif laid and not t.made:
            reasons.append(inaccuracy("laid-nothing", f"laid nothing while {tiles(laid)} could "
                                                      f"be laid ({moves[0]})", tiles=laid, move=str(moves[0])))
        elif t.made < laid:
            reasons.append(inaccuracy("fewer-tiles", f"laid {tiles(t.made)} where {laid} could "
                                                     f"be laid ({moves[0]})",
                                      tiles=t.made, best=laid, move=str(moves[0])))
        if best is None and moves and reasons:
            best = " ; ".join(map(str, moves))
    return best, reasons, max(possible, t.made)


def analyse(source) -> GameAnalysis:
    """The analysis of a finished American or International game (a record
    as text, a :class:`engine.records.GameRecord`, or a finished game).

    :raises AnalysisError: the game is not over or does not replay.
    """
    game, moves = load_game(source)
    turns = []
    series = SeriesBuilder(game.n)
    points = international_points if game.rules.international else tile_points
    cur: _Turn | None = None
    for turn, text in moves:
        move = parse_checked(game, text, turn)
        seat = game.to_move
        if cur is None:
            cur = _Turn(turn, seat)
            cur.melded_before = game.melded[seat]
            if game.phase == "draw":
                cur.trump = _trump_win(game, seat)
        if game.phase == "play" and cur.options is None:
            cur.options = _play_options(game, seat)
            cur.closed = _closed(game, seat)
        before = len(game.racks[seat])
        push_checked(game, move, turn)
        cur.played.append(str(move))
        if move.action == "lay":
            cur.made += before - len(game.racks[seat])
        elif move.action == "trump":
            cur.made += before
        elif move.action == "closed":
            cur.made += 14
        if game.over or game.to_move != seat or game.phase == "draw":
            best, reasons, possible = _judge(game, cur)
            rack = game.racks[seat]
            figures = {"tiles_left": len(rack),
                       "value_left": sum(points(x, game.rules.joker_penalty) for x in rack),
                       "best_tiles": possible, "melded": game.melded[seat]}
            turns.append(judged(cur.turn, seat, " ; ".join(cur.played), best, reasons,
                                placed=cur.made, possible=possible, moves=len(cur.played),
                                figures=figures))
            series.add(seat, cur.turn, len(rack))
            cur = None
    need_over(game)
    return GameAnalysis(game.family, game.variant, game.n, tuple(turns), "tiles_left",
                        series.freeze(), engine_version(), None)


__all__ = ["analyse"]
