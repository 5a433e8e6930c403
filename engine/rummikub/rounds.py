"""Multi-game rounds of Rummikub (seed 001): the first player rotates,
the round's winner has won the most games, then has the highest total."""

from __future__ import annotations

from ..errors import DealError, RuleOptionError
from .rules import DIRECTIONS
from .scoring import ScoreError


class Round:
    """A round of ``games`` games (by default as many as players, seed 001)
    with the first player rotating one seat in the direction of play each
    game. Record each game's scores and winners; the round's winner has
    won the most games, then has the highest total.

    >>> r = Round(2)
    >>> r.first_player(0), r.first_player(1)
    (0, 1)
    """

    def __init__(self, players: int, games: int | None = None, first: int = 0,
                 direction: str = "clockwise"):
        if not isinstance(players, int) or players < 2:
            raise DealError("a round needs at least two players")
        if direction not in DIRECTIONS:
            raise RuleOptionError(f"direction must be one of {', '.join(DIRECTIONS)}")
        self.players = players
        self.games = players if games is None else games
        if not isinstance(self.games, int) or self.games < 1:
            raise DealError("a round has at least one game")
        self.first = first
        self.direction = direction
        self.results: list[tuple[list[int], list[int]]] = []

    def first_player(self, index: int) -> int:
        """The seat that moves first in game ``index`` (0-based)."""
        step = 1 if self.direction == "clockwise" else -1
        return (self.first + step * index) % self.players

    def record(self, scores: list[int], winners: list[int]) -> None:
        """Add one game's result.

        :raises ScoreError: wrong length, not zero-sum, round complete.
        """
        if self.is_complete:
            raise ScoreError(f"the round's {self.games} games are all recorded")
        if len(scores) != self.players or sum(scores) != 0:
            raise ScoreError(f"a game's scores must be {self.players} numbers summing to 0: {scores}")
        if not winners or any(not 0 <= w < self.players for w in winners):
            raise ScoreError(f"bad winners {winners!r}")
        self.results.append((list(scores), list(winners)))

    def record_game(self, game: SabraGame) -> None:
        """Add a finished game.

        :raises ScoreError: the game is not over.
        """
        if not game.is_over:
            raise ScoreError("the game is not over")
        self.record(game.scores(), game.winners)

    @property
    def is_complete(self) -> bool:
        return len(self.results) >= self.games

    def totals(self) -> list[int]:
        return [sum(s[i] for s, _ in self.results) for i in range(self.players)]

    def games_won(self) -> list[int]:
        """Games won per seat; a game tied at the pool-empty end counts as a
        win for each tied player."""
        won = [0] * self.players
        for _, winners in self.results:
            for w in winners:
                won[w] += 1
        return won

    def standings(self) -> list[int]:
        """Seats best first: most games won, then highest total, then seat."""
        won, tot = self.games_won(), self.totals()
        return sorted(range(self.players), key=lambda s: (-won[s], -tot[s], s))

    def winner(self) -> int | None:
        """The round's winner, ``None`` while tied on games won and score."""
        order = self.standings()
        won, tot = self.games_won(), self.totals()
        a, b = order[0], order[1]
        if (won[a], tot[a]) == (won[b], tot[b]):
            return None
        return a
