"""A whole Rummikub game played at the browser table by pointing and
clicking: two browser contexts, one per seat, on daphne with live sockets.
Nothing is typed; every move is made by dragging tiles or by tapping a tile
and then its place, and each context sees the other's moves without a
reload by its player. A phone-sized context plays by taps only, and one
turn is played with the keyboard alone."""

from __future__ import annotations

import pytest

from engine.registry import find_variant
from games import services
from games.models import Event, Game

from .table import drag_into, tile

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANN = "R10 R11 R12 K9".split()   # seat 0, moves first
BEN = "O10 O11 O12 O9".split()   # seat 1
TOP = ["R9"]                     # the pool's first tile: Ann's draw


def dealt_game(title="Table night"):
    """A 2-seat game of 4-tile racks dealt so that it ends in four turns:
    Ann opens with a run, Ben opens with a run, Ann draws, Ben lays his last
    tile on his run and wins."""
    everything = [t for r in find_variant("sabra").new(2, seed="table").snapshot()["racks"] for t in r]
    everything += find_variant("sabra").new(2, seed="table").snapshot()["pool"]
    rest = list(everything)
    for t in ANN + BEN + TOP:
        rest.remove(t)
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title=title,
                                rules={"rack_size": 4}, deal={"racks": [ANN, BEN], "pool": TOP + rest})
    return game, [services.seat_take(game=game, index=i) for i in range(2)]


def open_seat(browser, base, game, token, **context):
    page = browser.new_context(**context).new_page()
    page.goto(f"{base}/games/play/#{token}")
    page.wait_for_url(f"{base}/games/{game.pk}/play/")
    page.wait_for_selector('#live[data-state="open"]', timeout=10000)
    return page


def wait_version(page, version):
    page.wait_for_function(f"document.getElementById('version')?.innerText === '{version}'", timeout=15000)
    page.wait_for_selector("#table-app .tk-bar", timeout=10000)


def settled(page):
    """The page's last check of the laid-out turn has come back."""
    page.wait_for_function("document.querySelector('#table-app').dataset.checking === '0'", timeout=15000)


def ready(page):
    """The engine's check of the laid-out turn has come back and End turn is
    on (generous waits: CI runs four browsers beside other tests)."""
    try:
        page.wait_for_function("document.querySelector('#table-app').dataset.checking === '0'", timeout=15000)
        page.wait_for_selector(".tk-end:not([disabled])", timeout=15000)
    except Exception:
        melds = page.locator(".tk-meld").evaluate_all(
            "els => els.map(e => Array.from(e.querySelectorAll('[data-code]')).map(t => t.dataset.code).join(' '))")
        raise AssertionError(f"the turn is not ready: {page.locator('.tk-say').inner_text()!r}; "
                             f"melds {melds}; version {page.locator('#version').inner_text()}") from None


def test_two_browsers_play_a_whole_game_by_drag_and_tap(asgi_live_server, browser, screenshot):
    game, tokens = dealt_game()
    ann = open_seat(browser, asgi_live_server, game, tokens[0], viewport={"width": 1100, "height": 850})
    ben = open_seat(browser, asgi_live_server, game, tokens[1], viewport={"width": 1100, "height": 850})
    assert ann.locator("#text-move").is_hidden() and ann.locator("#move").is_hidden()  # nothing to type
    assert ann.locator(".tk-rack button.tk-tile").count() == 4
    assert ben.locator(".tk-rack button.tk-tile").count() == 4
    assert ben.locator(".tk-end").is_disabled() and ben.locator(".tk-draw").is_disabled()  # not Ben's turn

    # turn 1, Ann: drag three tiles to a new meld, then onto it
    drag_into(ann, "R10", ".tk-new-meld", 0)
    drag_into(ann, "R11", '.tk-meld[data-meld="0"]', 0)
    drag_into(ann, "R12", '.tk-meld[data-meld="0"]', 0)
    ready(ann)
    assert "33" in ann.locator(".tk-laid").inner_text()
    ann.click(".tk-end")
    wait_version(ann, "2")
    wait_version(ben, "2")  # Ben's page followed over its socket
    assert ben.locator(".tk-meld").count() == 1 and ann.locator(".tk-rack button.tk-tile").count() == 1

    # turn 2, Ben: tap a tile, tap its place
    for code, place in (("O10", ".tk-new-meld"), ("O11", '.tk-meld[data-meld="1"]'),
                        ("O12", '.tk-meld[data-meld="1"]')):
        tile(ben, code).click()
        ben.click(place)
    ready(ben)
    ben.click(".tk-end")
    wait_version(ben, "3")
    wait_version(ann, "3")

    # turn 3, Ann: a tile that fits nowhere is shown as an invalid meld; reset; draw
    tile(ann, "K9").drag_to(ann.locator('.tk-meld[data-meld="0"]'))
    ann.wait_for_selector(".tk-meld.invalid", timeout=5000)
    assert ann.locator(".tk-end").is_disabled()
    assert "neither a run" in ann.locator(".tk-meld.invalid .tk-why").inner_text()
    screenshot(ann, "rummikub-turn-invalid-meld")
    ann.click(".tk-reset")
    assert ann.locator(".tk-meld.invalid").count() == 0 and ann.locator(".tk-rack button.tk-tile").count() == 1
    ann.click(".tk-draw")
    wait_version(ann, "4")
    wait_version(ben, "4")
    assert ann.locator(".tk-rack button.tk-tile").count() == 2

    # turn 4, Ben lays his last tile on his run and wins
    tile(ben, "O9").drag_to(ben.locator('.tk-meld[data-meld="1"]'))
    ready(ben)
    ben.click(".tk-end")
    ben.wait_for_selector("text=The game is over", timeout=8000)
    ann.wait_for_selector("text=The game is over", timeout=8000)
    final = Game.objects.get(pk=game.pk)
    assert final.is_over and services.load_state(final).view(None)["winners"] == [1]
    moves = [e.payload.get("move") for e in Event.objects.filter(game=game, type="MoveRecorded").order_by("version")]
    assert moves == ["play R10 R11 R12 -> [R10 R11 R12]", "play O10 O11 O12 -> [O10 O11 O12]", "draw",
                     "play O9 : [O10 O11 O12] -> [O9 O10 O11 O12]"]


def test_a_refused_turn_shows_the_rule_and_puts_the_board_back(asgi_live_server, browser):
    game, tokens = dealt_game("Refusal")
    page = open_seat(browser, asgi_live_server, game, tokens[0], viewport={"width": 1100, "height": 850})
    # two tiles of a run laid as a new meld alone: the engine writes no move; the third makes it valid
    tile(page, "R11").click()
    page.click(".tk-new-meld")
    tile(page, "R12").click()
    page.click('.tk-meld[data-meld="0"]')
    page.wait_for_selector(".tk-meld.invalid", timeout=5000)
    tile(page, "R10").click()
    page.click('.tk-meld[data-meld="0"]')
    ready(page)
    # the game moves on elsewhere first (a stale version): the refusal is shown, the board reset
    services.game_record_move(game=game.pk, move="draw", expected_version=1, seat=0, actor="test")
    # the page hears of it but keeps the turn being composed (it is busy)
    page.wait_for_function("window.tablekeeperLiveState().heard === 2", timeout=5000)
    assert page.evaluate("window.tablekeeperLiveState().seen") == 1
    page.click(".tk-end")
    # the turn belonged to a position that is gone: the page shows the table
    # as it is now (the draw made elsewhere: five tiles, the next seat on
    # turn), with the refusal carried across the reload
    page.wait_for_function("window.tablekeeperLiveState && window.tablekeeperLiveState().seen === 2",
                           timeout=5000)
    page.wait_for_selector(".tk-say.error", timeout=5000)
    assert "Move not recorded" in page.locator(".tk-say").inner_text()
    assert "no longer at version 1" in page.locator(".tk-say").inner_text()
    assert page.locator(".tk-meld").count() == 0 and page.locator(".tk-rack button.tk-tile").count() == 5
    assert page.locator(".tk-end").is_disabled() or not page.locator(".tk-end").is_visible()
    page.reload()  # said once: a later visit shows the page's own line
    page.wait_for_selector(".tk-say", timeout=5000)
    assert "Move not recorded" not in page.locator(".tk-say").inner_text()


def test_a_move_made_while_a_turn_is_composed_shows_once_the_turn_is_put_back(asgi_live_server, browser):
    game, tokens = dealt_game("Composing")
    page = open_seat(browser, asgi_live_server, game, tokens[0], viewport={"width": 1100, "height": 850})
    tile(page, "R11").click()
    page.click(".tk-new-meld")
    page.wait_for_selector(".tk-meld.invalid", timeout=5000)
    services.game_record_move(game=game.pk, move="draw", expected_version=1, seat=0, actor="test")
    page.wait_for_function("window.tablekeeperLiveState().heard === 2", timeout=5000)
    page.wait_for_timeout(1500)  # the turn being composed is kept meanwhile
    assert page.evaluate("window.tablekeeperLiveState().seen") == 1 and page.locator(".tk-meld").count() == 1
    page.click(".tk-reset")
    page.wait_for_function("window.tablekeeperLiveState && window.tablekeeperLiveState().seen === 2",
                           timeout=5000)
    page.wait_for_selector(".tk-rack button.tk-tile", timeout=5000)
    assert page.locator(".tk-rack button.tk-tile").count() == 5  # the draw made elsewhere


def test_a_phone_plays_a_turn_by_taps(asgi_live_server, browser, screenshot):
    game, tokens = dealt_game("Phone")
    phone = open_seat(browser, asgi_live_server, game, tokens[0], viewport={"width": 390, "height": 844},
                      is_mobile=True, has_touch=True, device_scale_factor=2)
    box = tile(phone, "R10").bounding_box()
    assert box["width"] >= 36 and box["height"] >= 44  # large enough for a finger
    tile(phone, "R10").tap()
    phone.tap(".tk-new-meld")
    for code in ("R11", "R12"):
        tile(phone, code).tap()
        phone.tap('.tk-meld[data-meld="0"]')
    ready(phone)
    screenshot(phone, "rummikub-phone")
    phone.tap(".tk-end")
    wait_version(phone, "2")
    assert Game.objects.get(pk=game.pk).version == 2


def test_one_turn_by_keyboard_alone(asgi_live_server, browser):
    game, tokens = dealt_game("Keys")
    page = open_seat(browser, asgi_live_server, game, tokens[0], viewport={"width": 1100, "height": 850})

    def press_on(selector):
        page.focus(selector)
        page.keyboard.press("Enter")

    tile(page, "R10").focus()
    page.keyboard.press("Enter")          # pick the tile up
    page.focus(".tk-new-meld")
    page.keyboard.press("Enter")          # put it in a new meld
    for code in ("R11", "R12"):
        tile(page, code).focus()
        page.keyboard.press("Space")
        tile(page, "R10", ".tk-meld").focus()
        page.keyboard.press("Enter")      # a tile of the meld: the picked one goes beside it
    ready(page)
    press_on(".tk-end")
    wait_version(page, "2")
    assert Event.objects.filter(game=game).last().payload.get("move") == "play R10 R11 R12 -> [R10 R11 R12]"


def test_a_game_is_started_from_the_start_screen_and_played_against_the_computer(asgi_live_server, browser,
                                                                                  screenshot):
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(f"{asgi_live_server}/games/")
    page.click("#start-game")
    page.fill("#id_title", "Against the computer")
    page.fill("#id_name", "Ann")
    page.select_option("#id_seat_1", "ai:greedy")
    page.fill("#id_rule_initial_meld", "25")
    screenshot(page, "lobby")
    page.click("#start")
    page.wait_for_selector("#table-app .tk-bar", timeout=10000)
    game = Game.objects.get(title="Against the computer")
    assert game.rules["initial_meld"] == 25 and "/games/%d/play/" % game.pk in page.url
    page.click(".tk-draw")  # Ann draws; the computer answers at once (eager tasks)
    page.wait_for_function("Number(document.getElementById('version')?.innerText) >= 3", timeout=10000)
    assert Game.objects.get(pk=game.pk).version >= 3


def marked(page, codes):
    """The meld the last move laid is outlined and its tiles ``codes``
    marked new (the table's order is the engine's: found by its tiles)."""
    try:
        page.wait_for_function("document.querySelectorAll('.tk-meld.tk-changed .tk-new').length === 3", timeout=5000)
    except Exception:
        melds = page.evaluate("Array.from(document.querySelectorAll('.tk-meld')).map(m => m.outerHTML).join(' | ')")
        raise AssertionError(f"the new meld is not marked: {melds}") from None
    new = page.locator(".tk-meld.tk-changed .tk-new").evaluate_all("els => els.map(e => e.dataset.code)")
    assert sorted(new) == sorted(codes)


def test_four_browsers_play_a_whole_game(asgi_live_server, browser, screenshot, in_place):
    """Four seats, four contexts (Dan's a 390x844 touch phone): each opens
    with a run in turn, by drag or by taps; every context follows each move
    over its socket, in place: no document is loaded again in the whole
    game, the new tiles are marked on the other screens until the next
    move, and the move list says it in words. Ann goes out. The time from
    each frame's arrival to the move drawn is printed (p50, p95)."""
    racks = ["R10 R11 R12 R9", "O10 O11 O12 K1", "B10 B11 B12 K2", "K10 K11 K12 O3"]
    racks = [r.split() for r in racks]
    sabra = find_variant("sabra").new(4, seed="table4").snapshot()
    rest = [t for r in sabra["racks"] for t in r] + sabra["pool"]
    for r in racks:
        for t in r:
            rest.remove(t)
    names = ["Ann", "Ben", "Cleo", "Dan"]
    game = services.game_create(variant="sabra", players=4, seats=names, title="Four",
                                rules={"rack_size": 4}, deal={"racks": racks, "pool": rest})
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    pages = [open_seat(browser, asgi_live_server, game, services.seat_take(game=game, index=i),
                       **(phone if i == 3 else {"viewport": {"width": 900, "height": 800}})) for i in range(4)]
    loads = [in_place.count_loads(p) for p in pages]
    dan = pages[3]
    box = dan.locator(".tk-dock").bounding_box()  # the phone's rack and buttons: fixed at the bottom
    assert dan.locator(".tk-dock").evaluate("e => getComputedStyle(e).position") == "fixed"
    assert box["y"] + box["height"] >= 844 - 2 and box["height"] < 844 / 2
    for i, page in enumerate(pages):
        run = racks[i][:3]
        if i % 2 == 0:   # by drag, each drop landed before the next (a drop
            # aimed at a meld the page is redrawing would miss it, as a hand would)
            tile(page, run[0]).drag_to(page.locator(".tk-new-meld"))
            for code in run[1:]:
                meld = page.locator(f'.tk-meld[data-meld="{i}"]')
                meld.wait_for()
                settled(page)
                tile(page, code).drag_to(meld)
                page.wait_for_selector(f'.tk-meld[data-meld="{i}"] [data-code="{code}"]', timeout=10000)
        else:            # by taps (Dan's on the phone), each landed before the next, as the drops
            act = (lambda target: page.tap(target)) if page is dan else (lambda target: page.click(target))
            tile(page, run[0]).tap() if page is dan else tile(page, run[0]).click()
            act(".tk-new-meld")
            page.wait_for_selector(f'.tk-meld[data-meld="{i}"] [data-code="{run[0]}"]', timeout=10000)
            for code in run[1:]:
                settled(page)
                tile(page, code).tap() if page is dan else tile(page, code).click()
                act(f'.tk-meld[data-meld="{i}"]')
                page.wait_for_selector(f'.tk-meld[data-meld="{i}"] [data-code="{code}"]', timeout=10000)
        ready(page)
        if page is dan:
            screenshot(dan, "phone-mid-turn", full=False)
        page.click(".tk-end")
        for other in pages:
            wait_version(other, str(i + 2))
            assert other.locator(".tk-meld").count() == i + 1
        for j, other in enumerate(pages):  # the others see the new tiles marked, and in words
            if j == i:
                assert other.locator(".tk-new").count() == 0
                continue
            marked(other, run)
            assert other.locator(".tk-meld.tk-changed").count() == 1
            said = other.inner_text("#recent").replace("\n", " ")
            assert f"{names[i]} laid" in said and "play " not in said
        if i == 0:
            screenshot(pages[1], "opponent-move-marked")
        assert "opened" in pages[(i + 1) % 4].locator(f'.tk-seat[data-seat="{i}"]').inner_text()
    screenshot(pages[2], "move-list-in-words", selector="#recent")
    ann = pages[0]
    tile(ann, "R9").drag_to(ann.locator('.tk-meld:has(button[data-code="R10"])'))  # the table's order is the engine's
    ready(ann)
    ann.click(".tk-end")
    for page in pages:
        page.wait_for_selector("text=The game is over", timeout=8000)
    assert services.load_state(Game.objects.get(pk=game.pk)).view(None)["winners"] == [0]
    assert loads == [[], [], [], []], f"documents loaded after the first: {loads}"
    assert [p.evaluate("performance.getEntriesByType('navigation').length") for p in pages] == [1, 1, 1, 1]
    times = in_place.frame_times(pages)
    assert len(times) >= 4 * 4
    print(f"\nframe arrival to move drawn: {len(times)} frames, p50 {in_place.percentile(times, .5):.1f} ms, "
          f"p95 {in_place.percentile(times, .95):.1f} ms, max {max(times):.1f} ms")


def test_the_turn_clock_runs_on_every_page_and_the_timeout_is_recorded(asgi_live_server, browser):
    """Seed 001's turn clock, cut to 10 s (the two pages open inside it on a
    busy machine): both pages count the seat on turn down; at zero the
    timeout is claimed and recorded (the penalty tile), and the clock starts
    for the next seat."""
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title="Clock",
                                rules={"turn_time_limit": 10})
    pages = [open_seat(browser, asgi_live_server, game, services.seat_take(game=game, index=i),
                       viewport={"width": 1000, "height": 800}) for i in range(2)]
    first = game.to_move
    for page in pages:
        text = page.locator(".tk-clock").inner_text()
        assert text.startswith(["Ann", "Ben"][first]) and text.endswith(" s")
        # its stopwatch is drawn by the page's CSS, not an emoji a machine may lack
        icon = page.evaluate("(() => { const s = getComputedStyle(document.querySelector('.tk-clock'), '::before');"
                             " return [s.content, s.borderTopStyle, parseFloat(s.width)]; })()")
        assert icon[0] == '""' and icon[1] == "solid" and icon[2] > 5, icon
    assert pages[first].locator(".tk-clock.mine").count() == 1 and pages[1 - first].locator(".tk-clock.mine").count() == 0
    for page in pages:
        wait_version(page, "2")
    moved = Event.objects.filter(game=game, type="MoveRecorded").first()
    assert moved.payload["move"] == "timeout" and moved.payload["seat"] == first
    assert pages[first].locator(".tk-rack button.tk-tile").count() == 15
    assert ["Ann", "Ben"][1 - first] in pages[first].locator(".tk-clock").inner_text()


def test_a_second_player_finds_the_open_game_by_name_and_joins(asgi_live_server, browser, screenshot):
    ann = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    ann.goto(f"{asgi_live_server}/games/new/?variant=contract")
    assert "Cards dealt to each player." in ann.inner_text("form.new-game")  # each option explained
    ann.select_option("#pick", "sabra")
    ann.wait_for_url("**/games/new/?variant=sabra")
    ann.fill("#id_title", "Tuesday online")
    ann.fill("#id_name", "Ann")
    ann.select_option("#id_rule_pool_empty_end", "first-pass")
    ann.click("#start")
    ann.wait_for_selector("#table-app .tk-bar", timeout=10000)
    game = Game.objects.get(title="Tuesday online")
    assert game.rules["pool_empty_end"] == "first-pass"

    ben = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    ben.goto(f"{asgi_live_server}/games/")
    ben.fill('input[name="name"][type="search"]', "tuesday")
    ben.click("form.find button")
    row = ben.locator(f'#open-games tr[data-game="{game.pk}"]')
    row.locator('input[name="name"]').fill("Ben")
    screenshot(ben, "open-games")
    row.locator("button").click()
    ben.wait_for_url(f"{asgi_live_server}/games/{game.pk}/play/")
    ben.wait_for_selector("#table-app .tk-bar", timeout=10000)
    assert "Ben" in ben.locator("h1").inner_text()
    ann.wait_for_function("document.querySelector('.tk-seats').innerText.indexOf('Ben') >= 0", timeout=8000)


def test_the_rack_is_arranged_freely_by_drag_taps_and_arrow_keys(asgi_live_server, browser):
    game, tokens = dealt_game("Arrange")
    page = open_seat(browser, asgi_live_server, game, tokens[0], viewport={"width": 1000, "height": 800})

    def order():
        return page.locator(".tk-rack button.tk-tile").evaluate_all("els => els.map(e => e.dataset.code)")

    assert order() == ["K9", "R10", "R11", "R12"]          # as dealt, sorted
    tile(page, "R12").drag_to(tile(page, "K9"))            # dropped on a tile: put before it
    assert order() == ["R12", "K9", "R10", "R11"]
    tile(page, "R11").click()
    tile(page, "K9").click()                               # picked, then a rack tile's place
    assert order() == ["R12", "R11", "K9", "R10"]
    tile(page, "R12").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert order() == ["R11", "K9", "R12", "R10"]
    assert page.evaluate("document.activeElement.dataset.code") == "R12"
    assert page.locator("#table-app").get_attribute("data-dirty") == "0"  # arranging is not a play
    assert page.locator(".tk-draw").is_enabled()
    page.reload()
    page.wait_for_selector("#table-app .tk-bar")
    assert order() == ["R11", "K9", "R12", "R10"]          # kept in this tab


def test_a_second_tab_composing_is_told_the_position_moved_on(asgi_live_server, browser, in_place):
    """Two tabs of the same seat: one composes a turn, the other draws. The
    composing tab keeps its tiles, says that the position moved on and
    offers Reset; Reset shows the new position. A spectator's game page
    follows the move in place. No document is loaded again."""
    game, tokens = dealt_game("Two tabs")
    first = open_seat(browser, asgi_live_server, game, tokens[0], viewport={"width": 1000, "height": 800})
    second = first.context.new_page()
    second.goto(f"{asgi_live_server}/games/{game.pk}/play/")
    second.wait_for_selector('#live[data-state="open"]', timeout=10000)
    watcher = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
    watcher.goto(f"{asgi_live_server}/games/{game.pk}/")
    watcher.wait_for_selector('#live[data-state="open"]', timeout=10000)
    loads = [in_place.count_loads(p) for p in (first, second, watcher)]
    tile(second, "R10").click()
    second.click(".tk-new-meld")
    second.wait_for_selector(".tk-meld", timeout=5000)
    first.click(".tk-draw")
    wait_version(first, "2")
    note = second.locator(".tk-moved-on")
    note.wait_for(timeout=10000)
    assert "another tab" in note.inner_text()
    assert second.locator(".tk-meld [data-code='R10']").count() == 1  # the composed turn is kept
    second.click(".tk-reset-new")
    wait_version(second, "2")
    assert second.locator(".tk-moved-on").count() == 0
    assert second.locator(".tk-rack button.tk-tile").count() == 5 and second.locator(".tk-meld").count() == 0
    watcher.wait_for_function("document.querySelector('#moves-box').innerText.indexOf('Ann drew') >= 0",
                              timeout=10000)
    assert "draw" not in watcher.inner_text("#moves-box").replace("drew", "")
    assert loads == [[], [], []], f"documents loaded after the first: {loads}"


@pytest.mark.parametrize("width,height", [(360, 640), (390, 844), (844, 390)])
def test_on_a_phone_the_rack_and_buttons_stay_at_the_bottom(asgi_live_server, browser, width, height):
    """Portrait and landscape: the dock (message, buttons, rack) is fixed at
    the bottom and leaves most of the screen to the table; tiles are big
    enough for a thumb; a turn is played by taps with the table scrolled."""
    game, tokens = dealt_game(f"Phone {width}")
    phone = open_seat(browser, asgi_live_server, game, tokens[0], viewport={"width": width, "height": height},
                      is_mobile=True, has_touch=True)
    dock = phone.locator(".tk-dock")
    box = dock.bounding_box()
    assert dock.evaluate("e => getComputedStyle(e).position") == "fixed"
    assert abs(box["y"] + box["height"] - height) <= 2 and box["height"] <= height * 0.5
    for code in ("R10", "K9"):
        t = tile(phone, code).bounding_box()
        assert t["height"] >= 44 and t["width"] >= 36 and t["y"] >= box["y"]  # in the dock, thumb-sized
    end = phone.locator(".tk-end").bounding_box()
    assert end["y"] >= box["y"] and end["height"] >= 40  # the buttons in reach, in the dock
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    tile(phone, "R10").tap()
    phone.tap(".tk-new-meld")
    for code in ("R11", "R12"):
        tile(phone, code).tap()
        phone.tap('.tk-meld[data-meld="0"]')
    ready(phone)
    phone.tap(".tk-end")
    wait_version(phone, "2")
