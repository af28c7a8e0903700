"""French (issue 18): three of the seven provinces are in France, and the championship
announces in French too. The key pages, asked for in French by the browser
(Accept-Language) or the switch, speak French with the words French Basque-country
tables use (grand, petit, paires, jeu, point, hordago), and no other language's text."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from muscore.tables.models import Table
from muscore.tables.offline import offline_words
from tests.championships.factory import drawn_semifinal, small_championship
from tests.clubs.factory import make_club, make_league, make_pair
from tests.leagues.test_league_pages import urls as league_urls
from tests.tables.factory import make_deje_record, make_hands, make_record, make_table
from tests.test_languages_pages import foreign_runs, found_in, visible_text

pytestmark = pytest.mark.django_db


def french(client: Client, url: str) -> str:
    """The page as a phone set to French asks for it: no cookie, Accept-Language only."""
    response = client.get(url, headers={"accept-language": "fr-FR,fr;q=0.9"})
    assert response.status_code == 200, (url, response.status_code)
    html = response.content.decode()
    assert '<html lang="fr"' in html, f"{url} is not served in French"
    assert '<meta property="og:locale" content="fr_FR">' in html or "tv-html" in html
    # "Txapelketa 2026" is the test championship's own name, not a Basque sentence, and
    # "Semifinal" its phase's name as typed (English's "Semifinal %(n)s" says it too).
    wrong = found_in(visible_text(html), foreign_runs("fr") - {"Txapelketa", "Semifinal"})
    assert not wrong, f"{url} in French shows other languages' text: {wrong}"
    return visible_text(html)


@pytest.fixture
def table() -> Table:
    table = make_table(players=["Ana", "Bruno", "Carla", "Diego"])
    make_hands(table, [make_record(), make_deje_record("B")])
    return table


def test_home_and_board_speak_french(client: Client, table: Table) -> None:
    home = french(client, reverse("tables:home"))
    assert "Nouvelle table" in home and "Préparer la table" in home
    board = french(client, reverse("tables:board", args=[table.id]))
    assert "Score de chaque camp main par main" in board
    assert re.search(r"\bGrand\s:\s", board), "the recuento names the lances as Iparralde does"
    hand = french(client, reverse("tables:hand", args=[table.id, table.edit_key]))
    for word in ("Grand", "Petit", "Paires", "Jeu", "Hordago", "Enregistrer la main"):
        assert word in hand, word


def test_the_calculator_speaks_french(client: Client) -> None:
    text = french(client, reverse("disputes:calculator"))
    for word in ("Calculatrice du décompte", "Voir le décompte", "Jeu / point", "Paires"):
        assert word in text, word
    # Envido, quiero and no quiero stay as the tables say them.
    assert "quiero" in text and "no quiero" in text.lower()


def test_a_league_page_speaks_french(client: Client) -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea")
    league = make_league(club, 4, format="groups", results=3)
    text = french(client, league_urls(league)[1])
    assert "Classement" in text and "Poule" in text


def test_the_championship_pages_speak_french(client: Client) -> None:
    championship, _boss, _barmen, phase = drawn_semifinal()
    detail = reverse("championships:detail", args=[championship.pk])
    text = french(client, detail)
    for words in (
        "Lieux",
        "Places par lieu",
        "Qualifiées et réserves",
        "Tirage avec la clé « s »",
        "Poule 1",
    ):
        assert words in text, words
    tv = french(client, reverse("championships:tv", args=[championship.pk, phase.pk]))
    assert "Horloge pas encore lancée" in tv
    assert "Les inscriptions de Txapelketa 2026 sont closes." in french(
        client, reverse("championships:enter", args=[championship.pk])
    )


def test_the_championship_entry_form_speaks_french(client: Client) -> None:
    championship, _boss, _barmen = small_championship()
    entry = french(client, reverse("championships:enter", args=[championship.pk]))
    assert "Nom de l'équipe" in entry and "Joueur 1" in entry and "Inscrire" in entry


def test_the_switch_offers_french_and_sets_it(client: Client, table: Table) -> None:
    assert ("fr", "Français") in settings.LANGUAGES
    response = client.post(
        reverse("set_language"), {"language": "fr", "next": reverse("tables:home")}
    )
    assert response.status_code == 302
    html = client.get(reverse("tables:board", args=[table.id])).content.decode()
    assert '<html lang="fr"' in html
    assert 'name="language" value="fr" aria-current="true"' in html
    assert "Score de chaque camp" in visible_text(html)


def test_the_offline_page_has_french_words() -> None:
    # The service worker answers a phone set to French with these.
    assert offline_words()["fr"] == {
        "title": "Hors connexion",
        "text": "Cette page n'est pas gardée sur ce téléphone\u00a0: elle s'ouvrira quand le "
        "réseau reviendra. Les tables, la calculatrice et les règles que vous avez déjà "
        "ouvertes fonctionnent.",
        "home": "Aller à l'accueil",
    }


# --- issue 29 point 3: the catalogue itself ----------------------------------------------------

FRENCH_PO = settings.BASE_DIR / "locale" / "fr" / "LC_MESSAGES" / "django.po"
# The Mus words the French catalogue says in French (Iparralde's tables count points, play
# parties of several jeux, and say a side is "dedans"); the Spanish ones are not left in.
SPANISH_LEFT = re.compile(r"(?<![/_`\w(])(vacas?|piedras?|tantos|dentro|graine|recuentos?"
                          r"|órdagos?|sedes?)(?![\w`])", re.IGNORECASE)
BROKEN = ("Sites Aucune", "Poule 1 terminé ", "Graine du tirage", "En une vaca", "Jeux de Les",
          "grand de Amarrakos", "Champions:")


def french_messages() -> list[tuple[str, str]]:
    from tests.translations import messages

    return [(e.msgid, text) for e in messages(FRENCH_PO) for text in e.msgstr]


def test_the_french_catalogue_leaves_no_spanish_mus_word() -> None:
    left = [(msgid, text) for msgid, text in french_messages() if SPANISH_LEFT.search(text)]
    assert not left, left[:10]


def test_the_french_catalogue_puts_a_no_break_space_before_high_punctuation() -> None:
    # "Champions:" beside "Champions :": French sets : ; ! ? after a (no-break) space.
    # Not in a URL, a time (21:05), code (`x`: ...) or JSON ("perete": true).
    tight = re.compile(r"(?<=[^\s\\(`/%:\"\u00a0\u202f])[:;!?](?=\s|$)")
    loose = re.compile(r" [:;!?](?=\s|$)")
    wrong = [text for _msgid, text in french_messages() if tight.search(text)
             or loose.search(text)]
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("phrase", BROKEN)
def test_the_broken_french_phrases_are_gone(client: Client, phrase: str) -> None:
    assert all(phrase not in text for _msgid, text in french_messages()), phrase


@pytest.mark.parametrize(("code", "semifinal", "quarter"), [
    ("es", "Cuadro · Semifinal 2 · partida 1", "Cuadro · Cuarto de final 3"),
    ("en", "Cuadro · Semifinal 2 · match 1", "Cuadro · Quarterfinal 3"),
    ("eu", "Cuadro · 2. finalerdia · 1. partida", "Cuadro · 3. final-laurdena"),
    ("fr", "Cuadro · Demi-finale 2 · partie 1", "Cuadro · Quart de finale 3"),
])
def test_a_knockout_tie_is_named_as_one_tie(code: str, semifinal: str, quarter: str) -> None:
    # "Demi-finales 1" (issue 29): the round's plural with the tie's number after it.
    from django.utils import translation

    from muscore.leagues import names

    with translation.override(code):
        assert names.made_name(names.game_parts("Cuadro", round=2, rounds=3, tie=2,
                                                game=1)) == semifinal
        assert names.made_name(names.game_parts("Cuadro", round=1, rounds=3, tie=3,
                                                game=None)) == quarter
        final = names.made_name(names.game_parts("Cuadro", round=3, rounds=3, tie=1, game=None))
        assert final == "Cuadro · " + translation.gettext("Final")


def test_a_pair_is_named_after_de_l_equipe_never_after_a_bare_de() -> None:
    # "Hordago au grand de Amarrakos" (issue 29): "de" before a name that may start with a
    # vowel reads as a mistake; "de l'équipe Amarrakos" is right whatever the name.
    bare_de = re.compile(r"(?<!\w)de %\((pair|other|first|second)\)s")
    found = [text for _msgid, text in french_messages() if bare_de.search(text)]
    assert not found, found[:5]
