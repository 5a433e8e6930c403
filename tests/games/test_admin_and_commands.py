"""The admin pages of games, events and verdicts; the audit action; the
games-only demo command."""

import pytest
from django.core.management import call_command

from games.models import AuditVerdict, Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("chief", "chief@example.invalid", "pw-chief-1")
    client.force_login(user)
    return client


def test_demo_games_plays_and_audits(capsys):
    call_command("demo_games", "--games", "2", "--players", "3")
    out = capsys.readouterr().out
    assert out.count("audit clean") == 2
    assert Game.objects.filter(status="finished").count() == 2


def test_admin_shows_games_events_and_runs_the_audit(staff_client):
    call_command("demo_games", "--games", "1", "--players", "2")
    game = Game.objects.get()
    page = staff_client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200 and "GameFinished" in page.content.decode()
    assert staff_client.get("/admin/games/event/").status_code == 200
    response = staff_client.post("/admin/games/game/", {"action": "audit_selected", "_selected_action": [game.pk]},
                                 follow=True)
    assert "1 audited, 0 with problems" in response.content.decode()
    assert AuditVerdict.objects.filter(game=game, ok=True).exists()
    assert staff_client.get("/admin/games/auditverdict/").status_code == 200
    # events are read-only in the admin
    event = game.events.first()
    assert staff_client.post(f"/admin/games/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
