"""A contract rummy hand played at the browser table by clicks and drags
only (seed 004's online game): two browser contexts on daphne with live
sockets, the International profile, a dealt hand that ends in a few turns.
Drawing by clicking the stock, going down through the contract's boxes,
discarding by dragging to the pile, a Buy on one's own turn, an Undo, a
refused lay-off, laying off by drag and by taps, and the hand's end with
every hand shown face up."""

from __future__ import annotations

from collections import Counter

import pytest


from engine.cards import TEXT, deck_counter, make_deck, seeded_shuffle
from engine.contract.rules import ContractRules
from games import services
from games.models import Event, Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = 7
ANN = "5H 5D 5C 9S 9H 9C KD".split()  # seat 0 starts
BEN = "3C 4D 6S 7H 8C TD JS".split()
UPCARD = "2H"
STOCK_TOP = "9D 2C 3H 4S 5S".split()  # Ann's draw; Ben's three with his buy; Ann's next draw


def whole_deal(players=2):
    """A deal of all seven hands: hand 1 as above, the others shuffled."""
    rules = ContractRules.preset("international")
    pack = [TEXT[int(c)] for c in make_deck(rules.decks_for(players), rules.jokers_per_deck)]
    assert Counter(pack) == Counter({TEXT[c]: k for c, k in deck_counter(rules.decks_for(players),
                                                                          rules.jokers_per_deck).items()})
    deal = {}
    rest = list(pack)
    for c in ANN + BEN + [UPCARD] + STOCK_TOP:
        rest.remove(c)
    deal.update(hand1=[ANN, BEN], upcard1=[UPCARD], stock1=STOCK_TOP + rest)
    for h in range(2, 8):
        shuffled = [TEXT[int(c)] for c in seeded_shuffle(make_deck(rules.decks_for(players), rules.jokers_per_deck),
                                                         f"browser/{h}")]
        hands = [shuffled[i * HAND:(i + 1) * HAND] for i in range(players)]
        k = players * HAND
        deal.update({f"hand{h}": hands, f"upcard{h}": [shuffled[k]], f"stock{h}": shuffled[k + 1:]})
    return deal


def dealt_game(title="Contract night"):
    game = services.game_create(variant="international", players=2, seats=["Ann", "Ben"], title=title,
                                rules={"hand_size": HAND}, deal=whole_deal())
    return game, [services.seat_take(game=game, index=i) for i in range(2)]


def open_seat(browser, base, game, token, **context):
    page = browser.new_context(**context).new_page()
    page.goto(f"{base}/games/play/#{token}")
    page.wait_for_url(f"{base}/games/{game.pk}/play/")
    page.wait_for_selector('#live[data-state="open"]', timeout=10000)
    page.wait_for_selector("#table-app .tk-bar", timeout=5000)
    return page


def card(page, code, where=".tk-hand"):
    return page.locator(f'{where} button.tk-card[data-code="{code}"]').first


def wait_version(page, version):
    page.wait_for_function(f"document.getElementById('version')?.innerText === '{version}'", timeout=8000)
    page.wait_for_selector("#table-app .tk-bar", timeout=5000)


def moves(game):
    return [e.payload.get("move") for e in Event.objects.filter(game=game, type="MoveRecorded").order_by("version")]


def both(pages, version):
    for p in pages:
        wait_version(p, version)


def test_two_browsers_play_a_contract_hand_by_clicks_and_drags(asgi_live_server, browser, screenshot, in_place):
    game, tokens = dealt_game()
    size = {"viewport": {"width": 1100, "height": 900}}
    ann = open_seat(browser, asgi_live_server, game, tokens[0], **size)
    ben = open_seat(browser, asgi_live_server, game, tokens[1], **size)
    pages = (ann, ben)
    loads = [in_place.count_loads(p) for p in pages]  # no page is loaded again: every frame is applied in place
    assert ann.locator("#text-move").is_hidden() and ann.locator("#move").is_hidden()  # nothing to type
    assert ann.locator(".tk-hand button.tk-card").count() == 7
    assert ben.locator(".tk-hand button.tk-card").count() == 7
    assert "Hand 1 of 7: two sets" in ann.locator(".tk-contract").inner_text()
    # Ben sees Ann's count, never her cards
    assert ben.locator('.tk-hand [data-code="5H"]').count() == 0
    assert "7 cards" in ben.locator('.tk-seat[data-seat="0"]').inner_text()

    # Ann draws by clicking the stock, goes down through the two boxes, discards by drag
    ann.click(".tk-stock")
    both(pages, "2")
    assert card(ann, "9D").count() == 1
    for code in ("5H", "5D", "5C"):
        card(ann, code).click()
    ann.click('.tk-box[data-box="0"]')                       # the selected cards, by tap
    for code in ("9S", "9H", "9C"):
        card(ann, code).drag_to(ann.locator('.tk-box[data-box="1"]'))  # one by one, by drag
    assert ann.locator('.tk-box[data-box="1"] .tk-card').count() == 3
    ann.click(".tk-down")
    both(pages, "3")
    assert ben.locator(".tk-meld").count() == 2                  # Ben saw it without a reload of his own
    card(ann, "KD").drag_to(ann.locator(".tk-discard"))
    both(pages, "4")

    # Ben may buy on his own turn: the Buy button is there
    ben.wait_for_selector(".tk-buy:not([hidden])", timeout=5000)
    assert ann.locator(".tk-buy").is_hidden()
    screenshot(ben, "contract-round-buy")
    ben.click(".tk-buy")
    both(pages, "5")
    assert ben.locator(".tk-hand button.tk-card").count() == 11  # the discard and three from the stock
    assert "1 bought" in ann.locator('.tk-seat[data-seat="1"]').inner_text()
    card(ben, "3C").drag_to(ben.locator(".tk-discard"))
    both(pages, "6")
    ben.click(".tk-undo")                                       # before Ann draws
    both(pages, "7")
    assert card(ben, "3C").count() == 1
    card(ben, "JS").click()
    ben.click(".tk-discard")                                    # select, then tap the pile
    both(pages, "8")

    # Ann draws 5S; laying off 5S onto the nines is refused with the rule's sentence
    ann.click(".tk-stock")
    both(pages, "9")
    card(ann, "5S").drag_to(ann.locator('.tk-meld[data-meld="1"]'))
    ann.wait_for_selector(".tk-say.error", timeout=5000)
    assert "does not fit" in ann.locator(".tk-say").inner_text()
    assert Game.objects.get(pk=game.pk).version == 9            # nothing stored
    # 9D on the nines by drag, then 5S on the fives by taps: Ann goes out
    card(ann, "9D").drag_to(ann.locator('.tk-meld[data-meld="1"]'))
    both(pages, "10")
    card(ann, "5S").click()
    ann.click('.tk-meld[data-meld="0"]')
    both(pages, "11")

    # the hand is over: every hand face up with its points, on both screens
    for p in pages:
        p.wait_for_selector(".tk-handover", timeout=5000)
        assert "Ann went out" in p.locator(".tk-handover h3").inner_text()
    shown = ben.locator(".tk-handover tr").nth(2).locator(".tk-card")
    assert sorted(shown.evaluate_all("els => els.map(e => e.dataset.code)")) == sorted(
        ["2C", "3C", "3H", "4D", "4S", "6S", "7H", "8C", "KD", "TD"])
    ann.click(".tk-next-hand")
    assert ann.locator(".tk-handover").count() == 0
    assert "Hand 2 of 7: one set and one run" in ann.locator(".tk-contract").inner_text()

    assert ann.locator(".tk-seat.to-move").get_attribute("data-seat") == "0"  # who went out starts hand 2
    # the move list in words, names and cards drawn, no notation
    said = ben.inner_text("#recent")
    assert "Ben took the discard back" in said and "Ann laid off" in said and "9\u2666" in said
    assert "0 lay" not in said and "undo" not in said
    assert loads == [[], []], f"documents loaded after the first: {loads}"
    assert [p.evaluate("performance.getEntriesByType('navigation').length") for p in pages] == [1, 1]
    assert moves(game) == ["0 draw", "0 down 5H 5D 5C / 9S 9H 9C", "0 discard KD", "1 buy",
                           "1 discard 3C", "1 undo", "1 discard JS", "0 draw", "0 lay 9D 2", "0 lay 5S 1"]
    state = services.load_state(Game.objects.get(pk=game.pk))
    assert state.view(None)["results"][0]["winner"] == 0


def test_the_hand_is_arranged_by_arrow_keys_and_kept_across_redraws(asgi_live_server, browser):
    game, tokens = dealt_game("Arrange")
    page = open_seat(browser, asgi_live_server, game, tokens[1], viewport={"width": 1000, "height": 800})

    def order():
        return page.locator(".tk-hand button.tk-card").evaluate_all("els => els.map(e => e.dataset.code)")

    page.click(".tk-sort-rank")
    assert order() == ["3C", "4D", "6S", "7H", "8C", "TD", "JS"]
    card(page, "JS").focus()
    for _ in range(6):
        page.keyboard.press("ArrowLeft")
    assert order() == ["JS", "3C", "4D", "6S", "7H", "8C", "TD"]
    assert page.evaluate("document.activeElement.dataset.code") == "JS"  # the card keeps the focus
    page.keyboard.press("Enter")                                      # and Enter selects it
    assert page.locator("#table-app").get_attribute("data-selected") == "1"
    # another seat moves; the page redraws itself and the order stays
    services.game_record_move(game=game.pk, move="draw", expected_version=1, seat=0, actor="test")
    wait_version(page, "2")
    assert order() == ["JS", "3C", "4D", "6S", "7H", "8C", "TD"]


def test_the_bell_rings_when_the_turn_comes_round(asgi_live_server, browser):
    game, tokens = dealt_game("Bell")
    page = open_seat(browser, asgi_live_server, game, tokens[1], viewport={"width": 1000, "height": 800})
    assert page.locator("#table-app").get_attribute("data-bell") == "0"  # not Ben's turn
    assert page.locator(".tk-bell-on").is_checked()
    services.game_record_move(game=game.pk, move="draw", expected_version=1, seat=0, actor="test")
    services.game_record_move(game=game.pk, move="discard KD", expected_version=2, seat=0, actor="test")
    wait_version(page, "3")
    assert page.locator("#table-app").get_attribute("data-bell") == "1"
    assert page.title().startswith("\u25cf Your turn")
    # switched off, it stays silent the next time
    page.locator(".tk-bell-on").uncheck()
    services.game_record_move(game=game.pk, move="draw", expected_version=3, seat=1, actor="test")
    services.game_record_move(game=game.pk, move="discard JS", expected_version=4, seat=1, actor="test")
    wait_version(page, "5")
    services.game_record_move(game=game.pk, move="draw", expected_version=5, seat=0, actor="test")
    services.game_record_move(game=game.pk, move="discard 5H", expected_version=6, seat=0, actor="test")
    wait_version(page, "7")
    assert page.locator("#table-app").get_attribute("data-bell") == "0"


def test_four_browsers_play_a_hand_with_a_buy_the_player_on_turn_allows(asgi_live_server, browser):
    """Seed 002's profile (three decks, buying with the consent of the player
    on turn), four contexts: Cleo asks to buy Ann's discard off turn, Ben
    allows it, everyone plays on, Ann goes out; every context follows."""
    hands = ["5H 5D 5C 9S 9H 9C KD", "3C 4D 6S 7H 8C TD JS", "3D 4H 6C 7S 8D TH JC", "3S 4C 6D 7C 8H TS JD"]
    hands = [h.split() for h in hands]
    stock_top = "9D QC QD KS KH KC 5S".split()
    rules = ContractRules.preset("three-decks")
    pack = [TEXT[int(c)] for c in make_deck(rules.decks_for(4), rules.jokers_per_deck)]
    rest = list(pack)
    for c in [x for h in hands for x in h] + ["4D"] + stock_top:
        rest.remove(c)
    deal = {"hand1": hands, "upcard1": ["4D"], "stock1": stock_top + rest}
    for h in range(2, 8):
        shuffled = [TEXT[int(c)] for c in seeded_shuffle(make_deck(3, 2), f"four/{h}")]
        deal.update({f"hand{h}": [shuffled[i * HAND:(i + 1) * HAND] for i in range(4)],
                     f"upcard{h}": [shuffled[4 * HAND]], f"stock{h}": shuffled[4 * HAND + 1:]})
    game = services.game_create(variant="contract", players=4, seats=["Ann", "Ben", "Cleo", "Dan"],
                                title="Four at contract", rules={"hand_size": HAND}, deal=deal)
    pages = [open_seat(browser, asgi_live_server, game, services.seat_take(game=game, index=i),
                       viewport={"width": 900, "height": 800}) for i in range(4)]
    ann, ben, cleo, dan = pages
    version = [1]

    def step():
        version[0] += 1
        both(pages, str(version[0]))

    ann.click(".tk-stock")
    step()
    for code in ("5H", "5D", "5C"):
        card(ann, code).click()
    ann.click('.tk-box[data-box="0"]')
    for code in ("9S", "9H", "9C"):
        card(ann, code).click()
    ann.click('.tk-box[data-box="1"]')
    ann.click(".tk-down")
    step()
    card(ann, "KD").drag_to(ann.locator(".tk-discard"))
    step()
    # Cleo asks to buy off turn; Ben, on turn, is asked and allows it
    cleo.wait_for_selector(".tk-buy:not([hidden])", timeout=5000)
    assert dan.locator(".tk-buy").is_visible() and ann.locator(".tk-buy").is_hidden()  # not one's own discard
    cleo.click(".tk-buy")
    step()
    ben.wait_for_selector(".tk-allow:not([hidden])", timeout=5000)
    assert "Allow Cleo to buy" in ben.locator(".tk-allow").inner_text()
    ben.click(".tk-allow")
    step()
    assert cleo.locator(".tk-hand button.tk-card").count() == 10   # KD and two from the stock
    for page, code in ((ben, "JS"), (cleo, "JC"), (dan, "JD")):
        page.click(".tk-stock")
        step()
        card(page, code).drag_to(page.locator(".tk-discard"))
        step()
    ann.click(".tk-stock")
    step()
    card(ann, "9D").drag_to(ann.locator('.tk-meld[data-meld="1"]'))
    step()
    card(ann, "5S").drag_to(ann.locator('.tk-meld[data-meld="0"]'))
    step()
    for page in pages:
        page.wait_for_selector(".tk-handover", timeout=5000)
        assert page.locator(".tk-handover tbody tr").count() == 4
    assert moves(game)[3:5] == ["2 buy", "1 allow"]
