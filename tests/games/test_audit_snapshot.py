"""The audit judges one consistent read of a game (issue 27, item 7): a
move recorded between its reads is never taken for a tamper, and no verdict
is stored from a torn read. (On PostgreSQL the read is one REPEATABLE READ
transaction; tests/integration/test_audit_live.py audits games while
workers play them.)"""

import pytest

from games import audit, services
from games.audit import AuditRace, audit_game
from games.models import AuditVerdict, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_play(db):
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    for _ in range(6):
        game.refresh_from_db()
        services.game_record_move(game=game, move="draw", expected_version=game.version)
    game.refresh_from_db()
    return game


def moving_between_reads(monkeypatch, game, times):
    """Record a move just before the audit reads the stream (after it read
    the game row), ``times`` times."""
    left = {"n": times}

    class Objects:
        def filter(self, **kw):
            if left["n"] > 0:
                left["n"] -= 1
                version = Event.objects.filter(game=game).count()
                services.game_record_move(game=game.pk, move="draw", expected_version=version)
            return Event.objects.filter(**kw)

    class Moving:
        objects = Objects()

    monkeypatch.setattr(audit, "Event", Moving)
    return left


def test_a_move_between_the_row_and_the_stream_is_read_again_not_accused(monkeypatch, in_play):
    moving_between_reads(monkeypatch, in_play, 1)
    verdict = audit_game(in_play)
    assert verdict.ok, verdict
    assert verdict.head_version == in_play.version + 1
    assert AuditVerdict.objects.get(game=in_play).ok


def test_a_game_moving_during_every_read_is_not_judged_and_nothing_is_stored(monkeypatch, in_play):
    moving_between_reads(monkeypatch, in_play, 100)
    with pytest.raises(AuditRace, match="moved on during each of 5 reads"):
        audit_game(in_play)
    assert not AuditVerdict.objects.filter(game=in_play).exists()
