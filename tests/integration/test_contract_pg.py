"""Contract rummy on PostgreSQL and real workers: the seat on turn drawing
and seats off turn buying at the same version (exactly one stored, the rest
told the version moved on), a contract tournament played to the end by
two ``celery -A config worker`` processes, and a worker's AI seat waiting
out the buy window while a person may buy."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from engine.cards import TEXT
from games import eventstore as es
from games import services
from games.audit import audit_game
from games.models import Event, Game, OutboxMessage

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def race(calls):
    """Run each ``call()`` in its own thread (own connection) at once."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def work(i):
        try:
            barrier.wait()
            results[i] = calls[i]()
        except BaseException as exc:  # reported by the caller
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_a_draw_and_buys_at_one_version_store_exactly_one(require_postgres):
    game = services.game_create(variant="international", players=4)
    for _ in range(6):
        row = Game.objects.get(pk=game.pk)
        state = services.load_state(row)
        active = state.to_move
        if state.phase == "play":   # discard, opening the buy window
            services.game_record_move(game=game.pk, move=f"discard {TEXT[state.hands[active][0]]}",
                                      expected_version=row.version, seat=active)
            continue
        version = row.version
        calls = [lambda: services.game_record_move(game=game.pk, move="draw", expected_version=version,
                                                   seat=active)]
        for s in range(4):
            if s != active and state.can_buy(s):
                calls.append(lambda s=s: services.game_record_move(game=game.pk, move="buy",
                                                                   expected_version=version, seat=s))
        results = race(calls)
        stored = [r for r in results if isinstance(r, services.MoveResult)]
        conflicts = [r for r in results if isinstance(r, es.ConcurrencyConflict)]
        assert len(stored) == 1 and len(conflicts) == len(calls) - 1, results
        assert Event.objects.filter(game=game).count() == version + 1
        if stored[0].move.endswith("buy"):   # a request stored: the seat on turn draws now
            services.game_record_move(game=game.pk, move="draw", expected_version=version + 1, seat=active)
    game.refresh_from_db()
    assert audit_game(game).ok


def test_a_contract_tournament_is_played_by_two_workers(workers, wait):
    from league import handlers
    from league import selectors
    from league import services as league
    from league.models import Club, Player, TableGame, Tournament

    workers("w1")
    workers("w2")
    club = Club.objects.create(name="Contract club")
    tournament = Tournament.objects.create(name="Contract worker night", club=club, rounds=1,
                                           table_size=3, family="contract", variant="international",
                                           tiebreaks=selectors.default_precedence("contract"), ai_level="strong")
    for name in ("Ada", "Boris", "Chen", "Dana", "Emil", "Fatima"):
        league.tournament_enter(tournament=tournament,
                                player=Player.objects.create(name=name, club=club), checked_in=True)
    handlers.tournament_autoplay_start(tournament=tournament)

    def finished():
        tournament.refresh_from_db()
        return tournament.status == Tournament.Status.FINISHED

    wait(finished, 400, "the contract tournament to finish")
    games = TableGame.objects.filter(table__round__tournament=tournament).select_related("stream")
    assert games.count() == 2
    for game in games:
        stream = game.stream
        assert stream.is_over
        versions = list(Event.objects.filter(game=stream).order_by("version").values_list("version", flat=True))
        assert versions == list(range(1, len(versions) + 1))
        verdict = audit_game(stream)
        assert verdict.ok, verdict.problem
        moves = Event.objects.filter(game=stream, type="MoveRecorded")
        assert {e.actor for e in moves} == {"ai:strong"}  # the tournament's level
        assert game.results.get(status="confirmed").scores == [-s for s in stream.scores]
    assert not OutboxMessage.objects.exclude(status="sent").exists()


def test_a_worker_waits_out_the_buy_window_for_a_person(workers, wait):
    workers("w1", GAMES_AI_BUY_WINDOW=3)
    seats = [{"name": "A", "kind": "ai"}, {"name": "B", "kind": "ai"}, {"name": "Pat", "kind": "human"}]
    game = services.game_create(variant="international", players=3, seats=seats)
    state = services.load_state(Game.objects.get(pk=game.pk))
    assert state.to_move == 0 and state.can_buy(2), "seat 0 (an AI) opens; the person may buy the upcard"

    def by_seat_0():
        return Event.objects.filter(game=game, type="MoveRecorded", payload__seat=0).order_by("version").first()

    first = wait(by_seat_0, 60, "the AI seat on turn to move once the window has passed")
    before = Event.objects.get(game=game, version=first.version - 1)
    waited = (first.recorded_at - before.recorded_at).total_seconds()
    assert waited >= 2.9, f"the AI seat on turn moved {waited:.2f} s after the last move"
    assert audit_game(Game.objects.get(pk=game.pk)).ok
