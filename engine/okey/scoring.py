"""Score sheets of Okey matches played at a real table.

The table writes one line per game: who won (a seat, or nobody when the
middle ran out), how (sets and runs, or seven pairs), whether the winner
finished by discarding an okey, whether the indicator was red or black
(With Color), and who showed the Compare Stone. :func:`score_match` runs
the match's scoring (the same :class:`~engine.okey.rules.OkeyRules` and
values as a game played through the engine, ``docs/rules/okey.md``) and
checks that the sheet is a whole match: nobody at 0 or less before the last
game, somebody after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import RecordError
from .rules import OkeyRules


@dataclass(frozen=True)
class MatchSheet:
    games: list[dict[str, Any]]     # each game as read, with its "loss" and "points" after
    points: list[int]               # the points each seat keeps (the match's scores)
    winners: list[int]              # the seats with the most points


def game_loss(rules: OkeyRules, kind: str, okey_finish: bool, coloured: bool) -> int:
    """What a win costs each other player."""
    loss = rules.win_points
    if kind == "pairs" and rules.pairs_double:
        loss *= 2
    if okey_finish and rules.okey_finish_double:
        loss *= 2
    if coloured and rules.with_color:
        loss *= 2
    return loss


def _seat(value, players: int, where: str, what: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise RecordError(f"{where}: {what} is a seat 0-{players - 1} or empty, not {value!r}")
    return value


def score_match(games: list[dict[str, Any]], players: int, rules: OkeyRules | dict | None = None,
                ) -> MatchSheet:
    """Score a match from its games' lines.

    Each line: ``{"winner": seat or None, "kind": "melds" | "pairs",
    "okey_finish": bool, "coloured": bool, "shown": seat or None}`` (all
    but ``winner`` optional).

    :raises RecordError: a line that cannot be right (a seat off the table,
        seven pairs when the rules do not play them, a kind given with no
        winner), or a sheet that is not one whole match, named.
    """
    rules = rules if isinstance(rules, OkeyRules) else OkeyRules.from_dict(rules)
    if not isinstance(games, list) or not games:
        raise RecordError("an Okey sheet has one line per game of the match")
    points = [rules.start_points] * players
    out = []
    for k, line in enumerate(games, 1):
        where = f"game {k}"
        if not isinstance(line, dict):
            raise RecordError(f"{where}: a line is a mapping (winner, kind, okey_finish, coloured, shown)")
        unknown = sorted(set(line) - {"winner", "kind", "okey_finish", "coloured", "shown"})
        if unknown:
            raise RecordError(f"{where}: unknown field(s) {', '.join(unknown)}")
        if min(points) <= 0:
            raise RecordError(f"{where}: the match was over after game {k - 1} "
                              f"(points {' '.join(map(str, points))})")
        winner = _seat(line.get("winner"), players, where, "the winner")
        shown = _seat(line.get("shown"), players, where, "the Compare Stone's seat")
        kind = line.get("kind") or ("melds" if winner is not None else None)
        okey_finish = bool(line.get("okey_finish", False))
        coloured = bool(line.get("coloured", False))
        if winner is None and (line.get("kind") or okey_finish):
            raise RecordError(f"{where}: nobody won (the middle ran out), so there is no way of winning")
        if kind not in (None, "melds", "pairs"):
            raise RecordError(f"{where}: a win is by melds (sets and runs) or pairs, not {kind!r}")
        if kind == "pairs" and not rules.seven_pairs:
            raise RecordError(f"{where}: these rules play no seven pairs")
        if shown is not None:
            if not rules.compare_stone:
                raise RecordError(f"{where}: these rules play no Compare Stone")
            for s in range(players):
                if s != shown:
                    points[s] -= 1
        loss = 0
        if winner is not None:
            loss = game_loss(rules, kind, okey_finish, coloured)
            for s in range(players):
                if s != winner:
                    points[s] -= loss
        out.append({"game": k, "winner": winner, "kind": kind, "okey_finish": okey_finish,
                    "coloured": coloured, "shown": shown, "loss": loss, "points": list(points)})
    if min(points) > 0:
        raise RecordError(f"the match is not over: after game {len(games)} the points are "
                          f"{' '.join(map(str, points))} and it ends when someone has 0 or less")
    top = max(points)
    return MatchSheet(out, points, [s for s, p in enumerate(points) if p == top])
