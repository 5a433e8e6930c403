"""The start screen: a game started from the browser with its rule options
and seats, the starter seated by the session; refusals next to the field."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from games import services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def test_the_start_screen_shows_the_variants_options_as_fields():
    html = Client().get("/games/new/?variant=sabra").content.decode()
    assert 'name="rule_initial_meld" value="30"' in html and 'name="rule_manipulate_on_initial_turn"' in html
    assert 'value="ai:greedy"' in html
    contract = Client().get("/games/new/?variant=international").content.decode()
    assert "rule_initial_meld" not in contract and 'name="seat_7"' in contract


def test_a_game_is_started_with_options_and_an_ai_seat_and_the_starter_is_seated():
    client = Client()
    response = client.post("/games/new/", {
        "variant": "sabra", "title": "Club night", "players": "3", "name": "Ann",
        "seat_1": "ai:greedy", "seat_2": "person",
        "rule_initial_meld": "50", "rule_rack_size": "14", "rule_turn_time_limit": "60",
        "rule_joker_penalty": "30", "rule_joker_reuse": "new-meld", "rule_joker_sets": "free",
        "rule_joker_freed_from": "rack-or-table", "rule_direction": "clockwise",
        "rule_pool_empty_end": "all-pass"})
    game = Game.objects.get(title="Club night")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/play/"
    assert game.rules["initial_meld"] == 50 and game.players == 3
    seats = list(game.seats.order_by("index"))
    assert [s.kind for s in seats] == [Seat.Kind.HUMAN, Seat.Kind.AI, Seat.Kind.HUMAN]
    assert seats[0].name == "Ann" and seats[0].token_hash and not seats[2].token_hash
    assert "<h1>Ann</h1>" in client.get(response["Location"]).content.decode()


def test_a_bad_option_is_refused_next_to_its_field_and_nothing_is_stored():
    response = Client().post("/games/new/", {
        "variant": "sabra", "title": "Bad", "players": "2", "name": "Ann", "seat_1": "person",
        "rule_initial_meld": "30", "rule_rack_size": "14", "rule_turn_time_limit": "60",
        "rule_joker_penalty": "30", "rule_joker_reuse": "sometimes", "rule_joker_sets": "free",
        "rule_joker_freed_from": "rack-or-table", "rule_direction": "clockwise",
        "rule_pool_empty_end": "all-pass"})
    html = response.content.decode()
    assert response.status_code == 400
    row = html[html.index('<div class="row option"><ul class="errorlist"'):]
    assert 'for="id_rule_joker_reuse"' in row[:row.index("</div>")]  # the error sits at its field
    assert "sometimes is not one of the available choices" in html
    assert not Game.objects.filter(title="Bad").exists()
    # a combination the engine refuses: its sentence, next to the option it names
    both = Client().post("/games/new/", {
        "variant": "sabra", "title": "Bad", "players": "2", "name": "Ann", "seat_1": "person",
        "rule_initial_meld": "30", "rule_rack_size": "14", "rule_turn_time_limit": "60",
        "rule_joker_penalty": "30", "rule_joker_reuse": "new-meld", "rule_joker_sets": "free",
        "rule_joker_freed_from": "rack-or-table", "rule_direction": "clockwise",
        "rule_pool_empty_end": "all-pass", "rule_joker_group_both_colours": "on"})
    assert both.status_code == 400 and "has no effect while joker_sets=free" in both.content.decode()
    assert not Game.objects.filter(title="Bad").exists()
    missing = Client().post("/games/new/", {"variant": "sabra", "players": "9"})
    assert missing.status_code == 400 and "This field is required" in missing.content.decode()


def test_each_option_is_a_real_field_with_its_sentence():
    import re
    html = Client().get("/games/new/?variant=contract").content.decode()
    assert '<select name="rule_aces"' in html     # each value by its meaning, the code its value
    assert re.search(r'<option value="low-or-high"[^>]*>low or high, never wrapping \(A-2-3 or Q-K-A\)</option>', html)
    assert re.search(r'<input type="checkbox" name="rule_twos_wild"[^>]*checked', html)
    assert re.search(r'<input type="number" name="rule_hand_size" value="11"[^>]*max="15"', html)
    assert 'id="id_rule_hand_size_helptext"' in html  # the sentence the field is described by
    assert "Cards dealt to each player." in html
    # choosing the other profile alone starts from that profile's rules
    client = Client()
    form = {"variant": "contract", "title": "Profiles", "players": "3", "name": "Ann"}
    from games.lobby import NewGameForm, default_rules
    for key, value in default_rules(NewGameForm(variant="contract").variant_cls).items():
        if isinstance(value, bool):
            if value:
                form[f"rule_{key}"] = "on"
        else:
            form[f"rule_{key}"] = str(value)
    form["rule_profile"] = "international"
    assert client.post("/games/new/", form).status_code == 302
    game = Game.objects.get(title="Profiles")
    assert game.rules["profile"] == "international" and game.rules["undo_discard"] is True


def test_open_games_are_listed_found_by_name_and_joined():
    host = Client()
    form = {"variant": "sabra", "title": "Friday table", "players": "3", "name": "Ann",
            "seat_1": "person", "seat_2": "person"}
    from games.lobby import NewGameForm, default_rules
    for key, value in default_rules(NewGameForm(variant="sabra").variant_cls).items():
        if not isinstance(value, bool):
            form[f"rule_{key}"] = str(value)
    assert host.post("/games/new/", form).status_code == 302
    game = Game.objects.get(title="Friday table")
    api_game = services.game_create(variant="sabra", players=2, seats=["X", "Y"], title="Friday API")
    listing = Client().get("/games/?name=friday").content.decode()
    assert f'data-game="{game.pk}"' in listing and f'data-game="{api_game.pk}"' not in listing
    assert f'data-game="{game.pk}"' not in Client().get("/games/?name=saturday").content.decode()
    # Ben joins by name: the first open seat, held by his browser
    ben = Client()
    response = ben.post(f"/games/{game.pk}/join/", {"name": "Ben"})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/play/"
    assert game.seats.get(index=1).name == "Ben" and game.seats.get(index=1).is_taken
    assert "<h1>Ben</h1>" in ben.get(response["Location"]).content.decode()
    assert f'href="/games/{game.pk}/play/"' in ben.get("/games/").content.decode()  # "Your games"
    assert ben.post(f"/games/{game.pk}/join/", {"name": ""}).status_code == 400
    Client().post(f"/games/{game.pk}/join/", {"name": "Cleo"})
    assert f'data-game="{game.pk}"' not in Client().get("/games/").content.decode()  # full now
    assert Client().post(f"/games/{game.pk}/join/", {"name": "Dan"}).status_code == 409


def test_an_okey_room_is_started_with_its_settings_and_ai_seats():
    client = Client()
    html = client.get("/games/new/?variant=okey").content.decode()
    assert 'name="rule_start_points" value="20"' in html and 'name="rule_with_color"' in html
    assert "Compare Stone" in html and 'value="ai:strong"' in html
    response = client.post("/games/new/", {
        "variant": "okey", "title": "Kahve", "players": "4", "name": "Ayşe",
        "seat_1": "ai:greedy", "seat_2": "ai:strong", "seat_3": "person",
        "rule_start_points": "10", "rule_win_points": "2", "rule_seven_pairs": "on",
        "rule_okey_finish_double": "on", "rule_pairs_double": "on", "rule_compare_stone": "on"})
    game = Game.objects.get(title="Kahve")
    assert response.status_code == 302
    assert game.rules["start_points"] == 10 and game.rules["seven_pairs"] is True
    assert game.rules["with_color"] is False
    assert [s.kind for s in game.seats.order_by("index")] == [Seat.Kind.HUMAN, Seat.Kind.AI,
                                                               Seat.Kind.AI, Seat.Kind.HUMAN]
    page = client.get(response["Location"]).content.decode()
    assert "games/table/okey.js" in page and "tablekeeperOkey" in page


def test_play_the_computer_in_two_clicks_from_the_games_list():
    client = Client()
    html = client.get("/games/").content.decode()
    form = html[html.index('id="practice"'):html.index("</form>", html.index('id="practice"'))]
    # every level of each variant's family is offered, the family's default chosen for the first
    assert 'value="sabra:greedy"' in form and 'value="okey:strong"' in form and 'value="contract:strong"' in form and 'contract:standard' not in form
    assert form.count(" selected") == 1
    response = client.post("/games/practice/", {"choice": "okey:strong"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/play/"
    seats = list(game.seats.order_by("index"))
    assert game.variant == "okey" and game.players == 2 and game.training
    assert [(s.kind, s.ai_level) for s in seats] == [(Seat.Kind.HUMAN, ""), (Seat.Kind.AI, "strong")]
    assert seats[0].name == "You" and seats[0].token_hash
    page = client.get(response["Location"])
    assert page.status_code == 200 and "<h1>You</h1>" in page.content.decode()
    assert not Game.objects.filter(pk=game.pk, seats__kind=Seat.Kind.HUMAN, seats__token_hash="").exists()


def test_a_practice_game_takes_the_name_and_the_variants_fewest_players():
    client = Client()
    response = client.post("/games/practice/", {"choice": "contract:strong", "name": "Ann"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.players == 3
    assert [s.name for s in game.seats.order_by("index")][0] == "Ann"
    assert [s.kind for s in game.seats.order_by("index")] == ["human", "ai", "ai"]


@pytest.mark.parametrize("choice, words", [("sabra:genius", "no level 'genius'"), ("chess:greedy", "no game 'chess'"),
                                           ("", "no game ''")])
def test_a_bad_practice_choice_is_refused_and_nothing_is_stored(choice, words):
    response = Client().post("/games/practice/", {"choice": choice})
    assert response.status_code == 400 and words in html.unescape(response.content.decode())
    assert not Game.objects.exists()


@pytest.mark.parametrize("variant", ["sabra", "sabra-xp", "american", "international-rummikub", "okey",
                                     "contract"])
def test_the_start_screen_offers_every_level_of_the_family_expert_included(variant):
    from engine.ai import levels_for
    from engine.registry import find_variant

    html = Client().get(f"/games/new/?variant={variant}").content.decode()
    levels = list(levels_for(find_variant(variant).family))
    assert "expert" in levels
    assert all(f'value="ai:{level}"' in html for level in levels)
    assert 'value="ai:standard"' not in html     # an old name is not offered
