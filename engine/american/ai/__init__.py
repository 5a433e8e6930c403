"""American and International Rummikub's computer players, weakest first
(:data:`LEVELS`).

Each is a class built from a seed with ``choose(game) -> Move`` for the
seat on turn; it reads only what that seat may see (its rack, the table,
the discards, the trump). Every level goes out when it can: a ``lay`` that
leaves one tile, then that tile's discard (American: with the trump when
only the trump lets it).

- ``random``: draws, lays what it can at random moments, discards a random
  tile (never a joker while it holds another tile).
- ``greedy``: takes the discard when it makes a meld with the rack; lays
  the melds that put the most tiles down as soon as the initial meld
  allows, extends the table's melds, discards the tile that fits least.
- ``strong`` (what greedy does, and): International: holds back from
  laying while the rack is on its way to a closed hand (a near seven
  pairs, one colour, all low or all high) and declares one as soon as it
  has it; discards never feed the next player's visible need.

``bench/ai.py --family american`` measures each against the one below.
"""

from __future__ import annotations

import random as _random
from collections import Counter

from ...melds import meld_tiles, meld_value
from ...tiles import JOKER
from ..game import AmericanGame
from ..scoring import international_points, tile_points
from ..moves import Move
from .melds import best_cover, candidates, extensions

__all__ = ["LEVELS", "RandomPlayer", "GreedyPlayer", "StrongPlayer"]


class _Player:
    lay_chance = 1.0

    def __init__(self, seed: str = ""):
        self.rng = _random.Random(seed)

    def choose(self, game: AmericanGame, seat: int | None = None) -> Move:
        """The move of the seat on turn. Does not change ``game``.

        :raises ValueError: the game is over, or ``seat`` is not on turn.
        """
        if game.is_over:
            raise ValueError("the game is over")
        if seat is not None and seat != game.to_move:
            raise ValueError(f"seat {seat} is not on turn")
        seat = game.to_move
        rules = game.rules
        if game.phase == "draw":
            win = self._trump_win(game, seat)
            if win is not None:
                return win
            return self.draw(game, seat)
        rack = Counter(game.racks[seat])
        if rules.international and not game.melded[seat]:
            closed = self._closed(game, seat)
            if closed is not None:
                return closed
        lay = self._lay(game, seat, rack)
        if lay is not None:
            return lay
        if rules.announce and game.melded[seat] and len(game.racks[seat]) <= 4 \
                and not game.announced[seat]:
            return Move("announce")
        return Move("discard", self.discard(game, seat))

    # --- drawing -----------------------------------------------------------------
    def draw(self, game: AmericanGame, seat: int) -> Move:
        if not game.pool and game.takeable() is not None:
            return Move("take")
        return Move("draw")

    def _trump_win(self, game: AmericanGame, seat: int) -> Move | None:
        """American: the trump move, when the trump lets the seat go out."""
        if game.rules.international or game.trump is None or not game.melded[seat]:
            return None
        rack = Counter(game.racks[seat])
        rack[game.trump] += 1
        plan = self._going_out(game, seat, rack)
        if plan is None:
            return None
        melds, adds, last = plan
        return Move("trump", last, tuple(melds), tuple(adds))

    # --- laying ------------------------------------------------------------------------
    def _going_out(self, game: AmericanGame, seat: int, rack: Counter):
        """Melds and additions that leave exactly one tile, or ``None``."""
        mr = game.rules.meld_rules
        melds = best_cover(rack, mr)
        rest = Counter(rack)
        for m in melds:
            rest.subtract(Counter(meld_tiles(m)))
        table = list(game.table) + [[seat, m] for m in melds]
        adds = [(n, s) for n, s in extensions(rest, table, mr) if n <= len(game.table)]
        for _, s in adds:
            rest.subtract(Counter(s))
        rest = +rest
        if sum(rest.values()) != 1:
            return None
        return melds, adds, next(iter(rest))

    def _lay(self, game: AmericanGame, seat: int, rack: Counter) -> Move | None:
        if self.rng.random() > self.lay_chance:
            return None
        mr = game.rules.meld_rules
        rules = game.rules
        if not game.melded[seat]:
            if self.hold_back(game, seat, rack):
                return None
            melds = best_cover(rack, mr)
            value = sum(meld_value(m, mr) for m in melds)
            left = sum(rack.values()) - sum(len(m) for m in melds)
            if not melds or (value < rules.initial_meld and not (rules.international and left == 1)):
                return None
            return Move("lay", melds=tuple(melds))
        melds = best_cover(rack, mr)
        rest = Counter(rack)
        for m in melds:
            rest.subtract(Counter(meld_tiles(m)))
        adds = [(n, s) for n, s in extensions(+rest, game.table, mr)]
        if not melds and not adds:
            return None
        if game.drew_trump and sum(rest.values()) - sum(len(s) for _, s in adds) == 1:
            return None   # International: the trump may not be the last draw of an Open win
        return Move("lay", melds=tuple(melds), adds=tuple(adds))

    def hold_back(self, game: AmericanGame, seat: int, rack: Counter) -> bool:
        return False

    def _closed(self, game: AmericanGame, seat: int) -> Move | None:
        return None

    # --- discarding ------------------------------------------------------------------
    def discard(self, game: AmericanGame, seat: int) -> int:
        rack = list(game.racks[seat])
        plain = [t for t in rack if t != JOKER] or rack
        return self.rng.choice(plain)


class RandomPlayer(_Player):
    """Draws, lays now and then, discards a random tile."""

    lay_chance = 0.5


class GreedyPlayer(_Player):
    """Lays the most tiles as soon as it may, extends, discards the tile
    that fits least."""

    def draw(self, game: AmericanGame, seat: int) -> Move:
        """Take the discard only when it goes on the table this turn: into a
        meld laid with the rack (an initial meld it makes reachable), or as
        an extension of a meld on the table."""
        tile = game.takeable()
        if tile is not None:
            mr = game.rules.meld_rules
            rack = Counter(game.racks[seat])
            rack[tile] += 1
            if game.melded[seat]:
                melds = best_cover(rack, mr)
                if any(tile in meld_tiles(m) for m in melds) or any(
                        tile in s for _, s in extensions(Counter({tile: 1}), game.table, mr, keep=0)):
                    return Move("take")
            elif not self.hold_back(game, seat, rack):
                melds = best_cover(rack, mr)
                if any(tile in meld_tiles(m) for m in melds) and \
                        sum(meld_value(m, mr) for m in melds) >= game.rules.initial_meld:
                    return Move("take")
        return super().draw(game, seat)

    def discard(self, game: AmericanGame, seat: int) -> int:
        rack = Counter(game.racks[seat])
        mr = game.rules.meld_rules
        useful: Counter = Counter()
        for m in candidates(rack, mr):
            useful.update(set(meld_tiles(m)))
        points = international_points if game.rules.international else tile_points

        def fit(t: int) -> tuple:
            near = sum(1 for u in rack if u != t and u != JOKER and
                       ((u % 13 == t % 13) or (u // 13 == t // 13 and abs(u % 13 - t % 13) <= 2)))
            return (t == JOKER, useful[t] > 0, near, -points(t, 30), t)

        return min(rack, key=fit)


class StrongPlayer(GreedyPlayer):
    """Greedy, and International: waits for a closed hand when the rack is
    near one, declares it when it has it."""

    def _closed(self, game: AmericanGame, seat: int) -> Move | None:
        if len(game.racks[seat]) != 15:
            return None
        return best_closed(game, seat)

    def hold_back(self, game: AmericanGame, seat: int, rack: Counter) -> bool:
        if not game.rules.international or game.pool and len(game.pool) < 14:
            return False
        tiles = [t for t in rack.elements() if t != JOKER]
        pairs = sum(k // 2 for t, k in Counter(tiles).items())
        colours = Counter(t // 13 for t in tiles).most_common(1)
        low = sum(1 for t in tiles if t % 13 + 1 <= 9)
        return pairs >= 5 or (colours and colours[0][1] >= 11) or low >= 13


LEVELS = {"random": RandomPlayer, "greedy": GreedyPlayer, "strong": StrongPlayer}


def best_closed(game: AmericanGame, seat: int) -> Move | None:
    """International: the ``closed`` move of highest score the seat's rack
    of 15 allows (each tile tried as the one shown), or None."""
    best = None
    for t in sorted(set(game.racks[seat])):
        rest = list(game.racks[seat])
        rest.remove(t)
        answer = game._classify(seat, rest, t)
        if answer.best is not None and (best is None or answer.score > best[0]):
            best = (answer.score, t)
    return None if best is None else Move("closed", best[1])
