"""Superlatives over a real table whose columns are what is ranked: JPMorgan's segment results
(10-Q, Q2 2022, printed page 21), a ruled header of segment names over rows printed as text, in
two blocks side by side. The winner is named only from the whole table, and every citation holds
under the verifier."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rag_assets.core.evaluation.answer_correctness import answer_lead
from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.direct import direct_answer
from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit, page_table_rows, pages_titled
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.superlatives import MAX_PAGES_TITLED
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import real_filing

from .conftest import Corpus, real_corpus


def direct_answer_to(text: str, *args: Any, **kwargs: Any) -> DirectAnswer | None:
    """The direct answer to ``text``, read as every caller reads a question."""
    return direct_answer(read_question(text), *args, **kwargs)

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
DOC, YEAR, PAGE = "jpmorgan-10q-q2", 2022, 20  # printed page 21


@cache
def _pages() -> PageTexts:
    return PageTexts.from_pages(DOC, YEAR, real_filing(
        "financebench-wide/pdfs/JPMORGAN_2022Q2_10Q.pdf").pages)


def _rows(pages: PageTexts, page: int = PAGE) -> list[EvidenceUnit]:
    return page_table_rows(pages, DOC, YEAR, page)


def _ask(question: str, selected: list[EvidenceUnit], whole_pages: bool = True):  # noqa: ANN202
    pages = _pages()
    found = direct_answer_to(question, selected, selected,
                          (lambda d, y, p: page_table_rows(pages, d, y, p)) if whole_pages
                          else None)
    return found, pages


def test_the_segment_with_the_lowest_quarterly_net_income_is_read_across_both_blocks() -> None:
    rows = _rows(_pages())
    # retrieval returned only the first block's row: the page is read for the rest
    first_block = [u for u in rows if u.text.startswith("Net income/(loss)")
                   and "Consumer & Community Banking three months 2022" in u.text]
    assert len(first_block) == 1
    found, pages = _ask("Which of JPM's business segments had the lowest net income in Q2 2022?",
                        first_block)
    assert found is not None
    # Q2 2022 (three months): CCB 3,100, CIB 3,725, CB 994, AWM 1,004, Corporate (174); the
    # six months' columns and the total are not compared
    assert found.text == ("Corporate had the lowest net income/(loss) (three months 2022): "
                          "-$174 million.")
    claim = verify_claims([found.claim()], pages)[0]
    assert [c.mark for c in claim.citations] == ["valid"]


def test_the_highest_revenue_of_the_half_year_reads_the_six_months_columns() -> None:
    rows = _rows(_pages())
    found, _ = _ask("Which JPM segment had the highest total net revenue in the six months "
                    "ended June 30, 2022 (H1 2022)?", rows)
    # without a quarter asked, a name under both the three and the six months' columns of
    # 2022 is unsure: no winner rather than a guess
    assert found is None


def test_no_winner_from_a_block_alone() -> None:
    rows = _rows(_pages())
    first_block = [u for u in rows if "Consumer & Community Banking three months 2022" in u.text]
    found, _ = _ask("Which of JPM's business segments had the lowest net income in Q2 2022?",
                    first_block, whole_pages=False)
    # Commercial Banking (994) is the lowest of the first block; without the block of Asset &
    # Wealth Management, Corporate and the total the table is not whole: no answer
    assert found is None


# MGM Resorts' Q4 2022 earnings release, printed page 13: net revenues and adjusted property
# EBITDAR by region under a stacked header (three and twelve months), the EBITDAR total printed
# under a rule without a label
MGM_DOC, MGM_YEAR, MGM_PAGE = "mgm-resorts-earnings-q4", 2022, 12


@cache
def _mgm_pages() -> PageTexts:
    return PageTexts.from_pages(MGM_DOC, MGM_YEAR, real_filing(
        "financebench-wide/pdfs/MGMRESORTS_2022Q4_EARNINGS.pdf").pages)


def _mgm_ask(question: str, table_word: str):  # noqa: ANN202
    pages = _mgm_pages()
    rows = page_table_rows(pages, MGM_DOC, MGM_YEAR, MGM_PAGE)
    quoted = [u for u in rows if table_word in u.scope and u.text.startswith("MGM China")]
    assert len(quoted) == 1, [u.scope for u in rows]
    found = direct_answer_to(question, quoted, [],
                          lambda d, y, p: page_table_rows(pages, d, y, p))
    return found, pages


def test_a_table_named_by_its_measure_ranks_its_rows_with_a_share_of_the_unlabelled_total(
        ) -> None:
    found, pages = _mgm_ask("Which region contributed the most adjusted property EBITDAR in "
                            "FY2022?", "EBITDAR")
    assert found is not None
    # 3,142,308 / 3,497,254 (the total printed without a label): 89.85%; the year's column,
    # not the quarter's (877,052)
    assert found.text == ("Las Vegas Strip Resorts had the most EBITDAR in 2022: $3,142,308 "
                          "thousand, 89.9% of the $3,497,254 thousand total (3,142,308 / "
                          "3,497,254).")
    claim = verify_claims([found.claim()], pages)[0]
    assert [c.mark for c in claim.citations] == ["valid", "valid"]


def test_the_three_months_asked_rank_the_quarters_column() -> None:
    """"in the three months ended December 31, 2022" names the year alone, but three months:
    the quarter's column (877,052), not the year's (3,142,308)."""
    found, _ = _mgm_ask("Which segment had the highest Adjusted Property EBITDAR in the three "
                        "months ended December 31, 2022?", "EBITDAR")
    assert found is not None
    assert found.text.startswith("Las Vegas Strip Resorts had the highest EBITDAR in three "
                                 "months 2022: $877,052 thousand"), found.text


def test_a_margin_of_the_measure_is_not_ranked_by_its_amounts() -> None:
    """"EBITDAR margin" is another measure than EBITDAR: a table of EBITDAR amounts names no
    winner of the margin."""
    found, _ = _mgm_ask("Which segment had the highest Adjusted Property EBITDAR margin in "
                        "2022?", "EBITDAR")
    assert found is None, found.text
    # nor a length of the year the table prints no column of
    found, _ = _mgm_ask("Which segment had the highest Adjusted Property EBITDAR in the six "
                        "months ended December 31, 2022?", "EBITDAR")
    assert found is None, found.text


def test_a_same_store_reconciliations_adjustments_are_no_members() -> None:
    """The release's same-store reconciliation prints "Acquisitions(1)" and "Dispositions(2)"
    between the Las Vegas Strip's net revenues and its same-store net revenues: adjustments
    to one segment's figure, never the segment with the highest quarter."""
    rows = page_table_rows(_mgm_pages(), MGM_DOC, MGM_YEAR, 14)
    # the two rows retrieval returned, the net revenues' adjustments
    quoted = [u for u in rows if u.text.startswith(("Acquisitions(1)", "Dispositions(2)"))][:2]
    assert len(quoted) == 2
    found = direct_answer_to("Which segment had the highest Adjusted Property EBITDAR in Q4 "
                             "2022?", quoted, [])
    assert found is None or not found.text.startswith(("Dispositions", "Acquisitions")), \
        found.text


def test_the_best_and_worst_performance_rank_the_change_from_the_prior_year() -> None:
    best, pages = _mgm_ask("Which region had the best revenue performance in 2022?", "REVENUES")
    # Las Vegas Strip 8,398,372 against 4,737,185: +77.3%; Regional +12.5%; MGM China -44.4%
    assert best is not None
    assert best.text.startswith("Las Vegas Strip Resorts had the best revenue performance of "
                                "the regions: its revenue rose 77%")
    worst, _ = _mgm_ask("Which region had the biggest decline in revenue in 2022?", "REVENUES")
    assert worst is not None
    # the others beside it, the nearest first, each cited on its row
    assert worst.text == ("MGM China had the biggest decline of the regions: its revenue fell "
                          "44% ($537,168 thousand), $673,593 thousand in 2022 against "
                          "$1,210,761 thousand in 2021 "
                          "(673,593 / 1,210,761 - 1); of the other regions, Management and other "
                          "operations fell 29% (from $339,831 thousand to $239,635 thousand); "
                          "Regional Operations rose 12% (from $3,392,363 thousand to $3,815,885 "
                          "thousand); Las Vegas Strip Resorts rose 77% (from $4,737,185 thousand "
                          "to $8,398,372 thousand).")
    for found in (best, worst):
        claim = verify_claims([found.claim()], pages)[0]
        assert {c.mark for c in claim.citations} == {"valid"}
    assert len(worst.units) == 4


def test_a_table_printed_without_rules_ranks_the_change_of_each_region() -> None:
    # Pfizer's 10-Q, Q2 2023, printed page 38: revenue by geographic area as lines of text under
    # a stacked header; the page is read whole from a quoted sentence of it
    pages = PageTexts.from_pages("pfizer-10q-q2", 2023, real_filing(
        "financebench-wide/pdfs/Pfizer_2023Q2_10Q.pdf").pages)
    rows = page_table_rows(pages, "pfizer-10q-q2", 2023, 37)
    region = [u for u in rows if u.text.startswith("Developed Europe")]
    assert len(region) == 1 and "three months 2023: 2,415" in region[0].text
    found = direct_answer_to("Which geographic region had the largest revenue decline in the "
                             "second quarter of 2023?", region, [],
                             lambda d, y, p: page_table_rows(pages, d, y, p))
    # United States -45%, Developed Europe -56%, Developed Rest of World -74%, Emerging
    # Markets -53% (5,034 to 1,305); the six months' columns are not compared
    assert found is not None
    assert found.text.startswith("Developed Rest of World had the largest revenue decline of the "
                                 "regions: its revenue fell 74% ($3,729 million), $1,305 "
                                 "million in three months 2023 against $5,034 million in three "
                                 "months 2022")
    # the other three regions after it, the nearest first, each cited on its row
    assert "; of the other regions, Developed Europe fell 56% (" in found.text
    claim = verify_claims([found.claim()], pages)[0]
    assert [c.mark for c in claim.citations] == ["valid"] * 4


# American Water Works' 10-K for 2021 (dev): the segment note's table (printed page 136) is read
# with its first row of figures ("Operating revenues $ 3,384 $ 563 $ (17) $ 3,930") as its
# header, the state table of Item 1 (printed page 7) with its first state's ("New Jersey $ 778
# ..."); Corning's 10-K for 2022 (dev) prints net sales by region over their countries (p.106)
DEV = "financebench-dev/pdfs"
AWK_DOC, AWK_YEAR, AWK_SEGMENTS, AWK_STATES = "american-water-works-10k", 2021, 135, 6
AWK_REGION = ("Which geographic region contributed the most to American Water Works's net sales "
              "in FY2021?")


@pytest.fixture(scope="module")
def regions_corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return real_corpus(Path(tmp_path_factory.mktemp("regions_lancedb")), [
        (f"{DEV}/AMERICANWATERWORKS_2021_10K.pdf", AWK_DOC, AWK_YEAR, [AWK_STATES, AWK_SEGMENTS]),
        (f"{DEV}/CORNING_2022_10K.pdf", "corning-10k", 2022, [105])])


@pytest.mark.slow
def test_the_state_table_read_with_its_headings_ranks_its_states(regions_corpus: Corpus) -> None:
    """American Water's state table prints its column headings above its top rule: read as
    its header (the group's heading "Operating Revenues" before each column's), the states are
    ranked by the revenue total, not its water part or its share; the segment table's cash flow
    line "Cash paid for capital expenditures" is no region (it was once named the top one)."""
    result = regions_corpus.answerer().ask(AWK_REGION)
    lead = answer_lead(result.answer)
    assert result.method == "direct superlative", result.answer
    assert lead == ("New Jersey had the most Operating Revenues Total: $826 million, 24.4% of the "
                    "$3,384 million total (826 / 3,384)."), lead
    assert "Cash paid" not in lead
    assert all(c.mark == "valid" for claim in result.claims for c in claim.citations)


@pytest.mark.slow
def test_a_regions_net_sales_stay_ranked_over_their_countries(regions_corpus: Corpus) -> None:
    result = regions_corpus.answerer().ask("Which geographic region contributed the most to "
                                           "Corning's net sales in FY2022?")
    assert result.method == "direct superlative", result.answer
    assert answer_lead(result.answer) == (
        "Asia Pacific had the most net sales in 2022: $7,108 million, 48.0% of the $14,805 million "
        "total (7,108 / 14,805).")
    assert all(c.mark == "valid" for claim in result.claims for c in claim.citations)


def test_line_items_across_segment_columns_are_not_ranked_as_regions() -> None:
    """The segment table read with its header (Regulated | Market-Based | Other | Consolidated)
    and its year: its rows are line items of the statements, not regions, and its columns name
    neither the measure nor the year asked: no winner, no share of "Total assets"."""
    named = {"$ 3,384": "Regulated Businesses", "$ 563": "Market-Based Businesses",
             "$ (17)": "Other", "$ 3,930": "Consolidated"}
    pages = PageTexts.from_pages(AWK_DOC, AWK_YEAR, real_filing(
        f"{DEV}/AMERICANWATERWORKS_2021_10K.pdf").pages)
    units = []
    for unit in page_table_rows(pages, AWK_DOC, AWK_YEAR, AWK_SEGMENTS):
        text = unit.text
        for figure, name in named.items():
            text = text.replace(f"{figure}:", f"{name}:")
        units.append(unit.model_copy(update={"text": text,
                                             "scope": f"10-K fiscal 2021 | {unit.scope}"}))
    capex = [u for u in units if u.text.startswith("Cash paid for capital expenditures")]
    assert len(capex) == 1 and "Regulated Businesses: 1,747" in capex[0].text
    assert direct_answer_to(AWK_REGION, capex, units) is None


@pytest.mark.slow
def test_a_table_of_products_ranks_no_region(tmp_path: Path) -> None:
    """General Mills' 10-K for fiscal 2022 (wide) prints net sales "by class of similar
    products" (Snacks first) beside its geographic table: a region question ranks no product
    ("Snacks had the most net sales" was once its answer), a product question still does."""
    corpus = real_corpus(tmp_path, [("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf",
                                     "general-mills-10k", 2022, [84])])
    region = corpus.answerer().ask("Which geographic region contributed the most to General "
                                   "Mills's net sales in FY2022?")
    lead = answer_lead(region.answer)
    assert not lead.startswith("Snacks"), lead
    assert region.method != "direct superlative" or lead.startswith("United States"), lead
    product = corpus.answerer().ask("Which product category contributed the most to General "
                                    "Mills's net sales in FY2022?")
    assert answer_lead(product.answer).startswith("Snacks had the most net sales in 2022")


@pytest.mark.slow
def test_a_gross_margin_explained_by_its_cost_of_sales_leads_with_those_causes(
        tmp_path: Path) -> None:
    """General Mills' MD&A for fiscal 2022 (wide, p.19) says its gross margin fell 190 basis
    points and gives no cause; the causes are its cost of sales': "Cost of sales increased
    $912 million ... primarily driven by a $1,514 million increase attributable to product
    rate and mix, partially offset by a $608 million decrease due to lower volume". Gross
    margin is 1 - the cost of sales ratio (the bridge), which rose: those causes lead, the
    change computed from the income statement follows, once."""
    from rag_assets.core.generation.answers import Answerer
    from rag_assets.core.ingest.filing_facts import read_facts
    from rag_assets.core.retrieval.retriever import Retriever

    path, document = "financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k"
    corpus = real_corpus(tmp_path, [(path, document, 2022, [17, 18])])
    facts = read_facts(document, 2022, real_filing(path).pages)
    answerer = Answerer(Retriever(corpus.store, corpus.embedder), corpus.pages,
                        facts=lambda d, y: facts if (d, y) == (document, 2022) else [])
    result = answerer.ask("Did General Mills' gross margin improve in fiscal 2022, and what "
                          "drove the change?")
    lead = answer_lead(result.answer)
    assert lead.startswith("No. General Mills' gross margin decreased from 35.6% in FY2021 "
                           "(gross profit of $6,448.3 million / net sales of $18,127 million) to "
                           "33.7% in FY2022"), lead
    assert lead.endswith("; a higher cost of sales ratio (Cost of sales increased $912 million in "
                         "fiscal 2022 to $12,591 million, primarily driven by a $1,514 million "
                         "increase attributable to product rate and mix, partially offset by a "
                         "$608 million decrease due to lower volume)."), lead
    assert lead.count("decreased from 35.6%") == 1
    assert all(c.mark == "valid" for claim in result.claims for c in claim.citations)


@pytest.mark.slow
def test_a_segment_question_ranks_no_geographic_table(regions_corpus: Corpus) -> None:
    """Corning's geographic table (Asia Pacific over its countries) answers a region question,
    never "Which segment had the highest net sales?"."""
    result = regions_corpus.answerer().ask("Which Corning segment had the highest net sales in "
                                           "2022?")
    assert not answer_lead(result.answer).startswith("Asia Pacific"), result.answer


# Corning's 2022 10-K, segment note (printed page 102): a column per segment, a block of rows per
# year, each block captioned "For the year ended December 31, 2022" (then 2021, 2020)
CORNING = "corning-10k", 2022, 101


@cache
def _corning() -> PageTexts:
    return PageTexts.from_pages(*CORNING[:2], real_filing(
        "financebench-dev/pdfs/CORNING_2022_10K.pdf").pages)


def _corning_net_sales_2022() -> list[EvidenceUnit]:
    rows = page_table_rows(_corning(), *CORNING)
    # retrieval returned the 2022 block's net sales row alone: the page is read for the rest
    return [u for u in rows if u.text.startswith("Segment net sales")
            and "5,023" in u.text]


def test_a_segment_note_captioned_by_year_ranks_its_columns_by_growth() -> None:
    pages = _corning()
    selected = _corning_net_sales_2022()
    assert len(selected) == 1 and "2022" in selected[0].caption
    found = direct_answer_to("Which segment of Corning grew the fastest in FY2022?", selected,
                             selected, lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is not None
    # 1,662 / 1,243 - 1 = 33.7%; Optical Communications 5,023 / 4,349 - 1 = 15.5% is second,
    # said after it with the next two, as a row table's winner is
    assert found.text == (
        "Hemlock and Emerging Growth Businesses grew the fastest of the segments: its segment "
        "net sales rose 34% ($419 million), $1,662 million for the year ended December 31, "
        "2022 against "
        "$1,243 million for the year ended December 31, 2021 (1,662 / 1,243 - 1); of the "
        "other segments, Optical Communications rose 15% (from $4,349 million to $5,023 "
        "million); Environmental Technologies fell 0% (from $1,586 million to $1,584 million); "
        "Specialty Materials fell 0% (from $2,008 million to $2,002 million).")
    claim = verify_claims([found.claim()], pages)[0]
    assert [c.mark for c in claim.citations] == ["valid", "valid"]
    assert ["1,662" in c.quote and "1,243" not in c.quote for c in claim.citations] == [
        True, False]


def test_a_segment_note_captioned_by_year_ranks_the_year_asked() -> None:
    pages = _corning()
    selected = _corning_net_sales_2022()
    found = direct_answer_to("Which Corning segment had the highest segment net sales in 2021?",
                             selected, selected,
                             lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is not None
    # the 2021 block: Optical Communications 4,349 over Display Technologies 3,700
    assert found.text == ("Optical Communications had the highest segment net sales (for the "
                          "year ended December 31, 2021): $4,349 million, 30.8% of the $14,120 "
                          "million total (4,349 / 14,120).")


def test_all_other_is_no_segment_to_rank() -> None:
    """Corning 2020's segment note (wide, p126, its year blocks printed below its rules) puts
    All Other (+102%: 465 / 230) beside its five reportable segments; ASC 280-10-50-15's
    residual is no segment, so Specialty Materials (+18%: 1,884 / 1,594) grew the fastest."""
    pages = PageTexts.from_pages("corning-10k", 2020, real_filing(
        "financebench-wide/pdfs/CORNING_2020_10K.pdf").pages)
    rows = page_table_rows(pages, "corning-10k", 2020, 125)
    selected = [u for u in rows if u.text.startswith("Segment net sales") and "1,884" in u.text]
    assert len(selected) == 1
    found = direct_answer_to("Which segment of Corning grew the fastest in FY2020?", selected,
                             selected, lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is not None
    assert found.text.startswith("Specialty Materials grew the fastest of the segments: its "
                                 "segment net sales rose 18%")


WALMART = "walmart-10k", 2020, 80  # printed page 75: the segment note, no rules, no years


@cache
def _walmart() -> PageTexts:
    return PageTexts.from_pages(*WALMART[:2], real_filing(
        "financebench-wide/pdfs/WALMART_2020_10K.pdf").pages)


def _walmart_ask(question: str) -> DirectAnswer | None:
    pages = _walmart()
    rows = page_table_rows(pages, *WALMART)
    selected = [u for u in rows if u.text.startswith("Net sales") and "120,130" in u.text]
    assert len(selected) == 1 and selected[0].caption == "Fiscal Year Ended January 31, 2020"
    return direct_answer_to(question, selected, selected,
                            lambda d, y, p: page_table_rows(pages, d, y, p))


def test_a_members_share_from_a_table_whose_columns_name_the_members_and_the_total() -> None:
    """Walmart 2020: a column per segment and "Consolidated", a block of rows per fiscal year;
    120,130 / 519,926 = 23.1%, cited on the row that prints both."""
    found = _walmart_ask("What share of Walmart's fiscal 2020 consolidated net sales came from "
                         "Walmart International?")
    assert found is not None
    assert found.text == ("Walmart International: 23.1% of consolidated net sales ($120,130 "
                          "million of $519,926 million in 2020; 120,130 / 519,926).")
    claim = verify_claims([found.claim()], _walmart())[0]
    assert {c.mark for c in claim.citations} == {"valid"}


def test_a_total_named_for_the_company_is_the_whole_a_share_is_of() -> None:
    """3M 2018 (sec-10k) p126: the geographic areas' net sales close with "Total Company"
    (32,765), the whole of the table, not a total of another measure: the United States'
    12,840 leaves 19,925 outside it, 60.8%."""
    pages = PageTexts.from_pages("3m-10k", 2018, real_filing("sec-10k/3M_2018_10K.pdf").pages)
    rows = page_table_rows(pages, "3m-10k", 2018, 126)
    found = direct_answer_to("What percentage of 3M's net sales came from outside the United "
                             "States in FY2018?", rows, rows)
    assert found is not None and found.text == (
        "Outside the United States: $19,925 million, 60.8% of net sales ($32,765 million in "
        "all, $12,840 million of it United States in 2018; (32,765 - 12,840) / 32,765).")
    assert {c.mark for c in verify_claims([found.claim()], pages)[0].citations} == {"valid"}


def test_a_share_of_a_total_that_went_to_a_part_is_read_from_the_table_of_both() -> None:
    """Walmart 2020's capital expenditures table: "eCommerce, technology, supply chain and other"
    5,643 of "Total capital expenditures" 10,705 (52.7%): the member's name holds commas, and a
    share that "went to" it is the member's share."""
    pages = _walmart()
    document, year, _ = WALMART
    page = next(p for p in pages.pages_of(document, year)
                if "New stores and clubs" in (text := pages.get(document, year, p) or "")
                and "Total capital expenditures" in text)
    rows = page_table_rows(pages, document, year, page)
    selected = [u for u in rows if u.text.startswith("eCommerce, technology, supply chain")]
    assert selected
    found = direct_answer_to("What share of Walmart's total fiscal 2020 capital expenditures "
                             "went to eCommerce, technology, supply chain and other?", selected,
                             selected, lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is not None
    assert found.text.startswith("eCommerce, technology, supply chain and other: 52.7% of total "
                                 "capital expenditures ($5,643 million of $10,705 million"), (
        found.text)


def test_by_how_much_a_row_changed_is_the_difference_of_its_two_printed_figures() -> None:
    """Walmart 2020's capital expenditures table: "New stores and clubs, including expansions
    and relocations" 77 in fiscal 2020 against 313 in 2019: down $236 million, 75.4%."""
    pages = _walmart()
    document, year, _ = WALMART
    page = next(p for p in pages.pages_of(document, year)
                if "New stores and clubs" in (text := pages.get(document, year, p) or "")
                and "Total capital expenditures" in text)
    selected = [u for u in page_table_rows(pages, document, year, page)
                if u.text.startswith("New stores and clubs")]
    found = direct_answer_to("By how much did Walmart's capital spending on new stores and clubs "
                             "(including expansions and relocations) change from fiscal 2019 to "
                             "fiscal 2020?", selected, selected)
    assert found is not None and found.kind == "comparison"
    assert found.text.startswith("Decreased by $236 million (75.4%): New stores and clubs, "
                                 "including expansions and relocations $77 million in 2020 "
                                 "against $313 million in 2019"), found.text


def test_a_segment_note_named_by_its_header_ranks_the_segments_growth() -> None:
    """Walmart U.S. 341,004 / 331,666 - 1 = 2.8%; Sam's Club 58,792 / 57,839 - 1 = 1.6%;
    International fell (120,130 against 120,824); Corporate and support prints no sales."""
    found = _walmart_ask("Which segment of Walmart grew the fastest in fiscal 2020?")
    assert found is not None
    assert found.text.startswith("Walmart U.S. grew the fastest of the segments: its net sales "
                                 "rose 3% ($9,338 million), $341,004 million")


def test_a_header_printed_over_three_rows_names_each_column() -> None:
    """Corning 2021 p26 (MD&A): "%" over "change" over "21 vs. 20", and "Year ended December
    31," printed once over the three years; each column's heading is its cells joined, the
    caption carried over the columns it spans."""
    pages = PageTexts.from_pages("corning-10k", 2021, real_filing(
        "financebench-wide/pdfs/CORNING_2021_10K.pdf").pages)
    rows = page_table_rows(pages, "corning-10k", 2021, 26)
    optical = next(u for u in rows if u.text.startswith("Optical Communications"))
    assert optical.text == (
        "Optical Communications: Year ended December 31, 2021: 4,349; Year ended December 31, "
        "2020: 3,563; Year ended December 31, 2019: 4,064; % change 21 vs. 20: 22%; "
        "% change 20 vs. 19: (12)%")
    assert not any(u.text.startswith(("Year ended", "2021")) for u in rows)  # no header as a row


def test_a_ranking_reads_the_tables_the_filing_titles_by_what_is_ranked() -> None:
    """Corning 2021: retrieval returned the geographic areas (p118), titled "for reportable
    segments" but of regions; the segment note's table (p114) is read first, then the segment
    net sales table (p26) found by its title, and Optical Communications' +$786 million
    (4,349 - 3,563) is the largest of the segments' changes (Display +528, Specialty +124,
    Environmental +216, Life Sciences +236)."""
    pages = PageTexts.from_pages("corning-10k", 2021, real_filing(
        "financebench-wide/pdfs/CORNING_2021_10K.pdf").pages)
    assert pages_titled(pages, "corning-10k", 2021, ["segment"])[:8] == [
        113, 114, 115, 116, 117, 118, 7, 14]  # the segment note's pages first
    assert 26 in pages_titled(pages, "corning-10k", 2021, ["segment"])
    selected = [u for u in page_table_rows(pages, "corning-10k", 2021, 118)
                if u.text.startswith("Total Europe")]
    assert selected
    found = direct_answer_to(
        "Which segment drove the largest share of Corning's net sales growth in FY2021?",
        selected, selected, lambda d, y, p: page_table_rows(pages, d, y, p),
        titling=lambda d, y, words: pages_titled(pages, d, y, words))
    assert found is not None
    assert found.text.startswith("Optical Communications drove the largest share of Corning's "
                                 "net sales growth of the segments: its segment net sales rose "
                                 "$786 million (22%), $4,349 million for the year ended December "
                                 "31, 2021 against $3,563 million")
    claim = verify_claims([found.claim()], pages)[0]
    assert {c.mark for c in claim.citations} == {"valid"}


def test_a_segment_note_ranks_the_segments_before_its_table_of_countries() -> None:
    """Walmart 2018's "Segments" note prints the segments' columns (p86) and, a page on, total
    revenues of its U.S. and non-U.S. operations (p87), a table named by the note alone: the
    segments asked are the columns (Walmart U.S. 318,477 / 307,833 - 1 = 3.5%, Sam's Club
    3.2%, International 1.7%), not the operations."""
    pages = PageTexts.from_pages("walmart-10k", 2018, real_filing(
        "financebench-wide/pdfs/WALMART_2018_10K.pdf").pages)
    countries = [u for u in page_table_rows(pages, "walmart-10k", 2018, 86)
                 if u.text.startswith(("U.S. operations", "Non-U.S. operations"))]
    segments = [u for u in page_table_rows(pages, "walmart-10k", 2018, 85)
                if u.text.startswith("Net sales")]
    assert countries and segments
    found = direct_answer_to("Which segment of Walmart grew the fastest in FY2018?",
                             [*countries, *segments], [*countries, *segments],
                             lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is not None
    assert found.text.startswith("Walmart U.S. grew the fastest of the segments: its net "
                                 "sales rose 3% ($10,644 million), $318,477 million")



def test_a_region_question_ranks_the_block_of_revenues_over_that_of_assets() -> None:
    """Walmart 2018's Note 15 (p86, ASC 280-10-50-41) prints "U.S. operations" and "Non-U.S.
    operations" twice, over "Total revenues" and again over "Total long-lived assets", titled
    by that split alone ("aggregated by the Company's U.S. and non-U.S. operations"): found by
    its title, the revenues block ranked (380,580 / 500,343 = 76.1%), named as the total row
    prints it (revenues, which hold membership income, not net sales alone)."""
    pages = PageTexts.from_pages("walmart-10k", 2018, real_filing(
        "financebench-wide/pdfs/WALMART_2018_10K.pdf").pages)
    question = "Which geographic region contributed the most to Walmart's net sales in FY2018?"
    assert 86 in pages_titled(pages, "walmart-10k", 2018, ["region", "geograph", "non-u.s."])
    # retrieval returned the tax note's reconciliation (p78), which ranks no region
    selected = page_table_rows(pages, "walmart-10k", 2018, 78)
    assert selected
    found = direct_answer_to(question, selected, selected,
                             lambda d, y, p: page_table_rows(pages, d, y, p),
                             titling=lambda d, y, words: pages_titled(pages, d, y, words))
    assert found is not None
    assert found.text == ("U.S. operations had the most revenues in 2018: $380,580 million, 76.1% "
                          "of the $500,343 million total (380,580 / 500,343).")
    claim = verify_claims([found.claim()], pages)[0]
    assert {c.mark for c in claim.citations} == {"valid"}
    # the assets block alone ranks nothing: its total names no measure asked
    assets = [u for u in page_table_rows(pages, "walmart-10k", 2018, 86)
              if "81,478" in u.text or "33,340" in u.text or "114,818" in u.text]
    assert direct_answer_to(question, assets, assets, None) is None


def test_a_roll_forward_ranks_nothing_nor_lends_its_page_to_a_titled_ranking() -> None:
    """Corning 2015 p172 prints a table titled by "non-U.S." and a deferred revenue roll-forward
    ("Beginning balance as of January 1", what moved it, the ending balance): a region question
    ranks neither the balances nor the flows, whether retrieval returned the roll-forward or
    the page was read for its titled table; the region is ranked from the geographic table
    (p143, printed without rules, each year over "Net sales" and "Long-lived assets", rows
    with blanks, a region's name run onto its first country's row and closed by its total)."""
    pages = PageTexts.from_pages("corning-10k", 2015, real_filing(
        "financebench-bulk/pdfs/CORNING_2015_10K.pdf").pages)
    assert 172 in pages_titled(pages, "corning-10k", 2015, ["region", "geograph", "non-u.s."])
    roll = [u for u in page_table_rows(pages, "corning-10k", 2015, 172)
            if "3,202.3" in u.text or "(182.5)" in u.text]
    assert len(roll) >= 2
    question = "Which geographic region contributed the most to Corning's net sales in FY2015?"
    assert direct_answer_to(question, roll, roll) is None
    found = direct_answer_to(question, roll, roll,
                             lambda d, y, p: page_table_rows(pages, d, y, p),
                             titling=lambda d, y, words: pages_titled(pages, d, y, words))
    assert found is not None and found.text == (
        "Asia Pacific had the most net sales in 2015: $4,982 million, 54.7% of the $9,111 "
        "million total (4,982 / 9,111).")
    assert {u.page for u in found.units} == {143}
    # its regions are no segments, though the note is headed "Reportable Segments": the
    # sentence leading into the table says they are geographic areas
    areas = page_table_rows(pages, "corning-10k", 2015, 143)
    assert direct_answer_to("Which segment of Corning grew the fastest in FY2015?", areas,
                            areas) is None
    assert {c.mark for c in verify_claims([found.claim()], pages)[0].citations} == {"valid"}


def test_a_segment_ranked_by_the_change_its_table_prints() -> None:
    """3M 2018 (sec-10k) p21: "Worldwide Sales Change By Business Segment" prints each
    segment's "Total sales change" for the year; the same table of the fourth quarter (p20)
    ranks no year."""
    pages = PageTexts.from_pages("3m-10k", 2018, real_filing("sec-10k/3M_2018_10K.pdf").pages)
    year, quarter = (page_table_rows(pages, "3m-10k", 2018, p) for p in (21, 20))
    found = direct_answer_to("Which segment of 3M grew the fastest in FY2018?", year, year)
    assert found is not None and found.text == (
        "Safety and Graphics grew the fastest: its total sales change was 9.5% (year ended "
        "December 31, 2018).")
    assert all(c.mark == "valid" for c in verify_claims([found.claim()], pages)[0].citations)
    fell = direct_answer_to("Which segment of 3M had the largest decline in net sales in FY2018?",
                            year, year)
    assert fell is not None and fell.text.startswith("Electronics and Energy had the largest "
                                                     "decline: its total sales change was -0.5%")
    assert direct_answer_to("Which segment of 3M grew the fastest in FY2018?", quarter,
                            quarter) is None
    # a ranking that names no way ("best performance") takes the printed change as it is
    best = direct_answer_to("Which segment of 3M had the best performance in FY2018?", year,
                            year)
    assert best is not None and best.text.startswith("Safety and Graphics had the best "
                                                     "performance: its total sales change")


def test_a_region_ranked_by_the_kind_of_column_asked() -> None:
    """3M 2018 (sec-10k) p127, Note 19: net sales over three years and net property over two,
    each run of years under its own name; the region is ranked by the column the question's
    measure names, in the year asked."""
    pages = PageTexts.from_pages("3m-10k", 2018, real_filing("sec-10k/3M_2018_10K.pdf").pages)
    rows = page_table_rows(pages, "3m-10k", 2018, 126)  # the page index of p127
    sales = direct_answer_to("Which geographic region contributed the most to 3M's net sales "
                             "in FY2018?", rows, rows)
    assert sales is not None and sales.text == (
        "United States had the most net sales in 2018: $12,840 million, 39.2% of the $32,765 "
        "million total (12,840 / 32,765).")
    plant = direct_answer_to("Which region held the most property, plant and equipment at 3M "
                             "in 2018?", rows, rows)
    assert plant is not None and plant.text.startswith(
        "United States had the most property, plant and equipment - net in 2018: $4,915 "
        "million, 56.2% of the $8,738 million total")
    grew = direct_answer_to("Which geographic area of 3M grew net sales the fastest in 2018?",
                            rows, rows)
    assert grew is not None and grew.text.startswith(
        "Asia Pacific grew net sales the fastest of the geographic areas: its net sales rose 5%")
    for found in (sales, plant, grew):
        assert all(c.mark == "valid"
                   for c in verify_claims([found.claim()], pages)[0].citations)


def test_no_segment_grows_in_a_geographic_split_a_balance_or_a_share() -> None:
    """Coca-Cola 2019 (bulk) p132, in its segment note: revenue and "property, plant and
    equipment - net" of the United States and International (ASC 280-10-50-41, no segments),
    and p49: each segment's share of revenue ("17.3%", "11.0", ...). International's plant rose
    24% and Global Ventures' share 214%: neither is a segment's growth, so no winner."""
    pages = PageTexts.from_pages("coca-cola-10k", 2019, real_filing(
        "financebench-bulk/pdfs/COCACOLA_2019_10K.pdf").pages)
    split = page_table_rows(pages, "coca-cola-10k", 2019, 132)
    shares = page_table_rows(pages, "coca-cola-10k", 2019, 49)
    plant = [u for u in split if "6,776" in u.text]
    assert plant and any("Global Ventures" in u.text and "6.9" in u.text for u in shares)
    question = "Which segment of Coca-Cola grew the fastest in FY2019?"
    for rows in (split, plant, shares):
        assert direct_answer_to(question, rows, rows) is None
    # the same split still answers where a region is asked, from the revenue table only
    region = direct_answer_to("Which geographic region contributed the most to Coca-Cola's "
                              "net operating revenues in FY2019?", split, split)
    assert region is not None and region.text == (
        "International had the most revenues in 2019: $25,551 million.")


def test_a_segment_notes_block_under_its_year_and_a_caption_ranks_its_columns() -> None:
    """Coca-Cola 2019 (bulk) p133: a column per segment, named over stacked lines, a block per
    year captioned "2019" with "Net operating revenues:" captioning its rows within it; the
    year holds over the nested caption. Global Ventures (Costa's first full year) grew most:
    2,562 / 770 - 1 = 233%; Europe, Middle East & Africa alone fell (7,058 / 7,099 - 1)."""
    pages = PageTexts.from_pages("coca-cola-10k", 2019, real_filing(
        "financebench-bulk/pdfs/COCACOLA_2019_10K.pdf").pages)
    rows = page_table_rows(pages, "coca-cola-10k", 2019, 133)
    revenues = [u for u in rows if u.text.startswith("Total net operating revenues")]
    assert [(u.caption, u.period) for u in revenues] == [
        ("Net operating revenues", year) for year in ("2019", "2018", "2017")]
    grew = direct_answer_to("Which segment of Coca-Cola grew the fastest in FY2019?", rows, rows)
    assert grew is not None and grew.text.startswith(
        "Global Ventures grew the fastest of the segments: its total net operating revenues "
        "rose 233% (1,792 million), 2,562 million in 2019 against 770 million in 2018"), grew
    fell = direct_answer_to("Which segment had the largest decline in net operating revenues "
                            "in 2019?", rows, rows)
    assert fell is not None and fell.text.startswith(
        "Europe, Middle East & Africa had the largest decline of the segments: its total net "
        "operating revenues fell 1% (41 million)"), fell
    claim = verify_claims([grew.claim()], pages)[0]
    assert [c.mark for c in claim.citations] == ["valid", "valid"]


def test_a_segment_table_per_year_captioned_as_of_and_year_ended() -> None:
    """Netflix 2015 (wide) p60: a table per year under "As of/Year ended December 31, 2015",
    its segments' names stacked over the columns and "(in thousands)" centred under them.
    International streaming grew fastest (1,953,435 / 1,308,061 - 1 = 49%), DVD fell 16%."""
    pages = PageTexts.from_pages("netflix-10k", 2015, real_filing(
        "financebench-wide/pdfs/NETFLIX_2015_10K.pdf").pages)
    rows = page_table_rows(pages, "netflix-10k", 2015, 60)
    grew = direct_answer_to("Which segment of Netflix grew the fastest in FY2015?", rows, rows)
    assert grew is not None and grew.text == (
        "International Streaming grew the fastest of the segments: its revenues rose 49% "
        "($645,374 thousand), $1,953,435 thousand in the year ended December 31, 2015 against "
        "$1,308,061 thousand in the year ended December 31, 2014 (1,953,435 / 1,308,061 - 1); "
        "of the other segments, Domestic Streaming rose 22% (from $3,431,434 thousand to "
        "$4,180,339 thousand); Domestic DVD fell 16% (from $765,161 thousand to $645,737 "
        "thousand).")
    fell = direct_answer_to("Which segment of Netflix had the largest decline in revenues in "
                            "2015?", rows, rows)
    assert fell is not None and fell.text.startswith("Domestic DVD had the largest decline"), fell


def test_a_region_is_ranked_from_segments_the_filer_defines_by_geography() -> None:
    """Kraft Heinz 2021 (bulk): "three reportable segments defined by geographic region:
    United States, International, and Canada" (Item 7); its "Net sales by segment" (p114)
    ranks its regions. Without that sentence, a segment table ranks no region: the table the
    filing titles by geography does."""
    pages = PageTexts.from_pages("kraft-heinz-10k", 2021, real_filing(
        "financebench-bulk/pdfs/KRAFTHEINZ_2021_10K.pdf").pages)
    said = ("We manage and report our operating results through three reportable segments "
            "defined by geographic region: United States, International, and Canada.")
    stated = EvidenceUnit(chunk_id="c", document="kraft-heinz-10k", year=2021, chunk_rank=0,
                          page=28, located=True, quote=said, text=said)
    other = stated.model_copy(update={"quote": "We operate in a highly competitive industry.",
                                      "text": "We operate in a highly competitive industry."})
    question = ("Which geographic region contributed the most to Kraft Heinz's net sales in "
                "FY2021?")

    def ask(unit: EvidenceUnit) -> DirectAnswer | None:
        return direct_answer_to(question, [unit], [unit],
                                lambda d, y, p: page_table_rows(pages, d, y, p),
                                titling=lambda d, y, words: pages_titled(pages, d, y, words))

    found = ask(stated)
    assert found is not None and found.text == (
        "United States had the most net sales in 2021: $18,604 million, 71.4% of the $26,042 "
        "million total (18,604 / 26,042).")
    # without it, the note's own "Our net sales by geography were (in millions):" (p116, its
    # dates' line between the title and the table) ranks the countries, not the segments
    by_country = ask(other)
    assert by_country is not None and by_country.text.startswith(
        "United States had the most net sales in 2021: $18,604 million"), by_country
    assert {u.page for u in by_country.units} == {116}
    # the same table titled "by segment" ranks the segments, places though they are
    rows = page_table_rows(pages, "kraft-heinz-10k", 2021, 114)
    grew = direct_answer_to("Which segment of Kraft Heinz grew the fastest in FY2021?", rows,
                            rows)
    assert grew is not None and grew.text.startswith(
        "International grew the fastest of the segments: its net sales rose 7%"), grew


def test_a_share_is_of_the_whole_table_not_of_a_subtotal_the_members_reach() -> None:
    """American Water 2022 (dev), p.5: the five states, "Total—Top Five States" (2,745),
    "Other (c)" (760, no state) and "Total Regulated Businesses" (3,505): New Jersey's $909
    million is 25.9% of the whole, as the table prints, not 33.1% of the top five."""
    pages = PageTexts.from_pages("american-water-works-10k", 2022, real_filing(
        "financebench-dev/pdfs/AMERICANWATERWORKS_2022_10K.pdf").pages)
    rows = page_table_rows(pages, "american-water-works-10k", 2022, 5)
    found = direct_answer_to("Which state generated the most Regulated Businesses operating "
                             "revenue for American Water Works in 2022?", rows, rows)
    assert found is not None and found.text.startswith("New Jersey had the most"), found
    assert found.text.endswith("$909 million, 25.9% of the $3,505 million total (909 / 3,505).")


def test_a_segment_table_titled_over_its_period_ranks_its_one_segment() -> None:
    """American Water's Q2 2023 10-Q (bulk), p.31: "Presented in the tables below is summarized
    segment information:" over "As of or for the Three Months Ended June 30, 2023", then the
    columns Regulated Businesses, Other (not a segment: ASC 280-10-50-15) and Consolidated.
    The title a line above, the period in it, the one segment ranked with its share."""
    pages = PageTexts.from_pages("american-water-works-10q-q2", 2023, real_filing(
        "financebench-bulk/pdfs/AMERICANWATERWORKS_2023Q2_10Q.pdf").pages)
    said = "We operate in a highly regulated industry."
    unit = EvidenceUnit(chunk_id="c", document="american-water-works-10q-q2", year=2023,
                        chunk_rank=0, page=31, located=True, quote=said, text=said)

    def ask(question: str) -> DirectAnswer | None:
        return direct_answer_to(question, [unit], [unit],
                                lambda d, y, p: page_table_rows(pages, d, y, p),
                                titling=lambda d, y, words: pages_titled(pages, d, y, words))

    found = ask("Which segment contributed the most to American Water Works's net sales in "
                "Q2 2023?")
    assert found is not None and found.text == (
        "Regulated Businesses, the only segment the table ranks beside what is not one, had "
        "operating revenues of $1,005 in the three months ended June 30, 2023, 91.6% of the "
        "$1,097 total (1,005 / 1,097).")
    assert verify_claims([found.claim()], pages, 0.5)[0].citations[0].mark == "valid"
    # the prior year's table is on the next page; "Other" grew faster, and is no segment
    assert ask("Which segment of American Water Works grew the fastest in Q2 2023?") is None


def test_a_segments_decline_is_ranked_on_the_row_of_the_whole_measure() -> None:
    """The segment results (page 177 printed) print "Noninterest revenue" above "Total net
    revenue": net sales asked of a bank are its total net revenue, not one part of it, even
    when retrieval returned the part's row (CCB's noninterest revenue fell 17%, its total net
    revenue 1%; CIB's total fell 10%)."""
    pages = _pages()
    part = [u for u in _rows(pages, 176) if u.text.startswith("Noninterest revenue:")][:1]
    assert part
    found, _ = _ask("Which segment of JPMorgan had the largest decline in net sales in Q2 2022?",
                    part)
    assert found is not None and found.text.startswith(
        "Corporate & Investment Bank had the largest decline of the segments: its total net "
        "revenue fell 10%")


def test_a_segments_profit_change_is_given_with_its_margins() -> None:
    """Walmart 2020's segment note prints each segment's net sales and operating income in a
    block per fiscal year: the segment that drove the decline in operating income is given with
    its operating income as a share of its own net sales in both years (3,370 / 120,130 and
    4,883 / 120,824), each row cited."""
    pages = _walmart()
    rows = page_table_rows(pages, *WALMART)
    selected = [u for u in rows if u.text.startswith("Operating income") and "3,370" in u.text]
    assert len(selected) == 1  # retrieval returned the 2020 block's operating income row
    found = direct_answer_to("Which segment drove the decline in Walmart's operating income "
                             "in fiscal 2020?", selected, selected,
                             lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is not None and found.named == "Walmart International"
    # its margins beside its own change, then how the other segments moved
    assert ("(3,370 - 4,883) (its operating income (loss) as a % of net sales: 2.8% against "
            "4.0%); of the other segments, Walmart U.S. fell 0% (from 17,386 million to 17,380 "
            "million); Sam's Club rose 8%") in found.text, found.text
    claim = verify_claims([found.claim()], pages)[0]
    assert len(claim.citations) == 4 and all(c.mark == "valid" for c in claim.citations)



@pytest.mark.slow
def test_a_reconciliations_items_are_no_segments(tmp_path: Path) -> None:
    """Corning's Q2 2023 10-Q p20 reconciles the segments' net income to the consolidated
    figure (ASC 280-10-50-30), its reconciling items under "Unallocated amounts" ("Gain on
    foreign currency hedges related to translated earnings", 116, was once the segment of the
    highest net income): none is a segment, so the table ranks none; the segment note's table
    of net income by segment (its p27 in MD&A, its note's chunk) ranks Display Technologies."""
    path, document = "financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2"
    pages = PageTexts.from_pages(document, 2023, real_filing(path).pages)
    reconciled = [u for u in page_table_rows(pages, document, 2023, 20) if "net income" in u.scope]
    assert any("Gain on foreign currency hedges" in u.text for u in reconciled)
    question = "Which segment of Corning had the highest net income in Q2 2023?"
    assert direct_answer_to(question, reconciled, reconciled) is None
    result = real_corpus(tmp_path, [(path, document, 2023, range(17, 29))]).answerer().ask(
        question)
    assert answer_lead(result.answer).startswith(
        "Display Technologies had the highest segment net income (the three months ended June "
        "30, 2023): $208 million"), result.answer
    assert all(c.mark == "valid" for claim in result.claims for c in claim.citations)


def test_a_segment_table_printed_without_rules_is_found_by_its_leading_sentence() -> None:
    """Corning 2015: retrieval returns the sentences that give each segment's share of sales;
    the segment tables are printed without rules: p29's stacked header prints its "% Change"
    cells before the years ("15 vs. 14", "14 vs. 13" name them), p143's header runs on the
    line of the sentence that leads into it ("... product lines and reportable segments
    follow (in millions): ... 2015 2014 2013"). Both are found by the words that title them,
    and the fastest grower is computed from the years' columns, not read from the wrong
    "% Change"."""
    pages = PageTexts.from_pages("corning-10k", 2015, real_filing(
        "financebench-bulk/pdfs/CORNING_2015_10K.pdf").pages)
    titled = pages_titled(pages, "corning-10k", 2015, ["segment"])
    assert {28, 142} <= set(titled)
    areas = page_table_rows(pages, "corning-10k", 2015, 143)

    def ask(question: str) -> DirectAnswer | None:
        return direct_answer_to(question, areas, areas,
                                lambda d, y, p: page_table_rows(pages, d, y, p),
                                titling=lambda d, y, words: pages_titled(pages, d, y, words))

    fastest = ask("Which segment of Corning grew the fastest in FY2015?")
    # the measure as the table's title names it, its scale as its title prints it (with
    # no-break spaces: "net\xa0sales\xa0by\xa0reportable\xa0segment\xa0(in\xa0millions)")
    assert fastest is not None and fastest.text.startswith(
        "Optical Communications grew the fastest of the segments: its net sales rose 12% (328 "
        "million), 2,980 million in 2015 against 2,652 million in 2014")
    largest = ask("Which segment contributed the most to Corning's net sales in FY2015?")
    assert largest is not None and largest.text.startswith(
        "Display Technologies had the most net sales in 2015: $3,086")
    # p45's table "for the Display Technologies segment" is one segment's lines and
    # reconciling items: no member of it had the largest decline
    display = page_table_rows(pages, "corning-10k", 2015, 45)
    for question in ("Which segment of Corning had the largest decline in FY2015?",
                     "Which segment contributed the most to Corning's net income in FY2015?"):
        assert direct_answer_to(question, display, display) is None, question
    fell = ask("Which segment of Corning had the largest decline in FY2015?")
    assert fell is not None and fell.text.startswith(
        "Display Technologies had the largest decline of the segments: its net sales fell 20% "
        "($765 million)"), fell.text
    assert {c.mark for c in verify_claims([fastest.claim()], pages)[0].citations} == {"valid"}


def test_the_segment_note_is_read_before_unruled_tables_that_name_segments() -> None:
    """Coca-Cola 2019's segment note (p.134, ruled) is among the pages a ranking reads
    (``MAX_PAGES_TITLED``), after MD&A's tables printed without rules whose leading sentences
    name a segment."""
    pages = PageTexts.from_pages("coca-cola-10k", 2019, real_filing(
        "financebench-bulk/pdfs/COCACOLA_2019_10K.pdf").pages)
    titled = pages_titled(pages, "coca-cola-10k", 2019, ["segment"])
    assert 133 in titled[:MAX_PAGES_TITLED] and len(titled) > 6


@pytest.mark.parametrize(("question", "text"), [
    ("Which segment of Lockheed Martin had the highest operating profit in 2021?",
     "Aeronautics had the highest business segment operating profit in 2021: $2,799 million, "
     "37.9% of the 7,379 million total (2,799 / 7,379)."),
    ("Which segment of Lockheed Martin had the lowest operating profit in 2021?",
     "Space had the lowest business segment operating profit in 2021: 1,134 million."),
    ("Which segment of Lockheed Martin had the highest net sales in 2021?",
     "Aeronautics had the highest net sales in 2021: $26,748 million, 39.9% of the $67,044 "
     "million total (26,748 / 67,044)."),
])
def test_a_block_headed_by_a_measure_without_a_colon_is_ranked_alone(question: str,
                                                                    text: str) -> None:
    """Lockheed Martin's 2021 10-K (dev, Note 3's summary, p82) prints its four segments twice,
    under "Net sales" and under "Operating profit", each heading a row of its own with no
    colon: a heading that is a measure of the vocabulary captions the rows under it, so each
    block is ranked alone (the segments' names twice over were no ranking at all)."""
    pages = PageTexts.from_pages("lockheed-martin-10k", 2021, real_filing(
        "financebench-dev/pdfs/LOCKHEEDMARTIN_2021_10K.pdf").pages)
    rows = page_table_rows(pages, "lockheed-martin-10k", 2021, 81)
    assert [u.caption for u in rows[:2]] == ["Net sales", "Net sales"]
    # the heading holds up to the row that names it again, then the next heading takes over
    assert [u.caption for u in rows[4:7]] == ["Net sales", "Operating profit", "Operating profit"]
    # "FAS/CAS operating adjustment", after both blocks: under the words alone after the
    # operating profit block's total, the next block's heading
    assert rows[10].caption == "Unallocated items"
    found = direct_answer_to(question, rows, rows, None)
    assert found is not None and found.text == text, found
    claim = verify_claims([found.claim()], pages)[0]
    assert {c.mark for c in claim.citations} == {"valid"}


def test_a_measure_heading_holds_to_the_row_that_names_it_again() -> None:
    """Lockheed Martin's 2021 cash flow statement (p69) heads its blocks "Investing
    activities" and "Financing activities" without colons: each captions its rows up to its
    own "Net cash used for ... activities", and the rows after both are under none."""
    pages = PageTexts.from_pages("lockheed-martin-10k", 2021, real_filing(
        "financebench-dev/pdfs/LOCKHEEDMARTIN_2021_10K.pdf").pages)
    caption = {u.text.split(":")[0]: u.caption
               for u in page_table_rows(pages, "lockheed-martin-10k", 2021, 68)}
    assert caption["Capital expenditures"] == "Investing activities"
    assert caption["Net cash used for investing activities"] == "Investing activities"
    assert caption["Dividends paid"] == "Financing activities"
    assert caption["Cash and cash equivalents at end of year"] == ""


def test_one_block_of_a_segment_note_that_repeats_its_rows_ranks_no_segment() -> None:
    """MGM Resorts' Q2 2023 10-Q prints Casino, Rooms, Food and beverage and Entertainment
    under each segment: a chunk that holds Las Vegas Strip Resorts' block alone ranks revenue
    sources, never segments ("Rooms had the highest net revenues"); the page, read whole,
    prints them again."""
    document, year = "mgm-resorts-10q-q2", 2023
    pages = PageTexts.from_pages(document, year, real_filing(
        "financebench-wide/pdfs/MGMRESORTS_2023Q2_10Q.pdf").pages)
    rows = page_table_rows(pages, document, year, 24)
    block = [u.model_copy(update={"scope": f"chunk | {u.scope}"}) for u in rows[:5]]
    assert [u.text.split(":")[0] for u in block[:2]] == ["Casino", "Rooms"]
    question = "Which MGM Resorts segment had the highest net revenues in Q2 2023?"
    found = direct_answer_to(question, block[:1], block,
                             lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is None or not found.text.startswith("Rooms"), found.text


NIKE_2022 = ("nike-10k", 2022)


@cache
def _nike_2022() -> PageTexts:
    return PageTexts.from_pages(*NIKE_2022, real_filing(
        "financebench-bulk/pdfs/NIKE_2022_10K.pdf").pages)


@pytest.mark.parametrize(("question", "lead"), [
    ("Which segment of Nike grew the fastest in FY2022?",
     "Asia Pacific & Latin America grew the fastest of the segments: its revenues rose 11% ($612 "
     "million), $5,955 million in 2022 against $5,343 million in 2021 (5,955 / 5,343 - 1); of "
     "the other segments, "),
    ("Which segment of Nike had the highest revenue in FY2022?",
     "North America had the highest nike, inc. revenues in 2022: $18,353 million"),
])
def test_a_segment_note_printing_its_measures_in_blocks_is_ranked_by_the_block_asked(
        question: str, lead: str) -> None:
    """Nike's FY2022 segment note (p89, titled on the page before) prints its segments under
    "REVENUES", again under "EARNINGS BEFORE INTEREST AND TAXES", "ADDITIONS TO PROPERTY,
    PLANT AND EQUIPMENT" and "DEPRECIATION": each block holds through "Total NIKE Brand" (a
    part's total) to the total that closes it, so the revenues block is ranked whole, Converse
    with the regions; Global Brand Divisions' $25 million and Corporate's $40 million are
    under 1% of the segments' revenues and no rate of theirs (308%, -280%) is a ranking."""
    pages = _nike_2022()
    rows = page_table_rows(pages, *NIKE_2022, 89)
    assert [u.caption for u in rows if u.text.startswith("Greater China")] == [
        "REVENUES", "EARNINGS BEFORE INTEREST AND TAXES",
        "ADDITIONS TO PROPERTY, PLANT AND EQUIPMENT", "DEPRECIATION"]
    assert all(u.scope.startswith("Segment Information") for u in rows)
    found = direct_answer_to(question, rows, rows, lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is not None and found.text.startswith(lead), found
    if "grew the fastest" in question:  # the members too small to rank are named apart
        assert found.text.endswith(
            ". Not ranked by its rate, as under 1% of the members' revenues in 2021: Global "
            "Brand Divisions, 0.1%; Corporate, 0.1%.") and "Global Brand Divisions rose" not in (
            found.text)
    assert {c.mark for c in verify_claims([found.claim()], pages)[0].citations} == {"valid"}


@pytest.mark.parametrize(("question", "lead"), [
    ("Which geographic region contributed the most to Nike's net sales in FY2022?",
     "North America had the most nike, inc. revenues in 2022: $18,353 million, 39.3% of the "
     "$46,710 million total (18,353 / 46,710)."),
    ("Which region had the worst topline performance for Nike during FY2022?",
     "Greater China had the worst topline performance of the regions: its topline fell 9% ($743 "
     "million), $7,547 million in 2022 against $8,290 million in 2021 (7,547 / 8,290 - 1); of "
     "the other regions, "),
])
def test_a_ranking_finds_the_segment_note_by_what_the_page_is(question: str, lead: str) -> None:
    """Retrieval returned Nike's sentence that its segments are its regions, not the segment
    note: the note's pages are read first, the table at the top of p89 among them, though no
    line of that page titles it."""
    pages = _nike_2022()
    assert pages_titled(pages, *NIKE_2022, ["segment"])[:2] == [89, 90]
    said = ("The NIKE Brand segments are defined by geographic regions for operations "
            "participating in NIKE Brand sales activity.")
    selected = EvidenceUnit(chunk_id="c", document=NIKE_2022[0], year=NIKE_2022[1],
                            chunk_rank=0, page=87, located=True, quote=said, text=said)
    found = direct_answer_to(question, [selected], [selected],
                             lambda d, y, p: page_table_rows(pages, d, y, p),
                             titling=lambda d, y, words: pages_titled(pages, d, y, words))
    assert found is not None and found.text.startswith(lead), found
    if "grew the fastest" in question:  # the members too small to rank are named apart
        assert found.text.endswith(
            ". Not ranked by its rate, as under 1% of the members' revenues in 2021: Global "
            "Brand Divisions, 0.1%; Corporate, 0.1%.") and "Global Brand Divisions rose" not in (
            found.text)
    assert {c.mark for c in verify_claims([found.claim()], pages)[0].citations} == {"valid"}


def test_intersegment_sales_rank_no_segment() -> None:
    """Lockheed Martin's 2021 segment note prints each segment's intersegment sales (p82)
    beside its net sales (p81): eliminated in consolidation (ASC 280-10-50-22(b)), their
    growth (MFC's 562 to 618) is no segment's growth; Rotary and Mission Systems' net sales
    grew the most (16,789 / 15,995 - 1; MFC 3.9%, Aeronautics 1.8%, Space -0.6%)."""
    pages = PageTexts.from_pages("lockheed-martin-10k", 2021, real_filing(
        "financebench-dev/pdfs/LOCKHEEDMARTIN_2021_10K.pdf").pages)
    rows = [u for page in (82, 81) for u in page_table_rows(pages, "lockheed-martin-10k", 2021,
                                                             page)]
    assert any("Intersegment" in u.scope for u in rows)
    found = direct_answer_to("Which segment of Lockheed Martin grew the fastest in FY2021?",
                             rows, rows, None)
    assert found is not None and found.text.startswith(
        "Rotary and Mission Systems grew the fastest of the segments: its net sales rose 5% "
        "(794 million), 16,789 million in 2021 against 15,995 million in 2020"), found


def test_a_row_of_something_else_is_no_comparison_of_the_measure_asked() -> None:
    """Lockheed Martin's Q2 2023 release (p.12) prints its backlog over a table of the weeks in
    each quarter ("Third quarter 13 13"): asked how the backlog moved, the weeks' row, a row
    of the periods themselves, is no answer ("Unchanged: Third quarter $13 million ..."); the
    backlog's rows are."""
    document, year = "lockheed-martin-10q-q2", 2023
    pages = PageTexts.from_pages(document, year, real_filing(
        "financebench-bulk/pdfs/LOCKHEEDMARTIN_2023Q2_10Q.pdf").pages)
    rows = {u.text.split(":")[0]: u for u in page_table_rows(pages, document, year, 12)}
    asked = ("By how much did Lockheed Martin's total backlog increase from December 31, 2022 "
             "to June 25, 2023?")
    assert direct_answer_to(asked, [rows["Third quarter"]], [rows["Third quarter"]]) is None
    found = direct_answer_to(asked, [rows["Total backlog"]], [rows["Total backlog"]])
    assert found is not None and found.text.startswith(
        "Increased by $8,013 million (5.3%): Total backlog $158,011 million"), found and found.text
    # a segment's row is its own measure: asked of it, it answers
    segment = direct_answer_to("How did Lockheed Martin's Aeronautics backlog change from "
                               "December 31, 2022 to June 25, 2023?", [rows["Aeronautics"]],
                               [rows["Aeronautics"]])
    assert segment is not None and segment.text.startswith("Increased by $1,470 million"), (
        segment and segment.text)


def test_a_tables_figures_run_together_are_quoted_as_the_row_that_names_what_is_asked() -> None:
    """The same page as the chunker reads it, its lines run into one sentence (the cash flow
    statement's end, the backlog table, the deliveries): asked the backlog, the page's "Total
    backlog" row is quoted in its place; asked what no row names, the run stays."""
    from rag_assets.core.generation.evidence import printed_unit
    from rag_assets.core.generation.extractive import ScoredUnit, rows_for_runs

    document, year = "lockheed-martin-10q-q2", 2023
    pages = PageTexts.from_pages(document, year, real_filing(
        "financebench-bulk/pdfs/LOCKHEEDMARTIN_2023Q2_10Q.pdf").pages)
    lines = (pages.get(document, year, 12) or "").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Repayments of long-term"))
    end = next(i for i, line in enumerate(lines) if line.startswith("F-35"))
    run = printed_unit(document, year, 12, " ".join(lines[start:end + 1]))
    chosen = [ScoredUnit(unit=run, score=0.5, dense=0, bm25=0, coverage=0, matches=0)]

    def rows(d: str, y: int, p: int) -> list[EvidenceUnit]:
        return page_table_rows(pages, d, y, p)

    asked = read_question("What was Lockheed Martin's total backlog at June 25, 2023?"
                          ).model_copy(update={"companies": ["Lockheed Martin"]})
    quoted = rows_for_runs(asked, chosen, rows)
    assert [s.unit.text for s in quoted] == ["Total backlog: 2023: $ 158,011; 2022: $ 149,998"]
    assert quoted[0].unit.is_row and quoted[0].unit.page == 12 and quoted[0].score == 0.5
    # asked of a date the table does not head (June 26, 2022 is a deliveries column; the
    # backlog's 2022 column is Dec. 31, 2022), the run stays, its headings printed
    other_day = read_question("How much was Lockheed Martin's total backlog at June 26, 2022?"
                              ).model_copy(update={"companies": ["Lockheed Martin"]})
    assert rows_for_runs(other_day, chosen, rows) == chosen
    both = read_question("How much did Lockheed Martin's total backlog grow from December 31, "
                         "2022 to June 25, 2023?"
                         ).model_copy(update={"companies": ["Lockheed Martin"]})
    assert rows_for_runs(both, chosen, rows)[0].unit.text.startswith("Total backlog")
    # the same run quoted twice gives its row once
    twice = [chosen[0], chosen[0].model_copy(update={"score": 0.4})]
    assert [s.unit.text for s in rows_for_runs(asked, twice, rows)] == [
        "Total backlog: 2023: $ 158,011; 2022: $ 149,998", run.text]


def test_a_misread_row_never_takes_the_place_of_the_run_it_was_read_from() -> None:
    """JPMorgan's Q1 2021 highlights (p.2): five quarters' columns under a markdown header of
    three, so the page's rows carry figures in their labels ("Cash dividends declared per share
    0.90 0.90: ...") and its header row prints none ("1Q21; 4Q20"): the run stays as quoted."""
    from rag_assets.core.generation.evidence import printed_unit
    from rag_assets.core.generation.extractive import ScoredUnit, rows_for_runs

    document, year = "jpmorgan-10q-q1", 2021
    pages = PageTexts.from_pages(document, year, real_filing(
        "financebench-wide/pdfs/JPMORGAN_2021Q1_10Q.pdf").pages)
    lines = (pages.get(document, year, 2) or "").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Book value per share"))
    run = printed_unit(document, year, 2, " ".join(lines[start:start + 6]))
    chosen = [ScoredUnit(unit=run, score=0.5, dense=0, bm25=0, coverage=0, matches=0)]
    asked = read_question("What quarterly dividend per share did JPMorgan declare in Q1 2021?"
                          ).model_copy(update={"companies": ["JPMorgan Chase"]})
    assert rows_for_runs(asked, chosen, lambda d, y, p: page_table_rows(pages, d, y, p)) == chosen



MGM_Q2 = ("mgm-resorts-10q-q2", 2023)


@cache
def _mgm_q2() -> PageTexts:
    return PageTexts.from_pages(*MGM_Q2, real_filing(
        "financebench-wide/pdfs/MGMRESORTS_2023Q2_10Q.pdf").pages)


def _mgm_q2_ask(question: str, page: int) -> DirectAnswer | None:
    pages = _mgm_q2()
    rows = page_table_rows(pages, *MGM_Q2, page)
    return direct_answer_to(question, rows[:1], rows,
                            lambda d, y, p: page_table_rows(pages, d, y, p))


@pytest.mark.parametrize(("question", "lead"), [
    ("Which of MGM Resorts' segments had the highest Adjusted Property EBITDAR in the six months "
     "ended June 30, 2023?",
     "Las Vegas Strip Resorts had the highest EBITDAR in six months 2023: $1,612,338 thousand, "
     "62.1% of the $2,597,617 thousand total (1,612,338 / 2,597,617)."),
    ("Which of MGM Resorts' segments had the largest decline in Adjusted Property EBITDAR in "
     "Q2 2023?",
     "Regional Operations had the largest decline of the segments: its EBITDAR fell 14% "
     "($46,083 thousand), $293,767 thousand in three months 2023 against $339,850 thousand in "
     "three months 2022 (293,767 / 339,850 - 1); of the other segments, Las Vegas Strip Resorts "
     "fell 6% (from $825,267 thousand to $776,529 thousand)."),
    ("Which of MGM Resorts' reportable segments saw Adjusted Property EBITDAR decline in Q2 "
     "2023 versus Q2 2022?",
     "Only Las Vegas Strip Resorts (down $48,738 thousand, or 6%, from $825,267 thousand to "
     "$776,529 thousand) and Regional Operations (down $46,083 thousand, or 14%, from $339,850 "
     "thousand to $293,767 thousand) saw EBITDAR decline (in three months 2023 against three "
     "months 2022), of the 3 segments the table prints; MGM China rose (from -$52,091 thousand "
     "to $209,389 thousand)."),
    ("Which MGM Resorts segments grew Adjusted Property EBITDAR in the six months ended June "
     "30, 2023?",
     "Only Las Vegas Strip Resorts (up $193,437 thousand, or 14%, from $1,418,901 thousand to "
     "$1,612,338 thousand) and MGM China (up $456,084 thousand, from -$77,747 thousand to "
     "$378,337 thousand) saw EBITDAR grow (in six months 2023 against six months 2022), of the "
     "3 segments the table prints; Regional Operations fell (from $653,129 thousand to "
     "$606,942 thousand)."),
])
def test_segments_summed_by_the_measures_own_row_are_ranked_and_listed_by_their_move(
        question: str, lead: str) -> None:
    """MGM Resorts' Q2 2023 segment note (p.26) prints its segments over "Reportable segment
    Adjusted Property EBITDAR", which sums them, then the reconciliation's line items down to
    net income; its caption row is no measure the vocabulary knows. The row that sums the
    segments closes their block, names what they measure, and is the whole a share is of. A
    question that asks which segments moved one way, with no superlative, is answered with
    every one that did, a loss's member too (MGM China has no rate from a loss), and how the
    others went."""
    found = _mgm_q2_ask(question, 25)
    assert found is not None and found.text == lead, found and found.text
    claim = verify_claims([found.claim()], _mgm_q2())[0]
    assert {c.mark for c in claim.citations} == {"valid"}


def test_a_members_line_items_read_as_tables_of_their_own_are_no_segments() -> None:
    """MGM Resorts' Q2 2023 MD&A (p.29) prints "Casino, Rooms, Food and beverage, ..." under
    each segment's name, each block closed by an unlabelled subtotal: the page's reader takes
    the next blocks for tables of their own, headed by the subtotal's figures. "Entertainment,
    retail and other" of Las Vegas Strip Resorts is no segment whose net revenues declined."""
    for question in ("Which of MGM Resorts' segments had the largest decline in net revenues "
                     "in the six months ended June 30, 2023?",
                     "Which of MGM Resorts' segments saw net revenues decline in the six months "
                     "ended June 30, 2023?"):
        # Las Vegas Strip Resorts' block, as a chunk of the page returns it
        rows = [u for u in page_table_rows(_mgm_q2(), *MGM_Q2, 28)
                if u.chunk_id.endswith("table0") and not u.text.startswith("three months")]
        assert [u.text.split(":")[0] for u in rows] == [
            "Casino", "Rooms", "Food and beverage", "Entertainment, retail and other"]
        found = direct_answer_to(question, rows[:1], rows,
                                 lambda d, y, p: page_table_rows(_mgm_q2(), d, y, p))
        assert found is None, found.text


@pytest.mark.parametrize("question", [
    "Which MGM Resorts segment saw Adjusted Property EBITDAR decline the most in Q2 2023?",
    "Which of MGM Resorts' segments saw Adjusted Property EBITDAR rise while the others fell in "
    "Q2 2023?",
    "Which of MGM Resorts' segments saw Adjusted Property EBITDAR declines of more than 10% in "
    "Q2 2023?",
    "Which of MGM Resorts' segments had the smallest increase in Adjusted Property EBITDAR in "
    "Q2 2023?",
])
def test_a_ranking_a_threshold_or_both_ways_asked_lists_no_movers(question: str) -> None:
    """Only "which segments moved one way?" lists the members that did: a superlative ranks one
    (or none, as before this reading), a threshold or a second way filters what a list would
    not test."""
    found = _mgm_q2_ask(question, 25)
    assert found is None or not found.text.startswith("Only"), found.text


def _mgm_statistics() -> dict[str, EvidenceUnit]:
    """The release's page 5 (index 4): Las Vegas Strip Resorts' gaming and hotel statistics
    under "Three Months Ended December 31, 2022 2021 %" over "Change", then Regional
    Operations' gaming statistics, whose first row the text layer prints above the rule."""
    pages = _mgm_pages()
    return {u.text.split(":")[0] + ("" if "Las Vegas" in u.scope else " (regional)"): u
            for u in page_table_rows(pages, MGM_DOC, MGM_YEAR, 4)}


def test_a_percent_sign_wrapped_over_change_heads_its_own_column() -> None:
    """"%" over "Change" beside "2021" is the change column's heading, not a percent sign of
    the year ("2021%"): every figure keeps its column (casino revenue $554 in 2022, not the
    $541 of 2021 read one column off), and the first row printed above the rule is a row of
    amounts, no heading of the rows under it ("$ 742: $ 1,206")."""
    rows = _mgm_statistics()
    assert rows["Casino revenue"].text == (
        "Casino revenue: 2022: $ 554; 2021: $ 541; % Change: 2%")
    assert rows["Revenue per available room (REVPAR)(3)"].text.endswith(
        "2022: $ 238; 2021: $ 173; % Change: 38%")
    assert rows["Table games drop (regional)"].text == "Table games drop: $ 1,206; $ 1,119; 8%"
    assert "Change" not in rows  # the heading's second line is no row


def test_a_comparison_reads_the_row_of_the_measure_asked_never_another_of_its_subject() -> None:
    """Asked Las Vegas Strip Resorts' RevPAR, the region's net revenues row (same subject,
    another measure) is no answer; the RevPAR row is, its columns the three months its
    header prints over the years; asked the net revenues, that row still answers."""
    pages = _mgm_pages()
    revenues = next(u for u in page_table_rows(pages, MGM_DOC, MGM_YEAR, 13)
                    if u.text.startswith("Las Vegas Strip Resorts net revenues"))
    revpar = _mgm_statistics()["Revenue per available room (REVPAR)(3)"]
    asked = "By how much did Las Vegas Strip Resorts RevPAR increase in Q4 2022 versus Q4 2021?"
    assert direct_answer_to(asked, [revenues], []) is None
    found = direct_answer_to(asked, [revenues, revpar], [])
    assert found is not None and found.text == (
        "Increased by $65 (37.6%): Revenue per available room (REVPAR) $238 in three months "
        "2022 against $173 in three months 2021."), found and found.text
    occupancy = direct_answer_to("By how much did Las Vegas Strip Resorts occupancy increase in "
                                 "Q4 2022 versus Q4 2021?", [revenues, _mgm_statistics()[
                                     "Occupancy"]], [])
    assert occupancy is not None and occupancy.text.startswith(
        "Increased by 5 percentage points: Occupancy 91% in three months 2022"), occupancy
    same = direct_answer_to("By how much did Las Vegas Strip Resorts net revenues increase in "
                            "Q4 2022 versus Q4 2021?", [revenues], [])
    assert same is not None and same.text.startswith("Increased by $490,596 thousand (27.2%)")


def test_two_measures_compared_each_from_its_own_row() -> None:
    """"occupancy and RevPAR": each measure's row, the second the one that names what the
    first does not; asked yes or no, a yes only when both went the way asked. Asked one
    measure, no second row joins it (the net revenues row names the region, not the
    measure)."""
    stats = _mgm_statistics()
    revenues = next(u for u in page_table_rows(_mgm_pages(), MGM_DOC, MGM_YEAR, 13)
                    if u.text.startswith("Las Vegas Strip Resorts net revenues"))
    rows = [stats["Occupancy"], revenues, stats["Revenue per available room (REVPAR)(3)"]]
    found = direct_answer_to("By how much did Las Vegas Strip Resorts occupancy and RevPAR "
                             "increase in Q4 2022 versus Q4 2021?", rows, [])
    assert found is not None and found.text == (
        "Increased by 5 percentage points: Occupancy 91% in three months 2022 against 86% in "
        "three months 2021; increased by $65 (37.6%): Revenue per available room (REVPAR) $238 "
        "in three months 2022 against $173 in three months 2021."), found and found.text
    assert verify_claims([found.claim()], _mgm_pages())[0].citations[1].mark == "valid"
    fell = direct_answer_to("Did Las Vegas Strip Resorts occupancy and RevPAR decline in Q4 2022 "
                            "versus Q4 2021?", rows, [])
    assert fell is not None and fell.text.startswith("No. Increased by 5 percentage points")
    one = direct_answer_to("By how much did Las Vegas Strip Resorts RevPAR increase in Q4 2022 "
                           "versus Q4 2021?", [revenues, *rows], [])
    assert one is not None and ";" not in one.text and "REVPAR" in one.text


def test_a_table_of_another_quarter_or_a_row_of_short_words_is_no_comparison() -> None:
    """The statistics' header ends December 31: a third quarter asked reads none of its
    columns as "three months"; a label of short words ("Slots win") names a measure the
    question does not, so RevPAR is read from its own row."""
    stats = _mgm_statistics()
    rooms = [stats["Rooms revenue (In millions)"]]
    assert direct_answer_to("By how much did Las Vegas Strip Resorts' rooms revenue change in Q3 "
                            "2022 versus Q3 2021?", rooms, []) is None
    fourth = direct_answer_to("By how much did Las Vegas Strip Resorts' rooms revenue change in "
                              "Q4 2022 versus Q4 2021?", rooms, [])
    assert fourth is not None and fourth.text.startswith("Increased by $256 million (46.0%)")
    found = direct_answer_to("By how much did Las Vegas Strip Resorts RevPAR increase in Q4 2022 "
                             "versus Q4 2021?", [stats["Slots win"],
                                                 stats["Revenue per available room (REVPAR)(3)"]],
                             [])
    assert found is not None and "REVPAR" in found.text and "Slots" not in found.text


def test_a_segment_table_whose_percent_cells_stand_over_their_change_words_is_ranked() -> None:
    """Corning 2018's MD&A (printed page 25) prints its segment net sales table without rules
    under a header of "% %" over "Years ended December 31, change change": read as two "%
    change" columns, the table is found by the sentence that leads into it, and the fastest
    grower is computed from the years' columns. Retrieval returned Item 1's sentences on each
    segment's share of sales."""
    pages = PageTexts.from_pages("corning-10k", 2018, real_filing(
        "financebench-bulk/pdfs/CORNING_2018_10K.pdf").pages)
    assert 24 in pages_titled(pages, "corning-10k", 2018, ["segment"])
    shares = [u for u in page_table_rows(pages, "corning-10k", 2018, 24)
              if u.text.startswith("Display Technologies")]
    found = direct_answer_to("Which of Corning's segments grew net sales the fastest in 2018?",
                             shares, shares, lambda d, y, p: page_table_rows(pages, d, y, p),
                             titling=lambda d, y, words: pages_titled(pages, d, y, words))
    assert found is not None and found.text.startswith(
        "Optical Communications grew net sales the fastest of the segments: its net sales rose "
        "18% (647 million), 4,192 million in 2018 against 3,545 million in 2017"), found
    assert {c.mark for c in verify_claims([found.claim()], pages)[0].citations} == {"valid"}


@pytest.mark.parametrize("page", [24, 51])  # MD&A's tables, and Note 2's
def test_regions_printed_a_table_each_are_ranked_as_one_table(page: int) -> None:
    """Netflix 2020 prints a table per region (UCAN, EMEA and LATAM on one page, APAC on the
    next; in MD&A and again in Note 2), each with the same rows: the "Revenues" row of each
    region's table is that region's row. MD&A's header "Change 2020 vs. 2019" over two
    columns reads as a second "2020" and "2019": the periods' own columns come first."""
    pages = PageTexts.from_pages("netflix-10k", 2020, real_filing(
        "financebench-bulk/pdfs/NETFLIX_2020_10K.pdf").pages)
    ucan = [u for u in page_table_rows(pages, "netflix-10k", 2020, page)
            if u.text.startswith("Revenues: 2020: $ 11,455,396")]
    assert len(ucan) == 1

    def ask(question: str) -> DirectAnswer | None:
        return direct_answer_to(question, ucan, ucan,
                                lambda d, y, p: page_table_rows(pages, d, y, p))

    fastest = ask("Which of Netflix's regions posted the fastest streaming revenue growth in "
                  "2020?")
    assert fastest is not None and fastest.text.startswith(
        "Asia-Pacific (APAC) had the fastest streaming revenue growth of the regions: its "
        "revenue rose 61% ($902,779 thousand), $2,372,300 thousand in 2020 against $1,469,521 "
        "thousand in 2019"), fastest
    assert "Latin America (LATAM) rose 13%" in fastest.text
    largest = ask("Which Netflix region had the highest streaming revenues in 2020?")
    assert largest is not None and largest.text.startswith(
        "United States and Canada (UCAN) had the highest"), largest
    assert "$11,455,396" in largest.text
    assert {c.mark for c in verify_claims([fastest.claim()], pages)[0].citations} == {"valid"}
    # a segment is no place: tables titled by a place rank no segment
    assert ask("Which of Netflix's segments grew revenue the fastest in 2020?") is None
    if page != 24:
        return
    # MD&A's evidence on the page before the run (the consolidated highlights, p.23): the run
    # is read on over the page break to APAC, never ranked without it
    before = page_table_rows(pages, "netflix-10k", 2020, 23)
    assert before
    found = direct_answer_to("Which of Netflix's regions posted the fastest streaming revenue "
                             "growth in 2020?", before, before,
                             lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is not None and found.text.startswith("Asia-Pacific (APAC) had the fastest")
