"""What industry a company is in, from the sentence that opens its 10-K's Item 1 (Regulation S-K
Item 101): the pages are real filings' (bulk) as text extraction prints them."""

from __future__ import annotations

from rag_assets.core.generation.business_description import business_description
from rag_assets.core.question.question import read_question

NETFLIX = [
    (1, "Table of Contents PART I Item 1. Business 1 Item 1A. Risk Factors 3 Item 2. Properties"),
    (2, "except as may otherwise be required by law.\nItem 1.\nBusiness\nABOUT US\nNetflix, Inc. "
        "(“Netflix”, “the Company”, “we”, or “us”) is the world’s leading Internet television "
        "network with over 75 million streaming members in over 190 countries.\nWe are a "
        "pioneer in the Internet delivery of TV shows and movies."),
]
CORNING = [
    (0, "Table of Contents Item 1. Business 3 Item 1A. Risk Factors 12"),
    (1, "Item 1. Business\nGeneral\nCorning traces its origins to a glass business established "
        "in 1851. The present corporation was incorporated in the State of New York in December "
        "1936. Corning Incorporated is one of the world’s leading innovators in materials "
        "science."),
]


def test_the_sentence_that_says_what_the_company_is_where_item_1_opens() -> None:
    question = read_question("What industry does Netflix operate in?")
    found = business_description(question, "netflix-10k", 2015, NETFLIX,
                                 {1: None, 2: "Item 1. Business"})
    assert found is not None and found.kind == "business" and found.units[0].page == 2
    assert found.text.startswith("Netflix, Inc. (“Netflix”, “the Company”, “we”, or “us”) is the "
                                 "world’s leading Internet television network")


def test_item_1_found_by_its_heading_when_no_page_has_an_item() -> None:
    """Corning's 10-K for 2015: ingest read no Item on its first pages; the table of contents
    lists Item 1A right after Item 1, the page that opens Item 1 does not."""
    question = read_question("Which industry is Corning in?")
    found = business_description(question, "corning-10k", 2015, CORNING, {0: None, 1: None})
    assert found is not None and found.text == ("Corning Incorporated is one of the world’s "
                                                "leading innovators in materials science.")


def test_an_introductory_phrase_before_the_company_is_read_past() -> None:
    """American Water's 10-K for 2021 opens Item 1 with "With a history dating back to 1886,"
    before its name (the first words of the company's)."""
    pages = [(5, "Table of Contents PART I ITEM 1. BUSINESS The Company With a history dating "
                 "back to 1886, American Water is the largest and most geographically diverse, "
                 "publicly-traded water and wastewater utility company in the United States, as "
                 "measured by both operating revenues and population served.")]
    question = read_question("What industry does American Water Works operate in?")
    found = business_description(question, "american-water-works-10k", 2021, pages,
                                 {5: "Item 1. Business"})
    assert found is not None and found.text.startswith(
        "American Water is the largest and most geographically diverse, publicly-traded water "
        "and wastewater utility company")
    # its 2017 10-K heads the paragraph "Our Company"
    pages = [(5, pages[0][1].replace("The Company With", "Our Company With"))]
    found = business_description(question, "american-water-works-10k", 2017, pages,
                                 {5: "Item 1. Business"})
    assert found is not None and found.text.startswith("American Water is the largest")


def test_a_yes_no_or_another_intent_is_not_answered_here() -> None:
    items = {1: None, 2: "Item 1. Business"}
    for text in ("Is Netflix's business cyclical?", "What drove Netflix's revenue growth?",
                 "What businesses did Netflix acquire in 2015?"):
        assert business_description(read_question(text), "netflix-10k", 2015, NETFLIX,
                                    items) is None


def test_only_a_sentence_about_the_company_and_only_a_10_k() -> None:
    """Kraft Heinz's 10-K for 2021 prints "A platform is a lens ..." in Item 1: no answer. A
    10-Q has no Item 1 Business; its reference to the 10-K's is no heading."""
    pages = [(5, "Item 1. Business.\\nGeneral\\nWe are driving transformation at The Kraft Heinz "
                 "Company. A platform is a lens created for the portfolio based on a grouping of "
                 "real consumer needs.")]
    question = read_question("What industry does Kraft Heinz operate in?")
    assert business_description(question, "kraft-heinz-10k", 2021, pages, {5: None}) is None
    quarter = [(33, "as described in Item 1. Business of our Form 10-K. American Water is the "
                    "largest regulated water and wastewater utility company in the United States.")]
    assert business_description(read_question("What industry is American Water in?"),
                                "american-water-works-10q-q2", 2023, quarter, {33: None}) is None


def test_a_name_that_opens_with_a_digit_is_the_company() -> None:
    """3M's 10-K for 2018 (sec-10k): "3M is a diversified technology company ...", under the
    heading "General", after the paragraph on the SEC's website."""
    pages = [(3, "the Company electronically files such material with, or furnishes it to, the "
                 "SEC.\nGeneral\n3M is a diversified technology company with a global presence "
                 "in the following businesses: Industrial; Safety and Graphics; Health Care; "
                 "Electronics and Energy; and Consumer. 3M is among the leading manufacturers "
                 "of products for many of the markets it serves.")]
    question = read_question("What industry does 3M operate in?")
    found = business_description(question, "3m-10k", 2018, pages, {3: "Item 1. Business"})
    assert found is not None and found.text.startswith(
        "3M is a diversified technology company with a global presence")


def test_a_filer_that_does_not_describe_itself_is_answered_with_the_industry_it_names() -> None:
    """Kraft Heinz's 10-K for 2021 opens Item 1 with "We are driving transformation ..." and
    describes no business; its Item 1A names the industry it competes in (p.13). "A highly
    competitive industry" names none."""
    pages = [(5, "Item 1. Business.\nGeneral\nWe are driving transformation at The Kraft Heinz "
                 "Company (Nasdaq: KHC), inspired by our Purpose, Let’s Make Life Delicious."),
             (12, "We operate in a highly competitive industry."),
             (13, "The food and beverage industry is highly competitive across all of our "
                  "product offerings.")]
    items = {5: "Item 1. Business", 12: "Item 1A. Risk Factors", 13: "Item 1A. Risk Factors"}
    question = read_question("What industry does Kraft Heinz operate in?")
    found = business_description(question, "kraft-heinz-10k", 2021, pages, items)
    assert found is not None and found.units[0].page == 13
    assert found.text == ("The food and beverage industry: The food and beverage industry is "
                          "highly competitive across all of our product offerings.")
    assert business_description(question, "kraft-heinz-10k", 2021, pages[:2], items) is None


def test_a_segments_industry_is_not_the_companys() -> None:
    """Corning's 10-K for 2022 names "the display glass industry" of its Display Technologies
    segment (Item 1): one segment's industry, not the company's."""
    pages = [(5, "Item 1. Business\nCorning manufactures products at 124 plants in 15 countries."),
             (6, "This segment develops, manufactures and supplies high quality glass substrates "
                 "using technology expertise and a proprietary fusion manufacturing process, "
                 "which we invented and is the cornerstone of our technology leadership in the "
                 "display glass industry.")]
    question = read_question("What industry does Corning operate in?")
    assert business_description(question, "corning-10k", 2022, pages,
                                {5: "Item 1. Business", 6: "Item 1. Business"}) is None
