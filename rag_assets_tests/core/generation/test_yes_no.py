"""A yes or no read from the sentence that discloses it, and only of the period asked (no
store: units built here; the same rule on real filings is ``test_answer_forms_real.py``)."""

from __future__ import annotations

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.yes_no import prose_yes_no, stated_none, with_its_amount
from rag_assets.core.question.question import read_question


def unit(text: str) -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c1", document="acme-10q", year=2022, chunk_rank=0, page=47,
                        located=True, quote=text, text=text)


NINE_MONTHS = unit("During the nine months ended September 30, 2022, the Firm repurchased "
                   "23.1 million shares of common stock for $3.1 billion.")
SUSPENDED = unit("On July 14, 2022, the Firm announced that it has temporarily suspended "
                 "share repurchases.")


def test_a_longer_period_does_not_answer_the_quarter_asked() -> None:
    question = read_question("Did the Firm buy back shares in the third quarter of 2022?")
    assert prose_yes_no(question, [NINE_MONTHS]) is None  # not "Yes" from nine months
    found = prose_yes_no(question, [NINE_MONTHS, SUSPENDED])
    assert found is not None and found.text.startswith("No. On July 14, 2022")


def test_the_year_asked_is_answered_by_its_own_sentence() -> None:
    question = read_question("Did the Firm buy back shares in 2021?")
    assert prose_yes_no(question, [NINE_MONTHS, SUSPENDED]) is None  # both speak of 2022
    question = read_question("Did the Firm buy back shares in 2022?")
    found = prose_yes_no(question, [NINE_MONTHS])
    assert found is None  # nine months is not the year either


NEVER_PAID = unit("Dividends We have not declared or paid any cash dividends, and we have no "
                  "present intention of paying any cash dividends in the foreseeable future.")
DECLARED = unit("On June 21, 2022, our Board of Directors declared a quarterly dividend of $0.28 "
                "per share of common stock.")


def test_a_dividend_declared_says_nothing_of_a_buyback() -> None:
    """Corning's 10-Q for Q2 2023 (tune's company): a dividend declaration is no yes to a
    repurchase question; dividends and buybacks are two intents, each with its patterns."""
    buyback = read_question("Did the Firm repurchase shares in the second quarter of 2022?")
    assert buyback.intents == ["buybacks"] and prose_yes_no(buyback, [DECLARED]) is None
    dividend = read_question("Did the Firm pay a dividend in the second quarter of 2022?")
    found = prose_yes_no(dividend, [DECLARED])
    assert found is not None and found.text.startswith("Yes. On June 21, 2022")


def test_a_figure_of_what_was_never_paid_is_none() -> None:
    """Netflix's 10-K for 2015 (bulk): "How much ... in dividends per share?" answered "None."
    with the sentence that says so; never from a suspension, a shorter period, or for a
    question of two disclosures at once (dividends and buybacks)."""
    dividends = read_question("How much did the Firm pay in dividends per share in 2022?")
    found = stated_none(dividends, [DECLARED, NEVER_PAID])
    assert found is not None and found.kind == "none"
    assert found.text == f"None. {NEVER_PAID.text}"
    buybacks = read_question("How much did the Firm spend on share repurchases in 2022?")
    assert stated_none(buybacks, [SUSPENDED, NINE_MONTHS]) is None
    quarter = unit("No shares were repurchased during the fourth quarter of 2022.")
    assert stated_none(buybacks, [quarter]) is None  # a quarter says nothing of the year
    both = read_question("How much cash did the Firm return to shareholders in 2022?")
    assert stated_none(both, [NEVER_PAID]) is None


def test_three_and_six_months_listed_together_speak_of_the_quarter() -> None:
    """Corning's 10-Q for Q2 2023: "No shares were purchased on the open market during the
    three and six months ended June 30, 2023." answers the quarter; 2022's sentence does not."""
    question = read_question("Did Corning buy back stock in the second quarter of 2023?")
    prior = unit("During the three and six months ended June 30, 2022, the Company repurchased "
                 "1.6 million shares and 5.5 million shares, respectively, of common stock.")
    none = unit("No shares were purchased on the open market during the three and six months "
                "ended June 30, 2023.")
    found = prose_yes_no(question, [prior, none])
    assert found is not None and found.text == f"No. {none.text}"


RAISED = unit("On February 1, 2022, our Board of Directors declared a 7% increase in the "
              "quarterly dividend on the Company's common stock, to $0.27 per share.")


def test_a_dividend_declared_says_no_change_of_it() -> None:
    """"Did it change (raise) its dividend?" asks of a change: the declaration of the same
    quarterly dividend answers neither yes nor no; the sentence that states the increase says
    yes."""
    for asked in ("Did the Firm change its dividend in the second quarter of 2022?",
                  "Did the Firm raise its quarterly dividend in 2022?"):
        question = read_question(asked)
        assert prose_yes_no(question, [DECLARED]) is None, asked
    found = prose_yes_no(read_question("Did the Firm raise its quarterly dividend in 2022?"),
                         [DECLARED, RAISED])
    assert found is not None and found.text.startswith("Yes. On February 1, 2022"), found


def test_a_dividend_approved_as_an_increase_over_the_last_says_yes() -> None:
    """Walmart's Q1 fiscal 2024 10-Q: the annual dividend approved is "an increase over" the
    year before's, its amounts printed with decimals: a change stated."""
    approved = unit("Effective February 21, 2023, the Board of Directors approved the fiscal 2024 "
                    "annual dividend of $2.28 per share, an increase over the fiscal 2023 annual "
                    "dividend of $2.24 per share.")
    for asked in ("Did Walmart change its annual dividend in fiscal 2024?",
                  "Did Walmart raise its dividend in fiscal 2024?"):
        found = prose_yes_no(read_question(asked), [approved])
        assert found is not None and found.text.startswith("Yes. Effective February 21, 2023"), \
            asked


# Costco's 10-K for fiscal 2018 (tune's company): Item 7's dividends and the income taxes note
COSTCO_DECLARED = unit("Dividends Cash dividends declared in 2018 totaled $ 2.14 per share, as "
                       "compared to $ 8.90 per share in 2017 , which included a special cash "
                       "dividend of $7.00 per share.")
COSTCO_QUARTERLY = unit("Subsequent to the end of 2018, the Board of Directors declared a "
                        "quarterly cash dividend in the amount of $0.57 per share, which is "
                        "payable on November 23, 2018.")
COSTCO_NONE = unit("There was no similar special cash dividend in 2018 or 2016.")


def test_a_qualified_dividend_is_answered_by_a_sentence_of_it_and_its_year() -> None:
    """A special dividend is not the quarterly one, and 2017's special dividend is no yes for
    2018: the sentence must name the qualified measure, nearest a year asked."""
    question = read_question("Did Costco pay a special dividend in FY2018?")
    assert question.qualified
    assert prose_yes_no(question, [COSTCO_QUARTERLY, COSTCO_DECLARED]) is None
    found = prose_yes_no(question, [COSTCO_QUARTERLY, COSTCO_DECLARED, COSTCO_NONE])
    assert found is not None and found.text == f"No. {COSTCO_NONE.text}"
    plain = prose_yes_no(read_question("Did Costco pay a dividend in FY2018?"),
                         [COSTCO_QUARTERLY])
    assert plain is not None and plain.text.startswith("Yes. Subsequent")


def test_a_measure_is_named_by_every_word_short_ones_too() -> None:
    """The one check of a qualified measure (yes_no and drivers): every word, "one time" too."""
    from rag_assets.core.generation.extractive import names_measure

    assert names_measure("special dividend", "which included a special cash dividend")
    assert not names_measure("one time dividend", "the quarterly dividend of $0.28")
    assert not names_measure("comp sales", "net sales rose 5%")
    assert names_measure("comp sales", "comp sales increased 3%")


def test_a_dividend_never_declared_nor_paid_is_denied_in_each_wording() -> None:
    """Block's 10-Ks (check's company; the sentences were found by asking its 2018 and 2020
    filings, so those are in-sample): "did not declare any dividends", "have never declared
    nor paid any cash dividends" deny a dividend as "have not declared or paid any" does."""
    question = read_question("How much did the Firm pay in dividends per share in 2022?")
    # JPMorgan's Q1 2021 10-Q: a preferred series' footnote denies none of the common's (the
    # probe's case: it had answered "None." for the $0.90 declared)
    assert stated_none(question, [unit("(b) No dividends were declared for Series JJ from the "
                                       "original issue date of March 17, 2021 through March 31, "
                                       "2021.")]) is None
    for said in ("As of December 31, 2022 , the Company did not declare any dividends.",
                 "We have never declared nor paid any cash dividends on our capital stock.",
                 "No cash dividends were declared or paid in 2022."):
        found = stated_none(question, [unit(said)])
        assert found is not None and found.text == f"None. {said}", said
    asked = read_question("Did the Firm pay dividends in 2022?")
    found = prose_yes_no(asked, [unit("As of December 31, 2022 , the Company did not declare "
                                      "any dividends.")])
    assert found is not None and found.text.startswith("No. As of December 31, 2022")


def test_a_yes_without_an_amount_is_joined_by_the_sentence_that_prints_it() -> None:
    # Foot Locker's Q3 2022 10-Q and MGM Resorts' Q4 2022 release, as they print them
    agreed = unit("Subsequent to the end of the third quarter, the Company entered into an "
                  "agreement to sell its shares in Retailors, Ltd. at a discount to the publicly "
                  "traded value.")
    proceeds = unit("We expect to receive net proceeds of approximately $84 million in the "
                    "fourth quarter of 2022.")
    stated = DirectAnswer(kind="yes_no", units=[agreed], supports=agreed.text,
                          text=f"Yes. {agreed.text}")
    found = with_its_amount(stated, following=lambda _: proceeds)
    assert found is not None and found.text == (
        f"Yes. {agreed.text[:-1]}; we expect to receive net proceeds of approximately $84 "
        "million in the fourth quarter of 2022.")
    assert found.units == [agreed, proceeds]
    # the sentence after is of another subject: the yes stands alone
    other = unit("In 2021, the Company invested $68 million in a minority stake.")
    assert with_its_amount(stated, following=lambda _: other) == stated
    suspended = unit("Furthermore, the Company announced that our Board of Directors had "
                     "determined to suspend our ongoing regular dividends.")
    plan = unit("On February 8, 2023, the Company announced that its Board of Directors had "
                "authorized a new $2.0 billion share repurchase plan.")
    said = DirectAnswer(kind="yes_no", units=[suspended], text=f"Yes. {suspended.text}")
    found = with_its_amount(said, preceding=lambda _: plan, following=lambda _: None)
    assert found is not None and found.text.endswith("; on February 8, 2023, the Company "
                                                     "announced that its Board of Directors "
                                                     "had authorized a new $2.0 billion share "
                                                     "repurchase plan.")
    # a sentence that does not go on from the one before takes nothing from it
    alone = said.model_copy(update={"units": [plan.model_copy(update={"text": "The Board "
                                    "suspended the dividend.", "quote": "x"})],
                                    "text": "Yes. The Board suspended the dividend."})
    assert with_its_amount(alone, preceding=lambda _: plan) == alone


def test_a_stopping_asked_turns_the_disclosures_polarity() -> None:
    """"Did the Firm pause buybacks?": "temporarily suspended share repurchases" says yes."""
    question = read_question("Did the Firm pause share repurchases in the third quarter of 2022?")
    found = prose_yes_no(question, [SUSPENDED])
    assert found is not None and found.text.startswith("Yes. On July 14, 2022")


def test_a_payment_or_a_never_paid_says_nothing_of_a_stop() -> None:
    """The review's cases: a dividend paid in the first quarter says nothing of a stop later
    in the year, and one never paid was never stopped; a stop in a side phrase ("after
    pausing them") asks no stop."""
    stop = read_question("Did Ford stop paying its dividend in 2020?")
    assert prose_yes_no(stop, [unit("In 2020, Ford paid a dividend of $0.15 per share in the "
                                    "first quarter.")]) is None
    assert prose_yes_no(read_question("Did Acme stop paying dividends in 2022?"),
                        [NEVER_PAID]) is None
    assert read_question("Did JPMorgan resume share buybacks in Q2 2022 after pausing them "
                         "during the pandemic?").phrased("stopped") is None


def test_a_sentence_about_customers_says_nothing_of_a_supplier() -> None:
    """Walmart's fiscal 2020 10-K: "did not generate material total revenues from any single
    customer" answers a customer question No, and a supplier question not at all."""
    single = unit("Additionally, the Company did not generate material total revenues from "
                  "any single customer.")
    customer = read_question("Does Walmart depend on any single customer?")
    found = prose_yes_no(customer, [single])
    assert found is not None and found.text.startswith("No. ")
    supplier = read_question("Does Walmart depend on any single supplier?")
    assert "customers" in supplier.intents  # "depend on" asks it ...
    assert prose_yes_no(supplier, [single]) is None  # ... but of another party


def test_a_bottler_asked_of_is_still_a_customer() -> None:
    """Coca-Cola counts its bottling partners among its customers: a question naming them is
    read by the customers lexicon (a share of revenue printed beside "customer" says yes; the
    sentence is written here, in the form ASC 280-10-50-42 has filers print)."""
    share = unit("Our largest customer, a bottling partner, accounted for 11% of our "
                 "consolidated net revenues.")
    question = read_question("Does Coca-Cola depend on a few major customers such as its "
                             "bottlers?")
    found = prose_yes_no(question, [share])
    assert found is not None and found.text.startswith("Yes. ")
