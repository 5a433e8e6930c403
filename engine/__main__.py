"""``python -m engine COMMAND``: ``replay FILE``, ``solve``, ``okey-hand`` and
``closed-hand`` (JSON Lines)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    usage = "usage: python -m engine {replay FILE | solve | okey-hand | closed-hand} [options]"
    if not argv or argv[0] in ("-h", "--help"):
        print(usage)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "replay":
        from .cli_replay import main as run
    elif command == "solve":
        # positions are Rummikub's: its rule options, read by the family
        from .rummikub import rules_from_dict
        from .solver.cli import main as solve_main

        def run(rest):
            return solve_main(rest, read_rules=lambda data: rules_from_dict(data).meld_rules)
    elif command == "okey-hand":
        from .okey.cli import main as run
    elif command == "closed-hand":
        from .american.cli import main as run
    else:
        print(f"unknown command {command!r}\n{usage}", file=sys.stderr)
        return 2
    return run(rest)


if __name__ == "__main__":
    sys.exit(main())
