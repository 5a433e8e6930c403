"""What the seating reads: the earlier rounds' tables, a round's layout,
its conflicts and repeat meetings, whether its seating is final, and what
a swap of two seats would cost (the round desk and the seating services)."""

from __future__ import annotations

from django.utils.translation import gettext

from .models import ResultEvent, Round, Seat, TableGame, Tournament
from .seating import seating_conflicts, seating_repeats


def seating_history(tournament: Tournament, before: int | None = None) -> list[list[tuple]]:
    """Earlier rounds (those numbered below ``before``, or all) as lists of
    tables, each a tuple of player ids in seat order (``None`` for an AI
    seat)."""
    rounds: dict[int, dict[int, list]] = {}
    seats = Seat.objects.filter(table__round__tournament=tournament)
    if before is not None:
        seats = seats.filter(table__round__number__lt=before)
    rows = (seats
            .order_by("table__round__number", "table__number", "position")
            .values_list("table__round__number", "table__number", "entry__player_id"))
    for rnd, table, player in rows:
        rounds.setdefault(rnd, {}).setdefault(table, []).append(player)
    return [[tuple(t) for _, t in sorted(tables.items())]
            for _, tables in sorted(rounds.items())]


def round_layout(rnd: Round) -> tuple[list[list], dict[int, tuple[int, int]]]:
    """The round's tables as lists of player ids in seat order (``None`` for
    an AI seat), and where each seat row sits: ``{seat pk: (table index,
    position)}``."""
    layout: list[list] = []
    where: dict[int, tuple[int, int]] = {}
    for seat in (Seat.objects.filter(table__round=rnd)
                 .order_by("table__number", "position").select_related("entry", "table")):
        while len(layout) < seat.table.number:
            layout.append([])
        where[seat.pk] = (seat.table.number - 1, len(layout[seat.table.number - 1]))
        layout[seat.table.number - 1].append(seat.entry.player_id if seat.entry_id else None)
    return layout, where


def seating_conflict_pairs(tournament: Tournament) -> list[tuple[int, int]]:
    """The tournament's pairs who must not sit together, as player ids."""
    from .models import SeatingConflict

    return list(SeatingConflict.objects.filter(tournament=tournament).values_list("player_a_id", "player_b_id"))


def layout_conflicts(rnd: Round, layout) -> int:
    """How many pairs who must not sit together share a table in ``layout``."""
    return len(seating_conflicts(layout, seating_conflict_pairs(rnd.tournament)))


def layout_repeats(rnd: Round, layout) -> tuple[int, int]:
    """Repeat meetings and repeat seats of ``layout`` for round ``rnd``."""
    return seating_repeats(layout, seating_history(rnd.tournament, before=rnd.number))


def round_seating_final(rnd: Round) -> str | None:
    """Why a round's seating can no longer change by hand, or ``None``: it
    may change until play begins (seated, its clock not started, no game
    played through the system, no result and no sheet entered)."""
    from .models import SheetEntry

    if rnd.status != Round.Status.SEATED:
        return gettext("round %(n)s is %(status)s: its seating is final") % {"n": rnd.number,
                                                                            "status": rnd.get_status_display()}
    if rnd.started_at is not None:
        return gettext("round %(n)s's clock has started: its seating is final") % {"n": rnd.number}
    if TableGame.objects.filter(table__round=rnd, stream__isnull=False).exists():
        return gettext("round %(n)s has games under way: its seating is final") % {"n": rnd.number}
    if ResultEvent.objects.filter(game__table__round=rnd).exists() \
            or SheetEntry.objects.filter(game__table__round=rnd).exists():
        return gettext("round %(n)s has results entered: its seating is final") % {"n": rnd.number}
    return None


def round_swap_cost(rnd: Round, seat_a: int, seat_b: int) -> dict | None:
    """What swapping two seats of a round would cost: the pairs at one table
    who must not sit together, the round's repeat meetings and repeat
    seats, now and after the swap (compared in that order), and who moves
    where;
    ``None`` when either seat is not of this round."""
    layout, where = round_layout(rnd)
    if seat_a not in where or seat_b not in where or seat_a == seat_b:
        return None
    before = (layout_conflicts(rnd, layout),) + layout_repeats(rnd, layout)
    (ta, pa), (tb, pb) = where[seat_a], where[seat_b]
    after_layout = [list(t) for t in layout]
    after_layout[ta][pa], after_layout[tb][pb] = layout[tb][pb], layout[ta][pa]
    after = (layout_conflicts(rnd, after_layout),) + layout_repeats(rnd, after_layout)
    return {"a": (ta + 1, pa + 1), "b": (tb + 1, pb + 1),
            "conflicts": (before[0], after[0]), "mates": (before[1], after[1]), "seats": (before[2], after[2]),
            "better": after < before, "worse": after > before}
