"""The seat page after the second pass: another seat's tiles slide from
where they came (the mover's place in the score box) to where they land,
not where the reader asked for reduced motion; a short sound when another
seat moved, only where the bell is on; "Play again" at the end takes every
seat to its own seat in the same table again; "Play the computer" from the
games list in two clicks."""

from __future__ import annotations

import pytest

from engine.registry import find_variant
from games import services
from games.models import Game
from games.services import load_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANN = "R10 R11 R12 K9".split()
BEN = "O10 O11 O12 O9".split()
CLEO = "B1 B5 K3 O2".split()
TOP = ["R9", "B9"]

# every call of Element.animate, with the first keyframe's transform
COUNT_ANIMATIONS = """(() => {
window.tkAnimated = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.tkAnimated.push({code: this.dataset.code || "", from: frames[0].transform || ""});
  return animate.call(this, frames, options);
};
})()"""


def dealt(players, racks, title="Slides"):
    variant = find_variant("sabra")
    everything = [t for r in variant.new(2, seed="table").snapshot()["racks"] for t in r]
    everything += variant.new(2, seed="table").snapshot()["pool"]
    rest = list(everything)
    for t in [t for r in racks for t in r] + TOP:
        rest.remove(t)
    game = services.game_create(variant="sabra", players=players, seats=["Ann", "Ben", "Cleo"][:players],
                                title=title, rules={"rack_size": 4}, deal={"racks": racks, "pool": TOP + rest})
    return game, [services.seat_take(game=game, index=i) for i in range(players)]


def record(game, seat, move):
    game.refresh_from_db()
    services.game_record_move(game=game.pk, move=move, expected_version=game.version, seat=seat)


def test_another_seats_tiles_slide_from_its_place_and_a_sound_plays_where_the_bell_is_on(seat_pages):
    game, tokens = dealt(3, [ANN, BEN, CLEO])
    ben = seat_pages.open(game, tokens[1], viewport={"width": 1100, "height": 850}, reduced_motion="reduce")
    cleo = seat_pages.open(game, tokens[2], viewport={"width": 1100, "height": 850})
    for page in (ben, cleo):
        page.evaluate(COUNT_ANIMATIONS)
    record(game, 0, "play R10 R11 R12 -> [R10 R11 R12]")
    for page in (ben, cleo):
        seat_pages.wait(page, "2")
        page.wait_for_function("document.querySelectorAll('.tk-meld .tk-new').length === 3", timeout=5000)
        froms = page.locator(".tk-meld .tk-new").evaluate_all("els => els.map(e => e.dataset.from)")
        assert froms == ["seat:0"] * 3  # from Ann's rack (her place in the score box)
    slid = cleo.evaluate("window.tkAnimated")
    assert sorted(a["code"] for a in slid) == ["R10", "R11", "R12"]
    assert all(a["from"].startswith("translate(") and a["from"] != "translate(0px, 0px) scale(.8)" for a in slid)
    # the score box sits above the table: the tiles come down from it
    assert all(float(a["from"].split(",")[1].split("px")[0]) < 0 for a in slid)
    assert ben.evaluate("window.tkAnimated") == []  # reduced motion: marked, nothing moves
    # Cleo heard Ann's move (her bell is on; not her turn); Ben's bell rang for his turn instead
    assert cleo.get_attribute("#table-app", "data-move-sounds") == "1"
    assert cleo.get_attribute("#table-app", "data-bell") == "0"
    assert ben.get_attribute("#table-app", "data-bell") == "1"
    assert ben.get_attribute("#table-app", "data-move-sounds") is None
    # the bell off: no sound for the next move
    cleo.locator(".tk-bell-on").uncheck()
    record(game, 1, "draw")
    seat_pages.wait(cleo, "3")
    assert cleo.get_attribute("#table-app", "data-move-sounds") == "1"
    assert cleo.get_attribute("#table-app", "data-bell") == "0"


def test_play_again_takes_both_seats_to_the_same_table_again(seat_pages, screenshot):
    game, tokens = dealt(2, [ANN, BEN], title="Rematch night")
    ann = seat_pages.open(game, tokens[0], viewport={"width": 1100, "height": 850})
    ben = seat_pages.open(game, tokens[1], viewport={"width": 1100, "height": 850})
    assert ann.locator("#game-over").is_hidden()
    record(game, 0, "play R10 R11 R12 -> [R10 R11 R12]")
    record(game, 1, "play O10 O11 O12 -> [O10 O11 O12]")
    record(game, 0, "draw")
    game.refresh_from_db()
    last = load_state(game).play_to_table(["R10 R11 R12", "O9 O10 O11 O12"])
    record(game, 1, str(last))
    game.refresh_from_db()
    assert game.is_over
    for page in (ann, ben):  # the end arrives in place, with the button
        page.wait_for_selector("#game-over:not([hidden]) #next-game button", timeout=15000)
    ann.wait_for_function("document.getAnimations().length === 0", timeout=5000)  # the last slides landed
    screenshot(ann, "game-over-play-again", full=False)
    ann.click("#next-game button")
    ann.wait_for_selector("#table-app .tk-bar", timeout=10000)
    new = Game.objects.get(pk=Game.objects.get(pk=game.pk).next_game_id)
    assert ann.url.endswith(f"/games/{new.pk}/play/") and ann.locator("h1").inner_text() == "Ann"
    ben.click("#next-game button")
    ben.wait_for_selector("#table-app .tk-bar", timeout=10000)
    assert ben.url.endswith(f"/games/{new.pk}/play/") and ben.locator("h1").inner_text() == "Ben"
    assert new.title == "Rematch night" and new.first == 1 and new.rules["rack_size"] == 4
    assert ben.locator(".tk-rack button.tk-tile").count() == 4   # a new deal, Ben on turn
    assert ben.locator(".tk-draw").is_enabled() and ann.locator(".tk-draw").is_disabled()


def test_play_the_computer_in_two_clicks(asgi_live_server, browser):
    page = browser.new_context(viewport={"width": 1100, "height": 850}).new_page()
    page.goto(f"{asgi_live_server}/games/")
    page.select_option("#practice-choice", "sabra:strong")
    page.click("#practice-start")
    page.wait_for_selector("#table-app .tk-bar", timeout=10000)
    game = Game.objects.get()
    assert page.url.endswith(f"/games/{game.pk}/play/")
    assert [(s.kind, s.ai_level) for s in game.seats.order_by("index")] == [("human", ""), ("ai", "strong")]


def test_a_rounds_page_shows_its_tables_in_miniature_as_they_play(asgi_live_server, browser, screenshot):
    from league import services as league
    from league.models import Club, Player, TableGame, Tournament

    club = Club.objects.create(name="Live club")
    t = Tournament.objects.create(name="Live night", club=club, variant="sabra", table_size=3, rounds=1)
    for name in ("Ann", "Ben", "Cleo", "Dirk", "Eva", "Fay"):
        league.tournament_enter(tournament=t, player=Player.objects.create(name=name, club=club), checked_in=True)
    rnd = league.round_seat(tournament=t, seed="minis")
    firsts = [league.table_game_open_stream(game=g) for g in TableGame.objects.filter(table__round=rnd, number=1)]
    assert len(firsts) == 2
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(f"{asgi_live_server}/t/{t.slug}/round/1/")
    page.wait_for_function("document.querySelectorAll('#round-live .mini-board .board').length === 2", timeout=10000)
    game = Game.objects.get(pk=firsts[1].stream_id)
    state = load_state(game)
    services.game_record_move(game=game.pk, move="draw", expected_version=game.version, seat=state.to_move)
    slot = f'.mini-table[data-game="{game.pk}"] .mini-board'
    page.wait_for_function(f"document.querySelector('{slot}').dataset.version === '{game.version + 1}'",
                           timeout=10000)
    assert "▶" in page.locator(f'{slot} tr.to-move').inner_text()  # the turn moved on in the miniature
    screenshot(page, "round-live", full=False)
    other = f'.mini-table[data-game="{firsts[0].stream_id}"] .mini-board'
    assert page.locator(other).get_attribute("data-version") == str(Game.objects.get(pk=firsts[0].stream_id).version)
