"""The "random legal play" level for Sabra Rummikub.

On its turn the player lists candidate plays (new melds from the rack; for
the initial meld, random disjoint rack melds reaching the threshold; after
it, extending a table meld, splitting a run with a rack tile, taking the
fourth tile of a group into a run, and freeing a joker by replacing it with
the tile it stands for), keeps those the game accepts
(:meth:`engine.rummikub.game.SabraGame.legal`, so every rule option is honoured)
and plays one at random; with none, it draws (or passes once the pool is
empty). Seeded, it is deterministic.
"""

from __future__ import annotations

import random

from ...melds import GROUP_JOKER, RUN_JOKER, meld_kind, meld_value
from ...tiles import JOKER
from ..game import SabraGame
from ..moves import Move


def rack_melds(rack: list[int], max_jokers: int = 1) -> list[tuple]:
    """Melds (canonical slots) that tiles of ``rack`` (53 counts) can form
    alone, using at most ``max_jokers`` jokers each."""
    jokers = min(rack[JOKER], max_jokers)
    out = []
    for col in range(4):
        base = col * 13
        for a in range(11):
            missing = 0
            for b in range(a, 13):
                if not rack[base + b]:
                    missing += 1
                    if missing > jokers:
                        break
                if b - a >= 2 and (b - a + 1) > missing:
                    out.append(tuple(base + k if rack[base + k] else RUN_JOKER + base + k
                                     for k in range(a, b + 1)))
    for num in range(13):
        present = [c * 13 + num for c in range(4) if rack[c * 13 + num]]
        k = len(present)
        if k >= 3:
            out.append(tuple(present))
            if k == 4:
                for skip in range(4):
                    out.append(tuple(t for i, t in enumerate(present) if i != skip))
        if jokers and 2 <= k <= 3:
            out.append(tuple(present) + (GROUP_JOKER + num,))
        if jokers and k == 4:
            pass
    return [m for m in out if meld_kind(m)]


def _tiles_of_meld(m) -> list[int]:
    return [s if s < 52 else JOKER for s in m]


class RandomPlayer:
    """Random legal play. ``choose(game)`` returns a move for
    ``game.to_move`` without changing the game."""

    name = "random"

    def __init__(self, seed: int | str | None = None):
        self.rng = random.Random(seed)

    def choose(self, game: SabraGame) -> Move:
        """:raises ValueError: the game is over."""
        if game.is_over:
            raise ValueError("the game is over")
        seat = game.to_move
        rack = game.racks[seat]
        rng = self.rng
        candidates = []
        melds = rack_melds(rack)
        if not game.initial_done[seat]:
            for _ in range(4):
                rng.shuffle(melds)
                left = list(rack)
                chosen, value = [], 0
                for m in melds:
                    ts = _tiles_of_meld(m)
                    if all(left[t] >= ts.count(t) for t in ts):
                        for t in ts:
                            left[t] -= 1
                        chosen.append(m)
                        value += meld_value(m)
                        if value >= game.rules.initial_meld and rng.random() < 0.7:
                            break
                if chosen and value >= game.rules.initial_meld:
                    candidates.append(Move.play((), chosen))
        else:
            candidates.extend(Move.play((), (m,)) for m in melds)
            candidates.extend(self._table_plays(game, rack))
        rng.shuffle(candidates)
        for mv in candidates:
            if game.legal(mv):
                return mv
        return Move("draw" if game.pool_count else "pass")

    def _table_plays(self, game: SabraGame, rack: list[int]) -> list[Move]:
        out = []
        table = list(game.table)
        runs = [m for m in table if meld_kind(m) == "run"]
        for m in table:
            kind = meld_kind(m)
            if kind == "run":
                first = m[0] if m[0] < 52 else m[0] - RUN_JOKER
                last = m[-1] if m[-1] < 52 else m[-1] - RUN_JOKER
                col, lo, hi = first // 13, first % 13, last % 13
                if lo > 0 and rack[first - 1]:
                    out.append(Move.play((m,), ((first - 1,) + m,)))
                if hi < 12 and rack[last + 1]:
                    out.append(Move.play((m,), (m + (last + 1,),)))
                if rack[JOKER] and hi < 12:
                    out.append(Move.play((m,), (m + (RUN_JOKER + last + 1,),)))
                # split the run with a rack tile
                for k in range(2, len(m) - 2):
                    s = m[k]
                    if s < 52 and rack[s]:
                        out.append(Move.play((m,), (m[:k + 1], (s,) + m[k + 1:])))
                # free a joker standing for a rack tile
                for k, s in enumerate(m):
                    if RUN_JOKER <= s < GROUP_JOKER and rack[s - RUN_JOKER]:
                        t = s - RUN_JOKER
                        fixed = m[:k] + (t,) + m[k + 1:]
                        out.extend(self._reuse_joker(m, fixed, rack, t, runs))
            elif kind == "group":
                num = next(s for s in m if s < 52) % 13
                present = {s // 13 for s in m if s < 52}
                if len(m) == 3:
                    for c in range(4):
                        if c not in present and rack[c * 13 + num]:
                            out.append(Move.play((m,), (m + (c * 13 + num,),)))
                    if rack[JOKER]:
                        out.append(Move.play((m,), (m + (GROUP_JOKER + num,),)))
                for k, s in enumerate(m):
                    if s >= GROUP_JOKER:
                        for c in range(4):
                            t = c * 13 + num
                            if c not in present and rack[t]:
                                fixed = m[:k] + (t,) + m[k + 1:]
                                out.extend(self._reuse_joker(m, fixed, rack, t, runs))
                if len(m) == 4 and all(s < 52 for s in m):
                    for t in m:
                        col, n = t // 13, t % 13
                        for a in (n - 2, n - 1, n):
                            if a < 0 or a + 2 > 12:
                                continue
                            others = [col * 13 + x for x in range(a, a + 3) if x != n]
                            if all(rack[o] for o in others):
                                rest = tuple(s for s in m if s != t)
                                run = tuple(sorted(others + [t]))
                                out.append(Move.play((m,), (rest, run)))
        return out

    def _reuse_joker(self, old, fixed, rack, used, runs) -> list[Move]:
        """Plays replacing a joker by ``used`` from the rack and laying the
        joker again: with two rack tiles, or at the end of another run."""
        out = []
        left = list(rack)
        left[used] -= 1
        tiles = [t for t in range(52) if left[t]]
        for i, a in enumerate(tiles):
            for b in tiles[i + 1:]:
                if a // 13 == b // 13 and 1 <= b - a <= 2:
                    lo = a % 13
                    if b - a == 1:
                        if b % 13 < 12:
                            out.append(Move.play((old,), (fixed, (a, b, RUN_JOKER + b + 1))))
                        elif lo > 0:
                            out.append(Move.play((old,), (fixed, (RUN_JOKER + a - 1, a, b))))
                    else:
                        out.append(Move.play((old,), (fixed, (a, RUN_JOKER + a + 1, b))))
                elif a % 13 == b % 13 and a != b:
                    out.append(Move.play((old,), (fixed, (a, b, GROUP_JOKER + a % 13))))
        for r in runs:
            if r == old:
                continue
            last = r[-1] if r[-1] < 52 else r[-1] - RUN_JOKER
            if last % 13 < 12:
                out.append(Move.play((old, r), (fixed, r + (RUN_JOKER + last + 1,))))
        return out
