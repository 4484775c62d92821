"""The deals and issuances of a period, each in the sentence that states it (no store: units
built here; the same rule on real filings is in ``test_answer_forms_real.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from rag_assets.core.generation.disclosures import stated_deals
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.question.question import read_question


def _unit(text: str) -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c", document="acme-10k", year=2023, chunk_rank=0, page=40,
                        located=True, quote=text, text=text, scope="Item 7.")


def _next(pairs: Sequence[tuple[str, str]]):  # type: ignore[no-untyped-def]
    after = {a: _unit(b) for a, b in pairs}
    return lambda u: after.get(u.text)


def test_a_price_is_read_from_the_next_sentence_only_when_it_says_it_is_one() -> None:
    question = read_question("Which divestitures did Acme complete in 2023?")
    sale = "On March 1, 2023, the Company completed the sale of its Ohio subsidiary to Buyer."
    priced = "Buyer purchased the subsidiary for a purchase price of $608 million in cash."
    assets = "The assets of the disposal group totaled $3.3 billion at the date of sale."
    found = stated_deals(question, [_unit(sale)], following=_next([(sale, priced)]))
    assert found is not None and "$608 million" in found.text and len(found.units) == 2
    found = stated_deals(question, [_unit(sale)], following=_next([(sale, assets)]))
    assert found is not None and "$3.3 billion" not in found.text


def test_a_deal_named_by_a_defined_term_is_priced_where_the_term_is_defined() -> None:
    """The sentence that defines a deal's term with a price is read, even of the year the
    agreement was signed; a defined date, or a definition without a price, is not."""
    question = read_question("Which divestitures did Acme complete in 2023?")
    sale = ("In 2023, we completed the sale of certain assets in our global nuts business "
            "(the “Nuts Transaction”) on May 1, 2023 (the “Closing Date”).")
    defined = ("In December 2022, we entered into a definitive agreement with Buyer to sell "
               "certain assets in our global nuts business for total consideration of "
               "approximately $3.4 billion (the “Nuts Transaction”).")
    dated = "The Closing Date purchase price adjustment was $12 million (the “Closing Date”)."

    def scan(texts: Sequence[str]):  # type: ignore[no-untyped-def]
        return lambda patterns: [_unit(t) for t in texts if any(p.search(t) for p in patterns)]

    nothing_next = _next([])
    found = stated_deals(question, [_unit(sale)], scan=scan([sale, defined, dated]),
                         following=nothing_next)
    assert found is not None and found.text.count("$3.4 billion") == 1, found
    assert "$12 million" not in found.text and len(found.units) == 2
    unpriced = defined.replace("for total consideration of approximately $3.4 billion ", "")
    found = stated_deals(question, [_unit(sale)], scan=scan([sale, unpriced]),
                         following=nothing_next)
    assert found is not None and len(found.units) == 1, found


CORNING_2020_HSG = [  # Corning's 2020 10-K (wide), p69, p101, p68 as its reader splits them
    "As of September 9, 2020, HSG redeemed Dupont’s entire ownership of HSG with a value of $250 "
    "million (Redemption), Upon completion of the redemption, Corning obtained a 100% interest in "
    "HS LLC and 80.5% interest in HSO LLC.",
    "The Company obtained a controlling interest in Hemlock Semiconductor Group (“HSG”) during "
    "the third quarter of 2020 and has consolidated results in “All Other” as of September 9, "
    "2020.",
    "During the third quarter of 2020, Corning obtained a controlling interest in HSG and recorded "
    "deferred revenue of $1,070 million at fair value."]
CORNING_2020_NONE = "Acquisitions There were no material acquisitions completed in 2020 or 2019."


def test_a_deal_stated_again_by_its_short_name_is_listed_once_with_its_price() -> None:
    """ASC 805-10-25-11: a controlling interest obtained without a purchase is a business
    combination ("Corning obtained a 100% interest in HS LLC" when HSG redeemed DuPont's
    interest); the three sentences name one deal by "HSG", listed once, with its $250 million."""
    question = read_question("Which acquisitions did Corning complete in 2020?")
    found = stated_deals(question, [_unit(t) for t in CORNING_2020_HSG])
    assert found is not None and found.text.startswith("(1) As of September 9, 2020"), found
    assert "; (2)" not in found.text and "$250 million" in found.text


def test_none_is_the_sentence_that_says_no_deal_of_the_kind_was_completed() -> None:
    """Where no deal is stated, the filing's own "no material acquisitions completed in 2020"
    answers; of another year, or of acquisitions for a question of acquisitions and
    divestitures, it does not."""
    found = stated_deals(read_question("Which acquisitions did Corning complete in 2020?"),
                         [_unit(CORNING_2020_NONE)])
    assert found is not None and found.text == (
        "None: Acquisitions There were no material acquisitions completed in 2020 or 2019.")
    for question in ("Which acquisitions did Corning complete in 2021?",
                     "What acquisitions or divestitures did Corning complete in 2020?"):
        assert stated_deals(read_question(question), [_unit(CORNING_2020_NONE)]) is None


GENERAL_MILLS_2020_NONE = (
    "In our opinion, there were no claims or litigation pending as of May 31, 2020, that were "
    "reasonably likely to have a material adverse effect on our consolidated financial "
    "position or results of operations.")


def test_no_legal_matter_is_the_sentence_that_says_none_is_pending() -> None:
    """General Mills' 2020 10-K, Item 3 (p.16): no matter named, its sentence that none is
    material answers, of the filing's date; a sentence that excepts the matters it names
    ("other than") is no denial, nor a sentence that names a matter."""
    question = read_question("What legal proceedings does General Mills disclose in its FY2020 "
                             "10-K?")
    found = stated_deals(question, [_unit(GENERAL_MILLS_2020_NONE)])
    assert found is not None and found.text == f"None material: {GENERAL_MILLS_2020_NONE}"
    excepted = ("Other than as described above, we are not a party to any material pending "
                "legal proceedings.")
    assert stated_deals(question, [_unit(excepted)]) is None
    named = ("On May 4, 2020, a putative class action lawsuit, Smith v. Acme Corp., was filed "
             "against the Company in the U.S. District Court for the District of Minnesota.")
    found = stated_deals(question, [_unit(named), _unit(GENERAL_MILLS_2020_NONE)])
    assert found is not None and not found.text.startswith("None")


NETFLIX_2023_Q2_NONE = (
    "The Company is involved in litigation matters not listed herein but does not consider "
    "the matters to be material either individually or in the aggregate at this time.")


def test_no_legal_matter_named_and_the_rest_not_material_is_none() -> None:
    """Netflix's Q2 2023 10-Q, its legal note (p.16): no matter named, the sentence that the
    matters it does not list are not material answers; a sentence on what litigation may cost
    is no such sentence."""
    question = read_question("What legal proceedings does Netflix disclose in its Q2 2023 "
                             "10-Q?")
    found = stated_deals(question, [_unit(NETFLIX_2023_Q2_NONE)])
    assert found is not None and found.text == f"None material: {NETFLIX_2023_Q2_NONE}"
    other = ("Litigation can be expensive and disruptive to normal business operations, and "
             "its outcome may be material.")
    assert stated_deals(question, [_unit(other)]) is None


def test_whether_a_material_matter_is_pending_is_no_only_from_the_filings_conclusion() -> None:
    """Netflix's Q2 2023 10-Q: no matter named and the rest not material is "No"; a question
    that asks the proceedings a filing "describes" asks them named, as "disclose" does; a
    matter named leaves whether it is material to the quotes (never "Yes" from a count)."""
    asked = "Is Netflix involved in any material litigation as of Q2 2023?"
    assert _said(asked, NETFLIX_2023_Q2_NONE) == f"No. {NETFLIX_2023_Q2_NONE}"
    assert _said("What legal proceedings does Netflix describe in its Q2 2023 10-Q?",
                 NETFLIX_2023_Q2_NONE) == f"None material: {NETFLIX_2023_Q2_NONE}"
    # a matter named, of any year: not "No"
    named = ("In October 2020, a putative class action lawsuit, Smith v. Netflix, Inc., was "
             "filed against the Company in the U.S. District Court for the District of Delaware.")
    assert _said(asked, named, NETFLIX_2023_Q2_NONE) is None
    # a yes or no of anything but whether a material matter is pending: the quotes'
    for other in ("Has Netflix settled any lawsuits in 2023?",
                  "Did Netflix win its appeal in court in 2023?",
                  "Is Netflix involved in any lawsuits?",
                  "Is Netflix facing patent infringement litigation?"):
        assert _said(other, NETFLIX_2023_Q2_NONE) is None, other


NIKE_2022_NONE = (
    "We do not believe there are any material pending legal proceedings, other than ordinary "
    "routine litigation incidental to our business, to which we are a party or of which any of "
    "our property is the subject.")


def test_item_3s_conclusion_answers_over_a_case_another_note_names() -> None:
    """Nike's FY2022 10-K: Item 3 concludes no material matter is pending, beyond the routine
    litigation Item 103 leaves out (an "other than" that excepts no matter); the income tax
    note's "Altera Corp. v. Commissioner" is a tax reserve's, no proceeding Item 3 lists. A
    matter Item 3 itself names is listed."""
    question = read_question("What legal proceedings does Nike disclose in its FY2022 10-K?")
    tax = _unit("Income tax audit and contingency reserves for the fiscal year ended May 31, "
                "2021, reflects recognition of a reserve of 1.2% related to Altera Corp. v. "
                "Commissioner, where the taxpayer was denied a hearing before the U.S. Supreme "
                "Court on June 22, 2020.").model_copy(update={"scope": "Item 8."})
    item_3 = _unit(NIKE_2022_NONE).model_copy(update={"scope": "Item 3."})
    found = stated_deals(question, [tax, item_3])
    assert found is not None and found.text == f"None material: {NIKE_2022_NONE}", found
    named = _unit("On May 4, 2022, a putative class action lawsuit, Smith v. Nike, Inc., was "
                  "filed against the Company.").model_copy(update={"scope": "Item 3."})
    found = stated_deals(question, [tax, item_3, named])
    assert found is not None and "Smith v. Nike" in found.text, found
    # a litigation note's matter, and Item 3 excepting the matters a note describes
    noted = named.model_copy(update={"scope": "Item 8. | Note 19 — Litigation"})
    excepting = _unit(NIKE_2022_NONE.replace(", to which", " and the matters described in "
                                             "Note 19, to which")).model_copy(
        update={"scope": "Item 3."})
    for units in ([tax, item_3, noted], [tax, excepting, named.model_copy(
            update={"scope": "Item 8."})]):
        found = stated_deals(question, units)
        assert found is not None and "Smith v. Nike" in found.text, found


def _said(question: str, *sentences: str) -> str | None:
    """What the reader says to ``question`` from ``sentences``, or None."""
    found = stated_deals(read_question(question), [_unit(s) for s in sentences])
    return None if found is None else found.text


def test_a_deal_is_of_the_period_its_sentence_opens_with() -> None:
    """General Mills' 2015 10-K: the grain elevators were sold "In the fourth quarter of fiscal
    2014", their working capital adjustment finalized in fiscal 2015: a deal of fiscal 2014,
    not one of fiscal 2015 (Annie's, acquired "In the second quarter of fiscal 2015", is)."""
    question = read_question("What acquisitions or divestitures did General Mills complete in "
                             "FY2015?")
    sold = ("In the fourth quarter of fiscal 2014, we sold certain grain elevators for $124 "
            "million in cash, including a working capital adjustment finalized in the first "
            "quarter of fiscal 2015.")
    bought = ("In the second quarter of fiscal 2015, we acquired Annie’s, a publicly traded "
              "food company headquartered in Berkeley, California, for an aggregate purchase "
              "price of $809 million, net of $12 million of cash acquired.")
    found = stated_deals(question, [_unit(sold), _unit(bought)])
    assert found is not None and "Annie’s" in found.text and "grain" not in found.text


def test_a_heading_in_capitals_names_no_period_of_the_deal_run_into_it() -> None:
    """General Mills' fiscal 2019 10-K (MD&A): Blue Buffalo, acquired "In fiscal 2018", under
    the heading "FISCAL 2019 CONSOLIDATED RESULTS OF OPERATIONS" run into its sentence, is no
    acquisition of fiscal 2019."""
    said = ("FISCAL 2019 CONSOLIDATED RESULTS OF OPERATIONS In fiscal 2018, we acquired Blue "
            "Buffalo, which became our Pet operating segment.")
    assert _said("Did General Mills complete any acquisitions in fiscal 2019?", said) is None
    found = _said("Did General Mills complete any acquisitions in fiscal 2018?", said)
    assert found is not None and "Blue Buffalo" in found


def test_a_risk_factors_example_is_no_matter_and_item_3s_come_first() -> None:
    """American Water's 2020 10-K: Item 1A's "For example, our New York subsidiary experienced
    ... an investigation by the New York State Public Service Commission" is a risk, not a
    matter pending (Regulation S-K Item 105 against Item 103); Item 3's matters are listed
    before those stated elsewhere."""
    question = read_question("What legal proceedings does Acme disclose in its FY2020 10-K?")
    risk = _unit("For example, our New York subsidiary experienced increased scrutiny related "
                 "to an investigation by the New York State Public Service Commission.")
    risk = risk.model_copy(update={"scope": "Item 1A. Risk Factors"})
    business = _unit("On November 25, 2020, the Company’s California subsidiary filed a petition "
                     "challenging this certification in the Superior Court.")
    business = business.model_copy(update={"scope": "Item 1. Business"})
    item3 = _unit("On May 8, 2020, the City of Chattanooga filed a lawsuit against the Company "
                  "in the Circuit Court.")
    item3 = item3.model_copy(update={"scope": "Item 3. Legal Proceedings"})
    found = stated_deals(question, [risk, business, item3])
    assert found is not None and "Public Service Commission" not in found.text
    assert found.text.startswith("(1) On May 8, 2020, the City of Chattanooga"), found.text


def test_two_issuances_of_notes_of_one_kind_are_two() -> None:
    question = read_question("Which debt offerings did Acme complete in 2023?")
    first = ("In May 2023, the Company issued $500 million aggregate principal amount of 4.0% "
             "Senior Notes due 2028.")
    second = ("In June 2023, the Company issued $750 million aggregate principal amount of 5.0% "
              "Senior Notes due 2033.")
    found = stated_deals(question, [_unit(first), _unit(second)])
    assert found is not None and found.text.count("; (") == 1, found and found.text
    assert "$500 million" in found.text and "$750 million" in found.text


def test_proceeds_asked_of_a_sale_list_no_issuance() -> None:
    question = read_question("Which businesses did Acme sell in 2023, and what were the net "
                             "proceeds?")
    sale = ("On March 1, 2023, the Company completed the sale of its Ohio subsidiary for $608 "
            "million.")
    notes = ("In May 2023, the Company issued $800 million aggregate principal amount of 4.0% "
             "Senior Notes due 2028.")
    found = stated_deals(question, [_unit(sale), _unit(notes)])
    assert found is not None and "Ohio" in found.text and "Senior Notes" not in found.text


def test_a_deal_of_a_quarter_is_one_of_its_year_not_of_another_quarter() -> None:
    """A deal is an event: General Mills' FY2017 10-K (p. 70) dates its sale of the Martel
    plant by the quarter of the year asked; a quarter's question does not take a deal the
    sentence dates only by the nine months around it."""
    sale = ("During the second quarter of fiscal 2017, we sold our Martel, Ohio manufacturing "
            "facility in our Convenience Stores & Foodservice segment.")
    earlier = ("During the fourth quarter of fiscal 2016, we sold our General Mills de Venezuela "
               "CA subsidiary to a third party.")
    found = stated_deals(read_question("Which divestitures did General Mills complete in "
                                       "FY2017?"), [_unit(sale), _unit(earlier)])
    assert found is not None and "Martel" in found.text and "Venezuela" not in found.text
    nine = ("During the nine months ended September 30, 2023, the Company sold its Ohio "
            "subsidiary for $60 million.")
    assert stated_deals(read_question("Which divestitures did Acme complete in Q3 2023?"),
                        [_unit(nine)]) is None


def test_a_deal_that_names_no_year_goes_on_with_the_sentence_before() -> None:
    """General Mills' FY2017 10-K (p. 70): "In addition, we sold our General Mills Argentina
    S.A. foodservice business" follows the Martel sale of the second quarter of fiscal 2017
    and the sentence that gives its price; the same after a sale of fiscal 2016 is of 2016."""
    martel = ("During the second quarter of fiscal 2017, we sold our Martel, Ohio manufacturing "
              "facility.")
    argentina = ("In addition, we sold our General Mills Argentina S.A. foodservice business in "
                 "Argentina to a third party and recorded a pre-tax loss of $14.8 million.")
    venezuela = ("During the fourth quarter of fiscal 2016, we sold our General Mills de "
                 "Venezuela CA subsidiary.")
    price = "We received $17.5 million in cash, and recorded a pre-tax loss of $13.5 million."
    question = read_question("Which divestitures did General Mills complete in FY2017?")
    for before, listed in ((martel, True), (venezuela, False)):
        found = stated_deals(question, [_unit(before), _unit(argentina)],
                             preceding=_next([(argentina, price), (price, before)]))
        assert (found is not None and "Argentina" in found.text) is listed, found


def test_a_matter_named_goes_before_the_routine_litigation_item_103_leaves_out() -> None:
    """Corning's 10-K Item 3 (FY2022, p19): its routine lawsuits first, then the Superfund
    sites it is a potentially responsible party for; the matter named leads."""
    question = read_question("What legal proceedings does Acme disclose in its 2023 10-K?")
    routine = ("Acme is a defendant in various lawsuits and is subject to various claims that "
               "arise in the normal course of business, the most significant of which are "
               "summarized in Note 13 (Commitments, Contingencies and Guarantees).")
    superfund = ("Acme has been designated by federal or state governments under environmental "
                 "laws, including Superfund, as a potentially responsible party that may be "
                 "liable for cleanup costs associated with 19 hazardous waste sites.")
    found = stated_deals(question, [_unit(routine), _unit(superfund)])
    assert found is not None
    assert found.text.startswith("(1) Acme has been designated by federal or state governments")
    assert "(2) Acme is a defendant in various lawsuits" in found.text
    alone = stated_deals(question, [_unit(routine)])
    assert alone is not None and alone.text.startswith("(1) Acme is a defendant")


def test_a_policy_that_mentions_responsible_parties_designates_nobody() -> None:
    """Corning's accounting policy (FY2022, p67): "For sites with multiple potentially
    responsible parties, the Company considers its likely proportionate share ..." names no
    matter, where Item 3's designation ("as a potentially responsible party") does."""
    question = read_question("What legal proceedings does Acme disclose in its 2023 10-K?")
    policy = ("For sites with multiple potentially responsible parties, the EPA and Acme "
              "consider each party's likely proportionate share of the remediation costs.")
    assert stated_deals(question, [_unit(policy)]) is None


def test_a_sentence_on_a_matter_named_before_it_is_no_matter_of_its_own() -> None:
    """American Water Works' 10-Q for Q2 2023 (bulk, Part II Item 1): "... believe that WVAWC
    has valid, meritorious defenses to the claims raised in this class action complaint" is the
    Dunbar matter's status, after the sentence that names it."""
    question = read_question("What legal proceedings does Acme disclose in its Q2 2023 10-Q?")
    named = ("Dunbar, West Virginia Water Main Break Class Action Litigation On the evening of "
             "June 23, 2015, a 36-inch pre-stressed concrete transmission water main, installed "
             "in the early 1970s, failed.")
    status = ("The Company and WVAWC believe that WVAWC has valid, meritorious defenses to the "
              "claims raised in this class action complaint.")
    found = stated_deals(question, [_unit(status), _unit(named)])
    assert found is not None and found.text.startswith("(1) Dunbar, West Virginia"), found
    assert "meritorious defenses" not in found.text


def test_a_deal_sentence_cut_before_its_price_is_read_whole_where_it_defines_its_term() -> None:
    """JPMorgan's 10-Q for Q2 2023 (bulk): a chunk cut "... of First Republic Bank (the “First
    Republic acquisition”) from the Federal Deposit Insurance Corporation (“FDIC”)"; the page
    prints the same sentence on, "as receiver, for $67.9 billion": that sentence is the deal,
    once, and "FDIC" (an agency) is no deal's term."""
    question = read_question("Which acquisition did JPMorgan complete in Q2 2023?")
    cut = ("On May 1, 2023, JPMorgan Chase acquired certain assets and assumed certain "
           "liabilities of First Republic Bank (the “First Republic acquisition”) from the "
           "Federal Deposit Insurance Corporation (“FDIC”).")
    whole = ("Business Developments First Republic acquisition On May 1, 2023, JPMorgan Chase "
             "acquired certain assets and assumed certain liabilities of First Republic Bank "
             "(the \"First Republic acquisition\") from the Federal Deposit Insurance Corporation "
             "(“FDIC”), as receiver, for $67.9 billion, resulting in an estimated bargain "
             "purchase gain of $2.7 billion recorded in other income.")
    found = stated_deals(question, [_unit(cut)], following=_next([]),
                         scan=lambda patterns: [_unit(t) for t in (cut, whole)
                                                if any(p.search(t) for p in patterns)])
    assert found is not None and found.text == f"(1) {whole}", found
    assert [u.quote for u in found.units] == [whole]


def test_a_matter_item_103_identifies_goes_before_a_generic_sentence() -> None:
    """Lockheed Martin's 2021 10-K (dev): Item 3 says it is "subject to various audits and
    investigations by the U.S. Government", the contingencies note names its cases with
    their courts and dates (Item 103: the court, the date instituted, the parties): the cases
    lead, the general sentence after them."""
    question = read_question("What legal proceedings does Acme disclose in its 2021 10-K?")
    general = _unit("As a U.S. Government contractor, we are subject to various audits and "
                    "investigations by the U.S. Government to determine whether our operations "
                    "are being conducted in accordance with applicable regulatory requirements.")
    general = general.model_copy(update={"scope": "Item 3. Legal Proceedings"})
    case = _unit("Acme v. Metropolitan Transportation Authority On April 24, 2009, we filed a "
                 "declaratory judgment action against the New York Metropolitan Transportation "
                 "Authority asking the U.S. District Court for the Southern District of New "
                 "York to find that the MTA is in material breach of our agreement.")
    case = case.model_copy(update={"scope": "Note 14. Legal Proceedings, Commitments and "
                                            "Contingencies"})
    found = stated_deals(question, [general, case])
    assert found is not None
    assert found.text.startswith("(1) Acme v. Metropolitan Transportation Authority"), found.text
    assert "(2) As a U.S. Government contractor" in found.text


def test_a_filing_verb_or_a_period_end_alone_is_no_particular() -> None:
    """"... lawsuits have been filed ... and more may be filed", dated by a period's end,
    names no court, no caption and no date a proceeding was instituted on: Item 3's matter
    leads it."""
    question = read_question("What legal proceedings does Acme disclose in its 2023 10-K?")
    general = _unit("As of December 31, 2023, several class action lawsuits have been filed "
                    "against Beta Foods and other companies in our industry, and more may be "
                    "filed.")
    matter = _unit("The Company received a civil investigative demand from the U.S. Department "
                   "of Justice concerning its pricing practices.")
    matter = matter.model_copy(update={"scope": "Item 3. Legal Proceedings"})
    found = stated_deals(question, [general, matter])
    assert found is not None
    assert found.text.startswith("(1) The Company received a civil investigative demand"), found


def test_the_matters_of_what_the_question_names_lead() -> None:
    """"What class action lawsuits over water main failures ...?" (American Water's 2020 10-K,
    prose-dev): the matters whose sentences print what the question names them by ("main",
    "fail") lead those it does not name, however particular."""
    question = read_question("What class action lawsuits over water main failures does Acme "
                             "disclose in its 2020 10-K?")
    petition = _unit("In August 2019, MCWD filed a petition in Monterey County Superior Court "
                     "challenging the County's approval of the permit application.")
    dunbar = _unit("Dunbar, West Virginia Water Main Break Class Action Litigation On the "
                   "evening of June 23, 2015, a 36-inch transmission water main, installed in "
                   "the early 1970s, failed.")
    found = stated_deals(question, [petition, dunbar])
    assert found is not None and found.text.startswith("(1) Dunbar, West Virginia"), found


def test_a_deal_the_question_names_is_answered_by_its_own_sentences_only() -> None:
    """Pfizer's Q2 2023 10-Q: "the proposed acquisition of Seagen" is asked; the completed
    acquisition of GBT is another deal, never its answer; GBT's, asked, is."""
    question = read_question("What is the purchase price of Pfizer's proposed acquisition of "
                             "Seagen?")
    gbt = _unit("On October 5, 2022, we acquired GBT, a biopharmaceutical company, for $68.50 "
                "per share in cash, for total consideration of $5.4 billion.")
    seagen = _unit("We continue to make progress toward our proposed acquisition of Seagen.")
    assert stated_deals(question, [gbt, seagen]) is None
    assert stated_deals(read_question("What is the purchase price of Pfizer's proposed "
                                      "acquisition of Seagen Inc.?"), [gbt, seagen]) is None
    found = stated_deals(read_question("Which acquisition of GBT did Pfizer complete in "
                                       "2022?"), [gbt, seagen])
    assert found is not None and "GBT" in found.text
