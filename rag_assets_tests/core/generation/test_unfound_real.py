"""A question asking for a required disclosure of a real filing that does not make it: the
answer abstains and says what it looked for on every page (Coca-Cola 2019 names no customer
of 10% or more), where it used to quote a sentence on something else; a filing that states
one is answered from it (General Mills 2019: Walmart, 20%). A figure of a line item no page
of the filing names (net income, of Costco's 8-K announcing a dividend) abstains the same
way, and so does the outlook asked of a release that gives none (Costco's Q3 2023), not of one
that does (Ulta Beauty's Q2 2023), a dividend asked of a 10-Q that names none declared
(Netflix's Q2 2023, whose "Dividend yield" is an option-pricing assumption) and a repurchase
asked of a release that names none (Costco's Q3 2023), not of a 10-Q that prints its own
(Netflix's). Questions are this project's own; the held-out
analyst-check set is never read here."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets_tests.real_filings import CORPORA

from .conftest import Corpus, real_corpus

pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here"),
              pytest.mark.slow]  # two 10-Ks, an 8-K and two releases read, a few pages indexed

FILINGS = [
    ("financebench-bulk/pdfs/COCACOLA_2019_10K.pdf", "coca-cola-10k", 2019, [*range(3, 8), 14]),
    ("financebench-wide/pdfs/GENERALMILLS_2019_10K.pdf", "general-mills-10k", 2019,
     [*range(2, 6), 77]),
    ("financebench-bulk/pdfs/COSTCO_2023_8K_dated-2023-08-09.pdf", "costco-8k-2023-08-09", 2023,
     None),
    ("financebench-bulk/pdfs/COSTCO_2023Q3_EARNINGS.pdf", "costco-earnings-q3", 2023, None),
    ("financebench-bulk/pdfs/ULTABEAUTY_2023Q2_EARNINGS.pdf", "ulta-beauty-earnings-q2", 2023,
     None),
    ("financebench-bulk/pdfs/NETFLIX_2023Q2_10Q.pdf", "netflix-10q-q2", 2023, range(15, 20)),
]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return real_corpus(Path(tmp_path_factory.mktemp("unfound_lancedb")), FILINGS)


@pytest.mark.parametrize("question", [
    "Which customers accounted for 10% or more of Coca-Cola's net sales in FY2019?",
    "Is Coca-Cola reliant on any single customer?",
])
def test_no_customer_share_anywhere_abstains_saying_what_it_looked_for(
        corpus: Corpus, question: str) -> None:
    result = corpus.answerer().ask(question)
    assert result.abstained and not result.claims, result.answer
    assert "a sentence stating a customer's share of its revenue" in result.answer
    assert "every page of coca-cola-10k 2019: none found" in result.answer
    assert any(e.name == "required_disclosure_unfound" for e in result.guardrail_events)


def test_a_filing_stating_its_major_customer_is_answered(corpus: Corpus) -> None:
    result = corpus.answerer().ask(
        "Which customers accounted for 10% or more of General Mills' net sales in fiscal 2019?")
    assert not result.abstained and result.method == "direct customers", result.answer
    lead = result.answer.split("\n")[0]
    assert "Walmart" in lead and "20 percent of our consolidated net sales" in lead
    assert all(c.mark == "valid" for claim in result.claims for c in claim.citations)


def test_a_line_item_the_filing_never_names_abstains(corpus: Corpus) -> None:
    answerer = corpus.answerer()
    result = answerer.ask("What was Costco's net income reported in its 8-K dated August 9, "
                          "2023?")
    assert result.abstained and not result.claims, result.answer
    assert "net income (as 'net income', 'net earnings'" in result.answer
    assert "every page of costco-8k-2023-08-09 2023: none names it" in result.answer
    declared = answerer.ask("What dividend did Costco declare in its 8-K dated August 9, 2023?")
    assert declared.answer.startswith("A quarterly cash dividend of $1.02 per share"), \
        declared.answer


def test_a_release_with_no_outlook_abstains_one_with_it_answers(corpus: Corpus) -> None:
    answerer = corpus.answerer()
    none = answerer.ask("What outlook did Costco give for fiscal 2023 in its third quarter "
                        "earnings release?")
    assert none.abstained and "guidance for a coming period" in none.answer, none.answer
    assert "every page of costco-earnings-q3 2023: none found" in none.answer
    given = answerer.ask("What outlook did Ulta Beauty give for fiscal 2023?")
    assert given.answer.startswith("Raised its outlook: net sales to $11.05 billion"), \
        given.answer


def test_a_dividend_or_a_repurchase_no_page_names_abstains(corpus: Corpus) -> None:
    answerer = corpus.answerer()
    dividend = answerer.ask("What quarterly dividend per share did Netflix declare in Q2 2023?")
    assert dividend.abstained and not dividend.claims, dividend.answer
    assert "a dividend declared or paid, or a sentence that none is, on every page of " \
        "netflix-10q-q2 2023: none found (Regulation S-X Rule 3-04" in dividend.answer
    repurchases = answerer.ask("How much did Costco spend on share repurchases in the third "
                               "quarter of fiscal 2023?")
    assert repurchases.abstained and "a repurchase of its own shares" in repurchases.answer
    assert "every page of costco-earnings-q3 2023: none found" in repurchases.answer
    printed = answerer.ask("Did Netflix repurchase shares in Q2 2023?")
    assert not printed.abstained and "repurchase" in printed.answer.split("\n")[0].lower()
    assert not any(e.name == "required_disclosure_unfound" for e in printed.guardrail_events)
