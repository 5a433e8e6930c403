"""Turning a solver answer into a move the game accepts.

The solver answers with a set of rack tiles and *some* division of table +
play into melds. A player at a real table moves as little as possible, and
the joker rules (a joker that comes to stand for another tile is retrieved)
care which melds stay. :func:`arrange` keeps every old meld it can, whole or
extended at its ends by played tiles, and divides only the rest;
:func:`play_move` builds the move and checks it with the game, falling back
to safer layouts (melds with a joker left alone; new melds from the rack
alone) when the rules refuse the first.

Only public information and the player's own rack are used
(:meth:`engine.rummikub.game.SabraGame.view`).
"""

from __future__ import annotations

from ...melds import parse_meld
from ...solver.layout import arrange, meld_tiles
from ...tiles import parse_tiles
from ..game import SabraGame
from ..moves import Move


def seat_view(game: SabraGame, seat: int) -> dict:
    """What ``seat`` knows, decoded: ``table`` (melds as slot tuples),
    ``rack`` (tile codes), ``rack_counts``, ``pool_count``,
    ``initial_done`` (per seat), ``rules`` (the game's rule set)."""
    v = game.view(seat)
    return {
        "table": [parse_meld(m) for m in v["table"]],
        "rack": [int(t) for t in parse_tiles(v["rack"])],
        "rack_counts": v["rack_counts"],
        "pool_count": v["pool_count"],
        "initial_done": v["initial_meld_done"],
        "rules": game.rules,
        "tileset": game.tileset,
    }


def _locked_jokers(old: list[tuple]) -> tuple[list[tuple], list[tuple]]:
    frozen = [m for m in old if any(s >= 52 for s in m)]
    free = [m for m in old if not any(s >= 52 for s in m)]
    return frozen, free


def play_move(game: SabraGame, melds: list[tuple]) -> Move | None:
    """The move turning the table into ``melds``, if the game accepts it."""
    try:
        move = game.play_to_table(melds)
    except ValueError:
        return None
    return move if game.legal(move) else None


def best_legal_play(game: SabraGame, view: dict, play: list[int]) -> Move | None:
    """A legal move laying ``play`` (rack tiles), trying layouts from the
    most natural to the most conservative; ``None`` if none is accepted."""
    old = view["table"]
    ts = view["tileset"]
    layout = arrange(old, play, ts)
    if layout is not None:
        move = play_move(game, layout)
        if move is not None:
            return move
    # leave every meld holding a joker exactly as it is
    frozen, free = _locked_jokers(old)
    if frozen:
        layout = arrange(free, play, ts)
        if layout is not None:
            move = play_move(game, frozen + layout)
            if move is not None:
                return move
    return None


def rack_only_move(game: SabraGame, view: dict, play_melds: list[tuple]) -> Move | None:
    """New melds from the rack alone, the table untouched."""
    move = Move.play((), play_melds)
    return move if game.legal(move) else None


def no_play(view: dict) -> Move:
    """Draw, or pass once the pool is empty."""
    return Move("draw" if view["pool_count"] else "pass")
