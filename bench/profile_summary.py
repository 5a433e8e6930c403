"""Where a web process's time goes while it serves moves: a breakdown of a
py-spy sample file (``bench/live.py --profile PREFIX`` writes one per run,
collapsed stacks) into the stages of a move, from the request to the last
socket's frame.

    .venv/bin/python bench/profile_summary.py /tmp/prof-memory-20.txt

Each sample is counted once, in the first stage (in the order below) that
one of its frames names; samples of threads that only wait (an idle pool
thread, the event loop's select) are left out, so the shares are of the
time the process was busy. ``bench/live.py --profile`` samples only the
thread holding the GIL (py-spy's ``--gil``): the process's Python time,
not threads waiting for a lock or a socket.
"""

from __future__ import annotations

import argparse
import collections
import sys

# (stage, markers): a sample belongs to the first stage with a frame that
# contains one of its markers
STAGES: list[tuple[str, tuple[str, ...]]] = [
    ("request: seat credential (auth)", ("SeatTokenAuthentication.authenticate",)),
    ("request: engine (parse, check, apply the move)", (".parse_move (", ".push (engine", "_bind_seat (")),
    ("request: frames primed for this process's sockets", ("prepare (games/frames.py",)),
    ("request: live push handed to the layer", ("_send (games/push.py",)),
    ("request: append the events (hash chain, insert)", ("write (games/eventstore.py", "prepare (games/eventstore.py",
                                                         "insert_guarded (games/eventstore.py")),
    ("request: projection row (state JSON, update)", ("_write_projection (", "_project (games/services.py")),
    ("request: read the game row and state", ("game_without_state (", "load_state (", "_StateCache.")),
    ("request: commit, transaction", ("Atomic.__exit__", "Atomic.__enter__", "ExitStack.__exit__")),
    ("request: the answer (receipt, JSON)", ("_move_answer (",)),
    ("request: other views (create, seats, pages)", ("GameListCreate.", "SeatTake.", "play_enter (", "SeatView.")),
    ("request: Django and DRF around the view", ("_whole_request (config/asgi.py", "_timed_response (")),
    ("sockets: frames built and sent", ("games/consumers.py",)),
    ("sockets: channels and the layer", ("channels/",)),
    ("server: the ASGI server, its event loop (HTTP and WebSocket I/O)", ("",)),
]
IDLE = ("_worker (concurrent", "Condition.wait", "EpollSelector.select", "_wait_for_tstate_lock", "Event.wait",
        "Thread._bootstrap_inner (threading.py")


def summarise(path: str) -> list[tuple[str, int]]:
    counts: collections.Counter[str] = collections.Counter()
    for line in open(path, encoding="utf-8"):
        stack, _, n = line.rstrip().rpartition(" ")
        if not n.isdigit():
            continue
        frames = stack.split(";")
        if any(marker in frames[-1] for marker in IDLE):
            continue
        for stage, markers in STAGES:
            if any(m in f for f in frames for m in markers):
                counts[stage] += int(n)
                break
    return [(stage, counts[stage]) for stage, _ in STAGES]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="py-spy raw (collapsed) sample files")
    args = parser.parse_args(argv)
    for path in args.files:
        try:
            rows = summarise(path)
        except OSError as exc:
            print(f"bench/profile_summary.py: {exc}", file=sys.stderr)
            return 2
        total = sum(n for _, n in rows) or 1
        print(f"{path}: {total} busy samples")
        for stage, n in rows:
            print(f"  {100 * n / total:5.1f}%  {stage}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
