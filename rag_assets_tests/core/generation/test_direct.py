"""The direct first sentence (core/generation/direct.py) on hand-made evidence units: the winner
of a segment table (a negative figure included), the names a sentence lists, the direction of a
two-period row; nothing when the evidence does not print the answer; every figure and name of
the sentence printed in a unit it cites, and its citations valid under the verifier."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.direct import _names_counted, direct_answer
from rag_assets.core.generation.direct_rows import DirectAnswer, load_cues, parse_cell
from rag_assets.core.generation.evidence import EvidenceUnit, units_of
from rag_assets.core.generation.extractive import ScoredUnit
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.superlatives import periods_ranked
from rag_assets.core.question.question import read_question
from rag_assets.core.retrieval.retriever import Hit


def direct_answer_to(text: str, *args: Any, **kwargs: Any) -> DirectAnswer | None:
    """The direct answer to ``text``, read as every caller reads a question."""
    return direct_answer(read_question(text), *args, **kwargs)

DOC, YEAR = "acme-10q", 2023
SCOPE = ("Acme Q2 2023 | Segment net revenue (in millions of dollars) | Segment Q2 2023 "
         "Q2 2022")
SEGMENTS = [  # label, Q2 2023, Q2 2022
    ("Consumer", "1,204", "1,118"),
    ("Enterprise", "2,512", "2,306"),
    ("Corporate", "(473)", "(120)"),
    ("Total", "3,243", "3,304"),
]
TABLE_PAGE = 4
PROSE_PAGE = 7
ACQUISITIONS = ("During 2020 and 2019, we completed the acquisitions of Trillium, Array and "
                "Therachon, which added oncology and rare disease programs.")
DELIVERIES = ("Vehicles delivered", "45", "60")


def _row(label: str, *values: str, page: int = TABLE_PAGE, scope: str = SCOPE) -> EvidenceUnit:
    headings = ["Q2 2023", "Q2 2022"]
    text = f"{label}: " + "; ".join(f"{h}: {v}" for h, v in zip(headings, values, strict=False))
    return EvidenceUnit(chunk_id="c-table", document=DOC, year=YEAR, chunk_rank=0, page=page,
                        located=True, is_row=True, quote=" ".join([label, *values]), text=text,
                        scope=scope)


def _sentence(text: str, page: int = PROSE_PAGE) -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c-prose", document=DOC, year=YEAR, chunk_rank=1, page=page,
                        located=True, quote=text, text=text, scope="Acme Q2 2023 | Overview")


def _ranked(units: list[EvidenceUnit]) -> list[ScoredUnit]:
    """The units as the scorer would give them, best first."""
    return [ScoredUnit(unit=u, score=1.0 - i / 10, dense=0, bm25=0, coverage=0, matches=0)
            for i, u in enumerate(units)]


@pytest.fixture
def table() -> list[EvidenceUnit]:
    return [_row(label, now, then) for label, now, then in SEGMENTS]


@pytest.fixture
def pages() -> PageTexts:
    table_text = "\n".join([
        "Segment net revenue (in millions of dollars)",
        "| Segment | Q2 2023 | Q2 2022 |",
        "|---|---|---|",
        *(f"| {label} | {now} | {then} |" for label, now, then in SEGMENTS),
    ])
    operations = "\n".join([
        "Operating data", "| | Q2 2023 | Q2 2022 |", "|---|---|---|",
        f"| {DELIVERIES[0]} | {DELIVERIES[1]} | {DELIVERIES[2]} |",
    ])
    return PageTexts({
        (DOC, YEAR, TABLE_PAGE): f"Segments\n{table_text}\nNet revenue by segment.",
        (DOC, YEAR, PROSE_PAGE): f"Acquisitions\n{ACQUISITIONS}",
        (DOC, YEAR, 9): operations,
    })


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)}


_MOVED_RE = re.compile(r"(?:In|De)creased by \$?(?P<by>[\d,.]+)(?: \((?P<pct>[\d.]+)%\))?: "
                       r"\D*\$?(?P<now>[\d,.]+) .*? against \$?(?P<then>[\d,.]+) ")
_SHARE_RE = re.compile(r", (\d+(?:\.\d)?)% of the .*? total \(([\d,.]+) / ([\d,.]+)\)")


def _assert_printed_and_valid(found: DirectAnswer, pages: PageTexts) -> None:
    """Every figure and name of the direct sentence is printed in a unit it cites (a share of
    the total is the quotient of two of them, as it says), and the verifier accepts each
    citation."""
    cited = " ".join(f"{u.quote} {u.text}" for u in found.units)
    share = _SHARE_RE.search(found.text)
    if share:
        part, whole = (float(x.replace(",", "")) for x in share.group(2, 3))
        assert float(share.group(1)) == round(100 * part / whole, 1)
    printed = _SHARE_RE.sub(lambda m: f" {m.group(2)} {m.group(3)}", found.text)
    moved = _MOVED_RE.match(printed)
    if moved:  # the change is the difference of the two figures it states, as it says
        by, later, earlier = (float(moved[g].replace(",", "")) for g in ("by", "now", "then"))
        assert by == abs(later - earlier)
        assert moved["pct"] is None or float(moved["pct"]) == round(100 * by / earlier, 1)
        printed = printed[moved.end("pct") + 2 if moved["pct"] else moved.end("by"):]
    assert _numbers(printed) <= _numbers(cited), (found.text, cited)
    for name in re.findall(r"\b[A-Z][a-z]+\b", found.text):
        if name not in {"Its", "Increased", "Decreased", "Unchanged"}:
            assert name in cited, (name, cited)
    claim = verify_claims([found.claim()], pages)[0]
    assert claim.citations and all(c.mark == "valid" for c in claim.citations), claim.citations


def test_cells_read_parentheses_as_negative() -> None:
    assert parse_cell("(473)") == (-473.0, "-473")
    assert parse_cell("$ 1,204") == (1204.0, "$1,204")
    assert parse_cell("23.5%") == (23.5, "23.5%")
    assert parse_cell("-") is None and parse_cell("n/a") is None and parse_cell("(a)") is None


def test_the_lowest_segment_is_the_negative_one(table: list[EvidenceUnit],
                                                pages: PageTexts) -> None:
    found = direct_answer_to("Which segment had the lowest net revenue in Q2 2023?", table[:1],
                          table)
    assert found is not None and found.kind == "superlative"
    assert found.text == "Corporate had the lowest net revenue in Q2 2023: -$473 million."
    assert [u.quote for u in found.units] == ["Corporate (473) (120)"]
    _assert_printed_and_valid(found, pages)


def test_the_highest_segment_compares_the_asked_period_not_the_total(
        table: list[EvidenceUnit], pages: PageTexts) -> None:
    found = direct_answer_to("Which segment brought in the most net revenue in Q2 2022?",
                          table[:2], table)
    assert found is not None
    # the share of the table's total, computed from the two rows it cites
    assert found.text == ("Enterprise had the most net revenue in Q2 2022: $2,306 million, 69.8% "
                          "of the $3,304 million total (2,306 / 3,304).")
    assert [u.quote for u in found.units] == ["Enterprise 2,512 2,306", "Total 3,243 3,304"]
    _assert_printed_and_valid(found, pages)


GEO_SCOPE = ("Bolt Glass 10-K 2022 | Operations by geographic area (in millions) | USD "
             "millions Net sales 2022 Long-lived assets 2022 Net sales 2021 Long-lived assets "
             "2021")
GEO_ROWS = [  # caption in force, label, net sales 2022, long-lived assets 2022, 2021, 2021
    ("North America", "United States", "$ 5,149", "$ 8,937", "$ 4,539", "$ 8,600"),
    ("North America", "Canada", "503", "99", "472", "114"),
    ("North America", "Total North America", "5,652", "9,036", "5,011", "8,714"),
    ("Asia Pacific", "China", "4,435", "4,794", "4,495", "4,966"),
    ("Asia Pacific", "Korea", "2,673", "3,294", "2,640", "3,479"),
    ("Asia Pacific", "Total Asia Pacific", "7,108", "8,088", "7,135", "8,445"),
    ("Europe", "Germany", "1,655", "1,396", "1,387", "1,410"),
    ("Europe", "Total Europe", "1,655", "1,396", "1,387", "1,410"),
    ("", "Total", "$ 14,415", "$ 18,520", "$ 13,533", "$ 18,569"),
]


def _geo_row(caption: str, label: str, *values: str) -> EvidenceUnit:
    headings = ["Net sales 2022", "Long-lived assets 2022", "Net sales 2021",
                "Long-lived assets 2021"]
    text = f"{label}: " + "; ".join(f"{h}: {v}" for h, v in zip(headings, values, strict=True))
    return EvidenceUnit(chunk_id="c-geo", document="bolt-10k", year=2022, chunk_rank=0, page=11,
                        located=True, is_row=True, quote=" ".join([label, *values]), text=text,
                        scope=GEO_SCOPE, caption=caption)


def test_a_region_question_ranks_the_totals_of_the_caption_blocks() -> None:
    """The countries sit under region captions that a total row closes: a region question
    ranks those totals (Asia Pacific), not the largest country (the United States), and says
    what share of the table's total it is."""
    rows = [_geo_row(*r) for r in GEO_ROWS]
    page = "\n".join(["Operations by geographic area (in millions)", "2022 2021",
                      "Net sales Long-lived assets Net sales Long-lived assets",
                      *(" ".join([label, *values]) for _, label, *values in GEO_ROWS)])
    pages = PageTexts({("bolt-10k", 2022, 11): page})
    found = direct_answer_to("Which geographic region accounted for the largest share of Bolt's "
                          "net sales in 2022?", rows[:1], rows)
    assert found is not None
    assert found.text == ("Asia Pacific had the largest net sales in 2022: $7,108 million, 49.3% "
                          "of the $14,415 million total (7,108 / 14,415).")
    precise = direct_answer_to("Which geographic region accounted for the largest share of "
                               "Bolt's net sales in 2022? Answer to two decimal places.",
                               rows[:1], rows)
    assert precise is not None and "49.31% of the $14,415 million total" in precise.text
    _assert_printed_and_valid(found, pages)
    country = direct_answer_to("Which country had the largest net sales in 2022 at Bolt?", rows[:1],
                            rows)
    assert country is not None and country.text.startswith(
        "United States had the largest net sales in 2022: $5,149 million")
    assets = direct_answer_to("Which region had the most long-lived assets in 2021?", rows[:1],
                              rows)
    assert assets is not None and assets.text.startswith(
        "North America had the most long-lived assets in 2021: $8,714 million")


def test_rows_under_another_measures_caption_are_not_compared() -> None:
    """One table prints the segments twice, under "Net sales:" and under "Operating profit:"
    (larger for Pet here): a net sales question ranks the first block only; an operating
    profit question the second."""
    scope = ("Gm 10-K 2020 | Our operating segment results were as follows (in millions of "
             "dollars): | 2020")
    blocks = {"Net sales": [("Retail", "10,750.5"), ("Pet", "1,694.6"), ("Total", "12,445.1")],
              "Operating profit": [("Retail", "2,627.0"), ("Pet", "12,390.7")]}
    units = [EvidenceUnit(chunk_id=f"c-{caption}", document="gm-10k", year=2020, chunk_rank=0,
                          page=88, located=True, is_row=True, quote=f"{label} {value}",
                          text=f"{label}: 2020: {value}", scope=scope, caption=caption)
             for caption, rows in blocks.items() for label, value in rows]
    sales = direct_answer_to("Which operating segment generated the most net sales in fiscal "
                          "2020?", [units[0]], units)
    assert sales is not None and sales.text.startswith(
        "Retail had the most net sales in 2020: $10,750.5 million, 86.4% of the")
    profit = direct_answer_to("Which segment had the highest operating profit in 2020?", units[:1],
                           units)
    assert profit is not None and profit.text.startswith(
        "Pet had the highest operating profit in 2020: $12,390.7 million")


def test_a_list_sentence_gives_the_names_it_prints(pages: PageTexts) -> None:
    found = direct_answer_to("What are three main companies acquired by Acme in 2019 and 2020?",
                          [_sentence(ACQUISITIONS)])
    assert found is not None and found.kind == "list"
    assert found.text == "Trillium, Array and Therachon."
    _assert_printed_and_valid(found, pages)


def test_names_set_apart_by_semicolons_are_a_list() -> None:
    """General Mills 2023, Item 1: the segments set apart by semicolons, a line break before
    the last; the names as printed, joined as a list."""
    said = ("We manage and review the financial results of our business under four operating "
            "segments: North America Retail; International; Pet;\nand North America Foodservice.")
    found = direct_answer_to("What are General Mills' operating segments?", [_sentence(said)])
    assert found is not None and found.kind == "list"
    assert found.text == "North America Retail, International, Pet and North America Foodservice."


def test_a_pointer_names_no_segments_and_one_segment_is_said() -> None:
    """Netflix's 2020 10-K: "See Note 12, Segment and Geographic Information" is no list of
    segments; the filing says it has one ("BUSINESS SEGMENTS We operate as one operating
    segment"), read from the filing where retrieval did not look."""
    pointer = _sentence("See Note 12, Segment and Geographic Information, in the accompanying "
                        "notes to our consolidated financial statements for further detail.")
    one = _sentence("BUSINESS SEGMENTS We operate as one operating segment.")
    question = "What are Netflix's reportable segments?"
    assert direct_answer_to(question, [pointer]) is None
    found = direct_answer_to(question, [pointer], scan=lambda patterns: [
        u for u in (pointer, one) if any(p.search(u.text) for p in patterns)])
    assert found is not None and found.kind == "list"
    assert found.text == "One: We operate as one operating segment."


def test_one_reportable_segment_is_said_before_the_operating_segments_listed() -> None:
    """American Water Works' 2017 10-K: one reportable segment, beside four market-based
    operating segments too small to report; asked the operating segments, those are listed."""
    one = _sentence("The Company operates its businesses primarily through one reportable "
                    "segment, the Regulated Businesses segment.")
    four = _sentence("Our market-based businesses include four operating segments: Military "
                     "Services Group, Contract Operations Group, Homeowner Services Group and "
                     "Keystone Operations.")
    reportable = direct_answer_to("What are American Water Works' reportable segments?",
                                  [four, one])
    assert reportable is not None and reportable.text.startswith("One: The Company operates")
    operating = direct_answer_to("What are American Water Works' operating segments?",
                                 [four, one])
    assert operating is not None and operating.text.startswith("Military Services Group")
    # a segment that says it is one segment names no kind asked: the list the filing prints
    three = _sentence("Our operations are conducted in three reportable segments: Walmart U.S., "
                      "Walmart International and Sam's Club.")
    itself = _sentence("Sam's Club has one segment manager who reports to the CEO.")
    walmart = direct_answer_to("What are Walmart's reportable segments?", [itself, three])
    assert walmart is not None and walmart.text.startswith("Walmart U.S., Walmart")


def test_names_joined_by_ampersands_end_with_their_sentence() -> None:
    """General Mills 2017, Item 1: names with "&" between their words, a line break inside
    one, and the next sentence after the last."""
    said = ("We manage and review the financial results of our business under four operating "
            "segments: North America Retail; Convenience Stores & Foodservice; Europe &\n"
            "Australia; and Asia & Latin America. See Management's Discussion.")
    found = direct_answer_to("What are General Mills' operating segments?", [_sentence(said)])
    assert found is not None and found.text == (
        "North America Retail, Convenience Stores & Foodservice, Europe & Australia and Asia & "
        "Latin America.")


def test_a_total_is_of_what_the_sentence_names() -> None:
    """General Mills 2017: two guarantees are no purchase obligations to add up; Walmart's
    purchase obligations are."""
    guarantees = _sentence("As of May 28, 2017, we have issued guarantees and comfort letters "
                           "of $505 million for the debt and other obligations of consolidated "
                           "subsidiaries, and guarantees and comfort letters of $165 million for "
                           "the debt and other obligations of non-consolidated affiliates.")
    assert direct_answer_to("What was the total amount of General Mills's purchase obligations "
                            "at the end of fiscal 2017?", [guarantees]) is None
    purchases = _sentence("We had $20.1 billion of purchase obligations for inventory and "
                          "$1.2 billion of purchase obligations for services.")
    found = direct_answer_to("What was the total amount of Acme's purchase obligations at the "
                             "end of fiscal 2017?", [purchases])
    assert found is not None and found.text.startswith("$21.3 billion in total")


def test_a_price_is_never_added_to_an_amount() -> None:
    """Corning's 2018 cover page: the market value of its stock and the price it was taken at
    once made "$22.00 billion in total: $22 billion + $27.51": a price beside an amount in
    billions is another kind of figure, never added to it (the cover's reader answers the
    market value itself)."""
    cover = _sentence("As of June 30, 2018, the aggregate market value of the registrant’s "
                      "common stock held by non-affiliates of the registrant was $22 billion "
                      "based on the $27.51 price as reported on the New York Stock Exchange.")
    found = direct_answer_to("What was the aggregate market value of Corning's common stock "
                             "held by non-affiliates?", [cover])
    assert found is None or "in total" not in found.text, found.text
    paid = _sentence("The Company paid $4.2 billion for the shares at a $52.10 price per share.")
    from rag_assets.core.generation.quoted_amounts import quoted_arithmetic
    asked = read_question("What was the total amount the Company paid for the shares?")
    assert quoted_arithmetic(asked, [paid]) is None


def test_a_total_of_amounts_in_another_currency_keeps_its_sign() -> None:
    """Corning's Q2 2023 10-Q: "issued €300 million 3.875% Notes due 2026 ... and €550 million
    4.125% Notes due 2031": the total is in euros, as printed."""
    euros = _sentence("On May 15, 2023, the Company issued €300 million 3.875% Notes due 2026 "
                      "(“2026 Notes”) and €550 million 4.125% Notes due 2031 (“2031 Notes”).")
    question = ("What is the total principal amount of the euro notes Corning issued in Q2 "
                "2023?")
    found = direct_answer_to(question, [euros])
    assert found is not None and found.text == "€850 million in total: €300 million + €550 million."


def test_a_companys_legal_suffix_parts_no_list() -> None:
    """General Mills 2015, an officer's biography: "Data Systems, Inc. and Newell Rubbermaid"
    names two companies, never the executive officers asked."""
    said = ("He serves on the boards of Automatic Data Systems, Inc. and Newell Rubbermaid.")
    assert direct_answer_to("Who are General Mills's executive officers?",
                            [_sentence(said)]) is None


def test_a_schedule_run_into_prose_gives_its_printed_total() -> None:
    """Kraft Heinz 2019: "2020 $ 1,324 2021 590 ... Thereafter 89 Total $ 2,944": the total
    is printed, never $1,324 + $2,944."""
    said = _sentence("As of December 28, 2019, our take-or-pay purchase obligations were as "
                     "follows (in millions): 2020 $ 1,324 2021 590 2022 448 2023 306 2024 187 "
                     "Thereafter 89 Total $ 2,944")
    found = direct_answer_to("What was the total amount of Kraft Heinz's purchase obligations "
                             "at the end of FY2019?", [said])
    assert found is not None and found.text == "$2,944 in total, as printed."


def test_a_list_of_years_names_nothing_asked() -> None:
    """Coca-Cola 2019: "During the years ended December 31, 2019, 2018 and 2017, the Company
    recorded ..." answered "What are the geographies ...?" with "2019, 2018 and 2017."."""
    said = ("During the years ended December 31, 2019, 2018 and 2017, the Company recorded "
            "charges in the geographies where it operates.")
    assert direct_answer_to("What are the geographies that Acme primarily operates in as of "
                            "FY2019?", [_sentence(said)]) is None


def test_a_two_period_row_gives_the_direction(pages: PageTexts) -> None:
    row = _row(*DELIVERIES, page=9, scope="Acme Q2 2023 | Operating data |  Q2 2023 Q2 2022")
    found = direct_answer_to("Did vehicle deliveries increase or decrease in Q2 2023 compared to "
                          "Q2 2022?", [row])
    assert found is not None and found.kind == "comparison"
    # the direction, then by how much the two printed figures differ
    assert found.text == ("Decreased by 15 (25.0%): Vehicles delivered 45 in Q2 2023 against 60 "
                          "in Q2 2022.")
    _assert_printed_and_valid(found, pages)
    # one period named, the other the year before; asked one way, a yes or no leads
    prior = direct_answer_to("Did vehicle deliveries decrease in Q2 2023 compared to the prior "
                          "year?", [row])
    assert prior is not None and prior.text == f"Yes. {found.text}"
    rose = direct_answer_to("Did vehicle deliveries increase in Q2 2023 compared to the prior "
                         "year?", [row])
    assert rose is not None and rose.text == f"No. {found.text}"
    # an improvement is no direction the row says
    better = direct_answer_to("Did vehicle deliveries improve in Q2 2023 compared to the prior "
                           "year?", [row])
    assert better is not None and better.text == found.text


def test_a_sentence_stating_the_comparison() -> None:
    unit = _sentence("Net revenue was $2.4 billion in 2023, compared with $2.1 billion in 2022.")
    found = direct_answer_to("Did net revenue increase or decrease between 2022 and 2023?", [unit])
    assert found is not None
    assert found.text == "Increased: $2.4 billion in 2023 against $2.1 billion in 2022."


def test_nothing_when_the_evidence_lacks_the_answer(table: list[EvidenceUnit]) -> None:
    # a superlative over a period the table does not print
    assert direct_answer_to("Which segment had the highest net revenue in 2021?", table,
                         table) is None
    # a superlative with only prose that names no winner
    assert direct_answer_to("Which segment had the highest net revenue in Q2 2023?",
                         [_sentence("Net revenue grew in every segment this quarter.")]) is None
    # a tie names no single winner
    tied = [_row("North", "10", "9"), _row("South", "10", "8")]
    assert direct_answer_to("Which region had the highest net revenue in Q2 2023?", tied,
                         tied) is None
    # a list of another length than asked, or no list at all
    assert direct_answer_to("What are the four companies Acme acquired?",
                         [_sentence(ACQUISITIONS)]) is None
    assert direct_answer_to("What are three main companies acquired by Acme?",
                         [_sentence("We acquired several companies to expand our "
                                    "pipeline.")]) is None
    # a comparison whose row prints one of the two periods
    one = EvidenceUnit(chunk_id="c", document=DOC, year=YEAR, chunk_rank=0, page=9,
                       located=True, is_row=True, quote="Vehicles delivered 45",
                       text="Vehicles delivered: Q2 2023: 45", scope="")
    assert direct_answer_to("Did vehicle deliveries decrease in Q2 2023 compared to Q2 2022?",
                         [one]) is None
    # not a kind of question that gets a direct answer
    assert direct_answer_to("What does Acme say about its liquidity?", table, table) is None


def test_every_cue_says_where_it_comes_from() -> None:
    cues = load_cues()
    for group in (cues.superlative, cues.superlative_not, cues.which_question,
                  cues.list_question, cues.list_item_not, cues.comparison, cues.prior_period,
                  cues.row_not_a_member, cues.scales):
        assert group and all(c.source.strip() for c in group)
        for cue in group:
            re.compile(cue.pattern)
    assert all(t.source for t in cues.terms.values()) and cues.enumeration.source


def test_a_row_labelled_by_a_year_keeps_its_label() -> None:
    from rag_assets.core.generation.direct_rows import read_row
    unit = EvidenceUnit(chunk_id="c", document=DOC, year=YEAR, chunk_rank=0, page=3,
                        located=True, is_row=True, quote="2024 1,234 50",
                        text="2024: Principal: 1,234; Interest: 50", scope="Debt maturities")
    row = read_row(unit)
    assert row is not None and row.label == "2024"
    assert [(c.heading, c.value) for c in row.cells] == [("Principal", 1234.0),
                                                         ("Interest", 50.0)]


def test_a_change_between_two_years_asked_is_measured_between_them() -> None:
    scope = "Acme 10-K 2022 | Revenue by segment (in millions) | USD millions 2020 2021 2022"
    values = {"Alpha": ("100", "110", "120"), "Beta": ("100", "50", "45"),
              "Gamma": ("200", "100", "150")}
    units = [EvidenceUnit(chunk_id="c", document=DOC, year=2022, chunk_rank=0, page=5,
                          located=True, is_row=True, quote=" ".join([label, *v]),
                          text=f"{label}: 2020: {v[0]}; 2021: {v[1]}; 2022: {v[2]}", scope=scope)
             for label, v in values.items()]
    found = direct_answer_to("Which segment had the biggest drop in revenue from 2021 to 2022?",
                          units[:1], units)
    # 2021 -> 2022: Alpha +9%, Beta -10%, Gamma +50% (Gamma's -50% is 2020 -> 2021)
    assert found is not None
    assert found.text.startswith("Beta had the biggest drop of the segments: its revenue fell "
                                 "10% ($5 million), $45 million in 2022 against $50 million in "
                                 "2021")
    # with Beta's row gone nothing fell from 2021 to 2022: the least growth is no "biggest
    # drop"; and without a total the rows sum to, a member left out may have fallen: no answer
    rising = [u for u in units if not u.text.startswith("Beta")]
    assert direct_answer_to("Which segment had the biggest drop in revenue from 2021 to 2022?",
                            rising[:1], rising) is None
    # the whole table (its total the sum of the rows) where each rose: "None", with the rise
    # nearest to a drop, every row compared cited
    whole = [*rising, EvidenceUnit(chunk_id="c", document=DOC, year=2022, chunk_rank=0, page=5,
                                   located=True, is_row=True, quote="Total 300 210 270",
                                   text="Total: 2020: 300; 2021: 210; 2022: 270", scope=scope)]
    none = direct_answer_to("Which segment had the biggest drop in revenue from 2021 to 2022?",
                            whole[:1], whole)
    assert none is not None and none.text == (
        "None: no segment's revenue declined (in 2022 against 2021); each rose, Alpha's the "
        "least, by 9% ($10 million; $120 million against $110 million).")
    assert len(none.units) == 2
    short = [u.model_copy(update={"text": "Total: 2020: 300; 2021: 260; 2022: 315"})
             if u.text.startswith("Total") else u for u in whole]  # Beta's 50 and 45 in it
    assert direct_answer_to("Which segment had the biggest drop in revenue from 2021 to 2022?",
                            short[:1], short) is None
    grown = direct_answer_to("Which segment had the fastest growth in revenue from 2021 to "
                             "2022?", units[:1], units)
    assert grown is not None and grown.text.startswith("Gamma had the fastest growth")


@pytest.mark.parametrize(("question", "periods"), [
    # the base of a change is no period the ranking reads
    ("Which segment grew net sales the fastest in the second quarter of 2023 versus the second "
     "quarter of 2022?", [("Q2", "2023")]),
    # a quarter's date beside it restates it, never adds the six months of its year
    ("Which segment had the largest net sales in the second quarter of 2023 (three months "
     "ended June 30, 2023)?", [("Q2", "2023")]),
    ("Which segment had the largest revenue in 2022?", [(None, "2022")]),
    # the filing's own year is where the answer is read, not the year ranked
    ("According to its FY2022 10-K, which segment had the highest revenue in FY2021?",
     [(None, "2021")]),
])
def test_a_ranking_reads_the_latest_period_named(question: str,
                                                 periods: list[tuple[str | None, str]]) -> None:
    assert periods_ranked(read_question(question)) == periods


@pytest.mark.parametrize(("question", "direction"), [
    ("Which segment grew net sales the fastest in 2022?", "max"),
    ("Which region's revenue declined the most in 2022?", "min"),
    # the comparative of two members, ranked as the superlative of all
    ("Which of AMD's segments had higher revenue growth in 2020?", "max"),
    ("Which segment's revenue declined more in 2022?", "min"),
])
def test_a_change_ranking_asked_with_its_verb_and_measure_between(question: str,
                                                                 direction: str) -> None:
    cue = next((c for c in load_cues().change_rank
                if re.search(c.pattern, question.lower())), None)
    assert cue is not None and cue.direction == direction


@pytest.mark.parametrize("question", [
    "Which regions grew net revenues more than 50% in 2022?",  # a threshold
    "Which region grew net revenues faster than MGM China?",  # a member named after "than"
])
def test_a_comparative_with_than_ranks_nothing(question: str) -> None:
    assert not any(re.search(c.pattern, question.lower()) for c in load_cues().change_rank)


def test_what_drove_a_totals_change_is_the_largest_amount_not_the_fastest_rate() -> None:
    scope = "Acme 10-K 2022 | Net sales by segment (in millions) | USD millions 2021 2022"
    values = {"Alpha": ("1,000", "1,300"), "Beta": ("100", "180"), "Gamma": ("500", "440")}
    units = [EvidenceUnit(chunk_id="c", document=DOC, year=2022, chunk_rank=0, page=5,
                          located=True, is_row=True, quote=" ".join([label, *v]),
                          text=f"{label}: 2021: {v[0]}; 2022: {v[1]}", scope=scope)
             for label, v in values.items()]
    # Beta grew fastest (+80%), Alpha by the most (+300 of the total's +320)
    found = direct_answer_to("Which segment drove Acme's net sales growth in 2022?",
                             units[:1], units)
    assert found is not None
    # the others beside it, ranked as the winner is (by amount)
    assert found.text == ("Alpha drove Acme's net sales growth of the segments: its net sales "
                          "rose $300 million (30%), $1,300 million in 2022 against $1,000 "
                          "million in 2021 (1,300 - 1,000); of the other segments, Beta rose 80% "
                          "(from $100 million to $180 million); Gamma fell 12% (from $500 million "
                          "to $440 million).")
    # "what drove the biggest gain" asks the member, by amount, as "which ... drove" does
    drove = next(c for c in load_cues().change_rank if re.search(
        c.pattern, "which segments grew net sales in q2 2023, and what drove the biggest gain?"))
    assert drove.by == "amount"
    # "what drove that growth" asks the fastest grower's causes, not which member drove it
    found = direct_answer_to("Which segment grew Acme's net sales the fastest in 2022, and "
                             "what drove that growth?", units[:1], units)
    assert found is not None and found.text.startswith(
        "Beta grew Acme's net sales the fastest of the segments: its net sales rose 80%"), found
    # a decline is driven by the largest fall; none fell: the question's premise is said false
    found = direct_answer_to("Which segment drove the decline in Acme's net sales in 2022?",
                             units[:1], units)
    assert found is not None and found.text.startswith("Gamma drove the decline")
    rising = [u for u in units if not u.text.startswith("Gamma")]
    total = units[0].model_copy(update={"quote": "Total 1,100 1,480",
                                        "text": "Total: 2021: 1,100; 2022: 1,480"})
    none = direct_answer_to("Which segment drove the decline in Acme's net sales in 2022?",
                            rising[:1], [*rising, total])
    assert none is not None and none.text.startswith(
        "None: no segment's net sales declined (in 2022 against 2021); each rose, Beta's the "
        "least, by 80% ($80 million;")  # by amount, as a total's driver is ranked


def test_a_table_of_places_for_segments_ranks_no_segment() -> None:
    """Corning 2021 (tune): "Information concerning principal geographic areas for reportable
    segments ..." lists regions; the kind its title names first is its members', so "Which
    segment drove ..." is not answered with North America. Titled by segment first, it ranks."""
    def rows(title: str) -> list[EvidenceUnit]:
        scope = f"Acme 10-K 2022 | {title} | USD millions Net sales 2021 Net sales 2022"
        values = {"North America": ("3,761", "5,104"), "Asia Pacific": ("6,214", "7,059")}
        return [EvidenceUnit(chunk_id="c", document=DOC, year=2022, chunk_rank=0, page=5,
                             located=True, is_row=True, quote=" ".join([label, *v]),
                             text=f"{label}: 2021: {v[0]}; 2022: {v[1]}", scope=scope)
                for label, v in values.items()]
    asked = "Which segment drove the largest share of Acme's net sales growth in 2022?"
    places = rows("Information concerning principal geographic areas for reportable segments")
    assert direct_answer_to(asked, places[:1], places) is None
    segments = rows("Net sales of reportable segments by geographic area")
    found = direct_answer_to(asked, segments[:1], segments)
    assert found is not None and found.text.startswith("North America drove")


def test_a_table_of_products_ranks_no_region() -> None:
    """3M 2018 (sec-10k): Note 2, "Revenue by Product and Geography", prints its product lines
    under a header of years and "Net Sales"; the nearest title that names a kind names
    products first, and no row names a place, so "Which geographic region ..." is not answered
    with a product line. Rows that name places are ranked."""
    def rows(title: str, values: dict[str, tuple[str, str]]) -> list[EvidenceUnit]:
        scope = f"Acme 10-K 2018 | Notes: {title} | Note 2. Revenue | Year ended | Net Sales"
        return [EvidenceUnit(chunk_id="c", document=DOC, year=2018, chunk_rank=0, page=5,
                             located=True, is_row=True, quote=" ".join([label, *v]),
                             text=f"{label}: 2018: {v[0]}; 2017: {v[1]}", scope=scope)
                for label, v in values.items()]
    products = {"Abrasives": ("1,804", "1,746"), "Adhesives and Tapes": ("4,607", "4,468"),
                "Total Company": ("32,765", "31,657")}
    places = {"Asia Pacific": ("10,254", "9,809"), "United States": ("12,840", "12,372"),
              "Total Company": ("32,765", "31,657")}
    asked = "Which geographic region contributed the most to Acme's net sales in FY2018?"
    for title in ("Revenue by Product and Geography", "Revenue by Geography"):
        assert direct_answer_to(asked, (units := rows(title, products))[:1], units) is None
    found = direct_answer_to(asked, (units := rows("Revenue by Geography", places))[:1], units)
    assert found is not None and found.text.startswith("United States had the most")


def test_a_printed_change_of_another_measure_ranks_no_growth() -> None:
    """A table that prints each segment's change ranks "Which segment grew the fastest?" by it
    only when the change is of sales (or of the measure asked): a column of operating income's
    change says nothing of which segment grew (3M prints both in its MD&A)."""
    def rows(heading: str) -> list[EvidenceUnit]:
        scope = f"Acme 10-K 2018 | Item 7. | Worldwide {heading} By Business Segment"
        values = {"Alpha": "9.5%", "Beta": "3.4%", "Gamma": "(0.5)%"}
        return [EvidenceUnit(chunk_id="c", document=DOC, year=2018, chunk_rank=0, page=21,
                             located=True, is_row=True, quote=f"{label} {v}",
                             text=f"{label}: Total {heading.lower()}: {v}", scope=scope,
                             caption="Year ended December 31, 2018")
                for label, v in values.items()]
    asked = "Which segment of Acme grew the fastest in FY2018?"
    sales = rows("Sales Change")
    found = direct_answer_to(asked, sales[:1], sales)
    assert found is not None and found.text.startswith("Alpha grew the fastest: its total "
                                                      "sales change was 9.5%")
    income = rows("Operating Income Change")
    assert direct_answer_to(asked, income[:1], income) is None


def test_a_members_share_of_the_total_its_table_prints() -> None:
    scope = "Acme 10-K 2022 | Net sales by segment (in millions) | USD millions 2021 2022"
    values = {"Alpha": ("1,000", "1,300"), "Beta": ("100", "180"), "Total": ("1,100", "1,480")}
    units = [EvidenceUnit(chunk_id="c", document=DOC, year=2022, chunk_rank=0, page=5,
                          located=True, is_row=True, quote=" ".join([label, *v]),
                          text=f"{label}: 2021: {v[0]}; 2022: {v[1]}", scope=scope)
             for label, v in values.items()]
    found = direct_answer_to("What share of Acme's 2022 net sales came from Beta?",
                             units[1:2], units)
    assert found is not None
    assert found.text == ("Beta: 12.2% of net sales ($180 million of $1,480 million in 2022; "
                          "180 / 1,480).")
    assert direct_answer_to("What share of Acme's 2022 net sales came from Gamma?",
                            units[1:2], units) is None  # no row of that name
    precise = direct_answer_to("What share of Acme's 2022 net sales came from Beta? Round to "
                               "one decimal place.", units[1:2], units)
    assert precise is not None and precise.text.startswith("Beta: 12.2% of net sales")


def test_periods_read_each_quarter_once() -> None:
    from rag_assets.core.question.question import periods_named as asked_periods
    assert asked_periods("Revenue in Q1 2022 Q2 2023?") == [("Q1", "2022"), ("Q2", "2023")]
    assert asked_periods("In 2022 Q2, which segment ...") == [("Q2", "2022")]
    assert asked_periods("the biggest drop in Q22023") == [("Q2", "2023")]


def test_a_figure_asked_is_quoted_from_a_sentence_that_prints_one_first() -> None:
    """The quotes' order, not their scores: "How much" is first answered by the sentence that
    prints an amount; a year alone is no figure; other questions keep the scorer's order."""
    from rag_assets.core.generation.extractive import quote_order
    from rag_assets.core.question.question import read_question

    units = [_sentence("The board declared a quarterly dividend in August 2023."),
             _sentence("The dividend of $1.02 per share is payable September 8, 2023.")]
    chosen = _ranked(units)
    asked = quote_order(read_question("How much was Acme's quarterly dividend in 2023?"), chosen)
    assert [s.unit.text[:20] for s in asked] == ["The dividend of $1.0", "The board declared a"]
    kept = quote_order(read_question("Why did Acme declare a dividend in 2023?"), chosen)
    assert [s.unit for s in kept] == units
    # a count: the sentence that prints a number of the thing counted (as many as there are,
    # not those opened in the period), then the amounts
    counts = [_sentence("Net sales rose 8% to $57.8 billion in the quarter."),
              _sentence("Acme opened 12 new warehouses in the third quarter of 2023."),
              _sentence("Acme operates 858 warehouses, including 590 in the United States.")]
    ranked = _ranked(counts)
    asked = quote_order(read_question("How many warehouses did Acme operate in 2023?"), ranked)
    assert [s.unit.text[:12] for s in asked][0] == "Acme operate"


def test_a_figure_is_quoted_first_from_a_sentence_that_names_what_is_asked() -> None:
    """Lockheed Martin's Q2 2023 release: its income statement, run together as one sentence,
    prints the question's company and dates and many amounts, but no backlog; the headline's
    "Record backlog of $158.0 billion" names it, and is quoted first whatever the scores."""
    from rag_assets.core.generation.extractive import asked_roots, names_asked, quote_order
    from rag_assets.core.question.question import read_question

    statement = _sentence("(unaudited; in millions, except per share data) Quarters Ended Six "
                          "Months Ended June 25, 2023 June 26, 2022 June 25, 2023 June 26, 2022 "
                          "Net sales $ 16,693 $ 15,446 $ 31,819 $ 30,410")
    headline = _sentence("Record backlog of $158.0 billion")
    chosen = _ranked([statement, headline])
    asked = read_question("What was Lockheed Martin's total backlog at June 25, 2023?"
                          ).model_copy(update={"companies": ["Lockheed Martin"]})  # as routed
    assert asked_roots(asked) == {"backl"}
    assert [s.unit for s in quote_order(asked, chosen)] == [headline, statement]
    # a date names no measure: the statement's "December 31, 2022" heading is no backlog
    year_end = read_question("How much backlog did Lockheed Martin have at December 31, 2022?"
                             ).model_copy(update={"companies": ["Lockheed Martin"]})
    dated = _sentence("(in millions) December 31, 2022 December 31, 2021 Total assets $ 52,880 "
                      "$ 50,873")
    record = _sentence("Record backlog of $150.0 billion")
    assert [s.unit for s in quote_order(year_end, _ranked([dated, record]))] == [record, dated]
    # a long question: two of its roots name it, not half of its every word
    capex = read_question("How much did Costco spend on new warehouse openings, remodels and "
                          "technology capital expenditures in fiscal 2023?"
                          ).model_copy(update={"companies": ["Costco"]})
    assert len(asked_roots(capex)) >= 5
    assert names_asked(capex, "Capital expenditures for new warehouses were $4.3 billion.")
    # a metric is named in the filer's words for its line items: "net sales" for revenue
    assert names_asked(read_question("What was Walmart's revenue in fiscal 2022?"),
                       "Net sales were $567.8 billion in fiscal 2022, an increase of 2.4%.")
    # a question that names nothing beside its company and period names no measure to prefer
    assert names_asked(read_question("How much did Lockheed Martin report for Q2 2023?"
                                     ).model_copy(update={"companies": ["Lockheed Martin"]}),
                       statement.text)


@pytest.mark.parametrize(("label", "period_only"), [
    ("Third quarter", True), ("Fiscal 2022", True), ("Six months ended June 30", True),
    ("Total", False), ("Net sales", False), ("Net increase in cash", False)])
def test_a_row_of_the_periods_themselves_is_told_by_its_label(label: str,
                                                               period_only: bool) -> None:
    from rag_assets.core.generation.extractive import names_a_period_only

    assert names_a_period_only(label) is period_only


@pytest.mark.parametrize(("text", "runs"), [
    # Lockheed Martin's release: the backlog table's lines read as one sentence
    ("Backlog June 25, 2023 Dec. 31, 2022 Aeronautics $ 58,100 $ 56,630 Missiles and Fire "
     "Control 34,018 28,735 Rotary and Mission Systems 35,947 34,949 Space 29,946 29,684 Total "
     "backlog $ 158,011 $ 149,998", True),
    # Costco's count by country: many figures, each with words between
    ("Costco operates 858 warehouses, including 590 in the United States and Puerto Rico, 107 "
     "in Canada, 40 in Mexico, 32 in Japan, 29 in the United Kingdom, 18 in Korea, 15 in "
     "Australia, 14 in Taiwan, four each in China and Spain, two in France.", False),
    # dates and a page's folio are no table's figures
    ("At May 31, 2022 and May 31, 2021, held-for-sale assets were $175 million and $182 "
     "million, primarily consisting of $76 million and $81 million of inventories, 2022 FORM "
     "10-K 91", False)])
def test_a_tables_lines_run_together_are_told_from_a_sentence_of_figures(text: str,
                                                                         runs: bool) -> None:
    from rag_assets.core.generation.extractive import runs_figures_on

    assert runs_figures_on(text) is runs


def test_what_a_filing_says_is_quoted_from_its_specifics_first() -> None:
    """Activision Blizzard's 2019 10-K heads its franchise risk with a sentence of the trend,
    then states the three franchises' 67% of net revenues: asked what the filing says, the
    sentence that prints an amount comes first, then the rest as scored (a row is not moved)."""
    from rag_assets.core.generation.extractive import quote_order
    from rag_assets.core.question.question import read_question

    units = [_sentence("Concentration of Sales Among the Most Popular Franchises The "
                       "concentration of retail revenues among key titles has continued as a "
                       "trend in the overall interactive entertainment industry."),
             _row("Net revenues", "$ 6,489", "$ 7,500"),
             _sentence("For example, in 2019, revenues associated with the Call of Duty, Candy "
                       "Crush, and World of Warcraft franchises, collectively, accounted for "
                       "approximately 67% of our net revenues.")]
    chosen = _ranked(units)
    ordered = quote_order(read_question("What franchise concentration risk does Activision "
                                        "Blizzard highlight in its 2019 10-K?"), chosen)
    assert [s.unit.text[:12] for s in ordered] == ["For example,", "Concentratio",
                                                   "Net revenues"]
    # names are read by their own readers, and a name's sentence need print no amount (the
    # auditor's "KPMG LLP has served as ..." before the fees it is paid); a cause's sentences
    # are read for their causes
    for question in ("Which franchises does Activision Blizzard depend on?",
                     "Why did Activision Blizzard's net revenues fall?"):
        kept = quote_order(read_question(question), chosen)
        assert [s.unit for s in kept] == units, question


def test_a_sentence_of_the_year_ago_period_is_quoted_after_the_periods_own() -> None:
    """JPMorgan's Q3 2022 10-Q prints the quarter's provision and, after it, the year-ago
    quarter's ("The prior year provision was a net benefit of $1.5 billion, reflecting ..."):
    asked of Q3 2022, the quarter's comes first whatever the scores; asked of the prior year's,
    the order stands."""
    from rag_assets.core.generation.extractive import quote_order
    from rag_assets.core.question.question import read_question

    units = [_sentence("The prior year provision was a net benefit of $1.5 billion, reflecting "
                       "a net reduction in the allowance for credit losses of $2.1 billion and "
                       "net charge-offs of $524 million."),
             _sentence("The provision for credit losses was $1.5 billion, reflecting a net "
                       "addition of $808 million to the allowance for credit losses and $727 "
                       "million of net charge-offs.")]
    chosen = _ranked(units)
    asked = quote_order(read_question("What were the components of JPMorgan's $1.5 billion "
                                      "provision for credit losses in Q3 2022?"), chosen)
    assert [s.unit.text[:12] for s in asked] == ["The provisio", "The prior ye"]
    prior = quote_order(read_question("What was JPMorgan's prior year provision for credit "
                                      "losses in its Q3 2022 10-Q?"), chosen)
    assert [s.unit for s in prior] == units


def test_a_sentence_that_only_points_elsewhere_is_quoted_after_one_that_states() -> None:
    """Lockheed Martin's FY2020 10-K points to its 8-K for the Aerojet Rocketdyne agreement's
    terms before it states them; a pointer that prints an amount states something."""
    from rag_assets.core.generation.extractive import quote_order
    from rag_assets.core.question.question import read_question

    units = [_sentence("For more information regarding the acquisition terms, see Item 1.01 in "
                       "our Current Report on Form 8-K filed with the SEC on December 21, 2020."),
             _sentence("On December 20, 2020 we entered into an agreement to acquire Aerojet "
                       "Rocketdyne Holdings, Inc. for $56 per share in cash."),
             _sentence("See Note 3 for the $4.4 billion transaction value.")]
    chosen = _ranked(units)
    ordered = quote_order(read_question("What acquisition did Lockheed Martin agree to in "
                                        "December 2020, and at what price?"), chosen)
    assert [s.unit.text[:12] for s in ordered] == ["On December ", "See Note 3 f", "For more inf"]


def test_a_plan_over_the_span_asked_is_quoted_before_one_over_another_span() -> None:
    """American Water's FY2022 10-K states its capital plan over ten years (p.8) and over five
    (p.66): the span asked is the period asked, the other span's figure is quoted after."""
    from rag_assets.core.generation.extractive import quote_order
    from rag_assets.core.question.question import read_question

    units = [_sentence("Capital Investment The Company plans to invest between $30 billion and "
                       "$34 billion over the next 10 years for capital improvements, including "
                       "acquisitions, to its Regulated Businesses' water and wastewater "
                       "infrastructure."),
             _sentence("As previously noted, over the next five years the Company expects to "
                       "invest between $14 billion to $15 billion, with $12.5 billion to $13 "
                       "billion for infrastructure improvements in the Regulated Businesses, and "
                       "the Company expects to invest between $30 billion to $34 billion over "
                       "the next 10 years."),
             _sentence("The Company invested approximately $2.3 billion in 2022.")]
    chosen = _ranked(units)
    five = quote_order(read_question("How much does American Water Works plan to invest over "
                                     "the next five years?"), chosen)
    assert [s.unit.text[:12] for s in five] == ["As previousl", "The Company ", "Capital Inve"]
    ten = quote_order(read_question("How much does American Water Works plan to invest over "
                                    "the next 10 years?"), chosen)
    assert [s.unit for s in ten] == [s.unit for s in chosen]  # both print ten years
    # a question that asks no span keeps the scorer's order
    kept = quote_order(read_question("How much does American Water Works plan to invest?"),
                       chosen)
    assert [s.unit for s in kept] == [s.unit for s in chosen]


def test_an_average_price_is_read_from_the_filings_repurchase_sentence() -> None:
    """The sentence that states the repurchase is read from the filing when retrieval returned
    only the Item 703 table's heading; a sentence of another year is not."""
    heading = _sentence("Total Number of Shares Purchased Average Price Paid per Share")
    stated = [_sentence("In 2022, Acme repurchased 2,000,000 shares for $90 million."),
              _sentence("In 2023, Acme repurchased 1,000,000 shares for $50 million.")]
    found = direct_answer_to("What average price per share did Acme pay for the shares it "
                             "bought back in 2023?", [heading], [heading],
                             scan=lambda patterns: [u for u in stated
                                                    if any(p.search(u.text) for p in patterns)])
    assert found is not None
    assert found.text == "About $50.00 per share: $50 million / 1,000,000 shares."
    for other in ("What did Acme pay per share in dividends in 2023?",
                  "What was the exercise price per share of the options Acme granted in 2023?",
                  "What was Acme's average price per paid membership in 2023?",
                  "What was Acme's average cost of debt in 2023?"):
        assert direct_answer_to(other, [heading], [heading],
                                scan=lambda patterns: stated) is None, other


def test_how_many_are_outside_a_place_is_the_count_less_the_places() -> None:
    said = _sentence("Acme currently operates 858 warehouses, including 590 in the United "
                     "States and Puerto Rico, 107 in Canada and 40 in Mexico.")
    found = direct_answer_to("How many warehouses did Acme operate in 2023, and how many of them "
                             "were outside the United States and Puerto Rico?", [said], [said])
    assert found is not None
    assert found.text == ("858 warehouses, 268 of them outside the United States and Puerto "
                          "Rico (858 - 590).")
    # a place the sentence does not count, or another thing counted: nothing computed
    assert direct_answer_to("How many warehouses did Acme operate outside Japan in 2023?",
                            [said], [said]) is None
    assert direct_answer_to("How many employees did Acme have outside Canada in 2023?",
                            [said], [said]) is None
    # the place asked is only part of the one printed; a part of another noun or a change; a
    # year read as the count; a count of openings: none is the remainder asked
    for sentence, asked in [
            (said.text, "outside the United States"),
            ("Acme operates 100 stores, including 60 in the United Kingdom and Ireland.",
             "outside the United Kingdom"),
            ("Acme operates 500 stores and 40 distribution centers, 12 in Canada.",
             "outside Canada"),
            ("Acme had 316,000 employees, an increase of 20,000 in the United States.",
             "outside the United States"),
            ("As of 2023 warehouses numbered 858, with 590 in the United States.",
             "outside the United States")]:
        unit = _sentence(sentence)
        noun = "employees" if "employees" in sentence else "stores" if "stores" in sentence \
            else "warehouses"
        assert direct_answer_to(f"How many {noun} did Acme have {asked} in 2023?", [unit],
                                [unit]) is None, sentence
    assert direct_answer_to("How many warehouses did Acme open outside the United States and "
                            "Puerto Rico in 2023?", [said], [said]) is None
    us = _sentence("Acme operates 2,601 stores, including 1,700 in the U.S. and 200 in Canada.")
    found = direct_answer_to("How many stores did Acme operate outside the U.S. in 2023?",
                             [us], [us])
    assert found is not None and found.text.startswith("2,601 stores, 901 of them outside the U.S.")


def test_a_share_of_a_count_is_the_places_number_over_the_count() -> None:
    said = _sentence("Acme currently operates 858 warehouses, including 590 in the United "
                     "States and Puerto Rico, 107 in Canada and 40 in Mexico. It opened 12 in "
                     "Japan.")
    for question, text in [
            ("What percentage of Acme's warehouses are in Canada as of its 2023 release?",
             "12.5% of its 858 warehouses, 107, are in Canada (107 / 858)."),
            ("What share of Acme's warehouses were in the United States and Puerto Rico in "
             "2023?", "68.8% of its 858 warehouses, 590, are in the United States and Puerto "
             "Rico (590 / 858)."),
            ("What proportion of Acme's warehouses were located outside the United States and "
             "Puerto Rico?", "31.2% of its 858 warehouses, 268, are outside the United States "
             "and Puerto Rico ((858 - 590) / 858).")]:
        found = direct_answer_to(question, [said], [said])
        assert found is not None and found.text == text, question
    found = direct_answer_to("What percentage of Acme's warehouses are in Canada? Round to two "
                             "decimal places.", [said], [said])
    assert found is not None and found.text.startswith("12.47% of its 858 warehouses"), found
    # only part of a place printed with another; several places asked; a place of the next
    # sentence; another noun; a qualified count the sentence does not print
    for question in ("What percentage of Acme's warehouses are in the United States?",
                     "What percentage of Acme's warehouses are in Canada and Mexico combined?",
                     "What percentage of Acme's warehouses are in Canada, Mexico and Japan?",
                     "What percentage of Acme's warehouses are in Canada as well as Mexico?",
                     "What percentage of Acme's warehouses are in Japan?",
                     "What percentage of Acme's employees are in Canada?",
                     "What percentage of Acme's leased warehouses are in Canada?"):
        found = direct_answer_to(question, [said], [said])
        assert found is None or found.kind != "arithmetic", (question, found)
    # the list ends where an item does not follow: a clause after it, a count of openings
    for sentence in ("Acme operates 858 warehouses, including 590 in the United States, and "
                     "expects to open 12 in Canada.",
                     "Acme operates 858 warehouses, including 590 in the U.S. It plans to open "
                     "12 in Canada.",
                     "During 2023, Acme opened 30 net new warehouses, including 5 in Canada."):
        unit = _sentence(sentence)
        for question in ("What percentage of Acme's warehouses are in Canada?",
                         "How many warehouses did Acme operate outside Canada in 2023?"):
            found = direct_answer_to(question, [unit], [unit])
            assert found is None or found.kind != "arithmetic", (sentence, question, found)
    us = _sentence("Acme operates 2,601 stores, including 1,700 in the U.S. and 200 in Canada.")
    found = direct_answer_to("What percentage of Acme's stores are outside the U.S.?", [us], [us])
    assert found is not None and found.text == (
        "34.6% of its 2,601 stores, 901, are outside the U.S. ((2,601 - 1,700) / 2,601).")



GM_SEGMENT_TABLE = """Our operating segment results were as follows:
| In Millions | 2017 | 2016 |
| --- | --- | --- |
| Net sales: North America Retail | $10,196.9 | $10,936.6 |
| Convenience Stores & Foodservice | 1,870.0 | 1,923.8 |
| Europe & Australia | 1,824.5 | 1,998.0 |
| Asia & Latin America | 1,728.4 | 1,704.7 |
| Total | $15,619.8 | $16,563.1 |
| Operating profit: North America Retail | $ 2,303.6 | $ 2,351.2 |
| Convenience Stores & Foodservice | 401.2 | 378.9 |
| Europe & Australia | 164.2 | 200.3 |
| Asia & Latin America | 83.6 | 69.1 |
| Total segment operating profit | 2,952.6 | 2,999.5 |
| Operating profit | $ 2,566.4 | $ 2,707.4 |"""


def test_a_caption_printed_on_its_first_rows_line_heads_the_rows_under_it() -> None:
    """General Mills' 10-K for fiscal 2017 (bulk) prints "Net sales:" and "Operating
    profit:" on the line of each block's first segment: the segment is the row's label and
    the caption heads the block, so no "Operating profit" row is ranked among segments, and
    growth unqualified is net sales' growth (every segment note prints net sales)."""
    hit = Hit(chunk_id="gm-2017-p106", document="general-mills-10k", year=2017, page_start=106,
              page_end=106, text=GM_SEGMENT_TABLE, rank=0, score=1.0, stage="page")
    units = [u for u in units_of(hit, lambda *_: 106) if u.is_row]
    rows = {(u.caption, u.text.split(":")[0]) for u in units}
    assert ("Net sales", "North America Retail") in rows
    assert ("Operating profit", "North America Retail") in rows
    assert units[0].quote.startswith("Net sales: North America Retail $10,196.9")
    most = direct_answer_to("Which segment contributed the most to General Mills' net sales in "
                            "fiscal 2017?", units[:1], units)
    assert most is not None and most.text.startswith(
        "North America Retail had the most net sales in 2017: $10,196.9 million, 65.3% of the "
        "$15,619.8 million total")
    fastest = direct_answer_to("Which segment of General Mills grew the fastest in fiscal "
                               "2017?", units[:1], units)
    assert fastest is not None and fastest.text.startswith(
        "Asia & Latin America grew the fastest of the segments: its net sales rose 1% (23.7 "
        "million), 1,728.4 million in 2017 against 1,704.7 million in 2016")


WALMART_ASSETS_CHUNK = """\
| Fiscal Years Ended January 31, (Amounts in millions) | 2020 | 2019 | 2018 |
|---|---|---|---|
| U.S. operations | $ 86,944 | $ 81,144 | $ 81,478 |
| Non-U.S. operations | 40,105 | 30,251 | 33,340 |
| Total long-lived assets | $ 127,049 | $ 111,395 | $ 114,818 |
No individual country outside of the U.S. had total revenues or long-lived assets that were \
material to the consolidated totals."""


def test_a_block_closed_by_another_measures_total_ranks_no_growth() -> None:
    """Walmart's 10-K for fiscal 2020 (wide, p81), as the chunker cut it: the entity-wide
    table's second block, whose "Long-lived assets" caption row ended the chunk before, under
    "Note 13. Segments and Disaggregated Revenue". Its total names the measure: Non-U.S.
    operations' assets rose 33%, which is no segment's net sales growth."""
    hit = Hit(chunk_id="walmart-2020-p81", document="walmart-10k", year=2020, page_start=81,
              page_end=81, section="Note 13. Segments and Disaggregated Revenue",
              context="Walmart Inc | 10-K fiscal 2020 | Note 13. Segments and Disaggregated "
                      "Revenue", text=WALMART_ASSETS_CHUNK, rank=0, score=1.0, stage="page")
    units = [u for u in units_of(hit, lambda *_: 81) if u.is_row]
    assert [u.text.split(":")[0] for u in units] == [
        "U.S. operations", "Non-U.S. operations", "Total long-lived assets"]
    for question in ("Which segment of Walmart grew net sales the fastest in fiscal 2020?",
                     "Which segment of Walmart grew the fastest in fiscal 2020?"):
        assert direct_answer_to(question, units[:2], units) is None, question


def test_a_winner_asked_why_leads_with_the_causes_of_its_own_change() -> None:
    """"Which segment grew the fastest, and why?": the winner's sentence, then the causes
    MD&A gives under the winner's heading, as one first sentence; causes printed of another
    member are not the winner's, and a question that asks no cause gets the winner alone."""
    from rag_assets.core.generation.direct import with_causes
    winner = DirectAnswer(kind="superlative", named="Environmental Technologies",
                          units=[_row("Environmental Technologies", "457", "356")],
                          text="Environmental Technologies grew the fastest: its net sales "
                               "rose 28%.")
    sentence = _sentence("The increase in segment net sales was primarily driven by demand "
                         "for automotive products.")
    under = sentence.model_copy(update={"scope": f"{sentence.scope} | Environmental "
                                                 "Technologies"})
    asked: list[str] = []

    def explain(question: Any, unit: EvidenceUnit = under) -> DirectAnswer:
        asked.append(question.text)
        return DirectAnswer(kind="cause", units=[unit], causes="demand for automotive products",
                            text="Primarily driven by demand for automotive products; the "
                                 "increase in segment net sales.")

    why = read_question("Which segment grew net sales the fastest in 2022, and why?")
    found = with_causes(why, winner, explain, load_cues())
    assert found is not None and found.text == (
        "Environmental Technologies grew the fastest: its net sales rose 28%; primarily driven "
        "by demand for automotive products; the increase in segment net sales.")
    assert asked == ["What drove the increase in Environmental Technologies' net sales?"]
    assert len(found.units) == 2
    # the causes of a sentence that neither names the winner nor is printed under it
    assert with_causes(why, winner, lambda q: explain(q, sentence), load_cues()) == winner
    assert with_causes(read_question("Which segment grew net sales the fastest in 2022?"),
                       winner, explain, load_cues()) == winner


def test_the_way_a_winner_went_is_read_from_the_ranking_asked() -> None:
    from rag_assets.core.generation.direct import _way_ranked
    cues = load_cues()

    def way(question: str) -> str | None:
        return _way_ranked(next((c for c in cues.change_rank
                                 if re.search(c.pattern, question.lower())), None))

    assert way("Which segment grew net sales the fastest in 2022?") == "up"
    assert way("Which segment drove the decline in net sales in 2022?") == "down"
    assert way("Which segment drove the growth in net sales in 2022?") == "up"
    assert way("Which region had the worst performance in 2022?") is None


def test_a_change_ranking_names_the_measure_its_table_is_titled_by() -> None:
    """A table "of net sales by segment" ranks its segments' net sales; one titled for one
    segment ("for the Consumer segment") prints that segment's measures, no members; a cost
    titled by segment is no sales."""
    def rows(scope: str) -> list[EvidenceUnit]:
        return [_row(label, now, then, scope=scope) for label, now, then in SEGMENTS]

    asked = "Which segment of Acme grew the fastest in Q2 2023?"
    titled = rows("Acme Q2 2023 | Item 2 | The following table presents net sales by reportable "
                  "segment (in millions): | Q2 2023 Q2 2022")
    found = direct_answer_to(asked, titled, titled)
    assert found is not None and found.text.startswith(
        "Enterprise grew the fastest of the segments: its net sales rose 9% (206 million)"), found
    cost = rows("Acme Q2 2023 | Item 2 | Cost of sales by segment (in millions): | Q2 2023 Q2 2022")
    found = direct_answer_to(asked, cost, cost)
    assert found is not None and "its sales" not in found.text and "net sales" not in found.text
    for title in ("Net sales and operating income for the Consumer segment (in millions):",
                  "Results For The Consumer Segment (in millions):"):
        one = rows(f"Acme Q2 2023 | Item 2 | {title} | Q2 2023 Q2 2022")
        assert direct_answer_to(asked, one, one) is None, title
    both = rows("Acme Q2 2023 | Item 2 | Net sales for the Consumer segment and the Enterprise "
                "segment (in millions): | Q2 2023 Q2 2022")
    assert direct_answer_to(asked, both, both) is not None


def test_a_degree_asked_is_quoted_from_the_share_that_measures_it_first() -> None:
    """Corning's 2018 10-K says its Display Technologies segment "generates a significant
    amount of the Company's profits" (p.13) and that it "represented 29% of Corning's segment
    net sales in 2018" (p.3): "how dependent" is answered by the share first, whatever the
    scores; a share of another segment, a move of sales ("increased 5%"), a percentage of
    something other than sales (employees by region) measure no dependence on it, and an
    exposure is quoted as any text asked is (:func:`quote_order`)."""
    from rag_assets.core.generation.extractive import quote_order
    from rag_assets.core.question.question import read_question

    units = [_sentence("Corning's Display Technologies segment generates a significant amount "
                       "of the Company's profits and cash flow."),
             _sentence("Net sales in the Display Technologies segment increased 5% in 2018."),
             _sentence("Optical Communications represented 33% of Corning's segment net "
                       "sales in 2018."),
             _sentence("Of these, 7,600 (81%) were located in the United States and Canada."),
             _sentence("The Display Technologies segment represented 29% of Corning's segment "
                       "net sales in 2018.")]
    chosen = _ranked(units)
    asked = quote_order(read_question("How dependent is Corning on its Display Technologies "
                                      "segment?"), chosen)
    assert [s.unit.text[:12] for s in asked] == [
        "The Display ", "Corning's Di", "Net sales in", "Optical Comm", "Of these, 7,"]
    # a share of sales of another than the one depended on answers no degree asked of it
    other = quote_order(read_question("How dependent is Corning on Samsung Display?"), chosen)
    assert [s.unit for s in other] == units
    # a share of cost of sales is no share of sales; a question naming no one reorders none
    apple = [_sentence("Apple Inc. accounted for 12% of cost of sales purchases."),
             _sentence("Apple accounted for 11% of Corning's consolidated net sales.")]
    ranked = _ranked(apple)
    asked = quote_order(read_question("How dependent is Corning on Apple?"), ranked)
    assert [s.unit.text[:12] for s in asked] == ["Apple accoun", "Apple Inc. a"]
    largest = quote_order(read_question("How dependent is Corning on its largest customer?"),
                          ranked)
    assert [s.unit for s in largest] == apple
    # an exposure is no dependence: what the filing says of it is quoted as any text asked,
    # its sentences that print an amount first, in their order; a name asked keeps the order
    ordered = quote_order(read_question("How exposed is Corning to its Display Technologies "
                                        "segment?"), chosen)
    assert [s.unit for s in ordered] == [*units[1:], units[0]]
    kept = quote_order(read_question("What does Corning's Display Technologies segment make?"),
                       chosen)
    assert [s.unit for s in kept] == units


@pytest.mark.parametrize(("question", "count"), [
    ("What are three main companies acquired by Pfizer mentioned in this 10K report?", 3),
    ("Which two acquisitions did Acme complete in the first six months of 2023?", 2),
    # a period or an amount is no count of names
    ("Which acquisitions did Acme complete in the six months ended June 30, 2023?", 0),
    ("Which deals over $5 million did Acme close in 2023?", 0),
])
def test_the_names_a_question_counts(question: str, count: int) -> None:
    assert _names_counted(question, load_cues()) == count


def test_regions_that_each_print_the_same_products_are_still_groups() -> None:
    """Each region prints the same product lines ("Glass", "Ceramics") and its total: its
    blocks repeat their members, yet the totals that close them are of places, so a region
    question ranks them (where blocks of measures, "REVENUES" then "DEPRECIATION" over the
    same segments, are no groups)."""
    by_region = [("North America", "Glass", "$ 300", "$ 1", "$ 280", "$ 1"),
                 ("North America", "Ceramics", "200", "1", "190", "1"),
                 ("North America", "Total North America", "500", "2", "470", "2"),
                 ("Asia Pacific", "Glass", "900", "1", "850", "1"),
                 ("Asia Pacific", "Ceramics", "400", "1", "390", "1"),
                 ("Asia Pacific", "Total Asia Pacific", "1,300", "2", "1,240", "2"),
                 ("", "Total", "$ 1,800", "$ 4", "$ 1,710", "$ 4")]
    rows = [_geo_row(*r) for r in by_region]
    found = direct_answer_to("Which geographic region accounted for the largest share of Bolt's "
                             "net sales in 2022?", rows[:1], rows)
    assert found is not None and found.text.startswith(
        "Asia Pacific had the largest net sales in 2022: $1,300 million"), found


# MGM Resorts' Q4 2022 release prints a segment's year and its quarter one after the other
MGM_CHINA_YEAR = ("• Net revenues of $674 million in the current year compared to $1.2 billion "
                  "in the prior year, a decrease of 44%; and")
MGM_CHINA_QUARTER = ("• Net revenues of $175 million in the current quarter compared to $315 "
                     "million in the prior year quarter, a decrease of 44%.")


def test_a_difference_printed_by_its_sentence_is_stated_for_the_period_asked() -> None:
    """"By how much did MGM China's net revenues grow in Q4 2022?" was answered "$0.5 billion:
    $1.2 billion - $674 million": the year's amounts, subtracted as a growth, where the
    quarter's sentence prints its decrease itself."""
    units = [_sentence(MGM_CHINA_YEAR), _sentence(MGM_CHINA_QUARTER)]
    quarter = direct_answer_to("By how much did MGM China's net revenues grow in Q4 2022?", units)
    assert quarter is not None and quarter.kind == "stated"
    assert quarter.text == MGM_CHINA_QUARTER[2:]
    year = direct_answer_to("By how much did MGM China's net revenues change in 2022?", units)
    assert year is not None and year.text == f"{MGM_CHINA_YEAR[2:-5]}."


def test_a_difference_between_two_measures_is_computed_though_a_change_is_printed() -> None:
    """The stated change answers a change asked over time, never "the difference between" two
    measures; a bullet's last word keeps its letters ("sector", not "sect")."""
    said = _sentence("In Q2 2023 gross profit was $5.0 billion and operating income was $2.0 "
                     "billion, an increase of 10% over the prior year.")
    found = direct_answer_to("What is the difference between Acme's gross profit and operating "
                             "income in Q2 2023?", [said])
    assert found is not None and found.text == "$3.0 billion: $5.0 billion - $2.0 billion."
    bullet = _sentence("• Net revenues of $175 million in the current quarter compared to $315 "
                       "million in the prior year quarter, a decrease of 44% in the Macau sector")
    stated = direct_answer_to("By how much did Acme's net revenues change in Q2 2023?", [bullet])
    assert stated is not None and stated.text.endswith("in the Macau sector.")


def test_what_an_authorization_has_been_used_for_is_it_less_what_remains() -> None:
    """Ulta Beauty's Q1 fiscal 2023 release prints what remains and the program it remains
    under in one sentence: what was used is their difference, each operand as printed."""
    left = _sentence("As of April 29, 2023, $816.5 million remained available under the $2.0 "
                     "billion share repurchase program announced in March 2022.")
    found = direct_answer_to("How much authorization was left under Ulta Beauty's $2.0 billion "
                             "share repurchase program at April 29, 2023, and how much of the "
                             "program had been used?", [left])
    assert found is not None and found.text == (
        "$816.5 million remained available, so $1,183.5 million (59.2%) of the $2.0 billion "
        "share repurchase program had been used: $2.0 billion - $816.5 million.")
    # only what was used is computed: what remains is asked of the sentence as printed
    remains = direct_answer_to("How much remained available under Ulta Beauty's share "
                               "repurchase program?", [left])
    assert remains is None or "used" not in remains.text
    # the cash a quarter's repurchases used asks no program's use (the review's case)
    quarter = direct_answer_to("How much cash was used for share repurchases in the first "
                               "quarter of fiscal 2023?", [left])
    assert quarter is None or "1,183.5" not in quarter.text
