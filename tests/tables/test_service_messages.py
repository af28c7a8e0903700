"""Service refusals in two languages: English in str() (the API, the logs), the page's
language in page_message() (Spanish by default, English from the catalogue)."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from muscore.tables import services

pytestmark = pytest.mark.django_db

SERVICES = Path(services.__file__).parent
CATALOGUE = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.mo"


def service_msgids() -> list[str]:
    """Every _("...") template in the services package (implicitly joined strings included)."""
    found = []
    nodes = [n for f in sorted(SERVICES.glob("*.py")) for n in ast.walk(ast.parse(f.read_text()))]
    for node in nodes:
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_":
            (arg,) = node.args
            assert isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            found.append(arg.value)
    return found


def test_every_service_message_has_its_english_in_the_compiled_catalogue() -> None:
    with CATALOGUE.open("rb") as handle:
        english = gettext.GNUTranslations(handle)
    msgids = service_msgids()
    assert len(msgids) >= 25
    missing = [m for m in msgids if english.gettext(m) == m]
    assert not missing, missing


def test_str_is_english_and_the_page_message_follows_the_active_language() -> None:
    with pytest.raises(services.TableError) as caught:
        services.create_table(players=["Ana", "Bruno", "x" * 41, "Diego"])
    error = caught.value
    assert str(error) == "the name of seat 3 is 41 characters long; at most 40"
    with translation.override("es"):
        assert str(error) == "the name of seat 3 is 41 characters long; at most 40"
        assert error.page_message() == "el nombre del asiento 3 tiene 41 caracteres; como mucho 40"
    with translation.override("en"):
        assert error.page_message() == str(error)


def test_an_engine_error_inside_a_service_error_is_in_the_page_language_too() -> None:
    with pytest.raises(services.TableError) as caught:
        services.import_table({"hands": [{"hands": {"0": "R R R R R"}}]}, via="api")
    error = caught.value
    assert str(error).startswith("hand 1: Seat 0 has 5 cards")
    with translation.override("es"):
        assert error.page_message().startswith("mano 1: El asiento 0 tiene 5 cartas")


def test_the_api_answers_in_english_whatever_the_phone_speaks() -> None:
    client = Client(headers={"Accept-Language": "es-ES,es;q=0.9"})
    response = client.get("/api/v1/tables/nosuchtable/hands/3")
    assert response.status_code == 404
    assert response.json()["error"] == "there is no such table"


def test_a_record_the_engine_chokes_on_is_a_rule_error_in_the_page_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An engine slip (a TypeError where a RuleError was due) must still reach the player
    # as a refusal he can read, on a Spanish page in Spanish, and never as a crash.
    from muscore import rules as rules_engine
    from muscore.handentry.messages import rule_message

    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])

    def choke(record: object) -> dict[str, object]:
        raise TypeError("unexpected")

    monkeypatch.setattr(rules_engine, "score", choke)
    with pytest.raises(rules_engine.RuleError) as caught:
        services.preview_hand(table, {"jugadas": {}})
    error = caught.value
    assert str(error) == "this hand could not be read (TypeError: unexpected)"
    with translation.override("es"):
        assert rule_message(error) == "esta mano no se puede leer (TypeError: unexpected)"
    with translation.override("en"):
        assert rule_message(error) == str(error)


def test_a_page_says_any_refusal_as_a_sentence_in_its_language() -> None:
    """The board's one wording of a refusal (tables.views.refusal): the table's fragment
    and the engine's error alike, capitalised, with its full stop, in the page's language."""
    from django.utils.translation import gettext_lazy

    from muscore import rules
    from muscore.tables.views import refusal

    nothing = services.TableError(gettext_lazy("no hay ninguna mano que deshacer"))
    assert refusal(nothing) == "No hay ninguna mano que deshacer."
    with translation.override("en"):
        assert refusal(nothing) == "There is no hand to undo."
    try:
        rules.score({"rules": {"players": 5}})
    except rules.RuleError as error:
        engine = refusal(error)
    assert engine[:1].isupper() and engine.endswith(".") and not engine.endswith("..")
