"""Quoted report text as prose, on real pages: the earnings sample's markers, headings and
table rows, and a real 10-K's page (3M 2018) where a heading and a wrapped line look alike."""

from __future__ import annotations

import pytest

from rag_assets.core.ingest.pages import raw_page_text
from rag_assets.core.text.prose import (
    as_note,
    heading_split,
    leading_marker,
    row_with_units,
    run_in_heading,
    standing_headings,
    table_units,
    units_line_above,
    with_references,
)
from rag_assets_tests.real_filings import CORPORA, real_filing

THREE_M = CORPORA / "sec-10k" / "3M_2018_10K.pdf"
LITIGATION_PAGE = 109  # zero-based: "Process for Disclosure and Recording of Liabilities ..."


def test_a_marker_after_words_is_a_reference_and_one_the_sentence_names_is_a_note() -> None:
    assert with_references("GAAP net income increased 71% to $256 million, or $1.20 per "
                           "diluted share [5].") == ("GAAP net income increased 71% to $256 "
                                                     "million, or $1.20 per diluted share "
                                                     "(note 5).")
    assert with_references("Excludes the items described in [17], [30] and [31]; see also "
                           "[13].") == ("Excludes the items described in note 17, note 30 and "
                                        "note 31; see also note 13.")
    assert with_references("net sales of about $3.3 billion(d).", ["(d)"]) == (
        "net sales of about $3.3 billion (note d).")


def test_a_list_point_is_not_a_marker() -> None:
    point = "Processing shall be lawful only if: (a) the data subject has given consent"
    assert with_references(point, ["(a)"]) == point


def test_a_quoted_definition_reads_as_a_note() -> None:
    text = ("[7] Free cash flow is net cash from operating activities of $512 million less "
            "capital expenditures of $131 million")
    marker = leading_marker(text)
    assert marker == "[7]"
    assert as_note(marker, text[len(marker):]) == (
        "Note 7: Free cash flow is net cash from operating activities of $512 million less "
        "capital expenditures of $131 million.")
    assert leading_marker("(1) Unallocated headquarters costs", ["(1)"]) == "(1)"
    assert leading_marker("(123) The supervisory authorities should monitor") is None


def test_a_heading_glued_to_its_sentence_is_split_off(earnings) -> None:
    page = earnings.pages[0].text
    glued = "Fiscal year 2024 highlights Revenue rose 34% to $2.4 billion [1]."
    assert heading_split(glued, page) == ("Fiscal year 2024 highlights",
                                          "Revenue rose 34% to $2.4 billion [1].")
    plain = "Revenue rose 34% to $2.4 billion [1]."
    assert heading_split(plain, page) == ("", plain)


def test_a_real_10k_heading_is_split_off_and_a_wrapped_line_is_not() -> None:
    if not THREE_M.is_file():
        pytest.skip(f"{THREE_M} not found")
    page = real_filing(THREE_M).pages[LITIGATION_PAGE].text
    heading = ("Process for Disclosure and Recording of Liabilities and Insurance Receivables "
               "Related to Legal Proceedings")
    sentence = ("Many lawsuits and claims involve highly complex issues relating to causation, "
                "scientific evidence, and whether there are actual damages and are otherwise "
                "subject to substantial uncertainties.")
    assert heading in page.splitlines()
    assert heading_split(f"{heading} {sentence}", page) == (heading, sentence)
    # the sentence's first printed line ends without a stop, before a line of its own: a
    # wrapped line (commas, as long as the prose around it), not a heading
    assert heading_split(sentence, page) == ("", sentence)


def test_a_row_prints_its_figures_in_its_tables_units() -> None:
    title = "Exemplar Corp | Table 4: Cash flow and balance sheet highlights (in $ millions)"
    assert table_units(title) == ("$", "million")
    assert row_with_units("Free cash flow: FY 2024: 381; FY 2023: 273", title) == (
        "Free cash flow: FY 2024: $381 million; FY 2023: $273 million")
    assert row_with_units("Capital expenditures: FY 2024: -131; FY 2023: -104", title) == (
        "Capital expenditures: FY 2024: -$131 million; FY 2023: -$104 million")
    statement = "Consolidated Statement of Cash Flows | Years ended December 31 (Millions) 2018"
    assert row_with_units("Change in short-term debt — net: 2018: (284); 2017: 578",
                          statement) == ("Change in short-term debt — net: 2018: -284 million; "
                                         "2017: 578 million")
    income = "Years ended December 31 (Millions, except per share amounts) 2018 2017 2016"
    assert row_with_units("Earnings per share — basic: 2018: $ 9.09; 2017: $ 8.13",
                          income) == "Earnings per share — basic: 2018: $9.09; 2017: $8.13"
    margin = "Non-GAAP operating margin: FY 2024: 24.5%"
    assert row_with_units(margin, title) == margin
    assert row_with_units("Revenue: Guidance: $2,650-$2,750 million", "Table 5: Fiscal 2025 "
                          "guidance") == "Revenue: Guidance: $2,650-$2,750 million"


def test_a_row_finds_its_units_on_the_page_above_it() -> None:
    """A chunk that starts inside a table has no heading of it: the page's units line does."""
    if not THREE_M.is_file():
        pytest.skip(f"{THREE_M} not found")
    page = raw_page_text(real_filing(THREE_M).pages[59])  # the cash flow statement, as stored
    label = "Proceeds from debt (maturities greater than 90 days)"
    units = units_line_above(page, label)
    assert units == "(Millions)"
    assert row_with_units(f"{label}: 2018: 2,251; 2017: 1,987", units) == (
        f"{label}: 2018: 2,251 million; 2017: 1,987 million")


LOCKHEED_2021 = CORPORA / "financebench-dev" / "pdfs" / "LOCKHEEDMARTIN_2021_10K.pdf"


@pytest.mark.parametrize(("path", "page", "standing"), [
    # 3M's litigation note: a matter's title over its paragraphs, under the running header
    (THREE_M, 110, ["Table of Contents", "Respirator Mask/Asbestos Litigation",
                    "Respirator Mask/Asbestos Liabilities and Insurance Receivables"]),
    # Lockheed Martin's note: the section's heading over a caption of commas and "et al", and
    # a caption over a paragraph; no line of the paragraphs, however short
    (LOCKHEED_2021, 101, ["Legal Proceedings", "United States of America, ex rel. Patzer; "
                                               "Cimma v. Sikorsky Aircraft Corp., et al"]),
    (LOCKHEED_2021, 102, ["Lockheed Martin v. Metropolitan Transportation Authority",
                          "Environmental Matters"]),
    # the signatures: the date, the signer and the titles over the next paragraph are no headings
    (LOCKHEED_2021, 114, ["Table of Contents", "SIGNATURES"]),
])
def test_a_line_printed_on_its_own_over_a_paragraph_stands_as_a_heading(
        path: object, page: int, standing: list[str]) -> None:
    if not LOCKHEED_2021.is_file() or not THREE_M.is_file():
        pytest.skip("the corpora's filings are not here")
    assert standing_headings(raw_page_text(real_filing(path).pages[page])) == standing


@pytest.mark.parametrize(("sentence", "title"), [
    # Corning's 2015 10-K and Walmart's 2020 10-K run a matter's title into its paragraph
    ("Department of Justice Grand Jury Subpoena.", "Department of Justice Grand Jury Subpoena"),
    ("Asda Equal Value Claims.", "Asda Equal Value Claims"),
    ("Interchange Litigation.", "Interchange Litigation"),
    # a sentence, however short, is none: it opens as one, or names a figure, or a verb's case
    ("The Company.", None),
    ("Results were mixed.", None),
    ("See Note 12.", None),
    ("Net Sales Increased 5%.", None),
    # a citation cut at a court's shortening: Walmart's 2018 list of opioid suits
    (", LA Civil Dist.", None),
    ("Coyote Valley Band of Pomo Indians v. Cty.", None),
])
def test_a_title_run_into_its_paragraph_is_read_as_a_heading(sentence: str,
                                                             title: str | None) -> None:
    assert run_in_heading(sentence) == title
