"""Games as streams: creation with a secret seed, moves checked by the
engine, penalties, the end with its revealed seed, snapshots, projections."""

import hashlib

import pytest

from games import eventstore as es
from games import services
from games.errors import BadRequest, GameIsOver, MoveRefused
from games.models import Event, Game, SeedSecret, Snapshot


def events_of(game):
    return list(Event.objects.filter(game=game).order_by("version"))


def play_to_end(game, pick=lambda moves: moves[-1]):
    """Play legal moves (from the server-side state) until the game ends."""
    while True:
        game.refresh_from_db()
        if game.is_over:
            return game
        state = services.load_state(game)
        move = pick(state.legal_moves())
        services.game_record_move(game=game, move=str(move), expected_version=game.version)


def test_a_digital_game_publishes_the_seed_hash_and_keeps_the_seed_secret(new_game):
    game = new_game(players=3, seats=["Ann", "Ben", {"name": "Bot", "kind": "ai"}])
    [created] = events_of(game)
    secret = SeedSecret.objects.get(game=game).seed
    assert created.type == "GameCreated" and created.version == 1
    assert created.payload["seed_sha256"] == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(created.payload)
    assert created.payload["seats"][2] == {"name": "Bot", "kind": "ai", "ai_level": ""}
    assert game.version == 1 and game.to_move == 0 and game.status == "in_progress"
    assert [s.name for s in game.seats.all()] == ["Ann", "Ben", "Bot"]


def test_a_table_game_records_its_typed_in_deal(new_game, Highcard):
    tiles = sorted(Highcard.new(2, seed="x").pool + sum(Highcard.new(2, seed="x").racks, []))
    deal = {"racks": [tiles[:3], tiles[3:6]], "pool": tiles[6:]}
    game = new_game(deal=deal)
    [created] = events_of(game)
    assert created.payload["mode"] == "table" and created.payload["deal"] == deal
    assert not SeedSecret.objects.filter(game=game).exists()
    assert services.load_state(game).view(0)["rack"] == ["t01", "t02", "t03"]


@pytest.mark.parametrize("kwargs, message", [
    ({"variant": "nosuch"}, "unknown variant 'nosuch'"),
    ({"players": 7}, "2 to 4 players, not 7"),
    ({"rules": {"hand": 9}}, "hand must be 1 to 6"),
    ({"rules": {"colour": 1}}, "unknown rule option 'colour'"),
    ({"seats": ["Ann"]}, "1 seats given for 2 players"),
    ({"deal": {"racks": [["t01"], ["zz"]], "pool": []}}, "unknown tile 'zz'"),
])
def test_bad_creation_input_is_refused_by_name(new_game, kwargs, message):
    with pytest.raises(BadRequest, match=message):
        new_game(**kwargs)
    assert not Game.objects.exists() and not Event.objects.exists()


def test_moves_are_checked_then_recorded(new_game):
    game = new_game()
    result = services.game_record_move(game=game, move="draw", expected_version=1, seat=0, actor="seat:0")
    assert (result.version, result.move, result.outcome) == (2, "draw", "drew")
    move = events_of(game)[-1]
    assert move.payload == {"seat": 0, "move": "draw", "outcome": "drew"} and move.actor == "seat:0"
    game.refresh_from_db()
    assert game.version == 2 and game.to_move == 1


@pytest.mark.parametrize("move, seat, code", [
    ("fly away", 0, "notation"),
    ("play t99", 0, "notation"),
    ("draw", 1, "not-your-turn"),
    ("", 0, "notation"),
])
def test_refused_moves_store_nothing(new_game, move, seat, code):
    game = new_game()
    with pytest.raises(MoveRefused) as info:
        services.game_record_move(game=game, move=move, expected_version=1, seat=seat)
    assert info.value.code == code
    assert len(events_of(game)) == 1


def test_an_illegal_move_names_the_rule(new_game):
    game = new_game()
    state = services.load_state(game)
    absent = next(t for t in state.pool)
    with pytest.raises(MoveRefused, match=f"{absent} is not on your rack") as info:
        services.game_record_move(game=game, move=f"play {absent}", expected_version=1)
    assert info.value.code == "not-on-rack" and len(events_of(game)) == 1


def test_a_stale_version_conflicts(new_game):
    game = new_game()
    services.game_record_move(game=game, move="draw", expected_version=1)
    with pytest.raises(es.ConcurrencyConflict, match="no longer at version 1; it is at version 2"):
        services.game_record_move(game=game, move="draw", expected_version=1)
    assert len(events_of(game)) == 2


def test_a_penalised_move_is_recorded_as_its_penalty(new_game):
    # a typed-in deal: with a shuffled one, seat 0's lowest tile could beat seat 1's highest
    racks = [["t01", "t02", "t03"], ["t10", "t11", "t12"]]
    pool = [f"t{n:02d}" for n in range(1, 31) if f"t{n:02d}" not in racks[0] + racks[1]]
    game = new_game(deal={"racks": racks, "pool": pool})
    state = services.load_state(game)
    low, high = sorted(state.racks[0])[0], sorted(state.racks[1])[-1]
    # seat 0 draws, seat 1 plays its highest tile, seat 0 tries a lower one
    services.game_record_move(game=game, move="draw", expected_version=1)
    services.game_record_move(game=game, move=f"play {high}", expected_version=2)
    before = len(services.load_state(Game.objects.get(pk=game.pk)).racks[0])
    result = services.game_record_move(game=game, move=f"play {low}", expected_version=3, seat=0)
    assert (result.move, result.penalty_for, result.rule) == ("penalty", f"play {low}", "too-low")
    event = events_of(game)[-1]
    assert event.payload["refused"]["move"] == f"play {low}" and event.payload["outcome"] == "penalty"
    assert len(services.load_state(Game.objects.get(pk=game.pk)).racks[0]) == before + 2


def test_the_last_move_records_the_scores_and_reveals_the_seed(new_game):
    game = new_game(players=3)
    secret = SeedSecret.objects.get(game=game).seed
    game = play_to_end(game)
    last = events_of(game)[-1]
    assert last.type == "GameFinished"
    assert last.payload["seed"] == secret
    assert sum(last.payload["scores"]) == 0 and last.payload["scores"] == game.scores
    assert game.status == "finished" and game.to_move is None
    assert not SeedSecret.objects.filter(game=game).exists()
    with pytest.raises(GameIsOver):
        services.game_record_move(game=game, move="draw", expected_version=game.version)


def test_snapshots_are_taken_and_the_stream_rebuilds_to_the_projection(new_game, settings):
    settings.GAMES_SNAPSHOT_EVERY = 3
    game = new_game(players=2)
    for _ in range(7):
        game.refresh_from_db()
        services.game_record_move(game=game, move="draw", expected_version=game.version)
    game.refresh_from_db()
    assert list(Snapshot.objects.filter(game=game).values_list("version", flat=True).order_by("version")) == [3, 6]
    from_snap = services.state_from_stream(game).snapshot()
    from_scratch = services.state_from_stream(game, use_snapshots=False).snapshot()
    assert from_snap == from_scratch == game.state


def test_rebuilding_a_projection_restores_it(new_game):
    game = play_to_end(new_game(players=2))
    truth = (game.version, game.status, game.scores, game.state)
    Game.objects.filter(pk=game.pk).update(version=1, status="in_progress", scores=None, state=None, to_move=0)
    rebuilt = services.projection_rebuild(Game.objects.get(pk=game.pk))
    assert (rebuilt.version, rebuilt.status, rebuilt.scores, rebuilt.state) == truth


def test_other_apps_append_their_events_to_the_stream(new_game):
    game = new_game()
    event = services.game_append_event(game=game, expected_version=1, type="DisputeOpened",
                                       payload={"about": 1}, actor="official")
    assert event.version == 2
    game.refresh_from_db()
    result = services.game_record_move(game=game, move="draw", expected_version=2)
    assert result.version == 3
    with pytest.raises(BadRequest, match="written by games.services only"):
        services.game_append_event(game=game, expected_version=3, type="MoveRecorded", payload={})


@pytest.mark.django_db
def test_the_state_cache_gives_a_row_and_state_only_together_and_keeps_a_state_alone():
    from games.states import _StateCache

    cache = _StateCache()
    game = services.game_create(variant="sabra", players=2)
    state = services.load_state(game)
    cache.put(game, game.version, state)  # as an AI seat puts back what it chose from
    assert cache.take_with_row(game.pk, game.version) is None
    assert cache.take(game, game.version) is state  # still there for the next reader
    cache.put(game, game.version, state, row=game)
    assert cache.take_with_row(game.pk, game.version + 1) is None
    assert cache.take_with_row(game.pk, game.version) == (game, state)
    assert cache.take(game, game.version) is None  # taken out
