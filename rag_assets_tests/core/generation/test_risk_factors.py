"""The main risks from Item 1A's captions (Regulation S-K Item 105): the bold lines are Walmart's
FY2018 10-K's and American Water's FY2021 10-K's as the PDF reader keeps them (pages 16-22 and
27-28); the same on the whole filings, read by the reader, is in ``test_risk_factors_real.py``."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.risk_factors import risk_captions
from rag_assets.core.question.question import read_question

ITEMS = {15: "Item 1. Business", 16: "Item 1A. Risk Factors", 17: "Item 1A. Risk Factors",
         18: "Item 1A. Risk Factors", 19: "Item 1B. Unresolved Staff Comments"}
WALMART = {
    15: [(3, "Employees")],
    16: [(2, "Our Website and Availability of SEC Reports and Other Information"),
         (20, "ITEM 1A. RISK FACTORS"), (30, "Strategic Risks"),
         (31, "General or macro-economic factors, both domestically and internationally, may"),
         (32, "materially adversely affect our financial performance."),
         (40, "We face strong competition from other retailers and wholesale club operators,"),
         (41, "which could materially adversely affect our financial performance.")],
    17: [(0, "Table of Contents"), (14, "Operational Risks"),
         (15, "Natural disasters, changes in climate, and geo-political events could materially"),
         (16, "adversely affect our financial performance."), (40, "18")],
    18: [(5, "Legal, Tax, Regulatory, Compliance, Reputational and Other Risks"),
         (6, "Our operations subject us to legislative, judicial, accounting, legal, regulatory,"),
         (7, "tax, political and economic risks."),
         (20, "ITEM 1B. UNRESOLVED STAFF COMMENTS"), (22, "None. This line is not a risk at all")],
}


def _texts(bold: dict[int, list[tuple[int, str]]], lines: int = 60) -> list[tuple[int, str]]:
    """Pages of ``lines`` printed lines each, the bold ones among them."""
    return [(page, "\n".join(f"A paragraph's line {n}." for n in range(lines)))
            for page in bold]


def test_the_headings_with_their_counts_then_the_first_factor_of_each() -> None:
    question = read_question("What are the main risks Walmart faces according to its FY2018 "
                             "10-K?")
    found = risk_captions(question, "walmart-10k", 2018, _texts(WALMART), ITEMS, WALMART)
    assert found is not None and found.kind == "risks"
    assert found.text.startswith(
        "Item 1A sets out 4 risk factors under 3 headings: Strategic Risks (2); Operational Risks "
        "(1); Legal, Tax, Regulatory, Compliance, Reputational and Other Risks (1). The first of "
        "each: (1) General or macro-economic factors, both domestically and internationally, may "
        "materially adversely affect our financial performance; (2) Natural disasters"), found.text
    assert "Website" not in found.text and "None." not in found.text  # before 1A, after 1B
    assert [u.page for u in found.units] == [16, 17, 18, 16, 17, 18]


def test_without_headings_the_first_factors_and_a_heading_run_over_two_lines() -> None:
    bold = {27: [(1, "ITEM 1A. RISK FACTORS"), (5, "Risks Related to Our Industry and"),
                 (6, "Business Operations"),
                 (7, "Our Regulated Businesses are subject to extensive regulation by state")]}
    question = read_question("What are the key risks American Water Works faces?")
    found = risk_captions(question, "american-water-works-10k", 2021, _texts(bold),
                          {27: "Item 1A."}, bold)
    assert found is not None and found.text.startswith(
        "Item 1A sets out 1 risk factor under Risks Related to Our Industry and Business "
        "Operations; the first: (1) Our Regulated Businesses"), found.text
    plain = {27: [(7, "Our Regulated Businesses are subject to extensive regulation by state"),
                  (20, "We may be unable to maintain our margins")]}
    found = risk_captions(question, "american-water-works-10k", 2021, _texts(plain),
                          {27: "Item 1A."}, plain)
    assert found is not None and found.text.startswith(
        "Item 1A sets out 2 risk factors; the first: (1) Our Regulated Businesses"), found.text


def test_no_caption_a_yes_no_or_another_section_is_not_answered_here() -> None:
    question = read_question("What are the main risks Walmart faces?")
    # a 10-Q that refers to its 10-K prints no caption
    assert risk_captions(question, "walmart-10q-q1", 2024, [(30, "No material changes.")],
                         {30: "Item 1A. Risk Factors"}, {}) is None
    assert risk_captions(question, "walmart-10k", 2018, _texts({15: []}),
                         {15: "Item 1. Business"}, {15: WALMART[16]}) is None
    # a body set in a face named bold (General Mills' FY2020 10-K): the weight marks no caption
    assert risk_captions(question, "walmart-10k", 2018, _texts(WALMART, lines=10), ITEMS,
                         WALMART) is None
    assert risk_captions(read_question("Does Walmart face significant competition risks?"),
                         "walmart-10k", 2018, _texts(WALMART), ITEMS, WALMART) is None


def test_a_caption_cut_by_a_page_break_is_one_and_one_matter_is_not_the_section() -> None:
    """MGM Resorts' FY2020 10-K ends a page inside a caption ("... and impact our" /
    "ability to ..."); a question on one matter its risk factors treat asks no list."""
    bold = {30: [(1, "ITEM 1A. RISK FACTORS"), (9, "Our substantial indebtedness could"),
                 (10, "adversely affect our operations and impact our")],
            31: [(0, "ability to satisfy our obligations."),
                 (12, "The global COVID-19 pandemic has continued to materially impact our "
                      "business.")]}
    items = {30: "Item 1A. Risk Factors", 31: "Item 1A. Risk Factors"}
    found = risk_captions(read_question("What are the key risks MGM Resorts faces?"),
                          "mgm-resorts-10k", 2020, _texts(bold), items, bold)
    assert found is not None and found.text == (
        "Item 1A sets out 2 risk factors; the first: (1) Our substantial indebtedness could "
        "adversely affect our operations and impact our ability to satisfy our obligations; (2) "
        "The global COVID-19 pandemic has continued to materially impact our business.")
    assert [u.page for u in found.units] == [30, 31, 31]
    assert risk_captions(read_question(
        "How does MGM Resorts describe the impact of the COVID-19 pandemic on its properties in "
        "its 2020 10-K risk factors?"), "mgm-resorts-10k", 2020, _texts(bold), items, bold) is None


def test_bulleted_factors_without_bold_captions_give_each_bullets_first_sentence() -> None:
    """3M's 2018 10-K (sec-10k) prints its eleven factors as bullets whose caption runs into
    the paragraph ("... cost of funding.The Company's ..."), none in bold; Item 1A opens on the
    page before the first page ingest files under it."""
    from rag_assets.core.generation.page_texts import PageTexts
    from rag_assets_tests.real_filings import CORPORA, real_filing
    if not CORPORA.is_dir():
        pytest.skip(f"{CORPORA} is not here")
    texts = PageTexts.from_pages("3m-10k", 2018, real_filing("sec-10k/3M_2018_10K.pdf").pages)
    pages = [(p, texts.get("3m-10k", 2018, p) or "") for p in texts.pages_of("3m-10k", 2018)]
    found = risk_captions(read_question("What are the main risks 3M faces according to its "
                                        "FY2018 10-K?"), "3m-10k", 2018, pages,
                          texts.page_items("3m-10k", 2018), texts.bold_lines("3m-10k", 2018))
    assert found is not None and found.text.startswith(
        "Item 1A sets out 11 risk factors; the first: (1) Results are impacted by the ef ects of, "
        "and changes in, worldwide economic, political, and capital markets conditions; (2) "
        "Change in the Company’s credit ratings could increase cost of funding;")
    assert [u.page for u in found.units] == [9, 9, 9, 9, 10]
