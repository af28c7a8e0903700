"""Every worked example on the rules pages agrees with muscore.rules and with the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from muscore import rules
from muscore.disputes import explain, rules_pages

EXAMPLES = rules_pages.all_examples()
HAND_EXAMPLES = rules_pages.all_hand_examples()


def page_of(example: rules_pages.Example) -> rules_pages.Page:
    return next(p for p in rules_pages.PAGES for s in p.sections if example in s.examples)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.key for e in EXAMPLES])
def test_example_scores_as_worked_out_by_hand(example: rules_pages.Example) -> None:
    result = rules.score(example.record)
    assert (result["score"]["A"], result["score"]["B"]) == example.expect_score
    assert result["winner"] == example.expect_winner
    steps = tuple((s["lance"], s["side"], s["points"], s["why"]) for s in result["recuento"])
    assert steps == example.expect_steps


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.key for e in EXAMPLES])
def test_example_on_its_page_shows_the_engines_figures(
    client: Client, example: rules_pages.Example
) -> None:
    page = page_of(example)
    html = client.get(reverse("disputes:rules_page", args=[page.slug])).content.decode()
    found = rf'<figure class="example" id="ejemplo-{example.key}".*?</figure>'
    figure = re.search(found, html, re.S)
    assert figure, f"example {example.key} is not on /reglas/{page.slug}/"
    a, b = example.expect_score
    assert f'data-score="{a}-{b}"' in figure.group(0)
    whys = re.findall(r'<li class="step" data-why="(\w+)"', figure.group(0))
    assert whys == [s[3] for s in example.expect_steps]
    for lance, _side, points, _why in example.expect_steps:
        assert f"+{points}" in figure.group(0), (lance, points)


@pytest.mark.parametrize("hand", HAND_EXAMPLES, ids=[h.cards for h in HAND_EXAMPLES])
def test_sena_hands_hold_what_the_page_says(client: Client, hand: rules_pages.HandExample) -> None:
    parsed = rules.Hand.parse(hand.cards)
    assert parsed.pares() == hand.expect_pares
    assert parsed.juego_total() == hand.expect_total
    html = client.get(reverse("disputes:rules_page", args=["senas"])).content.decode()
    line = re.search(rf'data-hand="{hand.cards}">(.*?)</p>', html, re.S)
    assert line and str(hand.expect_total) in line.group(1)


def test_every_page_and_the_index_open(client: Client) -> None:
    index = client.get(reverse("disputes:rules")).content.decode()
    for page in rules_pages.PAGES:
        url = reverse("disputes:rules_page", args=[page.slug])
        assert url in index
        assert client.get(url).status_code == 200


def test_every_rule_link_the_calculator_gives_points_at_a_section_that_exists(
    client: Client,
) -> None:
    anchors = {(p.slug, s.anchor) for p in rules_pages.PAGES for s in p.sections}
    source = Path(explain.__file__).read_text()
    links = re.findall(r'rule_link\("(\w[\w-]*)"(?:, "([\w-]+)")?\)', source)
    assert links
    for slug, anchor in links:
        assert rules_pages.page(slug) is not None, slug
        if anchor:
            assert (slug, anchor) in anchors, (slug, anchor)


def test_an_unknown_rules_page_is_a_404(client: Client) -> None:
    assert client.get("/reglas/nada/").status_code == 404


def test_rules_pages_speak_english(client: Client) -> None:
    client.cookies["django_language"] = "en"
    html = client.get(reverse("disputes:rules_page", args=["apuestas"])).content.decode()
    assert "No quiero: the deje" in html
    assert "A rejected raise pays what stood before it, 7." in html
