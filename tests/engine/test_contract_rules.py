"""Contract rummy rules, both profiles: contracts, melds, wild cards, aces,
lay-offs and wild replacement, buying, the "players" rule, going out, undo,
scoring, views, notation, snapshots and records."""

from __future__ import annotations

import pytest

from engine.cards import TEXT, parse_cards
from engine.contract import (CONTRACTS, ContractGame, ContractRules, InternationalGame,
                             Move, contract_text, replay_record)
from engine.contract.ai import play_game
from engine.errors import (DealError, IllegalMoveError, NotationError, RecordError,
                           RuleOptionError)
from engine.registry import find_variant


def C(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def position(cls=ContractGame, players=3, hand=1, hands=(), table=(), discard="9C",
             stock="3C 4C 5C 6C 7C 8C", active=0, phase="play", down=(), took=False,
             buys=None, **options):
    """A game in a chosen position: ``hands`` per seat (text), ``table`` as
    (owner, cards) pairs, the discard pile (top last), the stock (top first)."""
    rules = cls.rules_from_dict(options) if options else None
    g = cls.new(players, rules, seed="rules-test")
    g.hand_no = hand - 1
    hs = [C(h) for h in hands]
    while len(hs) < players:
        hs.append(C("3D 4D 9S TS KD"))
    g.hands = hs
    g.table = [g._r.build(C(m), owner) for owner, m in table]
    g.discards = C(discard)
    g.dead = [False] * len(g.discards)
    g.stock = list(reversed(C(stock)))
    g.active = active
    g.phase = phase
    g.took = took
    g.down = [i in down for i in range(players)]
    if buys is not None:
        g.buys = list(buys)
    g.upcard = False
    g.window = phase == "draw"
    g.window_ref = g.window_discarder = (active - 1) % players
    return g


def rule_of(game, text):
    """``"ok"`` if the move is accepted, else the rule code it breaks."""
    try:
        game.push(game.parse_move(text))
    except IllegalMoveError as exc:
        return exc.rule
    return "ok"


def unchanged(game, text, rule):
    before = game.snapshot()
    assert rule_of(game, text) == rule
    assert game.snapshot() == before


# --- profiles, rules, construction ----------------------------------------------

def test_two_profiles_and_their_variants():
    assert find_variant("contract") is ContractGame
    assert find_variant("International") is InternationalGame
    assert find_variant("contract-004") is InternationalGame
    three, intl = ContractRules.preset("three-decks"), ContractRules.preset("international")
    assert three.twos_wild and not intl.twos_wild
    assert (three.aces, intl.aces) == ("high", "low-or-high")
    assert ContractGame.rules_from_dict({"profile": "international"}) == intl
    assert InternationalGame.rules_from_dict(None) == intl
    assert ContractGame.rules_from_dict({"buy_beneath": True}).buy_beneath
    data = ContractGame.rules_to_dict(intl)
    assert ContractRules(**data) == intl


@pytest.mark.parametrize("options,word", [
    ({"colour": 1}, "colour"), ({"aces": "sometimes"}, "aces"),
    ({"buy_limit": "two"}, "buy_limit"), ({"twos_wild": 1}, "twos_wild"),
    ({"profile": "gin"}, "gin"), ({"decks": 9}, "decks")])
def test_bad_rule_options_are_named(options, word):
    with pytest.raises(RuleOptionError, match=word):
        ContractGame.rules_from_dict(options)


def test_new_checks_players_seed_and_first():
    with pytest.raises(DealError, match="3-8"):
        ContractGame.new(2, seed="x")
    assert InternationalGame.new(2, seed="x").n == 2
    with pytest.raises(DealError, match="exactly one"):
        ContractGame.new(3)
    with pytest.raises(DealError, match="first"):
        ContractGame.new(3, seed="x", first=3)


def test_deal_eleven_each_upcard_and_stock():
    for cls, n, size in ((ContractGame, 4, 162), (InternationalGame, 4, 216),
                         (InternationalGame, 7, 270)):
        g = cls.new(n, seed="deal", first=1)
        assert [len(h) for h in g.hands] == [11] * n
        assert len(g.discards) == 1 and g.active == 1
        assert len(g.stock) == size - 11 * n - 1


def test_each_hand_has_its_contract():
    assert [contract_text(i) for i in range(7)] == [
        "two sets", "one set and one run", "two runs", "three sets",
        "two sets and one run", "one set and two runs", "three runs"]


# --- going down: each contract ------------------------------------------------------

GOOD = {
    1: "7H 7D 7S / 9C 9D 9S",
    2: "7H 7D 7S / 3C 4C 5C 6C",
    3: "3C 4C 5C 6C / 8H 9H TH JH",
    4: "7H 7D 7S / 9C 9D 9S / KC KD KH",
    5: "7H 7D 7S / 9C 9D 9S / 3C 4C 5C 6C",
    6: "7H 7D 7S / 3C 4C 5C 6C / 8H 9H TH JH",
    7: "3C 4C 5C 6C / 8H 9H TH JH / 9S TS JS QS",
}
SHORT = {1: "7H 7D 7S", 2: "7H 7D 7S", 3: "3C 4C 5C 6C",
         4: "7H 7D 7S / 9C 9D 9S", 5: "7H 7D 7S / 3C 4C 5C 6C",
         6: "7H 7D 7S / 3C 4C 5C 6C", 7: "3C 4C 5C 6C / 8H 9H TH JH"}


@pytest.mark.parametrize("cls", [ContractGame, InternationalGame])
@pytest.mark.parametrize("hand", range(1, 8))
def test_each_contract_goes_down_and_a_short_one_is_refused(cls, hand):
    melds = GOOD[hand]
    g = position(cls, hand=hand, hands=[melds.replace("/", "") + " KS QD"])
    unchanged(g, "down " + SHORT[hand], "contract-not-met")
    assert rule_of(g, "down " + melds) == "ok"
    assert g.down[0] and len(g.table) == sum(CONTRACTS[hand - 1])
    assert sorted(g.hands[0]) == sorted(C("KS QD"))
    assert rule_of(g, "down 7H 7D 7S") == "already-down"


def test_contract_must_go_down_at_once_and_cards_must_be_held():
    g = position(hands=["7H 7D 7S 9C 9D KS"])
    unchanged(g, "down 7H 7D 7S / 9C 9D 9S", "not-in-hand")
    unchanged(g, "down 7H 7D 7S", "contract-not-met")


def test_more_melds_than_the_contract():
    hand = "7H 7D 7S 9C 9D 9S KC KD KH 5S 6D"
    g = position(ContractGame, hands=[hand])
    assert rule_of(g, "down 7H 7D 7S / 9C 9D 9S / KC KD KH") == "ok"
    g = position(InternationalGame, hands=[hand])
    unchanged(g, "down 7H 7D 7S / 9C 9D 9S / KC KD KH", "too-many-melds")


def test_runs_of_a_contract_in_their_own_suits_seed_002_only():
    hand = "3H 4H 5H 6H 8H 9H TH JH KS QD"
    g = position(ContractGame, hand=3, hands=[hand])
    unchanged(g, "down 3H 4H 5H 6H / 8H 9H TH JH", "run-suits")
    g = position(InternationalGame, hand=3, hands=[hand])
    assert rule_of(g, "down 3H 4H 5H 6H / 8H 9H TH JH") == "ok"


@pytest.mark.parametrize("meld,rule", [
    ("7H 7D", "meld-invalid"), ("7H 8D 9S", "meld-invalid"), ("3H 4H 5H", "meld-invalid"),
    ("3H 4H 6H 7H", "meld-invalid"), ("3H 4S 5H 6H", "meld-invalid"),
    ("6H 5H 4H 3H", "meld-invalid"), ("JK JK JK", "meld-invalid")])
def test_invalid_melds(meld, rule):
    g = position(hand=2, hands=[meld + " 9C 9D 9S 5D 6D 7D 8D KS"])
    unchanged(g, f"down 9C 9D 9S / {meld}" if "H" in meld and len(meld.split()) >= 4
              else f"down {meld} / 5D 6D 7D 8D", rule)


# --- wild cards and their ratio -------------------------------------------------

def test_seed_002_twos_and_jokers_wild_at_least_half_natural():
    g = position(hands=["7H 7D 2C 9S 9D JK KS KD"])
    assert rule_of(g, "down 7H 7D 2C / 9S 9D JK") == "ok"
    g = position(hands=["7H 2C JK 9S 9D 9C KS"])
    unchanged(g, "down 7H 2C JK / 9S 9D 9C", "wild-ratio")
    g = position(hand=2, hands=["7H 7D 7S 5C JK 7C 2S KS QD"])
    assert rule_of(g, "down 7H 7D 7S / 5C JK 7C 2S") == "ok"   # 5 6 7 8 of clubs
    assert [str(m) for m in (g.table[1].start, g.table[1].end)] == ["5", "8"]


def test_seed_002_ratio_holds_for_lay_offs_too():
    g = position(hands=["JK 2D KS QS"], table=[(0, "9C 9D JK 2S"), (1, "4H 5H 6H 7H")],
                 down=(0,))
    unchanged(g, "lay JK 1", "does-not-fit")          # 2 naturals, 2 wilds: no more wilds
    assert rule_of(g, "lay 2D 2+") == "ok"            # 4 naturals: room for wilds


def test_seed_004_ratio_only_when_going_down_and_twos_natural():
    g = position(InternationalGame, hands=["7H JK JK 9S 9D 9C KS QD"])
    unchanged(g, "down 7H JK JK / 9S 9D 9C", "wild-ratio")
    g = position(InternationalGame, hands=["JK JK KS QS"], table=[(1, "9C 9D JK")], down=(0,))
    assert rule_of(g, "lay JK 1") == "ok"
    assert rule_of(g, "lay JK 1") == "ok"             # wilds outnumber naturals now
    g = position(InternationalGame, hands=["2C 2D 2H 9S 9D 9C KS QD"])
    assert rule_of(g, "down 2C 2D 2H / 9S 9D 9C") == "ok"   # a set of natural twos
    assert g.table[0].wilds == 0


# --- aces -------------------------------------------------------------------------

@pytest.mark.parametrize("cls,run,ok", [
    (ContractGame, "JH QH KH AH", True),
    (ContractGame, "AH 3H 4H 5H", False),        # aces only high in seed 002
    (ContractGame, "3H 4H 5H 6H", True),
    (InternationalGame, "AH 2H 3H 4H", True),
    (InternationalGame, "JH QH KH AH", True),
    (InternationalGame, "QH KH AH 2H", False),   # no wrapping
    (InternationalGame, "KH AH 2H 3H", False),
])
def test_ace_rules(cls, run, ok):
    g = position(cls, hand=2, hands=["9C 9D 9S " + run + " KS QD"])
    assert rule_of(g, f"down 9C 9D 9S / {run}") == ("ok" if ok else "meld-invalid")


def test_ace_lay_off_ends():
    g = position(InternationalGame, hands=["AH AS 5D 6D"],
                 table=[(1, "2H 3H 4H 5H"), (1, "TS JS QS KS")], down=(0,))
    assert rule_of(g, "lay AH 1") == "ok" and g.table[0].start == 1
    assert rule_of(g, "lay AS 2") == "ok" and g.table[1].end == 14
    g = position(ContractGame, hands=["AH KS QS"], table=[(1, "3H 4H 5H 6H")], down=(0,))
    unchanged(g, "lay AH 1", "does-not-fit")


# --- lay-offs and wild replacement -----------------------------------------------

def test_lay_off_sets_by_rank_and_runs_at_either_end():
    g = position(hands=["9H 3H 8H KS QS JS TS"], table=[(1, "9C 9D 9S"), (1, "4H 5H 6H 7H")],
                 down=(0,))
    assert rule_of(g, "lay 9H 1") == "ok" and len(g.table[0].cards) == 4
    assert rule_of(g, "lay 3H 2") == "ok" and g.table[1].start == 3
    assert rule_of(g, "lay 8H 2") == "ok" and g.table[1].end == 8
    unchanged(g, "lay KS 1", "does-not-fit")
    unchanged(g, "lay KS 9", "no-such-meld")
    unchanged(g, "lay QS 2", "does-not-fit")


def test_lay_off_needs_to_be_down_and_a_wild_on_a_run_names_its_end():
    g = position(hands=["9H KS QS"], table=[(1, "9C 9D 9S")])
    unchanged(g, "lay 9H 1", "not-down")
    g = position(hands=["JK KS QS"], table=[(1, "5H 6H 7H 8H")], down=(0,))
    unchanged(g, "lay JK 1", "which-end")
    assert rule_of(g, "lay JK 1-") == "ok" and g.table[0].start == 4


def test_replacing_a_wild_moves_it_at_once_and_burying_fixes_it():
    g = position(hands=["6H 6C KS QS JS"], table=[(1, "4H 5H JK 7H"), (2, "9C 9D 9S 9H")],
                 down=(0,))
    unchanged(g, "swap 6H 1 1+", "wild-same-meld")
    assert rule_of(g, "swap 6H 1 2") == "ok"
    assert g.table[0].cards == C("4H 5H 6H 7H") and g.table[0].wilds == 0
    assert g.table[1].cards == C("9C 9D 9S 9H JK")     # buried in the set
    unchanged(g, "swap 6C 2 1+", "no-wild-to-replace")  # a buried wild stays


def test_a_swap_needs_somewhere_for_the_wild():
    # seed 002: the only other meld is half wild already
    g = position(hands=["6H KS QS"], table=[(1, "4H 5H JK 7H"), (2, "9C 9D JK 2S")],
                 down=(0,))
    unchanged(g, "swap 6H 1 2", "does-not-fit")
    unchanged(g, "swap 7D 1 2", "not-in-hand")
    unchanged(g, "swap KS 1 2", "no-wild-to-replace")


# --- buying --------------------------------------------------------------------------

def test_seed_002_buy_needs_the_active_players_consent():
    g = position(players=4, phase="draw", active=1, discard="4C 7S",
                 stock="AC AD AH AS KC KD")
    assert g.pending_actors() == [1, 2, 3]       # seat 0 discarded: no buying it back
    assert rule_of(g, "0 buy") == "own-discard"
    assert rule_of(g, "3 buy") == "ok"
    unchanged(g, "2 buy", "buy-already-asked")  # the first to ask gets it
    unchanged(g, "draw", "answer-buy-request")
    assert g.pending_actors() == [1]
    assert rule_of(g, "allow") == "ok"
    assert sorted(g.hands[3][-3:]) == sorted(C("7S AC AD")) and g.buys[3] == 1
    assert g.discards == C("4C") and g.phase == "draw"
    assert rule_of(g, "draw") == "ok" and g.hands[1][-1] == C("AH")[0]


def test_seed_002_refusing_means_taking_it():
    g = position(players=4, phase="draw", active=1, discard="4C 7S")
    assert rule_of(g, "2 buy") == "ok"
    assert rule_of(g, "refuse") == "ok"
    assert g.hands[1][-1] == C("7S")[0] and g.took and g.buys == [0, 0, 0, 0]


def test_two_buys_per_hand_and_the_window_closes_on_the_draw():
    g = position(players=4, phase="draw", active=1, discard="4C 7S", buys=[0, 0, 2, 0])
    unchanged(g, "2 buy", "buy-limit")
    assert not g.may_act(2) and g.may_act(3)
    assert rule_of(g, "draw") == "ok"
    unchanged(g, "3 buy", "buy-window-closed")
    unchanged(g, "buy", "buy-window-closed")


def test_no_buying_on_ones_own_turn_in_seed_002():
    g = position(players=3, phase="draw", active=1, discard="4C 7S")
    unchanged(g, "1 buy", "own-turn-buy")


def test_seed_004_priority_to_the_next_in_turn():
    g = position(InternationalGame, players=5, phase="draw", active=1, discard="4C 7S",
                 stock="AC AD AH AS KC KD")
    assert rule_of(g, "4 buy") == "ok"        # asked first, but further from seat 0
    assert rule_of(g, "2 buy") == "ok"
    unchanged(g, "2 buy", "buy-already-asked")
    assert g.view(None)["buy_requests"] == [4, 2]
    assert rule_of(g, "draw") == "ok"
    assert g.buys == [0, 0, 1, 0, 0] and sorted(g.hands[2][-3:]) == sorted(C("7S AC AD"))
    assert g.hands[1][-1] == C("AH")[0]


@pytest.mark.parametrize("players, asking, buyer", [
    (3, (2, 1), 1),        # dealer 2 asks first, seat 1 is next after him
    (4, (3, 2), 2),        # dealer 3 last
    (4, (3, 1, 2), 1),
    (4, (3,), 3),          # the dealer alone gets it
    (5, (4, 2, 3), 2),
])
def test_seed_004_first_upcard_priority_starts_left_of_the_dealer_and_ends_with_him(players, asking, buyer):
    # The dealer turned the upcard: as with a discard, priority goes to the
    # next in turn after him (the first player, who may only buy it on his
    # own turn, then the others in playing order), the dealer last.
    g = InternationalGame.new(players, seed="upcard-priority")
    up = g.discards[-1]
    assert g.to_move == 0 and g.window_ref == players - 1
    for seat in asking:
        assert rule_of(g, f"{seat} buy") == "ok"
    assert rule_of(g, "draw") == "ok"
    assert g.buys == [int(s == buyer) for s in range(players)]
    assert g.picked[buyer] == [up] and len(g.hands[buyer]) == 14


def test_seed_004_first_upcard_priority_follows_the_deal_into_later_hands():
    g = InternationalGame.new(4, seed="upcard-priority")
    g.hand_first = 2                # hand 2 of a rotating deal: seat 1 dealt
    g._start_hand()
    assert g.to_move == 2 and g.window_ref == 1
    for seat in (1, 0, 3):
        assert rule_of(g, f"{seat} buy") == "ok"
    assert rule_of(g, "draw") == "ok"
    assert g.buys == [0, 0, 0, 1]   # 3 is next after 2; the dealer (1) last


def test_seed_004_the_player_on_turn_taking_the_card_beats_every_request():
    g = position(InternationalGame, players=4, phase="draw", active=1, discard="4C 7S")
    assert rule_of(g, "3 buy") == "ok"
    assert rule_of(g, "take") == "ok"
    assert g.buys == [0, 0, 0, 0] and g.requests == []


def test_seed_004_first_upcard_only_by_buying_and_own_turn_buy_takes_three_more():
    g = InternationalGame.new(3, seed="upcard")
    up = g.discards[-1]
    unchanged(g, "take", "upcard-buy-only")
    top3 = g.stock[-3:][::-1]
    assert rule_of(g, "buy") == "ok"
    assert g.hands[0][-4:] == [up] + top3 and g.buys[0] == 1 and g.phase == "play"


def test_seed_004_others_may_buy_the_first_upcard():
    g = InternationalGame.new(3, seed="upcard")
    up = g.discards[-1]
    assert g.pending_actors() == [0, 1, 2]
    assert rule_of(g, "2 buy") == "ok"
    assert rule_of(g, "draw") == "ok"
    assert up in g.hands[2] and len(g.hands[2]) == 14 and len(g.hands[0]) == 12


def test_seed_002_option_buying_the_card_beneath():
    g = position(players=4, phase="draw", active=1, discard="4C 8D 7S", buy_beneath=True)
    assert rule_of(g, "take") == "ok"
    assert g.may_act(3) and g.view(None)["beneath_window"]
    assert rule_of(g, "3 buy") == "ok"
    assert C("8D")[0] in g.hands[3] and g.buys[3] == 1
    unchanged(g, "2 buy", "buy-window-closed")
    g = position(players=4, phase="draw", active=1, discard="4C 8D 7S")
    assert rule_of(g, "take") == "ok"
    unchanged(g, "3 buy", "buy-window-closed")


# --- the "players" rule ------------------------------------------------------------------

def test_players_may_not_be_discarded():
    g = position(InternationalGame, hands=["9H 3D KS"], table=[(1, "9C 9D 9S")])
    unchanged(g, "discard 9H", "players-rule")
    assert rule_of(g, "discard KS") == "ok"
    g = position(ContractGame, hands=["9H 3D KS"], table=[(1, "9C 9D 9S")])
    assert rule_of(g, "discard 9H") == "ok"                 # seed 002: no such rule
    g = position(InternationalGame, hands=["9H 3D KS"], table=[(1, "9C 9D 9S")],
                 players_rule=False)
    assert rule_of(g, "discard 9H") == "ok"


def test_players_exception_one_a_pair_on_a_run_is_dead():
    g = position(InternationalGame, players=3, hands=["8H 8H KS QD"],
                 table=[(1, "4H 5H 6H 7H")])
    assert rule_of(g, "discard 8H") == "ok"
    assert g.dead[-1] and g.view(None)["discard_top_dead"]
    unchanged(g, "take", "dead-discard")
    unchanged(g, "2 buy", "dead-discard")
    g = position(InternationalGame, hands=["9H 9H KS"], table=[(1, "9C 9D 9S")])
    unchanged(g, "discard 9H", "players-rule")              # a pair on a set: no exception


def test_players_exception_two_buy_first_then_a_dead_discard():
    g = position(InternationalGame, players=3, hands=["9H 8H"],
                 table=[(1, "9C 9D 9S"), (2, "4H 5H 6H 7H")], discard="4C 3D",
                 stock="KC QC JC")
    unchanged(g, "discard 9H", "players-rule-buy-first")
    assert g.can_buy(0)
    assert rule_of(g, "buy") == "ok"
    assert sorted(g.hands[0]) == sorted(C("9H 8H 3D KC QC"))
    g = position(InternationalGame, players=3, hands=["9H 8H"], buys=[2, 0, 0],
                 table=[(1, "9C 9D 9S"), (2, "4H 5H 6H 7H")])
    assert rule_of(g, "discard 9H") == "ok" and g.dead[-1]


# --- going out -----------------------------------------------------------------------------

def test_the_last_card_cannot_be_discarded_and_going_out_ends_the_hand():
    g = position(hands=["9H", "KS QS", "AC 2C JK"], table=[(1, "9C 9D 9S")], down=(0,))
    unchanged(g, "discard 9H", "last-card-discard")
    out = g.push(g.parse_move("lay 9H 1"))
    assert out.kind == "hand-over" and out.detail["winner"] == 0
    assert g.results[0]["points"] == [0, 20, 15 + 20 + 20]
    assert g.totals == [0, 20, 55] and g.hand_no == 1 and g.active == 1  # next dealer


def test_a_play_may_not_strand_the_last_card():
    g = position(hands=["9H KS QS"], table=[(1, "9C 9D 9S")], down=(0,))
    assert rule_of(g, "lay 9H 1") == "ok"
    g = position(hands=["9H KS"], table=[(1, "9C 9D 9S")], down=(0,))
    unchanged(g, "lay 9H 1", "last-card-stranded")


def test_seed_002_no_going_out_on_a_turn_the_discard_was_taken():
    g = position(hands=["9H 9S"], table=[(1, "9C 9D 9D")], down=(0,), took=True)
    unchanged(g, "lay 9H 1", "no-out-after-take")
    g = position(InternationalGame, hands=["9H 9S"], table=[(1, "9C 9D 9D")], down=(0,),
                 took=True)
    assert rule_of(g, "lay 9H 1") == "ok"
    assert g.push(g.parse_move("lay 9S 1")).kind == "hand-over"


def test_going_out_while_going_down():
    g = position(InternationalGame, hands=["7H 7D 7S 9C 9D 9S"])
    assert g.push(g.parse_move("down 7H 7D 7S / 9C 9D 9S")).kind == "hand-over"
    assert g.results[0]["winner"] == 0 and g.active == 0    # the winner starts (004)


def test_seed_004_undo_a_discard_until_the_next_player_draws():
    g = position(InternationalGame, hands=["9H 3D KS"])
    assert rule_of(g, "discard KS") == "ok"
    assert g.pending_actors() == [1, 2, 0] and g.can_undo(0)
    assert rule_of(g, "0 undo") == "ok"
    assert g.active == 0 and g.phase == "play" and C("KS")[0] in g.hands[0]
    assert rule_of(g, "discard 3D") == "ok"
    assert rule_of(g, "draw") == "ok"
    unchanged(g, "0 undo", "no-undo")
    g = position(ContractGame, hands=["9H 3D KS"])
    assert rule_of(g, "discard KS") == "ok"
    unchanged(g, "0 undo", "no-undo")


def test_blocked_hand_and_reshuffle():
    g = position(phase="draw", active=1, discard="4C 5C 6C 7S", stock="")
    assert rule_of(g, "draw") == "ok"
    assert g.reshuffles == 1 and g.discards == C("7S") and len(g.stock) == 2
    g = position(phase="draw", active=1, discard="7S", stock="")
    out = g.push(g.parse_move("draw"))
    assert out.kind == "hand-over" and out.detail["winner"] is None


# --- scoring ----------------------------------------------------------------------------------

def test_card_points_of_both_profiles():
    three, intl = ContractRules.preset("three-decks"), ContractRules.preset("international")
    pts = lambda r, t: [r.card_points(c) for c in C(t)]  # noqa: E731
    assert pts(three, "3C 9D TH JS QC KD AH 2C JK") == [5, 5, 10, 10, 10, 10, 15, 20, 20]
    assert pts(intl, "2C 3C 9D TH KD AH JK") == [5, 5, 5, 10, 10, 15, 20]


def test_lowest_total_after_seven_hands_wins():
    g = InternationalGame.new(3, seed="score")
    play_game(g)
    assert g.is_over and len(g.results) == 7 and g.to_move is None
    assert g.scores() == [sum(r["points"][s] for r in g.results) for s in range(3)]
    assert g.winners == [s for s in range(3) if g.scores()[s] == min(g.scores())]
    unchanged(g, "draw", "game-over")


# --- views, notation, snapshots, records ---------------------------------------------------------

def test_views_hide_other_hands_and_the_stock():
    g = ContractGame.new(3, seed="view")
    v = g.view(1)
    assert v["my_hand"] == [str(c) for c in g.rack(1)]
    text = repr(g.view(None)) + repr(v)
    assert "my_hand" not in g.view(None) and "stock" not in v and "hands" not in v
    assert v["hand_counts"] == [11, 11, 11] and v["stock_count"] == len(g.stock)
    for seat in (0, 2):   # no other hand, in any order of its cards
        assert repr([str(c) for c in g.rack(seat)]) not in text
    assert repr([TEXT[c] for c in reversed(g.stock)][:5])[1:-1] not in text
    with pytest.raises(IllegalMoveError):
        g.view(5)


@pytest.mark.parametrize("text", [
    "draw", "take", "allow", "refuse", "buy", "undo", "2 buy", "0 undo", "discard TS",
    "down 7H 7D JK / 3C 4C 5C 6C", "lay JK 3+", "lay 9H 1", "lay AH 2-", "swap 6H 1 2",
    "swap 6H 1 2+", "1 discard 2C"])
def test_move_notation_round_trips(text):
    assert str(Move.parse(text)) == text


@pytest.mark.parametrize("bad", ["", "fly", "discard", "discard XX", "lay 9H", "lay 9H 0",
                                 "lay 9H a", "down 7H / / 8H", "swap 6H 1+ 2", "draw 7H", "2"])
def test_bad_move_notation(bad):
    with pytest.raises(NotationError):
        Move.parse(bad)


def test_not_your_turn_and_draw_first():
    g = ContractGame.new(3, seed="turns")
    unchanged(g, "1 draw", "not-your-turn")
    unchanged(g, "discard " + str(g.rack(0)[0]), "draw-first")
    assert rule_of(g, "draw") == "ok"
    unchanged(g, "draw", "already-drew")


def test_snapshot_round_trip_mid_game():
    g = InternationalGame.new(4, seed="snap")
    for _ in range(30):
        if g.phase == "draw":
            g.push(g.parse_move("draw"))
        else:
            g.push(Move("discard", None, card=g.hands[g.active][0]))
    h = InternationalGame.from_snapshot(g.snapshot())
    assert h.snapshot() == g.snapshot()
    with pytest.raises(RecordError):
        ContractGame.from_snapshot({"variant": "contract"})


def test_record_replays_and_an_illegal_record_is_refused():
    g = ContractGame.new(3, seed="record")
    play_game(g)
    text = g.record(seats=["Ann", "Bob", "Cy"])
    assert '[Variant "contract"]' in text and "; Ann" in text
    assert replay_record(text).scores() == g.scores()
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("3. "))
    lines[i] = "3. 1 discard JK"
    with pytest.raises(IllegalMoveError) as err:
        replay_record("\n".join(lines))
    assert err.value.turn == 3 and err.value.rule in ("draw-first", "not-your-turn")


def test_a_typed_in_deal_plays_like_a_seeded_one():
    seeded = ContractGame.new(3, seed="typed")
    deal = {}
    probe = ContractGame.new(3, seed="typed")
    for h in range(7):
        probe.hand_no = h
        probe._start_hand()
        deal[f"hand{h + 1}"] = [[str(c) for c in probe.rack(s)] for s in range(3)]
        deal[f"upcard{h + 1}"] = [TEXT[probe.discards[-1]]]
        deal[f"stock{h + 1}"] = [TEXT[c] for c in reversed(probe.stock)]
    typed = ContractGame.new(3, deal=deal)
    assert sorted(typed.hands[0]) == sorted(seeded.hands[0])
    assert typed.stock == seeded.stock and typed.discards == seeded.discards
    bad = dict(deal, stock1=deal["stock1"][1:])
    with pytest.raises(DealError, match="hand 1"):
        ContractGame.new(3, deal=bad)
    with pytest.raises(DealError, match="all 7"):
        ContractGame.new(3, deal={k: v for k, v in deal.items() if not k.endswith("7")})
    text_rec = typed.record()
    assert '[Deal "hand1.0 ' in text_rec
    assert replay_record(text_rec).snapshot()["hands"] == typed.snapshot()["hands"]


def test_python_m_engine_replay_exit_codes(tmp_path, capsys):
    from engine.__main__ import main

    g = InternationalGame.new(2, seed="cli")
    play_game(g)
    good = tmp_path / "good.rec"
    good.write_text(g.record(seats=["Ann", "Bob"]))
    assert main(["replay", str(good)]) == 0
    assert "scores" in capsys.readouterr().out
    lines = good.read_text().splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("2. "))
    lines[i] = "2. 1 discard JK"     # seat 1 is not on turn
    bad = tmp_path / "bad.rec"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(bad)]) == 1     # a rule broken: the verdict
    err = capsys.readouterr().err
    assert "turn 2" in err and "not-your-turn" in err


# --- fuzzing ---------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

WORDS = st.sampled_from(["draw", "take", "allow", "refuse", "buy", "undo", "discard",
                         "down", "lay", "swap", "/", "1", "2", "3+", "0-", "7H", "JK",
                         "2C", "AS", "TD", "x", ""])


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=8), st.booleans())
def test_any_text_is_parsed_or_refused_cleanly(words, intl):
    g = (InternationalGame if intl else ContractGame).new(3, seed="fuzz")
    g.push(g.parse_move("draw") if not intl else g.parse_move("buy"))
    text = " ".join(words)
    before = g.snapshot()
    try:
        move = g.parse_move(text)
    except NotationError:
        return
    assert str(Move.parse(str(move))) == str(move)
    try:
        g.push(move)
    except IllegalMoveError as exc:
        assert exc.rule and g.snapshot() == before
