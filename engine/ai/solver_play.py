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
(:meth:`engine.rummikub.SabraGame.view`).
"""

from __future__ import annotations

from ..melds import GROUP_JOKER, RUN_JOKER, meld_kind, parse_meld
from ..rummikub import Move, SabraGame
from ..solver import divide
from ..tiles import JOKER, counts_of, parse_tiles


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


def meld_tiles(m) -> list[int]:
    return [s if s < 52 else JOKER for s in m]


def _extensions(m: tuple, left: list[int]) -> list[tuple]:
    """``m`` grown by numbered tiles of ``left`` (53 counts): a run at its
    ends (longest first), a group of three by a missing colour."""
    kind = meld_kind(m)
    out = []
    if kind == "run":
        codes = [s if s < 52 else s - RUN_JOKER for s in m]
        colour = codes[0] // 13
        lo, hi = min(c % 13 for c in codes), max(c % 13 for c in codes)
        below, above = [], []
        n = lo - 1
        while n >= 0 and left[colour * 13 + n] > below.count(colour * 13 + n):
            below.append(colour * 13 + n)
            n -= 1
        n = hi + 1
        while n <= 12 and left[colour * 13 + n] > 0:
            above.append(colour * 13 + n)
            n += 1
        for a in range(len(below), -1, -1):
            for b in range(len(above), -1, -1):
                if a or b:
                    out.append(tuple(sorted(below[:a])) + m + tuple(above[:b]))
    elif kind == "group" and len(m) == 3:
        num = next(s for s in m if s < 52) % 13
        present = {s // 13 for s in m if s < 52}
        if any(s >= GROUP_JOKER for s in m):
            return out  # a joker's colour would have to be settled; leave it
        for c in range(4):
            if c not in present and left[c * 13 + num]:
                out.append(m + (c * 13 + num,))
    return out


def arrange(old: list[tuple], play: list[int], tileset) -> list[tuple] | None:
    """A division of the old table + ``play`` that keeps as many old melds
    as it can (whole, or grown at their ends by played tiles), or ``None``
    if table + play does not divide."""
    from ..melds import canonical

    pcount = counts_of(play)
    # fast path: every old meld stays and the play divides by itself
    new = divide(list(play), tileset=tileset) if play else []
    if new is not None:
        return list(old) + list(new)
    # grow old melds with played tiles first, then keep what can be kept
    rest = counts_of([t for m in old for t in meld_tiles(m)])
    for t in range(53):
        rest[t] += pcount[t]
    free_play = list(pcount)
    kept = []
    for m in sorted(old, key=len, reverse=True):
        variants = _extensions(m, free_play) + [m]
        for v in variants:
            need = counts_of(meld_tiles(v))
            if any(need[t] > rest[t] for t in range(53)):
                continue
            remaining = [rest[t] - need[t] for t in range(53)]
            tiles = [t for t in range(53) for _ in range(remaining[t])]
            if divide(tiles, tileset=tileset) is None:
                continue
            kept.append(canonical(v))
            rest = remaining
            extra = counts_of(meld_tiles(v))
            base = counts_of(meld_tiles(m))
            for t in range(53):
                free_play[t] -= max(0, extra[t] - base[t])
            break
    tiles = [t for t in range(53) for _ in range(rest[t])]
    new = divide(tiles, tileset=tileset)
    if new is None:
        return None
    return kept + list(new)


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
