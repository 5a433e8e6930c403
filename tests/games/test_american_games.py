"""American and International Rummikub in the games app: a game started
from the start screen with computer seats plays to its end through the
event store, the audit replays it clean, the game's page draws the table,
the trump and each seat's last discard, and no seat's page names another
rack while the game is on."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.ai_seats import ai_seats_play
from games.audit import audit_game
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("variant", ["american", "international-rummikub"])
def test_a_game_of_computer_seats_is_played_recorded_and_audited(variant):
    game = services.game_create(variant=variant, players=3, seats=[
        {"name": "Ada", "kind": "ai", "ai_level": "greedy"}, {"name": "Ben", "kind": "ai", "ai_level": "strong"},
        {"name": "Cem", "kind": "ai", "ai_level": "random"}], title=f"{variant} trial")
    assert ai_seats_play(game_id=game.pk).status == "game-over"
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished" and game.family == "american"
    verdict = audit_game(game)
    assert verdict.ok, verdict
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Ada" in page and "Cem" in page and 'class="chip' in page    # the table and the racks, drawn
    if variant == "american" and game.scores:
        assert sum(game.scores) == 0


def test_the_start_screen_offers_both_variants_with_their_options():
    client = Client()
    html = client.get("/games/new/?variant=international-rummikub").content.decode()
    assert 'name="rule_initial_meld" value="50"' in html and 'name="rule_announce"' in html
    assert "three or fewer tiles" in html and 'value="ai:strong"' in html
    response = client.post("/games/new/", {
        "variant": "american", "title": "Lemada", "players": "2", "name": "Ayşe", "seat_1": "ai:greedy",
        "rule_initial_meld": "21", "rule_joker_penalty": "25", "rule_joker_reuse": "new-meld",
        "rule_take_discard": "from-second-turn", "rule_pool_empty": "lowest-rack"})
    assert response.status_code == 302
    game = Game.objects.get(title="Lemada")
    assert game.rules["joker_penalty"] == 25 and game.rules["joker_reuse"] == "new-meld"
    page = client.get(response["Location"]).content.decode()
    assert 'id="trump"' in page and "Trump" in page
