"""The Rummikub family's description (:class:`engine.family.Family`): a
round is one game per seat; the sheet is the tiles left on each rack; the
solver judges its disputes; the board is tiles on a shared table."""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import EngineError
from ..family import Board, Drawing, Family, Sheet, SheetError, tile_chip, tile_meld
from ..registry import register_family
from ..tiles import face_value, format_tiles, parse_tiles


def read_racks(racks: Sequence[str], seats: int) -> list[list]:
    """The tiles left on each rack, one text per seat (empty: went out).

    :raises SheetError: the wrong number of racks, an unknown tile (named
        with its seat), or more than one empty rack.
    """
    if isinstance(racks, str) or len(racks) != seats:
        got = "one text" if isinstance(racks, str) else len(racks)
        raise SheetError(f"expected {seats} racks (one per seat), got {got}")
    parsed = []
    for i, text in enumerate(racks):
        try:
            parsed.append(parse_tiles(text or ""))
        except EngineError as exc:
            raise SheetError(f"seat {i + 1}: {exc}", seat=i + 1, token=getattr(exc, "token", None)) from None
    empty = [i for i, tiles in enumerate(parsed) if not tiles]
    if len(empty) > 1:
        raise SheetError(f"seats {', '.join(str(i + 1) for i in empty)} all have empty racks: "
                         "only one player can go out")
    return parsed


class RummikubFamily(Family):
    name = "rummikub"
    title = "Rummikub"
    variant_titles = {"sabra": "Rummikub (Sabra rules)", "sabra-xp": "Rummikub XP (5-6 players)"}
    order = 0
    round_games = "per-seat"
    dispute_kinds = ("table_invalid", "could_open", "not_best")
    dispute_hints = {"winning_hand": "a rack emptied is disputed with table_invalid on that play "
                                     "(the table after it must divide)"}
    sheet = Sheet(kind="racks", pieces="tiles", keys=("racks",))
    board = Board(pieces="tiles", pool="pool", holder="rack", script="rummikub",
                  script_global="tablekeeperRummikub", notation="games/board/rummikub_notation.html",
                  move_hint="draw  or  play R10 R11 R12 -> [R10 R11 R12]")

    def read_sheet(self, sheet: dict[str, Any], *, seats: int, variant: str,
                   rules: dict | None = None, first: int = 0) -> dict[str, Any]:
        """The racks, scored by :func:`engine.rummikub.score_racks`: one
        empty rack won (each other pays its rack); none empty: the pool ran
        out, the lowest rack wins; a joker left counts the rules' joker
        penalty. The scores sum to zero.

        :raises SheetError: hands or game lines, the wrong number of racks,
            an unknown tile, more copies of a tile than the set holds, two
            empty racks, rule options the engine refuses.
        """
        from .scoring import score_racks

        self._only(sheet, "the racks")
        cls, ruleset = self.ruleset(variant, rules)
        parsed = read_racks(sheet.get("racks") or (), seats)
        try:
            cls.tileset.check([t for tiles in parsed for t in tiles])
        except EngineError as exc:
            raise SheetError(f"{exc} (over all racks)") from None
        empty = [i for i, tiles in enumerate(parsed) if not tiles]
        winner = empty[0] if empty else None
        try:
            scores = [int(s) for s in score_racks(parsed, ruleset, winner=winner, tie_start=first)]
        except EngineError as exc:
            raise SheetError(str(exc)) from None
        if sum(scores) != 0:  # the engine guarantees it; checked all the same
            raise SheetError(f"scores {scores} do not sum to zero")
        values = [sum(face_value(t, ruleset.joker_penalty) for t in tiles) for tiles in parsed]
        winners = [winner] if winner is not None else [i for i, v in enumerate(values) if v == min(values)]
        return {"source": "score_sheet", "racks": [format_tiles(t) for t in parsed],
                "ending": "out" if winner is not None else "pool-empty", "scores": scores,
                "winners": winners, "joker_value": ruleset.joker_penalty}

    def judge(self, kind, before, after, payload, *, claimed_table=None):
        from .disputes import judge

        return judge(kind, before, after, payload, claimed_table=claimed_table)

    def check_dispute(self, kind, before, payload, move_version):
        from .disputes import check_opening

        check_opening(kind, before, payload, move_version)

    def parse_claimed(self, tiles, before):
        from .disputes import _tokens, parse_claimed

        parsed = parse_claimed(tiles, type(before).tileset)
        return parsed, _tokens(parsed)

    def describe_move(self, move: str) -> dict[str, Any]:
        """A play says the tiles laid from the rack ("laid R8 B8 O8"; a play
        that only moved tiles on the table, "moved"); a draw, timeout or
        penalty never names the tile drawn."""
        from .moves import Move

        try:
            parsed = Move.parse(move)
        except EngineError:
            return self._said("other", text=move)
        if parsed.kind == "play":
            if not parsed.tiles:
                return self._said("moved", text=move)
            return self._said("laid", pieces=[tile_chip(t) for t in format_tiles(parsed.tiles).split()], text=move)
        return self._said({"draw": "drew", "pass": "passed"}.get(parsed.kind, parsed.kind), text=move)

    def draw(self, view: dict[str, Any]) -> Drawing:
        return Drawing(melds=[tile_meld(m) for m in view.get("table", [])], chip=tile_chip,
                       counts=view.get("rack_counts", []), pool=view.get("pool_count"),
                       flags=view.get("initial_meld_done", []), flag_text="initial meld done")


FAMILY = register_family(RummikubFamily())
