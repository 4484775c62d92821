"""Which customers are major, from the sentences a 10-K states them in (ASC 280-10-50-42): the
sentences are real filings' (bulk), the units built here."""

from __future__ import annotations

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.major_customers import major_customers
from rag_assets.core.question.question import read_question


def unit(text: str, page: int = 4) -> EvidenceUnit:
    return EvidenceUnit(chunk_id=f"c{page}", document="general-mills-10k", year=2017,
                        chunk_rank=0, page=page, located=True, quote=text, text=text)


SHARE = ("During fiscal 2017, Wal-Mart Stores, Inc. and its affiliates (Wal-Mart) accounted for "
         "20 percent of our consolidated net sales and 29 percent of net sales of our North "
         "America Retail segment.")
NONE_OTHER = "No other customer accounted for 10 percent or more of our consolidated net sales."


def test_the_customer_its_share_and_that_no_other_reaches_the_threshold() -> None:
    question = read_question("Which customers accounted for 10% or more of General Mills' net "
                             "sales in fiscal 2017?")
    assert question.expects == "names" and question.intents == ["customers"]
    again = SHARE.replace("During fiscal 2017, Wal-Mart Stores, Inc. and its affiliates "
                          "(Wal-Mart)", "In fiscal 2017, Wal-Mart")
    found = major_customers(question, [unit(SHARE), unit(again, 9)],
                            before=lambda _: "Customers Our primary customers are grocery stores",
                            scan=lambda patterns: iter([unit(NONE_OTHER, 9)]))
    assert found is not None and found.kind == "customers"
    assert found.text == f"{SHARE[:-1]}; {NONE_OTHER}"  # the same share stated once


def test_no_share_of_a_segment_of_several_customers_or_of_another_year() -> None:
    question = read_question("Who are Corning's major customers in 2015?")
    segment = unit("For 2015, three customers of the Display Technologies segment accounted for "
                   "62% of total segment net sales when combined.")
    ten = unit("In 2015, Corning's ten largest customers accounted for 45% of our sales.")
    old = unit("In 2014, Samsung accounted for 12% of our consolidated net sales.")
    brands = unit("In 2015, our top three brands—Gorilla Glass, Valor and EAGLE XG—collectively "
                  "accounted for 52% of our consolidated net sales.")
    assert major_customers(question, [segment, ten, old, brands],
                           before=lambda _: "customers") is None
    sams = unit("Sam's Club accounted for approximately 12% of our fiscal 2018 net sales.")
    assert major_customers(read_question("Which customers are Walmart's largest in fiscal "
                                         "2018?"), [sams], before=lambda _: "customers") is None


def test_other_questions_are_not_answered_here() -> None:
    yes_no = read_question("Does General Mills depend on a few major customers?")
    assert major_customers(yes_no, [unit(SHARE)]) is None
    cause = read_question("What accounted for the decline in General Mills' net sales in 2017?")
    assert cause.expects == "cause" and major_customers(cause, [unit(SHARE)]) is None


def test_a_share_of_a_segments_sales_is_left_out_and_a_curly_apostrophe_read() -> None:
    """General Mills' 10-K for fiscal 2015 adds Wal-Mart's share of one segment's sales;
    Corning prints "the Company’s" with a curly apostrophe."""
    question = read_question("Which customers accounted for 10% or more of net sales in 2015?")
    segment = unit("Wal-Mart also represented 7 percent of our net sales in the International "
                   "segment in fiscal 2015.")
    curly = unit("In 2015, sales to Samsung Display accounted for 12% of the Company’s net "
                 "sales.")
    found = major_customers(question, [curly, segment], before=lambda _: "customers")
    assert found is not None and found.units == [curly]


def _customers(question: str, units: list[EvidenceUnit],
               segments: list[EvidenceUnit] | None = None) -> DirectAnswer | None:
    """major_customers on ``units`` beside the word "customers", ``segments`` the filing's
    sentences a scan finds."""
    return major_customers(read_question(question), units, before=lambda _: "customers",
                           scan=lambda patterns: iter(segments or []))


def test_none_when_the_filing_says_no_customer_reaches_the_threshold() -> None:
    """Corning 2020 (wide), page index 90: no share is stated, the sentence that says none
    reaches 10 % answers; a segment's customers (Corning 2015's sentence) are no company's."""
    asked = "Which customers accounted for 10% or more of Corning's net sales in FY2020?"
    denial = unit("For 2020, 2019 and 2018, no customer met or exceeded 10% of Corning’s "
                  "consolidated net sales.")
    segment = unit("For 2015, three customers of the Display Technologies segment accounted for "
                   "62% of total segment net sales when combined.")
    found = _customers(asked, [segment, denial])
    assert found is not None and found.units == [denial]
    assert found.text.startswith("None: For 2020, 2019 and 2018, no customer met or exceeded")
    older = unit("For 2017, no customer met or exceeded 10% of Corning’s consolidated net sales.")
    assert _customers(asked, [older]) is None


def test_a_segments_share_of_sales_names_no_customer() -> None:
    """Walmart 2018 (wide) states "Sam's Club accounted for approximately 12% of our fiscal 2018
    net sales" beside its customers, and calls it "the Sam's Club segment" elsewhere: a
    segment's share (here in the words a customer's is stated in) names no customer. Without
    such a sentence in the filing the share stands."""
    asked = "Which customers accounted for 10% or more of Walmart's net sales in FY2018?"
    sams = unit("In fiscal 2018, Sam's Club accounted for approximately 12% of our net sales.")
    segment = unit("Sam's Club operates with a lower gross profit rate and lower operating "
                   "expenses as a percentage of net sales than our other segments (the Sam's "
                   "Club segment).")
    assert _customers(asked, [sams], [segment]) is None
    found = _customers(asked, [sams])
    assert found is not None and found.units == [sams]


def test_none_when_no_single_customer_is_material() -> None:
    """Walmart 2018 (wide), its geographic note: "the Company did not generate material total
    revenues from any single customer" says no customer reaches the threshold, beside a
    segment's share stated in a customer's words."""
    asked = "Which customers accounted for 10% or more of Walmart's net sales in FY2018?"
    denial = unit("Additionally, the Company did not generate material total revenues from any "
                  "single customer.", page=86)
    sams = unit("In fiscal 2018, Sam's Club accounted for approximately 12% of our net sales.")
    segment = unit("Sam's Club operates with a lower gross profit rate than our other segments "
                   "(the Sam's Club segment).")
    found = _customers(asked, [sams, denial], [segment])
    assert found is not None and found.units == [denial]
    assert found.text.startswith("None: the Company did not generate material total revenues")


def test_how_dependent_a_filer_is_on_its_customers_is_answered_by_their_shares() -> None:
    """"How dependent ...?" asks a degree, which the customer's share measures: the same
    sentences as for the customers' names; a dependence asked of no customer is not here."""
    for text in ("How dependent is General Mills on Wal-Mart as a customer in fiscal 2017?",
                 "To what extent does General Mills rely on its largest customer in fiscal "
                 "2017?"):
        question = read_question(text)
        assert question.asks_degree
        found = major_customers(question, [unit(SHARE)], before=lambda _: "customers",
                                scan=lambda patterns: iter([unit(NONE_OTHER, 9)]))
        assert found is not None and found.text == f"{SHARE[:-1]}; {NONE_OTHER}", text
    assert read_question("How dependent is General Mills on Wal-Mart as a customer?"
                         ).expects != "names"  # the degree, not the names, lets it in
    # a customer named is answered by its own share alone: not Wal-Mart's for Target
    target = read_question("How dependent is General Mills on Target as a customer in fiscal "
                           "2017?")
    assert major_customers(target, [unit(SHARE)], before=lambda _: "customers") is None
    suppliers = read_question("How dependent is General Mills on its suppliers in fiscal 2017?")
    assert major_customers(suppliers, [unit(SHARE)], before=lambda _: "customers") is None
