"""Who acts in a role an agreement's parties clause names: Lockheed Martin's 8-K of August 24,
2023 describes its $3.0 billion revolving credit agreement by its parties, each before its
role."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.direct_rows import load_cues
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.party_roles import party_roles
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import real_filing

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
DOC, YEAR = "lockheed-martin-8k-2023-08-24", 2023


@cache
def _pages() -> PageTexts:
    return PageTexts.from_pages(DOC, YEAR, real_filing(
        "financebench-bulk/pdfs/LOCKHEEDMARTIN_2023_8K_dated-2023-08-24.pdf").pages)


def _clause() -> EvidenceUnit:
    """The sentence of Item 1.01 that names the parties, as a unit on its page."""
    pages = _pages()
    text = " ".join((pages.get(DOC, YEAR, 1) or "").split())
    start = text.index("Effective August 24, 2023")
    sentence = text[start:text.index("as administrative agent", start) + 23]
    return EvidenceUnit(chunk_id="c", document=DOC, year=YEAR, chunk_rank=0, page=1,
                        located=True, is_row=False, quote=sentence, text=sentence, scope="")


@pytest.mark.parametrize(("question", "expected"), [
    ("Which banks act as documentation agents under Lockheed Martin's $3.0 billion revolving "
     "credit agreement?", "Citibank, N.A., Crédit Agricole Corporate and Investment Bank, Mizuho "
     "Bank, Ltd. and Wells Fargo Bank, National Association, as documentation agents."),
    # after a party's defined name ("the lenders listed therein (the “Lenders”),")
    ("Who is the syndication agent under the credit agreement?",
     "JPMorgan Chase Bank, N.A., as syndication agent."),
    ("Who is the administrative agent of Lockheed Martin's revolving credit agreement?",
     "Bank of America, N.A., as administrative agent."),
])
def test_the_names_printed_before_the_role_asked(question: str, expected: str) -> None:
    found = party_roles(read_question(question), [_clause()], None, load_cues())
    assert found is not None and found.text == expected
    assert verify_claims([found.claim()], _pages())[0].citations[0].mark == "valid"


def test_no_role_asked_or_none_printed() -> None:
    assert party_roles(read_question("What agreement did Lockheed Martin report in its 8-K?"),
                       [_clause()], None, load_cues()) is None
    assert party_roles(read_question("Who is the trustee of the notes?"), [_clause()], None,
                       load_cues()) is None
    # the filer named first in an indenture is no trustee
    unit = _clause().model_copy(update={"text": (
        "Indenture, dated as of May 1, 2015, between the Company and The Bank of New York "
        "Mellon Trust Company, N.A., as trustee.")})
    found = party_roles(read_question("Who is the trustee of the notes?"), [unit], None,
                        load_cues())
    assert found is not None and found.text == (
        "The Bank of New York Mellon Trust Company, N.A., as trustee.")


def test_a_role_named_in_a_question_that_asks_no_names() -> None:
    assert party_roles(read_question("What did the administrative agent of Lockheed Martin's "
                                     "credit agreement approve?"), [_clause()], None,
                       load_cues()) is None
