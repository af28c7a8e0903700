"""A correction keeps every field it did not change, as it was entered (issue 38.3).

Any stored hand (the shared examples of 4 players, their cards written in any order,
case and alias: "4 5 2 7", "r r 5 4", "12 10 a 7"), corrected through the hand page in one
field (nothing, a lance's answer, one seat's cards, one seat's declaration), keeps every
other field byte for byte, and the audit of the correction lists that field alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from muscore import rules
from muscore.tables import audit, services
from muscore.tables.models import Change, Hand, Table
from tests.tables.test_declarations import fields_of

pytestmark = pytest.mark.django_db

PLAYERS = ["Ana", "Bruno", "Carla", "Diego"]
DATA = Path(__file__).resolve().parents[1] / "rules" / "data" / "hands.jsonl"


def _examples() -> list[dict[str, Any]]:
    out = []
    for line in DATA.read_text().splitlines():
        example = json.loads(line)
        record = example["record"]
        table_rules = rules.Rules.from_json(record.get("rules") or {}).to_json()
        if "error" in example.get("expect", {}) or table_rules.get("players", 4) != 4:
            continue
        out.append(record)
    return out


EXAMPLES = _examples()
WRITINGS = {"R": ["R", "r", "12"], "C": ["C", "c", "11"], "S": ["S", "s", "10"],
            "1": ["1", "A", "a"]}
OTHER_CARDS = ["R R R 1", "7 7 6 5", "C S 4 4", "1 1 1 1", "R 7 5 2"]


@st.composite
def stored_hands(draw: st.DrawFn) -> dict[str, Any]:
    """One example, each seat's cards written as a person might have typed them."""
    record = json.loads(json.dumps(draw(st.sampled_from(EXAMPLES))))
    for seat, text in (record.get("hands") or {}).items():
        cards = draw(st.permutations(text.split()))
        written = [draw(st.sampled_from(WRITINGS.get(card, [card]))) for card in cards]
        record["hands"][seat] = " ".join(written)
    return dict(record)


changes = st.one_of(
    st.just(("nothing",)),
    st.tuples(st.just("end"), st.sampled_from(["grande", "chica", "pares", "juego", "punto"])),
    st.tuples(st.just("cards"), st.integers(0, 3), st.sampled_from(OTHER_CARDS)),
    st.tuples(st.just("declared"), st.integers(0, 3), st.sampled_from(["dp", "dj"]),
              st.sampled_from(["si", "no"])),
)


def stored_table(example: dict[str, Any]) -> Table:
    table = services.create_table(players=PLAYERS, rules=example.get("rules"),
                                  mano=example.get("mano", 0))
    for side, points in (example.get("score") or {}).items():
        if points:
            services.add_piedras(table, side, points, via="api")
    record = {k: v for k, v in example.items() if k not in ("rules", "mano", "score")}
    services.add_hand(table, record, via="api")
    return table


def corrected(fields: dict[str, str], change: tuple[Any, ...]) -> tuple[dict[str, str], str]:
    """The form's fields with one field changed, and the record's part it is in."""
    fields = dict(fields)
    kind = change[0]
    if kind == "end":
        lance = change[1]
        assume(fields.get(f"e_{lance}") in ("quiero", "no_quiero"))
        fields[f"e_{lance}"] = "no_quiero" if fields[f"e_{lance}"] == "quiero" else "quiero"
        return fields, "lances"
    if kind == "cards":
        seat, cards = change[1], change[2]
        assume(fields.get(f"c{seat}"))
        fields[f"c{seat}"] = cards
        return fields, "hands"
    if kind == "declared":
        seat, key, said = change[1], change[2], change[3]
        assume(f"{key}{seat}" in fields and fields[f"{key}{seat}"] != said)
        fields[f"{key}{seat}"] = said
        return fields, "declared"
    return fields, ""


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(example=stored_hands(), change=changes)
def test_a_correction_in_one_field_keeps_every_other_field(
    client: Client, example: dict[str, Any], change: tuple[Any, ...]
) -> None:
    table = stored_table(example)
    number = Hand.objects.filter(table=table).count()
    before = Hand.objects.get(table=table, number=number).record
    edit = reverse("tables:edit_hand", args=[table.id, table.edit_key, number])
    page = client.get(edit)
    assert page.status_code == 200
    fields, part = corrected(fields_of(page), change)
    answer = client.post(edit, {**fields, "act": "save"})
    assume(answer.status_code == 302)  # a change the engine refuses is not stored at all
    after = Hand.objects.get(table=table, number=number).record
    for key in set(before) | set(after):
        if key != part:
            assert json.dumps(before.get(key)) == json.dumps(after.get(key)), key
    if part in ("hands", "lances", "declared"):
        old, new = before.get(part) or {}, after.get(part) or {}
        touched = {str(change[1])}
        for key in set(old) | set(new):
            if key not in touched:
                assert json.dumps(old.get(key)) == json.dumps(new.get(key)), (part, key)
    edit_change = Change.objects.filter(table=table, action=Change.Action.EDIT).get()
    said = audit.record_changes(edit_change.before, edit_change.after, PLAYERS)
    assert len(said) == (0 if part == "" or before == after else 1), said


def test_correcting_an_answer_logs_the_answer_alone_and_keeps_the_cards_as_entered(
    client: Client,
) -> None:
    """The issue's walk: Ana's 4 5 2 7 entered on the page; quiero corrected to no quiero.
    The log said "cartas de Ana: 4 5 2 7 -> 7 5 4 2" and the record held them re-sorted."""
    table = services.create_table(players=PLAYERS)
    cards = {"c0": "4 5 2 7", "c1": "R C C 5", "c2": "1 1 6 7", "c3": "S S 7 7"}
    new = reverse("tables:hand", args=[table.id, table.edit_key])
    saved = client.post(new, {**cards, "b_grande": "A2", "e_grande": "quiero", "act": "save"})
    assert saved.status_code == 302
    assert Hand.objects.get().record["hands"]["0"] == "4 5 2 7"
    edit = reverse("tables:edit_hand", args=[table.id, table.edit_key, 1])
    fields = fields_of(client.get(edit))
    assert fields["c0"] == "4 5 2 7"  # the form shows them as entered
    answer = client.post(edit, {**fields, "e_grande": "no_quiero", "act": "save"})
    assert answer.status_code == 302
    record = Hand.objects.get().record
    assert record["hands"] == {"0": "4 5 2 7", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
    assert record["lances"]["grande"] == {"bets": [{"side": "A", "n": 2}], "end": "no_quiero"}
    edit_change = Change.objects.get(action=Change.Action.EDIT)
    said = audit.record_changes(edit_change.before, edit_change.after, PLAYERS)
    assert said == ["apuestas a grande: Ana y Carla: envido 2, Bruno y Diego: quiero -> "
                    "Ana y Carla: envido 2, Bruno y Diego: no quiero"]


def test_the_fourth_lances_bets_follow_it_from_punto_to_juego(client: Client) -> None:
    """Bets said on the fourth lance while the page read it as punto (a seat's cards not yet
    in, or a phone that kept them as "juego o punto") are juego's once the cards say juego:
    stored there, not dropped without a word."""
    table = services.create_table(players=PLAYERS)
    new = reverse("tables:hand", args=[table.id, table.edit_key])
    cards = {"c0": "R R C 1", "c1": "R S C 1", "c2": "4 5 6 7", "c3": "4 5 6 7"}
    saved = client.post(new, {**cards, "b_punto": "A2", "e_punto": "quiero", "act": "save"})
    assert saved.status_code == 302
    record = Hand.objects.get().record
    assert record["lances"] == {"juego": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}}


def test_a_declaration_that_turns_punto_into_juego_where_nobody_can_bet_is_said(
    client: Client,
) -> None:
    """Hypothesis found it: a hand played at punto with an envite, corrected in one field
    (Ana said "juego sí" without juego: the fourth lance was juego, and only her side held
    it). The bets were stored as nothing without a word; now the page says why they go,
    and nothing is stored until the table saves again."""
    table = stored_table({"hands": {"0": "R 7 6 4", "1": "R S 5 5", "2": "R 7 4 4",
                                    "3": "S 7 6 6"},
                          "lances": {"punto": {"bets": [{"side": "A", "n": 2}],
                                               "end": "quiero"}}})
    before = Hand.objects.get(table=table).record
    edit = reverse("tables:edit_hand", args=[table.id, table.edit_key, 1])
    fields = fields_of(client.get(edit))
    answer = client.post(edit, {**fields, "dj0": "si", "act": "save"})
    assert answer.status_code == 400
    assert "En juego no se apuesta" in answer.content.decode()
    assert Hand.objects.get(table=table).record == before
    assert not Change.objects.filter(table=table, action=Change.Action.EDIT).exists()
