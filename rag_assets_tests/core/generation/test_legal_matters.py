"""Legal matters read as a filing prints them, each under its own heading, on real 10-Ks:
Lockheed Martin's 2021 note (a caption over each case, the damages sought sentences later) and
American Water's 2020 Item 3 and note (a title over each class action, its caption in a later
paragraph, the same matters printed twice). No store: the sentences are the pages' own, found
by the filing-wide scan the engine uses, and the matters grouped by the route's own reader of
what a heading holds."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from rag_assets.core.generation.answer_config import AnswerConfig
from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.disclosures import stated_deals
from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.generation.legal_matters import names_section, seeks_relief
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.quote_route import QuoteRoute
from rag_assets.core.ingest.routing import DocumentProfile
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def _matters(path: str, document: str, year: int, pages_read: Sequence[int], question: str,
             company: str, seen: str = "") -> list[str]:
    """The listed matters of ``question`` on the filing of ``company``, read from the sentences
    of ``pages_read`` that print ``seen`` (what retrieval would select: the first sentence of
    each when none is given) and the filing's other sentences, every citation verified."""
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    profile = DocumentProfile(document=document, year=year, title=company, aliases=[company])
    route = QuoteRoute(retriever=None, pages=pages, config=AnswerConfig())  # type: ignore[arg-type]
    seed = [printed_unit(document, year, page, sentence) for page in pages_read
            for n, sentence in enumerate(route.read_page(document, year, page).sentences)
            if (seen in sentence if seen else n == 0)]
    found = stated_deals(read_question(question, [profile]), seed, scan=route.scan(seed),
                         under=route.under_heading)
    assert found is not None
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return re.split(r";? \(\d\) ", found.text.removeprefix("(1) "))


def test_a_case_is_listed_once_with_its_caption_and_the_relief_it_seeks() -> None:
    matters = _matters("financebench-dev/pdfs/LOCKHEEDMARTIN_2021_10K.pdf",
                       "lockheed-martin-10k", 2021, [101],
                       "What specific legal proceedings does Lockheed Martin describe in its "
                       "2021 10-K?", "Lockheed Martin")
    assert matters[0].startswith("United States of America, ex rel. Patzer; Cimma v. Sikorsky "
                                 "Aircraft Corp., et al: As a result of our acquisition"), matters
    assert "seeks damages of approximately $52 million" in matters[0]
    assert matters[1].startswith("Lockheed Martin v. Metropolitan Transportation Authority: "
                                 "On April 24, 2009"), matters
    assert "$190 million" in matters[1] and "$95 million" in matters[1]
    # the two complaints in intervention are the Patzer case's sentences, not cases of their own
    assert sum("Patzer" in m for m in matters) == 1, matters


def test_the_matters_asked_lead_each_once_with_the_caption_printed_under_their_title() -> None:
    matters = _matters("financebench-dev/pdfs/AMERICANWATERWORKS_2020_10K.pdf",
                       "american-water-works-10k", 2020, [46, 47],
                       "What class action lawsuits over water main failures does American "
                       "Water Works disclose in its 2020 10-K?",
                       "American Water Works", seen="main")
    # the two the question names first, each once (Item 3's and the note's print of it)
    assert sum("Dunbar" in m for m in matters) == 1, matters
    assert matters[0].startswith("Dunbar, West Virginia Water Main Break Class Action "
                                 "Litigation: On June 2, 2017, a complaint captioned Jeffries, "
                                 "et al. v. West Virginia-American Water Company"), matters
    assert "captioned Bruce, et al. v. American Water Works Company" in matters[1], matters


def test_a_title_run_into_its_paragraph_heads_its_matter_and_a_running_head_none() -> None:
    """Corning's 2015 10-K runs each matter's title into its paragraph ("Department of Justice
    Grand Jury Subpoena. In March 2012, ...") and prints "DowCorningIndex" atop the pages of
    Dow Corning's statements it attaches: the subpoena is listed under its own title, once (its
    next sentences on the same matter are no matters of their own), and no line is titled by
    the running head."""
    matters = _matters("financebench-bulk/pdfs/CORNING_2015_10K.pdf", "corning-10k", 2015,
                       [22], "What legal proceedings does Corning disclose in its FY2015 10-K?",
                       "Corning")
    assert matters[0].startswith("Department of Justice Grand Jury Subpoena: In March 2012, "
                                 "Corning received a grand jury subpoena"), matters
    assert sum("subpoena" in m.lower() for m in matters) == 1, matters
    assert not any("Index" in m for m in matters), matters


@pytest.mark.parametrize(("heading", "section"), [
    ("Legal Proceedings", True),
    ("Note 15 – Legal Proceedings, Commitments and Contingencies", True),
    ("Note 9—Net Income per Common and Common Equivalent Share", True),  # another note's title
    ("ITEM 3. LEGAL PROCEEDINGS", True),
    ("A4. Legal Proceedings––Government Investigations", True),  # Pfizer's numbered groups
    ("Environmental Matters", False),
    ("Lockheed Martin v. Metropolitan Transportation Authority", False),
])
def test_a_heading_of_the_section_holds_several_matters(heading: str, section: bool) -> None:
    assert names_section(heading) is section


def test_an_outcome_is_no_relief_sought() -> None:
    """3M's 2018 note: a jury's award is what was decided, not what the plaintiffs seek; the
    damages Lockheed Martin's MTA seeks are."""
    award = ("In April 2018, a jury in state court in Kentucky awarded compensatory damages of "
             "approximately $2 million and punitive damages totaling $63 million.")
    sought = ("We note that our contract with the MTA had a total value of $323 million, of "
              "which $241 million was paid to us, and that the MTA is seeking damages of "
              "approximately $190 million.")
    assert not seeks_relief(award)
    assert seeks_relief(sought)
    # the amount of another clause is no relief sought
    assert not seeks_relief("The plaintiffs seek unspecified damages; the Company recorded a "
                            "charge of $5 million.")
