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
- ``strong``: after its initial meld it keeps its new melds on the rack
  and lays them only in the turn they let it go out (:func:`lay_plan`); it
  still lays what extends the table's melds. Greedy lays every meld at
  once, and each is a meld the other players may add to: kept on the rack,
  it is one only this seat can. It goes out with a joker laid onto a table
  meld when a joker and one tile are all it has left (greedy never lays a
  lone joker, and holds it). It takes the discard when it goes on the
  table, or puts one more rack tile into melds (not after
  :data:`TAKES_WITHOUT_DRAW` takes in a row at the table); it discards by
  :func:`outs_discard_order` (the rack's melds kept, then the tile with the
  fewest unseen tiles that would lay it, :func:`outs`), never a tile that
  feeds the next player's visible need (:func:`feeds`) while another is
  left. International: declares a closed hand when its 15 tiles are one
  (it no longer waits for one: that lost deals).
- ``expert`` (what strong does, and): weighs the draw over the hidden
  tiles, each unseen tile as likely as its unseen copies: it also takes
  the discard when the rack with it is nearer going out than with a tile
  drawn, on average (:func:`shed_value`), by more than a tile.

Keeping the melds costs points when another player goes out first (the
rack holds them); the levels are built to win deals.

``bench/ai.py`` measures them (``docs/ai.md``).
"""

from __future__ import annotations

import random as _random
from collections import Counter

from ...melds import canonical, meld_kind, meld_tiles, meld_value
from ...tiles import JOKER
from ..game import AmericanGame
from ..scoring import international_points, tile_points
from ..moves import Move
from .melds import best_cover, candidates, extensions, lay_plan

__all__ = ["LEVELS", "RandomPlayer", "GreedyPlayer", "StrongPlayer", "ExpertPlayer"]


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
            else:
                melds = best_cover(rack, mr)
                if any(tile in meld_tiles(m) for m in melds) and \
                        sum(meld_value(m, mr) for m in melds) >= game.rules.initial_meld:
                    return Move("take")
        return super().draw(game, seat)

    def discard(self, game: AmericanGame, seat: int) -> int:
        return discard_order(game, seat)[0]


def discard_order(game: AmericanGame, seat: int) -> list[int]:
    """The seat's different tiles, the one that fits its rack least first
    (greedy's discard): not a joker, not in a meld the rack can make, fewest
    neighbours (same number, or same colour within two), most points."""
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

    return sorted(rack, key=fit)


def unseen_counts(game: AmericanGame, seat: int) -> list[int]:
    """How many of each tile ``seat`` cannot see (53 counts): two of each,
    two jokers, less its rack, the table, the piles' top discards and a
    face-up trump. What it knows, nothing more."""
    counts = [2] * 53
    seen = list(game.racks[seat])
    for _, m in game.table:
        seen += meld_tiles(m)
    seen += [p[-1] for p in game.piles if p]
    if game.trump is not None and (not game.rules.international or game.trump_in_pool()):
        seen.append(game.trump)
    for t in seen:
        counts[t] -= 1
    return [max(0, k) for k in counts]


def feeds(game: AmericanGame, seat: int, tile: int) -> bool:
    """Whether ``tile``, discarded, meets ``seat``'s visible need: ``seat``
    has made its initial meld and the tile extends a meld on the table (it
    could take it and lay it at once), or it is a joker."""
    if tile == JOKER:
        return True
    if not game.melded[seat]:
        return False
    return bool(extensions(Counter({tile: 1}), game.table, game.rules.meld_rules, keep=0))


def outs(tile: int, rack: Counter, table: list, unseen: list[int], rules) -> int:
    """The unseen tiles (each counted as often as its unseen copies) that
    would let ``tile`` be laid: with another rack tile into a group or run,
    with a rack joker and it, or together with it at the end of a run on
    ``table`` (a run ``R5 R6 R7`` and ``R9`` on the rack: ``R8``). A joker
    counts as having every out."""
    if tile == JOKER:
        return 10_000
    c, n = divmod(tile, 13)
    high_one = rules.one_in_runs != "low"
    want: set[int] = set()
    for u in rack:
        if u == JOKER or u == tile:
            continue
        cu, nu = divmod(u, 13)
        if nu == n and cu != c:                      # two of a group: the other colours
            want.update(k * 13 + n for k in range(4) if k not in (c, cu))
        elif cu == c and 0 < abs(nu - n) <= 2:       # two of a run: the tiles around them
            lo, hi = min(n, nu), max(n, nu)
            need = [lo + 1] if hi - lo == 2 else [lo - 1, hi + 1]
            want.update(c * 13 + x for x in need if 0 <= x <= 12)
            if high_one and hi == 12 and lo >= 11:   # 12-13 and a high 1
                want.add(c * 13)
    if rack.get(JOKER, 0):
        want.update(k * 13 + n for k in range(4) if k != c)
        want.update(c * 13 + x for x in range(n - 2, n + 3) if 0 <= x <= 12 and x != n)
    for _, m in table:
        if meld_kind(m, rules) != "run":
            continue
        for x in (n - 1, n + 1):
            if 0 <= x <= 12 and meld_kind(canonical(list(m) + [tile, c * 13 + x]), rules):
                want.add(c * 13 + x)
    want.discard(tile)
    return sum(unseen[u] for u in want)


def outs_discard_order(game: AmericanGame, seat: int) -> list[int]:
    """The seat's different tiles, the first to discard first (``strong``'s
    order). The rack's melds (:func:`best_cover`, all its tiles) are kept;
    among the rest (never a joker while another tile is left), the tile
    with the fewest :func:`outs` goes first, a tile in some meld the rack
    could make last; among equals, after the initial meld the most points
    first (what a loser pays), before it the fewest (the initial meld is
    counted in points). When every tile is in the melds, the tile whose
    loss keeps the most tiles in melds goes."""
    rack = Counter(game.racks[seat])
    mr = game.rules.meld_rules
    cover = best_cover(rack, mr, keep=0)
    covered: Counter = Counter()
    for m in cover:
        covered.update(meld_tiles(m))
    spare = +(rack - covered)
    useful: Counter = Counter()
    for m in candidates(rack, mr):
        useful.update(set(meld_tiles(m)))
    unseen = unseen_counts(game, seat)
    points = international_points if game.rules.international else tile_points
    opened = game.melded[seat]
    sign = -1 if opened else 1
    table = game.table if opened else []

    def key(t: int) -> tuple:
        return (t == JOKER, covered[t] > 0 and not spare[t], useful[t] > 0,
                outs(t, rack, table, unseen, mr), sign * points(t, 30), t)

    order = sorted(set(rack), key=key)
    if order and order[0] != JOKER and covered[order[0]] and not spare[order[0]]:
        def kept(t: int) -> tuple:
            less = Counter(rack)
            less[t] -= 1
            return (t == JOKER, -sum(len(m) for m in best_cover(+less, mr, keep=0)), key(t))

        order = sorted(set(rack), key=kept)
    return order


TAKES_WITHOUT_DRAW = 4   # takes in a row at the table after which ``strong`` draws


def takes_in_a_row(game: AmericanGame) -> int:
    """The discards taken at the table since the last tile drawn (public)."""
    k = 0
    for m in reversed(game.move_stack):
        if m == "take":
            k += 1
        elif m == "draw" or m.startswith("trump"):
            break
    return k


def covered(rack: Counter, rules) -> int:
    """How many of the rack's tiles its melds hold (:func:`best_cover`)."""
    return sum(len(m) for m in best_cover(rack, rules, keep=0))


class StrongPlayer(GreedyPlayer):
    """Greedy, and: after its initial meld it keeps its new melds on the
    rack until they let it go out (the table's melds still take its
    tiles), so the other players have only the melds they laid to add to;
    it goes out with a joker laid onto the table when a joker and one tile
    are all it has left; it discards by :func:`outs_discard_order`, never a
    tile that feeds the next player's visible need (:func:`feeds`) while
    another is left. International: declares a closed hand when its 15
    tiles are one."""

    def draw(self, game: AmericanGame, seat: int) -> Move:
        """Take the discard when it goes on the table this turn (an
        addition to the table's melds, or a going out), or when it puts
        one more rack tile into melds (the rack's :func:`best_cover`): a
        tile kept with its meld. Never after :data:`TAKES_WITHOUT_DRAW`
        takes in a row at the table (the moves are public): two seats
        that keep their melds could otherwise pass tiles back and forth
        and never draw."""
        tile = game.takeable()
        if tile is None:
            return super(GreedyPlayer, self).draw(game, seat)
        if game.pool and takes_in_a_row(game) >= TAKES_WITHOUT_DRAW:
            return Move("draw")
        mr = game.rules.meld_rules
        rack = Counter(game.racks[seat])
        more = Counter(rack)
        more[tile] += 1
        if game.melded[seat]:
            if extensions(Counter({tile: 1}), game.table, mr, keep=0) or \
                    sum(lay_plan(more, game.table, mr)[2].values()) == 1:
                return Move("take")
        if covered(more, mr) > covered(rack, mr):
            if game.melded[seat] or sum(meld_value(m, mr) for m in best_cover(more, mr, keep=0)) \
                    >= game.rules.initial_meld:
                return Move("take")
        return super(GreedyPlayer, self).draw(game, seat)

    def discard(self, game: AmericanGame, seat: int) -> int:
        order = outs_discard_order(game, seat)
        nxt = (seat + 1) % game.n
        safe = [t for t in order if not feeds(game, nxt, t)]
        return safe[0] if safe else order[0]

    def _closed(self, game: AmericanGame, seat: int) -> Move | None:
        if len(game.racks[seat]) != 15:
            return None
        return best_closed(game, seat)

    def _going_out(self, game: AmericanGame, seat: int, rack: Counter):
        melds, adds, left = lay_plan(rack, game.table, game.rules.meld_rules)
        if sum(left.values()) != 1:
            return None
        return melds, adds, next(iter(left))

    def _lay(self, game: AmericanGame, seat: int, rack: Counter) -> Move | None:
        if not game.melded[seat]:
            return super()._lay(game, seat, rack)
        melds, adds, left = lay_plan(rack, game.table, game.rules.meld_rules)
        out = sum(left.values()) == 1
        if game.drew_trump and out:
            return None   # International: the trump may not be the last draw of an Open win
        if not out:
            melds = []    # kept on the rack: laid the turn they go out
        if not melds and not adds:
            return None
        return Move("lay", melds=tuple(melds), adds=tuple(adds))


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


# --- the expert: an expectation over the hidden tiles ------------------------------

TAKE_MARGIN = 1.0      # how much nearer going out a taken discard must bring the rack


def shed_value(game: AmericanGame, seat: int, rack: Counter) -> float:
    """How near ``rack`` is to going out: the tiles it could lay now (its
    own melds, worth the initial meld or not yet, and additions to the
    table once melded), less a tenth of the points of the tiles left."""
    mr = game.rules.meld_rules
    points = international_points if game.rules.international else tile_points
    melds = best_cover(rack, mr, keep=0)
    laid = sum(len(m) for m in melds)
    rest = Counter(rack)
    for m in melds:
        rest.subtract(Counter(meld_tiles(m)))
    rest = +rest
    melded = game.melded[seat]
    if not melded and sum(meld_value(m, mr) for m in melds) < game.rules.initial_meld:
        laid *= 0.5          # melds that do not open yet
    elif game.table:
        for _, tiles in extensions(rest, game.table, mr, keep=0):
            laid += len(tiles)
            rest.subtract(Counter(tiles))
        rest = +rest
    return laid - 0.1 * sum(points(t, game.rules.joker_penalty) * k for t, k in rest.items())


def _related(rack: Counter, tile: int) -> bool:
    if tile == JOKER:
        return True
    c, n = divmod(tile, 13)
    return any(u != JOKER and (u % 13 == n or (u // 13 == c and abs(u % 13 - n) <= 2)) for u in rack)


def expected_after_draw(game: AmericanGame, seat: int, rack: Counter, unseen: list[int]) -> float:
    """The mean :func:`shed_value` of ``rack`` with one more tile drawn
    from the tiles ``seat`` cannot see (each as likely as its unseen
    copies); a tile unrelated to the rack (no tile of its number, none of
    its colour within two) leaves the rack's value as it is."""
    total = sum(unseen)
    if not total:
        return shed_value(game, seat, rack)
    base = None
    acc = 0.0
    for t, k in enumerate(unseen):
        if not k:
            continue
        if _related(rack, t):
            r = Counter(rack)
            r[t] += 1
            acc += k * shed_value(game, seat, r)
        else:
            if base is None:
                base = shed_value(game, seat, rack)
            acc += k * base
    return acc / total


class ExpertPlayer(StrongPlayer):
    """``strong``, and the draw weighed over the hidden tiles (each unseen
    tile as likely as its unseen copies, :func:`unseen_counts`): besides the
    discards ``strong`` takes, it takes one when the rack with it is nearer
    going out (:func:`shed_value`) than the rack with a tile drawn, on
    average, by more than :data:`TAKE_MARGIN` tiles.

    Measured (``docs/ai.md``): weighing the discard the same way (the tile
    whose loss leaves the rack nearest going out after the next draw) and a
    smaller margin both lost games to ``greedy`` when every level laid its
    melds at once."""

    def draw(self, game: AmericanGame, seat: int) -> Move:
        base = super().draw(game, seat)
        tile = game.takeable()
        if tile is None or not game.pool or base.action == "take" \
                or takes_in_a_row(game) >= TAKES_WITHOUT_DRAW:
            return base
        rack = Counter(game.racks[seat])
        with_take = Counter(rack)
        with_take[tile] += 1
        gain = shed_value(game, seat, with_take) - expected_after_draw(game, seat, rack,
                                                                       unseen_counts(game, seat))
        return Move("take") if gain > TAKE_MARGIN else base


LEVELS = {"random": RandomPlayer, "greedy": GreedyPlayer, "strong": StrongPlayer, "expert": ExpertPlayer}
