"""A margin's change explained by the parts it is made of, read from sentences as MD&A prints
them (no store: units built here; the same on real filings is
``test_bridged_causes_real.py``)."""

from __future__ import annotations

from rag_assets.core.generation.bridged_causes import asked_of_part, bridged_causes, member_causes
from rag_assets.core.generation.drivers import (
    drivers,
    explained_way,
    segments_change,
    subjects_named,
)
from rag_assets.core.generation.evidence import EvidenceUnit, headings_at
from rag_assets.core.generation.records import Change, Claim, Moved
from rag_assets.core.question.question import Question, read_question
from rag_assets.core.text.sentences import page_prose

MDNA = "Acme 10-K 2023 | Item 7. Management's Discussion and Analysis"
RATE = "Our gross profit rate decreased 26 basis points for fiscal 2023 when compared to 2022."
RATE_CAUSE = "For fiscal 2023, the decrease was primarily due to price investments and mix."
EXPENSES = ("Operating expenses as a percentage of net sales increased 32 basis points, primarily "
            "due to $0.6 billion of charges related to club closures.")
SEGMENT_EXPENSES = ("Operating expenses as a percentage of segment net sales increased 40 basis "
                    "points, primarily due to higher wages.")
CHANGE = Change(claim=Claim(text="Acme's operating margin decreased from 4.7% in FY2022 to 4.1% "
                            "in FY2023, by 0.6 percentage points."), way="down",
                parts=[Moved(title="gross margin", way="down"),
                       Moved(title="operating expense ratio", way="up")])


def unit(text: str, scope: str = MDNA, chunk: str = "c1") -> EvidenceUnit:
    return EvidenceUnit(chunk_id=chunk, document="acme-10k", year=2023, chunk_rank=0, page=40,
                        located=True, quote=text, text=text, scope=scope)


def explain_from(units: list[EvidenceUnit]):  # noqa: ANN201
    def explain(asked: Question):  # noqa: ANN202
        return drivers(asked, units)
    return explain


def test_the_part_is_asked_as_the_margin_was() -> None:
    question = read_question("What drove the change in Acme's operating margin in FY2023?")
    asked = asked_of_part(question, "gross margin")
    assert asked is not None
    assert asked.ranking_text == "What drove the change in Acme's gross margin in FY2023?"
    assert "operating margin" not in asked.ranking_text
    assert asked.years == question.years and asked.expects == "cause"
    assert asked_of_part(read_question("What drove the change in Acme's net sales in FY2023?"),
                         "gross margin") is None  # net sales bridges nothing


def test_each_part_that_moved_the_margin_leads_with_its_causes() -> None:
    question = read_question("What drove the change in Acme's operating margin in FY2023?")
    found = bridged_causes(question, CHANGE, explain_from(
        [unit(RATE), unit(RATE_CAUSE), unit(EXPENSES, chunk="c2")]))
    assert found is not None and found.kind == "cause"
    # each part's change as printed (its basis points) before its causes
    assert found.text == ("A lower gross margin (our gross profit rate decreased 26 basis points "
                          "for fiscal 2023 when compared to 2022, primarily due to price "
                          "investments and mix) and a higher operating expense ratio (Operating "
                          "expenses as a percentage of net sales increased 32 basis points, "
                          "primarily due to $0.6 billion of charges related to club closures).")
    assert [u.text for u in found.units] == [RATE, RATE_CAUSE, EXPENSES]


def test_a_parts_change_printed_with_its_amount_comes_before_its_causes() -> None:
    """General Mills' 2022 10-K: "Cost of sales increased $912 million in fiscal 2022 to
    $12,591 million. The increase was primarily driven by ...": the size of what the causes
    explain is said with them."""
    question = read_question("What drove the change in Acme's gross margin in FY2023?")
    change = Change(claim=Claim(text="Acme's gross margin decreased."), way="down",
                    parts=[Moved(title="cost of sales ratio", way="up")])
    found = bridged_causes(question, change, explain_from([
        unit("Cost of sales increased $912 million in fiscal 2023 to $12,591 million."),
        unit("The increase was primarily driven by a $1,514 million increase attributable to "
             "product rate and mix.")]))
    assert found is not None
    assert found.text == ("A higher cost of sales ratio (Cost of sales increased $912 million in "
                          "fiscal 2023 to $12,591 million, primarily driven by a $1,514 million "
                          "increase attributable to product rate and mix).")


def test_a_segments_or_the_other_ways_causes_are_left_out() -> None:
    question = read_question("What drove the change in Acme's operating margin in FY2023?")
    rose = unit("Our gross profit rate increased 10 basis points for fiscal 2023. For fiscal "
                "2023, the increase was primarily due to lower freight costs.")
    assert bridged_causes(question, CHANGE, explain_from([rose])) is None
    assert bridged_causes(question, CHANGE, explain_from([unit(SEGMENT_EXPENSES)])) is None
    under = unit(EXPENSES, scope=f"{MDNA} | Sam's Club Segment")
    assert bridged_causes(question, CHANGE, explain_from([under])) is None


def test_the_way_and_the_owner_a_cause_explains() -> None:
    asked = read_question("What drove the change in Acme's gross margin in FY2023?")
    found = drivers(asked, [unit(RATE), unit(RATE_CAUSE)])
    assert found is not None and explained_way(found) == "down"
    assert not segments_change(found)
    segment = drivers(read_question("What drove the change in Acme's operating expense ratio "
                                    "in FY2023?"), [unit(SEGMENT_EXPENSES)])
    assert segment is not None and segments_change(segment)


def test_causes_said_before_their_verb_read_as_a_clause() -> None:
    question = read_question("What drove the change in Acme's operating margin in FY2023?")
    changed = unit("Gross margin as a percentage of net sales decreased in 2023.")
    before = unit("The negative impact of the yen and price declines drove the decrease.")
    found = bridged_causes(question, CHANGE, explain_from([changed, before]))
    assert found is not None
    assert found.text.startswith("A lower gross margin (the negative impact of the yen and "
                                 "price declines)"), found.text


def test_a_pages_headings_and_where_they_stand() -> None:
    text = ("Walmart U.S. Segment\n(Amounts in millions) 2022 2021\n[[TABLE 1]]\n| a | 1 |\n"
            "Gross profit rate increased 51 basis points for fiscal 2022.\nSam's Club Segment\n"
            "Gross profit rate decreased 68 basis points.\n40")
    flat = page_prose(text)
    found = headings_at(text, flat)
    assert [h for _, h in found] == ["Walmart U.S. Segment", "Sam's Club Segment"]
    assert flat.find("Gross profit rate decreased") > found[1][0] > flat.find("increased 51")


def test_a_quarters_part_is_explained_by_a_sentence_that_names_no_period() -> None:
    """A quarter asked: "The decrease was driven by ..." names no period of its own; it
    explains the quarter its neighbour names. A fiscal year asked: the fourth quarter's
    sentence explains another period."""
    quarter = read_question("What drove the change in Acme's operating margin in Q1 2023?")
    expenses = unit("Operating expenses as a percentage of net sales decreased 58 basis points "
                    "for the three months ended April 30, 2023.")
    cause = unit("The decrease was driven by higher sales in each of our segments.")
    lower = CHANGE.model_copy(update={"way": "up", "parts": [
        Moved(title="operating expense ratio", way="down")]})
    found = bridged_causes(quarter, lower, explain_from([expenses, cause]))
    assert found is not None
    assert found.text == ("A lower operating expense ratio (Operating expenses as a percentage "
                          "of net sales decreased 58 basis points for the three months ended "
                          "April 30, 2023, driven by higher sales in each of our segments).")
    year = read_question("What drove the change in Acme's operating margin in FY2023?")
    assert bridged_causes(year, lower, explain_from([expenses, cause])) is None


# a segment's own discussion, under its heading (Walmart's 10-K prints one per segment)
SEGMENT = f"{MDNA} | Acme International Segment"
SEGMENT_SALES = ("Net sales for the Acme International segment decreased $1.6 billion for fiscal "
                 "2023, primarily due to negative fluctuations in currency exchange rates of $4.1 "
                 "billion.")
SEGMENT_RATE = ("Gross profit rate decreased 136 basis points for fiscal 2023, primarily due to "
                "the dilutive impact of a new business.")
SEGMENT_SUM = ("As a result of the factors discussed above, segment operating income decreased "
               "$1.5 billion for fiscal 2023.")


def test_a_segments_profit_is_explained_by_its_sales_and_its_margins_parts() -> None:
    """"What drove the decline in Acme International's operating income?": the segment's
    discussion ends "As a result of the factors discussed above" (a pointer, no cause), so its
    sales' and its gross margin's causes lead, each as the segment's sentences print them;
    the company's own expense sentence (under no segment heading) explains none of them."""
    question = read_question("What drove the decline in Acme International's operating income "
                             "in FY2023?")
    units = [unit(SEGMENT_SALES, SEGMENT), unit(SEGMENT_RATE, SEGMENT), unit(SEGMENT_SUM, SEGMENT),
             unit(EXPENSES, chunk="c2")]
    found = member_causes(question, subjects_named(question), explain_from(units))
    assert found is not None and found.kind == "cause"
    assert found.text == (
        "Lower revenue (Net sales for the Acme International segment decreased $1.6 billion for "
        "fiscal 2023, primarily due to negative fluctuations in currency exchange rates of $4.1 "
        "billion); a lower gross margin (Gross profit rate decreased 136 basis points for fiscal "
        "2023, primarily due to the dilutive impact of a new business).")
    assert [u.text for u in found.units] == [SEGMENT_SALES, SEGMENT_RATE]
    # one part explained is no bridge; a company's profit, or a margin, is not asked this way
    assert member_causes(question, subjects_named(question),
                         explain_from([unit(SEGMENT_RATE, SEGMENT)])) is None
    company = read_question("What drove the decline in Acme's operating margin in FY2023?")
    assert member_causes(company, {"international"}, explain_from(units)) is None
