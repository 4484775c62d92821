"""Yes or no to what a filing says happened, from the sentence that prints the question's words
(sentences as the check companies' 8-Ks and 10-Qs print them; units built here)."""

from __future__ import annotations

import re

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.stated_events import event_words, stated_event
from rag_assets.core.question.question import Question, read_question

FILERS = ("Activision Blizzard", "MGM Resorts", "Foot Locker", "Pfizer", "Netflix", "Acme",
          "Corning", "Walmart", "General Mills", "Costco", "Coca-Cola", "Kraft Heinz")


def routed(text: str) -> Question:
    """The question as the engine reads it, routed to the filer it names: the filer is no
    party of the event (its filing says "we")."""
    return read_question(text).model_copy(
        update={"companies": [name for name in FILERS if name in text]})


def unit(text: str, scope: str = "Part II, Item 1. Legal Proceedings") -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c", document="acme-10q-q2", year=2023, chunk_rank=0, page=30,
                        located=True, quote=text, text=text, scope=scope)


FTC = routed("Did the U.S. district court grant the FTC's motion for a preliminary "
             "injunction to block Microsoft's acquisition of Activision Blizzard?")


def test_the_opposite_verb_says_no() -> None:
    # Activision Blizzard's Q2 2023 10-Q: "denied" is what "grant" did not
    found = stated_event(FTC, [unit("On July 10, 2023, the district court denied the FTC's "
                                    "motion for a preliminary injunction.")])
    assert found is not None and found.text.startswith("No. On July 10, 2023")


def test_the_sentence_that_prints_the_words_says_yes_and_a_negation_says_no() -> None:
    question = routed("Were all of MGM Resorts' properties open and free of COVID-19 "
                      "operating restrictions as of June 30, 2023?")
    said = ("As of June 30, 2023, all of the Company's properties were open and not subject to "
            "any COVID-19 related operating restrictions.")
    found = stated_event(question, [unit("Casino revenues rose."), unit(said)])
    assert found is not None and found.text == f"Yes. {said}"
    closed = ("As of June 30, 2023, the Company's Macau properties were not open and remained "
              "under operating restrictions.")
    found = stated_event(question, [unit(closed)])
    assert found is not None and found.text.startswith("No. ")


def test_a_proposal_a_risk_or_another_subject_is_no_event() -> None:
    question = routed("Did Foot Locker's shareholders ratify KPMG LLP as the independent "
                      "registered public accounting firm for fiscal 2022?")
    proposal = unit("With respect to the proposal to ratify the appointment of KPMG LLP as the "
                    "Company's independent registered public accounting firm for the 2022 "
                    "fiscal year, the votes were cast for the proposal.")
    assert stated_event(question, [proposal]) is None
    result = proposal.model_copy(update={"text": f"{proposal.text} Based on the votes set forth "
                                         "above, the shareholders ratified the appointment."})
    found = stated_event(question, [result])
    assert found is not None and found.text.startswith("Yes. ")
    seagen = routed("Had Seagen's shareholders approved Pfizer's proposed acquisition?")
    risk = unit("Risks include negative effects of the announcement of the proposed acquisition "
                "on shareholders and the risk that approvals are not obtained.")
    assert stated_event(seagen, [risk]) is None
    # no yes or no from the words of another question's frame
    assert event_words("Did Foot Locker agree to sell its stake in Retailors?") == [
        "agree", "sell", "stake"]
    assert stated_event(FTC, [unit("The court scheduled a hearing.")]) is None


def test_a_question_that_asks_what_is_no_yes_or_no() -> None:
    # analyst-fresh's Netflix 2015 question opens with a conditional "had": it asks a figure
    question = routed("According to Netflix's 2015 10-K, had foreign exchange rates "
                      "stayed at 2014 levels, approximately what would its International "
                      "streaming segment revenue have been in 2015?")
    said = unit("We believe international revenues would have been approximately $331 million "
                "higher in 2015 if foreign exchange rates had remained consistent with those for "
                "the year ended December 31, 2014.")
    assert stated_event(question, [said]) is None


def test_a_negation_or_condition_after_the_event_or_around_it_is_read_in_its_place() -> None:
    """The review's sentences: a clause of its own after the event, a condition, an
    expectation, and a word that only shares a verb's first letters."""
    approve = routed("Did the board approve a quarterly cash dividend?")
    paid_later = unit("On May 2, the board approved a quarterly cash dividend of $0.10 per share, "
                      "which has not yet been paid.")
    found = stated_event(approve, [paid_later])
    assert found is not None and found.text.startswith("Yes. ")
    merger = routed("Did the shareholders approve the proposed merger agreement?")
    pending = unit("The merger agreement is subject to approval by the shareholders at a "
                   "special meeting.")
    assert stated_event(merger, [pending]) is None
    sale = routed("Did the company complete the sale of its chemicals business?")
    for said in ("The sale of the chemicals business is expected to be completed in the fourth "
                 "quarter.", "If we do not complete the sale of the chemicals business, our "
                 "results could suffer."):
        assert stated_event(sale, [unit(said)]) is None, said
    covenants = routed("Was the company in compliance with its financial covenants at "
                       "year end?")
    ended = unit("During the year we terminated the revolving credit facility and its financial "
                 "covenants at year end.")
    # "terminated" is no "compliance", and a sentence of the covenants alone states none
    assert stated_event(covenants, [ended]) is None


def test_a_sentence_that_opens_no_says_no_and_a_word_ending_in_no_does_not() -> None:
    bought = routed("Did Pfizer repurchase any common shares in the first half of 2023?")
    none = unit("No common share repurchases have been completed to date in 2023.")
    found = stated_event(bought, [none])
    assert found is not None and found.text.startswith("No. ")
    # "casino" ends in "no": no negation of what follows it
    # the 40 characters before "repurchased" open with the "no " that ends "casino"
    some = unit("In 2023 our Macau casino, joined by each of its subsidiaries, "
                "repurchased common shares under the program.")
    found = stated_event(bought, [some])
    assert found is not None and found.text.startswith("Yes. ")


def test_the_occasion_a_question_dates_its_event_by_is_no_part_of_it() -> None:
    """MGM Resorts' Q4 2022 release (check's company; the question was written for it, so it
    is in-sample): "when it reported fourth-quarter 2022 results" dates the event, and its
    "when" asks nothing."""
    question = routed("Did MGM Resorts suspend its regular dividend when it reported "
                      "fourth-quarter 2022 results?")
    assert event_words(question.text) == ["suspend", "regular", "dividend"]
    said = ("Furthermore, the Company announced that our Board of Directors had determined to "
            "suspend our ongoing regular dividends in order to focus on our preferred method of "
            "returning value to shareholders through our share repurchase plan.")
    found = stated_event(question, [unit(said, "Exhibit 99.1")])
    assert found is not None and found.text == f"Yes. {said}"
    # a wh-word outside the dated occasion still asks more than a yes or no
    why = routed("Did MGM Resorts suspend its regular dividend when it reported "
                 "fourth-quarter 2022 results, and why did it?")
    assert why.expects == "yes_no" and stated_event(why, [unit(said, "Exhibit 99.1")]) is None
    # a results phrase that names more than the period is the event's own qualifier
    segment = routed("Did Acme record a restructuring charge in its wholesale business "
                     "results?")
    assert "wholesale" in event_words(segment.text)


SEAGEN = routed("Had Seagen's shareholders approved Pfizer's proposed acquisition as of "
                "Pfizer's Q2 2023 10-Q?")
APPROVED = "The transaction was approved by Seagen’s shareholders in May 2023."


def test_a_party_the_clause_names_is_read_where_retrieval_did_not_look() -> None:
    # Pfizer's Q2 2023 10-Q prints the approval once, in a note retrieval did not return
    asked: list[str] = []

    def scan(patterns: list[re.Pattern[str]]) -> list[EvidenceUnit]:
        asked.extend(p.pattern for p in patterns)
        return [unit("We expect to finance the transaction with debt."), unit(APPROVED)]

    assert stated_event(SEAGEN, [unit("Business development activities impacted results.")]
                        ) is None
    found = stated_event(SEAGEN, [unit("Business development activities impacted results.")],
                         scan=scan)
    assert found is not None and found.text == f"Yes. {APPROVED}"
    assert asked == [r"\bSeagen\b"]  # the party, not the filer


def test_a_condition_or_a_proposed_deal_states_no_event() -> None:
    done = routed("Has Pfizer completed its acquisition of Seagen?")
    condition = unit("The notes are subject to a special mandatory redemption if the proposed "
                     "acquisition of Seagen is terminated or does not close by an agreed date.")
    financing = unit("In May 2023, we completed a public offering of $31 billion of senior "
                     "unsecured notes as part of the financing for our proposed acquisition of "
                     "Seagen.")
    assert stated_event(done, [condition]) is None  # no "No" from an "if ... terminated"
    assert stated_event(done, [financing]) is None  # the offering was completed, not the deal


def test_the_year_of_the_clause_and_no_longer() -> None:
    # Foot Locker's 8-K of August 19, 2022: the 2022 bonus kept, the 2023 one not
    question = routed("Under his August 2022 letter agreement with Foot Locker, will Richard "
                      "Johnson be eligible for an annual bonus for the 2023 fiscal year?")
    assert question.expects == "yes_no"
    kept = unit("Pursuant to the letter agreement, Mr. Johnson will remain eligible for a bonus "
                "under the Company's annual bonus plan for the 2022 fiscal year.")
    lost = unit("In addition, Mr. Johnson will no longer be eligible receive annual equity "
                "awards or to participate in the annual bonus plan for the 2023 fiscal year.")
    found = stated_event(question, [kept, lost])
    assert found is not None and found.text == f"No. {lost.text}"
    assert stated_event(question, [kept]) is None


def test_an_agreement_is_no_closing_and_another_partys_deal_is_not_this_one() -> None:
    # American Water's 2021 10-K: the York City deal was signed in 2021 and expected to close
    # in 2022; the year's 23 closed acquisitions are of other sellers
    question = routed("Had American Water's Pennsylvania subsidiary closed its acquisition of "
                      "the York City Sewer Authority's wastewater assets by the time of the "
                      "company's 2021 Form 10-K?").model_copy(
        update={"companies": ["American Water"]})
    others = unit("During 2021, the Company closed on 23 acquisitions of various regulated "
                  "water and wastewater systems, including the water and wastewater system "
                  "assets of Valley Township in Pennsylvania on November 19, 2021.")
    signed = unit("On April 6, 2021, the Company's Pennsylvania subsidiary entered into an "
                  "agreement to acquire the wastewater assets of the York City Sewer Authority "
                  "for $235 million, plus an amount of average daily revenue calculated for the "
                  "period between the final meter reading and the date of closing.")
    assert stated_event(question, [others, signed]) is None


def test_a_forward_looking_statements_list_is_no_event() -> None:
    question = routed("As of Walmart's 10-Q for the quarter ended April 30, 2023, had its "
                      "nationwide opioid Settlement Framework taken effect?").model_copy(
        update={"companies": ["Walmart"]})
    # Walmart's Q1 fiscal 2024 10-Q, as it prints the list: its words and the party, no event
    listed = unit("Forward-looking Statements The forward-looking statements in this report "
                  "include, among other things: • statements in Note 6 to those Condensed "
                  "Consolidated Financial Statements regarding the possible outcome of, and "
                  "future effect on Walmart's financial condition and results of operations of, "
                  "certain other matters to which Walmart is subject, including the Company's "
                  "Opioids Litigation, the Settlement Framework, Walmart's ongoing "
                  "indemnification obligation.", scope="")
    assert stated_event(question, [listed]) is None


def test_a_party_never_stands_in_for_the_verb_and_the_board_is_no_party() -> None:
    """The review's cases: a sentence that prints the parties but not what the question asks
    they did states nothing of it."""
    for question, said in [
        ("Did Corning exit its stake in Samsung Corning Precision?",
         "Corning increased its stake in Samsung Corning Precision Materials."),
        ("Did Walmart sell its stake in Seiyu to KKR?",
         "Walmart acquired an additional stake in Seiyu alongside KKR."),
        ("Did General Mills divest its Helper and Suddenly Salad businesses?",
         "Net sales of our Helper and Suddenly Salad businesses were $230 million in fiscal "
         "2022."),
        ("Did the Board of Directors of Costco declare a special dividend in fiscal 2021?",
         "The Board of Directors considered a special dividend in fiscal 2021."),
    ]:
        assert stated_event(routed(question), [unit(said)]) is None, question


def test_no_longer_answers_a_stopping_asked_and_nothing_else_terminated_is_no_closing() -> None:
    stopped = stated_event(routed("Did Netflix stop offering its DVD service?"),
                           [unit("Netflix no longer offers its DVD-by-mail service.")])
    assert stopped is None or stopped.text.startswith("Yes. ")
    nuts = routed("Did Kraft Heinz close the sale of its nuts business to Hormel?")
    closed = unit("Upon the closing of the sale of the nuts business to Hormel, we terminated "
                  "our transition services agreement.")
    found = stated_event(nuts, [closed])
    assert found is None or found.text.startswith("Yes. ")  # never "No" from "terminated"


def test_an_entry_booked_is_one_recognized_and_the_sentence_of_the_year_and_amount_leads() -> None:
    """Kraft Heinz's 2021 10-K states its impairments "recognized": an analyst's "book" is the
    same entry (``equivalents``); of two sentences that state it, the one of the year asked
    with its amounts answers."""
    question = routed("Did Kraft Heinz book impairment losses in fiscal 2021?")
    segment = unit("This impairment loss was recorded in our United States segment, consistent "
                   "with the ownership of the trademarks.")
    year = unit("As a result of our annual and interim impairment tests, we recognized goodwill "
                "impairment losses of $318 million and indefinite-lived intangible asset "
                "impairment losses of $1.3 billion in 2021, goodwill impairment losses of $2.3 "
                "billion and indefinite-lived intangible asset impairment losses of $1.1 billion "
                "in 2020.")
    found = stated_event(question, [segment, year])
    assert found is not None and found.text == f"Yes. {year.text}"


def test_shares_bought_back_are_shares_purchased() -> None:
    """Corning's Q2 2023 10-Q: "No shares were purchased on the open market ..." says no to
    a buyback asked in other words."""
    question = routed("Did Corning buy back shares on the open market in the first half of "
                      "2023?")
    said = unit("No shares were purchased on the open market during the three and six months "
                "ended June 30, 2023.")
    found = stated_event(question, [said])
    assert found is not None and found.text == f"No. {said.text}"


def test_an_ending_asked_is_said_by_no_longer_and_a_charge_is_no_net_loss() -> None:
    """The review's cases: "we no longer purchase components" after "we terminated" says yes
    to a termination asked; restructuring charges are no net loss."""
    ended = stated_event(routed("Did Acme terminate its supply agreement with Xylo in 2022?"),
                         [unit("In March 2022, we terminated our supply agreement with Xylo, and "
                               "we no longer purchase components under the supply agreement.")])
    assert ended is not None and ended.text.startswith("Yes. ")
    assert stated_event(routed("Did Acme record a net loss in 2022?"),
                        [unit("In 2022, Acme recorded net restructuring charges of $45 million, "
                              "and net income was $500 million.")]) is None


def test_a_disclosure_the_intent_lexicon_reads_is_never_said_from_shared_words() -> None:
    """Costco's 2018 10-K prints no major customer; its note on ASU 2014-09 shares the words
    "revenue", "customers" and "account" with the question, but a customer's share of revenue
    is the customers intent's disclosure (intent_lexicon.json), read by its own patterns."""
    question = routed("Does Costco have any customer that accounts for more than 10% of its "
                      "revenue?")
    assert "customers" in question.intents
    asu = unit("Recent Accounting Pronouncements Not Yet Adopted In May 2014, the FASB issued "
               "ASU 2014-09 providing for changes in the recognition of revenue from contracts "
               "with customers.", scope="Note 1")
    assert stated_event(question, [asu]) is None


def _said(question: Question, sentence: str, scope: str) -> str | None:
    """The reader's first line to ``question`` from one sentence under ``scope``, or None."""
    found = stated_event(question, [unit(sentence, scope=scope)])
    return None if found is None else found.text


def test_a_no_before_the_clauses_noun_says_no() -> None:
    """Costco's fiscal 2021 10-K (Item 7): "we have no off-balance sheet arrangements" says No;
    a sentence stating some (written here) says Yes."""
    question = routed("Does Costco have off-balance sheet arrangements as of fiscal 2021?")
    said = ("In the opinion of management, we have no off-balance sheet arrangements that have "
            "had or are reasonably likely to have a material current or future effect on our "
            "financial condition or financial statements.")
    assert _said(question, said, "Item 7") == f"No. {said}"
    stated = ("Our off-balance sheet arrangements consist of standby letters of credit and "
              "guarantees.")
    assert _said(question, stated, "Item 7") == f"Yes. {stated}"


def test_a_tie_to_a_matter_is_stated_by_the_matter() -> None:
    """Coca-Cola's 2017 10-K (its income taxes note) states the dispute, not that the company
    is "involved" in one; a risk factor's "could" states none."""
    question = routed("Is Coca-Cola involved in a tax dispute with the IRS?")
    assert event_words(question.clause) == ["tax", "dispute"]
    said = ("U.S. Federal Income Tax Dispute On September 17, 2015, the Company received a "
            "Statutory Notice of Deficiency (\"Notice\") from the IRS for the tax years 2007 "
            "through 2009, after a five-year audit.")
    risk = unit("Although we believe our tax estimates are reasonable, the final determination "
                "of tax audits with the IRS and any related disputes could be materially "
                "different.", scope="Item 1A. Risk Factors")
    found = stated_event(question, [risk, unit(said, scope="Note 14: Income Taxes")])
    assert found is not None and found.text == f"Yes. {said}"
    assert stated_event(question, [risk]) is None


def test_a_size_asked_after_the_yes_or_no_is_printed_by_its_sentence() -> None:
    """Costco's fiscal 2021 10-K (Item 1): "and how many?" with no verb of its own asks the
    size of the event the sentence states; a "what" of its own asks no yes or no."""
    question = routed("Did Costco open new warehouses in fiscal 2021, and how many?")
    said = ("We opened 22 new warehouses, including two relocations, in 2021, and plan to open "
            "approximately up to 35 additional new warehouses, including five relocations, in "
            "2022.")
    assert _said(question, said, "Item 1. Business") == f"Yes. {said}"
    what = routed("Did Costco open new warehouses in fiscal 2021, and what did they cost?")
    assert _said(what, said, "Item 1. Business") is None


def test_an_outlines_topic_is_no_event() -> None:
    """Coca-Cola's 2019 MD&A opens with an outline of its sections: "off-balance sheet
    arrangements" listed as a topic says neither yes nor no."""
    question = routed("Does Coca-Cola have any off-balance sheet arrangements as of 2019?")
    outline = ("• Liquidity, Capital Resources and Financial Position — an analysis of cash "
               "flows; off-balance sheet arrangements and aggregate contractual obligations; "
               "foreign exchange; and the impact of inflation and changing prices.")
    assert _said(question, outline, "Item 7") is None
