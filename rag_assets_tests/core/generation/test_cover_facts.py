"""What a cover page states of its registrant, read where Form 10-K prints it (Corning's 2018
and Netflix's 2020 covers, their lines as the reader stores them: Corning's words joined by
no-break spaces)."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.cover_facts import cover_fact
from rag_assets.core.question.question import read_question

NBSP = "\xa0"
CORNING = "\n".join([
    "Commission file number: 1-3247",
    "CORNING INCORPORATED",
    "(Exact name of registrant as specified in its charter)".replace(" ", NBSP),
    "NEW YORK 16-0393470",
    "(State or other jurisdiction of incorporation or organization)".replace(" ", NBSP)
    + " (I.R.S." + NBSP + "Employer" + NBSP + "Identification" + NBSP + "No.)",
    "ONE RIVERFRONT PLAZA, CORNING, NY 14831",
    "(Address of principal executive offices) (Zip Code)".replace(" ", NBSP),
    "Indicate by check mark whether the registrant is a shell company (as defined in Rule 12b-2 "
    "of the Exchange Act).",
    "Yes    ☐                                    No    ☒",
    "As of June 30, 2018, the aggregate market value of the registrant’s common stock held by "
    "non-affiliates of the registrant was $22 billion based on the $27.51 price as",
    "reported on the New York Stock Exchange.",
    "There were 786,761,073 shares of Corning’s common stock issued and outstanding as of "
    "January 31, 2019.",
])
NETFLIX = "\n".join([
    "Netflix, Inc.",
    "(Exact name of registrant as specified in its charter)",
    " _____________ Delaware 77-0467272",
    "(State or other jurisdiction of incorporation or organization) (I.R.S. Employer "
    "Identification No.)",
    "100 Winchester Circle, Los Gatos, California 95032",
    "(Address and zip code of principal executive offices)",
    "    As of December 31, 2020, there were 442,895,261 shares of the registrant’s common "
    "stock, par value $0.001, outstanding.",
])

# captions over two lines, a street over a city, a state beside two numbers: General Mills' 2017
# 10-K and Costco's 8-K of August 9, 2023
GENERAL_MILLS = "\n".join([
    "(Exact name of registrant as specified in its charter)", "Delaware 41-0274440",
    "(State or other jurisdiction of (I.R.S. Employer",
    "incorporation or organization) Identification No.)",
    "Number One General Mills Boulevard", "Minneapolis, Minnesota 55426",
    "(Address of principal executive offices) (Zip Code)", "(763) 764-7600",
])
COSTCO = "\n".join([
    "(Exact name of registrant as specified in its charter)", "Washington 0-20355 91-1223280",
    "(State or other jurisdiction", "of incorporation)", "(Commission", "File No.)",
    "(I.R.S. Employer", "Identification No.)", "999 Lake Drive", "Issaquah, WA 98027",
    "(Address of principal executive offices and zip code)",
])

# a label before its value on one line, a heading run into the shares' line: 3M's 2018 cover
THREE_M = "\n".join([
    "3M COMPANY",
    "State of Incorporation: Delaware I.R.S. Employer Identification No. 41-0417775",
    "Principal executive offices: 3M Center, St. Paul, Minnesota 55144",
    "Telephone number: (651) 733-1110",
    "Indicate by check mark whether the Registrant is a shell company (as defined in Rule 12b-2 "
    "of the Act). Yes ☐ No ☒",
    "The aggregate market value of voting stock held by nonaffiliates of the Registrant, "
    "computed by reference to the closing price and shares outstanding, was approximately "
    "$115.3 billion as of January 31, 2019.",
    "Shares of common stock outstanding at January 31, 2019: 575.8 million",
    "DOCUMENTS INCORPORATED BY REFERENCE",
    "Parts of the Company’s definitive proxy statement are incorporated by reference.",
])
# a caption's closing line run beside the street: what the stored text of General Mills'
# cover once held
MERGED = "\n".join([
    "incorporation or organization) Identification No.)",
    "Number One General Mills Boulevard Minneapolis, Minnesota 55426",
    "(Address of principal executive offices) (Zip Code)",
])


def _answer(question: str, cover: str) -> str | None:
    found = cover_fact(read_question(question), "acme-10k", 2018, [(0, cover), (1, "Item 1.")])
    return None if found is None else found.text


@pytest.mark.parametrize(("question", "cover", "expected"), [
    ("Where is Netflix headquartered?", NETFLIX,
     "Its principal executive offices, as its cover page prints them: 100 Winchester Circle, "
     "Los Gatos, California 95032."),
    ("What is Corning's address?", CORNING, "Its principal executive offices, as its cover page "
     "prints them: ONE RIVERFRONT PLAZA, CORNING, NY 14831."),
    # the employer identification number printed beside the state is no part of it
    ("In which state is Corning incorporated?", CORNING, "Its state or other jurisdiction of "
     "incorporation, as its cover page prints it: NEW YORK."),
    ("Where is Netflix incorporated?", NETFLIX, "Its state or other jurisdiction of "
     "incorporation, as its cover page prints it: Delaware."),
    ("Where is General Mills headquartered?", GENERAL_MILLS, "Its principal executive "
     "offices, as its cover page prints them: Number One General Mills Boulevard, Minneapolis, "
     "Minnesota 55426."),
    ("In which state is General Mills incorporated?", GENERAL_MILLS, "Its state or other "
     "jurisdiction of incorporation, as its cover page prints it: Delaware."),
    ("Where is Costco headquartered?", COSTCO, "Its principal executive offices, as its cover "
     "page prints them: 999 Lake Drive, Issaquah, WA 98027."),
    ("In which state is Costco incorporated?", COSTCO, "Its state or other jurisdiction of "
     "incorporation, as its cover page prints it: Washington."),
    ("Where is 3M headquartered?", THREE_M, "Its principal executive offices, as its cover page "
     "prints them: 3M Center, St. Paul, Minnesota 55144."),
    ("Where is 3M incorporated?", THREE_M, "Its state or other jurisdiction of incorporation, as "
     "its cover page prints it: Delaware."),
    ("How many shares of common stock does 3M have outstanding?", THREE_M,
     "Shares of common stock outstanding at January 31, 2019: 575.8 million"),
    ("Where is General Mills headquartered?", MERGED, "Its principal executive offices, as its "
     "cover page prints them: Number One General Mills Boulevard Minneapolis, Minnesota 55426."),
    ("How many shares of common stock does Netflix have outstanding?", NETFLIX,
     "As of December 31, 2020, there were 442,895,261 shares of the registrant’s common stock, "
     "par value $0.001, outstanding."),
    # the check boxes run into the sentence are no part of it
    ("What was the aggregate market value of Corning's common stock held by non-affiliates?",
     CORNING, "As of June 30, 2018, the aggregate market value of the registrant’s common stock "
     "held by non-affiliates of the registrant was $22 billion based on the $27.51 price as "
     "reported on the New York Stock Exchange."),
])
def test_the_cover_states_it(question: str, cover: str, expected: str) -> None:
    assert _answer(question, cover) == expected


@pytest.mark.parametrize("question", [
    "How many shares outstanding did Corning have at the end of 2018?",  # the balance sheet's
    "What were Corning's weighted average diluted shares outstanding in 2018?",
    "How does Corning address climate risk?",
    "Where is Corning's largest plant located?",  # a place of its business, not its offices
    "Where is most of Corning's revenue located?",
    "What did Corning's shares outstanding change by in 2018?",
])
def test_another_question_is_not_the_covers(question: str) -> None:
    assert _answer(question, CORNING) is None
