"""Contract rummy's rule options described for people
(:mod:`engine.options`); the readings are in ``docs/rules/contract.md``."""

from __future__ import annotations

from ..options import boolean, choice, number

OPTIONS = (
    choice("profile", "The rules the other options start from.",
           ("three-decks", "seed 002: three decks, twos and jokers wild, buying with consent"),
           ("international", "seed 004: decks by player count, jokers wild, the \"players\" rule, undo")),
    number("decks", "52-card decks in the pack (0: by player count, 3 up to 3 players, 4 up to 6, 5 more).", 0, 8),
    number("jokers_per_deck", "Jokers added per deck.", 0, 4),
    number("min_players", "Fewest players these rules take.", 2, 8),
    number("max_players", "Most players these rules take.", 2, 8),
    number("hand_size", "Cards dealt to each player.", 1, 15),
    boolean("twos_wild", "Twos are wild cards, as jokers are."),
    choice("aces", "Where aces stand in runs.", ("high", "high only (Q-K-A)"),
           ("low-or-high", "low or high, never wrapping (A-2-3 or Q-K-A)")),
    choice("wild_ratio", "When a meld must hold at least as many natural cards as wild ones.",
           ("always", "always, laying off included"), ("going-down", "when going down only")),
    boolean("run_suits_distinct", "The runs of one contract must each be in a different suit."),
    boolean("exact_melds", "Going down lays exactly the contract's melds, no more."),
    choice("buy_priority", "Who gets the discard when several players ask to buy it.",
           ("first-asked", "the first to ask"), ("next-in-turn", "the one next in turn")),
    boolean("buy_consent", "The player on turn allows a buy, or takes the card himself instead."),
    number("buy_limit", "Buys per player per hand.", 0, 20),
    number("buy_extra", "Cards from the stock a buyer takes with the discard (the penalty).", 0, 10),
    boolean("own_turn_buy", "The player on turn may buy the discard instead of drawing."),
    number("own_turn_extra", "Cards from the stock when buying on one's own turn.", 0, 10),
    boolean("first_upcard_buy_only", "The hand's first upcard can only be bought, never simply taken."),
    boolean("buy_beneath", "Once a discard is taken, the card beneath it may be bought too."),
    boolean("players_rule", "A card that plays on a meld on the table (a \"player\") may not be discarded."),
    boolean("undo_discard", "A discard may be taken back until the next player draws."),
    boolean("no_out_after_take", "No going out on a turn the discard was taken."),
    choice("next_first", "Who starts the next hand.", ("rotate", "the next player in turn"),
           ("winner", "the player who went out")),
    number("stock_runs_out", "How many times the stock may run out in a hand: the last time, the hand ends "
           "with nobody out and every player counts the cards in hand; the times before, the discards "
           "are shuffled into a new stock (0: no limit).", 0, 20),
    number("point_two", "Points a natural two left in hand counts (when twos are not wild).", 0, 500),
    number("point_low", "Points each three to nine left in hand counts.", 0, 500),
    number("point_high", "Points each ten to king left in hand counts.", 0, 500),
    number("point_ace", "Points an ace left in hand counts.", 0, 500),
    number("point_wild", "Points a wild card left in hand counts.", 0, 500),
)
