"""Player ratings across all events, with openskill's Plackett-Luce model.

Pure: takes :class:`league.standings.GameResult` values (in time order by
their ``order`` key) and returns a rating per player. Every game is one
multiplayer match, ranked by its scores (equal scores are a shared place).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable

from openskill.models import PlackettLuce

from .standings import GameResult


@dataclass(frozen=True)
class Rating:
    """``mu`` and ``sigma`` of the model; ``ordinal`` (mu - 3 sigma) is the
    conservative value shown in tables; ``games`` counted."""

    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The ordinal on a familiar scale (starts near 0, good players
        reach a few hundred): ``round(ordinal * 20)``."""
        return round(self.ordinal * 20)


def compute_ratings(results: Iterable[GameResult]) -> dict[Hashable, Rating]:
    """Rate every player from all their games, oldest first.

    :raises ValueError: a game with fewer than two players.
    """
    model = PlackettLuce()
    state: dict = {}
    games: dict = {}
    for g in sorted(results, key=lambda r: r.order):
        players = list(g.scores)
        if len(players) < 2:
            raise ValueError(f"game {g.game!r} has fewer than two players")
        teams = [[state.get(p) or model.rating(name=str(p))] for p in players]
        rated = model.rate(teams, scores=[g.scores[p] for p in players])
        for p, team in zip(players, rated):
            state[p] = team[0]
            games[p] = games.get(p, 0) + 1
    return {p: Rating(mu=r.mu, sigma=r.sigma, games=games[p])
            for p, r in state.items()}
