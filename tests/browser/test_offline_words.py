"""Issue 19.6, offline: a second hand entered without signal is the next hand (not the
first one again), both sent are named ("Manos 1 y 2 sincronizadas."), and once the signal
is back the green "sin conexión" note does not stay beside a red refusal."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from muscore.tables import services
from muscore.tables.models import Hand
from tests.browser.conftest import WITH_SERVICE_WORKER
from tests.browser.test_live import (
    DEAL,
    SYNC_MS,
    Signal,
    edit_path,
    one_phone_offline_in_the_entry,
    settle,
    tap_cards_offline,
    wait_for_kept_pages,
    wait_for_service_worker,
)

pytestmark = pytest.mark.django_db(transaction=True)


def save_offline(page: Page) -> None:
    with page.expect_navigation():
        page.locator('[data-action="save"]').click()
    settle(page)


@WITH_SERVICE_WORKER
def test_a_second_offline_hand_is_the_next_one_and_both_are_said_synced(
    phone: Page, signal: Signal
) -> None:
    table, a = one_phone_offline_in_the_entry(phone, signal)
    settle(a)
    expect(a.locator("h1")).to_have_text("Mano 1")
    tap_cards_offline(a, DEAL)
    save_offline(a)
    expect(a.locator("[data-synced]")).to_contain_text("la mano 1 queda guardada")
    # "Anotar mano" again without signal: the phone's copy is of hand 1's page, but the
    # hand to enter is 2.
    with a.expect_navigation():
        a.locator('[data-action="enter-hand"]').click()
    settle(a)
    expect(a.locator("h1")).to_have_text("Mano 2")
    assert a.locator('input[name="number"]').get_attribute("value") == "2"
    assert a.title().startswith("Mano 2")
    tap_cards_offline(a, DEAL)
    save_offline(a)
    expect(a.locator("[data-synced]")).to_contain_text("la mano 2 queda guardada")
    queued = a.evaluate("() => JSON.parse(localStorage.getItem('muscore:queue'))")
    assert [item["number"] for item in queued] == [1, 2]
    signal.on(a, "A")
    expect(a.locator("[data-synced]")).to_have_text("Manos 1 y 2 sincronizadas.", timeout=SYNC_MS)
    assert sorted(Hand.objects.values_list("number", flat=True)) == [1, 2]


@WITH_SERVICE_WORKER
def test_a_refusal_once_online_is_not_shown_beside_the_offline_note(
    phone: Page, signal: Signal
) -> None:
    table, a = one_phone_offline_in_the_entry(phone, signal)
    # Saved without signal before anything was entered: the server will refuse it.
    save_offline(a)
    expect(a.locator("[data-synced]")).to_contain_text("Sin conexión")
    signal.on(a, "A")
    refused = a.locator("[data-refused]")
    expect(refused).to_contain_text("La mano 1 guardada sin conexión no se envió", timeout=SYNC_MS)
    expect(a.locator("[data-synced]")).to_be_hidden()
    expect(a.locator("[data-offline]")).to_be_hidden()


@WITH_SERVICE_WORKER
def test_a_refusal_of_two_reasons_reads_as_two_sentences(phone: Page, signal: Signal) -> None:
    """Issue 30.6: a hand kept offline with two bets left unanswered is refused for both,
    each in a paragraph of the server's answer; the phone's note glued them together
    ("...Bruno y Diego.Chica: falta...")."""
    table, a = one_phone_offline_in_the_entry(phone, signal)
    settle(a)
    # No cards, an envido unanswered: the answer and each lance's winner are missing.
    a.locator('button[name="act"][value="bet:grande:A:2"]').click()
    expect(a.locator("[data-offline-entry]")).to_have_count(1)
    save_offline(a)
    signal.on(a, "A")
    refused = a.locator("[data-refused]")
    expect(refused).to_contain_text("La mano 1 guardada sin conexión no se envió", timeout=SYNC_MS)
    text = refused.inner_text()
    assert "Grande" in text and "Chica" in text, text
    assert not re.search(r"[.:][^\s\d]", text.replace("...", "")), text
    assert not Hand.objects.exists()


def turn_line(page: Page) -> str:
    return " ".join(page.locator("p.turn").inner_text().split())


@WITH_SERVICE_WORKER
@pytest.mark.parametrize(
    "players",
    [["Ana", "Bruno", "Carla", "Diego"], ["Ana", "Bruno"], ["Ana", "Bruno", "Carla"]],
    ids=["pairs", "two", "individual-three"],
)
def test_the_mano_moves_on_with_every_hand_kept_offline(
    phone: Page, signal: Signal, players: list[str]
) -> None:
    """Each hand saved without signal moves the mano one seat on, as the table deals
    (rules.md: mano + 1, the old mano deals): the board's copy and the hand page opened
    from it say the next hand's mano and dealer, the seats in speaking order from him, his
    card field named as the mano's; the score before it, which only the server can count,
    is not said as the first hand's. The second hand kept the first one's mano words."""
    n = len(players)
    table = services.create_table(players=players)
    a = phone
    a.goto(edit_path(table))
    signal.name(a, "A")
    wait_for_service_worker(a)
    wait_for_kept_pages(a, [edit_path(table) + "mano"])
    signal.off(a, "A")
    for number in (1, 2, 3):
        mano = (number - 1) % n
        with a.expect_navigation():
            a.locator('[data-action="enter-hand"]').click()
        settle(a)
        expect(a.locator("h1")).to_have_text(f"Mano {number}")
        before = " ".join(a.locator("[data-entry-before]").inner_text().split())
        assert before.endswith(f"mano: {players[mano]}"), before
        if number > 1:
            assert "0–0" not in before and " 0 " not in before, before
        seats = a.locator("[data-picker-seat]").evaluate_all(
            "rows => rows.map(r => Number(r.getAttribute('data-picker-seat')))")
        assert seats == [(mano + i) % n for i in range(n)]
        labels = [a.locator(f"#id_c{seat}").get_attribute("aria-label") for seat in range(n)]
        assert labels == [
            f"cartas de {name}, mano" if seat == mano else f"cartas de {name}"
            for seat, name in enumerate(players)
        ]
        if number == 3:
            break
        tap_cards_offline(a, DEAL)
        save_offline(a)
        expect(a.locator("[data-synced]")).to_contain_text(f"la mano {number} queda guardada")
        nxt = number % n
        assert turn_line(a) == f"Mano: {players[nxt]} · da: {players[(nxt - 1) % n]}"
    signal.on(a, "A")
    expect(a.locator("[data-synced]")).to_have_text("Manos 1 y 2 sincronizadas.", timeout=SYNC_MS)
    state = services.table_state(table)["current"]
    assert [hand["mano"] for hand in state["hands"]] == [0, 1 % n]
    # The board the server draws once the hands are in says what the copy said.
    a.goto(edit_path(table))
    assert turn_line(a) == f"Mano: {players[2 % n]} · da: {players[1 % n]}"
