"""Score entry at the table, on a phone, with no account: each table's short
link (``/s/<code>/``), and the players' sheet entries, double-confirmed as
Tabbycat's ballots are: the same sheet entered by a second player records
the result (through :func:`league.services.result_record_score_sheet`); a
different one opens a discrepancy the organiser settles by accepting one
entry. Entries are never edited into a result.

The same conventions as :mod:`league.services`: keyword arguments, one
transaction per write, :class:`~league.services.LeagueError` in words.
"""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext

from .models import Result, Round, SheetEntry, Table, TableGame
from .services import LeagueError, result_append, score_sheet_check

#: entries waiting for a second player or for the organiser
OPEN = (SheetEntry.Status.ENTERED, SheetEntry.Status.DISCREPANCY)

#: the letters of a player's code: none that reads as another (no 0/O,
#: 1/I/L, 2/Z, 5/S, 8/B, 6/G), 23 of them, so 4 make 279,841 codes
CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY34679"
CODE_LENGTH = 4
#: wrong codes for one player at one table before entry is refused a while
CODE_TRIES = 8
CODE_LOCK_SECONDS = 600


def player_code(*, tournament_id: int, round_number: int, entry_id: int) -> str:
    """A player's code for one round's score sheet: 4 characters of
    :data:`CODE_ALPHABET`, an HMAC of the tournament, the round and the
    player's entry under the site's secret key (nothing stored; the same on
    every print of the round). Printed beside the player's name on the
    organiser's sheet; asked for when that player enters or confirms a
    sheet from a phone."""
    digest = salted_hmac("league.sheet-code", f"{tournament_id}:{round_number}:{entry_id}").digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(CODE_LENGTH):
        number, k = divmod(number, len(CODE_ALPHABET))
        letters.append(CODE_ALPHABET[k])
    return "".join(letters)


def seat_codes(table: Table) -> dict[int, str]:
    """Each human seat's code at ``table``, by seat position."""
    rnd = table.round
    return {s.position: player_code(tournament_id=rnd.tournament_id, round_number=rnd.number, entry_id=s.entry_id)
            for s in table.seats.all() if s.entry_id is not None}


def _check_code(game: TableGame, name: str, code: str) -> None:
    """:raises LeagueError: ``code`` is not ``name``'s code at this table
    (or too many wrong codes were tried for them: a while's pause)."""
    table = game.table
    seat = next(s for s in table.seats.select_related("entry__player") if s.entry and s.entry.player.name == name)
    key = f"league:sheet-code-misses:{table.pk}:{seat.entry_id}"
    if (cache.get(key) or 0) >= CODE_TRIES:
        raise LeagueError(gettext("too many wrong codes for %(name)s: wait a few minutes or ask the organiser; "
                                  "nothing was entered") % {"name": name})
    want = player_code(tournament_id=table.round.tournament_id, round_number=table.round.number,
                       entry_id=seat.entry_id)
    given = (code or "").strip().upper().replace(" ", "")
    if not given:
        raise LeagueError(gettext("give %(name)s's code: it is printed beside %(name)s's name on the table's "
                                  "sheet; nothing was entered") % {"name": name})
    if not constant_time_compare(given, want):
        if cache.add(key, 1, CODE_LOCK_SECONDS) is False:
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, CODE_LOCK_SECONDS)
        raise LeagueError(gettext("that is not %(name)s's code: each player enters the code printed beside "
                                  "their own name on the table's sheet; nothing was entered") % {"name": name})
    cache.delete(key)


def device_label(entry: SheetEntry) -> str:
    """Where an entry came from, for the desk: ``phone 3fa9c1`` (the
    browser session's mark) or ``unknown``."""
    return f"phone {entry.device}" if entry.device else "unknown"

def table_entry_code(*, table: Table) -> str:
    """The table's short code for its score-entry page (``/s/<code>/``),
    made on first use."""
    if not table.entry_code:
        with transaction.atomic():
            locked = Table.objects.select_for_update().get(pk=table.pk)
            if not locked.entry_code:
                locked.entry_code = secrets.token_urlsafe(6)
                locked.save(update_fields=["entry_code"])
            table.entry_code = locked.entry_code
    return table.entry_code


def table_for_code(code: str) -> Table:
    """The table a score-entry code opens.

    :raises LeagueError: no such code, or the round is closed (the link
        stops working with it).
    """
    table = (Table.objects.select_related("round__tournament").filter(entry_code=code).first()
             if code else None)
    if table is None:
        raise LeagueError(gettext("this score-entry link is not known: use the QR code or link on the "
                                  "table's sheet"))
    if table.round.status == Round.Status.CLOSED:
        raise LeagueError(gettext("round %(n)s is closed: its score entry has ended; "
                                  "ask the organiser for a correction") % {"n": table.round.number})
    return table


def _same_sheet(a: dict, b: dict) -> bool:
    keys = ("racks", "hands", "games", "scores")
    return all(a.get(k) == b.get(k) for k in keys)


def sheet_entry_submit(*, game: TableGame, sheet: dict, by: str, code: str,
                       device: str = "", agent: str = "") -> SheetEntry:
    """A player at the table enters a game's sheet (``{"racks": ...}``,
    ``{"hands": ...}`` or ``{"games": ...}``, as the family's sheet holds;
    ``{"okey_games": ...}`` is an older name of ``games``). The engine checks it at
    once. A second player entering the same sheet confirms it: the result
    is recorded (one confirmed result per game, as ever). A different sheet
    from another player puts both in discrepancy for the organiser
    (:func:`sheet_entry_accept`); nothing is overwritten. The same player
    entering again replaces their own entry.

    Each player proves who they are with their code (:func:`player_code`,
    printed beside their name on the sheet): one phone can enter for Ann
    and confirm for Ben only with Ben's code. ``device`` (the phone's
    session mark) and ``agent`` (its browser) are kept with the entry, for
    the desk.

    :raises LeagueError: the round is closed, the game has its result, the
        name is not one of the table's players, the code is not theirs, or
        the sheet cannot be right. Nothing is stored then.
    """
    name = (by or "").strip()
    names = [s.entry.player.name for s in game.table.seats.select_related("entry__player")
             if s.entry is not None]
    if name not in names:
        raise LeagueError(gettext("choose your name: one of %(names)s") % {"names": ", ".join(names)})
    if game.table.round.status == Round.Status.CLOSED:
        raise LeagueError(gettext("round %(n)s is closed") % {"n": game.table.round.number})
    _check_code(game, name, code)
    if not isinstance(sheet, dict) or len(sheet) != 1 or \
            next(iter(sheet)) not in ("racks", "hands", "games", "okey_games"):
        raise LeagueError(gettext("a sheet is racks, hands or game lines"))
    checked = score_sheet_check(game=game, sheet=sheet)
    with transaction.atomic():
        TableGame.objects.select_for_update().get(pk=game.pk)
        if game.results.filter(status=Result.Status.CONFIRMED).exists():
            raise LeagueError(gettext("%(game)s has its result already; ask the organiser for a correction")
                              % {"game": game})
        pending = list(game.sheet_entries.select_for_update().filter(
            status__in=(SheetEntry.Status.ENTERED, SheetEntry.Status.DISCREPANCY)))
        for old in pending:
            if old.by == name:
                old.status = SheetEntry.Status.REPLACED
                old.save(update_fields=["status"])
        others = [e for e in pending if e.by != name]
        entry = SheetEntry(game=game, by=name, sheet=sheet, checked=checked,
                           device=(device or "")[:16], agent=(agent or "")[:200])
        if not others:
            entry.save()
            return entry
        if all(_same_sheet(o.checked, checked) for o in others):
            first = others[0]
            result_append(game=game, payload=checked,
                          actor=(f"table: {first.by} ({device_label(first)}), "
                                 f"confirmed by {name} ({device_label(entry)})"), correction=False)
            entry.status = SheetEntry.Status.CONFIRMED
            entry.save()
            for o in others:
                o.status = SheetEntry.Status.CONFIRMED
                o.save(update_fields=["status"])
            return entry
        entry.status = SheetEntry.Status.DISCREPANCY
        entry.save()
        for o in others:
            o.status = SheetEntry.Status.DISCREPANCY
            o.save(update_fields=["status"])
        return entry


def _open_entry(entry: SheetEntry, *, correct_instead: bool) -> SheetEntry:
    """``entry`` locked for the organiser's decision (inside a transaction).

    :raises LeagueError: the entry is not open, or the game has its result
        (with ``correct_instead`` that message says to enter a correction).
    """
    entry = SheetEntry.objects.select_for_update().select_related("game").get(pk=entry.pk)
    if entry.status not in OPEN:
        raise LeagueError(gettext("%(game)s: %(by)s's entry is %(status)s, not waiting for the organiser")
                          % {"game": entry.game, "by": entry.by, "status": entry.get_status_display()})
    if entry.game.results.filter(status=Result.Status.CONFIRMED).exists():
        if correct_instead:
            raise LeagueError(gettext("%(game)s has its result already: enter a correction instead")
                              % {"game": entry.game})
        raise LeagueError(gettext("%(game)s has its result already") % {"game": entry.game})
    return entry


def sheet_entry_accept(*, entry: SheetEntry, actor: str) -> Result:
    """The organiser records ``entry`` as the game's result (an event like
    any other): one side of a discrepancy, or a lone entry nobody has
    confirmed yet; the game's other open entries are set aside.

    :raises LeagueError: the entry is not open (entered or in discrepancy),
        or the game has its result already.
    """
    with transaction.atomic():
        entry = _open_entry(entry, correct_instead=False)
        result = result_append(game=entry.game, payload=entry.checked,
                               actor=f"{actor}: accepted {entry.by}'s entry", correction=False)
        entry.status = SheetEntry.Status.ACCEPTED
        entry.save(update_fields=["status"])
        entry.game.sheet_entries.filter(status__in=OPEN).update(status=SheetEntry.Status.REPLACED)
    return result


def sheet_entry_send_back(*, entry: SheetEntry) -> int:
    """The organiser sends a game's open entries back: the table enters the
    sheet again (its page says so). Returns how many were sent back.

    :raises LeagueError: the entry is not open, or the game has its result.
    """
    with transaction.atomic():
        entry = _open_entry(entry, correct_instead=True)
        return entry.game.sheet_entries.filter(status__in=OPEN).update(status=SheetEntry.Status.RETURNED)
