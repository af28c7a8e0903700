"""Storage for a table: who sits where, the options, and the hand records.

The stored truth is the hand records. Scores, juegos, vacas and the mano are
never stored: `muscore.tables.services.table_state` replays the records through
`muscore.rules`. Every change leaves a `Change` row, so nothing is ever lost.
Business logic lives in the `services` package, not here.
"""

from __future__ import annotations

import secrets

from django.db import models


def new_table_id() -> str:
    # 12 random bytes: not guessable, and there is no listing of tables anywhere.
    return secrets.token_urlsafe(12)


def new_edit_key() -> str:
    # 16 random bytes = 128 bits, the floor issue #4 sets for the edit link's secret.
    return secrets.token_urlsafe(16)


def new_epoch() -> str:
    # Changed by a restore: a cached state of the table before it can never be served again.
    return secrets.token_urlsafe(6)


class Table(models.Model):
    """One table's game: players by seat, the options, the first mano.

    Table knows nothing about pages, links or leagues: anything that wants a
    table (the board pages, the API, a future league match) points at it by id,
    so a league match can reference a Table later without changing this model.
    `revision` is bumped on every change and serves as the ETag of the state; a
    restore bumps it too. `epoch` changes at every restore and is part of the state
    cache's key. `replayed_revision` is the revision the stored vacas
    (`VacaCheckpoint`) were replayed at: when it differs from `revision` (a table
    from before checkpoints, or loaded by hand) they are replayed again from the records.
    """

    id = models.CharField(primary_key=True, max_length=32, default=new_table_id, editable=False)
    edit_key = models.CharField(max_length=64, default=new_edit_key, editable=False)
    players = models.JSONField()
    rules = models.JSONField()
    first_mano = models.PositiveSmallIntegerField(default=0)
    revision = models.PositiveIntegerField(default=1)
    epoch = models.CharField(max_length=16, default=new_epoch, editable=False)
    replayed_revision = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"table {self.id}"

    def check_edit_key(self, key: str | None) -> bool:
        """True when `key` is this table's edit key (constant-time comparison)."""
        if not key:
            return False
        return secrets.compare_digest(key.encode(), self.edit_key.encode())


class Hand(models.Model):
    """A hand record as entered, without score or mano: the table knows them.

    `number` runs 1, 2, 3... across the whole table, through every vaca.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    record = models.JSONField()
    # Null: entered without a client id; the partial unique constraint below skips nulls.
    client_id = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique"),
            # A double tap sends the same client id twice: the database refuses the second row.
            models.UniqueConstraint(
                fields=["table", "client_id"],
                condition=models.Q(client_id__isnull=False),
                name="hand_client_id_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.table_id}"


class Change(models.Model):
    """The audit: one row per add, edit, undo, redo or import, with the records before and after."""

    class Action(models.TextChoices):
        ADD = "add", "add"
        EDIT = "edit", "edit"
        UNDO = "undo", "undo"
        # A hand undone by mistake brought back: its record comes from the undo's "before".
        REDO = "redo", "redo"
        IMPORT = "import", "import"

    class Via(models.TextChoices):
        EDIT_LINK = "edit_link", "edit link"
        API = "api", "api"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    number = models.PositiveIntegerField(null=True, blank=True)
    # null before an add, null after an undo; an undone hand lives on here.
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    via = models.CharField(max_length=10, choices=Via.choices)
    # Null: a write sent without a key. Backups (dumpdata) of every earlier version carry
    # null here, and loaddata of one into a NOT NULL column would fail.
    idempotency_key = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    revision = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["table", "at", "id"]
        indexes = [models.Index(fields=["table", "at"])]

    def __str__(self) -> str:
        return f"{self.action} hand {self.number} of {self.table_id}"


class IdempotentWrite(models.Model):
    """The first answer to a write sent with an Idempotency-Key (or a form's client id).

    The same submission sent again gets this answer back and stores nothing.
    `fingerprint` tells a true retry from a different request reusing the key.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="idempotent_writes")
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    # The answer's JSON text, byte for byte: PostgreSQL's jsonb would reorder its keys.
    body = models.TextField()
    # The table's revision the answer shows (its ETag), so a retry is answered without
    # parsing the body.
    revision = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "key"], name="idempotent_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.key} on {self.table_id}"


class VacaCheckpoint(models.Model):
    """One vaca of a table as replayed: where it starts and what its replay gave.

    Derived from the hand records (which stay the truth) and rewritten in the same
    transaction as every change, so a write replays only from the start of the vaca
    of the hand it touches and a read replays nothing. A vaca starts at 0-0 with its
    own first mano, so (first_hand, mano) is all a replay from it needs. A table has
    its finished vacas (winner set) and then exactly one current vaca (winner null,
    possibly without hands yet), indexed 0, 1, 2... `result` is the vaca's replay
    output labelled with first_hand and mano, as JSON text: a read sends it as it is.
    `summary` is the same vaca without its hands (juegos, winner, score, next_mano,
    first_hand, mano, hand_count), as JSON text: the board and the API's default read take
    it for every finished vaca, so their cost does not grow with the table's hands.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="vacas")
    index = models.PositiveIntegerField()
    first_hand = models.PositiveIntegerField()
    mano = models.PositiveSmallIntegerField()
    hand_count = models.PositiveIntegerField()
    # Null: the current vaca, not won yet (the engine's "winner": null, stored as it is).
    winner = models.CharField(max_length=1, null=True, blank=True)  # noqa: DJ001
    result = models.TextField()
    # Empty only on a row stored before the column (migration 0005 fills those; a read
    # that meets one takes the summary from `result`).
    summary = models.TextField(default="", blank=True)

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="vaca_index_unique"),
        ]
        indexes = [
            # What the board and the API's default read take of every vaca, answered from
            # the index alone: on SQLite a column stored after the long `result` is reached
            # through that text's overflow pages, which a full table's read would walk.
            models.Index(
                fields=["table", "index", "hand_count", "summary"], name="vaca_summary_covering"
            ),
        ]

    def __str__(self) -> str:
        return f"vaca {self.index} of {self.table_id}"
