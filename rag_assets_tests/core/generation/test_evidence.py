"""What the evidence reader takes from a filing's pages, on real filings."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.evidence import (
    EvidenceUnit,
    attached_legal_text,
    contents_entry,
    units_of,
)
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.retrieval.retriever import Hit
from rag_assets.core.text.sentences import split_sentences
from rag_assets_tests.real_filings import CORPORA, real_filing

NEEDS_CORPORA = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def _rows(*lines: str) -> list[str]:
    hit = Hit(chunk_id="c", document="d", year=2021, page_start=0, page_end=0, rank=0,
              score=0.0, stage="page", text="\n".join(lines))
    return [u.text for u in units_of(hit, lambda *_: 0) if u.is_row]


@pytest.mark.parametrize(("header", "expected"), [
    # a header over three rows: "%" over "change" over "21 vs. 20", a caption over its years
    (["|  |  |  |  | % |", "|---|---|---|---|---|", "|  | Year ended December 31, |  |  | change |",
      "|  | 2021 | 2020 | 2019 | 21 vs. 20 |"],
     "Display: Year ended December 31, 2021: $ 3,700; Year ended December 31, 2020: $ 3,172; "
     "Year ended December 31, 2019: $ 3,254; % change 21 vs. 20: 17%"),
    # a first row that names the periods already (the chunker's header of years) is whole: the
    # label-less row under it is a row
    (["| USD millions | 2021 | 2020 | 2019 | % |", "|---|---|---|---|---|",
      "|  | Year ended | Year ended |  | change |"],
     "2021: Year ended; 2020: Year ended; %: change"),
])
def test_a_header_printed_over_rows_names_each_column(header: list[str], expected: str) -> None:
    rows = _rows(*header, "| Display | $ 3,700 | $ 3,172 | $ 3,254 | 17% |")
    assert expected in rows


@NEEDS_CORPORA
def test_a_periodic_reports_attached_contracts_are_not_its_disclosure() -> None:
    """Corning 2022's 10-K attaches stock plans and agreements (Exhibits 10.40 to 10.42,
    pages 107-153): a plan's "consummation of a merger" answers no question about Corning's
    deals. Its notes (Item 8) and its subsidiaries' list (Exhibit 21) are no such text, nor is
    General Mills 2022's description of its registered securities (Exhibit 4.3, pages 99-115),
    which states what it has issued."""
    pages = PageTexts.from_pages("corning-10k", 2022, real_filing(
        "financebench-dev/pdfs/CORNING_2022_10K.pdf").pages)
    assert attached_legal_text(pages, "corning-10k", 2022, 139)
    assert not attached_legal_text(pages, "corning-10k", 2022, 72)
    assert not attached_legal_text(pages, "corning-10k", 2022, 153)  # Exhibit 21
    mills = PageTexts.from_pages("general-mills-10k", 2022, real_filing(
        "financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf").pages)
    assert mills.page_items("general-mills-10k", 2022)[98] == "Exhibit 4.3"
    assert not attached_legal_text(mills, "general-mills-10k", 2022, 98)



def test_a_sentence_over_a_page_break_is_cited_on_the_page_it_starts_on() -> None:
    """A chunk that runs over a page break holds a sentence neither page prints whole: the
    unit keeps the sentence and quotes the opening its first page prints, when the next page
    prints the rest. Walmart's fiscal 2022 10-K ends p.38 with "... driven by cost" and opens
    p.39 with "inflation as well as merchandise mix, ...". A sentence no page prints (an
    extraction seam) stays unlocated, never quoted."""
    pages = [p.text for p in real_filing("financebench-bulk/pdfs/WALMART_2022_10K.pdf").pages]
    whole = ("For fiscal 2022, the increase was primarily due to price management in the "
             "Walmart U.S. segment driven by cost inflation as well as merchandise mix, "
             "partially offset by increased supply chain costs.")
    text = f"{whole} Operating expenses decreased as a share of every warehouse's sales."
    hit = Hit(chunk_id="c", document="walmart-10k", year=2022, page_start=37, page_end=38,
              rank=0, score=0.0, stage="page", text=text)

    def locate(document: str, year: int, wanted: list[int], quote: str) -> int | None:
        return next((p for p in wanted if 0 <= p < len(pages)
                     and " ".join(quote.split()) in " ".join(pages[p].split())), None)

    assert locate("walmart-10k", 2022, [37, 38], whole) is None  # neither page prints it whole
    units = units_of(hit, locate)
    spanning = next(u for u in units if u.text.startswith("For fiscal 2022"))
    assert spanning.located and spanning.page == 37
    assert spanning.quote.endswith("Walmart U.S. segment driven by cost")
    assert spanning.text.endswith("partially offset by increased supply chain costs.")
    elsewhere = next(u for u in units if u.text.startswith("Operating expenses"))
    assert not elsewhere.located


def test_a_line_leading_into_a_table_titles_it_over_a_line_of_dates() -> None:
    """Kraft Heinz 2021's segment note, as its enriched chunk holds it: "Net sales by platform
    were (in millions):" over the dates and the table. The rows are of platforms (what a
    segment ranking must not take for segments): the scope keeps the leading line."""
    hit = Hit(chunk_id="c", document="kraft-heinz-10k", year=2021, page_start=115,
              page_end=115, rank=0, score=0.0, stage="page", text="\n".join([
                  "Net sales by platform were (in millions):",
                  "December 25, 2021 December 26, 2020 December 28, 2019",
                  "| USD millions | 2021 | 2020 | 2019 |", "|---|---|---|---|",
                  "| Taste Elevation | $ 7,267 | $ 6,808 | $ 6,581 |",
                  "| Flavorful Hydration | 1,777 | 1,648 | 1,495 |"]))
    rows = [u for u in units_of(hit, lambda *_: 115) if u.is_row]
    assert len(rows) == 2
    assert rows[1].scope.startswith("Net sales by platform were (in millions): December 25, "
                                    "2021 December 26, 2020 December 28, 2019")
    # a short line of words is no subtitle: the title is that line alone
    words = hit.model_copy(update={"text": hit.text.replace(
        "December 25, 2021 December 26, 2020 December 28, 2019", "Segment results")})
    assert [u for u in units_of(words, lambda *_: 115) if u.is_row][0].scope.startswith(
        "Segment results")
    # a line of prose above the dates is no title
    hit = hit.model_copy(update={"text": hit.text.replace("(in millions):", "(in millions).")})
    assert not [u for u in units_of(hit, lambda *_: 115) if u.is_row][0].scope.startswith("Net")



@NEEDS_CORPORA
def test_a_table_of_contents_entry_is_told_by_its_page_and_never_quoted() -> None:
    """Netflix's 2020 10-K lists its Items with their pages on p.2 (index 1): each of its
    sentences as the splitter reads them ("Legal Proceedings 17 Item 4.") is an entry; the
    same words on the note's page (index 59), or a title-case sentence there, are not."""
    pages = PageTexts.from_pages("netflix-10k", 2020, real_filing(
        "financebench-bulk/pdfs/NETFLIX_2020_10K.pdf").pages)
    toc = split_sentences(" ".join((pages.get("netflix-10k", 2020, 1) or "").split()))
    listed = [s for s in toc if "Legal Proceedings 17" in s]
    assert listed and all(contents_entry(pages, _unit(s, 1)) for s in listed), listed
    assert sum(contents_entry(pages, _unit(s, 1)) for s in toc) >= 15
    note = ("From time to time, in the normal course of its operations, the Company is subject "
            "to litigation matters and claims, including claims relating to employee relations, "
            "business practices and patent infringement.")
    for text in (listed[0], note, "Stores Opened 17"):
        assert not contents_entry(pages, _unit(text, 59)), text
    # a sentence that refers to an Item is no entry, on whatever page (Coca-Cola 2019's Item
    # 9A, p.147, on a page of many Item headings)
    referral = ("The report of management on our internal control over financial reporting "
                "is set forth in Part II, \"Item 8. Financial Statements and Supplementary "
                "Data\" in this report.")
    assert not contents_entry(pages, _unit(referral, 1))


def _unit(text: str, page: int) -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c", document="netflix-10k", year=2020, chunk_rank=0,
                        page=page, located=True, quote=text, text=text)


def test_a_note_under_a_table_marked_in_a_column_heading_goes_with_every_row() -> None:
    """Costco's Q3 fiscal 2023 release, as its enriched chunk holds it: "12 Weeks Adjusted*"
    over the rows, "*Excluding the impacts from changes in gasoline prices and foreign
    exchange." under them. Each row's adjusted figures mean what the note says: the note is
    written after the row and is what the row is about (its scope, which retrieval reads)."""
    hit = Hit(chunk_id="c", document="costco-earnings-q3", year=2023, page_start=0,
              page_end=0, rank=0, score=0.0, stage="page", text="\n".join([
                  "Comparable sales for the third quarter and first 36 weeks of fiscal 2023 "
                  "were as follows:",
                  "|  | 12 Weeks | 12 Weeks Adjusted* | 36 Weeks | 36 Weeks Adjusted* |",
                  "|---|---|---|---|---|",
                  "| U.S. | -0.1% | 1.8% | 4.9% | 4.7% |",
                  "| Total Company | 0.3% | 3.5% | 4.0% | 5.8% |",
                  "{FOOTNOTE *: Excluding the impacts from changes in gasoline prices and "
                  "foreign exchange.}"]))
    rows = [u for u in units_of(hit, lambda *_: 0) if u.is_row]
    assert [r.text.split(":")[0] for r in rows] == ["U.S.", "Total Company"]
    for row in rows:
        assert [(n.marker, n.text) for n in row.footnotes] == [
            ("*", "Excluding the impacts from changes in gasoline prices and foreign exchange.")]
        assert row.scope.endswith("gasoline prices and foreign exchange.")
    assert rows[1].with_footnotes.endswith(
        "36 Weeks Adjusted*: 5.8% (Footnote *: Excluding the impacts from changes in gasoline "
        "prices and foreign exchange.)")
    # a note whose marker no heading carries is not the rows'
    other = hit.model_copy(update={"text": hit.text.replace("{FOOTNOTE *:", "{FOOTNOTE (1):")})
    assert all(not u.footnotes for u in units_of(other, lambda *_: 0) if u.is_row)
    # a marker in parentheses, as MGM's Q2 2023 10-Q heads "Average Price Paid per Share (1)"
    numbered = other.model_copy(update={"text": other.text.replace("Adjusted*", "Adjusted (1)")})
    assert all(u.footnotes for u in units_of(numbered, lambda *_: 0) if u.is_row)
    # a note printed after the prose that follows the table is that prose's, not the rows'
    later = hit.model_copy(update={"text": hit.text.replace(
        "{FOOTNOTE *:", "Net sales for the quarter increased 1.9 percent.\n{FOOTNOTE *:")})
    assert all(not u.footnotes for u in units_of(later, lambda *_: 0) if u.is_row)


def test_each_bullet_of_a_releases_highlights_is_a_unit_of_its_own() -> None:
    """MGM Resorts' Q4 2022 release opens with its highlights run into one line of the chunk:
    each bullet is a unit ("• Share buybacks of $2.8 billion in 2022 ..."), not one sentence
    from the headline to the dateline's end; the text is kept whole."""
    text = ("Exhibit 99.1 MGM RESORTS INTERNATIONAL REPORTS FOURTH QUARTER AND FULL YEAR 2022 "
            "FINANCIAL AND OPERATING RESULTS • Record Adjusted Property EBITDAR in 4Q and full "
            "year 2022 for Las Vegas Strip Resorts and Regional Operations • Share buybacks of "
            "$2.8 billion in 2022 and $352 million in 4Q22 • Closed on the sale of the "
            "operations of The Mirage for $1.1 billion in cash")
    hit = Hit(chunk_id="c", document="d", year=2022, page_start=0, page_end=0, rank=0,
              score=0.0, stage="page", text=text)
    units = [u.text for u in units_of(hit, lambda *_: 0)]
    assert "• Share buybacks of $2.8 billion in 2022 and $352 million in 4Q22" in units, units
    assert units[-1] == ("• Closed on the sale of the operations of The Mirage for $1.1 "
                         "billion in cash")
    assert " ".join(units).split() == text.split()


def test_a_footnotes_bullets_and_a_list_its_lead_introduces_stay_whole() -> None:
    def texts(text: str) -> list[str]:
        hit = Hit(chunk_id="c", document="d", year=2023, page_start=0, page_end=0, rank=0,
                  score=0.0, stage="page", text=text)
        return [u.text for u in units_of(hit, lambda *_: 0)]

    noted = texts("Net sales increased 5% in 2023.{FOOTNOTE 1: Excludes: • fuel sales • "
                  "currency effects} Gross margin rose 20 basis points.")
    assert noted == ["Net sales increased 5% in 2023.", "Gross margin rose 20 basis points."]
    led = texts("Total net revenue was $41.3 billion, up 34%, reflecting: • Net interest income "
                "of $21.8 billion, up 44%, driven by higher rates")
    assert led[0].startswith("Total net revenue was $41.3 billion, up 34%, reflecting: • Net "
                             "interest income"), led


def test_a_first_row_of_amounts_names_no_columns_and_a_wrapped_heading_joins_its_column() -> None:
    """MGM Resorts' Q4 2022 release: the text layer draws a rule under a data row ("Casino
    revenue $ 742 ..."), which names no columns (dashes and "n/m" beside its amounts too), and
    wraps "% Change" over two rows beside "2022" and "2021": "Change" joins the "%" column's
    heading and is no row."""
    assert _rows("| Casino revenue | $ 742 | — | n/m |", "|---|---|---|---|",
                 "| Table games drop | $ 1,206 | $ 1,119 | 8% |") == [
        "Casino revenue: $ 742; —; n/m", "Table games drop: $ 1,206; $ 1,119; 8%"]
    assert _rows("| Three Months Ended December 31, | 2022 | 2021 | % |", "|---|---|---|---|",
                 "|  |  |  | Change |", "| Rooms revenue | $ 813 | $ 557 | 46% |") == [
        "Rooms revenue: 2022: $ 813; 2021: $ 557; % Change: 46%"]
