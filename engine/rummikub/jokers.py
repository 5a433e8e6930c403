"""The joker rules of a Rummikub play: which jokers a play frees from the
table, whether each was replaced by the tile it stood for (from the rack or
the table, one or both colours of a group), and where a freed joker may go.
The options are :class:`~engine.rummikub.rules.RuleSet`'s ``joker_sets``,
``joker_freed_from``, ``joker_group_both_colours``, ``joker_reuse`` and
``manipulate_on_initial_turn``; ``docs/rules/rummikub.md`` gives the readings.
"""

from __future__ import annotations

import itertools

from ..errors import IllegalMoveError
from ..melds import RUN_JOKER, Meld, format_meld, joker_candidates, meld_kind
from ..tiles import _TEXT, JOKER
from .moves import Move, _meld_counts
from .rules import RuleSet


def _illegal(message: str, rule: str) -> IllegalMoveError:
    return IllegalMoveError(message, rule=rule, penalty=None)


def _counts_slots(m: Meld) -> dict[int, int]:
    d: dict[int, int] = {}
    for s in m:
        if s < 52:
            d[s] = d.get(s, 0) + 1
    return d


def _reals_within(small: Meld, big: Meld) -> bool:
    """Every numbered tile of ``small`` is in ``big`` (as multisets)."""
    bc = _counts_slots(big)
    for t, n in _counts_slots(small).items():
        if bc.get(t, 0) < n:
            return False
    return True


def _match(left: list[frozenset], right: list[frozenset]) -> tuple[int, list[int]]:
    """Maximum matching of ``left[i]`` to ``right[j]`` where right ⊆ left.
    Returns (size, match_of_right) with -1 for unmatched right items."""
    match_r = [-1] * len(right)

    def try_left(i, seen):
        for j, r in enumerate(right):
            if j in seen or not r <= left[i]:
                continue
            seen.add(j)
            if match_r[j] < 0 or try_left(match_r[j], seen):
                match_r[j] = i
                return True
        return False

    size = sum(1 for i in range(len(left)) if try_left(i, set()))
    return size, match_r


def _pick_distinct(needs: list[list[frozenset]], available: list[int]) -> bool:
    """Whether each need (a list of tile sets, one tile from each) can take
    distinct tiles from the multiset ``available`` (53 counts)."""
    flat = [c for need in needs for c in need]
    avail = list(available)

    def go(k):
        if k == len(flat):
            return True
        for t in sorted(flat[k]):
            if avail[t] > 0:
                avail[t] -= 1
                if go(k + 1):
                    return True
                avail[t] += 1
        return False

    return go(0)


def check_jokers(rules: RuleSet, initial_done: bool, move: Move, played: list[int]) -> None:
    """Check the jokers of a ``move`` that takes apart table melds holding
    jokers, by the player whose initial meld is ``initial_done`` and who
    plays the rack tiles ``played`` (53 counts).

    :raises IllegalMoveError: naming the joker rule broken.
    """
    removed, added = move.removed, move.added
    old = []  # (candidates, removed index, slot index)
    for i, m in enumerate(removed):
        for k, s in enumerate(m):
            if s >= RUN_JOKER:
                old.append((joker_candidates(m, k), i, k))
    new = []  # (candidates, added index, slot index)
    for j, m in enumerate(added):
        for k, s in enumerate(m):
            if s >= RUN_JOKER:
                new.append((joker_candidates(m, k), j, k))
    both = rules.joker_group_both_colours
    needs: list[list[frozenset]] = []  # freeing tiles, per freed joker
    kept_new: set[int] = set()        # indices into ``new`` of kept jokers
    if rules.joker_sets == "frozen":
        freed = _frozen_successors(rules, removed, added, old, new, kept_new, needs)
    else:
        size, match_r = _match([c for c, _, _ in old], [c for c, _, _ in new])
        kept_new = {j for j, i in enumerate(match_r) if i >= 0}
        matched_old = {i for i in match_r if i >= 0}
        freed = 0
        for i, (cands, _, _) in enumerate(old):
            if i in matched_old:
                continue
            freed += 1
            if rules.joker_sets == "free":
                continue
            if both and len(cands) > 1:
                needs.append([frozenset((t,)) for t in sorted(cands)])
            else:
                needs.append([cands])
    if not freed:
        return
    if not initial_done and not rules.manipulate_on_initial_turn:
        raise _illegal("a joker cannot be freed before the initial meld", "joker-before-initial-meld")
    # where the freeing tiles come from
    if rules.joker_freed_from == "rack":
        source = played
        where = "from the rack"
    else:
        source = _meld_counts(added)
        where = "on the table"
    if not _pick_distinct(needs, source):
        wanted = " and ".join("/".join(_TEXT[t] for t in sorted(c)) for n in needs for c in n)
        raise _illegal(f"a joker left its tile without being replaced: it needs "
                       f"{wanted} {where}", "joker-not-replaced")
    # where the freed jokers go
    reuse = rules.joker_reuse
    if reuse == "any":
        return
    spots = [n for idx, n in enumerate(new) if idx not in kept_new]
    good = sum(1 for cands, j, k in spots if _reuse_ok(reuse, removed, added[j], k, played))
    if good < freed:
        text = {"new-meld": "in a new meld",
                "new-meld-with-rack-tiles": "in a new meld with two or more tiles from the rack",
                "joker-and-rack-tiles-only": "in a new meld formed of the joker and two or more "
                                             "rack tiles only"}[reuse]
        raise _illegal(f"a freed joker must be used {text}", "joker-reuse")


def _frozen_successors(rules: RuleSet, removed, added, old, new, kept_new, needs) -> int:
    """Official Book: each old meld holding a joker continues, whole, in
    one new meld, its jokers kept in place or replaced there. Fills
    ``kept_new`` and ``needs``; returns the number of freed jokers."""
    both = rules.joker_group_both_colours
    joker_melds = sorted({i for _, i, _ in old})
    new_by_meld: dict[int, list[int]] = {}
    for idx, (_, j, _) in enumerate(new):
        new_by_meld.setdefault(j, []).append(idx)
    options: list[list[tuple[int, set[int], list, int]]] = []
    for i in joker_melds:
        r = removed[i]
        olds = [(c, k) for c, ii, k in old if ii == i]
        opts = []
        for j, a in enumerate(added):
            if not _reals_within(r, a):
                continue
            extra = _counts_slots(a)
            for t, n in _counts_slots(r).items():
                extra[t] -= n
            a_new = new_by_meld.get(j, [])
            # keep what can be kept in place, free the rest there
            size, match_r = _match([c for c, _ in olds], [new[x][0] for x in a_new])
            kept = {a_new[x] for x, y in enumerate(match_r) if y >= 0}
            matched = {y for y in match_r if y >= 0}
            ok, meld_needs, freed = True, [], 0
            pool = dict(extra)
            for y, (c, _) in enumerate(olds):
                if y in matched:
                    continue
                freed += 1
                req = [frozenset((t,)) for t in sorted(c)] if both and len(c) > 1 else [c]
                for need in req:
                    hit = next((t for t in sorted(need) if pool.get(t, 0) > 0), None)
                    if hit is None:
                        ok = False
                        break
                    pool[hit] -= 1
                if not ok:
                    break
                meld_needs.append(req)
            if ok:
                opts.append((j, kept, meld_needs, freed))
        if not opts:
            raise _illegal(
                f"{format_meld(r)} holds a joker: it may only be added to, or have its joker "
                f"replaced by the tile it stands for", "joker-set-frozen")
        options.append(opts)
    # choose distinct successors (few melds: try combinations)
    best = None
    for choice in itertools.product(*options):
        js = [c[0] for c in choice]
        if len(set(js)) != len(js):
            continue
        freed = sum(c[3] for c in choice)
        if best is None or freed < best[0]:
            best = (freed, choice)
    if best is None:
        raise _illegal("melds holding jokers may only be added to, each on its own",
                       "joker-set-frozen")
    for c in best[1]:
        kept_new.update(c[1])
        needs.extend(c[2])
    return best[0]


def _reuse_ok(reuse: str, removed, meld: Meld, k: int, played: list[int]) -> bool:
    if any(_reals_within(r, meld) for r in removed):
        return False  # an old meld continued: not a new meld
    if reuse == "new-meld":
        return True
    left = list(played)
    if reuse == "new-meld-with-rack-tiles":
        from_rack = 0
        jokers = -1  # the freed joker itself
        for s in meld:
            t = s if s < 52 else JOKER
            if t == JOKER:
                jokers += 1
                continue
            if left[t] > 0:
                left[t] -= 1
                from_rack += 1
        from_rack += min(max(jokers, 0), played[JOKER])
        return from_rack >= 2
    # joker-and-rack-tiles-only: a sub-meld of the joker and >= 2 rack tiles
    if meld_kind(meld) == "group":
        n = 0
        for s in meld:
            if s < 52 and left[s] > 0:
                left[s] -= 1
                n += 1
        return n >= 2
    for lo in range(0, k + 1):
        for hi in range(k + 1, len(meld) + 1):
            if hi - lo < 3:
                continue
            window = [s for x, s in enumerate(meld[lo:hi], lo) if x != k]
            c = list(played)
            ok = True
            for s in window:
                t = s if s < 52 else JOKER
                c[t] -= 1
                if c[t] < 0:
                    ok = False
                    break
            if ok:
                return True
    return False
