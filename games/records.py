"""A game's record in the engine's text format (see ``docs/records.md``)."""

from __future__ import annotations

from .models import Game


def record_text(game: Game) -> str:
    """The record of ``game`` as :mod:`engine.records` writes it: the setup
    (variant, rules, seats, the seed or the typed-in deal), one line per
    move, and the result once the game is over, then the stream's head:
    ``[Head "<version> sha256:<hash>"]`` and ``[Anchor "<hmac>"]`` (the
    engine's reader keeps tags it does not know). The state is rebuilt from
    the stream, not taken from the projection.

    A digital game's seed is written only once the game is over (it gives
    every rack and the whole draw order): while it is played the record
    carries the published hash instead, ``[SeedSHA256 "<hex>"]``, for
    anyone, staff included.

    :raises LookupError: the game's family keeps no records (no
        ``setup_tags``/``move_stack``).
    :raises replay.ReplayError: the stream does not replay.
    """
    from engine.records import record_from_game, write_record

    from .models import Event

    from .services import state_from_stream

    state = state_from_stream(game)
    if not hasattr(state, "setup_tags") or not hasattr(state, "move_stack"):
        raise LookupError(f"the {game.variant} engine writes no game records")
    names = {s.index: s.name or f"seat {s.index}" for s in game.seats.all()}
    tags = {"Event": str(game), "Game": str(game.pk), "Date": game.created_at.strftime("%Y.%m.%d")}
    rec = record_from_game(state, seats=names, tags=tags)
    if not (game.is_over and state.is_over) and rec.get("Seed") is not None:
        from .replay import seed_sha256

        seed = rec.get("Seed")
        rec.tags = [(k, v) if k != "Seed" else ("SeedSHA256", seed_sha256(seed)) for k, v in rec.tags]
    head = Event.objects.filter(game=game).order_by("-version").values("version", "hash", "anchor").first()
    if head is not None:  # the stream's head, so a kept copy proves the history it came from
        rec.tags.append(("Head", f"{head['version']} sha256:{head['hash']}"))
        rec.tags.append(("Anchor", head["anchor"]))
    return write_record(rec)
