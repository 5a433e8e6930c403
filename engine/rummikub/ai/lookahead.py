"""Sampled look-ahead for the strong Rummikub level: lay the largest play
now, or draw and keep it?

Greedy lays every tile it can, every turn. A tile that can be laid now can
almost always still be laid later (the table only grows), so laying it early
gains nothing towards going out, and a turn spent laying is a turn without a
draw - the only way, besides the others' plays, to get the tile that fits
the rest of the rack. Which is better depends on the position: drawing pays
when the tiles left over are close to fitting and the play can wait; laying
pays when the rack is big or the others are close to going out.

:func:`prefer_draw` decides it by sampling: the tiles this seat cannot see
(the pool and the other racks, which it knows only as counts) are dealt at
random several times; on each deal both choices are played on for a few
turns by every seat with the solver's largest play (common random numbers:
both choices meet the same deal), and scored by who went out, else by the
tiles each rack still cannot place on the table, then by rack sizes. Only the
seat's own view is used; the sampling seed comes from the position, so the
same position gets the same answer.
"""

from __future__ import annotations

import hashlib
import random

from ...solver import solve

WIN = 30.0          # the score of going out (or of an opponent going out, negated)
RACK_WEIGHT = 0.3   # a tile more on the rack, against a tile that cannot be placed


def unseen_tiles(view: dict) -> list[int]:
    """The tiles this seat cannot see: the set less the table and its rack."""
    counts = view["tileset"].counts()
    for t in view["table_tiles"]:
        counts[t] -= 1
    for t in view["rack"]:
        counts[t] -= 1
    return [t for t in range(len(counts)) for _ in range(counts[t])]


def position_rng(seed, view: dict, seat: int) -> random.Random:
    """A random source fixed by the visible position (and the player's seed)."""
    key = repr((seed, seat, sorted(view["rack"]), sorted(view["table_tiles"]),
                view["pool_count"], tuple(view["rack_counts"])))
    return random.Random(hashlib.sha256(key.encode()).digest())


def _take(rack: list[int], tiles) -> None:
    for t in tiles:
        rack.remove(t)


def rollout_turn(table: list[int], racks: dict, opened: list[bool], s: int, pool: list[int], ts, rules) -> str:
    """One turn of seat ``s`` in a rollout, as the greedy level plays it:
    lay the most the solver finds (the initial meld while ``s`` has not
    opened), else draw. ``table``, ``racks``, ``opened`` and ``pool`` change
    in place. Returns ``"out"`` (the rack is empty), ``"laid"``, ``"drew"``
    or ``"stuck"`` (nothing to lay and the pool empty)."""
    rack = racks[s]
    if opened[s]:
        sol = solve(table, rack, tileset=ts)
    else:
        sol = solve([], rack, initial_meld_done=False, rules=rules, tileset=ts)
    if sol.tiles_placed:
        laid = [int(t) for t in sol.play]
        table += laid
        _take(rack, laid)
        opened[s] = True
        return "laid" if rack else "out"
    if pool:
        rack.append(pool.pop())
        return "drew"
    return "stuck"


def _junk(table: list[int], rack: list[int], opened: bool, ts) -> int:
    if not opened:
        return len(rack)
    return len(rack) - solve(table, rack, tileset=ts).tiles_placed


def rollout(choice: str, seat: int, order: list[int], table: list[int], racks: dict,
            pool: list[int], opened: list[bool], play: list[int], view: dict,
            horizon: int) -> float:
    """Play ``choice`` ("lay" or "draw") for ``seat`` on one sampled deal and
    ``horizon`` more turns for everyone; the score for ``seat``."""
    ts, rules = view["tileset"], view["rules"].meld_rules
    table, pool = list(table), list(pool)
    racks = {s: list(r) for s, r in racks.items()}
    opened = list(opened)
    if choice == "lay":
        table += play
        _take(racks[seat], play)
    else:
        racks[seat].append(pool.pop())
    for s in order * horizon:
        turn = rollout_turn(table, racks, opened, s, pool, ts, rules)
        if turn == "out":
            return WIN if s == seat else -WIN
        if turn == "stuck":
            break
    others = [s for s in racks if s != seat]
    junk_me = _junk(table, racks[seat], opened[seat], ts)
    junk_them = min(_junk(table, racks[s], opened[s], ts) for s in others)
    size_them = min(len(racks[s]) for s in others)
    return (junk_them - junk_me) + RACK_WEIGHT * (size_them - len(racks[seat]))


def prefer_draw(view: dict, seat: int, play: list[int], order: list[int], *,
                samples: int = 6, horizon: int = 2, seed=None) -> bool:
    """Whether drawing (keeping ``play`` on the rack) scores better than
    laying ``play`` now, over ``samples`` sampled deals of the unseen tiles.

    ``view`` is the seat's decoded view with ``table_tiles`` (the table as a
    multiset); ``order`` lists every seat in the order they move after this
    turn, this seat last.
    """
    if not view["pool_count"]:
        return False
    unseen = unseen_tiles(view)
    rng = position_rng(seed, view, seat)
    lay = draw = 0.0
    for _ in range(samples):
        rng.shuffle(unseen)
        deck = list(unseen)
        racks = {s: [deck.pop() for _ in range(view["rack_counts"][s])]
                 for s in order if s != seat}
        racks[seat] = list(view["rack"])
        pool = deck[-view["pool_count"]:] if len(deck) > view["pool_count"] else deck
        args = (seat, order, view["table_tiles"], racks, pool, view["initial_done"], play,
                view, horizon)
        lay += rollout("lay", *args)
        draw += rollout("draw", *args)
    return draw > lay
