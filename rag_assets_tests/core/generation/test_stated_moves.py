"""Yes or no to whether a measure no statement prints moved a way, from the sentence that states
its move (Ulta Beauty's Q1 fiscal 2023 release, p.1; units built here)."""

from __future__ import annotations

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.stated_moves import stated_cause, stated_move
from rag_assets.core.question.question import Question, read_question

ULTA = ("Comparable sales (sales for stores open at least 14 months and e-commerce sales) "
        "increased 9.3% compared to an increase of 18.0% in the first quarter of fiscal 2022, "
        "driven by an 11.0% increase in transactions and a 1.5% decrease in average ticket.")
HEADLINE = ("Ulta Beauty Announces First Quarter Fiscal 2023 Results Net Sales of $2.6 Billion "
            "Comparable Sales Increased 9.3% Net Income of $347.1 Million")


def _unit(text: str) -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c", document="ulta-beauty-earnings-q1", year=2024,
                        chunk_rank=0, page=0, located=True, quote=text, text=text)


def test_the_stated_move_says_yes_or_no_to_the_way_asked() -> None:
    grew = stated_move(read_question("Did Ulta Beauty's comparable sales grow in the first "
                                     "quarter of fiscal 2023?"), [_unit(ULTA)])
    assert grew is not None and grew.text == f"Yes. {ULTA}"
    fell = stated_move(read_question("Did Ulta Beauty's comparable sales decline in the first "
                                     "quarter of fiscal 2023?"), [_unit(ULTA)])
    assert fell is not None and fell.text == f"No. {ULTA}"


def test_the_sentence_that_names_the_measure_first_is_preferred() -> None:
    found = stated_move(read_question("Did Ulta Beauty's comparable sales grow in the first "
                                      "quarter of fiscal 2023?"), [_unit(HEADLINE), _unit(ULTA)])
    assert found is not None and found.units[0].text == ULTA


def test_no_answer_without_a_way_asked_or_of_another_year() -> None:
    either = read_question("Did Ulta Beauty's comparable sales rise or fall in the first quarter "
                           "of fiscal 2023?")
    assert stated_move(either, [_unit(ULTA)]) is None
    later = read_question("Did Ulta Beauty's comparable sales grow in the first quarter of "
                          "fiscal 2024?")
    assert stated_move(later, [_unit(ULTA)]) is None


def test_a_move_against_a_base_of_another_length_is_not_the_quarters() -> None:
    """Ulta Beauty's Q2 fiscal 2023 release prints the six months' move beside the quarter's:
    asked of the quarter, only the quarter's sentence answers (8.0%, not 8.7%)."""
    half = ("Comparable sales increased 8.7% compared to an increase of 16.2% in the first six "
            "months of fiscal 2022, driven by a 10.1% increase in transactions and a 1.4% "
            "decrease in average ticket.")
    quarter = ("Comparable sales (sales for stores open at least 14 months and e-commerce "
               "sales) increased 8.0% compared to an increase of 14.4% in the second quarter of "
               "fiscal 2022, driven by a 9.0% increase in transactions and a 1.0% decrease in "
               "average ticket.")
    asked = read_question("Did Ulta Beauty's comparable sales increase in the second quarter of "
                          "fiscal 2023?")
    found = stated_move(asked, [_unit(half), _unit(quarter)])
    assert found is not None and found.text == f"Yes. {quarter}"
    assert stated_move(asked, [_unit(half)]) is None


def test_a_measure_only_prose_names_is_read_from_the_questions_grammar() -> None:
    """JPMorgan's Q2 2023 10-Q (p.6): "Firmwide average deposits of $2.4 trillion were down
    6%". No statement prints average deposits and the vocabulary has no such term; the
    question's object ("grow its average deposits") is the measure, and the decimal point of
    "$2.4 trillion" ends no sentence. The concessive clause asks of no deal."""
    firmwide = ("Firmwide average deposits of $2.4 trillion were down 6%, driven by the "
                "continued migration into higher-yielding investments in AWM.")
    asked = read_question("Did JPMorgan Chase grow its average deposits in Q2 2023, even with "
                          "the First Republic acquisition?")
    assert asked.moved is not None and asked.moved.measure == "average deposits"
    assert not asked.metrics
    found = stated_move(asked, [_unit(firmwide)])
    assert found is not None and found.text == f"No. {firmwide}"
    bulleted = stated_move(asked, [_unit(f"• {firmwide}")])  # the page's bullet, not said
    assert bulleted is not None and bulleted.text == f"No. {firmwide}"
    # a measure the vocabulary holds is the metric engine's, never read here
    assert read_question("Did Ulta Beauty grow its net sales in fiscal 2022?").moved is None


def test_a_measure_read_from_grammar_is_answered_only_where_the_sentence_speaks_of_it() -> None:
    """A segment's sentence, another subject's clause, or the measure as the object of another
    answer nothing; two sentences that state two ways leave it to the quotes."""
    asked = read_question("Did JPMorgan Chase grow its average deposits in Q2 2023?")
    firmwide = "Firmwide average deposits of $2.4 trillion were down 6%."
    segment = "Average deposits in CIB were up 4%."
    assert stated_move(asked, [_unit(segment)]) is None
    found = stated_move(asked, [_unit(segment), _unit(firmwide)])
    assert found is not None and found.text == f"No. {firmwide}"
    after = "Average deposits were up 4% in CIB."  # the member after the verb: two ways stated
    assert stated_move(asked, [_unit(firmwide), _unit(after)]) is None
    flat = "Average deposits were flat at $2.4 trillion while average loans increased 13%."
    assert stated_move(asked, [_unit(flat)]) is None
    other = "Interest expense on deposits increased $3.2 billion."
    assert stated_move(read_question("Did JPMorgan Chase grow its deposits in Q2 2023?"),
                       [_unit(other)]) is None
    # the way is the question's verb's: "reduce" asks down
    spent = "Content spending decreased 10% in 2023."
    reduced = stated_move(read_question("Did Netflix reduce its content spending in 2023 to "
                                        "support growth?"), [_unit(spent)])
    assert reduced is not None and reduced.text == f"Yes. {spent}"


def test_a_cause_asked_is_read_by_its_own_way_not_the_measures() -> None:
    """"Was the increase driven by a higher average ticket?" grants the increase and asks the
    cause: the sentence states a decrease in average ticket, so No (it was Yes, the way of
    "increase", before the cause was read)."""
    asked = read_question("Was Ulta Beauty's 9.3% comparable sales increase in the first "
                          "quarter of fiscal 2023 (13 weeks ended April 29, 2023) driven by a "
                          "higher average ticket?").model_copy(
        update={"companies": ["Ulta Beauty"]})
    assert stated_move(asked, [_unit(ULTA)]) is None
    ticket = stated_cause(asked, [_unit(HEADLINE), _unit(ULTA)])
    assert ticket is not None and ticket.text == f"No. {ULTA}"
    transactions = stated_cause(read_question(
        "Was Ulta Beauty's comparable sales increase in the first quarter of fiscal 2023 driven "
        "by more transactions?").model_copy(update={"companies": ["Ulta Beauty"]}), [_unit(ULTA)])
    assert transactions is not None and transactions.text.startswith("Yes. ")
    # a cause no sentence states a move of: no yes or no
    assert stated_cause(read_question("Was Ulta Beauty's comparable sales increase driven by "
                                      "higher e-commerce penetration?"), [_unit(ULTA)]) is None


def test_a_cause_against_the_move_or_another_members_drove_nothing_asked() -> None:
    """The review's cases: "despite higher content amortization" and "partially offset by a
    1.5% decrease" name what worked against the move, and Walmart U.S.'s ticket is no Sam's
    Club's."""
    def asked(text: str, company: str) -> Question:
        return read_question(text).model_copy(update={"companies": [company]})

    assert stated_cause(asked("Was the decline in Netflix's operating margin driven by higher "
                              "content amortization?", "Netflix"),
                        [_unit("Operating margin increased to 20% from 18% despite higher "
                               "content amortization.")]) is None
    assert stated_cause(asked("Was Ulta Beauty's comparable sales increase driven by a lower "
                              "average ticket?", "Ulta Beauty"),
                        [_unit("Comparable sales increased 9.3%, driven by an 11.0% increase "
                               "in transactions, partially offset by a 1.5% decrease in average "
                               "ticket.")]) is None
    sams = stated_cause(asked("Was Walmart's comparable sales increase at Sam's Club driven by "
                              "higher average ticket?", "Walmart"),
                        [_unit("Walmart U.S. comparable sales increased 7.4%, driven by a 3.1% "
                               "increase in transactions and average ticket increased 4.2%."),
                         _unit("Sam's Club comparable sales increased 7.0%, driven by "
                               "transactions growth and average ticket decreased 1.0%.")])
    assert sams is not None and sams.text.startswith("No. Sam's Club")


def test_a_vocabulary_measure_the_statements_did_not_compute_is_read_from_its_sentence() -> None:
    """"Did Corning's gross margin compress ...?" names a vocabulary measure; when the
    statements did not compute its move (the computed answer comes first) the sentence that
    opens with the period and states it answers, a segment's sentence does not (Corning's Q2
    2023 10-Q, p.23)."""
    asked = read_question("Did Corning's gross margin compress in the second quarter of 2023, "
                          "and if so, why?")
    stated = ("For the three and six months ended June 30, 2023, gross margin decreased by "
              "$233 million and $513 million, or 19% and 20%, respectively, and declined as a "
              "percentage of sales by 3 and 4 percentage points, respectively, when compared "
              "to the same periods in 2022.")
    segment = "Display Technologies gross margin increased by 12 basis points."
    assert stated_move(asked, [_unit(segment)]) is None
    found = stated_move(asked, [_unit(segment), _unit(stated)])
    assert found is not None and found.text == f"Yes. {stated}"
    widened = stated_move(read_question("Did Corning's gross margin expand in the second "
                                        "quarter of 2023?"), [_unit(stated)])
    assert widened is not None and widened.text.startswith("No. For the three")


def test_an_opening_of_a_member_another_quarter_or_dollars_alone_answers_no_margin() -> None:
    """A review's cases: a segment or a region named in the opening, another quarter's months,
    a sub-line of the margin, and a margin's dollars (a compressed margin is a lower rate)
    answer nothing."""
    asked = read_question("Did Corning's gross margin compress in the second quarter of 2023?")
    for sentence in (
            "For the Optical Communications segment for the three months ended June 30, 2023, "
            "gross margin increased 120 basis points.",
            "In Europe in the second quarter of 2023, gross margin decreased 250 basis points.",
            "For the three months ended March 31, 2023, gross margin increased 80 basis points.",
            "In the fourth quarter of 2023, gross margin increased 80 basis points.",
            "For the three months ended June 30, 2023, gross margin on services increased "
            "50 basis points.",
            "For the three months ended June 30, 2023, gross margin increased $1,627 million, "
            "or 9%."):
        assert stated_move(asked, [_unit(sentence)]) is None, sentence
