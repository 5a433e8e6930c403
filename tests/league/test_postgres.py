"""On PostgreSQL the database itself keeps result events append-only and one
confirmed result per game (the integration leg runs these)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from league import services
from league.models import Result, ResultEvent, TableGame

pytestmark = pytest.mark.integration


def test_raw_sql_cannot_edit_or_delete_result_events(require_postgres, make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="pg")
    game = TableGame.objects.filter(table__round=rnd).first()
    services.result_record_score_sheet(game=game, racks=["", "R1", "R2", "R3"])
    for sql in ("UPDATE league_resultevent SET actor = 'x'", "DELETE FROM league_resultevent"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql)
    assert ResultEvent.objects.get().actor == ""
    # A second event written behind the services' back: its result row
    # cannot also be confirmed.
    stray = ResultEvent.objects.create(game=game, version=2, type="ResultCorrected",
                                       payload={"scores": [0, 0, 0, 0]})
    with pytest.raises(IntegrityError, match="result_one_confirmed_per_game"), \
            transaction.atomic():
        Result.objects.create(game=game, event=stray, status="confirmed", source="x",
                              scores=[0, 0, 0, 0], winners=[0])
