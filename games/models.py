"""Tables of the games app.

- :class:`Event`: the append-only event store. One row per event of a
  stream (a game); ``(game, version)`` is unique, which is the optimistic
  concurrency; each row carries a hash chained over the previous row's hash.
- :class:`Game`: the projection of a stream (current version, status, whose
  turn, scores, the engine state at that version). Rebuilt from events by
  ``manage.py rebuild_projections``.
- :class:`Snapshot`: the engine state every few events, so a long game is
  rebuilt from its latest snapshot and the events after it.
- :class:`SeedSecret`: the shuffle seed of a digital game until it ends.
- :class:`Seat`: a seat of a game and the hash of its credential.
- :class:`OutboxMessage`: tasks to send once the transaction commits.
- :class:`AuditVerdict`: the result of auditing a stream.
- :class:`Checkpoint`: a signed, chained record of every stream's head.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy


class AppendOnlyError(RuntimeError):
    """Raised on any attempt to change or delete a stored event."""


class AppendOnlyQuerySet(models.QuerySet):
    """Refuses bulk updates and deletes of append-only rows."""

    def update(self, **kwargs):
        raise AppendOnlyError(f"{self.model.append_only_noun} are append-only: "
                              "they are never updated")

    def delete(self):
        raise AppendOnlyError(f"{self.model.append_only_noun} are append-only: "
                              "they are never deleted")

    update.queryset_only = True
    delete.queryset_only = True


class AppendOnlyModel(models.Model):
    """An abstract row that is inserted once and never updated or deleted
    (events, result events, standings events). On PostgreSQL a trigger in
    each app's migrations refuses the same at the database."""

    append_only_noun = "rows"

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(f"{self.append_only_noun} are append-only: "
                                  "they are never updated")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(f"{self.append_only_noun} are append-only: they are never deleted")


class Game(models.Model):
    """The projection row of one game stream."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", pgettext_lazy("game status", "in progress")
        FINISHED = "finished", pgettext_lazy("game status", "finished")

    class Mode(models.TextChoices):
        DIGITAL = "digital", pgettext_lazy("game mode", "digital (secret seed)")
        TABLE = "table", pgettext_lazy("game mode", "real table (typed-in deal)")

    family = models.CharField(max_length=40)
    variant = models.CharField(max_length=40)
    rules = models.JSONField(default=dict)
    players = models.PositiveSmallIntegerField()
    first = models.PositiveSmallIntegerField(default=0)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.DIGITAL)
    title = models.CharField(max_length=200, blank=True)
    # A training game: the "play was not the best" dispute applies only here
    # (no rule obliges a tournament player to make the best play).
    training = models.BooleanField(default=False)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    version = models.PositiveIntegerField(default=0)
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    scores = models.JSONField(null=True, blank=True)
    # The engine snapshot at ``version``. Server side only: it holds the pool.
    state = models.JSONField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The game that follows this one once it is over: the same table again
    # (a rematch) or, for a tournament's game, the next game of the round.
    # Made by the first seat that asks (games.next_game.game_next).
    next_game = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="previous_game", editable=False)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status"])]

    @property
    def variant_title(self) -> str:
        """The variant's name for people in the reader's language
        ("International Rummikub"), from its family's description; the
        engine's key for a variant the engine does not know."""
        from django.utils.translation import gettext

        from engine.registry import family_for, find_variant

        try:
            return gettext(family_for(find_variant(self.variant).family).variant_title(self.variant))
        except ValueError:
            return self.variant

    def __str__(self) -> str:
        return self.title or f"{self.variant} game #{self.pk}"

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.FINISHED


class Event(AppendOnlyModel):
    """One stored event. Never updated, never deleted."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=60)
    schema_version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    actor = models.CharField(max_length=120, blank=True)
    recorded_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    # HMAC-SHA256 of ``hash`` under ``settings.GAMES_ANCHOR_KEY`` (a key kept
    # outside the database): a chain rewritten by someone who can write the
    # database but does not hold the key no longer carries valid anchors.
    anchor = models.CharField(max_length=64, blank=True, default="")

    append_only_noun = "events"

    class Meta:
        ordering = ["game_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="event_stream_version_unique"),
            models.CheckConstraint(condition=models.Q(version__gte=1), name="event_version_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.version} {self.type}"


class Snapshot(models.Model):
    """The engine state of a game after ``version`` events."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="snapshot_stream_version_unique"),
        ]


class SeedSecret(models.Model):
    """The secret shuffle seed of a digital game, kept until the game ends
    (its hash is public in the first event; the last event reveals it)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="secret")
    seed = models.CharField(max_length=128)


class Seat(models.Model):
    """A seat of a game. The credential itself is shown once; only its
    sha256 is stored."""

    class Kind(models.TextChoices):
        HUMAN = "human", "human"
        AI = "ai", "AI"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120, blank=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.HUMAN)
    ai_level = models.CharField(max_length=20, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    taken_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game_id", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="seat_game_index_unique")]

    def __str__(self) -> str:
        return f"seat {self.index} of game {self.game_id}" + (f" ({self.name})" if self.name else "")

    @property
    def is_taken(self) -> bool:
        return bool(self.token_hash)


class OutboxMessage(models.Model):
    """A task to dispatch once the transaction that wrote it commits.

    ``topic`` is the Celery task name; ``args``/``kwargs`` are JSON. Rows stay
    pending while the broker is unreachable and are sent by a later drain.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENT = "sent", "sent"
        FAILED = "failed", "failed"

    topic = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    kwargs = models.JSONField(default=dict)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="outbox")
    event_version = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # after a failed send, not tried again before this (backoff over time)
    next_attempt_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["status", "id"])]

    def __str__(self) -> str:
        return f"{self.topic}{tuple(self.args)} [{self.status}]"


class AuditVerdict(models.Model):
    """What an audit of one stream found."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="audits")
    ok = models.BooleanField()
    events_checked = models.PositiveIntegerField()
    first_bad_version = models.PositiveIntegerField(null=True, blank=True)
    problem = models.TextField(blank=True)
    checked_at = models.DateTimeField(auto_now_add=True)
    # What the verdict was made from: the stream's head, the newest
    # checkpoint, and a keyed digest of every input (each event's content,
    # hashes and anchor, the game and seat rows, the kept seed, the
    # checkpoint, the league's recorded heads). A stored verdict is answered
    # again only while the inputs give the same digest (games.audit).
    head_version = models.PositiveIntegerField(null=True, blank=True)
    head_hash = models.CharField(max_length=64, blank=True)
    checkpoint_seq = models.PositiveIntegerField(null=True, blank=True)
    fingerprint = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-checked_at", "-id"]

    def __str__(self) -> str:
        return "clean" if self.ok else f"bad at event {self.first_bad_version}: {self.problem}"


class Checkpoint(AppendOnlyModel):
    """A signed tree head, in the spirit of Certificate Transparency: every
    stream's head (``heads``: ``{"<game id>": [version, hash]}``) at one
    moment, chained to the checkpoint before (``prev_hash``) and signed
    (``signature``: an HMAC of ``hash`` under a key derived from
    ``GAMES_ANCHOR_KEY``). Written by :mod:`games.checkpoints`."""

    seq = models.PositiveIntegerField(unique=True)
    created_at = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True)
    heads = models.JSONField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    signature = models.CharField(max_length=64)

    append_only_noun = "checkpoints"

    class Meta:
        ordering = ["-seq"]

    def __str__(self) -> str:
        return f"checkpoint #{self.seq} ({len(self.heads)} streams)"


# --- workers: disputes, task states, final standings ---------------------------

class TaskState(models.TextChoices):
    """What a person waiting for a worker sees."""

    WAITING = "waiting", "waiting"
    RUNNING = "running", "running"
    DONE = "done", "done"
    FAILED = "failed", "failed"


class Dispute(models.Model):
    """A dispute on one recorded move, settled by a worker running the solver
    (Rummikub) or the engine's judge (contract rummy).

    The row is the projection of the stream's ``DisputeOpened`` and
    ``DisputeResolved`` events; ``status`` is the state of the task that
    settles it (see :mod:`games.disputes`).
    """

    class Kind(models.TextChoices):
        TABLE_INVALID = "table_invalid", "the table after the move was not valid"
        COULD_OPEN = "could_open", "the player could have made the initial meld"
        NOT_BEST = "not_best", "the play was not the best (training games)"
        WINNING_HAND = "winning_hand", "the hand that went out was not a winning one"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="disputes")
    move_version = models.PositiveIntegerField(help_text="the version of the disputed MoveRecorded event")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    opened_by_seat = models.PositiveSmallIntegerField(null=True, blank=True,
                                                      help_text="empty: opened by an official")
    actor = models.CharField(max_length=120, blank=True)
    note = models.TextField(blank=True)
    claimed_table = models.JSONField(null=True, blank=True,
                                     help_text="tiles seen on a real table, when the dispute names them")
    opened_version = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=TaskState.choices, default=TaskState.WAITING)
    attempts = models.PositiveIntegerField(default=0)
    upheld = models.BooleanField(null=True, blank=True)
    verdict = models.CharField(max_length=40, blank=True)
    summary = models.TextField(blank=True)
    evidence = models.JSONField(null=True, blank=True)
    resolved_version = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"dispute #{self.pk} on game {self.game_id} move {self.move_version} ({self.kind}, {self.status})"


class TaskRun(models.Model):
    """The state of a worker task a person waits for, by a stable ``key``
    (``standings:tournament:3:round:2``, ``autoplay:tournament:3``)."""

    name = models.CharField(max_length=120)
    key = models.CharField(max_length=200, unique=True)
    status = models.CharField(max_length=8, choices=TaskState.choices, default=TaskState.WAITING)
    attempts = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.key} [{self.status}]"


class StandingsEvent(AppendOnlyModel):
    """Final standings (of a round, a tournament) and refreshed leaderboards,
    recorded as append-only events per ``subject`` (``tournament:3:round:2``,
    ``tournament:3``, ``league:1:rummikub``, ``club:2:contract``: boards per
    game family). A new version is written
    only when the content changed (``digest`` differs from the last one)."""

    subject = models.CharField(max_length=120)
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    payload = models.JSONField()
    digest = models.CharField(max_length=64)
    actor = models.CharField(max_length=120, blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    append_only_noun = "standings events"

    class Meta:
        ordering = ["subject", "version"]
        constraints = [models.UniqueConstraint(fields=["subject", "version"],
                                               name="standingsevent_subject_version_unique")]

    def __str__(self) -> str:
        return f"{self.type} {self.subject} v{self.version}"


class GameAnalysisRow(models.Model):
    """The post-game analysis of a finished game (:mod:`games.analysis`): a
    projection of its stream, rebuilt at will. ``data`` is the engine's
    ``GameAnalysis.to_dict()``; the versions say what made it and
    ``head_version``/``head_hash`` which stream head it was made from. It
    names every rack's tiles: shown only once the game is over."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis", primary_key=True)
    data = models.JSONField()
    engine_version = models.CharField(max_length=120)
    solver_version = models.CharField(max_length=120, blank=True)
    head_version = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)
    made_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "games_analysis"

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} at event {self.head_version}"
