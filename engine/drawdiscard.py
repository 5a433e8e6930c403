"""The draw-and-discard turn shared by the card and tile families that play
it (contract rummy, Okey, American Rummikub): one seat on turn
(``active``), a game that is over or not (``over``), ``n`` seats, each
turn beginning with a draw from the stock or a take of a discard.

:class:`DrawDiscardGame` holds what those families' game classes do the
same, to the letter: who is on turn, the seat before it (whose discard may
be taken), reading a move's text, and the checks every ``push`` makes
first. What differs (what a take allows, how a hand or match ends and
scores) stays in each family.
"""

from __future__ import annotations

from typing import ClassVar

from .base import Game
from .errors import IllegalMoveError


class DrawDiscardGame(Game):
    """A game state of a draw-and-discard family. Subclasses keep ``active``
    (the seat on turn), ``over`` and ``n`` (the seat count), and set
    ``Move`` to their move class (with ``Move.parse(text)``)."""

    #: the family's move class
    Move: ClassVar[type]
    #: what a move pushed after the end is told
    over_text: ClassVar[str] = "the game is over"

    @property
    def to_move(self) -> int | None:
        """The seat on turn; ``None`` once the game is over."""
        return None if self.over else self.active

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.n

    @property
    def previous(self) -> int:
        """The seat before the one on turn: whose discard it may take."""
        return (self.active - 1) % self.n

    def parse_move(self, text: str):
        """:raises NotationError: text not in the move notation."""
        return self.Move.parse(text)

    def _accept(self, move):
        """The checks every push makes first: a move's text is read, and
        nothing is pushed once the game is over.

        :raises NotationError: text that does not parse.
        :raises IllegalMoveError: the game is over.
        """
        if isinstance(move, str):
            move = self.Move.parse(move)
        if self.over:
            raise IllegalMoveError(self.over_text, "game-over")
        return move
