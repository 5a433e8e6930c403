"""The game pages: a drawn table with a replay, and a seat's page to play
in the browser (Django test client)."""

from __future__ import annotations

import re

import pytest

from engine.rummikub.ai.random_player import RandomPlayer
from engine.registry import find_variant
from games import eventstore as es
from games import services
from games.models import Event, Game
from games.selectors import public_move_text

pytestmark = pytest.mark.django_db

TITLES = re.compile(r'title="([^"]+)"')


def play_out(game, seed, *, stop_after=None):
    player = RandomPlayer(seed)
    while True:
        game.refresh_from_db()
        if game.is_over or (stop_after is not None and game.version >= stop_after):
            return game
        state = services.load_state(game)
        services.game_record_move(game=game, move=str(player.choose(state)), expected_version=game.version,
                                  seat=state.to_move)


def seat_rows(html: str) -> dict[int, str]:
    """Each seat row of the drawn table by seat index."""
    rows = re.findall(r'<tr class="seat[^"]*" data-seat="(\d+)">(.*?)</tr>', html, re.S)
    return {int(i): body for i, body in rows}


def table_melds(html: str) -> list[list[str]]:
    block = html.split('<div class="melds">', 1)[1].split("</div>\n  <table", 1)[0]
    return [TITLES.findall(m) for m in re.findall(r'<div class="meld">(.*?)</div>', block, re.S)]


def canon(meld_text: str) -> list[str]:
    return meld_text.strip("[]").split()


@pytest.fixture
def finished():
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title="Final table")
    return play_out(game, 3)


def enter(client, token: str) -> str:
    """Exchange a seat link for the session; the clean seat page's address."""
    response = client.post("/games/play/", {"token": token})
    assert response.status_code == 302 and response["Cache-Control"] == "no-store"
    assert token not in response["Location"]
    return response["Location"]


def test_a_finished_game_is_drawn_with_every_rack(client, finished):
    page = client.get(f"/games/{finished.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="board"' in html and f'<b id="at">{finished.version}</b>' in html
    assert "version %d" % finished.version not in html  # no engine internals on the page
    final = services.load_state(finished).view(None)
    assert table_melds(html) == [canon(m) for m in final["table"]]
    rows = seat_rows(html)
    assert set(rows) == {0, 1}
    for seat, tiles in enumerate(final["racks"]):
        assert TITLES.findall(rows[seat]) == tiles
        assert f"<td>{final['scores'][seat]}</td>" in rows[seat]
    assert "Ann" in rows[0] and "Ben" in rows[1]
    # at the end: no next/last links, first/previous present
    assert 'id="next"' not in html and f'href="?at={finished.version - 1}"' in html


def test_replay_at_n_shows_the_game_after_event_n(client, finished):
    events = es.load(finished.pk)
    seed = events[-1].payload["seed"]
    moves = [e for e in events if e.type == es.MOVE_RECORDED]
    target = moves[len(moves) // 2]
    # the engine itself, started from the revealed seed, after the same moves
    state = find_variant("sabra").new(2, seed=seed)
    for e in moves:
        if e.version > target.version:
            break
        state.push(state.parse_move(e.payload["move"]))
    expected = state.view(None)

    html = client.get(f"/games/{finished.pk}/?at={target.version}").content.decode()
    assert f'<b id="at">{target.version}</b>' in html
    assert f'<span class="move" id="event-move">{target.payload["move"].replace(">", "&gt;")}</span>' in html
    assert table_melds(html) == [canon(m) for m in expected["table"]]
    assert f'<b class="pool-count">{expected["pool_count"]}</b>' in html
    rows = seat_rows(html)
    for seat in range(2):  # finished game: the racks as they stood after event N
        assert TITLES.findall(rows[seat]) == state.view(seat)["rack"]
    assert f'href="?at={target.version + 1}"' in html and f'href="?at={target.version - 1}"' in html
    assert 'href="?at=1"' in html and f'href="?at={finished.version}"' in html

    first = client.get(f"/games/{finished.pk}/?at=1").content.decode()
    assert "GameCreated" in first and 'id="prev"' not in first
    assert client.get(f"/games/{finished.pk}/?at={finished.version + 1}").status_code == 404
    assert client.get(f"/games/{finished.pk}/?at=zero").status_code == 400


def test_a_replay_address_with_no_event_number_is_a_page_saying_so(client, finished):
    response = client.get(f"/games/{finished.pk}/?at=tenth")
    assert response.status_code == 400
    assert "“at” must be an event number, not &#x27;tenth&#x27;." in response.content.decode()
    assert f'href="/games/{finished.pk}/"' in response.content.decode()  # back to the game
    dutch = client.get(f"/games/{finished.pk}/?at=tenth", HTTP_ACCEPT_LANGUAGE="nl")
    assert dutch.status_code == 400 and "moet een gebeurtenisnummer zijn" in dutch.content.decode()


def test_a_game_in_play_never_shows_racks_or_pool_order_to_the_public(client, django_user_model):
    game = services.game_create(variant="sabra", players=3, seats=["A", "B", "C"])
    game = play_out(game, 11, stop_after=7)
    assert not game.is_over
    for at in ("", "?at=1", "?at=4"):
        html = client.get(f"/games/{game.pk}/{at}").content.decode()
        rows = seat_rows(html)
        table_tiles = {t for meld in table_melds(html) for t in meld}
        assert all(TITLES.findall(body) == [] for body in rows.values()), "a rack was drawn"
        assert all(re.search(r'<span class="count">\d+</span>', body) for body in rows.values())
        # no tile codes outside the table melds and the move list
        board = html.split('<div id="moves-box">')[0]  # the move list says what was laid, public at the end
        page_tiles = set(TITLES.findall(board))
        assert page_tiles <= table_tiles
        assert 'class="events"' not in html  # raw events (drawn tiles) only when over or to staff
    # the pool's order never appears as a sequence
    pool = [str(t) for t in services.load_state(game).snapshot().get("pool", [])][:6]
    html = client.get(f"/games/{game.pk}/").content.decode()
    if len(pool) == 6:
        assert " ".join(pool) not in html
    # staff see the racks of a game in play
    staff = django_user_model.objects.create_user("official", password="pw", is_staff=True)
    client.force_login(staff)
    rows = seat_rows(client.get(f"/games/{game.pk}/").content.decode())
    state = services.load_state(game)
    assert [TITLES.findall(rows[i]) for i in range(3)] == [state.view(i)["rack"] for i in range(3)]


def test_drawn_tiles_are_hidden_from_the_public_move_text():
    assert public_move_text("draw R7") == "draw"
    assert public_move_text("penalty K3 R7 J") == "penalty"
    assert public_move_text("timeout") == "timeout"
    assert public_move_text("play R1 R2 R3 -> [R1 R2 R3]") == "play R1 R2 R3 -> [R1 R2 R3]"
    assert public_move_text("0 discard AC") == "0 discard AC"


@pytest.fixture
def seated():
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    tokens = [services.seat_take(game=game, index=i) for i in range(2)]
    return game, tokens


def test_the_seat_page_shows_only_its_own_rack(client, seated):
    game, tokens = seated
    state = services.load_state(game)
    for seat, token in enumerate(tokens):
        page = client.get(enter(client, token))
        assert page.status_code == 200
        html = page.content.decode()
        rows = seat_rows(html)
        assert TITLES.findall(rows[seat]) == state.view(seat)["rack"]
        other = rows[1 - seat]
        assert TITLES.findall(other) == [] and '<span class="count">14</span>' in other
        assert f'<b id="version" hidden>{game.version}</b>' in html
        assert 'name="expected_version" value="1"' in html
        note = html.split('<p id="turn-note">')[1].split("</p>")[0]
        assert ("Your move." in note) == (seat == state.to_move)
    assert client.post("/games/play/", {"token": "not-a-credential"}).status_code == 400


def test_a_move_from_the_seat_page_is_recorded(client, seated):
    game, tokens = seated
    token = tokens[game.to_move]
    response = client.post(enter(client, token), {"move": "draw", "expected_version": 1})
    assert response.status_code == 302 and response["Location"].endswith("?moved=2")
    game.refresh_from_db()
    assert game.version == 2 and Event.objects.filter(game=game).last().payload["move"] == "draw"
    html = client.get(response["Location"]).content.decode()
    assert "Your move was recorded." in html and '<b id="version" hidden>2</b>' in html


@pytest.mark.parametrize("move, expected_version, wrong_seat, status, message", [
    ("fly away", 1, False, 400, "Move not recorded"),
    ("play K1 K2 K3 -> [K1 K2 K3]", 1, False, 400, "Move not recorded"),
    ("draw", 0, False, 409, "no longer at version 0"),
    ("draw", 1, True, 400, "turn"),
    ("", 1, False, 400, "the move is empty"),
])
def test_a_bad_move_shows_the_message_and_stores_nothing(client, seated, move, expected_version, wrong_seat,
                                                         status, message):
    game, tokens = seated
    seat = game.to_move if not wrong_seat else 1 - game.to_move
    before = Event.objects.filter(game=game).count()
    response = client.post(enter(client, tokens[seat]), {"move": move, "expected_version": expected_version})
    assert response.status_code == status
    html = response.content.decode()
    assert 'id="error"' in html and message in html
    assert Event.objects.filter(game=game).count() == before
    assert Game.objects.get(pk=game.pk).version == 1


def test_an_open_seat_is_taken_from_the_game_page(client):
    game = services.game_create(variant="sabra", players=2)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/{game.pk}/seats/1/take/" in html
    response = client.post(f"/games/{game.pk}/seats/1/take/", {"name": "Cleo"})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/play/"
    page = client.get(response["Location"]).content.decode()
    assert "<h1>Cleo</h1>" in page
    again = client.post(f"/games/{game.pk}/seats/1/take/", {"name": "Dan"})
    assert again.status_code == 409 and "This seat was taken meanwhile" in again.content.decode()


def play_contract(game, *, until=lambda g: False):
    from engine.contract.ai import ContractSeatPlayer

    player = ContractSeatPlayer()
    while True:
        game.refresh_from_db()
        state = services.load_state(game)
        if game.is_over or until(state):
            return game, state
        services.game_record_move(game=game, move=str(player.choose(state)), expected_version=game.version)


CARD = re.compile(r'<span class="chip card (?:red|black|joker)" title="([^"]+)">([^<]+)')


def test_contract_rummy_is_drawn_as_cards_with_suits(client):
    game = services.game_create(variant="international", players=3, seats=["Ann", "Ben", "Cleo"])
    tokens = [services.seat_take(game=game, index=i) for i in range(3)]
    game, state = play_contract(game, until=lambda s: len(s.view(None)["table"]) >= 2)
    public = state.view(None)
    html = client.get(f"/games/{game.pk}/").content.decode()
    melds = table_melds(html)
    assert melds == [m["cards"] for m in public["table"]]
    suits = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
    for code, label in CARD.findall(html):
        if code != "JK":
            assert label == ("10" if code[0] == "T" else code[:-1]) + suits[code[-1]]
    rows = seat_rows(html)
    assert all(TITLES.findall(body) == [] for body in rows.values())  # hands are counts
    assert [int(re.search(r'<span class="count">(\d+)</span>', rows[i]).group(1)) for i in range(3)] \
        == public["hand_counts"]
    assert f"Hand <b>{public['hand']}</b>: {public['contract']}" in html
    # a joker in a set is marked with the rank it stands for
    for meld in public["table"]:
        if meld["kind"] == "set" and "JK" in meld["cards"]:
            assert 'title="JK">\u2605<span class="stands">' in html
    # the seat page: own hand as cards, the others as counts
    seat = 1
    page = client.get(enter(client, tokens[seat])).content.decode()
    rows = seat_rows(page)
    assert TITLES.findall(rows[seat]) == state.view(seat)["my_hand"]
    assert all(TITLES.findall(rows[i]) == [] for i in (0, 2))


def test_a_finished_contract_game_shows_every_hand(client):
    game = services.game_create(variant="international", players=3, seats=["Ann", "Ben", "Cleo"])
    game, state = play_contract(game)
    html = client.get(f"/games/{game.pk}/").content.decode()
    rows = seat_rows(html)
    for seat in range(3):
        assert TITLES.findall(rows[seat]) == state.view(seat)["my_hand"]
        assert f"<td>{state.scores()[seat]}</td>" in rows[seat]


def test_the_seat_page_lists_recent_moves_without_drawn_tiles(client):
    dealt = find_variant("sabra").new(2, seed="typed-in-pages").snapshot()
    game = services.game_create(variant="sabra", players=2, deal={"racks": dealt["racks"], "pool": dealt["pool"]},
                                seats=["Ann", "Ben"])
    tokens = [services.seat_take(game=game, index=i) for i in range(2)]
    mover = game.to_move
    drawn = dealt["pool"][0]
    response = client.post(enter(client, tokens[mover]), {"move": f"draw {drawn}", "expected_version": 1})
    assert response.status_code == 302
    assert Event.objects.filter(game=game).last().payload["move"] == f"draw {drawn}"  # stored in full
    other = client.get(enter(client, tokens[1 - mover])).content.decode()
    recent = re.search(r'<ul class="moves recent" id="recent">(.*?)</ul>', other, re.S).group(1)
    assert re.findall(r"<li[^>]*><span class=\"who\">[^<]*</span> (.*?)</li>", recent) == ["drew"]  # in words
    assert drawn not in recent
    public = client.get(f"/games/{game.pk}/").content.decode()
    assert f"draw {drawn}" not in public and f'title="{drawn}"' not in public


def test_once_over_the_seat_page_shows_every_rack(client, seated):
    game, tokens = seated
    game = play_out(game, 9)
    final = services.load_state(game).view(None)
    html = client.get(enter(client, tokens[0])).content.decode()
    rows = seat_rows(html)
    assert [TITLES.findall(rows[i]) for i in range(2)] == final["racks"]
    assert "The game is over" in html and 'name="move"' not in html


def test_a_seat_credential_pasted_on_the_game_page_opens_the_seat(client, seated):
    game, tokens = seated
    response = client.post("/games/play/", {"token": tokens[1]})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/play/"
    bad = client.post("/games/play/", {"token": "a/b"})
    assert bad.status_code == 400 and "unknown seat credential" in bad.content.decode()


def test_a_seat_refused_on_the_pages_says_why_in_the_readers_language(client):
    game = services.game_create(variant="sabra", players=2, seats=[{"name": "Ann"}, {"name": "Bot", "kind": "ai"}])
    services.seat_take(game=game, index=0)
    taken = client.post(f"/games/{game.pk}/seats/0/take/", {"name": "Cleo"}, HTTP_ACCEPT_LANGUAGE="de")
    assert taken.status_code == 409
    assert "Dieser Platz wurde inzwischen besetzt: Wähle einen anderen." in taken.content.decode()
    computer = client.post(f"/games/{game.pk}/seats/1/take/", {"name": "Cleo"}, HTTP_ACCEPT_LANGUAGE="tr")
    assert computer.status_code == 409 and "Bu yer alınamaz" in computer.content.decode()
    english = client.post(f"/games/{game.pk}/seats/0/take/", {"name": "Cleo"})
    assert "This seat was taken meanwhile" in english.content.decode()
    assert services.seat_for_token("") is None and game.seats.get(index=0).name == "Ann"  # nothing changed
