"""A required disclosure no sentence of the filing makes: what the part looked for, from the
intent lexicon's ``unfound`` entry. The sentences are real filings' (wide, bulk); the filing's
pages are stood for by the scan given."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.unfound import unfound_disclosure, unprinted_line_item
from rag_assets.core.question.question import read_question
from rag_assets.core.question.vocabulary import normalize


def unit(text: str, document: str = "coca-cola-10k", year: int = 2019) -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c1", document=document, year=year, chunk_rank=0, page=1,
                        located=True, quote=text, text=text)


def eight_k(text: str) -> EvidenceUnit:
    return unit(text, "costco-8k-2023-08-09", 2023)


def filing(*sentences: str):  # type: ignore[no-untyped-def]
    """A scan over a filing that prints ``sentences``."""
    def scan(patterns: Sequence[re.Pattern[str]]) -> Iterable[EvidenceUnit]:
        return (unit(s) for s in sentences if any(p.search(s) for p in patterns))
    return scan


OTHER = ("Our bottling partners' financial condition is affected in large part by conditions "
         "and events that are beyond our control.")
ASKED = "Which customers accounted for 10% or more of Coca-Cola's net sales in FY2019?"


def test_a_filing_stating_no_customer_share_is_reported_as_looked_for() -> None:
    looked = unfound_disclosure(read_question(ASKED), [unit(OTHER)], filing(OTHER))
    assert looked is not None
    assert looked.startswith("a sentence stating a customer's share of its revenue")
    assert "every page of coca-cola-10k 2019: none found" in looked and "ASC 280-10-50-42" in looked


def test_any_sentence_stating_or_denying_a_share_keeps_the_quotes() -> None:
    question = read_question(ASKED)
    for said in (
        # affirms (General Mills 2019 10-K)
        "During fiscal 2019, Walmart Inc. and its affiliates (Walmart) accounted for 20 percent "
        "of our consolidated net sales.",
        # denies (Corning 2021 10-K)
        "For 2021, 2020 and 2019, no customer met or exceeded 10% of Corning's consolidated net "
        "sales.",
        # a looser wording (Lockheed Martin 2022 10-K, prose-dev's evidence)
        "In 2022, 73% of our $66.0 billion in net sales were from the U.S. Government, either as "
        "a prime contractor or as a subcontractor, 26% were from international customers.",
        # a share of revenue beside the word customer, about something else (American Water
        # Works 2021 10-K): the reader may have missed a wording, so it quotes
        "The Company is to receive 10% of the revenue generated from customers who are billed "
        "for home warranty services.",
    ):
        assert unfound_disclosure(question, [unit(OTHER)], filing(OTHER, said)) is None, said


def test_only_a_question_asking_for_the_disclosure() -> None:
    scan = filing(OTHER)
    for asked in ("How many customers does American Water Works serve?",  # a count
                  "How does Coca-Cola describe its customers?"):  # no threshold, no reliance
        assert unfound_disclosure(read_question(asked), [unit(OTHER)], scan) is None, asked
    reliant = read_question("Is Coca-Cola reliant on any single customer?")
    assert unfound_disclosure(reliant, [unit(OTHER)], scan) is not None
    assert unfound_disclosure(reliant, [], scan) is None  # no filing read
    for asked in ("What are the main risks and largest customers of Coca-Cola in FY2019?",
                  "Which segments and customers drove significant revenue growth at "
                  "Coca-Cola in FY2019?"):  # another intent asked beside, or no concentration
        assert unfound_disclosure(read_question(asked), [unit(OTHER)], scan) is None, asked


def test_every_filing_read_is_looked_in() -> None:
    """A part reading a 10-K and a release: the release's silence is not the 10-K's."""
    share = ("During fiscal 2019, Walmart Inc. and its affiliates (Walmart) accounted for 20 "
             "percent of our consolidated net sales.")
    read = [unit(OTHER, "coca-cola-earnings-q4"), unit(OTHER)]
    printed = {"coca-cola-10k": [share], "coca-cola-earnings-q4": [OTHER]}

    def scan(patterns: Sequence[re.Pattern[str]]) -> Iterable[EvidenceUnit]:
        return (unit(s, u.document) for u in read for s in printed[u.document]
                if any(p.search(s) for p in patterns))
    assert unfound_disclosure(read_question(ASKED), read, scan) is None
    looked = unfound_disclosure(read_question(ASKED), read, filing(OTHER))
    assert looked is not None
    assert "every page of coca-cola-earnings-q4 2019 and coca-cola-10k 2019: none found" in looked


def printing(*texts: str):  # type: ignore[no-untyped-def]
    """Whether a filing of pages ``texts`` prints a pattern, each page normalized as the
    quote route gives them."""
    return lambda patterns: any(p.search(normalize(t)) for t in texts for p in patterns)


RELEASE = ("Costco Wholesale Corporation announced that its Board of Directors has declared a "
           "quarterly cash dividend on Costco common stock of $1.02 per share.")


def test_a_line_item_no_page_names_is_reported_as_looked_for() -> None:
    asked = read_question("What was Costco's net income reported in its 8-K dated August 9, "
                          "2023?")
    looked = unprinted_line_item(asked, [eight_k(RELEASE)], printing(RELEASE))
    assert looked is not None and looked.startswith("net income (as 'net income', 'net earnings'")
    assert looked.endswith("on every page of costco-8k-2023-08-09 2023: none names it")
    for page in ("Net Income Attributable to Costco $ 1,300",  # a statement's row, any case
                 "net earnings attributable to the company rose",
                 "NET-INCOME"):  # a hyphen between the words
        assert unprinted_line_item(asked, [eight_k(RELEASE)], printing(RELEASE, page)) is None
    # a 10-K, a 10-Q or a release prints statements whose labels go beyond the vocabulary's
    for filed in (unit(RELEASE), unit(RELEASE, "costco-earnings-q3", 2023)):
        assert unprinted_line_item(asked, [filed], printing(RELEASE)) is None, filed.document


def test_a_name_is_found_in_either_number() -> None:
    """The vocabulary writes "dividends declared"; a table prints "Dividend declared" in the
    singular (JPMorgan's preferred stock table, its heading split over lines): found."""
    asked = read_question("What quarterly dividend per share did JPMorgan declare in Q1 2021?")
    page = "Dividend declared: Three months ended March 31, 2021"
    assert unprinted_line_item(asked, [eight_k(RELEASE)], printing(page)) is None
    assert unprinted_line_item(asked, [eight_k(RELEASE)], printing("Dividend yield —%")) is not None


def test_only_a_figure_of_one_line_item() -> None:
    quiet = printing(RELEASE)
    for asked in ("What is Costco's operating margin in its 8-K dated August 9, 2023?",  # a metric
                  "What did Costco announce in its 8-K dated August 9, 2023?"):  # no figure
        assert unprinted_line_item(read_question(asked), [eight_k(RELEASE)], quiet) is None


SAFE_HARBOR = ("Forward-looking statements are statements that address activities, events, "
               "conditions or developments that the Company expects or anticipates may occur "
               "in the future.")


def test_a_release_giving_no_guidance_is_reported_as_looked_for() -> None:
    """Costco's Q3 2023 release: its safe harbor names the words and gives no outlook."""
    for asked in ("What outlook did Costco give for fiscal 2023 in its third quarter earnings "
                  "release?",
                  "Did Costco raise or lower its fiscal 2023 guidance in its third quarter "
                  "release?"):
        looked = unfound_disclosure(read_question(asked), [unit(RELEASE, "costco-earnings-q3")],
                                    filing(RELEASE, SAFE_HARBOR))
        assert looked is not None and looked.startswith("guidance for a coming period"), asked
    given = "The Company has updated its outlook for fiscal 2023."  # Ulta Beauty's Q2 release
    assert unfound_disclosure(read_question("What outlook did Ulta Beauty give for fiscal 2023?"),
                              [unit(RELEASE, "ulta-beauty-earnings-q2")],
                              filing(SAFE_HARBOR, given)) is None
    # a release that says what the company expects, its name the subject (a sentence made up)
    expects = "Acme Corp. expects fiscal 2024 revenues to grow by a mid-single-digit percentage."
    assert unfound_disclosure(read_question("What outlook did Acme give for fiscal 2024?"),
                              [unit(RELEASE, "acme-earnings-q4")],
                              filing(SAFE_HARBOR, expects)) is None


def test_a_dividend_is_looked_for_beyond_an_option_assumption_and_the_safe_harbor() -> None:
    question = read_question("What quarterly dividend per share did Netflix declare in Q2 2023?")
    q2 = unit("Dividend yield —% —% —% —%", "netflix-10q-q2", 2023)  # Black-Scholes inputs
    harbor = ("These forward-looking statements include, but are not limited to, statements "
              "regarding: acquisitions; membership growth; partnerships; dividends; the impact "
              "of foreign exchange rates.")  # Netflix's Q2 2023 10-Q, page 19
    looked = unfound_disclosure(question, [q2], filing(q2.text, harbor))
    assert looked is not None and looked.startswith("a dividend declared or paid")
    assert "Regulation S-X Rule 3-04" in looked
    for declared in (
        "On June 21, 2023, our Board of Directors declared a quarterly dividend of $0.28 per "
        "share of common stock.",  # Corning's Q2 2023 10-Q
        "Cash dividends declared per share 0.90 0.90 0.90",  # JPMorgan's Q1 2021 10-Q
        "We have not declared or paid any cash dividends, and we have no present intention of "
        "paying any cash dividends in the foreseeable future.",  # Netflix 2015 10-K, Item 5
    ):
        assert unfound_disclosure(question, [q2], filing(q2.text, declared)) is None, declared


def test_a_repurchase_is_looked_for_beyond_item_5s_title() -> None:
    question = read_question("How much did Netflix spend on share repurchases in FY2017?")
    title = ("Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and "
             "Issuer Purchases of Equity Securities")
    looked = unfound_disclosure(question, [unit(title, "netflix-10k", 2017)], filing(title))
    assert looked is not None and looked.startswith("a repurchase of its own shares")
    for stated in (
        "Repurchases of common stock (645,146) — (1,045,247) —",  # Netflix Q2 2023, cash flows
        "During fiscal 2017, we repurchased 25 million shares of our common stock for $1,652 "
        "million.",  # General Mills 2017 10-K, page 35
        "Treasury stock repurchased",  # JPMorgan's Q1 2021 10-Q, its cash flow statement's row
    ):
        assert unfound_disclosure(question, [unit(title)], filing(title, stated)) is None, stated


def test_a_dividend_is_found_in_a_rows_words_and_an_option_input_is_not_asked_for() -> None:
    """The wordings a filing that pays a dividend prints where it names no "cash dividend":
    Coca-Cola 2019's cash flow row, American Water's Q2 2023 equity row, Costco's 8-K; and a
    question of an option's dividend yield or of dividend income asks for no dividend paid."""
    asked = read_question("What quarterly dividend per share did Netflix declare in Q2 2023?")
    q2 = unit("Dividend yield —% —% —% —%", "netflix-10q-q2", 2023)
    for printed in ("Dividends (6,845) (6,644) (6,320)",
                    "Dividends ($0.7075 declared per common share) — — — (137) — — — (137)",
                    "The dividend of $1.02 per share declared"):
        assert unfound_disclosure(asked, [q2], filing(q2.text, printed)) is None, printed
    for question in ("What dividend yield did Netflix assume in valuing its options in Q2 2023?",
                     "How much dividend income did Netflix report in Q2 2023?"):
        assert unfound_disclosure(read_question(question), [q2], filing(q2.text)) is None, \
            question
