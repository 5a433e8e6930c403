"""The contract rummy family's description (:class:`engine.family.Family`):
a round is one game of seven hands; the sheet is the cards each seat had
left in every hand; fewer points are better; the engine's judge answers
``winning_hand``; the board is cards, with each meld's owner."""

from __future__ import annotations

from typing import Any

from ..errors import EngineError
from ..family import Board, DisputeRefused, Drawing, Family, Sheet, SheetError, card_chip
from ..registry import register_family

RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}


def meld_chips(meld: dict[str, Any]) -> list[dict[str, str]]:
    """A meld of the view (``{"kind", "cards", "suit"/"start" or "rank"}``)
    as a row of cards, each joker marked with the card it stands for."""
    from ..family import SUITS

    chips = []
    for i, code in enumerate(meld.get("cards", [])):
        stands = ""
        if code == "JK":
            if meld.get("kind") == "run" and meld.get("start") is not None:
                symbol = SUITS.get(meld.get("suit", ""), (meld.get("suit", ""), ""))[0]
                rank = meld["start"] + i
                stands = RANK_TEXT.get(rank, str(rank)) + symbol
            elif meld.get("rank") is not None:
                stands = RANK_TEXT.get(meld["rank"], str(meld["rank"]))
        chips.append(card_chip(code, stands))
    return chips


class ContractFamily(Family):
    name = "contract"
    title = "Contract rummy"
    variant_titles = {"contract": "Contract rummy", "international": "Contract rummy, International edition"}
    ai_level_titles = {"random": "Beginner (random legal moves)", "basic": "Basic (goes down when it can)",
                       "strong": "Strong (holds what the contract needs)",
                       "expert": "Expert (buys and discards with the others in mind)"}
    order = 10
    round_games = "one"
    fewer_is_better = True
    # league scores are minus the game's points, so "penalty" (points lost,
    # fewer is better) is the game's points: games won, fewest points, h2h
    precedence = ("wins", "penalty", "h2h")
    default_ai_level = "strong"
    dispute_kinds = ("winning_hand",)
    sheet = Sheet(kind="hands", pieces="cards", lines=7, keys=("hands",))
    board = Board(pieces="cards", pool="stock", holder="hand", script="contract",
                  script_global="tablekeeperContract", facts="games/board/contract_facts.html",
                  notation="games/board/contract_notation.html", move_hint="draw")
    pages = {"round_legend": "league/family/contract_round_legend.html",
             "tournament_legend": "league/family/contract_tournament_legend.html",
             "points_legend": "league/family/contract_points_legend.html"}

    def sheet_lines(self) -> list[dict[str, Any]]:
        """The sheet's lines: each hand's number and contract."""
        from .rules import HANDS, contract_text

        return [{"number": h + 1, "label": contract_text(h)} for h in range(HANDS)]

    def read_sheet(self, sheet: dict[str, Any], *, seats: int, variant: str,
                   rules: dict | None = None, first: int = 0) -> dict[str, Any]:
        """Seven lines (one per hand), each with the cards every seat had
        left, in seat order (``"KD 7H JK"``; empty: went out), scored by
        :func:`engine.contract.score_hands`. The league's scores are the
        points negated; the points are kept (``raw_scores``).

        :raises SheetError: racks or game lines, not seven hands, a hand
            without one entry per seat, a token that is not a card (named
            with its hand and seat), two players out in one hand, more
            copies of a card than the pack holds, rule options refused.
        """
        from ..cards import cards_text, parse_cards, sort_key
        from .rules import HANDS, contract_text
        from .scoring import score_hands

        hands = sheet.get("hands")
        if hands is None:
            raise SheetError("racks given, but only Rummikub score sheets take Rummikub "
                             "racks; a contract rummy sheet gives the cards each seat had left "
                             "in every hand (seven lines of one entry per seat)")
        self._only(sheet, "the hands only")
        _, ruleset = self.ruleset(variant, rules)
        if isinstance(hands, str) or len(hands) != HANDS:
            got = "text" if isinstance(hands, str) else f"{len(hands)} hands"
            raise SheetError(f"a contract game is {HANDS} hands: give one line per hand "
                             f"({HANDS}), got {got}")
        parsed = []
        for h, line in enumerate(hands, 1):
            if isinstance(line, str) or len(line) != seats:
                got = "one text" if isinstance(line, str) else f"{len(line)} entries"
                raise SheetError(f"hand {h} ({contract_text(h - 1)}): expected {seats} entries "
                                 f"(one per seat), got {got}")
            row = []
            for s, text in enumerate(line):
                try:
                    row.append(sorted(parse_cards(text or ""), key=sort_key))
                except EngineError as exc:
                    raise SheetError(f"hand {h}, seat {s + 1}: {exc}", seat=s + 1,
                                     token=getattr(exc, "token", None)) from None
            out = [s + 1 for s, cards in enumerate(row) if not cards]
            if len(out) > 1:
                raise SheetError(f"hand {h}: seats {', '.join(map(str, out))} all have no cards "
                                 "left: only one player goes out in a hand")
            parsed.append(row)
        try:
            points = score_hands(parsed, ruleset, players=seats)
        except EngineError as exc:
            raise SheetError(str(exc)) from None
        totals = [sum(p[s] for p in points) for s in range(seats)]
        return {"source": "score_sheet", "hands": [[cards_text(c) for c in row] for row in parsed],
                "points": points, "raw_scores": totals, "scores": [-t for t in totals],
                "winners": [s for s, t in enumerate(totals) if t == min(totals)]}

    def judge(self, kind, before, after, payload, *, claimed_table=None):
        """``winning_hand``, by :func:`engine.contract.judge_going_out` on the
        state before the move (the state after it has moved to the next hand)."""
        from .judge import judge_going_out

        try:
            found = judge_going_out(before, before.parse_move(payload["move"]))
        except EngineError:
            raise
        except ValueError as exc:  # not a going-out
            raise DisputeRefused(f"a winning_hand dispute is about a move that went out: {exc}") from None
        evidence = {k: v for k, v in found.items() if k != "valid"}
        seat, hand = found["seat"], f"hand {found['hand']} ({found['contract']})"
        if found["valid"]:
            kinds = "; ".join(f"meld {m['meld']}, a {m['kind']}: {' '.join(m['cards'])}" for m in found["melds"])
            return {"upheld": False, "verdict": "winning_hand_valid", "evidence": evidence,
                    "summary": f"seat {seat} went out of {hand} with a winning hand ({found['move']}): {kinds}"}
        return {"upheld": True, "verdict": "winning_hand_not_valid", "evidence": evidence,
                "summary": f"seat {seat} did not go out of {hand} with a winning hand: "
                           f"{found['reason']} ({found['rule']})"}

    def check_dispute(self, kind, before, payload, move_version):
        """Refuse a winning_hand dispute on a move that did not go out."""
        from .judge import claims_going_out

        if not claims_going_out(before, before.parse_move(payload["move"])):
            mover = payload.get("seat", before.to_move)
            raise DisputeRefused(f"move {move_version} ({payload['move']}) did not go out: it did not empty "
                                 f"seat {mover}'s hand of {len(before.rack(mover))} cards; a winning_hand "
                                 f"dispute is opened on the move that emptied a hand", "not-going-out")

    def describe_move(self, move: str) -> dict[str, Any]:
        """"went down: A♣ A♣ A♣ A♥ / 4♦ 4♥ 🃏", "discarded 7♣", "laid off
        9♥", "took the discard", "asked to buy the discard"; the seat the
        record writes first is left out."""
        from .moves import Move

        try:
            parsed = Move.parse(move)
        except EngineError:
            return self._said("other", text=move)
        words = parsed.body().split()
        simple = {"draw": "drew", "take": "took_pile", "allow": "allowed", "refuse": "refused", "buy": "buy",
                  "undo": "undid"}
        if parsed.action in simple:
            return self._said(simple[parsed.action], text=parsed.body())
        if parsed.action == "down":
            return self._said("went_down", melds=[[card_chip(c) for c in meld.split()]
                                                  for meld in " ".join(words[1:]).split(" / ")],
                              text=parsed.body())
        key = {"discard": "discarded", "lay": "laid_off", "swap": "swapped"}[parsed.action]
        return self._said(key, pieces=[card_chip(words[1])], text=parsed.body())

    def draw(self, view: dict[str, Any]) -> Drawing:
        table = view.get("table", [])
        discard = view.get("discard_top")
        return Drawing(melds=[meld_chips(m) for m in table], chip=card_chip,
                       owners=[m.get("owner") for m in table],
                       counts=view.get("hand_counts", []), pool=view.get("stock_count"),
                       flags=view.get("down", []), flag_text="down",
                       facts={"hand": view.get("hand"), "hand_contract": view.get("contract"),
                              "discard": card_chip(discard) if discard else None,
                              "discard_count": view.get("discard_count")})


FAMILY = register_family(ContractFamily())
