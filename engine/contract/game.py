"""A game of contract rummy: :class:`ContractGame` (variant ``contract``,
the three-decks profile) and :class:`InternationalGame` (variant
``international``): the state of the seven hands, who may act, ``push``,
each seat's view, snapshots and records. What each move does is in
:mod:`engine.contract.turns`.

A session at the table::

    >>> from engine.registry import find_variant
    >>> Game = find_variant("contract")
    >>> game = Game.new(3, seed="club-night-1")
    >>> game.push(game.parse_move("draw")).kind
    'drew'

Who may act: ``to_move`` is the seat on turn; players not on turn may buy
the top discard or undo their discard while the rules allow it.
:meth:`ContractGame.may_act` and :meth:`ContractGame.pending_actors` say
who may push a move now. Moves by a seat not on turn carry the seat:
``"2 buy"``, ``"0 undo"``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields, replace
from typing import Any, ClassVar

from ..base import Outcome, check_new_args
from ..drawdiscard import DrawDiscardGame
from ..cards import CARDS, TEXT, Card, deck_counter, make_deck, seeded_shuffle, sort_key
from ..errors import DealError, IllegalMoveError, RecordError, RuleOptionError
from ..records import write_game
from ..registry import find_variant, register
from .deals import check_deal, deal_from_json, deal_to_json
from .melds import Meld, MeldRules, meld_from_dict
from .moves import Move
from .options import OPTIONS
from .rules import CONTRACTS, HANDS, ContractRules, contract_text, rules_diff
from .turns import Turns


@register
class ContractGame(Turns, DrawDiscardGame):
    """Seven-hand contract rummy; the default profile is seed 002's."""

    family: ClassVar[str] = "contract"
    Move = Move
    variant: ClassVar[str] = "contract"
    aliases: ClassVar[tuple[str, ...]] = ("contract-rummy", "three-decks", "contract-002")
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 8
    RuleSet: ClassVar[type] = ContractRules
    OPTIONS: ClassVar[tuple] = OPTIONS
    moves_name_seat: ClassVar[bool] = True
    zero_sum: ClassVar[bool] = False
    default_profile: ClassVar[str] = "three-decks"

    # --- construction ---------------------------------------------------------
    @classmethod
    def rules_from_dict(cls, data: dict[str, Any] | None) -> ContractRules:
        """Named options over a profile (``"profile"``, default this
        variant's) .

        :raises RuleOptionError: unknown option or bad value.
        """
        if data is not None and not isinstance(data, dict):
            raise RuleOptionError("rules must be a mapping of option names to values")
        data = dict(data or {})
        base = ContractRules.preset(data.pop("profile", cls.default_profile))
        known = {f.name for f in fields(ContractRules)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleOptionError(f"unknown rule option(s): {', '.join(unknown)}")
        return replace(base, **data)

    @classmethod
    def rules_to_dict(cls, rules: ContractRules) -> dict[str, Any]:
        """Every option by name (JSON-safe)."""
        return asdict(rules)

    @classmethod
    def new(cls, players: int, rules=None, *, seed: str | None = None,
            deal: dict[str, Any] | None = None, first: int = 0) -> "ContractGame":
        """Start a game of seven hands.

        ``deal`` (a game at a real table): ``{"hands": [{"hands": [[cards]...],
        "upcard": card, "stock": [cards, top first]}, ...]}`` with one entry
        per hand played, each the whole pack.

        :raises DealError: bad seed, deal or player count.
        :raises RuleOptionError: bad rules.
        """
        if rules is None:
            rules = ContractRules.preset(cls.default_profile)
        elif isinstance(rules, dict):
            rules = cls.rules_from_dict(rules)
        elif not isinstance(rules, ContractRules):
            raise RuleOptionError(f"rules must be ContractRules or a dict, not {type(rules).__name__}")
        check_new_args(players, seed, deal, first, low=rules.min_players, high=rules.max_players, name=rules.profile)
        pack = deck_counter(rules.decks_for(players), rules.jokers_per_deck)
        if sum(pack.values()) < players * rules.hand_size + 2:
            raise DealError("not enough cards for that many players")
        game = cls.__new__(cls)
        game._init(players, rules, seed, check_deal(deal, players, rules, pack), first)
        return game

    def _init(self, players, rules, seed, deal, first):
        self.n = players
        self.rules = rules
        self._r = MeldRules(rules)
        self.seed = seed
        self.deal = deal
        self.first = first
        self.hand_no = 0
        self.hand_first = first
        self.totals = [0] * players
        self.results: list[dict[str, Any]] = []
        self.move_stack: list[str] = []
        self.over = False
        self._start_hand()

    # --- hands ------------------------------------------------------------------
    def _start_hand(self) -> None:
        n, rules = self.n, self.rules
        if self.deal is not None:
            d = self.deal["hands"][self.hand_no]
            hands = [list(h) for h in d["hands"]]
            upcard = d["upcard"]
            stock = list(reversed(d["stock"]))
        else:
            pack = seeded_shuffle(make_deck(rules.decks_for(n), rules.jokers_per_deck),
                                  f"{self.seed}/hand-{self.hand_no + 1}")
            pack = [int(c) for c in pack]
            k = rules.hand_size * n
            hands = [[] for _ in range(n)]
            for j in range(k):
                hands[(self.hand_first + j) % n].append(pack[j])
            upcard = pack[k]
            stock = list(reversed(pack[k + 1:]))
        self.hands: list[list[int]] = hands
        self.stock: list[int] = stock          # top is the last element
        self.discards: list[int] = [upcard]    # top is the last element
        self.dead: list[bool] = [False]
        self.table: list[Meld] = []
        self.down = [False] * n
        self.buys = [0] * n
        self.picked: list[list[int]] = [[] for _ in range(n)]  # discards taken (public)
        self.active = self.hand_first
        self.phase = "draw"
        self.took = False
        self.window = True
        self.window_ref = (self.hand_first - 1) % n  # the dealer turned the upcard
        self.window_discarder: int | None = None
        self.upcard = True
        self.requests: list[int] = []
        self.beneath = False
        self.beneath_used = False
        self.undo_info: dict[str, Any] | None = None
        self.reshuffles = 0
        self.turn = 1

    def _end_hand(self, winner: int | None) -> Outcome:
        pts = [sum(self.rules.card_points(c) for c in h) for h in self.hands]
        self.results.append({
            "hand": self.hand_no + 1, "contract": contract_text(self.hand_no),
            "winner": winner, "points": pts,
            "cards": [[TEXT[c] for c in sorted(h, key=sort_key)] for h in self.hands],
            "table": [m.to_dict() for m in self.table]})
        for i, p in enumerate(pts):
            self.totals[i] += p
        detail = {"hand": self.hand_no + 1, "winner": winner, "points": pts}
        if self.hand_no == HANDS - 1:
            self.over = True
            return Outcome("game-over", winner, detail, True)
        self.hand_no += 1
        if self.rules.next_first == "winner" and winner is not None:
            self.hand_first = winner
        else:
            self.hand_first = (self.hand_first + 1) % self.n
        self._start_hand()
        return Outcome("hand-over", winner, detail, False)

    def _pop_stock(self) -> int | None:
        if not self.stock:
            if len(self.discards) < 2 or not self.rules.reshuffle_allowed(self.reshuffles):
                return None
            pile = self.discards[:-1]
            self.discards = self.discards[-1:]
            self.dead = self.dead[-1:]
            self.reshuffles += 1
            seed = self.seed if self.seed is not None else "typed-deal"
            self.stock = [int(c) for c in seeded_shuffle(
                pile, f"{seed}/hand-{self.hand_no + 1}/reshuffle-{self.reshuffles}")]
        return self.stock.pop()

    # --- who may act ------------------------------------------------------------------
    def scores(self) -> list[int] | None:
        """Total points per seat after seven hands (fewer is better)."""
        return list(self.totals) if self.over else None

    @property
    def winners(self) -> list[int]:
        """The seats with the lowest total once the game is over, else ``[]``."""
        if not self.over:
            return []
        low = min(self.totals)
        return [i for i, t in enumerate(self.totals) if t == low]

    @property
    def end_reason(self) -> str | None:
        return "seven hands played" if self.over else None

    def rack(self, seat: int) -> list[Card]:
        """The cards in ``seat``'s hand (server side; views hide them)."""
        return [CARDS[c] for c in sorted(self.hands[seat], key=sort_key)]

    @property
    def move_seats(self) -> list[int]:
        """The seat that pushed each move of :attr:`move_stack`."""
        return [int(m.split(" ", 1)[0]) for m in self.move_stack]

    def setup_tags(self) -> dict[str, Any]:
        """What :mod:`engine.records` writes in a record's header."""
        out: dict[str, Any] = {"players": self.n, "first": self.first,
                               "rules": rules_diff(self.rules)}
        if self.seed is not None:
            out["seed"] = self.seed
        else:
            out["deal"] = deal_to_json(self.deal)
        return out

    def _top_buyable(self) -> bool:
        return bool(self.discards) and not self.dead[-1]

    def can_buy(self, seat: int) -> bool:
        """Whether ``seat`` may push ``buy`` now."""
        if self.over or not self._top_buyable() or self.buys[seat] >= self.rules.buy_limit:
            return False
        if seat == self.active:
            if self.phase == "draw":
                return self.rules.own_turn_buy and not self.requests_pending_consent()
            return self._must_buy_exception()
        if self.beneath:
            return True
        if not self.window or self.phase != "draw":
            return False
        if seat == self.window_discarder or seat in self.requests:
            return False
        if self.rules.buy_consent and self.requests:
            return False
        return True

    def requests_pending_consent(self) -> bool:
        return self.rules.buy_consent and bool(self.requests)

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back its discard now."""
        return (not self.over and self.undo_info is not None
                and self.undo_info["seat"] == seat)

    def may_act(self, seat: int) -> bool:
        """Whether ``seat`` may push some move now (the player on turn, a
        buyer inside the buy window, a player who may undo a discard)."""
        if self.over:
            return False
        return seat == self.active or self.can_buy(seat) or self.can_undo(seat)

    def pending_actors(self) -> list[int]:
        """Every seat that may push a move now, the player on turn first."""
        if self.over:
            return []
        out = [self.active]
        for k in range(1, self.n):
            s = (self.active + k) % self.n
            if self.may_act(s):
                out.append(s)
        return out

    # --- moves (parse_move: engine.drawdiscard) -----------------------------------
    def push(self, move: Move | str) -> Outcome:
        """Check and apply ``move`` (a :class:`Move` or its text).

        :raises IllegalMoveError: the rules forbid it; the state is unchanged.
        :raises NotationError: text that does not parse.
        """
        move = self._accept(move)
        a = move.action
        seat = move.seat
        if seat is not None and not 0 <= seat < self.n:
            raise IllegalMoveError(f"no seat {seat} at a table of {self.n}", "no-such-seat")
        if a == "buy":
            actor = self.active if seat is None else seat
            out = self._buy(actor)
        elif a == "undo":
            actor = seat if seat is not None else (
                self.undo_info["seat"] if self.undo_info else self.active)
            out = self._undo(actor)
        else:
            actor = self.active if seat is None else seat
            if actor != self.active:
                raise IllegalMoveError(
                    f"seat {actor} is not on turn (seat {self.active} is)", "not-your-turn")
            handler = getattr(self, "_" + a)  # in turns.py
            out = handler(move) if a in ("discard", "down", "lay", "swap") else handler()
        self.move_stack.append(f"{actor} {move.body()}")
        return out


    # --- views and persistence ----------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public view). Other hands are
        shown only as counts, the stock only as a count, until the game is
        over; finished hands' cards are public (they were shown for scoring).

        :raises IllegalMoveError: no such seat.
        """
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.n):
            raise IllegalMoveError(f"no seat {seat!r}", "no-such-seat")
        v: dict[str, Any] = {
            "family": self.family, "variant": self.variant, "profile": self.rules.profile,
            "players": self.n, "hand": self.hand_no + 1,
            "contract": contract_text(self.hand_no),
            "contract_melds": {"sets": CONTRACTS[self.hand_no][0], "runs": CONTRACTS[self.hand_no][1],
                               "exact": self.rules.exact_melds},
            "twos_wild": self.rules.twos_wild, "buy_consent": self.rules.buy_consent,
            "to_move": self.to_move, "phase": self.phase,
            "pending_actors": self.pending_actors(),
            "hand_counts": [len(h) for h in self.hands],
            "stock_count": len(self.stock),
            "reshuffles": self.reshuffles, "stock_runs_out": self.rules.stock_runs_out,
            "discard_top": TEXT[self.discards[-1]] if self.discards else None,
            "discard_top_dead": bool(self.discards) and self.dead[-1],
            "discard_count": len(self.discards),
            "table": [m.to_dict() for m in self.table],
            "down": list(self.down), "buys": list(self.buys),
            "picked_up": [[TEXT[c] for c in p] for p in self.picked],
            "buy_requests": list(self.requests),
            "buy_window": self.window and self.phase == "draw",
            "beneath_window": self.beneath,
            "totals": list(self.totals), "results": [dict(r) for r in self.results],
            "turn": self.turn, "pool_count": len(self.stock),
            "is_over": self.over, "scores": self.scores(),
        }
        if seat is not None:
            v["seat"] = seat
            v["my_hand"] = [TEXT[c] for c in sorted(self.hands[seat], key=sort_key)]
            v["may_act"] = self.may_act(seat)
            v["can_buy"] = self.can_buy(seat)
            v["can_undo"] = self.can_undo(seat)
        return v

    def snapshot(self) -> dict[str, Any]:
        """The whole state, JSON-safe (server side: it holds the stock)."""
        t = lambda cs: [TEXT[c] for c in cs]  # noqa: E731
        return {
            "family": self.family, "variant": self.variant,
            "rules": self.rules_to_dict(self.rules), "players": self.n,
            "seed": self.seed, "deal": deal_to_json(self.deal), "first": self.first,
            "hand_no": self.hand_no, "hand_first": self.hand_first,
            "totals": list(self.totals), "results": json.loads(json.dumps(self.results)),
            "move_stack": list(self.move_stack), "over": self.over,
            "hands": [t(h) for h in self.hands], "stock": t(self.stock),
            "discards": t(self.discards), "dead": list(self.dead),
            "table": [m.to_dict() for m in self.table],
            "down": list(self.down), "buys": list(self.buys), "active": self.active,
            "picked": [t(p) for p in self.picked],
            "phase": self.phase, "took": self.took, "window": self.window,
            "window_ref": self.window_ref, "window_discarder": self.window_discarder,
            "upcard": self.upcard, "requests": list(self.requests),
            "beneath": self.beneath, "beneath_used": self.beneath_used,
            "undo_info": dict(self.undo_info) if self.undo_info else None,
            "reshuffles": self.reshuffles, "turn": self.turn,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> "ContractGame":
        """Rebuild a game from :meth:`snapshot`.

        :raises RecordError: a malformed snapshot.
        """
        try:
            variant_cls = cls
            if data.get("variant") and data["variant"] != cls.variant:
                variant_cls = find_variant(data["variant"])
            rules = ContractRules(**data["rules"])
            g = variant_cls.__new__(variant_cls)
            g.n, g.rules, g._r = data["players"], rules, MeldRules(rules)
            g.seed, g.first = data["seed"], data["first"]
            g.deal = deal_from_json(data["deal"])
            g.hand_no, g.hand_first = data["hand_no"], data["hand_first"]
            g.totals, g.results = list(data["totals"]), json.loads(json.dumps(data["results"]))
            g.move_stack, g.over = list(data["move_stack"]), data["over"]
            p = lambda cs: [int(Card.parse(c)) for c in cs]  # noqa: E731
            g.hands = [p(h) for h in data["hands"]]
            g.stock, g.discards = p(data["stock"]), p(data["discards"])
            g.dead = list(data["dead"])
            g.picked = [p(x) for x in data["picked"]]
            g.table = [meld_from_dict(m, g._r) for m in data["table"]]
            for name in ("down", "buys", "requests"):
                setattr(g, name, list(data[name]))
            for name in ("active", "phase", "took", "window", "window_ref",
                         "window_discarder", "upcard", "beneath", "beneath_used",
                         "reshuffles", "turn"):
                setattr(g, name, data[name])
            g.undo_info = dict(data["undo_info"]) if data["undo_info"] else None
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"not a contract snapshot: {exc}") from exc
        return g

    def describe(self) -> str:
        """A text summary for people: finished hands, the table and hands in
        play (server side), totals and winners."""
        lines = [f"{self.variant} ({self.rules.profile}), {self.n} players"]
        for r in self.results:
            who = "nobody (blocked)" if r["winner"] is None else f"seat {r['winner']}"
            lines.append(f"hand {r['hand']} ({r['contract']}): out {who}; points "
                         + " ".join(str(p) for p in r["points"]))
        if not self.over:
            lines.append(f"hand {self.hand_no + 1} ({contract_text(self.hand_no)}) in play, "
                         f"seat {self.active} to move")
            for i, m in enumerate(self.table, 1):
                lines.append(f"  meld {i} (seat {m.owner}, {m.kind}): {m.text()}")
            for s, h in enumerate(self.hands):
                lines.append(f"  seat {s}: " + " ".join(TEXT[c] for c in sorted(h, key=sort_key)))
        lines.append("totals: " + " ".join(str(t) for t in self.totals))
        if self.over:
            lines.append("winner: " + ", ".join(f"seat {s}" for s in self.winners))
        return "\n".join(lines)

    # --- records ------------------------------------------------------------------
    def record(self, seats: list[str] | None = None, tags: dict[str, str] | None = None) -> str:
        """The game record in the shared format (:mod:`engine.records`)."""
        return write_game(self, seats, tags)


@register
class InternationalGame(ContractGame):
    """Seed 004's "International": the same engine with its profile."""

    variant: ClassVar[str] = "international"
    aliases: ClassVar[tuple[str, ...]] = ("contract-international", "contract-004")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    default_profile: ClassVar[str] = "international"
