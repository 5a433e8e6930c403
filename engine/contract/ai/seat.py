"""One contract rummy AI move at a time, for a seat that may act now.

:func:`engine.contract.ai.player.play_turn` drives a whole turn of every
seat at once; a server that records one move per request (an AI seat among
people) asks instead "what does this seat do now?". :class:`ContractSeatPlayer`
answers with the same policy, move by move: a seat off turn buys the top
discard when :meth:`ContractPlayer.wants_buy` says so (else it has nothing to
do: ``None``); the seat on turn draws, answers a buy request, goes down,
lays off and discards as :class:`ContractPlayer` would. A go-down is tried
on a copy first and, if the rules refuse it (it would go out on a turn that
may not), dropped for the discard, as ``play_turn`` does; a lay-off or swap
has passed the player's own going-out checks (:meth:`ContractPlayer._legal`).

Like every engine AI it reads only what its seat may see: its own hand and
the public state (the discards each player took are public).
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from ..game import ContractGame
from ..moves import Move
from .player import ContractPlayer, accepts


class ContractSeatPlayer:
    """The contract AI as a seat of a server: ``choose(game, seat)``.

    ``seed`` is accepted for the interface every AI level shares (the policy
    is deterministic: the same position gives the same move).
    """

    #: the policy (a :class:`ContractPlayer` class) it plays
    policy: type = ContractPlayer

    def __init__(self, seed: str = ""):
        self.seed = seed

    def choose(self, game: ContractGame, seat: int | None = None) -> Move | None:
        """The move ``seat`` makes now (``None``: the seat on turn), or
        ``None`` when a seat off turn does not want to act (it buys only).
        Does not change ``game``.

        :raises ValueError: the game is over, or no such seat.
        """
        if game.is_over:
            raise ValueError("the game is over")
        if seat is None:
            seat = game.active
        if not (isinstance(seat, int) and 0 <= seat < game.n):
            raise ValueError(f"no seat {seat!r} at a table of {game.n}")
        player = self.policy(seat)
        if seat != game.active:
            return Move("buy", seat) if player.wants_buy(game) else None
        if game.phase == "draw":
            return player.draw_move(game)
        # the discard taken this turn is kept (never thrown straight back)
        if game.took and game.picked[seat]:
            player.taken = game.picked[seat][-1]
        move = player.play_moves(game)
        # a lay-off or swap passed the player's going-out checks; a go-down
        # is tried on a copy (refused, e.g., when it would go out too early)
        if move is not None and (move.action != "down" or accepts(game, move)):
            return move
        return player.discard_move(game)


def next_ai_move(game: ContractGame, seats: Iterable[int],
                 player: ContractSeatPlayer | None = None) -> Move | None:
    """The first move one of the AI ``seats`` makes now, or ``None``.

    Seats off turn that may buy go first (in playing order after the seat on
    turn, the order the rules give priority in), so that they ask before the
    seat on turn draws and closes the buy window; then the seat on turn.
    """
    if game.is_over:
        return None
    player = player or ContractSeatPlayer()
    ai = set(seats)
    active = game.active
    for s in game.pending_actors():
        if s != active and s in ai:
            move = player.choose(game, s)
            if move is not None:
                return move
    if active in ai:
        return player.choose(game, active)
    return None


def next_seat_move(game: ContractGame, players: Sequence) -> Move:
    """The next move when every seat has its own player: the first seat
    off turn that acts (a buy, an undo), in playing order, else the seat on
    turn."""
    active = game.active
    for s in game.pending_actors():
        if s != active:
            move = players[s].choose(game, s)
            if move is not None:
                return move
    return players[active].choose(game, active)


def play_seats(game: ContractGame, players: Sequence, *, max_moves: int = 200_000,
               on_move: Callable[[ContractGame, Move], None] | None = None) -> ContractGame:
    """Play ``game`` to its end one move at a time, each seat by its own
    player (anything with ``choose(game, seat)``: a level of
    :data:`engine.contract.ai.LEVELS`), in the order :func:`next_ai_move`
    asks: the seats off turn that may act, in playing order, then the seat
    on turn.

    :raises RuntimeError: the game did not end within ``max_moves`` moves.
    """
    for _ in range(max_moves):
        if game.is_over:
            return game
        move = next_seat_move(game, players)
        game.push(move)
        if on_move is not None:
            on_move(game, move)
    if game.is_over:
        return game
    raise RuntimeError(f"game not over after {max_moves} moves")
