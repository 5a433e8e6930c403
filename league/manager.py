"""Thin loaders between the database and the pure algorithms.

Load rows (the standings a seating by standings needs through
:mod:`league.selectors`), call :mod:`league.seating`, save what comes back
in bulk. No rule is decided here. Only :mod:`league.services` calls this
module, inside its transactions; this module never imports the services.
"""

from __future__ import annotations

from .models import Entry, Round, Seat, Table, TableGame, Tournament
from .seating import seat_round
from .seating_reads import seating_conflict_pairs, seating_history
from .selectors import tournament_standings


def games_per_table(tournament: Tournament, seats: int) -> int:
    """How many games a table of ``seats`` plays in a round, as the
    tournament's family says (:meth:`engine.family.Family.games_per_table`):
    a Rummikub round is N games for N players, the first player rotating
    (seed 001); a contract rummy round one game of seven hands, an Okey
    round one match."""
    from engine.registry import family_for

    return family_for(tournament.family).games_per_table(seats)


def create_round_seating(*, tournament: Tournament, number: int, seed: str) -> Round:
    """Draw round ``number`` and save it: the round, its tables and seats,
    and each table's games (one per seat, the first seat rotating). Tables
    short of players hold 3 or more (2 where the table size is 2, a game
    for two at each table).

    :raises SeatingError: the players cannot be seated.
    """
    entries = [e for e in Entry.objects.filter(tournament=tournament).select_related("player")
               if e.plays_in(number)]
    by_player = {e.player_id: e for e in entries}
    method = tournament.seating_method
    if method == Tournament.Seating.STANDINGS and number > 1:
        ranked = [row.player for row in tournament_standings(tournament)
                  if row.player in by_player]
        ranked += sorted(set(by_player) - set(ranked))
    else:
        ranked = sorted(by_player)
        method = Tournament.Seating.RANDOM
    seating = seat_round(ranked, table_size=tournament.table_size, seed=seed,
                         history=seating_history(tournament), method=method,
                         allow_ai=tournament.ai_fill, conflicts=seating_conflict_pairs(tournament),
                         min_size=min(3, tournament.table_size))
    held = tournament.release_by_hand
    rnd = Round.objects.create(tournament=tournament, number=number, seed=seed,
                               seating_method=method, status=Round.Status.SEATED,
                               draw_released=not held, results_released=not held,
                               repeat_mates=seating.repeat_mates,
                               repeat_seats=seating.repeat_seats)
    tables = Table.objects.bulk_create(
        [Table(round=rnd, number=i + 1) for i in range(len(seating.tables))])
    seats, games = [], []
    for table, members in zip(tables, seating.tables):
        for position, player in enumerate(members):
            seats.append(Seat(table=table, position=position,
                              entry=by_player[player] if player is not None else None,
                              ai_level="" if player is not None else
                              (tournament.ai_level or "random")))
        for k in range(games_per_table(tournament, len(members))):
            games.append(TableGame(table=table, number=k + 1, first=k))
    Seat.objects.bulk_create(seats)
    TableGame.objects.bulk_create(games)
    return rnd
