"""Routing: years named in a question, document aliases from a cover page, and routing a question
to the documents it names (tickers and acronyms only in capitals)."""

from __future__ import annotations

import pytest

from rag_assets.core.ingest.routing import (
    DocumentProfile,
    display_name,
    profile_from_text,
    registrant_name,
    short_display_name,
    short_forms,
)
from rag_assets.core.question.companies import named_filings, route, unindexed_company
from rag_assets.core.text.filing_kinds import filing_years, id_words
from rag_assets.core.text.periods import asked_quarters
from rag_assets.core.text.years import years_in

TEN_K_COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended December 31, 2021
Commission File Number 1-3619
PFIZER INC.
(Exact name of registrant as specified in its charter)
Delaware 13-5315170
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbol(s) Name of each exchange on which registered
Common Stock, $.05 par value PFE New York Stock Exchange
0.250% Notes due 2027 PFE27 New York Stock Exchange
"""

REGULATION_COVER = """I
(Legislative acts)
REGULATIONS
REGULATION (EU) 2016/679 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL
of 27 April 2016
on the protection of natural persons with regard to the processing of personal data and on the
free movement of such data, and repealing Directive 95/46/EC
(General Data Protection Regulation)
(Text with EEA relevance)
"""


# --- years -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "years"),
    [
        ("2022", [2022]),
        ("What was revenue in 2022?", [2022]),
        ("Revenue in fiscal 2022?", [2022]),
        ("In fiscal year 2020, what changed?", [2020]),
        ("FY22 revenue", [2022]),
        ("FY'22 revenue", [2022]),
        ("FY99 and FY49", [1999, 2049]),  # two digits pivot at 50
        ("FY 2019 margins", [2019]),
        ("FY2021 and again 2021", [2021]),  # each year once
        ("Compare 2019 with 2018", [2019, 2018]),  # order of mention
        ("fy22", [2022]),
        ("biggest drop in Q22023 year over year", [2023]),  # a quarter glued to its year
        ("As of Q2'2023, is it spinning off", [2023]),
    ],
)
def test_years_in_finds_written_years(question: str, years: list[int]) -> None:
    assert years_in(question) == years


@pytest.mark.parametrize(
    "question",
    [
        "Revenue was $2,018 million",  # an amount
        "a ratio of 2018.5",  # a decimal
        "items 10,2019",  # part of a longer number
        "Directive 2002/58/EC and Regulation (EU) 2016/679",  # EU act numbers
        "order 120221 shipped",  # digits inside a number
        "founded in 1849",  # outside the year range
        "What is the revenue?",
    ],
)
def test_years_in_ignores_numbers_that_are_not_years(question: str) -> None:
    assert years_in(question) == []


# --- profiles --------------------------------------------------------------------------------


def test_profile_from_a_10k_cover_has_registrant_names_and_ticker() -> None:
    profile = profile_from_text("pfizer-10k", 2021, [TEN_K_COVER])
    assert profile.document == "pfizer-10k"
    assert profile.year == 2021
    assert profile.title == "PFIZER INC."
    # the registrant name title-cased and without its legal suffix, the first ticker; the id's
    # "pfizer" is the same alias as "Pfizer" (deduplicated case-insensitively), "10k" is generic
    assert profile.aliases == ["Pfizer Inc", "Pfizer", "PFE"]


def test_profile_from_a_regulation_cover_has_number_short_name_and_acronym() -> None:
    profile = profile_from_text("eu-gdpr", 2016, ["", REGULATION_COVER])
    assert profile.title == "Regulation (EU) 2016/679"
    assert profile.aliases == [
        "Regulation (EU) 2016/679", "2016/679", "General Data Protection Regulation", "GDPR",
        "eu gdpr",
    ]


def test_profile_without_a_cover_falls_back_to_the_document_id() -> None:
    profile = profile_from_text("harbor-point_annual-report", 2023, ["nothing to see here"])
    assert profile.title is None
    assert profile.aliases == ["harbor point"]  # "annual" and "report" are generic id words
    # a company of the alias table: its name there (a cover that prints its name as a picture)
    tesla = profile_from_text("tesla_annual-report", 2023, ["nothing to see here"])
    assert tesla.title == "Tesla, Inc."
    assert tesla.aliases == ["Tesla, Inc", "Tesla", "TSLA"]


def test_a_press_release_gives_the_symbol_after_its_exchange_and_the_id_without_its_period(
) -> None:
    """An earnings release has no 10-K cover: its symbol is printed after the exchange, and its
    id's quarter is no part of the company's name (a question says "MGM", never "MGM q4")."""
    release = ("FOR IMMEDIATE RELEASE\nLAS VEGAS, February 8, 2023 - Harbor Point Resorts (NYSE: "
               "HPR) today reported financial results for the quarter ended December 31, 2022.")
    profile = profile_from_text("harbor-point-earnings-q4", 2022, [release])
    assert "HPR" in profile.aliases
    assert "harbor point" in profile.aliases
    assert not any("q4" in alias.lower() for alias in profile.aliases)
    assert profile.title == "Harbor Point Resorts"  # the name the release opens with
    dated = profile_from_text("foot-locker-8k-2022-05-20", 2022, ["nothing to see here"])
    assert dated.title == "Foot Locker, Inc."
    assert dated.aliases == ["Foot Locker, Inc", "Foot Locker"]  # the table's name, no period


# --- route -----------------------------------------------------------------------------------


@pytest.fixture
def profiles() -> list[DocumentProfile]:
    return [
        profile_from_text("pfizer-10k", 2021, [TEN_K_COVER]),
        profile_from_text("eu-gdpr", 2016, [REGULATION_COVER]),
        DocumentProfile(document="acme-10k", year=2022, aliases=["Acme Corporation", "Acme"]),
        DocumentProfile(document="block-8k", year=2022, aliases=["Block, Inc.", "Block"]),
    ]


@pytest.mark.parametrize(
    ("question", "documents"),
    [
        ("What did Pfizer earn in 2021?", ["pfizer-10k"]),
        ("what did PFIZER INC earn?", ["pfizer-10k"]),  # names in any case
        ("What did PFE earn?", ["pfizer-10k"]),  # the ticker in capitals
        ("What did pfe earn?", []),  # not a ticker in lower case
        ("Is PFE27 a stock?", []),  # whole words only
        ("What does the GDPR say about consent?", ["eu-gdpr"]),
        ("what does the gdpr say about consent?", []),  # acronym only in capitals
        ("general data protection regulation, Article 6", ["eu-gdpr"]),
        ("Which article of Regulation (EU) 2016/679 covers erasure?", ["eu-gdpr"]),
        ("Did acme corporation or Pfizer grow faster?", ["acme-10k", "pfizer-10k"]),
        ("Does Acmeville have a mayor?", []),
        ("What is the capital of France?", []),
        # a one-word name that is also a word: the company only capitalized
        ("Did the court block Microsoft's acquisition of Activision Blizzard?", []),
        ("What did Block report in its 8-K?", ["block-8k"]),
        ("what did block report in its 8-k?", []),
        # any other name in any case, beside capitalized words of its own
        ("Based on the Balance Sheet, what is pfizer's quick ratio?", ["pfizer-10k"]),
    ],
)
def test_route_by_aliases(
    profiles: list[DocumentProfile], question: str, documents: list[str]
) -> None:
    assert route(question, profiles) == documents


def test_route_without_profiles_is_the_whole_corpus() -> None:
    assert route("What did Pfizer earn?", []) == []


@pytest.mark.parametrize(
    ("cover", "name"),
    [
        # BLOCK 2020: the file number and a rule share the name's line
        ("For the transition period from ________ to ________\nCommission File Number "
         "001-37622 ______________________ SQUARE, INC.\n(Exact name of registrant as specified "
         "in its charter)", "SQUARE, INC."),
        # LOCKHEED MARTIN 2020: the rule ends the line above, the file number opens the name's
        ("For the transition period from to ______\nCommission file number 1-11437\n"
         "LOCKHEED MARTIN CORPORATION\n(Exact name of registrant as specified in its charter)",
         "LOCKHEED MARTIN CORPORATION"),
        # MGM RESORTS 2018: PDFium reads the cover a word (or a letter) per line
        ("Commission\nFile\nNo.\n001-10362\nMGM\nR\nESORTS I\nNTERNATIONAL\n(Exact name of "
         "Registrant as specified in its charter)", "MGM RESORTS INTERNATIONAL"),
        # COCA-COLA 2017: the name is a picture; the running text names the company
        ("Commission File Number 001-02217\n(Exact name of Registrant as specified in its "
         "charter)\nshares of The Coca-Cola Company common stock ... The Coca-Cola Company",
         "The Coca-Cola Company"),
    ],
)
def test_registrant_name_drops_file_numbers_and_rules(cover: str, name: str) -> None:
    assert registrant_name(cover) == name
    aliases = profile_from_text("x-10k", 2020, [cover]).aliases
    assert not any("_" in a or "Commission" in a for a in aliases)


def test_hyphen_and_space_name_the_same_company() -> None:
    profile = DocumentProfile(document="coca-cola-10k", year=2017, aliases=["Coca-Cola"])
    assert route("What is the FY2017 ROA for Coca Cola?", [profile]) == ["coca-cola-10k"]
    assert display_name("MGM RESORTS INTERNATIONAL") == "MGM Resorts International"
    assert display_name("PFIZER INC.") == "Pfizer Inc"


# --- one company's several filings -----------------------------------------------------------

JPM = ["jpmorgan-10k", "jpmorgan-10q-q1", "jpmorgan-10q-q2"]


@pytest.mark.parametrize(("question", "kept"), [
    ("Which segment had the lowest net revenue in 2021 Q1?", ["jpmorgan-10q-q1"]),
    ("In the second quarter of 2022, which segment earned most?", ["jpmorgan-10q-q2"]),
    ("What acquisitions does this 10-K report mention?", ["jpmorgan-10k"]),
    ("What does the quarterly report say about Q2 VaR?", ["jpmorgan-10q-q2"]),
    ("What does the annual report say?", ["jpmorgan-10k"]),
    ("What did the bank earn in 2022?", JPM),  # names no kind nor quarter: all kept
    ("What does its 8-K say?", JPM),  # a kind no document is: narrows nothing
    ("Revenue in Q3 2022?", JPM),  # a quarter no document is: narrows nothing
])
def test_named_filings_keeps_the_kind_and_quarter_asked(question: str, kept: list[str]) -> None:
    assert named_filings(question, JPM) == kept


FOOT_LOCKER = ["foot-locker-8k-2022-05-20", "foot-locker-8k-2022-08-19", "foot-locker-10q-q3"]


@pytest.mark.parametrize(("question", "kept"), [
    # the two 8-Ks of ../shared/corpora's Foot Locker: the one the question dates, never the
    # other (the May 20 report's "key agenda" was answered with the August CEO change)
    ("What is the key agenda of Foot Locker's 8-K filing dated May 20, 2022?",
     ["foot-locker-8k-2022-05-20"]),
    # an event's day: the report filed within Form 8-K's four business days of it
    ("How did shareholders vote at Foot Locker's May 18, 2022 annual meeting?",
     ["foot-locker-8k-2022-05-20", "foot-locker-10q-q3"]),
    ("What did Foot Locker's 8-K say about its CEO on August 19, 2022?",
     ["foot-locker-8k-2022-08-19"]),
    # a balance's date names no report, but a report filed before it cannot print it: the
    # 8-Ks of May and August are not read for it
    ("What were Foot Locker's inventories at October 29, 2022?", ["foot-locker-10q-q3"]),
    ("By how much did Foot Locker's inventories change between October 30, 2021 and October "
     "29, 2022?", ["foot-locker-10q-q3"]),
    # an event's day after a report is no period's end: the report may announce it; nor is a
    # period "ending" on a day, which guidance looks ahead to
    ("What happened at Foot Locker on September 1, 2022?", FOOT_LOCKER),
    ("What EPS guidance did Foot Locker give for the fiscal year ending January 28, 2023?",
     FOOT_LOCKER),
    # each date its own report: an exact date does not hide the other's
    ("What did Foot Locker report on May 16, 2022 and August 19, 2022?",
     ["foot-locker-8k-2022-05-20", "foot-locker-8k-2022-08-19", "foot-locker-10q-q3"]),
])
def test_named_filings_keeps_the_report_of_the_date_asked(question: str, kept: list[str]) -> None:
    assert named_filings(question, FOOT_LOCKER) == kept


def test_filing_tokens_and_asked_quarters() -> None:
    assert {"8k", "2022", "05", "20"} <= id_words("foot-locker-8k-2022-05-20")
    assert asked_quarters("Q4 of FY2023 against the fourth quarter of 2022") == {"q4"}
    assert asked_quarters("How much in 2023?") == set()


@pytest.mark.parametrize(("question", "years"), [
    ("How much will it invest over 2021-2025 and 2021-2030, according to its 2020 10-K?",
     [2020]),
    ("What does the FY2018 annual report say?", [2018]),
    ("Compare the 2022 Form 10-K with the Q22023 10-Q.", [2022, 2023]),
    ("What did the fiscal 2022 earnings release guide for 2023?", [2022]),
    ("How did revenue in 2021 compare with 2020?", []),  # years of figures, no filing's
    ("How many 10-Ks since 2019 10 years ago?", []),
    # a 10-K named by the fiscal year it reports; a quarter's end is no fiscal year (Walmart's
    # quarter ended April 30, 2023 is its Q1 fiscal 2024)
    ("Did Walmart raise its annual dividend for fiscal 2019, according to its 10-K for the "
     "fiscal year ended January 31, 2018?", [2018]),
    ("As of Walmart's 10-Q for the quarter ended April 30, 2023 (Q1 fiscal 2024), had the "
     "framework taken effect?", []),
])
def test_filing_years_are_the_years_written_on_a_filing(question: str, years: list[int]) -> None:
    assert filing_years(question) == years


# --- every name a company goes by -------------------------------------------------------------


@pytest.mark.parametrize(("name", "forms"), [
    ("Johnson & Johnson", ["Johnson and Johnson", "J&J"]),  # JNJ: its ticker, not a rule
    ("The Procter and Gamble Company", ["Procter & Gamble", "P&G", "PGC"]),
    ("The Kraft Heinz Company", ["KHC"]),
    ("Advanced Micro Devices, Inc.", ["AMD"]),
    ("General Mills, Inc.", []),  # "GM" would name General Motors as often
])
def test_short_forms_are_both_and_forms_and_initials(name: str, forms: list[str]) -> None:
    assert short_forms(name) == forms


J_AND_J_COVER = """Commission File Number 1-3215
JOHNSON & JOHNSON
(Exact name of registrant as specified in its charter)
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbol(s) Name of each exchange on which registered
Common Stock, Par Value $1.00 JNJ New York Stock Exchange
"""


@pytest.mark.parametrize(("question", "routed"), [
    ("What was JnJ's revenue in 2022?", True),  # initials in any case that writes a capital
    ("What was J&J's revenue in 2022?", True),
    ("How did Johnson and Johnson's sales grow?", True),
    ("What was JNJ's dividend?", True),
    ("what was jnj's revenue?", False),  # all small letters: never an acronym
    ("What did KO earn?", False),  # a two-letter ticker of another company
])
def test_initials_and_both_and_forms_route(question: str, routed: bool) -> None:
    profile = profile_from_text("johnson-johnson-10k", 2022, [J_AND_J_COVER])
    assert profile.title == "JOHNSON & JOHNSON"
    assert route(question, [profile]) == (["johnson-johnson-10k"] if routed else [])


def test_two_letter_acronyms_match_only_in_capitals() -> None:
    coke = DocumentProfile(document="coca-cola-10k", year=2019, aliases=["KO"])
    assert route("What did KO earn?", [coke]) == ["coca-cola-10k"]
    assert route("Was it ko'd? What did Ko earn?", [coke]) == []


@pytest.mark.parametrize(("cover", "printed", "header", "short"), [
    # a cover in capitals that runs the suffix into the name
    ("Commission File Number 1-5231\nMcDONALD'SCORPORATION\n(Exact name of registrant as "
     "specified in its charter)", "McDONALD'S CORPORATION", "McDonald's Corporation",
     "McDonald's"),
    ("Commission File Number 001-37713\neBay Inc.\n(Exact name of registrant as specified in "
     "its charter)", "eBay Inc.", "eBay Inc", "eBay"),  # mixed case kept whole: never "Bay"
    ("Commission File Number 1-12291\nThe AES Corporation\n(Exact name of registrant as "
     "specified in its charter)", "The AES Corporation", "The AES Corporation", "AES"),
    # no "(Exact name ...)" line read: the 12(b) table's exchange is no registrant
    ("Title of each class Trading Symbol(s) Name of each exchange on which registered\n"
     "Common Stock, Par Value $.01 Per Share MMM New York Stock Exchange, Inc.\n"
     "MMM Chicago Stock Exchange, Inc.\n3M Company is a global technology company. 3M Company",
     "3M Company", "3M Company", "3M"),
    # a cover's sentence above the name's line is no name
    ("Commission File Number 1-15839\nACTIVISION BLIZZARD, INC.\nOR\nFor the transition "
     "period from to\n(Exact name of registrant as specified in its charter)",
     "ACTIVISION BLIZZARD, INC.", "Activision Blizzard, Inc", "Activision Blizzard"),
])
def test_names_read_from_covers_as_printed(
        cover: str, printed: str, header: str, short: str) -> None:
    assert registrant_name(cover) == printed
    assert display_name(printed) == header
    assert short_display_name(printed) == short


@pytest.mark.parametrize(("question", "named"), [
    ("What was eBay's revenue in 2022?", "eBay"),
    ("How did AMEX's card fees change?", "AMEX"),
    ("What did Big Blue earn?", "Big Blue"),
    ("What is ORCL's cloud revenue?", "ORCL"),
])
def test_unindexed_company_by_name_nickname_and_ticker(question: str, named: str) -> None:
    pfizer = profile_from_text("pfizer-10k", 2021, [TEN_K_COVER])
    assert route(question, [pfizer]) == []
    assert unindexed_company(question, [pfizer]) == named
