"""The interface every game family offers to the rest of tablekeeper.

``games/`` (the event store) and ``league/`` know only this module and
:mod:`engine.registry`; they never look inside a family's rules.

A game is a state you push moves onto, as in python-chess::

    >>> from engine.registry import find_variant
    >>> Game = find_variant("sabra")
    >>> game = Game.new(players=2, seed="club-night-1")
    >>> move = game.parse_move("draw")
    >>> outcome = game.push(move)

Contract of a family's :class:`Game` subclass:

- ``family``, ``variant``, ``aliases``, ``min_players``, ``max_players`` and
  ``RuleSet`` (a frozen dataclass of named options) are class attributes.
- ``new(players, rules, seed=..., deal=...)`` starts a game from a seed (the
  shuffle is derived from it, deterministically, on every platform) or from a
  typed-in deal (a game played on a real table). Exactly one of the two.
- ``parse_move(text)`` reads the canonical move notation and raises
  :class:`~engine.errors.NotationError`; ``str(move)`` gives the canonical text
  back (round trip).
- ``push(move)`` checks and applies a move, returning an :class:`Outcome`, or
  raises :class:`~engine.errors.IllegalMoveError` and leaves the state as it
  was. Where the rules turn a failure into a penalty, the error carries the
  penalty move in ``.penalty``; the caller decides whether to push it.
- ``view(seat)`` is what that seat may see: its own rack/hand, the table, the
  counts of other racks and of the pool, whose turn it is. Never another
  seat's tiles, never the pool's order, until the rules reveal them (the game
  is over). ``view(None)`` is the public view.
- ``snapshot()`` / ``from_snapshot(data)`` give a JSON-safe dict of the whole
  state (server side only: it holds the pool) and back.
- ``scores()`` is ``None`` until the game is over, then one integer per seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar


def check_new_args(players, seed, deal, first, *, low: int, high: int, name: str) -> None:
    """The checks every family's ``new`` makes on its arguments: a whole
    number of players in ``low``..``high`` (``name`` takes them), exactly one
    of a non-empty seed and a deal, and ``first`` a seat.

    :raises DealError: the first argument that is wrong, named.
    """
    from .errors import DealError

    if isinstance(players, bool) or not isinstance(players, int):
        raise DealError(f"players must be a whole number, not {players!r}")
    if not low <= players <= high:
        raise DealError(f"{name} takes {low}-{high} players, not {players}")
    if (seed is None) == (deal is None):
        raise DealError("give exactly one of seed= and deal=")
    if seed is not None and (not isinstance(seed, str) or not seed):
        raise DealError(f"a seed is a non-empty string, not {seed!r}")
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise DealError(f"first must be a seat 0-{players - 1}, not {first!r}")


@dataclass(frozen=True)
class Outcome:
    """What one pushed move did.

    ``kind`` is a short code (``"played"``, ``"drew"``, ``"penalty"``,
    ``"timeout"``, ``"game-over"`` ...); ``detail`` is JSON-safe and public
    only once the game is over (it may name a drawn tile).
    """

    kind: str
    seat: int | None
    detail: dict[str, Any] = field(default_factory=dict)
    game_over: bool = False


class Game:
    """Abstract base of a game state. Subclasses implement every method."""

    family: ClassVar[str] = ""
    variant: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    RuleSet: ClassVar[type] = object
    #: whether the family's move notation names the acting seat itself
    #: (contract rummy: ``"2 buy"``, because a seat not on turn may move).
    #: Where it does not, a record's move line puts the seat in front and
    #: :mod:`engine.records` checks it against ``to_move``.
    moves_name_seat: ClassVar[bool] = False
    #: whether a finished game's ``scores()`` sum to zero (Rummikub: the
    #: winner gains what the others lose); a league checks it on results.
    zero_sum: ClassVar[bool] = True

    # --- construction -----------------------------------------------------
    @classmethod
    def rules_from_dict(cls, data: dict[str, Any] | None):
        """Build the frozen rule set from named options over this variant's
        defaults. :raises RuleOptionError: on an unknown option or bad value."""
        raise NotImplementedError

    @classmethod
    def rules_to_dict(cls, rules) -> dict[str, Any]:
        """The rule set as a JSON-safe dict (every option, by name)."""
        raise NotImplementedError

    @classmethod
    def new(cls, players: int, rules=None, *, seed: str | None = None,
            deal: dict[str, Any] | None = None, first: int = 0) -> "Game":
        """Start a game. ``first`` is the seat that moves first.

        :raises DealError: bad seed/deal or player count.
        :raises RuleOptionError: bad rules.
        """
        raise NotImplementedError

    # --- moves ------------------------------------------------------------
    def parse_move(self, text: str):
        """:raises NotationError: text not in the move notation."""
        raise NotImplementedError

    def push(self, move) -> Outcome:
        """Check and apply ``move``.

        :raises IllegalMoveError: the rules forbid it; state unchanged.
        """
        raise NotImplementedError

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, ``None`` once the game is over."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    def scores(self) -> list[int] | None:
        raise NotImplementedError

    # --- views and persistence ---------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def compose(self, melds: list[list[str]]) -> dict[str, Any]:
        """Optional, for families whose turn is laid out on a shared table:
        check a table laid out by a front end (the whole table after the
        turn, tile or card codes per meld) and write the move that says it
        (:func:`engine.rummikub.compose.compose_turn` describes the answer).

        :raises NotImplementedError: the family has no such turn.
        """
        raise NotImplementedError(f"{type(self).__name__} lays out no table turns")

    #: the family's rule options described for people (:mod:`engine.options`)
    OPTIONS: ClassVar[tuple] = ()

    @classmethod
    def rule_options(cls) -> list[dict[str, Any]]:
        """Every rule option of this variant with its default, kind (bool,
        int with its range, choice with what each value means) and a
        sentence saying what it does, in the order of ``rules_to_dict``.

        :raises KeyError: an option the family has not described.
        """
        from .options import describe

        return describe(cls.OPTIONS, cls.rules_to_dict(cls.rules_from_dict(None)))

    def turn_clock(self) -> tuple[int, str] | None:
        """Optional, for rules with a turn time limit: ``(seconds, move)``,
        the time the seat on turn has for its turn and the move recorded for
        it when the time runs out (the rules' penalty). ``None``: no clock
        now (none in these rules, or the game is over). The clock itself is
        the caller's: the engine only takes the move."""
        return None

    def snapshot(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> "Game":
        raise NotImplementedError
