"""Contract rummy moves: the engine alone against the games app's recording
path (parse, turn check with ``may_act``, push, event append, projection,
outbox), in one process, on the same seeded games.

For each game: the moves are first chosen by the contract AI and pushed on
an engine-only game (timed: choosing, then pushing the same moves again on a
fresh game), then recorded one by one through
:func:`games.services.game_record_move` with each move's own seat (timed).

    .venv/bin/python bench/contract_moves.py                   # SQLite file in a temp dir
    .venv/bin/python bench/contract_moves.py --database postgres://postgres@127.0.0.1:5432/tablekeeper_bench_contract

Prints moves per second of each and the ratios to the engine's push.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ensure_database(url: str) -> None:
    if url.startswith("postgres"):
        from urllib.parse import urlparse

        import psycopg

        name = urlparse(url).path.lstrip("/")
        admin = url.replace(f"/{name}", "/postgres", 1)
        with psycopg.connect(admin, autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, check=True,
                   env={**os.environ, "DATABASE_URL": url})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="", help="default: a SQLite file in a temp directory")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="international")
    args = parser.parse_args()

    url = args.database or f"sqlite:///{tempfile.mkdtemp(prefix='bench-contract-')}/bench.sqlite3"
    # production mode: DEBUG off (Django records every query when it is on)
    os.environ.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0",
                      SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="localhost")
    os.environ.pop("CELERY_BROKER_URL", None)
    ensure_database(url)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from engine.contract.ai import ContractSeatPlayer, next_ai_move
    from engine.registry import find_variant
    from games import services

    cls = find_variant(args.variant)
    player = ContractSeatPlayer()
    t_choose = t_push = t_record = 0.0
    total = 0
    for i in range(args.games):
        seed = f"bench-contract-{i}"
        game = cls.new(args.players, seed=seed)
        moves = []
        t0 = time.perf_counter()
        while not game.is_over:
            move = next_ai_move(game, range(args.players), player)
            game.push(move)
            moves.append(move)
        t_choose += time.perf_counter() - t0
        texts = [str(m) for m in moves]
        again = cls.new(args.players, seed=seed)
        t0 = time.perf_counter()
        for text in texts:
            again.push(again.parse_move(text))
        t_push += time.perf_counter() - t0
        assert again.scores() == game.scores()

        real = services.secrets.token_hex
        services.secrets.token_hex = lambda n=16, seed=seed: seed   # the same deal in the store
        try:
            row = services.game_create(variant=args.variant, players=args.players)
        finally:
            services.secrets.token_hex = real
        version = row.version
        t0 = time.perf_counter()
        for move in moves:
            version = services.game_record_move(game=row.pk, move=move.body(), expected_version=version,
                                                seat=move.seat).version
        t_record += time.perf_counter() - t0
        row.refresh_from_db()
        assert row.scores == game.scores(), (row.scores, game.scores())
        total += len(moves)
    push_rate = total / t_push
    print(f"{args.games} {args.variant} games of {args.players} players, {total} moves; database {url}")
    print(f"engine push:          {push_rate:10.0f} moves/s   (1.00x)")
    print(f"AI choose + push:     {total / t_choose:10.0f} moves/s   ({t_push / t_choose:.3f}x the push)")
    print(f"games app recording:  {total / t_record:10.0f} moves/s   ({t_push / t_record:.4f}x the push)")


if __name__ == "__main__":
    main()
