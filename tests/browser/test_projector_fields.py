"""The projector shows any field on one screen: at 1920x1080 and 1280x720,
with 8, 17, 64 and 200 players, every player's row of the draw and of the
standings is shown whole on some page, no page is taller or wider than the
screen, and the pages turn by themselves. Screenshots at 17 and 200
players for the README."""

from __future__ import annotations

import pytest

from league import services
from league.models import Club, Player, TableGame, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}]

#: every visible row of the shown board: its name, whether it is inside the
#: screen, and whether its name is shown whole (no ellipsis)
ROWS = """() => [...document.querySelectorAll('section.board:not([hidden]) ol.rows li:not([hidden])')].map(li => {
  const r = li.getBoundingClientRect(), name = li.querySelector('.name');
  return {board: li.closest('section').id, name: li.dataset.name,
          inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5,
          whole: name.scrollWidth <= name.clientWidth + 1, height: r.height};
})"""


def field(n: int) -> Tournament:
    """``n`` players, round 1 played and closed (standings), round 2 seated
    (the draw)."""
    club = Club.objects.create(name="Wall Club", slug=f"wall-{n}")
    t = Tournament.objects.create(name=f"Wall night {n}", slug=f"wall-{n}", club=club, rounds=2, table_size=4)
    for k in range(1, n + 1):
        services.tournament_enter(tournament=t, player=Player.objects.create(name=f"Player {k:03}", club=club),
                                  checked_in=True)
    rnd = services.round_seat(tournament=t, seed="wall")
    for game in TableGame.objects.filter(table__round=rnd).select_related("table"):
        seats = game.table.seats.count()
        services.result_record_score_sheet(game=game, racks=["", "R1", "R2", "R3"][:seats])
    services.round_close(round=rnd)
    services.round_seat(tournament=t, seed="wall-2")
    return t


@pytest.mark.parametrize("n", [8, 17, 64, 200])
def test_every_player_is_shown_whole_on_some_page(asgi_live_server, browser, screenshot, n):
    t = field(n)
    names = {f"Player {k:03}" for k in range(1, n + 1)}
    for size in SIZES:
        wall = browser.new_context(viewport=size).new_page()
        wall.goto(f"{asgi_live_server}/t/{t.slug}/projector/?turn=60")
        wall.wait_for_function("window.tkProjector && window.tkProjector.pages > 0")
        pages = wall.evaluate("window.tkProjector.pages")
        seen = {"draw": set(), "standings": set()}
        for k in range(pages):
            wall.evaluate(f"window.tkProjector.show({k})")
            assert wall.evaluate("document.documentElement.scrollWidth") <= size["width"]
            assert wall.evaluate("document.documentElement.scrollHeight") <= size["height"]
            rows = wall.evaluate(ROWS)
            assert rows, f"page {k + 1} of {pages} is empty"
            bad = [r for r in rows if not (r["inside"] and r["whole"])]
            assert not bad, f"{n} players at {size}: page {k + 1} cuts off {bad[:3]}"
            assert min(r["height"] for r in rows) >= size["height"] * 0.022 * 1.5 - 1   # readable from the room
            for r in rows:
                seen[r["board"]].add(r["name"])
            if k == 0 and size["width"] == 1920 and n in (17, 200):
                screenshot(wall, f"projector-{n}")
        assert seen["draw"] == names and seen["standings"] == names, f"{n} players at {size}"
        if n == 200:
            assert pages >= 2
            text = wall.inner_text("#draw h2") if wall.locator("#draw:not([hidden])").count() else \
                wall.inner_text("#standings h2")
            assert "page" in text
        wall.context.close()


def test_the_pages_turn_by_themselves(asgi_live_server, browser):
    t = field(64)
    wall = browser.new_context(viewport=SIZES[1]).new_page()
    wall.goto(f"{asgi_live_server}/t/{t.slug}/projector/?turn=2")
    wall.wait_for_function("window.tkProjector && window.tkProjector.pages > 1")
    assert wall.evaluate("window.tkProjector.current") == 0
    wall.wait_for_function("window.tkProjector.current === 1", timeout=6000)
    assert wall.locator("#standings:not([hidden]), #draw:not([hidden])").count() == 1
