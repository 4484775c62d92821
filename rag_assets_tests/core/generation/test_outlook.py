"""An outlook read where the filing prints it, on real filings: the table under an outlook
section's heading (not a headline that names the outlook over the quarter's results), or the
targets an annual report lists as bullets after the sentence that introduces them. Questions
worded apart from the analyst-tune set that chose the rules."""

from __future__ import annotations

import pytest

from rag_assets.core.evaluation.answer_correctness import answer_lead
from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.facts_route import FactsRoute
from rag_assets.core.generation.outlook import outlook_block, revision_moves, revision_text
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def _lead(path: str, document: str, year: int, question: str) -> str:
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    found = outlook_block(read_question(question), document, year, [
        (p, pages.get(document, year, p) or "") for p in pages.pages_of(document, year)])
    assert found is not None
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return answer_lead(found.text)


def test_an_annual_reports_targets_are_listed_from_its_bullets() -> None:
    lead = _lead("financebench-bulk/pdfs/GENERALMILLS_2023_annualreport.pdf",
                 "general-mills-10k-annualreport", 2023,
                 "What targets does General Mills set for fiscal 2024?")
    assert lead.startswith("Based on these assumptions, our key full-year fiscal 2024 targets "
                           "are summarized below: (1) Organic net sales are expected to "
                           "increase 3 to 4 percent; (2) Adjusted operating profit")
    assert "(4) Free cash flow conversion is expected to be at least 95 percent" in lead


def test_a_10ks_expectations_listed_after_a_lead_in_are_its_outlook() -> None:
    """General Mills' fiscal 2017 10-K lists its fiscal 2018 expectations as bullets after
    "With these assumptions in mind:", a lead-in that names no outlook: the bullets that each
    state an expectation of the year asked make them one."""
    lead = _lead("financebench-bulk/pdfs/GENERALMILLS_2017_10K.pdf", "general-mills-10k", 2017,
                 "What outlook for fiscal 2018 did General Mills lay out in its 10-K?")
    assert lead.startswith("With these assumptions in mind: (1) We expect fiscal 2018 organic "
                           "net sales to decline between 1 and 2 percent")
    assert "adjusted diluted EPS to increase 1 to 2 percent" in lead


def test_the_outlook_sections_table_wins_over_a_headline_that_names_it() -> None:
    # page 1 opens "Company Raises Outlook for Fiscal Year 2023" over the quarter's table;
    # page 3's "Fiscal 2023 Outlook" section prints the prior and the updated ranges
    lead = _lead("financebench-bulk/pdfs/ULTABEAUTY_2023Q2_EARNINGS.pdf",
                 "ulta-beauty-earnings-q2", 2023,
                 "What guidance for fiscal 2023 did Ulta Beauty give with its second quarter?")
    # the prior and updated ranges compared: the first line says which way each moved
    # and by how much, at the ranges' midpoints
    assert lead.startswith("Raised its outlook: net sales to $11.05 billion to $11.15 billion "
                           "(from $11.0 billion to $11.1 billion; $50 million higher at the "
                           "midpoint), comparable sales to 4.5% to 5.5% (from 4% to 5%; 50 "
                           "basis points higher at the midpoint), operating margin to 14.6% to "
                           "14.8% (from 14.5% to 14.8%; 5 basis points higher at the midpoint), "
                           "diluted earnings per share to $25.10 to $25.60 (from $24.70 to "
                           "$25.40; $0.30 higher at the midpoint); unchanged: new stores, net "
                           "(25-30)")


def test_a_guidance_table_under_a_paragraph_and_its_labels_on_lines_of_their_own() -> None:
    """Pfizer's "2023 FINANCIAL GUIDANCE(4)" opens with a paragraph that prints figures
    ("narrowed its 2023 revenue guidance range to $67 to $70 billion, while ...") and prints
    "Revenues" over "$67.0 to $70.0 billion" and "(previously ...)": the table is the answer,
    each label with its range, not the paragraph nor the assumptions its footnote lists; and
    the paragraph after it is no row."""
    question = ("What full-year 2023 revenue guidance did Pfizer give in its Q2 2023 earnings "
                "release?")
    pages = PageTexts.from_pages("pfizer-earnings-q2", 2023, real_filing(
        "financebench-bulk/pdfs/PFIZER_2023Q2_EARNINGS.pdf").pages)
    found = outlook_block(read_question(question), "pfizer-earnings-q2", 2023, [
        (p, pages.get("pfizer-earnings-q2", 2023, p) or "")
        for p in pages.pages_of("pfizer-earnings-q2", 2023)])
    assert found is not None
    # the figures asked lead, as printed; the revision its "(previously ...)" states follows
    lead = answer_lead(found.text)
    assert lead.startswith("2023 FINANCIAL GUIDANCE(4): Revenues $67.0 to $70.0 billion "
                           "(previously $67.0 to $71.0 billion); Adjusted(3) Cost of Sales as "
                           "a Percentage of Revenues 28.0% to 30.0%"), lead
    assert lead.endswith("Adjusted(3) Diluted EPS $3.25 to $3.45."), lead
    assert (" Lowered its outlook: revenues to $67.0 to $70.0 billion (from $67.0 to $71.0 "
            "billion; $500 million lower at the midpoint); unchanged: ") in found.text
    # a row of one range in a block revised in place was kept: Pfizer "maintained" the rest
    assert found.text.endswith("adjusted(3) diluted eps ($3.25 to $3.45)."), found.text


def test_a_revision_that_moves_measures_both_ways_says_each() -> None:
    """Ulta's first quarter: net sales raised, the operating margin and the tax rate lowered."""
    from rag_assets.core.generation.outlook import revision_moves, revision_text

    rows = ["Prior FY23 Outlook Updated FY23 Outlook",
            "Net sales $10.95 billion to $11.05 billion $11.0 billion to $11.1 billion",
            "Comparable sales 4% to 5% no change",
            "Operating margin 14.7% to 15.0% 14.5% to 14.8%",
            "Interest income approximately $17 million",  # no prior beside it: left out
            "Effective tax rate approximately 24.6% approximately 23.9%"]
    assert revision_text(revision_moves(rows)) == (
        "Revised its outlook: raised net sales to $11.0 billion to $11.1 billion (from $10.95 "
        "billion to $11.05 billion; $50 million higher at the midpoint); lowered operating "
        "margin to 14.5% to 14.8% (from 14.7% to 15.0%; 20 basis points lower at the "
        "midpoint), effective tax rate to approximately 23.9% (from approximately 24.6%; 70 "
        "basis points lower at the midpoint); unchanged: comparable sales (4% to 5%)")
    # no prior and updated columns: no revision read
    assert revision_text(revision_moves(rows[1:])) is None
    # the columns named in the block's heading, as the first quarter's release prints them
    assert revision_text(revision_moves(rows[1:], heading=rows[0])) == revision_text(
        revision_moves(rows))


def test_a_revision_named_in_the_outlook_heading_is_read() -> None:
    """Ulta's first-quarter release (bulk) heads its block "Prior FY23 Outlook Updated FY23
    Outlook": the measures' moves lead, each kept measure with the range it keeps."""
    lead = _lead("financebench-bulk/pdfs/ULTABEAUTY_2024Q1_EARNINGS.pdf",
                 "ulta-beauty-earnings-q1", 2024,
                 "Did Ulta Beauty raise its fiscal 2023 guidance with its first quarter?")
    assert lead.startswith("Revised its outlook: raised net sales to $11.0 billion to $11.1 "
                           "billion (from $10.95 billion to $11.05 billion; $50 million higher "
                           "at the midpoint); lowered operating margin to 14.5% to 14.8%")
    assert "diluted earnings per share ($24.70 to $25.40)" in lead


@pytest.mark.parametrize(("question", "opens"), [
    # the measure named, by its printed label: net sales raised, operating margin lowered
    ("Did Ulta Beauty raise its fiscal 2023 net sales outlook with its first quarter?",
     "Yes. Revised its outlook: raised net sales"),
    ("Did Ulta Beauty raise its fiscal 2023 operating margin guidance with its first quarter?",
     "No. Revised its outlook:"),
    ("Did Ulta Beauty cut its fiscal 2023 operating margin outlook with its first quarter?",
     "Yes. Revised its outlook:"),
    ("Did Ulta Beauty keep its fiscal 2023 comparable sales outlook unchanged in its first "
     "quarter release?", "Yes. Revised its outlook:"),
    # the outlook as a whole, reaffirmed: measures moved, so no
    ("Did Ulta Beauty reaffirm its fiscal 2023 outlook with its first quarter?",
     "No. Revised its outlook:"),
    # raised as a whole, while measures moved both ways: the revision's words, no yes or no
    ("Did Ulta Beauty raise its fiscal 2023 guidance with its first quarter?",
     "Revised its outlook:"),
])
def test_a_yes_or_no_on_a_revision_is_read_from_the_measures_it_moved(question: str,
                                                                       opens: str) -> None:
    lead = _lead("financebench-bulk/pdfs/ULTABEAUTY_2024Q1_EARNINGS.pdf",
                 "ulta-beauty-earnings-q1", 2024, question)
    assert lead.startswith(opens), lead


def test_the_measure_a_question_names_is_the_row_that_decides() -> None:
    """Rows as Ulta's first-quarter release prints them: a label read by its words ("New
    stores, net"), a concessive clause naming no measure asked, a measure no row prints, and a
    block that kept every measure."""
    from rag_assets.core.generation.outlook import revised_yes_no, revision_moves

    moves = revision_moves(["Prior FY23 Outlook Updated FY23 Outlook",
                    "Net sales $10.95 billion to $11.05 billion $11.0 billion to $11.1 billion",
                    "Comparable sales 4% to 5% no change",
                    "New stores, net 25-30 no change",
                    "Operating margin 14.7% to 15.0% 14.5% to 14.8%"])

    def said(question: str) -> str | None:
        return revised_yes_no(read_question(question), moves)

    assert said("Did Ulta Beauty keep its fiscal 2023 new stores outlook unchanged?") == "Yes."
    assert said("Did Ulta Beauty keep its comparable sales outlook unchanged, even as net sales "
                "rose?") == "Yes."
    assert said("Did Ulta Beauty lower its operating margin outlook as costs increased?") == \
        "Yes."
    assert said("Did Ulta Beauty raise its capital expenditures outlook?") is None
    kept = revision_moves(["Prior FY23 Outlook Updated FY23 Outlook",
                   "Comparable sales 4% to 5% no change", "New stores, net 25-30 no change"])
    assert revised_yes_no(read_question("Did Ulta Beauty reaffirm its fiscal 2023 outlook?"),
                          kept) == "Yes."


def test_a_negative_range_and_a_scale_printed_once_are_read() -> None:
    from rag_assets.core.generation.outlook import revision_moves, revision_text

    rows = ["Prior FY24 Outlook Updated FY24 Outlook",
            "Comparable sales -1% to 1% -2% to 0%",
            "Net sales $10.95 to $11.05 billion $11.0 to $11.1 billion"]
    assert revision_text(revision_moves(rows)) == (
        "Revised its outlook: raised net sales to $11.0 to $11.1 billion (from $10.95 to $11.05 "
        "billion; $50 million higher at the midpoint); lowered comparable sales to -2% to 0% "
        "(from -1% to 1%; 100 basis points lower at the midpoint)")


def _against_year(question: str) -> tuple[str, int]:
    """The outlook of Ulta's fourth-quarter release read against fiscal 2022 as its own
    statements compute it (p.6: operating income 1,638,610 of net sales 10,208,580; diluted
    EPS $24.01), every citation checked on its page."""

    document, year = "ulta-beauty-earnings-q4", 2023
    pages_read = real_filing("financebench-wide/pdfs/ULTABEAUTY_2023Q4_EARNINGS.pdf").pages
    pages = PageTexts.from_pages(document, year, pages_read)
    facts = read_facts(document, year, pages_read)
    route = FactsRoute(facts=lambda d, y: facts, pages=pages, held_years=lambda d: [year],
                       company=lambda d: "Ulta Beauty")
    asked = read_question(question)
    found = outlook_block(asked, document, year, [
        (p, pages.get(document, year, p) or "") for p in pages.pages_of(document, year)],
        lambda metric, fiscal_year: route.level(asked, metric, document, year, fiscal_year))
    assert found is not None
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return answer_lead(found.text), len(found.claim().citations)


@pytest.mark.parametrize(("question", "opening"), [
    # the range is below the year's 16.1%: no expansion, however the question words it
    ("Does Ulta Beauty's fiscal 2023 outlook point to further operating margin expansion "
     "after fiscal 2022?",
     "No. The Fiscal 2023 Outlook guides operating margin to 14.7% to 15.0%, 110 to 140 basis "
     "points below the 16.1% of FY2022."),
    ("Does Ulta's fiscal 2023 guidance point to a lower operating margin?",
     "Yes. The Fiscal 2023 Outlook guides operating margin to 14.7% to 15.0%, 110 to 140 "
     "basis points below the 16.1% of FY2022."),
    ("Does Ulta's fiscal 2023 outlook imply operating margin compression?",
     "Yes. The Fiscal 2023 Outlook guides operating margin to 14.7% to 15.0%, 110 to 140 "
     "basis points below the 16.1% of FY2022."),
    # a growth asked is its line item's range against the year's: net sales $10,208.58 million
    ("Does Ulta Beauty's fiscal 2023 guidance imply net sales growth over fiscal 2022?",
     "Yes. The Fiscal 2023 Outlook guides net sales to $10.95 billion to $11.05 billion, 7.3% "
     "to 8.2% above the $10,208.58 million of FY2022."),
    ("What net sales growth does Ulta's fiscal 2023 outlook imply?",
     "The Fiscal 2023 Outlook guides net sales to $10.95 billion to $11.05 billion, 7.3% to "
     "8.2% above the $10,208.58 million of FY2022."),
    ("Does Ulta expect diluted earnings per share to decline in fiscal 2023?",
     "No. The Fiscal 2023 Outlook guides diluted earnings per share to $24.70 to $25.40, 2.9% "
     "to 5.8% above the $24.01 of FY2022."),
])
def test_an_outlook_asked_against_the_year_reported_is_read_against_its_figure(
        question: str, opening: str) -> None:
    lead, cited = _against_year(question)
    assert lead.startswith(opening)
    assert cited > 1  # the block and the statements' rows the year's figure is read from


def test_an_outlook_asked_as_such_is_the_block_with_no_year_beside_it() -> None:
    # a level asked ("What operating margin ...?") is the range itself; a raise asked of an
    # outlook that revises nothing has no way to read: the block, as printed
    for question in ("What operating margin does Ulta expect for fiscal 2023?",
                     "Did Ulta raise its fiscal 2023 outlook?"):
        lead, cited = _against_year(question)
        assert lead.startswith("Fiscal 2023 Outlook: For fiscal 2023"), question
        assert cited == 1, question


def _read_against(question: str, rows: list[str], heading: str = "Fiscal 2023 Outlook",
                  revised: bool = False) -> str | None:
    """``read_against_year`` on rows worded as releases print them, against fiscal 2022 as
    Ulta's fourth-quarter release's statements compute it."""
    from rag_assets.core.generation.outlook import read_against_year

    document, year = "ulta-beauty-earnings-q4", 2023
    pages_read = real_filing("financebench-wide/pdfs/ULTABEAUTY_2023Q4_EARNINGS.pdf").pages
    facts = read_facts(document, year, pages_read)
    route = FactsRoute(facts=lambda d, y: facts,
                       pages=PageTexts.from_pages(document, year, pages_read),
                       held_years=lambda d: [year], company=lambda d: "Ulta Beauty")
    asked = read_question(question)
    found = read_against_year(asked, rows, heading, lambda metric, fiscal_year: route.level(
        asked, metric, document, year, fiscal_year), revised)
    return None if found is None else found.text.split(". Ulta")[0]


def test_an_outlook_is_read_against_the_measure_and_year_asked_only() -> None:
    """What the comparison must not read: a quarter's outlook against a year, an adjusted
    row or a change row against the GAAP level, a pace of growth, a revision with no year
    named; and what it reads: the year the question names, a label's scale, a figure in line
    at the precision printed."""
    margin = ["Net sales $10.95 billion to $11.05 billion", "Operating margin 14.7% to 15.0%"]
    asked = "Does Ulta's fiscal 2023 outlook imply operating margin compression?"
    assert _read_against(asked, margin, "First Quarter Fiscal 2023 Outlook") is None
    assert _read_against(asked, ["Adjusted operating margin 16.5% to 16.8%",
                                 "Operating margin change -0.3% to -0.1%"]) is None
    assert _read_against("Does Ulta's fiscal 2023 outlook imply faster net sales growth than "
                         "in fiscal 2022?", margin) is None
    assert _read_against(asked, ["Operating margin 14.5% to 14.8% 14.6% to 14.8%"],
                         revised=True) is None  # the revision's own moves answer
    # a negative asked, a growth's slowing (its pace), and a measure's move asked of a
    # revision with no year named: neither way
    assert _read_against("Does Ulta's fiscal 2023 outlook suggest operating margin will not "
                         "expand?", margin) is None
    assert _read_against("Does Ulta's fiscal 2023 guidance suggest net sales growth will slow "
                         "from fiscal 2022?", margin) is None
    # which way is better the vocabulary says of a metric, never of a line item
    assert _read_against("Does Ulta's fiscal 2023 outlook point to improved net sales?",
                         margin) is None
    assert _read_against("Does Ulta's fiscal 2023 outlook imply an improved operating margin?",
                         margin).startswith("No. The Fiscal 2023 Outlook guides operating margin")
    # the year named: fiscal 2021's 15.0% (p.6), the updated range of a revision
    assert _read_against("Did Ulta's updated fiscal 2023 outlook point to operating margin "
                         "compression versus fiscal 2021?",
                         ["Operating margin 14.5% to 14.8% 14.6% to 14.8%"], revised=True) == (
        "Yes. The Fiscal 2023 Outlook guides operating margin to 14.6% to 14.8%, 20 to 40 "
        "basis points below the 15.0% of FY2021")
    assert _read_against("Does Ulta's fiscal 2023 outlook imply net sales growth?",
                         ["Net sales (in millions) $10,950 to $11,050"]) == (
        "Yes. The Fiscal 2023 Outlook guides net sales to $10,950 to $11,050 (in millions), "
        "7.3% to 8.2% above the $10,208.58 million of FY2022")
    # $10.2 billion to one decimal is fiscal 2022's $10,208.58 million: no move either way
    assert _read_against("Does Ulta's fiscal 2023 outlook imply net sales growth?",
                         ["Net sales approximately $10.2 billion"]) == (
        "The Fiscal 2023 Outlook guides net sales to approximately $10.2 billion, in line with "
        "the $10,208.58 million of FY2022")


def test_a_measures_move_is_never_answered_by_the_revisions_moves() -> None:
    """Ulta's second quarter raised its operating margin outlook 5 basis points at the midpoint
    (14.5%-14.8% to 14.6%-14.8%); whether it implies margin expansion or a lower margin than
    fiscal 2022 is no question of the revision: the block, with no yes or no (its statements
    print no fiscal 2022 to read against); a raise asked of the outlook itself still is."""
    for question in ("Does Ulta's updated fiscal 2023 outlook imply a lower operating margin "
                     "than in fiscal 2022?",
                     "Does Ulta's fiscal 2023 outlook imply operating margin expansion?"):
        lead = _lead("financebench-bulk/pdfs/ULTABEAUTY_2023Q2_EARNINGS.pdf",
                     "ulta-beauty-earnings-q2", 2023, question)
        assert lead.startswith("Raised its outlook:"), (question, lead)
    assert _lead("financebench-bulk/pdfs/ULTABEAUTY_2023Q2_EARNINGS.pdf",
                 "ulta-beauty-earnings-q2", 2023,
                 "Did Ulta raise its operating margin outlook for fiscal 2023?").startswith("Yes.")


def _found(path: str, document: str, year: int, question: str):  # type: ignore[no-untyped-def]
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    return outlook_block(read_question(question), document, year, [
        (p, pages.get(document, year, p) or "") for p in pages.pages_of(document, year)])


def test_results_under_a_heading_that_names_the_outlook_are_no_outlook() -> None:
    """Pfizer's 2021 10-K heads its highlights "OVERVIEW OF OUR PERFORMANCE, OPERATING
    ENVIRONMENT, STRATEGY AND OUTLOOK": "2021 Total Revenues––$81.3 billion ... An increase of
    95% compared to 2020" are results, no range or estimate; and a figure asked of no measure
    ("How much does Pfizer expect to pay to spin off Upjohn?") is one sentence's, never the
    outlook's."""
    path = "financebench-wide/pdfs/PFIZER_2021_10K.pdf"
    found = _found(path, "pfizer-10k", 2021, "What outlook does Pfizer give in its 2021 10-K?")
    assert found is None or "compared to 2020" not in found.text, found.text
    assert _found(path, "pfizer-10k", 2021, "How much does Pfizer expect to pay to spin off "
                                            "Upjohn in the future?") is None


LOCKHEED_Q2 = ("financebench-bulk/pdfs/LOCKHEEDMARTIN_2023Q2_10Q.pdf", "lockheed-martin-10q-q2",
               2023)


def test_a_revision_printed_updated_first_under_a_heading_on_the_page_before() -> None:
    """Lockheed Martin's Q2 2023 release (a browser printout): "2023 Financial Outlook" and
    its paragraph end a page, the table opens the next under the printout's running header,
    its columns "Current Update April 2023" (the updated range first), its labels with note
    markers ("Business segment operating profit 2") and its amounts in millions. (Written
    after reading this release's answer, so it is in-sample.)"""
    lead = _lead(*LOCKHEED_Q2, "Did Lockheed Martin raise its 2023 earnings per share outlook "
                               "with its Q2 2023 results?")
    # each end in the table's scale: "$8,150" out of it is $8,150 million, never $8,150
    assert lead.startswith("Yes. Raised its outlook: net sales to $66,250 million - $66,750 "
                           "million (from $65,000 million - $66,000 million; $1 billion higher "
                           "at the midpoint), business segment operating profit to $7,325 "
                           "million - $7,375 million (from $7,255 million - $7,355 million; "
                           "$45 million higher at the midpoint), diluted earnings per share to "
                           "$27.00 - $27.20 (from $26.60 - $26.90; $0.35 higher at the "
                           "midpoint)"), lead
    assert "cash from operations ($8,150 million)" in lead
    assert "file:" not in lead
    assert _lead(*LOCKHEED_Q2, "Did Lockheed Martin lower its 2023 earnings per share outlook?"
                 ).startswith("No. Raised its outlook")


def test_a_change_asked_of_the_outlook_is_led_by_the_revision() -> None:
    """Asked how the guidance changed, the revision leads; asked the guidance, its figures:
    Pfizer's release prints its prior revenue range in parentheses."""
    changed = _lead("financebench-bulk/pdfs/PFIZER_2023Q2_EARNINGS.pdf", "pfizer-earnings-q2",
                    2023, "How did Pfizer change its 2023 revenue guidance in its Q2 2023 "
                          "earnings release?")
    assert changed.startswith("Lowered its outlook: revenues to $67.0 to $70.0 billion"), changed


@pytest.mark.parametrize(("rows", "heading", "expected"), [
    # "Prior Outlook (January 2023) Current Outlook (April 2023)" prints the prior range first
    # (a month beside each column says nothing of the order); a percentage is never scaled by
    # the block's "(in millions, ...)"
    (["(in millions, except per share and percentages) Prior Outlook (January 2023) "
      "Current Outlook (April 2023)",
      "Net sales $65,000 - $66,000 $66,250 - $66,750",
      "Operating margin 10.0% - 10.5% 10.5% - 11.0%"], "2023 Outlook",
     "Raised its outlook: net sales to $66,250 million - $66,750 million (from $65,000 million "
     "- $66,000 million; $1 billion higher at the midpoint), operating margin to 10.5% - 11.0% "
     "(from 10.0% - 10.5%; 50 basis points higher at the midpoint)"),
    # "(in millions, except per share data)" scales the amounts, never an EPS row (its label
    # need not say "per share") or a count printed without "$"
    (["(in millions, except per share data) Prior Outlook Current Outlook",
      "Diluted EPS $25.20 - $25.60 $25.45 - $25.85",
      "New stores, net 25 - 30 25 - 30",
      "Net sales $11,000 - $11,100 $11,050 - $11,150"], "Fiscal 2023 Outlook",
     "Raised its outlook: diluted eps to $25.45 - $25.85 (from $25.20 - $25.60; $0.25 higher at "
     "the midpoint), net sales to $11,050 million - $11,150 million (from $11,000 million - "
     "$11,100 million; $50 million higher at the midpoint); unchanged: new stores, net (25 - "
     "30)"),
])
def test_a_blocks_order_and_its_scale_follow_its_header(rows: list[str], heading: str,
                                                        expected: str) -> None:
    """The review's cases: the order a header names, and the heading's scale only on the rows
    of amounts."""
    text = revision_text(revision_moves(rows, heading))
    assert text == expected, text
