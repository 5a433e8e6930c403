"""Tally's description: what the league and the pages ask of the family
(:class:`engine.family.Family`)."""

from __future__ import annotations

from typing import Any

from engine.family import Board, Drawing, Family, Sheet, SheetError
from engine.registry import register_family

from .game import score_racks


def chip(code) -> dict[str, str]:
    """A tile as the board draws it."""
    return {"css": "tile black", "label": str(code), "stands": "", "code": str(code)}


class TallyFamily(Family):
    name = "tally"
    title = "Tally"
    order = 90
    round_games = "per-seat"          # one game per seat, the first seat rotating
    default_ai_level = "first"
    sheet = Sheet(kind="racks", pieces="tiles", keys=("racks",))
    board = Board(pieces="tiles", pool="pool", holder="rack", move_hint="draw  or  play 7")

    def read_sheet(self, sheet: dict[str, Any], *, seats: int, variant: str,
                   rules: dict | None = None, first: int = 0) -> dict[str, Any]:
        """The tiles left on each rack (``"3 7"``; empty: went out), scored
        as the game scores them.

        :raises SheetError: parts of another sheet, the wrong number of
            racks, a token that is no tile, a third copy, two empty racks.
        """
        self._only(sheet, "the racks")
        self.ruleset(variant, rules)
        racks = sheet.get("racks") or ()
        if len(racks) != seats:
            raise SheetError(f"expected {seats} racks (one per seat), got {len(racks)}")
        parsed = []
        for i, text in enumerate(racks):
            words = (text or "").replace(",", " ").split()
            if any(not w.isdigit() or not 1 <= int(w) <= 12 for w in words):
                raise SheetError(f"seat {i + 1}: tiles are 1 to 12, not {text!r}")
            parsed.append(sorted(int(w) for w in words))
        every = [t for r in parsed for t in r]
        if any(every.count(t) > 2 for t in every):
            raise SheetError("the set has two of each tile")
        if sum(1 for r in parsed if not r) > 1:
            raise SheetError("only one player can go out")
        scores, winner = score_racks(parsed)
        return {"source": "score_sheet", "racks": [" ".join(map(str, r)) for r in parsed],
                "scores": scores, "winners": [winner]}

    def draw(self, view: dict[str, Any]) -> Drawing:
        return Drawing(melds=[[chip(t) for t in view.get("table", [])]] if view.get("table") else [],
                       chip=chip, counts=view.get("rack_counts", []), pool=view.get("pool_count"))


FAMILY = register_family(TallyFamily())
