"""Which lines a real PDF sets in bold (``Page.bold_lines``): the captions of Walmart's FY2018
risk factors, and none of the paragraphs that explain them."""

from __future__ import annotations

import pytest

from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def test_the_risk_factors_captions_are_bold_and_their_paragraphs_are_not() -> None:
    page = real_filing("financebench-wide/pdfs/WALMART_2018_10K.pdf").pages[17]
    lines = page.text.splitlines()
    bold = [lines[n] for n in page.bold_lines]
    assert [line[:30] for line in bold] == [
        "We may not timely identify or ", "demand for the products and se",
        "Failure to grow our eCommerce ", "eCommerce investments, may mat",
        "The performance of strategic a", "performance."], bold
    assert len(lines) > 3 * len(bold)
