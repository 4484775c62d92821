"""Who the chief executive and chief financial officers are, read from the certifications of
Rule 13a-14(a) and the firm that signs the auditor's report (Coca-Cola's 2019 and Netflix's 2020
10-Ks, their lines as printed)."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.auditor import auditor
from rag_assets.core.generation.certifications import certifying_officer
from rag_assets.core.question.question import read_question

COCA_COLA_CEO = (
    "EXHIBIT 31.1\nCERTIFICATIONS\nI, James Quincey, Chairman of the Board of Directors and "
    "Chief Executive Officer of The Coca-Cola Company, certify that:\n1. I have reviewed this "
    "annual report on Form 10-K of The Coca-Cola Company;\nDate: February 24, 2020\n"
    "/s/ JAMES QUINCEY\nJames Quincey\nChairman of the Board of Directors and Chief Executive "
    "Officer")
COCA_COLA_CFO = (
    "EXHIBIT 31.2\nI, John Murphy, Executive Vice President and Chief Financial Officer of The "
    "Coca-Cola Company, certify that:\n1. I have reviewed this annual report on Form 10-K;\n"
    "/s/ JOHN MURPHY\nJohn Murphy\nExecutive Vice President and Chief Financial Officer")
NETFLIX = [
    "EXHIBIT 31.1\nCERTIFICATION OF CO-CHIEF EXECUTIVE OFFICER\nI, Reed Hastings, certify that:"
    "\n1. I have reviewed this Annual Report on Form 10-K of Netflix, Inc.;\nDated: January 28, "
    "2021 By: /S/ REED HASTINGS\nReed Hastings\nCo-Chief Executive Officer",
    "EXHIBIT 31.2\nCERTIFICATION OF CO-CHIEF EXECUTIVE OFFICER\nI, Ted Sarandos, certify that:"
    "\n1. I have reviewed this Annual Report on Form 10-K of Netflix, Inc.;\nDated: January 28, "
    "2021 By: /S/ TED SARANDOS\nTed Sarandos\nCo-Chief Executive Officer",
    "EXHIBIT 31.3\nI, Spencer Neumann, certify that:\n1. I have reviewed this Annual Report;\n"
    "Dated: January 28, 2021 By: /S/ SPENCER NEUMANN\nSpencer Neumann\nChief Financial Officer",
]
GENERAL_MILLS = ("Exhibit 31.1\nI, Jeffrey L. Harmening, certify that:\n1. I have reviewed this "
                 "Annual Report on Form 10-K;\n/s/ Jeffrey L. Harmening\nJeffrey L. Harmening "
                 "Chief Executive Officer")
BIOGRAPHY = ("Mr. Sarandos was appointed as co-Chief Executive Officer in July 2020 and serves "
             "as Chief Content Officer.")


def _officers(question: str, *texts: str) -> str | None:
    pages = list(enumerate([BIOGRAPHY, *texts]))
    found = certifying_officer(read_question(question), "acme-10k", 2020, pages)
    return None if found is None else found.text


@pytest.mark.parametrize(("question", "texts", "expected"), [
    ("Who is Coca-Cola's CEO?", (COCA_COLA_CEO, COCA_COLA_CFO),
     "James Quincey (Chairman of the Board of Directors and Chief Executive Officer), "
     "certifying the report as its chief executive officer (Rule 13a-14(a))."),
    ("Who is Coca-Cola's chief financial officer?", (COCA_COLA_CEO, COCA_COLA_CFO),
     "John Murphy (Executive Vice President and Chief Financial Officer), certifying the report "
     "as its chief financial officer (Rule 13a-14(a))."),
    # two co-chief executives, each titled under the signature
    ("Who is Netflix's Chief Executive Officer?", tuple(NETFLIX),
     "Reed Hastings (Co-Chief Executive Officer) and Ted Sarandos (Co-Chief Executive Officer), "
     "certifying the report as its chief executive officer (Rule 13a-14(a))."),
    # the name and the title on one line under the signature
    ("Who is General Mills' CEO?", (GENERAL_MILLS,), "Jeffrey L. Harmening (Chief Executive "
     "Officer), certifying the report as its chief executive officer (Rule 13a-14(a))."),
])
def test_the_certifying_officer_of_the_office_asked(question: str, texts: tuple[str, ...],
                                                    expected: str) -> None:
    assert _officers(question, *texts) == expected


def test_nothing_without_a_certification_or_for_another_question() -> None:
    assert _officers("Who is Netflix's CEO?") is None  # a biography is no certification
    assert _officers("What did Netflix's CEO say about growth?", *NETFLIX) is None


AUDIT = ("/s/ Ernst & Young LLP\nWe have served as the Company's auditor since 1921.\nAtlanta, "
         "Georgia\nFebruary 24, 2020")
CONSENT = "We consent to the incorporation by reference ...\n/s/ Ernst & Young LLP\nAtlanta"


def _auditor(question: str, *texts: str) -> str | None:
    found = auditor(read_question(question), "coca-cola-10k", 2019, list(enumerate(texts)))
    return None if found is None else found.text


def test_the_firm_that_signs_the_auditors_report() -> None:
    assert _auditor("Who is Coca-Cola's independent registered public accounting firm?", AUDIT,
                    CONSENT) == ("Ernst & Young LLP, which signs the report of the independent "
                                 "registered public accounting firm and has served as the "
                                 "company's auditor since 1921.")
    assert _auditor("Who audits Coca-Cola's financial statements?", AUDIT) is not None


def test_no_firm_of_two_nor_for_the_audits_fees() -> None:
    predecessor = "/s/ KPMG LLP\nWe served as the Company's auditor from 1950 to 2019."
    assert _auditor("Who is Coca-Cola's auditor?", AUDIT, predecessor) is None
    assert _auditor("How much did Coca-Cola pay its auditor in fees?", AUDIT) is None
    assert _auditor("How much does Coca-Cola pay its auditor?", AUDIT) is None
