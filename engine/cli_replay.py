"""``python -m engine replay [--json] FILE``: replay a game record.

The exit status is the verdict, as ``diff`` and ``grep`` give theirs:

- 0: the record replays (and its ``Result``/``Scores`` tags, if any, agree);
  prints the final table, every rack, the scores and the result.
- 1: the record was read and breaks a rule: an illegal move, a move that
  does not parse, a move by a seat whose turn it was not, or a result the
  replay does not reach; prints the turn, the seat that moved, the seat on
  turn, the rule and the message.
- 2: usage error, or input that cannot be read as a record (no such file,
  not UTF-8, a line that is neither tag nor move, a bad header).

``--json`` prints one JSON object on standard output instead: ``{"ok":
true, "variant", "turns", "over", "result", "scores", "warnings"}`` for a
good record, ``{"ok": false, "turn", "seat", "player", "to_move", "rule",
"message", "move"}`` for a verdict, ``{"ok": false, "error": "unreadable",
"message"}`` for input that cannot be read. ``FILE`` may be ``-`` for
standard input. Text echoed from the record (a move, a message quoting it)
is cut to :data:`ECHO_LIMIT` characters.
"""

from __future__ import annotations

import json
import sys

from .errors import EngineError, ResultMismatchError
from .records import ReplayError, read_record, replay

USAGE = "usage: python -m engine replay [--json] FILE   (FILE may be - for stdin)"
ECHO_LIMIT = 200  # characters of record text echoed back in a message


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis and the
    length when cut (a 6 MB move line is not echoed back whole)."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


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


def _warnings(game) -> list[str]:
    warnings = getattr(getattr(game, "rules", None), "warnings", None)
    return list(warnings()) if callable(warnings) else []


def _emit(obj: dict) -> None:
    print(json.dumps(obj, ensure_ascii=False))


def main(argv: list[str]) -> int:
    """Run the command; returns the exit status (0 good, 1 a rule broken,
    2 usage or unreadable input)."""
    args = list(argv)
    if any(a in ("-h", "--help") for a in args):
        print(__doc__.strip() + "\n\n" + USAGE)
        return 0
    as_json = "--json" in args
    args = [a for a in args if a != "--json"]
    if len(args) != 1 or (args[0].startswith("-") and args[0] != "-"):
        print(USAGE, file=sys.stderr)
        return 2
    path = args[0]

    def unreadable(message: str) -> int:
        if as_json:
            _emit({"ok": False, "error": "unreadable", "message": clip(message, 500)})
        else:
            print(f"error: {clip(message, 500)}", file=sys.stderr)
        return 2

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        return unreadable(f"cannot read {path}: {exc}")
    try:
        rec = read_record(text)
        game = replay(rec)
    except ReplayError as exc:
        if as_json:
            _emit({"ok": False, "turn": exc.turn, "seat": exc.seat, "player": exc.player,
                   "to_move": exc.to_move, "rule": exc.rule, "message": clip(str(exc), 500),
                   "move": clip(exc.move)})
        else:
            who = f"{exc.player} (seat {exc.seat})" if exc.player else f"seat {exc.seat}"
            print(f"illegal move at turn {exc.turn}, player {who}: {clip(repr(exc.move))}\n"
                  f"  rule {exc.rule}: {clip(str(exc), 500)}", file=sys.stderr)
        return 1
    except ResultMismatchError as exc:
        if as_json:
            _emit({"ok": False, "turn": None, "seat": None, "player": None, "to_move": None,
                   "rule": exc.rule, "message": clip(str(exc), 500), "move": None})
        else:
            print(f"wrong result: {path}: {clip(str(exc), 500)}\n  rule {exc.rule}",
                  file=sys.stderr)
        return 1
    except EngineError as exc:
        return unreadable(f"{path}: {exc}")
    warnings = _warnings(game)
    if as_json:
        _emit({"ok": True, "variant": game.variant, "turns": len(rec.moves),
               "over": game.is_over,
               "result": list(getattr(game, "winners", [])) if game.is_over else None,
               "scores": game.scores(), "warnings": warnings})
        return 0
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    _print_state(game, rec.seats(), sys.stdout)
    return 0
