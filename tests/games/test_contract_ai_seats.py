"""AI seats in contract rummy (embedded default: eager Celery, SQLite): the
contract AI moves for its seat, buys off turn while a person is on turn, and
never leaves the game waiting on an AI seat."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from engine.cards import TEXT, make_deck
from engine.contract.ai import next_ai_move
from engine.registry import find_variant
from games import ai_seats, outbox, services
from games.audit import audit_game
from games.models import Event, Game, OutboxMessage, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _seeded(monkeypatch, request):
    """Each test's digital games are dealt from a fixed seed (reproducible)."""
    monkeypatch.setattr(services.secrets, "token_hex", lambda n=16: f"ai-seats-{request.node.name}")


def contract(kinds, variant="international", level="", **kw):
    seats = [{"name": f"S{i}", "kind": k, "ai_level": level if k == "ai" else ""}
             for i, k in enumerate(kinds)]
    game = services.game_create(variant=variant, players=len(kinds), seats=seats, **kw)
    return game


def settle():
    """Run the queued AI moves (the tests' transaction never commits, so the
    outbox is drained here as it is after a commit)."""
    return outbox.drain(limit=5000)


def record(game, move, seat):
    """A person's move at the current version, then the AI seats' answers."""
    version = Game.objects.get(pk=game.pk).version
    services.game_record_move(game=game.pk, move=move, expected_version=version, seat=seat)
    settle()


def joker_upcard_deal(players=3, decks=3):
    """A typed-in deal of seven hands whose first upcard is a joker."""
    rng = random.Random(7)
    deal = {}
    for h in range(1, 8):
        pack = [TEXT[c] for c in make_deck(decks, 2)]
        rng.shuffle(pack)
        k = 11 * players
        if h == 1:
            j = pack.index("JK", k) if "JK" in pack[k:] else pack.index("JK")
            pack[k], pack[j] = pack[j], pack[k]
        deal[f"hand{h}"] = [pack[i * 11:(i + 1) * 11] for i in range(players)]
        deal[f"upcard{h}"] = [pack[k]]
        deal[f"stock{h}"] = pack[k + 1:]
    return deal


def moves(game):
    return list(Event.objects.filter(game=game, type="MoveRecorded").order_by("version"))


def test_the_contract_family_has_a_level_and_a_default():
    assert ai_seats.available_levels("contract") == ["basic", "expert", "random", "strong"]
    assert ai_seats.default_level("contract") == "strong"
    assert ai_seats.default_level("rummikub") == ai_seats.DEFAULT_LEVEL


@pytest.mark.parametrize("variant", ["international", "contract"])
def test_a_game_of_ai_seats_plays_to_the_end_with_buys_off_turn(variant):
    game = contract(["ai"] * 4, variant=variant)
    report = settle()
    assert not report.errors, report.errors[:3]
    game.refresh_from_db()
    assert game.status == "finished" and game.scores is not None
    rows = moves(game)
    assert all(r.actor == "ai:strong" for r in rows)   # the default level
    # "seat" is the seat that moved, as the move's text says; several seats buy
    assert all(r.payload["seat"] == int(r.payload["move"].split()[0]) and "by" not in r.payload
               for r in rows)
    buys = [r for r in rows if r.payload["move"].split()[1] == "buy"]
    assert buys and len({r.payload["seat"] for r in buys}) > 1
    verdict = audit_game(game)
    assert verdict.ok, verdict.problem
    # the stored game is the one the same AI plays on its own from the seed
    seed = Event.objects.get(game=game, type="GameFinished").payload["seed"]
    alone = find_variant(variant).new(4, seed=seed)
    while not alone.is_over:
        alone.push(next_ai_move(alone, range(4)))
    assert alone.scores() == game.scores
    assert [r.payload["move"] for r in rows] == alone.move_stack


def test_ai_seats_buy_off_turn_while_a_person_is_on_turn():
    game = contract(["human", "ai", "ai"], deal=joker_upcard_deal())
    settle()
    game.refresh_from_db()
    # seat 0 (a person) is on turn; both AI seats asked for the joker upcard
    assert game.to_move == 0
    asked = [(r.payload["move"], r.payload["seat"], r.actor) for r in moves(game)]
    assert asked == [("1 buy", 1, "ai:strong"), ("2 buy", 2, "ai:strong")]
    # and nothing more: the AI seats wait for the person
    assert ai_seats.ai_seat_move(game_id=game.pk, expected_version=game.version).status == "not-ai"
    # the person draws: seat 1 gets the joker (+2), next in turn after the
    # dealer (seat 2), who turned the upcard and comes last ...
    record(game, "draw", 0)
    state = services.load_state(Game.objects.get(pk=game.pk))
    buyer = 1
    assert state.buys == [0, 1, 0]
    assert state.picked[buyer] == [52] and len(state.hands[buyer]) == 14
    # ... the person discards, the AI seats play their turns and stop when
    # seat 0 is on turn again
    record(game, f"discard {TEXT[state.hands[0][0]]}", 0)
    game.refresh_from_db()
    assert game.to_move == 0 and game.status == "in_progress"
    later = [r.payload["move"] for r in moves(game)[4:]]
    assert later and {int(m.split()[0]) for m in later} <= {1, 2}
    assert any(m.startswith("1 discard") for m in later) and any(m.startswith("2 discard") for m in later)
    assert audit_game(game).ok


def waiting_point(game):
    """The game after the AI seats have played up to an AI seat on turn that
    waits for a person: (game row, state, the answer of its task)."""
    settle()
    row = Game.objects.get(pk=game.pk)
    return row, services.load_state(row), ai_seats.ai_seat_move(game_id=row.pk, expected_version=row.version)


def test_an_ai_seat_on_turn_waits_while_a_person_may_buy(settings):
    settings.GAMES_AI_BUY_WINDOW = 30
    game = contract(["ai", "ai", "human"], deal=joker_upcard_deal())
    row, state, answer = waiting_point(game)
    # seat 0 (an AI) is on turn, the person at seat 2 may buy the upcard: the
    # AI seat waits (seat 1, an AI, bought at once)
    assert row.to_move == 0 and state.can_buy(2)
    assert answer.status == "waiting" and 25 < answer.wait <= 30
    assert answer.as_dict()["wait"] == round(answer.wait, 3)
    assert [r.payload["move"] for r in moves(game)] == ["1 buy"]
    assert Game.objects.get(pk=game.pk).version == row.version, "nothing stored while it waits"
    # the person buys inside the window; then the AI seats go on
    record(game, "buy", 2)
    assert [r.payload["move"] for r in moves(game)][:2] == ["1 buy", "2 buy"]
    assert audit_game(Game.objects.get(pk=game.pk)).ok


def test_the_seat_view_lets_the_ai_seat_move_once_the_window_has_passed(settings, api):
    settings.GAMES_AI_BUY_WINDOW = 30
    settings.CELERY_TASK_ALWAYS_EAGER = True
    game = contract(["ai", "ai", "human"], deal=joker_upcard_deal())
    row, state, answer = waiting_point(game)
    assert answer.status == "waiting"
    token = services.seat_take(game=row, index=2)
    view = api.get(f"/api/games/{game.pk}/view/", HTTP_AUTHORIZATION=f"Seat {token}").json()
    assert view["version"] == row.version and not ai_seats.nudge_if_due(row), "too early: nothing queued"
    # 31 s later: the game, and the AI seat's task queued with its last move
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=31))
    OutboxMessage.objects.filter(game=game).update(created_at=timezone.now() - timedelta(seconds=31))
    api.get(f"/api/games/{game.pk}/view/", HTTP_AUTHORIZATION=f"Seat {token}")
    settle()  # (the tests' transaction never commits: the outbox is drained here)
    after = [r.payload["move"] for r in moves(game)]
    assert after[0] == "1 buy" and after[1].startswith("0 "), after[:3]
    assert Game.objects.get(pk=game.pk).version > row.version


def test_a_person_on_turn_queues_the_task_and_an_ai_seat_on_turn_plays():
    game = contract(["human", "ai", "human"])
    # AI seats exist: after any move the task asks them (they may buy)
    assert OutboxMessage.objects.filter(game=game, args=[game.pk, 1]).exists()
    settle()
    game.refresh_from_db()
    assert game.to_move == 0
    record(game, "draw", 0)
    row = Game.objects.get(pk=game.pk)
    assert OutboxMessage.objects.filter(game=game, args=[game.pk, row.version]).exists()
    state = services.load_state(row)
    record(game, f"discard {TEXT[state.hands[0][0]]}", 0)
    row = Game.objects.get(pk=game.pk)
    # the AI seat played its whole turn: seat 2 (a person) is on turn
    assert row.to_move == 2
    assert any(r.payload["move"].startswith("1 discard") for r in moves(game))


def test_a_contract_seat_at_an_unknown_level_is_a_clear_error():
    # a level the engine no longer offers (game creation refuses unknown levels)
    game = contract(["human", "ai", "ai"], deal=joker_upcard_deal())
    Seat.objects.filter(game=game, kind="ai").update(ai_level="grandmaster")
    ai_seats._SEATS.clear()
    settle()
    assert game.events.count() == 1   # the queued task failed in the drain: nothing stored
    with pytest.raises(ai_seats.AISeatError, match="unknown AI level 'grandmaster' for contract .*strong"):
        ai_seats.ai_seat_move(game_id=game.pk, expected_version=1)


def test_with_a_worker_the_waiting_task_is_sent_again_for_when_the_window_closes(settings, monkeypatch):
    from games import tasks

    settings.GAMES_AI_BUY_WINDOW = 30
    game = contract(["ai", "ai", "human"], deal=joker_upcard_deal())
    row, _, _ = waiting_point(game)
    sent = []
    monkeypatch.setitem(tasks.ai_move.app.conf, "task_always_eager", False)
    monkeypatch.setattr(tasks.ai_move, "apply_async", lambda args, countdown: sent.append((args, countdown)))
    answer = tasks.ai_move.run(row.pk, row.version)
    assert answer["status"] == "waiting" and len(sent) == 1
    (args, countdown), = sent
    assert args == [row.pk, row.version] and 25 < countdown <= 30.2
