"""An 8-K answered from the body of the Item asked, on Costco's real 8-K of August 9, 2023
(Item 5.03 bylaws, Item 8.01 a dividend, Item 9.01 exhibits): questions worded apart from the
analyst-tune set that chose the rule."""

from __future__ import annotations

from functools import cache

import pytest

from rag_assets.core.evaluation.answer_correctness import answer_lead
from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.current_items import _release_sentences, current_item
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.report_items import report_items
from rag_assets.core.ingest.routing import cover_profile
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")

DOCUMENT = "costco-8k-2023-08-09"


EIGHT_K = "financebench-bulk/pdfs/COSTCO_2023_8K_dated-2023-08-09.pdf"
TEN_K = "financebench-wide/pdfs/COSTCO_2021_10K.pdf"


@cache
def _pages(path: str) -> PageTexts:
    return PageTexts.from_pages(DOCUMENT, 2023, real_filing(path).pages)


def _answer(question: str, path: str = EIGHT_K) -> str | None:
    pages = _pages(path)
    found = current_item(read_question(question), DOCUMENT, 2023, [
        (p, pages.get(DOCUMENT, 2023, p) or "") for p in pages.pages_of(DOCUMENT, 2023)])
    if found is None:
        return None
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return found.text


def test_the_item_asked_is_answered_by_its_body_its_bullets_numbered() -> None:
    text = _answer("What changes did Costco make to its bylaws in August 2023?")
    assert text is not None
    lead = answer_lead(text)  # one sentence: the Item, the list's opening, every bullet
    assert lead.startswith("Item 5.03 (Amendments to Articles of Incorporation or Bylaws; "
                           "Change in Fiscal Year): The amendments: (1) implement requirements")
    assert "Rule 14a-19" in lead and "(2) make indemnification of officers required" in lead
    assert "(3) make various other updates." in lead
    assert "qualified in its entirety" not in text  # the pointer to the exhibit ends it
    assert "/s/" not in text  # never the signature block


def test_the_item_is_the_one_the_question_words_name() -> None:
    text = _answer("What other events did Costco report in its August 9, 2023 8-K?")
    assert text is not None and text.startswith("Item 8.01 (Other Events): ")


def test_a_question_of_the_report_as_a_whole_is_answered_by_every_item() -> None:
    for question in ("What is the key agenda of Costco's 8-K dated August 9, 2023?",
                     "Which Items does Costco's current report of August 9, 2023 state?"):
        text = _answer(question)
        assert text is not None
        # one sentence: each Item with its first printed sentence, and the first of the next
        # ones that states an amount when the opening states none (the dividend's terms)
        lead = answer_lead(text)
        assert lead.startswith("The report states 3 Items: Item 5.03 (Amendments to Articles "
                               "of Incorporation or Bylaws; Change in Fiscal Year): The Board of "
                               "Directors of Costco Wholesale Corporation amended and restated "
                               "the Company’s Bylaws")
        assert ("; Item 8.01 (Other Events): The Board of Directors declared a quarterly cash "
                "dividend on the Company's common stock; The dividend of $1.02 per share "
                "declared on August 9, 2023, is payable September 8, 2023, to shareholders of "
                "record at the close of business on August 25, 2023; Item 9.01") in lead
        assert lead.endswith("Item 9.01 (Financial Statements and Exhibits): Exhibit 3.2 (Bylaws "
                             "as amended of Costco Wholesale Corporation), Exhibit 99.1 (Press "
                             "release dated August 9, 2023), Exhibit 104 (Cover Page Interactive "
                             "Data File (embedded within the Inline XBRL document)).")
        assert "/s/" not in text


def test_exhibits_asked_are_item_9_01_and_a_signer_is_no_item() -> None:
    text = _answer("What exhibits did Costco file with its August 2023 8-K?")
    assert text is not None and answer_lead(text) == (
        "Item 9.01 (Financial Statements and Exhibits): Exhibit 3.2 (Bylaws as amended of "
        "Costco Wholesale Corporation), Exhibit 99.1 (Press release dated August 9, 2023), "
        "Exhibit 104 (Cover Page Interactive Data File (embedded within the Inline XBRL "
        "document)).")
    assert _answer("Who signed Costco's 8-K of August 9, 2023?") is None  # the quotes answer


def test_whether_exhibits_were_filed_is_yes_with_item_9_01s_list() -> None:
    text = _answer("Did Costco's 8-K dated August 9, 2023 include any financial statements "
                   "or exhibits?")
    assert text is not None and answer_lead(text).startswith(
        "Yes. Item 9.01 (Financial Statements and Exhibits): Exhibit 3.2 (Bylaws as amended")


def test_not_an_8k_or_not_a_text_question_gives_nothing() -> None:
    assert _answer("How many bylaws amendments did Costco make?") is None  # a figure asked
    # a share is a figure too: the release's warehouse count answers, not Item 8.01's dividend
    assert _answer("What share of Costco's warehouses were in the United States as of the "
                   "8-K dated August 9, 2023?") is None
    assert _answer("What changes did Costco make to its bylaws?", TEN_K) is None  # its cover


def test_names_of_no_one_item_are_left_to_the_quotes() -> None:
    """The countries of the release's e-commerce sites are named by no Item: the list of
    Items answers nothing asked (retrieval quotes the release's sentence)."""
    pages = _pages(EIGHT_K)
    asked = read_question("Besides the United States, in which countries did Costco run "
                          "e-commerce sites, according to the press release attached to its "
                          "August 9, 2023 8-K?").model_copy(update={"companies": ["Costco"]})
    assert current_item(asked, DOCUMENT, 2023, [
        (p, pages.get(DOCUMENT, 2023, p) or "") for p in pages.pages_of(DOCUMENT, 2023)]) is None


def test_a_question_of_the_cover_or_the_signer_is_left_to_the_quotes() -> None:
    for question in ("Where are Costco's principal executive offices located, per its August "
                     "2023 8-K?", "In which state is Costco incorporated, per its 8-K of August "
                     "9, 2023?", "On which exchange is Costco's common stock listed, according "
                     "to its 8-K dated August 9, 2023?", "What is the date of the earliest "
                     "event reported in Costco's 8-K dated August 9, 2023?"):
        assert _answer(question) is None, question


def test_an_event_the_report_files_under_no_item_is_a_no_with_the_items_it_states() -> None:
    """Form 8-K files an officer's or a director's change under Item 5.02; Costco's report
    states 5.03, 8.01 and 9.01, so it reported none, though 5.03 (bylaws) is of the same
    governance section and its body names the Board of Directors."""
    text = _answer("Did Costco's 8-K dated August 9, 2023 report any change in its officers "
                   "or directors?")
    assert text is not None
    assert answer_lead(text).startswith(
        "No. The report states no Item 5.02 (Departure of Directors or Certain Officers; "
        "Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of "
        "Certain Officers); its Items: Item 5.03")
    # an event the report states (5.03) is not answered "Yes" from its Item's presence: what
    # the event was is read from the body by the quotes
    assert _answer("Did Costco's 8-K dated August 9, 2023 report new bylaws for its board of "
                   "directors?") is None
    # a dividend has no Item of its own (Item 8.01, other events, may hold anything): the
    # Items say neither yes nor no, and the quotes answer
    assert _answer("Did Costco announce a dividend in its 8-K dated August 9, 2023?") is None
    # earnings results are Item 2.02's (Results of Operations and Financial Condition)
    text = _answer("Does Costco's 8-K dated August 9, 2023 report earnings results?")
    assert text is not None and answer_lead(text).startswith(
        "No. The report states no Item 2.02 (Results of Operations and Financial Condition)")


INTEL = "damaged/INTEL_2023_8K_dated-2023-08-16.pdf"


def test_which_items_lists_every_item_where_the_report_states_one_event() -> None:
    """Intel's damaged 8-K of August 16, 2023 (repaired on load) states Item 7.01 and Item
    9.01: asked which Items, both, not its one event Item alone."""
    pages = PageTexts.from_pages("intel-8k", 2023, real_filing(INTEL).pages)
    listed = [(p, pages.get("intel-8k", 2023, p) or "") for p in pages.pages_of("intel-8k", 2023)]
    found = current_item(read_question("Which Items does Intel's 8-K dated August 16, 2023 "
                                       "report?"), "intel-8k", 2023, listed)
    assert found is not None and found.text.startswith("The report states 2 Items: Item 7.01")
    assert "Item 9.01 (Financial Statements and Exhibits): Exhibit 99.1" in found.text


OFFICER_8K = "financebench-wide/pdfs/FOOTLOCKER_2022_8K_dated_2022-08-19.pdf"
OFFICER_DOCUMENT = "foot-locker-8k-2022-08-19"


@cache
def _officer_pages() -> PageTexts:
    return PageTexts.from_pages(OFFICER_DOCUMENT, 2022, real_filing(OFFICER_8K).pages)


def _officer_answer(question: str) -> str:
    """The answer to a question read as the engine reads it: the company routed from the
    report's cover (its words are the company's, not the question's own)."""
    pages = _officer_pages()
    profile = cover_profile(OFFICER_DOCUMENT, 2022, real_filing(OFFICER_8K).pages)
    found = current_item(read_question(question, [profile]), OFFICER_DOCUMENT, 2022, [
        (p, pages.get(OFFICER_DOCUMENT, 2022, p) or "")
        for p in pages.pages_of(OFFICER_DOCUMENT, 2022)])
    assert found is not None, question
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return found.text


TITLE_5_02 = ("Item 5.02 (Departure of Directors or Certain Officers; Election of Directors; "
              "Appointment of Certain Officers; Compensatory Arrangements of Certain Officers): ")


def test_an_item_heading_printed_over_two_lines_is_its_title_not_its_first_sentence() -> None:
    """Foot Locker prints 5.02's heading as "...; Compensatory" / "Arrangements of Certain
    Officers.": the second line ends the Form's title, so the body opens on the event."""
    lead = answer_lead(_officer_answer("What did Foot Locker's 8-K of August 19, 2022 report?"))
    assert lead.startswith(f"{TITLE_5_02}On August 19, 2022, Foot Locker, Inc.")
    assert "Richard A. Johnson will step down as President and Chief Executive Officer" in lead


def test_the_item_sentence_that_answers_the_question_leads() -> None:
    """The body's sentence that shares most of the question's own words leads (the
    appointment, the salary, the awards on the body's second page), then the body from its
    opening; a question of the event as a whole keeps the opening first (above)."""
    lead = answer_lead(_officer_answer(
        "Who did Foot Locker appoint as its new CEO, and when does the appointment take "
        "effect?"))
    assert lead.startswith(f"{TITLE_5_02}Mary N. Dillon, 61, former Executive Chair and Chief "
                           "Executive Officer of Ulta Beauty, Inc., has been appointed")
    assert lead.endswith("each effective September 1, 2022.")
    lead = answer_lead(_officer_answer(
        "What base salary will Foot Locker's new chief executive receive?"))
    assert "base salary of not less than $1,300,000 annually" in lead
    lead = answer_lead(_officer_answer("What inducement awards will Mary Dillon receive?"))
    assert "employment inducement awards" in lead and "$5,000,000" in lead
    text = _officer_answer("What severance payments would Ms. Dillon receive if the company "
                           "terminated her employment other than for cause?")
    assert answer_lead(text).startswith(f"{TITLE_5_02}If Ms. Dillon’s employment is terminated")
    assert "two years’ base salary continuation" in answer_lead(text)  # on the next page


def test_the_rarest_of_the_questions_words_chooses_the_sentence() -> None:
    """"bonus" is printed in three of the body's sentences, "sign-on" in one: the sign-on
    bonus leads, not the base salary's sentence that also says "receive" and "bonus"."""
    lead = answer_lead(_officer_answer("What sign-on bonus will Mary Dillon receive?"))
    assert lead.startswith(f"{TITLE_5_02}Within 30 days of her commencement of employment")
    assert "cash sign-on bonus equal to $250,000" in lead


def _acme_answer(question: str, pages: list[tuple[int, str]]) -> str | None:
    found = current_item(read_question(question), "acme-8k-2023-05-01", 2023, pages)
    return None if found is None else found.text


ACME_COVER = (0, "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 8-K\nCURRENT REPORT\n"
                 "Acme Corp.")


def test_a_heading_wrapped_over_two_lines_and_a_body_that_ends_with_its_page() -> None:
    """Form 8-K's titles in full (``sections.json``): Item 2.03 printed over two lines is its
    title, not its body's first sentence; a body whose page ends a sentence ends there (the
    next page, a signature page without its heading, is no part of it); a body cut mid
    sentence by the page break goes on, its page number left out."""
    item = ("Item 2.03 Creation of a Direct Financial Obligation or an Obligation under an "
            "Off-Balance\nSheet Arrangement of a Registrant.\n")
    ended = [ACME_COVER, (1, f"{item}On May 1, 2023, Acme issued $500 million of 5.25% notes "
                             "due 2033.\nThe notes were issued under the indenture."),
             (2, "Pursuant to the requirements of the Securities Exchange Act of 1934, the "
                 "registrant has duly caused this report to be signed.\nBy: /s/ Jane Doe")]
    text = _acme_answer("What did Acme announce in its 8-K dated May 1, 2023?", ended)
    assert text is not None
    assert text.startswith("Item 2.03 (Creation of a Direct Financial Obligation or an "
                           "Obligation under an Off-Balance Sheet Arrangement of a Registrant): "
                           "On May 1, 2023, Acme issued $500 million")
    assert "Pursuant" not in text and "/s/" not in text
    cut = [ACME_COVER, (1, f"{item}On May 1, 2023, Acme issued notes payable on June 1, 2024 "
                           "to holders of\n2"),
           (3, "record on May 15, 2024.\nSIGNATURES")]
    text = _acme_answer("What did Acme announce in its 8-K dated May 1, 2023?", cut)
    assert text is not None and "to holders of record on May 15, 2024." in text


def test_every_item_form_8k_names_bounds_the_one_before() -> None:
    """Block's 8-K of January 28, 2022 (the Afterpay acquisition) states seven Items; Item
    3.02 (Unregistered Sales of Equity Securities) is one of Form 8-K's, so its text is its own,
    not the end of Item 2.03's body."""
    path = "financebench-bulk/pdfs/BLOCK_2022_8K_dated-2022-01-28.pdf"
    pages = [(p.page_index, p.text) for p in real_filing(path).pages]
    items = report_items(pages)
    assert [i.number for i in items] == ["1.01", "2.01", "2.03", "3.02", "5.02", "7.01", "9.01"]
    obligation = next(i for i in items if i.number == "2.03")
    assert not any("Block issued" in line for _, lines in obligation.parts() for line in lines)
    issued = next(i for i in items if i.number == "3.02")
    assert any("Block issued" in line for line in issued.lines)


def test_a_sentence_about_another_person_does_not_lead() -> None:
    """"How long will Richard Johnson serve as Executive Chairman?": the letter agreement's
    "he will serve as Executive Chairman of the Board from September 1, 2022 until January 31,
    2023" leads with the event; Ms. Dillon's biography ("served as Executive Chair of the Board
    of Directors of Ulta Beauty"), as close in words, names someone else, and "how long" asks:
    "long" is no word the answer prints ("a three-decade long career")."""
    lead = answer_lead(_officer_answer("How long will Richard Johnson serve as Executive "
                                       "Chairman of Foot Locker?"))
    assert lead.startswith(f"{TITLE_5_02}On August 19, 2022"), lead
    assert "until January 31, 2023" in lead and "Dillon" not in lead, lead


def test_a_possessive_is_the_person_it_names() -> None:
    """"Mr. Johnson’s annual base salary" names Mr. Johnson, the person asked: the sentence
    that prints his reduced salary leads, not the letter agreement or his record."""
    lead = answer_lead(_officer_answer("What will Richard Johnson's annual base salary be "
                                       "reduced to during his term as Senior Advisor?"))
    assert lead.startswith(f"{TITLE_5_02}During his term as Senior Advisor, Mr. Johnson’s "
                           "annual base salary will be reduced to fifty percent (50%)"), lead


def test_a_month_names_no_person_to_keep_out() -> None:
    """"in August 2022" names no person (no sentence prints "August" as one's name): the
    appointment's sentence, which names Ms. Dillon, still leads."""
    lead = answer_lead(_officer_answer("Who did Foot Locker appoint as its new CEO in August "
                                       "2022?"))
    assert "Mary N. Dillon, 61" in lead, lead


def test_the_release_is_read_from_its_dateline_and_only_as_item_9_01_lists_it() -> None:
    """Item 9.01 lists "99.1 Press Release": its pages are read from the end of the dateline
    ("NEW YORK, August 19, 2022 –"), the headline and the contacts above it left out; the
    employment letter (Exhibit 10.1) is no release."""
    pages = [(p, _officer_pages().get(OFFICER_DOCUMENT, 2022, p) or "")
             for p in _officer_pages().pages_of(OFFICER_DOCUMENT, 2022)]
    released = _release_sentences(pages, report_items(pages))
    assert released[0][1].startswith("Foot Locker, Inc. (NYSE: FL)"), released[0]
    assert min(page for page, _ in released) == 28  # the release's first page
    assert not any("letter agreement" in s for _, s in released)


def test_the_furnished_press_release_answers_what_the_body_leaves_to_it() -> None:
    """The Item's body announces Mr. Johnson's retirement; his record is in the press release
    it furnishes as Exhibit 99.1 ("been responsible for a number of investments and
    acquisitions, including WSS and atmos in 2021"): that sentence leads, cited on its page."""
    lead = answer_lead(_officer_answer("Which acquisitions was Richard Johnson responsible "
                                       "for at Foot Locker?"))
    assert lead.startswith(f"{TITLE_5_02}During Johnson’s tenure"), lead
    assert "WSS and atmos" in lead, lead


def test_the_event_asked_is_led_by_the_items_opening_and_its_particulars() -> None:
    """"What leadership change did Foot Locker report?" asks the event: Item 5.02's opening
    and the sentence after it (the successor appointed), not the sentence that shares the
    word "leadership" with the question (Johnson's career). A question written on check's
    company's 8-K for this reader: in-sample."""
    lead = answer_lead(_officer_answer("What leadership change did Foot Locker report in its "
                                       "8-K dated August 19, 2022?"))
    assert "Richard A. Johnson will step down as President and Chief Executive Officer" in lead
    assert "Mary N. Dillon, 61, former Executive Chair and Chief Executive Officer of Ulta " \
           "Beauty, Inc., has been appointed President and Chief Executive Officer" in lead
    assert "distinguished three-decade" not in lead


def _report_lead(path: str, document: str, year: int, question: str) -> str:
    """The lead of the answer to ``question`` from the 8-K at ``path``, every citation
    checked against its pages."""
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    found = current_item(read_question(question), document, year,
                         [(p, pages.get(document, year, p) or "")
                          for p in pages.pages_of(document, year)])
    assert found is not None, question
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return answer_lead(found.text)


def test_an_item_that_furnishes_a_release_is_led_by_the_releases_first_sentence() -> None:
    """MGM Resorts' 8-K of September 12, 2023: Item 7.01 says a press release was issued, then
    the furnishing boilerplate (General Instruction B.2); the release says what happened."""
    lead = _report_lead("financebench-bulk/pdfs/MGMRESORTS_2023_8K_dated-2023-09-12.pdf",
                        "mgm-resorts-8k-2023-09-12", 2023,
                        "What did MGM Resorts report in its 8-K dated September 12, 2023?")
    assert "recently identified a cybersecurity issue affecting certain of the Company’s " \
           "systems" in lead
    assert "shall not be deemed" not in lead


def test_a_particular_asked_of_the_event_is_led_by_the_sentence_that_states_it() -> None:
    """"What annual base salary did Foot Locker disclose?" asks a particular, not the event:
    the sentence that states it leads (the review's case)."""
    lead = answer_lead(_officer_answer("What annual base salary did Foot Locker disclose for "
                                       "Mary Dillon in its 8-K?"))
    assert "$1,300,000" in lead


def test_a_votes_results_are_how_each_matter_went() -> None:
    """Foot Locker's 8-K of May 20, 2022 (check's company; asked for this reader, in-sample):
    Item 5.07 closes each matter with its outcome ("Based on the votes set forth above, ..."),
    so the results asked, and the report's agenda, are those outcomes in order, each cited."""
    report = ("financebench-wide/pdfs/FOOTLOCKER_2022_8K_dated-2022-05-20.pdf",
              "foot-locker-8k-2022-05-20", 2022)
    for question in ("What were the results of Foot Locker's 2022 annual meeting vote?",
                     "What is the key agenda of Foot Locker's 8-K filing dated May 20, 2022?"):
        lead = _report_lead(*report, question)
        assert "each of the ten nominees to the Board was duly elected; Based on the votes set " \
               "forth above, the NEOs’ compensation was approved" in lead, question
        assert lead.count("Based on the votes set forth above") == 4
    # one matter asked: its own counts and outcome lead (the review's case)
    lead = _report_lead(*report, "What was the outcome of the proposal to ratify KPMG at Foot "
                                 "Locker's 2022 annual meeting?")
    assert "75,612,318" in lead and lead.count("Based on the votes set forth above") == 1


def test_the_key_agenda_of_one_event_is_its_opening_and_its_terms() -> None:
    """Lockheed Martin's 8-K of August 24, 2023 (check's company; asked for this reader, in-
    sample): the agenda of a report of one event is the event and what it changed, here the
    maturity moved from one date to another."""
    lead = _report_lead("financebench-bulk/pdfs/LOCKHEEDMARTIN_2023_8K_dated-2023-08-24.pdf",
                        "lockheed-martin-8k-2023-08-24", 2023,
                        "What is the key agenda of Lockheed Martin's 8-K dated August 24, 2023?")
    assert "entered into an Extension Agreement" in lead
    assert lead.endswith("The Amendment extends the maturity date of the Credit Agreement by one "
                         "year from August 24, 2027 to August 24, 2028.")


def test_the_furnishing_boilerplate_in_each_wording_is_no_part_of_the_event() -> None:
    """General Instruction B.2's statement, as MGM Resorts' and Intel's 8-Ks word it (the
    probe's Intel answer had led with it after the event)."""
    from rag_assets.core.generation.current_items import FURNISHED_RE

    for said in ("The information furnished pursuant to this Item 7.01 (including Exhibit 99.1) "
                 "shall not be deemed to be “filed” for purposes of Section 18",
                 "The information in Item 7.01 of this Current Report on Form 8-K and the press "
                 "release attached hereto as Exhibit 99.1 are furnished and shall not be treated "
                 "as filed for purposes of the Securities Exchange Act of 1934, as amended."):
        assert FURNISHED_RE.search(said)
    assert not FURNISHED_RE.search("Intel is terminating the Agreement and Plan of Merger.")
