"""The printed pair slips (issue 17.7): every QR code read back from the PDF the browser
prints, so each has its quiet zone (segno's border of 4 modules, as the QR standard asks)."""

from __future__ import annotations

import pypdfium2
import pytest
import zxingcpp
from playwright.sync_api import Page, expect

from tests.browser.test_confirm import log_in
from tests.clubs.factory import make_club, make_league

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_printed_slip_qr_decodes_from_the_pdf(phone: Page) -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    log_in(phone)
    phone.goto(f"/club/{club.slug}/liga/{competition.pk}/jornada/1/enlaces")
    expect(phone.locator(".pair-slip")).to_have_count(4)
    links = {text.strip() for text in phone.locator(".pair-slip .link-url").all_inner_texts()}
    assert len(links) == 4
    phone.emulate_media(media="print")
    pdf = pypdfium2.PdfDocument(phone.pdf(format="A4"))
    decoded: set[str] = set()
    try:
        for page in pdf:
            # 144 dpi: what a phone's camera makes of a slip held at arm's length.
            image = page.render(scale=144 / 72).to_pil()
            decoded |= {code.text for code in zxingcpp.read_barcodes(image)
                        if code.format == zxingcpp.BarcodeFormat.QRCode}
            page.close()
    finally:
        pdf.close()
    assert decoded == links
    # Each code in its own column: the words beside it start past its right edge.
    boxes = phone.locator(".pair-slip").evaluate_all(
        "slips => slips.map(s => [s.querySelector('.qr').getBoundingClientRect().right,"
        " s.querySelector('figcaption').getBoundingClientRect().left])")
    assert all(right <= left for right, left in boxes), boxes
