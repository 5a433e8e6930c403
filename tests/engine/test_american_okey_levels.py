"""American's ``strong`` and ``expert`` and Okey's ``expert``: what they
count from what their seat sees, and the discards they make."""

from __future__ import annotations

from collections import Counter

from engine.american import AmericanGame, InternationalGame
from engine.american import ai as am
from engine.melds import parse_meld
from engine.okey import OkeyGame
from engine.okey import ai as ok
from engine.okey.ai import eval as ev
from engine.okey.ai.eval import cover, shape
from engine.okey.analysis import distance
from engine.okey.game import TILES
from engine.okey.hand import F_CODE, rack_counts
from engine.tiles import JOKER, parse_tile


def _american_positions(cls, seed, levels):
    g = cls.new(len(levels), seed=seed)
    players = [am.LEVELS[lv](f"{seed}/{i}") for i, lv in enumerate(levels)]
    while not g.is_over:
        yield g
        g.push(players[g.to_move].choose(g))


def test_unseen_counts_are_the_other_racks_the_pool_and_the_buried_discards():
    for cls in (AmericanGame, InternationalGame):
        for g in _american_positions(cls, "unseen", ["greedy", "strong", "greedy"]):
            s = g.to_move
            hidden = sum(len(g.racks[o]) for o in range(g.n) if o != s) + len(g.pool) \
                + sum(len(p) - 1 for p in g.piles if p)
            if g.trump_in_pool():
                hidden -= 1          # International's trump lies face up on its stack
            assert sum(am.unseen_counts(g, s)) == hidden


def test_strong_differs_from_greedy_and_discards_by_outs_without_feeding():
    differ = 0
    for k in range(3):
        for g in _american_positions(AmericanGame, f"live-{k}", ["strong", "greedy"]):
            if g.phase != "play" or g.to_move != 0:
                continue
            move = am.StrongPlayer("x").choose(g)
            if move.action != "discard":
                continue
            greedy = am.GreedyPlayer("x").discard(g, 0)
            differ += move.tile != greedy
            nxt = 1
            order = am.outs_discard_order(g, 0)
            safe = [t for t in order if not am.feeds(g, nxt, t)]
            assert move.tile == (safe[0] if safe else order[0])
    assert differ >= 1


def test_strong_keeps_its_new_melds_on_the_rack_until_they_go_out():
    """After its initial meld a ``strong`` seat lays new melds only in the
    lay that leaves it one tile to discard; greedy lays them at once."""
    held = went_out = 0
    for cls in (AmericanGame, InternationalGame):
        for k in range(6):
            for g in _american_positions(cls, f"hold-{k}", ["strong", "greedy"]):
                if g.phase != "play" or g.to_move != 0 or not g.melded[0]:
                    continue
                move = am.StrongPlayer("x").choose(g)
                if move.action != "lay":
                    if am.best_cover(Counter(g.racks[0]), g.rules.meld_rules):
                        held += 1
                    continue
                if move.melds:
                    laid = sum(len(m) for m in move.melds) + sum(len(s) for _, s in move.adds)
                    assert len(g.racks[0]) - laid == 1
                    went_out += 1
    assert held >= 5 and went_out >= 1


def test_lay_plan_goes_out_with_a_joker_laid_onto_the_table():
    rules = AmericanGame.BASE.meld_rules
    table = [[1, parse_meld("[R3 R4 R5]")], [1, parse_meld("[B7 K7 O7]")]]
    j, k11, b1 = JOKER, int(parse_tile("K11")), int(parse_tile("B1"))
    melds, adds, left = am.lay_plan(Counter([j, k11]), table, rules)
    assert melds == [] and left == Counter([k11]) and len(adds) == 1 and adds[0][1][0] >= 53
    melds, adds, left = am.lay_plan(Counter([j, j, k11]), table, rules)
    assert left == Counter([k11]) and sum(len(s) for _, s in adds) == 2
    melds, adds, left = am.lay_plan(Counter([j, k11, b1]), table, rules)
    assert adds == [] and sum(left.values()) == 3       # two tiles would stay: the joker is kept
    game = AmericanGame.new(2, seed="x")
    game.table = [list(m) for m in table]
    game.melded = [True, True]
    game.racks[0] = [j, k11]
    game.phase = "play"
    move = am.StrongPlayer("x").choose(game)
    assert move.action == "lay" and not move.melds
    game.push(move)
    assert game.racks[0] == [k11]
    game.push(am.StrongPlayer("x").choose(game))
    assert game.is_over and game.winners == [0]


def test_outs_count_the_unseen_tiles_that_lay_a_tile():
    rules = AmericanGame.BASE.meld_rules
    r9, k9, b9 = (int(parse_tile(t)) for t in ("R9", "K9", "B9"))
    unseen = [2] * 53
    run = [[1, parse_meld("[R5 R6 R7]")]]
    assert am.outs(r9, Counter([r9]), run, unseen, rules) == 2          # R8 joins it to the run
    assert am.outs(r9, Counter([r9]), [], unseen, rules) == 0
    pair = Counter([r9, k9])
    assert am.outs(r9, pair, [], unseen, rules) == 4                    # the two other colours' 9s
    unseen[b9] = 0
    assert am.outs(r9, pair, [], unseen, rules) == 2
    assert am.outs(r9, Counter([r9, JOKER]), [], unseen, rules) > am.outs(r9, Counter([r9]), [], unseen, rules)


def test_expert_takes_more_discards_than_strong_only_when_they_beat_a_draw_on_average():
    checked = 0
    for g in _american_positions(AmericanGame, "take", ["expert", "greedy"]):
        if g.phase != "draw" or g.to_move != 0 or g.takeable() is None or not g.pool:
            continue
        move = am.ExpertPlayer("x").choose(g)
        if move.action not in ("take", "draw"):
            continue
        rack = Counter(g.racks[0])
        with_take = Counter(rack)
        with_take[g.takeable()] += 1
        gain = am.shed_value(g, 0, with_take) - am.expected_after_draw(g, 0, rack, am.unseen_counts(g, 0))
        if move.action == "take" and not am.StrongPlayer("x").draw(g, 0).action == "take":
            assert gain > am.TAKE_MARGIN
        if move.action == "draw":
            assert gain <= am.TAKE_MARGIN
        checked += 1
    assert checked >= 3


def test_okey_unseen_counts_subtract_the_discards_and_what_others_took():
    g = OkeyGame.new(4, {"start_points": 1000}, seed="live")
    players = [ok.LEVELS["strong"](str(i)) for i in range(4)]
    for _ in range(60):
        g.push(players[g.to_move].choose(g))
    s = g.to_move
    unseen, okeys = ok.unseen_counts(g, s)
    assert all(0 <= k <= 2 for k in unseen) and 0 <= okeys <= 2
    public = [t for p in g.piles for t in p] + [t for o in range(4) if o != s for t in g.taken[o]]
    for t in public + g.racks[s]:
        if t == g.okey:
            assert okeys <= 1
        else:
            assert unseen[g.okey if t == F_CODE else t] <= 1
    # no more than it cannot see: the other racks and the middle
    hidden, hidden_okeys = rack_counts([t for o in range(4) if o != s for t in g.racks[o]] + g.middle, g.okey)
    assert sum(unseen) + okeys <= sum(hidden) + hidden_okeys


def test_okey_distance_and_acceptance_agree_with_the_slow_measures():
    """The expert's distance is the analysis's (built on ``cover``), and its
    count of tiles that bring a rack nearer is the count found by adding
    each face in turn."""
    import random
    rng = random.Random(5)
    rules = OkeyGame.new(4, seed="r").rules
    pairs_rules = OkeyGame.new(4, {"seven_pairs": True}, seed="r").rules
    for _ in range(60):
        rack = rng.sample(TILES, 14)
        okey = rng.randrange(52)
        counts, wilds = rack_counts(rack, okey)
        d = ev.distance(counts, wilds, False)
        assert d == distance(rack, okey, rules)
        assert ev.distance(counts, wilds, True) == distance(rack, okey, pairs_rules)
        if not 1 <= d <= 3:
            continue
        unseen = [rng.randint(0, 2) for _ in range(52)]
        slow = 1
        for f in range(52):
            if unseen[f] and distance(rack + [f if f != okey else F_CODE], okey, rules) < d:
                slow += unseen[f]
        assert ev.acceptance(counts, wilds, False, d, unseen, 1) == slow


def test_okey_two_step_agrees_with_adding_each_tile_in_turn():
    """The expected draws over two steps, counted by adding each unseen
    tile (and then each other) and asking the distance of every rack."""
    import random
    rng = random.Random(7)
    checked = 0
    while checked < 8:
        rack = rng.sample(TILES, 14)
        okey = rng.randrange(52)
        c, w = rack_counts(rack, okey)
        d = ev.distance(c, w, False)
        if not 1 <= d <= 3:
            continue
        unseen = [rng.randint(0, 2) for _ in range(52)]
        okeys = rng.randint(0, 2)
        total = sum(unseen) + okeys
        first = []                        # (face or None for an okey, copies, rack after)
        for f in [None] + list(range(52)):
            k = okeys if f is None else unseen[f]
            cc, ww = list(c), w + (f is None)
            if f is not None:
                cc[f] += 1
            if k and ev.distance(cc, ww, False) < d:
                first.append((f, k, cc, ww))
        a = sum(k for _, k, _, _ in first)
        if d == 1 or not a:
            assert ev.two_step(c, w, d, unseen, okeys) == a
            checked += 1
            continue
        later = 0.0
        for f, k, cc, ww in first:
            left = list(unseen)
            if f is not None:
                left[f] -= 1
            a2 = okeys - (f is None)
            for g in range(52):
                c3 = list(cc)
                c3[g] += 1
                if left[g] and ev.distance(c3, ww, False) < d - 1:
                    a2 += left[g]
            later += k * total / max(a2, 0.5)
        want = 2 * total / (total / a + later / a)
        assert abs(ev.two_step(c, w, d, unseen, okeys) - want) < 1e-9
        checked += 1


def _expert_turns_against_greedy(prefix: str, games: int):
    """The turns of the ``expert`` seats (1 and 3) in ``games`` 4-player
    games against ``greedy`` seats: the game before the move, the seat and
    its move (played once the caller has looked)."""
    for k in range(games):
        g = OkeyGame.new(4, {"start_points": 1000}, seed=f"{prefix}-{k}")
        players = [ok.LEVELS["expert" if i % 2 else "greedy"](f"{k}/{i}") for i in range(4)]
        while not g.results:
            s = g.to_move
            move = players[s].choose(g)
            if s % 2:
                yield g, s, move
            g.push(move)


def test_okey_expert_discards_for_two_steps_over_the_one_with_the_most_tiles_now():
    """From two tiles to ``EXACT`` from a win, the discard is never worse
    over two steps (:func:`two_step`, less the feeding cost) than the
    discard with the most unseen tiles that bring the rack nearer now, and
    sometimes another."""
    differs = checked = 0
    for g, s, move in _expert_turns_against_greedy("two-step", 2):
        if move.action == "discard":
            rack = g.racks[s]
            unseen, okeys = ok.unseen_counts(g, s)
            hard = ok._needed(g, (s + 1) % 4)
            by_tile = {}
            for t in set(rack):
                rest = list(rack)
                rest.remove(t)
                c, w = rack_counts(rest, g.okey)
                by_tile[t] = (c, w, ev.distance(c, w, False))
            d = min(v[2] for v in by_tile.values())
            if 2 <= d <= ok.ExpertPlayer.EXACT:
                checked += 1

                def one(t):
                    c, w, _ = by_tile[t]
                    return ev.acceptance(c, w, False, d, unseen, okeys) - ok.ExpertPlayer.FEED * (t in hard)

                def two(t):
                    c, w, _ = by_tile[t]
                    return ev.two_step(c, w, d, unseen, okeys) - ok.ExpertPlayer.FEED * (t in hard)

                assert by_tile[move.tile][2] == d
                near = [t for t in by_tile if by_tile[t][2] == d]
                top = max(one(t) for t in near)
                assert two(move.tile) >= min(two(t) for t in near if one(t) == top) - 1e-9
                differs += one(move.tile) < top
    assert checked >= 10 and differs >= 1


def test_okey_expert_feeds_the_next_player_only_when_every_other_discard_costs_the_rack():
    fed = checked = 0
    for k in range(4):
        g = OkeyGame.new(4, {"start_points": 1000}, seed=f"feed-{k}")
        players = [ok.LEVELS["expert"](f"{k}/{i}") for i in range(4)]
        while not g.results:
            s = g.to_move
            move = players[s].choose(g)
            if move.action == "discard":
                needed = ok._needed(g, (s + 1) % 4)
                if needed:
                    checked += 1
                if move.tile in needed:
                    fed += 1
                    rack = g.racks[s]
                    unseen, okeys = ok.unseen_counts(g, s)

                    def dist(t):
                        rest = list(rack)
                        rest.remove(t)
                        return ev.distance(*rack_counts(rest, g.okey), False)

                    mine = dist(move.tile)
                    for t in set(rack) - needed:
                        if dist(t) == mine and mine <= ok.ExpertPlayer.EXACT:
                            rest = list(rack)
                            rest.remove(t)
                            c, w = rack_counts(rest, g.okey)
                            other = ev.acceptance(c, w, False, mine, unseen, okeys)
                            rest = list(rack)
                            rest.remove(move.tile)
                            c, w = rack_counts(rest, g.okey)
                            assert other < ev.acceptance(c, w, False, mine, unseen, okeys) - ok.ExpertPlayer.FEED + 1
                        else:
                            assert dist(t) >= mine
            g.push(move)
    assert checked >= 5


def _okey_acceptance_after(g, s, rack, d):
    """The most unseen tiles that bring ``rack`` (15 tiles) less a discard
    one nearer, over the discards that keep it at distance ``d``."""
    unseen, okeys = ok.unseen_counts(g, s)
    best = None
    for t in set(rack):
        rest = list(rack)
        rest.remove(t)
        c, w = rack_counts(rest, g.okey)
        if ev.distance(c, w, False) == d:
            a = ev.acceptance(c, w, False, d, unseen, okeys)
            best = a if best is None else max(best, a)
    return best


def test_okey_expert_takes_a_discard_that_keeps_the_distance_only_for_more_acceptance():
    kept = 0
    for g, s, move in _expert_turns_against_greedy("take", 3):
        if move.action == "take" and g.middle:
            rack = g.racks[s]
            c, w = rack_counts(rack, g.okey)
            now = ev.distance(c, w, False)
            after = ev.distance(*rack_counts(rack + [g.takeable()], g.okey), False)
            assert after <= now
            if after == now:
                kept += 1
                unseen, okeys = ok.unseen_counts(g, s)
                assert now <= ok.ExpertPlayer.EXACT
                assert _okey_acceptance_after(g, s, rack + [g.takeable()], now) \
                    > ev.acceptance(c, w, False, now, unseen, okeys)
    assert kept >= 3
