"""Tables of the league: people, events, rounds, seats and results.

- :class:`Club`, :class:`Player` (name, club, optional login).
- :class:`League`: a season of tournaments with one league table.
- :class:`Tournament`: family, variant, rule options, number of rounds,
  table size, seating method, tie-break precedence, AI fill, status.
- :class:`Entry`: a player in a tournament (check-in, late arrival,
  withdrawal).
- :class:`Round` > :class:`Table` > :class:`Seat`; a table plays
  :class:`TableGame`\\ s (a Rummikub round: N games for N seats, the first
  player rotating). A digital game links to its event stream in ``games``.
- :class:`ResultEvent`: the append-only log of results (recorded from a
  move log or a score sheet; a correction is a new event that supersedes).
- :class:`Result`: the projection of that log, one confirmed result per
  game, enforced by a partial unique constraint.

Business rules live in :mod:`league.services`; reads in
:mod:`league.selectors`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.registry import DEFAULT_FAMILY

from games.models import AppendOnlyError, AppendOnlyModel  # noqa: F401 (re-exported)


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    city = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = slugify(self.name)[:120]
        super().save(*args, **kwargs)


class Player(models.Model):
    name = models.CharField(max_length=120)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="players")
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="league_player")
    membership = models.CharField(max_length=40, blank=True, db_index=True,
                                  help_text="the club's membership number, if any")
    rating = models.IntegerField(null=True, blank=True, help_text="a rating brought from elsewhere, if any")
    email = models.EmailField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["club", "name"],
                                               name="player_name_unique_in_club")]

    def __str__(self) -> str:
        return self.name


class League(models.Model):
    """A season: its tournaments feed one league table."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    season = models.CharField(max_length=40, help_text="e.g. 2026 or 2026/27")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="leagues")

    class Meta:
        ordering = ["-season", "name"]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = slugify(f"{self.name}-{self.season}")[:120]
        super().save(*args, **kwargs)


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft (taking entries)")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Seating(models.TextChoices):
        RANDOM = "random", _("random (fewest repeat table-mates)")
        STANDINGS = "standings", _("by standings (fewest repeat table-mates)")

    class Ranking(models.TextChoices):
        WINS = "wins", _("games won (then the tie-breaks)")
        WIN_RATE = "win_rate", _("games won per game played")
        POINTS_PER_GAME = "avg", _("points per game")
        TABLE_SCORE = "table_score", _("table score (share of the table outscored, per game)")

    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=160, unique=True)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="tournaments")
    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="tournaments")
    family = models.CharField(max_length=40, default=DEFAULT_FAMILY)
    variant = models.CharField(max_length=40, default="sabra")
    rules = models.JSONField(default=dict, blank=True,
                             help_text="rule options by name over the variant's defaults")
    rounds = models.PositiveSmallIntegerField(default=3)
    table_size = models.PositiveSmallIntegerField(default=4)
    seating_method = models.CharField(max_length=12, choices=Seating.choices,
                                      default=Seating.RANDOM)
    tiebreaks = models.JSONField(default=list, blank=True,
                                 help_text="metric keys in order, e.g. "
                                           '["wins", "points", "h2h", "penalty"]')
    ranking = models.CharField(
        max_length=12, choices=Ranking.choices, default=Ranking.WINS,
        help_text="what ranks first; a rate is fair when tables of 4 and 3 play different numbers of games")
    release_by_hand = models.BooleanField(
        default=False,
        help_text="show each round's draw and results on the public pages and the projector only when "
                  "the organiser releases them on the round's desk")
    ai_fill = models.BooleanField(default=False,
                                  help_text="fill short tables with AI seats "
                                            "instead of smaller tables")
    ai_level = models.CharField(max_length=20, default="random", blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    date = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]

    @property
    def family_info(self):
        """The family's description (:class:`engine.family.Family`): what
        a round is, its score sheet, its pages' partials."""
        from engine.registry import family_for

        return family_for(self.family)

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = slugify(self.name)[:160]
        super().save(*args, **kwargs)

    @property
    def precedence(self) -> list[str]:
        """The metric keys the standings rank by: the ranking basis first
        (unless it is games won), then the tie-breaks."""
        from .standings import ranked_precedence

        return ranked_precedence(self.ranking or "wins", self.tiebreaks)


class Entry(models.Model):
    """A player in a tournament. ``from_round`` > 1 is a late arrival;
    ``withdrawn_after`` = k means not seated after round k."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    checked_in = models.BooleanField(default=False)
    from_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_after = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "player__name"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"],
                                               name="entry_unique_player")]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    def plays_in(self, number: int) -> bool:
        """Whether this entry is seated in round ``number``."""
        if not self.checked_in or number < self.from_round:
            return False
        return self.withdrawn_after is None or number <= self.withdrawn_after


class Round(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SEATED = "seated", _("seated (games under way)")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, blank=True,
                            help_text="the seating seed, recorded so the draw can be checked")
    seating_method = models.CharField(max_length=12, blank=True)
    repeat_mates = models.PositiveIntegerField(default=0)
    repeat_seats = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    started_at = models.DateTimeField(null=True, blank=True,
                                      help_text="when the organiser started the round's clock")
    #: whether the public pages and the projector show the round's draw and
    #: its results (a tournament released by hand seats rounds with both
    #: withheld; the organiser releases them on the desk)
    draw_released = models.BooleanField(default=True)
    results_released = models.BooleanField(default=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"],
                                               name="round_unique_number")]

    def __str__(self) -> str:
        return gettext("%(tournament)s round %(n)s") % {"tournament": self.tournament, "n": self.number}


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    #: the table's short link to its score entry (/s/<code>/), made when
    #: first printed or shown; it stops working when the round closes
    entry_code = models.CharField(max_length=16, blank=True, default="", db_index=True)

    class Meta:
        ordering = ["round_id", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"],
                                               name="table_unique_number")]

    def __str__(self) -> str:
        return gettext("table %(n)s") % {"n": self.number}


class Seat(models.Model):
    """A seat at a table: an entry, or an AI player when ``entry`` is empty."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="seats")
    ai_level = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["table_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["table", "entry"], name="seat_unique_entry"),
        ]

    def __str__(self) -> str:
        return str(self.entry.player) if self.entry_id else gettext("AI (%(level)s)") % {"level": self.ai_level or "random"}

    @property
    def is_ai(self) -> bool:
        return self.entry_id is None


class TableGame(models.Model):
    """Game ``number`` (1..N) of a table's round; seat ``first`` starts.

    ``stream`` is the games app's event stream when the game is played
    through the system; a game from a real table has none and takes a
    score sheet.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    first = models.PositiveSmallIntegerField(default=0)
    stream = models.OneToOneField("games.Game", null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="league_game")

    class Meta:
        ordering = ["table_id", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"],
                                               name="tablegame_unique_number")]

    def __str__(self) -> str:
        return gettext("%(table)s, game %(n)s") % {"table": self.table, "n": self.number}


class ResultEvent(AppendOnlyModel):
    """One stored result event of a game. Never updated, never deleted.

    Types: ``ResultRecorded`` (first result), ``ResultCorrected`` (supersedes
    the result in force). Payload: ``source`` (``"moves"`` or
    ``"score_sheet"``), ``scores`` (one integer per seat position),
    ``winners`` (seat positions), and for a score sheet the ``racks`` typed
    in and the ``ending``.
    """

    RECORDED = "ResultRecorded"
    CORRECTED = "ResultCorrected"

    game = models.ForeignKey(TableGame, on_delete=models.PROTECT, related_name="result_events")
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    payload = models.JSONField()
    actor = models.CharField(max_length=120, blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    append_only_noun = "result events"

    class Meta:
        ordering = ["game_id", "version"]
        constraints = [models.UniqueConstraint(fields=["game", "version"],
                                               name="resultevent_unique_version")]

    def __str__(self) -> str:
        return f"{self.type} v{self.version} of {self.game}"


class Result(models.Model):
    """Projection of the result events: each event's result, the one in
    force ``confirmed``, the earlier ones ``superseded``."""

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("confirmed")
        SUPERSEDED = "superseded", _("superseded")

    game = models.ForeignKey(TableGame, on_delete=models.CASCADE, related_name="results")
    event = models.OneToOneField(ResultEvent, on_delete=models.CASCADE, related_name="result")
    status = models.CharField(max_length=10, choices=Status.choices)
    source = models.CharField(max_length=12)
    scores = models.JSONField(help_text="one integer per seat position")
    winners = models.JSONField(help_text="seat positions")

    class Meta:
        ordering = ["game_id", "event_id"]
        constraints = [
            models.UniqueConstraint(fields=["game"], condition=models.Q(status="confirmed"),
                                    name="result_one_confirmed_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.scores} ({self.status})"



class SheetEntry(models.Model):
    """A score sheet entered by a player at the table (the table's page on a
    phone), waiting for a second player to confirm it, as a ballot is
    double-confirmed in Tabbycat: the same sheet from another player records
    the result; a different one opens a discrepancy for the organiser, who
    accepts one of them (or accepts a lone entry, or sends entries back to
    be entered again). Entries are never edited into a result: the result
    is a :class:`ResultEvent` of its own."""

    class Status(models.TextChoices):
        ENTERED = "entered", _("entered, waiting for a second player")
        CONFIRMED = "confirmed", _("confirmed by a second player")
        DISCREPANCY = "discrepancy", _("differs from another player's entry")
        ACCEPTED = "accepted", _("accepted by the organiser")
        REPLACED = "replaced", _("replaced")
        RETURNED = "returned", _("sent back by the organiser")

    game = models.ForeignKey(TableGame, on_delete=models.CASCADE, related_name="sheet_entries")
    by = models.CharField(max_length=120, help_text="the player who entered it")
    sheet = models.JSONField(help_text="the sheet as entered (racks, hands or game lines)")
    checked = models.JSONField(help_text="the engine's reading of it: scores, winners, the sheet")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ENTERED)
    created_at = models.DateTimeField(auto_now_add=True)
    device = models.CharField(max_length=16, blank=True, default="",
                              help_text="the phone it came from: its browser session's mark")
    agent = models.CharField(max_length=200, blank=True, default="", help_text="the phone's browser (User-Agent)")

    class Meta:
        ordering = ["game_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.game}: {self.by} ({self.status})"


class SeatingConflict(models.Model):
    """Two players of a tournament who must not sit at one table (family, a
    team): the seating keeps them apart where the tables allow, and the
    desk's swap costs count them. Stored with ``player_a`` the lower id."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="seating_conflicts")
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=120, blank=True, help_text="e.g. family, the same team")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player_a", "player_b"], name="seating_conflict_unique"),
            models.CheckConstraint(condition=models.Q(player_a__lt=models.F("player_b")),
                                   name="seating_conflict_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.player_a} / {self.player_b} in {self.tournament}"
