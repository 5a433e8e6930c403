"""Selectors of the post-game analyses of tournament games: the figures of
each game's summary (``games.analysis``) summed per player, over a
tournament or over a player's games, and the sharpest players of a
tournament.

Only stored analyses of finished streams are read (an analysis exists only
once its game is over; the filter on the stream's status says so again). A
game with no analysis yet (its task not run) is left out, and counted in
``games_pending``. AI seats are not players: they are left out.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from games.models import Game, GameAnalysisRow

from .models import Player, Seat, TableGame, Tournament

FIGURES = ("turns", "best", "inaccuracies", "misses", "placed", "possible")


@dataclass
class PlayerAnalysis:
    """One player's summed figures; ``accuracy`` = placed / possible (1.0
    when nothing could have been placed)."""

    player_id: int
    name: str = ""
    games: int = 0
    turns: int = 0
    best: int = 0
    inaccuracies: int = 0
    misses: int = 0
    placed: int = 0
    possible: int = 0
    tournaments: set = field(default_factory=set)

    @property
    def accuracy(self) -> float:
        return round(self.placed / self.possible, 4) if self.possible else 1.0

    @property
    def percent(self) -> float:
        return round(100 * self.accuracy, 1)

    def add(self, figures: dict) -> None:
        self.games += 1
        for key in FIGURES:
            setattr(self, key, getattr(self, key) + int(figures.get(key, 0)))


def _summed(games) -> tuple[dict[int, PlayerAnalysis], int]:
    """``games``: TableGame rows with a stream. Per player id the sums, and
    how many finished games have no analysis stored yet."""
    games = list(games)
    rows = {r.game_id: r.data for r in GameAnalysisRow.objects.filter(
        game_id__in=[g.stream_id for g in games], game__status=Game.Status.FINISHED)}
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, pos, player in Seat.objects.filter(table_id__in={g.table_id for g in games}).values_list(
            "table_id", "position", "entry__player_id"):
        if player is not None:
            seats[table_id][pos] = player
    out: dict[int, PlayerAnalysis] = {}
    pending = 0
    for g in games:
        data = rows.get(g.stream_id)
        if data is None:
            pending += 1
            continue
        for figures in data.get("summary", []):
            player = seats[g.table_id].get(figures.get("seat"))
            if player is None:
                continue
            item = out.setdefault(player, PlayerAnalysis(player))
            item.add(figures)
            item.tournaments.add(g.tournament_id)
    names = dict(Player.objects.filter(pk__in=out).values_list("pk", "name"))
    for pk, item in out.items():
        item.name = names.get(pk, "")
    return out, pending


def tournament_analysis(tournament: Tournament, released_only: bool = False) -> dict:
    """``{"players": [PlayerAnalysis], "sharpest": [...], "games_pending"}``
    over the tournament's finished stream games: ``players`` by name,
    ``sharpest`` the best ten by accuracy (then fewer misses, fewer
    inaccuracies, name), players with at least one judged turn.

    :param released_only: only the games of rounds whose results the
        organiser has released (what the public pages show): an analysis
        tells who played well, which is a result.
    """
    games = TableGame.objects.filter(stream__isnull=False, stream__status=Game.Status.FINISHED,
                                     table__round__tournament=tournament)
    if released_only:
        games = games.filter(table__round__results_released=True)
    summed, pending = _summed(_Row(*g, tournament.pk) for g in games.values_list("id", "table_id", "stream_id"))
    players = sorted(summed.values(), key=lambda p: p.name)
    sharpest = sorted((p for p in players if p.turns),
                      key=lambda p: (-p.accuracy, p.misses, p.inaccuracies, p.name))[:10]
    return {"players": players, "sharpest": sharpest, "games_pending": pending}


def player_analysis(player: Player, released_only: bool = False) -> PlayerAnalysis | None:
    """The player's figures summed over every analysed game of every
    tournament they played, or ``None`` when none is analysed
    (``released_only``: of the rounds whose results are released)."""
    tables = Seat.objects.filter(entry__player=player).values_list("table_id", flat=True)
    games = TableGame.objects.filter(stream__isnull=False, stream__status=Game.Status.FINISHED, table_id__in=tables)
    if released_only:
        games = games.filter(table__round__results_released=True)
    games = list(games.values_list("id", "table_id", "stream_id", "table__round__tournament_id"))
    rows = [_Row(*g) for g in games]
    summed, _ = _summed(rows)
    return summed.get(player.pk)


@dataclass
class _Row:
    id: int
    table_id: int
    stream_id: int
    tournament_id: int
