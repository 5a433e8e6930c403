"""``manage.py demo``: a small Rummikub tournament, a small contract rummy
tournament and a small Okey tournament, played by AI seats.

Creates (once) a demo club, eight players, a league and a two-round
tournament at tables of four; seats each round (round 1 at random from a
recorded seed, round 2 by standings with the fewest repeat table-mates),
plays every game through the games app with the engine's AI players (every
move checked by the engine and stored as an event), records each result
from its stream, closes the rounds and prints the standings and where to
look. Then the same for a contract rummy tournament (international rules,
five of the players at tables of three, the short table filled with an AI
seat; one game of seven hands per table and round; games won, then fewest
points). Then an Okey tournament: the eight players at two tables of four,
one match a round played down from 6 points; matches won, then the points
kept. Then International Rummikub: six players at tables of three, a game
per seat and round. Running it again resumes an interrupted demo or just
prints.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from league import selectors, services
from league.models import Club, League, Player, Round, TableGame, Tournament

PLAYERS = ["Ada", "Boris", "Chen", "Dana", "Emil", "Fatima", "Goran", "Hana"]
SLUG = "demo-night"
CONTRACT_SLUG = "demo-contract"
OKEY_SLUG = "demo-okey"
INTERNATIONAL_SLUG = "demo-international"


class Command(BaseCommand):
    help = "Run a small demo tournament with AI seats and print where to see it."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=8,
                            help="number of players (default 8)")
        parser.add_argument("--rounds", type=int, default=2)
        parser.add_argument("--level", default="random", help="AI level of the seats")
        parser.add_argument("--base-url", default="",
                            help="where the site is served, for the printed links (default: the SITE_URL "
                                 "setting, else http://127.0.0.1:8000)")
        parser.add_argument("--no-admin", action="store_true",
                            help="do not create the demo admin login")
        parser.add_argument("--contract-players", type=int, default=5,
                            help="players of the contract rummy tournament (default 5; "
                                 "0 leaves it out)")
        parser.add_argument("--contract-rounds", type=int, default=2)
        parser.add_argument("--okey-players", type=int, default=8,
                            help="players of the Okey tournament, tables of four (default 8; "
                                 "0 leaves it out)")
        parser.add_argument("--international-players", type=int, default=6,
                            help="players of the International Rummikub tournament, tables of "
                                 "three (default 6; 0 leaves it out)")

    def handle(self, *args, **opts):
        started = time.monotonic()
        n = opts["players"]
        if n < 3:
            raise CommandError("the demo needs at least 3 players")
        names = (PLAYERS + [f"Player {i + 1}" for i in range(len(PLAYERS), n)])[:n]
        with transaction.atomic():
            club, _ = Club.objects.get_or_create(slug="demo-club",
                                                 defaults={"name": "Demo Rummy Club",
                                                           "city": "Arad"})
            league, _ = League.objects.get_or_create(
                slug="demo-league", defaults={"name": "Demo League", "season": "2026",
                                              "club": club})
            tournament, created = Tournament.objects.get_or_create(
                slug=SLUG, defaults={
                    "name": "Demo Rummikub Night", "club": club, "league": league,
                    "variant": "sabra", "rounds": opts["rounds"], "table_size": 4,
                    "seating_method": Tournament.Seating.STANDINGS,
                    "tiebreaks": ["wins", "points", "h2h", "penalty"],
                    "ai_fill": True,  # a player count that does not divide gets AI seats
                    "ai_level": opts["level"]})
            if created:
                for name in names:
                    player, _ = Player.objects.get_or_create(name=name, club=club)
                    services.tournament_enter(tournament=tournament, player=player,
                                              checked_in=True)
        if tournament.status == Tournament.Status.FINISHED:
            self.stdout.write("The demo tournament has already been played.")
        self._play(tournament, "demo")

        rows = selectors.tournament_standings(tournament)
        players = selectors.players_by_id(r.player for r in rows)
        self.stdout.write("\nStandings (games won, then points):")
        for r in rows:
            self.stdout.write(f"  {r.rank_label:>3}  {players[r.player].name:<10} "
                              f"W {r.metrics['wins']}  Pts {r.metrics['points']:+d}")
        contract = None
        if opts["contract_players"]:
            contract = self._contract(club, league, names, opts)
        okey = self._okey(club, names, opts) if opts["okey_players"] else None
        american = self._american(club, names, opts) if opts["international_players"] else None
        admin_note = ""
        User = get_user_model()
        if settings.DEBUG and not opts["no_admin"] and not User.objects.filter(
                is_superuser=True).exists():
            User.objects.create_superuser("admin", "admin@example.invalid", "admin")
        demo_admin = User.objects.filter(username="admin", is_superuser=True).first()
        if settings.DEBUG and demo_admin is not None and demo_admin.check_password("admin"):
            admin_note = " (demo login admin / admin: development only)"
        base = (opts["base_url"] or settings.SITE_URL or "http://127.0.0.1:8000").rstrip("/")
        self.stdout.write(
            f"\nDone in {time.monotonic() - started:.1f} s. Where to look "
            f"(served by daphne: bin/demo starts it):\n"
            f"  standings     {base}/t/{SLUG}/\n"
            f"  round 1       {base}/t/{SLUG}/round/1/\n"
            f"  club board    {base}/clubs/{club.slug}/\n"
            f"  league table  {base}/leagues/{league.slug}/\n"
            f"  ratings       {base}/ratings/\n"
            f"  CSV           {base}/t/{SLUG}/standings.csv\n"
            + (f"  contract      {base}/t/{CONTRACT_SLUG}/   (round 1: "
               f"{base}/t/{CONTRACT_SLUG}/round/1/)\n" if contract else "")
            + (f"  okey          {base}/t/{OKEY_SLUG}/   (round 1: "
               f"{base}/t/{OKEY_SLUG}/round/1/)\n" if okey else "")
            + (f"  international {base}/t/{INTERNATIONAL_SLUG}/   (round 1: "
               f"{base}/t/{INTERNATIONAL_SLUG}/round/1/)\n" if american else "")
            + f"  admin         {base}/admin/league/tournament/{tournament.pk}/change/"
            f"{admin_note}\n"
            f"The organiser's evening (staff, signed in{admin_note}):\n"
            f"  sign in       {base}/accounts/login/?next=/t/{SLUG}/check-in/\n"
            f"  new event     {base}/tournaments/new/\n"
            f"  check-in      {base}/t/{SLUG}/check-in/\n"
            f"  round desk    {base}/t/{SLUG}/round/1/desk/\n"
            f"  print round 1 {base}/t/{SLUG}/round/1/print/   (PDF: {base}/t/{SLUG}/round/1/print.pdf)\n"
            f"  projector     {base}/t/{SLUG}/projector/\n"
            f"  players CSV   {base}/players/import/   (export: {base}/players.csv)\n"
            f"Play in the browser: {base}/games/new/   (open games: {base}/games/)\n")

    def _play(self, tournament: Tournament, seed: str) -> None:
        """Seat, play (every move through the games app) and close each
        round not closed yet."""
        for number in range(1, tournament.rounds + 1):
            rnd = tournament.round_set.filter(number=number).first()
            if rnd is None:
                rnd = services.round_seat(tournament=tournament, seed=f"{seed}-round-{number}")
                self.stdout.write(f"Round {number} seated (seed {rnd.seed!r}, "
                                  f"repeat table-mates {rnd.repeat_mates}).")
            if rnd.status == Round.Status.CLOSED:
                continue
            games = TableGame.objects.filter(table__round=rnd).order_by("table__number", "number")
            for game in games:
                game = services.table_game_open_stream(game=game, all_ai=True)
                result = services.table_game_play_ai(game=game)
                game.stream.refresh_from_db()
                self.stdout.write(f"  round {number} {game}: {result.scores} "
                                  f"({game.stream.version} events)")
            services.round_close(round=rnd)
            self.stdout.write(f"Round {number} closed.")
            tournament.refresh_from_db()

    def _contract(self, club: Club, league: League, names: list[str], opts) -> Tournament:
        """The contract rummy tournament: created once, played, its
        standings printed (games won, then fewest points)."""
        n = opts["contract_players"]
        if n < 2:
            raise CommandError("the contract tournament needs at least 2 players")
        from engine.registry import find_variant

        variant = find_variant("contract-international")  # International contract rummy
        with transaction.atomic():
            tournament, created = Tournament.objects.get_or_create(
                slug=CONTRACT_SLUG, defaults={
                    "name": "Demo Contract Rummy", "club": club,  # its points are not Rummikub points: no league table
                    "family": variant.family, "variant": variant.variant,
                    "rounds": opts["contract_rounds"], "table_size": 3,
                    "seating_method": Tournament.Seating.STANDINGS,
                    "tiebreaks": selectors.default_precedence(variant.family),
                    "ai_fill": True,  # a short table gets an AI seat
                    "ai_level": services.ai_level_for(variant.family, "")})
            if created:
                for name in (names + [f"Player {i + 1}" for i in range(len(names), n)])[:n]:
                    player, _ = Player.objects.get_or_create(name=name, club=club)
                    services.tournament_enter(tournament=tournament, player=player,
                                              checked_in=True)
        self.stdout.write(f"\nContract rummy ({tournament.variant}, seven hands a game):")
        if tournament.status == Tournament.Status.FINISHED:
            self.stdout.write("The demo contract tournament has already been played.")
        self._play(tournament, "demo-contract")
        rows = selectors.tournament_standings(tournament)
        players = selectors.players_by_id(r.player for r in rows)
        self.stdout.write("Standings (games won, then fewest points):")
        for r in rows:
            self.stdout.write(f"  {r.rank_label:>3}  {players[r.player].name:<10} "
                              f"W {r.metrics['wins']}  Points {r.metrics['penalty']}")
        return tournament

    def _okey(self, club: Club, names: list[str], opts) -> Tournament:
        """The Okey tournament: one match per table of four and round,
        played down from 6 points; matches won, then points kept."""
        n = opts["okey_players"]
        if n < 4 or n % 4:
            raise CommandError("the Okey tournament seats tables of four: give 4, 8, 12 ... players")
        return self._family(club, names, n, slug=OKEY_SLUG, name="Demo Okey", label="Okey", variant="turkish-okey",
                            rules={"start_points": 6}, table_size=4,
                            title="Okey (a match from 6 points per table and round):",
                            ranked="matches won, then points kept")

    def _american(self, club: Club, names: list[str], opts) -> Tournament:
        """The International Rummikub tournament: tables of three, a game per
        seat and round; games won, then points."""
        n = opts["international_players"]
        if n < 2:
            raise CommandError("the International Rummikub tournament needs 2 players or more")
        return self._family(club, names, n, slug=INTERNATIONAL_SLUG, name="Demo International Rummikub",
                            label="International Rummikub",
                            variant="international-rummikub", rules={}, table_size=3,
                            title="International Rummikub (a game per seat at each table and round):",
                            ranked="games won, then points")

    def _family(self, club: Club, names: list[str], n: int, *, slug: str, name: str, label: str, variant: str,
                rules: dict, table_size: int, title: str, ranked: str) -> Tournament:
        """A tournament of another family: created once, two rounds seated
        by standings, played by AI seats, its standings printed."""
        from engine.registry import find_variant

        cls = find_variant(variant)
        family, variant = cls.family, cls.variant
        with transaction.atomic():
            tournament, created = Tournament.objects.get_or_create(
                slug=slug, defaults={
                    "name": name, "club": club, "family": family, "variant": variant,
                    "rules": rules, "rounds": 2, "table_size": table_size, "ai_fill": True,
                    "seating_method": Tournament.Seating.STANDINGS,
                    "ai_level": services.ai_level_for(family, "")})
            if created:
                for who in (names + [f"Player {i + 1}" for i in range(len(names), n)])[:n]:
                    player, _ = Player.objects.get_or_create(name=who, club=club)
                    services.tournament_enter(tournament=tournament, player=player, checked_in=True)
        self.stdout.write("\n" + title)
        if tournament.status == Tournament.Status.FINISHED:
            self.stdout.write(f"The demo {label} tournament has already been played.")
        self._play(tournament, slug)
        rows = selectors.tournament_standings(tournament)
        players = selectors.players_by_id(r.player for r in rows)
        self.stdout.write(f"Standings ({ranked}):")
        for r in rows:
            self.stdout.write(f"  {r.rank_label:>3}  {players[r.player].name:<10} "
                              f"W {r.metrics['wins']}  Pts {r.metrics['points']:+d}")
        return tournament
