"""A stream cut back at its head, found without trusting the database
(issue 27, item 2).

The tamper: delete the last events of a game, set its row back to the
shorter stream (version, turn, status, scores, state) and, for a finished
game, put the seed (already public) back into the secret table. The stream
is then clean in itself: the audit alone says clean (asserted below). Each
layer finds it on its own, naming the first missing event:

- a player's head receipt (nothing else kept: no checkpoint, no result);
- a checkpoint written before the tamper (stored, or exported to a file
  kept off the server while the stored ones are gone);
- the league's recorded result (tests/league/test_result_heads.py).
"""

import json

import pytest
from django.core.management import call_command

from games import checkpoints, receipts, services
from games.audit import audit_game
from games.models import Checkpoint, Event, Game, SeedSecret

from .test_audit import raw
from .test_services import play_to_end

pytestmark = pytest.mark.django_db


def roll_back(game, keep):
    """Cut ``game``'s stream back to its first ``keep`` events and make
    everything else agree: the row rebuilt from the shorter stream, later
    snapshots gone, the revealed seed put back as the kept secret."""
    finished = Event.objects.filter(game=game, type="GameFinished").values_list("payload", flat=True).first()
    raw("DELETE FROM games_event WHERE game_id = %s AND version > %s", [game.pk, keep])
    raw("DELETE FROM games_snapshot WHERE game_id = %s AND version > %s", [game.pk, keep])
    if finished and finished.get("seed"):
        SeedSecret.objects.get_or_create(game=game, defaults={"seed": finished["seed"]})
    services.projection_rebuild(Game.objects.get(pk=game.pk))
    game.refresh_from_db()
    assert game.version == keep and not game.is_over


def sabra_in_play():
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    for _ in range(12):
        game.refresh_from_db()
        services.game_record_move(game=game, move="draw", expected_version=game.version)
    game.refresh_from_db()
    return game


def highcard_finished():
    game = play_to_end(services.game_create(variant="highcard", players=3), pick=lambda moves: moves[0])
    assert game.version >= 10, "the finished game is long enough to lose seven events"
    return game


# (name, make the game, how many events to cut)
CASES = [
    ("in play, cut back by four", sabra_in_play, 4),
    ("finished, the winning move and GameFinished deleted", highcard_finished, 2),
    ("finished, cut back by seven", highcard_finished, 7),
]


@pytest.fixture(params=CASES, ids=[c[0] for c in CASES])
def tamper(request, db):
    """``(game, head before, first missing version)``, the game not yet
    rolled back; ``tamper.apply()`` does it."""
    _, make, cut = request.param
    game = make()
    head = game.version

    class Tamper:
        def __init__(self):
            self.game, self.head, self.keep = game, head, head - cut

        def apply(self):
            roll_back(self.game, self.keep)
            # the stream is clean in itself: the audit alone does not see it
            alone = audit_game(self.game, save=False)
            assert alone.ok, alone

    return Tamper()


def test_the_tampers_are_invisible_to_the_audit_alone(tamper):
    if tamper.head - tamper.keep == 2:
        winning = Event.objects.get(game=tamper.game, version=tamper.keep + 1)
        assert winning.type == "MoveRecorded"
        assert Event.objects.get(game=tamper.game, version=tamper.head).type == "GameFinished"
    tamper.apply()
    assert Checkpoint.objects.count() == 0


# --- receipts on their own ------------------------------------------------------

def test_a_receipt_names_the_missing_tail(tamper, client, tmp_path, capsys):
    receipt = receipts.receipt_at(tamper.game.pk, tamper.head)
    ok = client.post(f"/api/games/{tamper.game.pk}/verify-receipt/", receipt, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["ok"] is True
    tamper.apply()
    first, last, kept = tamper.keep + 1, tamper.head, tamper.keep
    answer = client.post(f"/api/games/{tamper.game.pk}/verify-receipt/", receipt, content_type="application/json")
    body = answer.json()
    assert answer.status_code == 200 and body["ok"] is False and body["first_bad_version"] == first
    assert f"events {first}..{last} are missing: the stream ends at {kept}" in body["problem"]
    assert body["stream_version"] == kept
    path = tmp_path / "receipt.json"
    path.write_text(json.dumps(receipt))
    with pytest.raises(SystemExit) as code:
        call_command("audit_games", "--receipt", str(path))
    assert code.value.code == 1
    out = capsys.readouterr().out
    assert f"game {tamper.game.pk}: BAD at event {first}: events {first}..{last} are missing" in out


# --- checkpoints on their own ---------------------------------------------------

def test_the_newest_checkpoint_names_the_missing_tail(tamper):
    checkpoints.checkpoint_write(reason="test")
    roll_back(tamper.game, tamper.keep)
    verdict = audit_game(tamper.game, save=False)
    first = tamper.keep + 1
    assert not verdict.ok and verdict.first_bad_version == first, verdict
    assert f"events {first}..{tamper.head} are missing: the stream ends at {tamper.keep}" in verdict.problem
    assert "checkpoint #1" in verdict.problem


def test_a_kept_checkpoint_file_names_the_missing_tail_after_the_stored_ones_are_gone(tamper, tmp_path, capsys):
    path = tmp_path / "checkpoint.json"
    call_command("checkpoint", "--export", str(path))
    assert json.loads(path.read_text())["heads"][str(tamper.game.pk)] == [tamper.head, Event.objects.get(
        game=tamper.game, version=tamper.head).hash]
    raw("DELETE FROM games_checkpoint", [])
    tamper.apply()
    with pytest.raises(SystemExit) as code:
        call_command("audit_games", "--no-progress", "--no-save", "--checkpoint", str(path))
    assert code.value.code == 1
    first = tamper.keep + 1
    out = capsys.readouterr().out
    assert f"game {tamper.game.pk}: BAD at event {first}: events {first}..{tamper.head} are missing: " \
           f"the stream ends at {tamper.keep} (checkpoint #1 holds event {tamper.head})" in out


def test_a_changed_event_under_a_checkpoint_is_named(db):
    game = sabra_in_play()
    checkpoints.checkpoint_write()
    row = Event.objects.get(game=game, version=game.version)
    raw("UPDATE games_event SET hash = %s WHERE id = %s", ["0" * 64, row.pk])
    verdict = audit_game(game, save=False)
    assert not verdict.ok and verdict.first_bad_version == game.version
    assert f"event {game.version} was changed" in verdict.problem


def test_checkpoints_chain_sign_and_skip_when_nothing_moved(db):
    game = sabra_in_play()
    one = checkpoints.checkpoint_write()
    assert checkpoints.checkpoint_write().seq == one.seq == 1  # nothing moved: nothing written
    services.game_record_move(game=game, move="draw", expected_version=game.version)
    two = checkpoints.checkpoint_write()
    assert two.seq == 2 and two.prev_hash == one.hash and two.heads[str(game.pk)][0] == game.version + 1
    assert checkpoints.chain_problems() == []
    raw("UPDATE games_checkpoint SET heads = %s WHERE id = %s", [json.dumps({}), one.pk])
    assert checkpoints.chain_problems() == ["checkpoint #1: its hash is not its content's (it was edited)"]


def test_a_checkpoint_file_not_signed_here_is_refused(db, tmp_path, settings):
    sabra_in_play()
    path = tmp_path / "cp.json"
    call_command("checkpoint", "--export", str(path))
    data = json.loads(path.read_text())
    data["heads"] = {k: [1, v[1]] for k, v in data["heads"].items()}
    path.write_text(json.dumps(data))
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="its hash is not its content's") as exc:
        call_command("audit_games", "--checkpoint", str(path))
    assert exc.value.returncode == 2


def test_staff_download_the_newest_checkpoint(staff_api, client, db):
    sabra_in_play()
    assert staff_api.get("/api/checkpoints/latest/").status_code == 404
    checkpoints.checkpoint_write()
    answer = staff_api.get("/api/checkpoints/latest/")
    assert answer.status_code == 200 and "checkpoint-1.json" in answer["Content-Disposition"]
    assert checkpoints.load_file(answer.content.decode()).seq == 1
    assert client.get("/api/checkpoints/latest/").status_code in (401, 403)


def test_a_closed_round_queues_a_checkpoint(db):
    from games.models import OutboxMessage
    from league.handlers import CHECKPOINT_TASK

    assert CHECKPOINT_TASK == checkpoints.TASK
    from league.models import Club, Round, Tournament

    t = Tournament.objects.create(name="t", club=Club.objects.create(name="c"))
    rnd = Round.objects.create(tournament=t, number=1)
    rnd.status = Round.Status.CLOSED
    rnd.save(update_fields=["status"])
    assert OutboxMessage.objects.filter(topic="games.checkpoint").exists()


def test_beat_writes_a_checkpoint_periodically(db, settings):
    from games.tasks import checkpoint

    assert settings.CELERY_BEAT_SCHEDULE["games-checkpoint"]["task"] == checkpoints.TASK == checkpoint.name
    game = sabra_in_play()
    assert checkpoint.apply(kwargs={"reason": "beat"}).get() == {"seq": 1, "streams": 1}
    assert Checkpoint.objects.get().heads == {str(game.pk): [game.version, Event.objects.get(
        game=game, version=game.version).hash]}
