"""The table services: the stored hand records and their replay through muscore.rules."""

from __future__ import annotations

import pytest

from muscore import rules
from muscore.tables import services
from muscore.tables.models import Change, Hand, IdempotentWrite, Table
from tests.tables.factory import (
    make_bad_record,
    make_deje_record,
    make_hands,
    make_record,
    make_table,
    strip_labels,
    vaca_replay,
)

pytestmark = pytest.mark.django_db


def snapshot(table: Table) -> tuple:
    """Everything a rejected request must leave untouched."""
    table.refresh_from_db()
    return (
        table.revision,
        list(Hand.objects.filter(table=table).values_list("number", "record")),
        Change.objects.filter(table=table).count(),
        IdempotentWrite.objects.filter(table=table).count(),
    )


# --- create_table ---------------------------------------------------------------------------


def test_a_new_table_has_default_names_rules_and_mano():
    table = make_table()
    assert table.players == ["A1", "B1", "A2", "B2"]
    assert table.rules == {"players": 4, "reyes": 8, "target": 40, "juegos": 2, "real31": "no"}
    assert table.first_mano == 0


def test_six_names_make_a_table_of_six_with_default_names_for_blank_seats():
    table = make_table(players=["Ana", " Bruno ", "", "Diego", None, "Fede"])
    assert table.rules["players"] == 6
    assert table.players == ["Ana", "Bruno", "A2", "Diego", "A3", "Fede"]


def test_html_in_a_name_is_kept_as_text():
    table = make_table(players=["<b>Ana</b>", "B", "C", "D"])
    assert table.players[0] == "<b>Ana</b>"


def test_random_mano_comes_from_an_unpredictable_draw(monkeypatch):
    draws = []

    def randbelow(n):
        draws.append(n)
        return 3

    monkeypatch.setattr(services.checks.secrets, "randbelow", randbelow)
    assert make_table(mano="random").first_mano == 3
    assert draws == [4]


def test_the_edit_key_has_at_least_128_bits_and_ids_differ():
    tables = [make_table() for _ in range(3)]
    assert len({t.id for t in tables}) == 3
    # token_urlsafe(16): 16 random bytes in 22 base64 characters.
    assert all(len(t.edit_key) >= 22 for t in tables)
    assert tables[0].check_edit_key(tables[0].edit_key)
    assert not tables[0].check_edit_key(tables[1].edit_key)
    assert not tables[0].check_edit_key(None)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": ["x" * 10_000, "B", "C", "D"]}, "seat 1 is 10000 characters"),
        ({"players": ["A", 7, "C", "D"]}, "seat 2 must be text"),
        ({"players": ["A", "B\x00", "C", "D"]}, "control character"),
        ({"players": ["A", "B", "C"], "rules": {"players": 4}}, "3 names for a table of 4"),
        ({"players": "Ana"}, "list of names"),
        ({"rules": {"target": 5}}, "target"),
        ({"rules": {"target": True}}, "target"),
        ({"rules": {"players": 7}}, "'players' cannot be 7: it must be 2, 3, 4, 5 or 6"),
        ({"rules": {"reyes": "8"}}, "reyes"),
        ({"rules": {"juegos": 0}}, "juegos"),
        ({"rules": {"real31": "yes"}}, "real31"),
        ({"rules": {"color": "red"}}, "Unknown field 'color' in rules"),
        ({"rules": [1]}, "'rules' must be an object"),
        ({"mano": 4}, "mano must be a seat from 0 to 3"),
        ({"mano": "0"}, "mano"),
        ({"mano": True}, "mano"),
    ],
)
def test_a_bad_set_up_is_refused_with_a_message_naming_it(kwargs, words):
    with pytest.raises(services.TableError, match=words):
        make_table(**kwargs)
    assert Table.objects.count() == 0


# --- add_hand and the state ---------------------------------------------------------------------


def test_the_state_is_the_replay_of_the_stored_records():
    table = make_table(mano=2)
    records = [make_record(), make_deje_record("B"), make_record()]
    state = make_hands(table, records)
    assert state["id"] == table.id
    assert state["players"] == table.players
    assert state["finished"] == []
    assert strip_labels(state["current"]) == vaca_replay(table.rules, 2, records)
    assert state["current"]["first_hand"] == 1
    assert state["current"]["mano"] == 2
    assert services.table_state(table) == state


def test_each_hand_bumps_the_revision_and_leaves_an_audit_entry():
    table = make_table()
    first = services.add_hand(table, make_record(), via="edit_link").state
    second = services.add_hand(table, make_record(), via="api").state
    assert second["revision"] == first["revision"] + 1
    changes = services.table_changes(table)
    assert [(c.action, c.number, c.before, c.via) for c in changes] == [
        ("add", 1, None, "edit_link"),
        ("add", 2, None, "api"),
    ]
    assert changes[0].after == make_record()


def test_a_hand_that_breaks_the_rules_is_refused_and_nothing_is_saved():
    table = make_table()
    make_hands(table, [make_record()])
    before = snapshot(table)
    with pytest.raises(rules.RuleError, match="Seat 0"):
        services.add_hand(table, make_bad_record(), via="api")
    assert snapshot(table) == before


@pytest.mark.parametrize("key", ["score", "mano", "rules"])
def test_a_hand_record_carrying_what_the_table_knows_is_refused(key):
    table = make_table()
    with pytest.raises(services.TableError, match=key):
        services.add_hand(table, {**make_record(), key: 0}, via="api")
    assert not Hand.objects.exists()


def test_a_hand_record_must_be_an_object():
    table = make_table()
    with pytest.raises(services.TableError, match="JSON object"):
        services.add_hand(table, ["hands"], via="api")


def test_a_number_already_filled_is_a_conflict_carrying_the_stored_hand():
    table = make_table()
    make_hands(table, [make_record(), make_record()])
    before = snapshot(table)
    with pytest.raises(services.HandConflict, match="hand 2") as caught:
        services.add_hand(table, make_deje_record(), number=2, via="api")
    assert caught.value.hand["number"] == 2
    assert caught.value.hand["record"] == make_record()
    assert caught.value.hand["score"] == {"A": 4, "B": 16}
    assert snapshot(table) == before


def test_the_next_number_is_accepted_and_a_later_one_refused():
    table = make_table()
    services.add_hand(table, make_record(), number=1, via="api")
    with pytest.raises(services.TableError, match="the next is 2"):
        services.add_hand(table, make_record(), number=5, via="api")
    assert Hand.objects.filter(table=table).count() == 1


def test_the_same_client_id_twice_stores_one_hand_and_answers_as_the_first():
    table = make_table()
    first = services.add_hand(table, make_record(), client_id="tap-1", via="edit_link").state
    again = services.add_hand(table, make_record(), client_id="tap-1", via="edit_link").state
    assert again == first
    assert Hand.objects.filter(table=table).count() == 1


def test_the_same_idempotency_key_twice_answers_as_the_first_even_after_other_hands():
    table = make_table()
    first = services.add_hand(table, make_record(), idempotency_key="k1", via="api").state
    services.add_hand(table, make_deje_record(), via="api")
    again = services.add_hand(table, make_record(), idempotency_key="k1", via="api").state
    assert again == first
    assert Hand.objects.filter(table=table).count() == 2


def test_an_idempotency_key_reused_for_another_hand_is_refused():
    table = make_table()
    services.add_hand(table, make_record(), idempotency_key="k1", via="api")
    before = snapshot(table)
    with pytest.raises(services.IdempotencyMismatch):
        services.add_hand(table, make_deje_record(), idempotency_key="k1", via="api")
    assert snapshot(table) == before


def test_a_won_vaca_is_finished_and_the_next_hand_starts_a_new_one_with_the_rotation():
    # The seed deal six times: B wins the first juego on hand 5; with juegos=1 that is the vaca.
    table = make_table(rules={"juegos": 1}, mano=1)
    records = [make_record() for _ in range(5)]
    state = make_hands(table, records)
    assert state["finished"] and state["finished"][0]["winner"] == "B"
    assert strip_labels(state["finished"][0]) == vaca_replay(table.rules, 1, records)
    assert state["current"]["hands"] == []
    assert state["current"]["first_hand"] == 6
    next_mano = state["finished"][0]["next_mano"]
    assert state["current"]["mano"] == next_mano

    state = services.add_hand(table, make_record(), via="api").state
    assert strip_labels(state["current"]) == vaca_replay(table.rules, next_mano, [make_record()])
    assert state["current"]["hands"][0]["mano"] == next_mano
    assert [n for n, _ in services.iter_hands(state)] == [1, 2, 3, 4, 5, 6]


def test_preview_scores_the_next_hand_with_the_current_score_and_mano_without_saving():
    table = make_table(mano=3)
    state = make_hands(table, [make_record()])
    before = snapshot(table)
    result = services.preview_hand(table, make_deje_record("A"))
    assert state["current"]["next_mano"] == 0  # the mano moved one seat on, from 3 to 0
    score = state["current"]["score"]
    expected = rules.score(
        {**make_deje_record("A"), "rules": table.rules, "mano": 0, "score": score}
    )
    assert result == expected
    assert snapshot(table) == before


def test_preview_of_a_bad_hand_raises_the_rule_error():
    with pytest.raises(rules.RuleError):
        services.preview_hand(make_table(), make_bad_record())


def test_an_unchanged_table_is_not_replayed_again(monkeypatch, django_assert_max_num_queries):
    table = make_table()
    make_hands(table, [make_record(), make_record()])
    calls = []
    real = rules.replay
    monkeypatch.setattr(rules, "replay", lambda v: calls.append(1) or real(v))
    with django_assert_max_num_queries(1):
        services.table_state(table)
    assert calls == []


def test_a_stale_table_object_still_gets_the_latest_state():
    table = make_table()
    stale = Table.objects.get(pk=table.pk)
    make_hands(table, [make_record()])
    assert len(services.table_state(stale)["current"]["hands"]) == 1


# --- undo and replace -----------------------------------------------------------------------


def test_undo_restores_the_previous_score_and_the_audit_keeps_the_hand():
    table = make_table()
    earlier = make_hands(table, [make_record()])
    services.add_hand(table, make_deje_record(), via="api")
    state = services.undo_last(table, via="edit_link").state
    assert state["current"] == earlier["current"]
    assert state["revision"] == earlier["revision"] + 2
    undo = services.table_changes(table)[-1]
    assert (undo.action, undo.number, undo.before, undo.after) == (
        "undo",
        2,
        make_deje_record(),
        None,
    )


def test_undo_with_no_hand_is_refused():
    table = make_table()
    with pytest.raises(services.TableError, match="no hand to undo"):
        services.undo_last(table, via="api")
    assert not Change.objects.exists()


def test_undo_from_a_stale_revision_is_refused():
    table = make_table()
    state = make_hands(table, [make_record(), make_record()])
    before = snapshot(table)
    with pytest.raises(services.StaleEdit):
        services.undo_last(table, base_revision=state["revision"] - 1, via="api")
    assert snapshot(table) == before


def test_an_edit_replays_every_later_hand_and_says_which_changed():
    table = make_table()
    make_hands(table, [make_record(), make_record(), make_record()])
    # B's deje takes grande from A, whose cards win it en paso: the score moves by 2.
    edited = make_deje_record("B")
    state = services.replace_hand(table, 2, edited, via="api").state
    records = [make_record(), edited, make_record()]
    assert strip_labels(state["current"]) == vaca_replay(table.rules, 0, records)
    assert state["changed"] == [2, 3]
    change = services.table_changes(table)[-1]
    assert (change.action, change.number, change.before, change.after) == (
        "edit",
        2,
        make_record(),
        edited,
    )
    # "changed" is about this answer only: the stored state does not carry it.
    assert "changed" not in services.table_state(table)


def test_an_edit_that_leaves_every_score_as_it_was_reports_no_change():
    table = make_table()
    make_hands(table, [make_record(), make_record()])
    # A wins grande en paso anyway: a rejected envido of A's pays the same 1.
    state = services.replace_hand(table, 1, make_deje_record("A"), via="api").state
    assert state["changed"] == []


def test_an_edit_that_wins_the_juego_earlier_moves_every_vaca_after_it():
    table = make_table(rules={"juegos": 1, "target": 10})
    # Target 10: B wins the juego (and the vaca) on hand 2; hand 3 starts vaca 2.
    state = make_hands(table, [make_record(), make_record(), make_record()])
    assert [len(v["hands"]) for v in state["finished"]] == [2]
    # Hand 1 in órdago accepted: B's cards win grande, so B takes the vaca on hand 1.
    ordago = make_record(grande={"bets": [{"side": "A", "n": "ordago"}], "end": "quiero"})
    state = services.replace_hand(table, 1, ordago, via="api").state
    assert [len(v["hands"]) for v in state["finished"]] == [1, 2]
    assert state["current"]["first_hand"] == 4
    assert state["changed"] == [1, 2, 3]


def test_a_stale_edit_is_refused_and_changes_nothing():
    table = make_table()
    state = make_hands(table, [make_record()])
    started_at = state["revision"]
    services.add_hand(table, make_record(), via="api")
    before = snapshot(table)
    with pytest.raises(services.StaleEdit, match="changed since"):
        services.replace_hand(table, 1, make_deje_record(), base_revision=started_at, via="api")
    assert snapshot(table) == before


def test_an_edit_from_the_current_revision_is_accepted():
    table = make_table()
    state = make_hands(table, [make_record()])
    new = services.replace_hand(
        table, 1, make_deje_record(), base_revision=state["revision"], via="api"
    ).state
    assert new["revision"] == state["revision"] + 1


def test_an_edit_that_breaks_the_rules_changes_nothing():
    table = make_table()
    make_hands(table, [make_record(), make_record()])
    before = snapshot(table)
    with pytest.raises(rules.RuleError):
        services.replace_hand(table, 1, make_bad_record(), via="api")
    assert snapshot(table) == before


def test_an_edit_of_a_hand_that_does_not_exist_is_refused():
    table = make_table()
    with pytest.raises(services.HandNotFound, match="hand 3"):
        services.replace_hand(table, 3, make_record(), via="api")


# --- export and import ------------------------------------------------------------------------


def test_export_then_import_gives_an_identical_table():
    table = make_table(players=["Ana", "Bruno", "Carla", "Diego"], rules={"target": 30}, mano=2)
    make_hands(table, [make_record(), make_deje_record(), make_record()])
    exported = services.export_table(table)
    assert exported["hands"] == [make_record(), make_deje_record(), make_record()]
    # The export is a vaca replay input plus names: the engine reads it as it is.
    vaca = {k: exported[k] for k in ("rules", "mano", "hands")}
    assert rules.replay(vaca)["score"] == services.table_state(table)["current"]["score"]

    copy = services.import_table(exported, via="api")
    assert copy.id != table.id and copy.edit_key != table.edit_key
    original, imported = services.table_state(table), services.table_state(copy)
    for key in ("players", "rules", "current", "finished"):
        assert imported[key] == original[key]
    assert services.export_table(copy) == exported
    assert services.table_changes(copy)[0].action == "import"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "JSON object"),
        ({"hands": "x"}, "list of hand records"),
        ({"hands": [make_bad_record()]}, "hand 1"),
        ({"hands": [{"score": 1}]}, "score"),
        ({"extra": 1}, "unknown key 'extra'"),
        ({"format": "other"}, "not a muscore table export"),
        ({"players": ["x" * 50] * 4}, "characters long"),
    ],
)
def test_a_bad_import_creates_nothing(data, words):
    with pytest.raises(ValueError, match=words):
        services.import_table(data, via="api")
    assert not Table.objects.exists()
