"""A club's player list as CSV: read with a preview before anything is
saved, applied in one transaction, written back in the same columns.

Columns (a header line, any order, any case): ``name`` (required), ``club``,
``membership``, ``rating``, ``email``. Each row is classified against the
players already stored:

- **matched**: the same membership number, or the same name in the same
  club; the other columns update the player where they differ;
- **doubtful**: no match, but a player whose name is nearly the same
  (letters and spaces aside, or very close) in that club, or the same name
  in another club: shown side by side and imported as a new player only
  when ticked;
- **new**: nothing like it stored;
- **duplicate**: the same player as an earlier line of the same file (the
  same membership number, or the same name in the same club); never
  imported twice, so the preview counts what the import does;
- **error**: a row that cannot be read (no name, a rating that is not a
  number, a bad email); never imported.

"Nearly the same name" (:func:`near_names`): the same letters once accents,
case, spaces and punctuation are set aside, or an edit distance of 1 (2
for names of 10 letters or more), or a :mod:`difflib` ratio of 0.85 or
more: "Anneke de Vris" is near "Anneke de Vries". A new row near an
earlier new row of the same file is doubtful too.
"""

from __future__ import annotations

import csv
import difflib
import io
import unicodedata
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .csv_cells import csv_cell, plain
from .models import Club, Player

COLUMNS = ("name", "club", "membership", "rating", "email")
MAX_ROWS = 5000


class CsvError(ValueError):
    """The file as a whole cannot be read (no header, no name column...)."""


@dataclass
class Row:
    line: int
    name: str
    club: str = ""
    membership: str = ""
    rating: int | None = None
    email: str = ""
    status: str = "new"          # new | matched | doubtful | duplicate | error
    player: Player | None = None  # the match, or the near one for a doubtful row
    changes: list[str] = field(default_factory=list)
    why: str = ""


def _key(name: str) -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    return "".join(ch for ch in text if ch.isalnum())


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Levenshtein distance of ``a`` and ``b`` (insertions, deletions and
    substitutions), or ``limit`` + 1 as soon as it is known to exceed
    ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def near_names(a: str, b: str) -> bool:
    """Whether two names are nearly the same (see the module's docstring)."""
    ka, kb = _key(a), _key(b)
    if not ka or not kb:
        return False
    if ka == kb:
        return True
    allowed = 2 if min(len(ka), len(kb)) >= 10 else 1
    return (edit_distance(ka, kb, allowed) <= allowed
            or difflib.SequenceMatcher(None, ka, kb).ratio() >= 0.85)


def parse(text: str) -> list[Row]:
    """The rows of a CSV text, classified (nothing saved).

    :raises CsvError: no header, no ``name`` column, unknown columns, too
        many rows.
    """
    if not text.strip():
        raise CsvError(_("the file is empty"))
    sample = text[:2048]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    header = [h.strip().lower() for h in next(reader, [])]
    if "name" not in header:
        raise CsvError(_("the first line must name the columns, with a 'name' column (columns: %(columns)s)")
                       % {"columns": ", ".join(COLUMNS)})
    unknown = [h for h in header if h and h not in COLUMNS]
    if unknown:
        raise CsvError(_("unknown column(s) %(unknown)s (known: %(columns)s)")
                       % {"unknown": ", ".join(unknown), "columns": ", ".join(COLUMNS)})
    rows = []
    for number, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(rows) >= MAX_ROWS:
            raise CsvError(_("more than %(n)s players in one file: split it") % {"n": MAX_ROWS})
        data = {h: (plain(cells[i].strip()) if i < len(cells) else "") for i, h in enumerate(header) if h}
        row = Row(line=number, name=" ".join(data.get("name", "").split()), club=data.get("club", ""),
                  membership=data.get("membership", ""), email=data.get("email", ""))
        problems = []
        if not row.name:
            problems.append(_("no name"))
        elif len(row.name) > 120:
            problems.append(_("a name is at most 120 characters"))
        raw = data.get("rating", "")
        if raw:
            try:
                row.rating = int(float(raw))
            except ValueError:
                problems.append(_("rating %(raw)r is not a number") % {"raw": raw})
        if row.email:
            try:
                validate_email(row.email)
            except ValidationError:
                problems.append(_("%(email)r is not an email address") % {"email": row.email})
        if problems:
            row.status, row.why = "error", "; ".join(problems)
        rows.append(row)
    _classify(rows)
    return rows


def _classify(rows: list[Row]) -> None:
    players = list(Player.objects.select_related("club"))
    by_membership = {p.membership: p for p in players if p.membership}
    by_club_name = {((p.club.name.casefold() if p.club else ""), p.name.casefold()): p for p in players}
    seen_membership: dict[str, Row] = {}
    seen_name: dict[tuple[str, str], Row] = {}
    earlier_new: list[Row] = []
    for row in rows:
        if row.status == "error":
            continue
        club = row.club.casefold()
        first = (seen_membership.get(row.membership) if row.membership else None) \
            or seen_name.get((club, row.name.casefold()))
        if first is not None:
            row.status, row.player = "duplicate", first.player
            row.why = _("the same player as line %(line)s") % {"line": first.line}
            continue
        if row.membership:
            seen_membership[row.membership] = row
        seen_name[(club, row.name.casefold())] = row
        match = (by_membership.get(row.membership) if row.membership else None) or by_club_name.get((club, row.name.casefold()))
        if match is not None:
            row.status, row.player = "matched", match
            if row.membership and match.membership != row.membership:
                row.changes.append(_("membership %(old)s → %(new)s") % {"old": match.membership or "–", "new": row.membership})
            if row.rating is not None and match.rating != row.rating:
                row.changes.append(_("rating %(old)s → %(new)s") % {
                    "old": match.rating if match.rating is not None else "–", "new": row.rating})
            if row.email and match.email != row.email:
                row.changes.append(_("email %(old)s → %(new)s") % {"old": match.email or "–", "new": row.email})
            if match.name != row.name and row.membership and match.membership == row.membership:
                row.changes.append(_("name %(old)s → %(new)s") % {"old": match.name, "new": row.name})
            continue
        near = None
        for p in players:
            same_club = (p.club.name.casefold() if p.club else "") == club
            if same_club and near_names(p.name, row.name):
                near, row.why = p, _("close to %(name)s") % {"name": p.name} + (f" ({p.club.name})" if p.club else "")
                break
            if not same_club and near_names(p.name, row.name):
                other = p.club.name if p.club else _("no club")
                if p.name.casefold() == row.name.casefold():
                    near, row.why = p, _("the same name in %(club)s") % {"club": other}
                elif near is None:
                    near, row.why = p, _("close to %(name)s") % {"name": p.name} + f" ({other})"
        if near is None:
            for other in earlier_new:
                if other.club.casefold() == club and near_names(other.name, row.name):
                    row.why = _("close to %(name)s (line %(line)s)") % {"name": other.name, "line": other.line}
                    row.status = "doubtful"
                    break
        if near is not None:
            row.status, row.player = "doubtful", near
        if row.status == "new":
            earlier_new.append(row)


@transaction.atomic
def apply(rows: list[Row], *, take_doubtful: set[int] = frozenset()) -> dict:
    """Save the new and matched rows (and the doubtful ones whose line is in
    ``take_doubtful``, as new players); clubs are created by name. Returns
    counts per outcome, and under ``"players"`` every player a row was
    saved to (new or matched)."""
    out: dict = {"created": 0, "updated": 0, "skipped": 0, "players": []}
    for row in rows:
        if row.status in ("error", "duplicate") or (row.status == "doubtful" and row.line not in take_doubtful):
            out["skipped"] += 1
            continue
        club = None
        if row.club:
            club = Club.objects.filter(name__iexact=row.club).first()
            if club is None:
                slug = slugify(row.club)[:120] or f"club-{row.line}"
                club = Club.objects.create(name=row.club, slug=slug if not Club.objects.filter(slug=slug).exists()
                                           else f"{slug[:110]}-{Club.objects.count() + 1}")
        if row.status == "matched":
            p = Player.objects.select_for_update().get(pk=row.player.pk)
            fields = []
            for name in ("membership", "rating", "email"):
                value = getattr(row, name)
                if value not in ("", None) and getattr(p, name) != value:
                    setattr(p, name, value)
                    fields.append(name)
            if row.membership and p.membership == row.membership and p.name != row.name:
                p.name = row.name
                fields.append("name")
            if fields:
                p.save(update_fields=fields)
                out["updated"] += 1
            out["players"].append(p)
            continue
        name = row.name
        if Player.objects.filter(club=club, name=name).exists():  # a doubtful one of the same name elsewhere
            out["skipped"] += 1
            continue
        out["players"].append(Player.objects.create(name=name, club=club, membership=row.membership,
                                                    rating=row.rating, email=row.email))
        out["created"] += 1
    return out


def export(players) -> str:
    """The players in the import's columns, every text cell safe to open in
    a spreadsheet (:func:`league.csv_cells.csv_cell`; the import reads it
    back unchanged)."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(COLUMNS)
    for p in players:
        writer.writerow([csv_cell(c) for c in (p.name, p.club.name if p.club else "", p.membership,
                                               "" if p.rating is None else p.rating, p.email)])
    return buf.getvalue()
