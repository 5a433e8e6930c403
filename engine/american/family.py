"""The American and International Rummikub family's description
(:class:`engine.family.Family`): a round is one game per seat; the sheet is
the racks, and for International how the game was won; the board is tiles
with each meld's owner, each seat's latest discard and the trump."""

from __future__ import annotations

from typing import Any

from ..family import Board, Drawing, Family, Sheet, SheetError, tile_chip, tile_meld
from ..registry import register_family


class AmericanFamily(Family):
    name = "american"
    title = "American Rummikub"
    variant_titles = {"american": "American Rummikub", "international-rummikub": "International Rummikub"}
    order = 30
    round_games = "per-seat"
    default_ai_level = "greedy"
    sheet = Sheet(kind="racks", pieces="tiles", keys=("racks", "won"))
    board = Board(pieces="tiles", pool="pool", holder="rack", script="american",
                  script_global="tablekeeperAmerican", facts="games/board/american_facts.html",
                  notation="games/board/rummikub_notation.html",
                  move_hint="draw  or  play R10 R11 R12 -> [R10 R11 R12]")

    def asks_how_won(self, variant: str, rules: dict | None = None) -> bool:
        """Whether the sheet says how the game was won (International)."""
        return bool(self.ruleset(variant, rules)[1].international)

    def closed_types(self) -> list[tuple[int, str]]:
        """The closed hands' types (1-40) with their names, for the sheet."""
        from .closed import TYPES

        return [(k, name) for k, (name, _scores) in sorted(TYPES.items())]

    def read_sheet(self, sheet: dict[str, Any], *, seats: int, variant: str,
                   rules: dict | None = None, first: int = 0) -> dict[str, Any]:
        """The racks (:func:`engine.american.sheet.read_sheet`), and for
        International ``won``: how the game was won and the rest of the
        sheet (``how``, ``closed_type``, ``closed_jokers``, ``melded``,
        ``joker_discard``, ``twin``).

        :raises SheetError: hands or game lines, an unknown field of
            ``won``, or a sheet that cannot be right, named.
        """
        from .sheet import WON_FIELDS, read_sheet

        if sheet.get("hands") is not None or sheet.get("games") is not None:
            raise SheetError("an American or International Rummikub sheet gives the racks")
        self._only(sheet, "the racks")
        _, ruleset = self.ruleset(variant, rules)
        won = dict(sheet.get("won") or {})
        unknown = sorted(set(won) - set(WON_FIELDS))
        if unknown:
            raise SheetError(f"unknown sheet field(s) {', '.join(unknown)}")
        try:
            return read_sheet(ruleset, sheet.get("racks") or (), seats=seats, first=first, **won)
        except TypeError as exc:
            raise SheetError(f"a bad sheet field ({exc})") from None

    def stream_result(self, raw, *, variant, rules=None):
        scores, winners = super().stream_result(raw, variant=variant, rules=rules)
        if self.asks_how_won(variant, rules) and max(scores) <= 0:
            winners = []   # International: a winner scores 100 or more; here the stacks ran out
        return scores, winners

    def draw(self, view: dict[str, Any]) -> Drawing:
        table = view.get("table", [])
        return Drawing(melds=[tile_meld(m["meld"]) for m in table], chip=tile_chip,
                       owners=[m.get("owner") for m in table],
                       counts=view.get("rack_counts", []), pool=view.get("pool_count"),
                       flags=view.get("melded", []), flag_text="melded",
                       # only each seat's latest discard is seen
                       piles=[[tile_chip(p)] if p else [] for p in view.get("piles", [])],
                       facts={"trump": tile_chip(view["trump"]) if view.get("trump") else None,
                              "trump_in_pool": view.get("trump_in_pool")})


FAMILY = register_family(AmericanFamily())
