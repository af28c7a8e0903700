"""The backup and restore management commands (issue #4 point 5)."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.management import CommandError, call_command

from muscore.tables import backups, services
from muscore.tables.models import Change, Hand, IdempotentWrite, Table
from tests.tables.factory import make_deje_record, make_hands, make_record, make_table

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def rows(queryset) -> list[dict]:
    # Django's JSON keeps times to the millisecond: compare them at that precision.
    def clean(value):
        if isinstance(value, datetime.datetime):
            return value.replace(microsecond=value.microsecond // 1000 * 1000)
        return value

    return [{k: clean(v) for k, v in row.items()} for row in queryset.values()]


def everything() -> dict:
    """The whole tables database, comparable across a backup and a restore."""
    return {
        # A restore gives every table a new epoch (the state cache's key) on purpose.
        "tables": [
            {k: v for k, v in row.items() if k != "epoch"}
            for row in rows(Table.objects.order_by("id"))
        ],
        "hands": rows(Hand.objects.order_by("table", "number")),
        "changes": rows(Change.objects.order_by("id")),
        "answers": rows(IdempotentWrite.objects.order_by("id")),
    }


def replaced(saved: dict) -> dict:
    """`saved` as a restore --replace gives it back: each table one revision on, so every
    phone's ETag of it is stale and its next poll fetches the restored state."""
    tables = [
        {**row, "revision": row["revision"] + 1, "replayed_revision": row["revision"] + 1}
        for row in saved["tables"]
    ]
    return {**saved, "tables": tables}


def make_database() -> list[Table]:
    first = make_table(players=["Ana", "<b>Bruno</b>", "Carla", "Diego"], rules={"juegos": 1})
    make_hands(first, [make_record()] * 6)
    services.replace_hand(first, 2, make_deje_record("B"), via="edit_link")
    services.undo_last(first, via="api")
    second = make_table(mano=3)
    services.add_hand(second, make_record(), idempotency_key="k", via="api")
    return [first, second]


def test_backup_then_restore_gives_back_the_same_database(tmp_path, capsys):
    tables = make_database()
    states = [services.table_state(t) for t in tables]
    saved = everything()
    backup = tmp_path / "muscore.json"
    call_command("backup", str(backup))
    assert "2 tables" in capsys.readouterr().out
    Table.objects.all().delete()
    assert not Hand.objects.exists()

    call_command("restore", str(backup))
    assert everything() == saved
    assert [services.table_state(Table.objects.get(pk=t.pk)) for t in tables] == states
    # The restored tables take new hands as before.
    services.add_hand(tables[1], make_record(), via="api")


def test_restore_refuses_a_database_with_tables_unless_told_to_replace(tmp_path):
    make_database()
    backup = tmp_path / "muscore.json"
    call_command("backup", str(backup))
    saved = everything()
    extra = make_table()
    with pytest.raises(CommandError, match="already holds 3 tables"):
        call_command("restore", str(backup))
    assert Table.objects.filter(pk=extra.pk).exists()

    call_command("restore", str(backup), replace=True)
    assert everything() == replaced(saved)


def test_a_backup_file_of_any_name_restores(tmp_path):
    make_database()
    saved = everything()
    backup = tmp_path / "muscore.bak"
    call_command("backup", str(backup))
    call_command("restore", str(backup), replace=True)
    assert everything() == replaced(saved)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("not json", "not a JSON backup"),
        ('{"model": "tables.table"}', "not a muscore backup"),
        ('[{"model": "auth.user", "pk": 1, "fields": {}}]', "not a muscore backup"),
    ],
)
def test_a_file_that_is_not_a_backup_is_refused_and_nothing_changes(tmp_path, content, words):
    make_database()
    saved = everything()
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    with pytest.raises(CommandError, match=words):
        call_command("restore", str(bad), replace=True)
    assert everything() == saved


def test_a_backup_with_a_hand_that_breaks_the_rules_is_refused_whole(tmp_path):
    make_database()
    backup = tmp_path / "muscore.json"
    call_command("backup", str(backup))
    data = json.loads(backup.read_text())
    hand = next(item for item in data if item["model"] == "tables.hand")
    hand["fields"]["record"] = {"hands": {"0": "R R R R R"}}
    backup.write_text(json.dumps(data))
    saved = everything()
    with pytest.raises(CommandError, match="invalid"):
        call_command("restore", str(backup), replace=True)
    assert everything() == saved


def test_restore_of_a_missing_file_says_so(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("restore", str(tmp_path / "nope.json"))


# ------------------------------------------------- a backup read one object at a time


class Counted(io.StringIO):
    """A text stream that counts what was read of it."""

    taken = 0

    def read(self, size: int | None = -1) -> str:
        chunk = super().read(size)
        self.taken += len(chunk)
        return chunk


@pytest.mark.parametrize("layout", ["write", "indent", "one line", "spaces"])
def test_a_backup_is_read_as_json_reads_it_whatever_its_layout(layout: str) -> None:
    items = [{"model": "tables.table", "pk": str(n), "fields": {"players": ["Ana", "[,]"],
                                                               "name": "x" * n}}
             for n in range(50)]
    text = {"write": "[\n" + ",\n".join(json.dumps(i) for i in items) + "\n]\n",
            "indent": json.dumps(items, indent=2), "one line": json.dumps(items),
            "spaces": " \n\t[ " + " , ".join(json.dumps(i) for i in items) + " ]\r\n"}[layout]
    assert list(backups.read(io.StringIO(text))) == json.loads(text) == items
    assert list(backups.read(io.StringIO(" [ ] "))) == []


def test_a_large_backup_is_read_a_chunk_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # The restore's memory is its chunk and one object: the first object comes out after
    # the first chunk, not after the whole file (the 221 MB backup was parsed whole twice,
    # 2.0 GB).
    monkeypatch.setattr(backups, "READ_SIZE", 4096)
    item = {"model": "tables.hand", "fields": {"record": "x" * 1000}}
    stream = Counted("[" + ",".join([json.dumps(item)] * 5000) + "]")
    found = backups.read(stream)
    assert next(found) == item
    assert stream.taken <= 2 * 4096
    assert sum(1 for _ in found) == 4999 and stream.taken == len(stream.getvalue())


@pytest.mark.parametrize(("text", "error"), [
    ("[{}", ValueError), ("[{", json.JSONDecodeError), ("[{} {}]", ValueError),
    ("[{}] x", ValueError),
    ('{"a": 1}', backups.NotAnArray), ("nonsense", json.JSONDecodeError), ("", ValueError),
])
def test_what_is_not_one_json_array_is_an_error(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        list(backups.read(io.StringIO(text)))
