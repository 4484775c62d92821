"""What drove a change, answered from real filings of eight companies: the first sentence gives
the causes the filing prints for the change of the measure asked (MD&A's "primarily due to",
"driven by", "reflecting"), first, then the change itself; a sentence whose change is the
previous sentence's ("The increase is primarily due to ...") is read with it.

The store holds a few pages of each filing around its MD&A sentence, the neighbours included.
The questions are this project's own, worded apart from the analyst-tune set that chose the rule
(the held-out analyst-check set is never read here)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from rag_assets.core.evaluation.answer_correctness import answer_lead
from rag_assets.core.generation.extractive import answer_patterns
from rag_assets_tests.real_filings import CORPORA

from .conftest import Corpus, real_corpus

pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here"),
              pytest.mark.slow]  # eight real filings read, a few pages of each indexed

BULK, WIDE = "financebench-bulk/pdfs", "financebench-wide/pdfs"
# (file, document, year, zero-based pages kept): each MD&A sentence's page and its neighbours
FILINGS: list[tuple[str, str, int, Sequence[int]]] = [
    (f"{BULK}/AMERICANWATERWORKS_2023Q2_10Q.pdf", "american-water-works-10q-q2", 2023,
     range(38, 43)),
    (f"{BULK}/COCACOLA_2019_10K.pdf", "coca-cola-10k", 2019, range(55, 60)),
    (f"{WIDE}/GENERALMILLS_2019_10K.pdf", "general-mills-10k", 2019, range(17, 22)),
    (f"{WIDE}/JPMORGAN_2023Q2_10Q.pdf", "jpmorgan-10q-q2", 2023, range(2, 7)),
    (f"{BULK}/ULTABEAUTY_2024Q1_EARNINGS.pdf", "ulta-beauty-earnings-q1", 2024, range(0, 3)),
    (f"{BULK}/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1", 2024, range(18, 23)),
    (f"{WIDE}/MGMRESORTS_2022Q4_EARNINGS.pdf", "mgm-resorts-earnings-q4", 2022, range(0, 2)),
    (f"{BULK}/PFIZER_2023Q2_EARNINGS.pdf", "pfizer-earnings-q2", 2023, range(1, 5)),
]


@pytest.fixture(scope="module")
def drivers_corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return real_corpus(Path(tmp_path_factory.mktemp("drivers_lancedb")), FILINGS)


@pytest.mark.parametrize(("question", "lead_has"), [
    ("What drove the increase in American Water Works' operating revenues in the second "
     "quarter of 2023?", ["$110 million increase from authorized rate increases",
                          "operating revenues increased $140 million"]),
    ("What drove the increase in Coca-Cola's net cash provided by operating activities in "
     "2019?", ["operating income growth", "the acquisition of Costa", "$2,844 million"]),
    ("What drove General Mills' net sales growth in fiscal 2019?",
     ["the addition of Blue Buffalo", "net sales increased 7 percent"]),
    ("What drove JPMorgan's net interest income growth in the second quarter of 2023?",
     ["higher rates", "First Republic acquisition", "up 44%"]),
    # a bank's net sales read as its total net revenue, never "loan sales"; the list the
    # causes open ("reflecting: – Net interest income ...") read to its end
    ("What drove the change in JPMorgan's net sales in the second quarter of 2023?",
     ["Net interest income of $21.8 billion, up 44%", "Noninterest revenue was $19.5 billion, "
      "up 25%", "Total net revenue was $41.3 billion, up 34%"]),
    ("What drove Ulta Beauty's net sales growth in the first quarter of fiscal 2023?",
     ["increased comparable sales", "strong new store performance", "increased 12.3%"]),
    # comparable sales are the subject of their own sentence, never net sales' cause (its base
    # the year before's: "compared to an increase of 18.0% in the first quarter of fiscal 2022")
    ("What drove the increase in Ulta Beauty's comparable sales in the first quarter of fiscal "
     "2023?", ["an 11.0% increase in transactions", "increased 9.3%"]),
    ("What drove the change in Walmart's net cash provided by operating activities in the "
     "first quarter of fiscal 2024?", ["moderated levels of inventory purchases",
                                      "increase of $8.4 billion"]),
    # a release's segment bullets: the segment's own, the way asked ("Regional Operations ...
    # an increase of 10% due to an increase in business volume" explains no decline), its
    # causes after "The current quarter was negatively affected by"
    ("What drove the decline in MGM China's net revenues in Q4 2022?",
     ["three-day COVID-19 related property closure at MGM Cotai", "a decrease of 44%"]),
    ("What drove the increase in MGM Resorts' consolidated net revenues in Q4 2022?",
     ["inclusion of the operating results of The Cosmopolitan", "an increase of 18%"]),
    # what is anticipated for the year ("Company revenues are anticipated to be lower in 2023
    # than in 2022 due to expected revenue declines") explains no quarter's decline
    ("What drove the decline in Pfizer's revenues in Q2 2023?",
     ["primarily due to a decrease in Paxlovid and Comirnaty", "a decrease of $15.0 billion"]),
])
def test_the_first_sentence_leads_with_the_causes_of_the_change(
        drivers_corpus: Corpus, question: str, lead_has: list[str]) -> None:
    result = drivers_corpus.answerer().ask(question)
    lead = answer_lead(result.answer)
    assert all(part in lead for part in lead_has), lead
    opening = lead[:40].lower()  # led by a causal connective, not by the change
    assert any(p.search(opening) for p in answer_patterns("cause")), lead
    assert result.claims and all(c.mark == "valid" for claim in result.claims
                                 for c in claim.citations)


AWK_2023 = (f"{BULK}/AMERICANWATERWORKS_2023Q2_10Q.pdf", "american-water-works-10q-q2", 2023)


@pytest.mark.parametrize(("question", "lead_has"), [
    ("What drove the change in American Water Works's operating revenues in Q2 2023 compared "
     "with Q2 2022?", ["increased $140 million", "authorized rate increases",
                       "increased $20 million and $34 million, respectively",
                       "capital projects in MSG", "($140 million + $20 million)",
                       "by $160 million"]),
    ("What drove the change in American Water Works's operating revenues in the six months "
     "ended June 30, 2023?", ["increased $222 million", "$34 million, respectively",
                              "$222 million + $34 million", "by $256 million"]),
])
def test_a_change_mdna_explains_only_by_its_parts_is_led_by_them(
        drivers_corpus: Corpus, question: str, lead_has: list[str]) -> None:
    """American Water's 10-Q explains its Regulated Businesses' operating revenues ("increased
    $140 million, primarily due to ...") and its other businesses' ("increased $20 million and
    $34 million, respectively, due primarily to ...") and never the company's, which the income
    statement prints (937 to 1,097 in the quarter): the parts whose changes add up to the
    whole's lead, each with its causes, the sum shown, then the change computed; the six
    months' sentence ($222 million) is no part of the quarter's."""
    from rag_assets.core.generation.answers import Answerer
    from rag_assets.core.ingest.filing_facts import read_facts
    from rag_assets.core.retrieval.retriever import Retriever
    from rag_assets_tests.real_filings import real_filing

    facts = read_facts(AWK_2023[1], AWK_2023[2], real_filing(AWK_2023[0]).pages)
    answerer = Answerer(Retriever(drivers_corpus.store, drivers_corpus.embedder),
                        drivers_corpus.pages,
                        facts=lambda d, y: facts if d == AWK_2023[1] else [])
    result = answerer.ask(question, document=AWK_2023[1], year=AWK_2023[2])
    lead = answer_lead(result.answer)
    assert lead.startswith("By its parts, as MD&A explains each: "), lead
    assert all(part in lead for part in lead_has), lead
    if "six months" not in question:
        assert "$222 million" not in lead, lead
    assert all(c.mark == "valid" for claim in result.claims for c in claim.citations)


JPM_2022 = (f"{WIDE}/JPMORGAN_2022Q2_10Q.pdf", "jpmorgan-10q-q2", 2022)


@pytest.fixture(scope="module")
def levels_corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    """JPMorgan's 10-Q for Q2 2022: the executive overview (p.5), the consolidated results
    (p.13), and three business lines' pages (p.23, p.28, p.34), each of which says "The
    provision for credit losses was $N" of its own with its causes."""
    return real_corpus(Path(tmp_path_factory.mktemp("levels_lancedb")),
                       [(*JPM_2022, [4, 12, 22, 27, 33])])


@pytest.mark.parametrize("question", [
    "What drove JPMorgan's provision for credit losses in Q2 2022?",
    "What made up JPMorgan Chase's provision for credit losses in the second quarter of 2022?",
])
def test_a_business_lines_level_never_explains_the_firms(levels_corpus: Corpus,
                                                         question: str) -> None:
    """The income statement prints the firm's provision, 1,101 (p.88): a sentence that states
    the provision at $59 million (Commercial Banking's) or $761 million (Consumer & Community
    Banking's) explains a part; the firm's "$1.1 billion, reflecting $657 million of net
    charge-offs and a net addition of $428 million" does."""
    from rag_assets.core.generation.answers import Answerer
    from rag_assets.core.ingest.filing_facts import read_facts
    from rag_assets.core.retrieval.retriever import Retriever
    from rag_assets_tests.real_filings import real_filing

    facts = read_facts(JPM_2022[1], JPM_2022[2], real_filing(JPM_2022[0]).pages)
    answerer = Answerer(Retriever(levels_corpus.store, levels_corpus.embedder),
                        levels_corpus.pages, facts=lambda d, y: facts if y == 2022 else [])
    result = answerer.ask(question, document=JPM_2022[1], year=JPM_2022[2])
    lead = answer_lead(result.answer)
    assert "$657 million of net charge-offs" in lead and "$428 million" in lead, lead
    assert "$1,101 million" in lead, lead
    assert not any(part in lead for part in ("$59 million", "$761 million", "$504 million")), lead
    assert all(c.mark == "valid" for claim in result.claims for c in claim.citations)


def test_a_measure_asked_with_its_amount_is_read_as_the_statements_row() -> None:
    """"What made up JPMorgan's $1.5 billion provision ...?" names the row after its amount:
    the change is computed from it, so the allowance's "$20.8 billion, reflecting a net
    addition of $2.1 billion" (another measure stating another amount) explains nothing."""
    from rag_assets.core.generation.metric_questions import parse_change
    from rag_assets.core.question.question import read_question

    parsed = parse_change(read_question("What made up JPMorgan's $1.5 billion provision for "
                                        "credit losses in Q3 2022?"))
    assert parsed is not None and parsed.stated == "row('provision for credit losses')"


def test_a_list_of_causes_runs_on_over_the_page_break() -> None:
    """JPMorgan's Q2 2022 executive overview lists what drove the provision for credit losses
    over a page break: p.5 ends "– a net addition of $428 million ..., and" (its page number
    after it), p.6 opens "– $657 million of net charge-offs, ...". The item that ends a page is
    followed by the next page's opening; a page that opens with a new sentence follows
    nothing."""
    from rag_assets.core.generation.drivers import continued_on_next_page
    from rag_assets.core.generation.evidence import EvidenceUnit
    from rag_assets_tests.real_filings import real_filing

    pages = [p.text for p in real_filing(JPM_2022[0]).pages]
    item = ("– a net addition of $428 million to the allowance for credit losses, primarily "
            "reflecting loan growth, as well as a modest deterioration in the Firm's "
            "macroeconomic forecast, and")
    unit = EvidenceUnit(chunk_id="jpm|2022|p4", document=JPM_2022[1], year=JPM_2022[2],
                        chunk_rank=0, page=4, located=True, quote=item, text=item)
    after = continued_on_next_page(pages[4], pages[5], unit)
    assert after is not None and after.page == 5, after
    assert after.text.startswith("– $657 million of net charge-offs, down $77 million"), after
    ends = " ".join(pages[3].split()).rsplit(" ", 1)[0]  # p.4's prose without its number
    closing = ends[ends.rindex("Information on the Firm"):]
    last = unit.model_copy(update={"page": 3, "quote": closing, "text": closing})
    assert continued_on_next_page(pages[3], pages[4], last) is None  # p.5 opens anew
    assert continued_on_next_page(pages[3], pages[3], last) is None  # no page goes on so


def test_causes_the_page_break_cuts_go_on_on_the_next_page() -> None:
    """Walmart's fiscal 2022 10-K breaks its gross profit rate's cause over two pages: p.38
    ends "For fiscal 2022, the increase was primarily due to price management in the Walmart
    U.S. segment driven by cost", p.39 opens "inflation as well as merchandise mix, partially
    offset by increased supply chain costs." The causes are read whole, both pages cited."""
    from rag_assets.core.generation.drivers import (
        continued_on_next_page,
        drivers,
        following_on_page,
        preceding_on_page,
    )
    from rag_assets.core.generation.evidence import EvidenceUnit
    from rag_assets.core.question.question import read_question
    from rag_assets_tests.real_filings import real_filing

    pages = [p.text for p in real_filing(f"{BULK}/WALMART_2022_10K.pdf").pages]
    head = ("For fiscal 2022, the increase was primarily due to price management in the "
            "Walmart U.S. segment driven by cost")
    unit = EvidenceUnit(chunk_id="walmart|2022|p37", document="walmart-10k", year=2022,
                        chunk_rank=0, page=37, located=True, quote=head, text=head,
                        scope="Item 7. Management's Discussion and Analysis | Gross Profit Rate")

    def following(u: EvidenceUnit) -> EvidenceUnit | None:
        text = pages[u.page]
        return following_on_page(text, u) or continued_on_next_page(
            text, pages[u.page + 1] if u.page + 1 < len(pages) else None, u)

    asked = read_question("What drove the change in Walmart's gross profit rate in fiscal 2022?")
    found = drivers(asked, [unit], following=following,
                    preceding=lambda u: preceding_on_page(pages[u.page], u))
    assert found is not None and found.causes.startswith(
        "primarily due to price management in the Walmart U.S. segment driven by cost "
        "inflation as well as merchandise mix, partially offset by increased supply chain "
        "costs"), found
    assert [u.page for u in found.units][-2:] == [37, 38], found.units


def test_a_sentence_a_chunk_cut_is_read_to_its_end_from_its_page() -> None:
    """Netflix's Q2 2023 10-Q prints on p.25 "... primarily due to foreign exchange losses of
    $23 million and $130 million, respectively, compared to gains of $239 million and $431
    million, respectively, for the corresponding periods in 2022."; a chunk cut after "for the
    corresponding" is completed from the page, so the comparison is read whole. A sentence
    that ends its page (its page number after it) is left to the next page's opening, and a
    table's cells are not read on into the row or note after them."""
    from rag_assets.core.generation.drivers import completed_on_page
    from rag_assets.core.generation.evidence import EvidenceUnit
    from rag_assets.core.text.sentences import page_prose
    from rag_assets_tests.real_filings import real_filing

    pages = [p.text for p in real_filing(
        CORPORA / "financebench-bulk" / "pdfs" / "NETFLIX_2023Q2_10Q.pdf").pages]
    cut = ("Interest and other income (expense) decreased in the three and six months ended June "
           "30, 2023 primarily due to foreign exchange losses of $23 million and $130 million, "
           "respectively, compared to gains of $239 million and $431 million, respectively, for "
           "the corresponding")

    def unit(page: int, quote: str) -> EvidenceUnit:
        return EvidenceUnit(chunk_id="nflx|2023|p25", document="netflix-10q-q2", year=2023,
                            chunk_rank=0, page=page, located=True, quote=quote, text=quote)

    whole = completed_on_page(page_prose(pages[25]), unit(25, cut))
    assert whole.quote == f"{cut} periods in 2022.", whole.quote
    # the chunk ran the table above into the sentence's start: read on all the same
    run = (f"Interest and other income (expense) $ (44,243) $ 415,871 $ (460,114) (111)% As a "
           f"percentage of revenues — % 3 % {cut}")
    read = completed_on_page(page_prose(pages[25]), unit(25, run))
    assert read.quote == f"{run} periods in 2022."
    assert whole.text == whole.quote
    ended = unit(25, f"{cut} periods in 2022.")
    assert completed_on_page(page_prose(pages[25]), ended) is ended  # whole: itself
    assert completed_on_page(page_prose(pages[24]), unit(24, cut)).quote == cut  # not there
    walmart = [p.text for p in real_filing(CORPORA / "financebench-bulk" / "pdfs"
                                           / "WALMART_2022_10K.pdf").pages]
    page_end = ("For fiscal 2022, the increase was primarily due to price management in the "
                "Walmart U.S. segment driven by cost")
    assert completed_on_page(page_prose(walmart[38]), unit(38, page_end)).quote == page_end


def test_a_cut_sentence_is_not_read_on_into_a_footer_a_bullet_or_a_twin() -> None:
    """A review's cases: a quote the page prints twice is not read on (which one the chunk cut
    is not known); a rest that runs to the page's footer ends no sentence; a rest that runs
    into the next bullet joins a list's items; a running header is no sentence."""
    from rag_assets.core.generation.drivers import completed_on_page
    from rag_assets.core.generation.evidence import EvidenceUnit
    from rag_assets_tests.real_filings import real_filing

    def unit(page: int, quote: str) -> EvidenceUnit:
        return EvidenceUnit(chunk_id="c", document="d", year=2019, chunk_rank=0, page=page,
                            located=True, quote=quote, text=quote)

    from rag_assets.core.text.sentences import page_prose

    def pages(corpus: str, stem: str) -> list[str]:
        return [p.text for p in real_filing(CORPORA / corpus / "pdfs" / f"{stem}.pdf").pages]

    pfizer = pages("financebench-bulk", "PFIZER_2019_10K")
    bullet = "a product recall that occurred in 2017; and"
    assert bullet in page_prose(pfizer[111])  # "• the favorable impact of ..." follows
    assert completed_on_page(page_prose(pfizer[111]), unit(111, bullet)).quote == bullet
    running = pages("financebench-wide", "PFIZER_2021_10K")[87]
    header = "Notes to Consolidated Financial Statements Pfizer Inc. and Subsidiary Companies"
    assert header in page_prose(running)
    assert completed_on_page(page_prose(running), unit(87, header)).quote == header
    twice = completed_on_page("In fiscal 2015, we recorded a charge. In fiscal 2015, net "
                              "earnings were $1,221 million.", unit(0, "In fiscal 2015,"))
    assert twice.quote == "In fiscal 2015,"
    footer = completed_on_page("Net sales rose on the impact of the divestiture, partially "
                               "offset by costs 24", unit(0, "Net sales rose on the impact of"))
    assert footer.quote == "Net sales rose on the impact of"
