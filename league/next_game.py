"""A tournament game's "Next game of the round": registered with the games
app (:func:`games.next_game.register_next_game`), which never imports the
league. A game that is a table game's stream is followed by the next game
of that table in the round (its stream opened if need be,
:func:`league.services.table_game_open_stream`), or by nothing after the
round's last game at that table."""

from __future__ import annotations

from games.next_game import NextGameSource, register_next_game

from .models import TableGame


def claims(game) -> bool:
    return TableGame.objects.filter(stream_id=game.pk).exists()


def open_next(game):
    from .services import LeagueError, table_game_open_stream

    current = TableGame.objects.select_related("table").get(stream_id=game.pk)
    following = TableGame.objects.filter(table=current.table, number=current.number + 1).first()
    if following is None:
        return None
    try:
        return table_game_open_stream(game=following, actor="league").stream
    except LeagueError:
        return None


register_next_game(NextGameSource(kind="round", claims=claims, open_next=open_next))
