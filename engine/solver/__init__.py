"""The exact Rummikub solver: the judge of disputes and the engine of the AI
players.

Public API (all functions are pure; tiles are :mod:`engine.tiles` codes or
tokens, melds are :mod:`engine.melds` slot tuples)::

    >>> from engine.solver import solve, divide
    >>> s = solve(table="R1 R2 R3", rack="R4 K4 B9 O9")
    >>> s.tiles_placed, s.value_placed, [str(t) for t in s.play]
    (1, 4, ['R4'])
    >>> divide("R1 R2 R3 K7 B7 O7 J") is not None
    True

- :func:`solve` - the largest play (most rack tiles, then most value) that
  leaves the table divisible; initial-meld mode; fewest table tiles moved.
- :func:`divide` - a division of any multiset into valid melds, or ``None``.
- :func:`could_open` / :func:`could_play_more` - the dispute questions.

The problem read by default (seed 000): the table is a multiset that may be
rearranged freely, jokers included. See ``docs/solver.md``.
"""

from .api import (Solution, SolverError, could_open, could_play_more, divide,
                  solve)

__all__ = ["Solution", "SolverError", "solve", "divide", "could_open",
           "could_play_more"]
