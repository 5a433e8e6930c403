"""Two (or more) entries of one game's score sheet side by side, each cell
marked where they differ: what the round desk and the table's phones show
for a discrepancy, so the organiser sees which rack, hand or game line the
players disagree on, not only the two score lines.

A sheet is drawn from the engine's reading of it (``SheetEntry.checked``:
the sheet as read, with ``scores``) in the shape its family's sheet has:
racks (a row per seat), hands (a row per hand, a column per seat) or a
match's game lines (a row per game: who won, how, ...). Every side has the
same rows and columns (a shorter sheet is padded with empty cells), so the
cells line up and compare one to one."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _


@dataclass
class Cell:
    text: str
    differs: bool = False


@dataclass
class Side:
    """One entry's sheet: who entered it, the grid's column heads and rows
    (a label and cells), and the score line (a cell per seat)."""

    by: str
    entry: int | None
    head: list[str]
    rows: list[tuple[str, list[Cell]]]
    scores: list[Cell] = field(default_factory=list)

    @property
    def differing(self) -> int:
        """How many cells of this side differ from another side."""
        return sum(c.differs for _label, cells in self.rows for c in cells) + sum(c.differs for c in self.scores)


def _text(value, names) -> str:
    if value is None or value is False:
        return ""
    if value is True:
        return _("yes")
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v, names) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_text(v, names)}" for k, v in value.items())
    return str(value)


#: a game line's parts, in the printed sheet's order, with their heads
LINE_PARTS = (("winner", "Won by (seat)"), ("kind", "How"), ("okey_finish", "Okey thrown"),
              ("coloured", "Red/black indicator"), ("shown", "Compare Stone (seat)"))


def _seat(value, names) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, int) and 0 <= value < len(names):
        return f"{value + 1}: {names[value]}"
    return str(value)


def grid(checked: dict, names: list[str]) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """``(column heads, [(row label, [cell text])])`` of one sheet."""
    if checked.get("hands") is not None:
        head = list(names)
        rows = [(_("Hand %(n)s") % {"n": h + 1}, [str(c or "") for c in hand])
                for h, hand in enumerate(checked["hands"])]
        return head, rows
    if checked.get("games") is not None:
        lines = checked["games"]
        keys = [k for k, _head in LINE_PARTS if any(k in line for line in lines)]
        keys += sorted({k for line in lines for k in line} - {k for k, _h in LINE_PARTS}
                       - {"points", "scores", "penalties"})
        heads = dict(LINE_PARTS)
        head = [_(heads[k]) if k in heads else k for k in keys]
        rows = []
        for n, line in enumerate(lines, start=1):
            cells = []
            for k in keys:
                value = line.get(k)
                if k in ("winner", "shown"):
                    cells.append(_("nobody") if k == "winner" and k in line and value is None
                                 else _seat(value, names))
                else:
                    cells.append(_text(value, names))
            rows.append((_("Game %(n)s") % {"n": n}, cells))
        return head, rows
    racks = checked.get("racks") or []
    head = [_("Rack left")]
    rows = [(names[i] if i < len(names) else str(i + 1), [str(r or "")]) for i, r in enumerate(racks)]
    won = checked.get("won")
    if isinstance(won, dict):
        rows += [(str(k), [_text(v, names)]) for k, v in won.items()]
    return head, rows


def compare(entries: list[tuple[str, int | None, dict]], names: list[str]) -> list[Side]:
    """The entries (``(by, entry id, checked)``) side by side, every cell
    marked ``differs`` where not all sides have the same text."""
    grids = [grid(checked, names) for _by, _pk, checked in entries]
    if not grids:
        return []
    head = max((g[0] for g in grids), key=len)
    labels: list[str] = []
    for _head, rows in grids:
        for k, (label, _cells) in enumerate(rows):
            if k >= len(labels):
                labels.append(label)
    width = len(head)

    def cells_of(rows, k):
        cells = rows[k][1] if k < len(rows) else []
        return list(cells) + [""] * (width - len(cells))

    table = [[cells_of(rows, k) for k in range(len(labels))] for _h, rows in grids]
    seats = len(names)
    scores = [[str(s) for s in (checked.get("scores") or [])] + [""] * seats for _b, _p, checked in entries]
    scores = [s[:max(seats, 1)] for s in scores]
    sides = []
    for i, (by, pk, _checked) in enumerate(entries):
        rows = []
        for k, label in enumerate(labels):
            rows.append((label, [Cell(text, differs=any(other[k][j] != text for other in table))
                                 for j, text in enumerate(table[i][k])]))
        score_cells = [Cell(text, differs=any(other[j] != text for other in scores))
                       for j, text in enumerate(scores[i])]
        sides.append(Side(by=by, entry=pk, head=head, rows=rows, scores=score_cells))
    return sides


def compare_entries(entries, names: list[str]) -> list[Side]:
    """:func:`compare` over :class:`league.models.SheetEntry` rows."""
    return compare([(e.by, e.pk, e.checked or {}) for e in entries], names)
