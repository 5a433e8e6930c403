"""``manage.py demo_games``: a few seeded games played by AI seats through
the games services (a games-only demo, without the league)."""

from django.core.management.base import BaseCommand, CommandError

from engine.rummikub.ai import LEVELS
from games import services
from games.audit import audit_game


class Command(BaseCommand):
    help = "Play a few Sabra Rummikub games with AI seats through the event store, audit them, print links."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=3)
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--level", default="random", help=f"AI level ({', '.join(LEVELS)})")
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")

    def handle(self, *args, **opts):
        player_cls = LEVELS.get(opts["level"])
        if player_cls is None:
            raise CommandError(f"unknown AI level {opts['level']!r} (known: {', '.join(LEVELS)})")
        for n in range(1, opts["games"] + 1):
            names = [f"AI {i + 1}" for i in range(opts["players"])]
            game = services.game_create(variant="sabra", players=opts["players"], title=f"Demo game {n}",
                                        seats=[{"name": x, "kind": "ai", "ai_level": opts["level"]} for x in names],
                                        first=(n - 1) % opts["players"], actor="demo")
            players = [player_cls(f"demo:{game.pk}:{i}") for i in range(opts["players"])]
            while True:
                game.refresh_from_db()
                if game.is_over:
                    break
                state = services.load_state(game)
                services.game_record_move(game=game, move=str(players[state.to_move].choose(state)),
                                          expected_version=game.version, actor=f"ai:{opts['level']}")
            verdict = audit_game(game)
            self.stdout.write(f"{game}: scores {game.scores}, {game.version} events, audit "
                              f"{'clean' if verdict.ok else verdict.problem}  {opts['base_url']}/games/{game.pk}/")
