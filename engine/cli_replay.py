"""``python -m engine replay FILE``: replay a game record.

Prints the final table, every rack and the scores and exits 0; on an illegal
move exits 2 naming the turn, the player and the rule broken; on a record
that cannot be read exits 2 with the reason. ``FILE`` may be ``-`` for
standard input.
"""

from __future__ import annotations

import sys

from .errors import EngineError
from .records import ReplayError, read_record, replay


def _print_state(game, names: dict[int, str], out) -> None:
    view = game.view(None)
    describe = getattr(game, "describe", None)
    if callable(describe):  # the family's own summary (contract rummy: hands, totals)
        print(describe(), file=out)
    else:
        print(f"variant: {game.variant}   turns: {view['turn']}   pool: {view['pool_count']} tiles",
              file=out)
    table = view.get("table", [])
    print(f"table ({len(table)} melds):", file=out)
    for meld in table:
        if isinstance(meld, dict) and "cards" in meld:
            meld = f"{' '.join(meld['cards'])}   ({meld.get('kind', 'meld')} of seat {meld.get('owner')})"
        print(f"  {meld}", file=out)
    racks = getattr(game, "rack", None)
    scores = game.scores()
    print("racks:", file=out)
    for seat in range(game.players):
        name = names.get(seat, f"seat {seat}")
        tiles = " ".join(str(t) for t in racks(seat)) if racks else "?"
        score = "" if scores is None else f"   score {scores[seat]:+d}"
        print(f"  {seat} {name}: {tiles or '(empty)'}{score}", file=out)
    _print_result(game, names, out)


def _print_result(game, names: dict[int, str], out) -> None:
    scores = game.scores()
    if game.is_over:
        winners = getattr(game, "winners", [])
        reason = getattr(game, "end_reason", None)
        who = ", ".join(names.get(w, f"seat {w}") for w in winners) or "nobody"
        print(f"result: {who} won ({reason}); scores {' '.join(str(s) for s in scores)}", file=out)
    else:
        print(f"result: game not over; seat {game.to_move} to move", file=out)


def main(argv: list[str]) -> int:
    """Run the command; returns the exit status (0 replayed, 2 refused)."""
    if not argv or argv[0] in ("-h", "--help") or len(argv) != 1:
        print("usage: python -m engine replay FILE   (FILE may be - for stdin)",
              file=sys.stdout if argv and argv[0] in ("-h", "--help") else sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    path = argv[0]
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        rec = read_record(text)
        game = replay(rec)
    except ReplayError as exc:
        who = f"{exc.player} (seat {exc.seat})" if exc.player else f"seat {exc.seat}"
        print(f"illegal move at turn {exc.turn}, player {who}: {exc.move!r}\n"
              f"  rule {exc.rule}: {exc}", file=sys.stderr)
        return 2
    except EngineError as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return 2
    _print_state(game, rec.seats(), sys.stdout)
    return 0
