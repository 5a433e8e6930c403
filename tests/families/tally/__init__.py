"""Tally: the smallest family, written as a new family is (``docs/architecture.md``,
"Adding a family"): this package only, nothing in ``league/`` or ``games/``.

Tiles 1 to 12, two of each. Each seat is dealt four from a seeded shuffle.
On your turn: ``play N`` a tile higher than the last one on the table (any
tile on an empty table), ``draw`` one from the pool, or ``pass`` when the
pool is empty; a tile not higher is refused. A rack emptied wins; when
every seat passes in a row the lowest rack wins. Each loser pays the
winner what its rack holds (zero-sum).

Where each part lives:

- :mod:`.game`: :class:`TallyGame`, registered with ``@engine.registry.register``
- :mod:`.family`: :class:`TallyFamily`, the description the league and the
  pages ask (a round, the score sheet, the board), registered with
  ``engine.registry.register_family``
- :mod:`.ai`: the computer player, ``LEVELS = {"first": ...}``

Importing the package registers both (the tests import it; a family shipped
in ``engine/`` is imported by the registry, from ``FAMILIES``).
"""

from .family import FAMILY, TallyFamily
from .game import TallyGame

__all__ = ["FAMILY", "TallyFamily", "TallyGame"]
