"""How good an Okey rack is, for the computer players.

- :func:`cover`: the most tiles of the rack that fit in complete sets and
  runs at once (okeys wild, false jokers as the okey's face); 14 is a
  winning rack. With seven pairs on, the pairs count too.
- :func:`shape`: the near-melds among the rest, a finer tie-break: two
  tiles of one number in different colours, two tiles of one colour one or
  two apart, okeys; :func:`live_shape` weighs each by the tiles still
  unseen that would complete it.
- :func:`distance`: the fewest tiles to change for a winning rack, and
  :func:`acceptance`: the unseen tiles that would bring the rack one
  nearer (the ``expert``'s measures, as in the mahjong players' "shanten"
  and "ukeire"); :func:`two_step` looks one tile further.
"""

from __future__ import annotations

from functools import lru_cache

from ..hand import rack_counts


def _frozen(rack, okey: int) -> tuple[tuple[int, ...], int]:
    counts, wilds = rack_counts(rack, okey)
    return tuple(counts), wilds


def cover(rack, okey: int, rules, extra_wilds: int = 0) -> int:
    """The most tiles of ``rack`` in complete melds (or in pairs, with
    seven pairs on, whichever is more). ``extra_wilds`` adds that many
    okeys to the rack (a tile changed for whatever a meld needs: the
    analysis's distance to a win, :mod:`engine.okey.analysis`)."""
    counts, wilds = _frozen(rack, okey)
    wilds += extra_wilds
    best = _cover(counts, wilds)
    if rules.seven_pairs:
        best = max(best, _paired(counts, wilds))
    return best


def _paired(counts, wilds: int) -> int:
    """The most tiles in seven pairs or fewer (an okey pairs with a single
    or with the other okey)."""
    singles = sum(n % 2 for n in counts)
    pairs = sum(n // 2 for n in counts) + min(singles, wilds) + max(0, wilds - singles) // 2
    return 2 * min(pairs, 7)


@lru_cache(maxsize=500_000)
def _cover(counts: tuple[int, ...], wilds: int) -> int:
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is None:
        return 0
    rest = list(counts)
    rest[first] -= 1
    best = _cover(tuple(rest), wilds)            # this tile left out
    colour, number = divmod(first, 13)
    # sets of its number
    others = [c for c in range(4) if c != colour and counts[c * 13 + number]]
    for mask in range(1, 1 << len(others)):
        chosen = [others[k] for k in range(len(others)) if mask >> k & 1]
        r = list(rest)
        for c in chosen:
            r[c * 13 + number] -= 1
        for k in range(0, min(wilds, 3 - len(chosen)) + 1):
            size = 1 + len(chosen) + k
            if size in (3, 4):
                best = max(best, size + _cover(tuple(r), wilds - k))
    if not others:
        for k in (2, 3):
            if wilds >= k:
                best = max(best, 1 + k + _cover(tuple(rest), wilds - k))
    # runs starting at it (1 as 14 only at a run's top)
    for p in ((1, 14) if number == 0 else (number + 1,)):
        best = max(best, _runs(tuple(rest), wilds, colour, p))
    return best


def _runs(rest: tuple[int, ...], wilds: int, colour: int, p: int) -> int:
    """Runs of ``colour`` through position ``p`` (the tile taken out of
    ``rest``); positions below it are filled with naturals where the rack
    has them (only 12 and 13 below a 1 played as 14), else okeys."""
    best = 0
    for start in range(max(1, p - 13), p + 1):
        if start == 1 and p == 14:
            continue
        r = list(rest)
        used = 0
        ok = True
        for q in range(start, p):
            code = colour * 13 + q - 1
            if r[code]:
                r[code] -= 1
            elif used < wilds:
                used += 1
            else:
                ok = False
                break
        if not ok:
            continue
        length = p - start + 1
        q = p + 1
        while True:
            if length >= 3:
                best = max(best, length + _cover(tuple(r), wilds - used))
            if q > 14 or (start == 1 and q == 14):
                break
            code = colour * 13 + (0 if q == 14 else q - 1)
            if r[code]:
                r[code] -= 1
            elif used < wilds:
                used += 1
            else:
                break
            length += 1
            q += 1
    return best


def _near_melds(counts):
    """Each near-meld among the rack's naturals, as the faces that would
    complete it: two of a set (the other two colours), two of a run side
    by side (the tile below and above, 13 and 1 side by side too) or one
    apart (the one between)."""
    for code, n in enumerate(counts):
        if not n:
            continue
        colour, number = divmod(code, 13)
        for c in range(colour + 1, 4):
            if counts[c * 13 + number]:
                yield [k * 13 + number for k in range(4) if k not in (colour, c)]
        if number + 1 < 13 and counts[code + 1]:
            yield [colour * 13 + x for x in (number - 1, number + 2) if 0 <= x < 13]
        if number + 2 < 13 and counts[code + 2]:
            yield [code + 1]
        if number == 0 and counts[colour * 13 + 12]:
            yield [colour * 13 + 11]          # 12 before 13-1


def shape(rack, okey: int) -> int:
    """Near-melds among the rack's tiles (:func:`_near_melds`): each counts
    one, each okey two."""
    counts, wilds = _frozen(rack, okey)
    return 2 * wilds + sum(1 for _ in _near_melds(counts))


def live_shape(counts, wilds: int, live) -> int:
    """Near-melds among the rack's naturals (:func:`_near_melds`), each
    worth the ``live`` tiles (unseen copies of each face) that would
    complete it, at most two; each okey worth three."""
    return 3 * wilds + sum(min(2, sum(live[f] for f in faces)) for faces in _near_melds(counts))


def fits(counts, wilds: int, seven_pairs: bool, spare: int) -> bool:
    """Whether all but ``spare`` of the tiles (natural counts, okeys) fit
    in complete melds (or in seven pairs, with that rule)."""
    if seven_pairs and _paired(counts, wilds) >= sum(counts) + wilds - spare:
        return True
    return _fits(bytes(counts), wilds, spare)




def distance(counts, wilds: int, seven_pairs: bool, at_least: int = 0) -> int:
    """The fewest tiles to change so that 14 tiles of the rack (natural
    counts and okeys, 14 or 15 tiles) make a winning hand: the least ``k``
    such that, with ``k`` more okeys, all but ``k`` (or ``k + 1``) tiles fit
    (the same measure as :func:`engine.okey.analysis.distance`, by a
    search that stops at the first fit). ``at_least``: a known lower bound."""
    n = sum(counts) + wilds
    for k in range(at_least, 15):
        if fits(counts, wilds + k, seven_pairs, n + k - 14):
            return k
    return 14  # pragma: no cover - 14 okeys always fit


def acceptance(counts, wilds: int, seven_pairs: bool, dist: int, unseen, unseen_wilds: int) -> int:
    """The tiles still unseen (``unseen``: copies of each natural face;
    ``unseen_wilds``: okeys) that would bring a 14-tile rack at distance
    ``dist`` one tile nearer a win. Those are the okeys and the faces the
    okeys stand for in some way of fitting the rack with ``dist`` more
    okeys (:func:`_roles`: every okey is in a meld there, so the face it
    stands for, drawn, frees it for another). With seven pairs on, each
    face is tried."""
    if dist == 0:
        return 0
    if seven_pairs:
        c = list(counts)
        total = unseen_wilds
        for f in range(52):
            if unseen[f]:
                c[f] += 1
                total += unseen[f] * fits(c, wilds + dist - 1, True, dist)
                c[f] -= 1
        return total
    n = sum(counts) + wilds
    roles = _roles(bytes(counts), wilds + dist, n + dist - 14) or ()
    return unseen_wilds + sum(unseen[f] for f in roles)


@lru_cache(maxsize=300_000)
def _fits(counts: bytes, wilds: int, spare: int) -> bool:
    """Whether the tiles (natural counts, okeys) fit in complete melds but
    for at most ``spare`` of them."""
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is None:
        return wilds <= spare
    rest = bytearray(counts)
    rest[first] -= 1
    colour, number = divmod(first, 13)
    if wilds < 2 and not _partner(counts, colour, number):
        return spare > 0 and _fits(bytes(rest), wilds, spare - 1)
    # sets of its number: a subset of the other colours held, okeys for the rest
    others = [c for c in range(4) if c != colour and counts[c * 13 + number]]
    for mask in range(1 << len(others)):
        chosen = [others[k] for k in range(len(others)) if mask >> k & 1]
        r = bytearray(rest)
        for c in chosen:
            r[c * 13 + number] -= 1
        rb = bytes(r)
        for k in range(max(0, 2 - len(chosen)), min(wilds, 3 - len(chosen)) + 1):
            if _fits(rb, wilds - k, spare):
                return True
    # runs through it: okeys below (the rack holds nothing lower of its colour), naturals or okeys above
    for p in ((1, 14) if number == 0 else (number + 1,)):
        if _fits_runs(rest, wilds, spare, colour, p):
            return True
    return spare > 0 and _fits(bytes(rest), wilds, spare - 1)


def _partner(counts: bytes, colour: int, number: int) -> bool:
    """Whether the tile has another that may share a meld with it."""
    if any(counts[c * 13 + number] for c in range(4) if c != colour):
        return True
    base = colour * 13
    return any(counts[base + (number + d) % 13] for d in (-2, -1, 1, 2))


def _fits_runs(rest: bytearray, wilds: int, spare: int, colour: int, p: int) -> bool:
    for start in range(max(1, p - 13), p + 1):
        if start == 1 and p == 14:
            continue
        r = bytearray(rest)
        used = 0
        for q in range(start, p):
            code = colour * 13 + q - 1
            if r[code]:
                r[code] -= 1
            elif used < wilds:
                used += 1
            else:
                break
        else:
            length = p - start + 1
            q = p + 1
            while True:
                if length >= 3 and _fits(bytes(r), wilds - used, spare):
                    return True
                if q > 14 or (start == 1 and q == 14):
                    break
                code = colour * 13 + (0 if q == 14 else q - 1)
                if r[code]:
                    r[code] -= 1
                elif used < wilds:
                    used += 1
                else:
                    break
                length += 1
                q += 1
    return False


@lru_cache(maxsize=200_000)
def _roles(counts: bytes, wilds: int, spare: int) -> frozenset | None:
    """The natural faces the okeys stand for in some way of fitting the
    tiles in complete melds but for at most ``spare``, or ``None`` when
    there is no such way (every okey in a meld: only used with ``spare``
    too small for one to be left out)."""
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is None:
        return frozenset() if wilds <= spare else None
    out: set[int] = set()
    found = False
    rest = bytearray(counts)
    rest[first] -= 1
    colour, number = divmod(first, 13)
    if wilds >= 2 or _partner(counts, colour, number):
        others = [c for c in range(4) if c != colour and counts[c * 13 + number]]
        for mask in range(1 << len(others)):
            chosen = [others[k] for k in range(len(others)) if mask >> k & 1]
            r = bytearray(rest)
            for c in chosen:
                r[c * 13 + number] -= 1
            rb = bytes(r)
            free = {c * 13 + number for c in range(4) if c != colour and c not in chosen}
            for k in range(max(0, 2 - len(chosen)), min(wilds, 3 - len(chosen)) + 1):
                sub = _roles(rb, wilds - k, spare)
                if sub is not None:
                    found = True
                    out |= sub
                    if k:
                        out |= free
        for p in ((1, 14) if number == 0 else (number + 1,)):
            found = _roles_runs(rest, wilds, spare, colour, p, out) or found
    if spare > 0:
        sub = _roles(bytes(rest), wilds, spare - 1)
        if sub is not None:
            found = True
            out |= sub
    return frozenset(out) if found else None


def _roles_runs(rest: bytearray, wilds: int, spare: int, colour: int, p: int, out: set) -> bool:
    found = False
    for start in range(max(1, p - 13), p + 1):
        if start == 1 and p == 14:
            continue
        r = bytearray(rest)
        used = 0
        filled = []
        for q in range(start, p):
            code = colour * 13 + (0 if q == 14 else q - 1)
            if r[code]:
                r[code] -= 1
            elif used < wilds:
                used += 1
                filled.append(code)
            else:
                break
        else:
            length = p - start + 1
            q = p + 1
            while True:
                if length >= 3:
                    sub = _roles(bytes(r), wilds - used, spare)
                    if sub is not None:
                        found = True
                        out |= sub
                        out.update(filled)
                if q > 14 or (start == 1 and q == 14):
                    break
                code = colour * 13 + (0 if q == 14 else q - 1)
                if r[code]:
                    r[code] -= 1
                elif used < wilds:
                    used += 1
                    filled = filled + [code]
                else:
                    break
                length += 1
                q += 1
    return found


def two_step(counts, wilds: int, dist: int, unseen, unseen_wilds: int) -> float:
    """The tiles a draw brings nearer, over two steps: for a 14-tile rack at
    ``dist`` (no seven pairs), the expected draws ``E`` to come two tiles
    nearer (``U / a`` to the first, ``a`` the :func:`acceptance`, ``U`` the
    unseen tiles; then ``U / a'`` on average over the tiles that bring it
    there, ``a'`` the unseen tiles that bring that 15-tile rack nearer for
    some discard), given as the acceptance that would take as long at both
    steps (``2 U / E``); at distance 1 (or with no tile to draw) the
    acceptance itself."""
    n = sum(counts) + wilds
    roles = _roles(bytes(counts), wilds + dist, n + dist - 14) or ()
    a = unseen_wilds + sum(unseen[f] for f in roles)
    if dist <= 1 or not a:
        return float(a)
    total = sum(unseen) + unseen_wilds
    c = bytearray(counts)
    spare = n + dist - 14                      # 15 tiles, one okey fewer: the same spare
    later = 0.0
    for f in roles:
        if not unseen[f]:
            continue
        c[f] += 1
        nxt = _roles(bytes(c), wilds + dist - 1, spare) or ()
        c[f] -= 1
        a2 = unseen_wilds + sum(unseen[g] for g in nxt) - (f in nxt)
        later += unseen[f] * total / max(a2, 0.5)
    if unseen_wilds:
        nxt = _roles(bytes(counts), wilds + dist, spare) or ()
        a2 = unseen_wilds - 1 + sum(unseen[g] for g in nxt)
        later += unseen_wilds * total / max(a2, 0.5)
    expected = total / a + later / a
    return 2 * total / expected
