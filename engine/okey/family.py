"""The Okey family's description (:class:`engine.family.Family`): a round
is one match per table of four, played down from the starting points; the
sheet is one line per game of the match; the hand checker judges
``winning_hand``; the board is tiles, each seat's discard pile beside it."""

from __future__ import annotations

from typing import Any

from ..errors import EngineError
from ..family import Board, DisputeRefused, Drawing, Family, Sheet, SheetError, tile_chip
from ..registry import register_family


def okey_chip(code: str) -> dict[str, str]:
    """An Okey tile (``R7``, ``F`` a false joker) as a chip."""
    if code.strip() == "F":
        return {"css": "tile joker false", "label": "\u2605", "stands": "false joker", "code": "F"}
    return tile_chip(code)


class OkeyFamily(Family):
    name = "okey"
    title = "Okey"
    variant_titles = {"okey": "Okey"}
    order = 20
    round_games = "one"
    default_ai_level = "greedy"
    dispute_kinds = ("winning_hand",)
    # the entry form offers 20 lines; paper prints 12 (as many as a match
    # from the usual points takes)
    sheet = Sheet(kind="lines", pieces="tiles", lines=20, printed=12, keys=("games",))
    board = Board(pieces="tiles", pool="middle", holder="rack", script="okey", script_global="tablekeeperOkey",
                  facts="games/board/okey_facts.html", notation="games/board/okey_notation.html",
                  move_hint="draw")

    def sheet_start(self, variant: str, rules: dict | None) -> int:
        """The points each player starts the match with (printed on the sheet)."""
        return self.ruleset(variant, rules)[1].start_points

    def read_sheet(self, sheet: dict[str, Any], *, seats: int, variant: str,
                   rules: dict | None = None, first: int = 0) -> dict[str, Any]:
        """A match from its sheet: one line per game (the winner, how, the
        okey thrown, With Color, the Compare Stone), scored by
        :func:`engine.okey.score_match`; the league's scores are the points
        each player keeps.

        :raises SheetError: racks or hands, or a line or match that cannot
            be right (:func:`engine.okey.score_match`), named.
        """
        from .scoring import score_match

        games = sheet.get("games")
        if games is None or any(sheet.get(k) not in (None, (), [], "") for k in sheet if k != "games"):
            raise SheetError("an Okey sheet gives each game of the match (who won, how, whether an okey "
                             "was thrown, With Color, the Compare Stone), not racks or hands")
        _, ruleset = self.ruleset(variant, rules)
        try:
            read = score_match(list(games), seats, ruleset)
        except EngineError as exc:
            raise SheetError(str(exc)) from None
        return {"source": "score_sheet", "games": read.games, "scores": read.points, "winners": read.winners}

    def judge(self, kind, before, after, payload, *, claimed_table=None):
        """``winning_hand``, by :func:`engine.okey.judge_finish`: the 14 tiles
        the finisher kept, through the hand checker ``okey-hand`` answers with."""
        from .judge import judge_finish

        found = judge_finish(before, before.parse_move(payload["move"]))
        evidence = {k: v for k, v in found.items() if k != "valid"}
        seat, game_no = found["seat"], found["game"]
        if found["valid"]:
            melds = "; ".join(" ".join(m) for m in found["melds"])
            return {"upheld": False, "verdict": "winning_hand_valid", "evidence": evidence,
                    "summary": f"seat {seat} finished game {game_no} with a winning hand "
                               f"({found['kind']}, okey {found['okey']}): {melds}"}
        return {"upheld": True, "verdict": "winning_hand_not_valid", "evidence": evidence,
                "summary": f"seat {seat} did not finish game {game_no} with a winning hand: "
                           f"the 14 tiles {' '.join(found['tiles'])} are not all in sets and runs"}

    def check_dispute(self, kind, before, payload, move_version):
        """Refuse a winning_hand dispute on a move that did not finish."""
        if not payload["move"].split()[:1] == ["finish"]:
            raise DisputeRefused(f"move {move_version} ({payload['move']}) did not finish a game; a "
                                 "winning_hand dispute is opened on the finish move", "not-going-out")

    def draw(self, view: dict[str, Any]) -> Drawing:
        # no melds on the table during play: the winner's, once shown
        last = (view.get("results") or [None])[-1] if view.get("is_over") else None
        piles = view.get("piles")
        return Drawing(melds=[[okey_chip(t) for t in m] for m in (last or {}).get("melds", [])],
                       chip=okey_chip, counts=view.get("rack_counts", []), pool=view.get("middle_count"),
                       piles=[[okey_chip(t) for t in p] for p in piles] if piles is not None else None,
                       facts={"game": view.get("game"), "wild": view.get("okey"),
                              "indicator": okey_chip(view["indicator"]) if view.get("indicator") else None})


FAMILY = register_family(OkeyFamily())
