"""Issue 19.6, offline: a second hand entered without signal is the next hand (not the
first one again), both sent are named ("Manos 1 y 2 sincronizadas."), and once the signal
is back the green "sin conexión" note does not stay beside a red refusal."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from muscore.tables.models import Hand
from tests.browser.conftest import WITH_SERVICE_WORKER
from tests.browser.test_live import (
    DEAL,
    SYNC_MS,
    Signal,
    one_phone_offline_in_the_entry,
    settle,
    tap_cards_offline,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def signal(monkeypatch: pytest.MonkeyPatch) -> Signal:
    return Signal(monkeypatch)


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
