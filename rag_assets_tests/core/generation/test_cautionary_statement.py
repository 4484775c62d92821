"""The cautionary statement a forward-looking statement's safe harbor asks for (Exchange Act
Section 21E(c)): its factors are what could happen, so the quote route leaves the units under
its heading out of the evidence unless the risks are asked. Corning's Q2 2023 10-Q prints it
as MD&A's last section (p.38), its factors a list ("- the amount and timing of any future
dividends; ...")."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.evidence import headings_at
from rag_assets.core.generation.quote_route import CAUTIONARY_HEADING_RE
from rag_assets.core.text.sentences import page_prose
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def test_the_cautionary_statements_heading_is_read_as_one() -> None:
    pages = real_filing("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf").pages
    text = pages[37].text
    headings = [h for _, h in headings_at(text, page_prose(text))]
    assert headings and CAUTIONARY_HEADING_RE.match(headings[0]), headings
    assert "the amount and timing of any future dividends" in text  # a factor under it
    overview = pages[21].text  # MD&A's first page: its own headings are none of it
    assert not any(CAUTIONARY_HEADING_RE.match(h)
                   for _, h in headings_at(overview, page_prose(overview)))


def test_a_heading_printed_with_a_non_breaking_hyphen_is_cautionary_too() -> None:
    """Ulta Beauty's release prints "Forward\u2011Looking Statements" (U+2011) over its factors."""
    text = real_filing("financebench-bulk/pdfs/ULTABEAUTY_2024Q1_EARNINGS.pdf").pages[2].text
    headings = [h for _, h in headings_at(text, page_prose(text)) if "Looking" in h]
    assert headings == ["Forward\u2011Looking Statements"]
    assert CAUTIONARY_HEADING_RE.match(headings[0])


@pytest.mark.parametrize(("heading", "cautionary"), [
    ("Cautionary Statement Regarding Forward-Looking Statements", True),
    ("Special Note Regarding Forward-Looking Statements", True),
    ("Forward-Looking Information", True),
    ("Outlook", False),
    ("Forward Purchase Contracts", False),
])
def test_only_the_safe_harbors_headings_are_cautionary(heading: str, cautionary: bool) -> None:
    assert bool(CAUTIONARY_HEADING_RE.match(heading)) is cautionary
