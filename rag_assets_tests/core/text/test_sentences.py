"""The one sentence grammar (``core/text/sentences.py``) on the sentences filings print."""

from __future__ import annotations

import pytest

from rag_assets.core.text.sentences import (
    ends_at,
    page_prose,
    prose_after_table,
    reads_as_table,
    split_sentences,
    unlinked,
)


@pytest.mark.parametrize(("text", "sentences"), [
    # a reference word goes on before its figure and ends a sentence before a word: "SEC." ended
    # 51 sentences of the shared corpora and shortened no "Section"
    ("Reports are filed with the SEC. The public can obtain them.",
     ["Reports are filed with the SEC.", "The public can obtain them."]),
    ("Under Sec. 13 of the Act and Art. 6 of the Regulation, see pp. 12-14.",
     ["Under Sec. 13 of the Act and Art. 6 of the Regulation, see pp. 12-14."]),
    ("He is a trustee of the Museum of Art. In addition, he is a director.",
     ["He is a trustee of the Museum of Art.", "In addition, he is a director."]),
    ("Units represent interests in MGP OP. Additionally, the Company had loans.",
     ["Units represent interests in MGP OP.", "Additionally, the Company had loans."]),
    ("As noted op. cit. above, the rule holds.", ["As noted op. cit. above, the rule holds."]),
    # "No." before a figure goes on; before a word it is an answer
    ("See Exhibit No. 3 attached. No. The claim was dismissed.",
     ["See Exhibit No. 3 attached.", "No.", "The claim was dismissed."]),
    # company forms, initials and dotted acronyms go on
    ("Nike, Inc. sold more in the U.S. market. Richard A. Johnson signed it.",
     ["Nike, Inc. sold more in the U.S. market.", "Richard A. Johnson signed it."]),
    # a case caption's "ex rel." goes on to the relator's name (Lockheed Martin's 2021 10-K)
    ("United States of America, ex rel. Patzer; Cimma v. Sikorsky Aircraft Corp. is pending. "
     "The Government intervened.",
     ["United States of America, ex rel. Patzer; Cimma v. Sikorsky Aircraft Corp. is pending.",
      "The Government intervened."]),
])
def test_sentences_end_where_a_filing_ends_them(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


def test_a_pages_prose_leaves_out_its_running_header() -> None:
    page = "Table of Contents\nNet Sales\nNet sales for the three months\nended June 30 decreased."
    assert page_prose(page) == "Net Sales Net sales for the three months ended June 30 decreased."
    assert page_prose("The table of contents lists the Items.") == (
        "The table of contents lists the Items.")  # only the header that opens the page


@pytest.mark.parametrize(("text", "table"), [
    # Coca-Cola's 2017 quarterly data (10-K p.124) run into the text after "attributable to"
    ("Attributable to shareowners of The Coca-Cola Company 1,182 1,371 1,447 (2,752) 1,248 "
     "Basic net income (loss) per share $ 0.28 $ 0.32 $ 0.34 $ (0.65) $ 0.29", True),
    # MD&A's causes: figures among words
    ("higher net interest income of $2.1 billion, up 34%, driven by higher rates and 12% loan "
     "growth, partially offset by $300 million lower fees", False),
    ("Net sales 2023 2022 2021 $ 5,123 $ 4,987 $ 4,512", True),
])
def test_a_tables_cells_run_together_are_not_prose(text: str, table: bool) -> None:
    assert reads_as_table(text) is table


def test_a_quote_ends_its_sentence_or_a_chunk_cut_it() -> None:
    text = ("Margin rose, primarily due to growth in revenue for the three months ended June 30, "
            "2023. The decrease in expenses was impacted by $150 million.")
    cut = text.index(" for the three months")
    assert not ends_at(text, cut)  # the chunk cut it: its sentence goes on
    assert ends_at(text, text.index(" The decrease"))
    assert ends_at(text, len(text))
    assert not ends_at("See Inc. for more.", len("See Inc."))  # an abbreviation ends nothing


def test_the_prose_after_a_table_run_into_a_sentence() -> None:
    """General Mills' 10-K for fiscal 2019 (wide), page 28 as extraction prints it: the cash
    flow table's last rows run into MD&A's sentence; a sentence with a few figures is kept."""
    run = ("Divestitures loss 30.0 - Restructuring, impairment, and other exit costs 235.7 126.0 "
           "Changes in current assets and liabilities (7.5) 542.1 Other, net (27.9) (182.9) Net "
           "cash provided by operating activities $ 2,807.0 $ 2,841.0 During fiscal 2019, cash "
           "provided by operations was $2,807 million compared to $2,841 million in the same "
           "period last year.")
    assert prose_after_table(run) == ("During fiscal 2019, cash provided by operations was "
                                      "$2,807 million compared to $2,841 million in the same "
                                      "period last year.")
    prose = "In 2019, 2018 and 2017 Revenue was $1.2 billion, up 5% from $1.1 billion."
    assert prose_after_table(prose) == prose


@pytest.mark.parametrize(("sentence", "expected"), [
    ("Additionally, the Company did not generate material total revenues from any single "
     "customer.", "the Company did not generate material total revenues from any single "
     "customer."),
    ("In addition, no customer accounted for 10%.", "no customer accounted for 10%."),
    ("Also included are the leases.", "Also included are the leases."),  # no comma: a verb's
])
def test_a_sentence_leads_without_its_linking_adverb(sentence: str, expected: str) -> None:
    assert unlinked(sentence) == expected


@pytest.mark.parametrize(("then", "joined_as"), [
    ("Primarily due to higher costs.", "A rose; primarily due to higher costs."),
    ("The Company repaid notes.", "A rose; the Company repaid notes."),
    # a name keeps its capital
    ("Ulta Beauty's repurchases were $283 million.",
     "A rose; Ulta Beauty's repurchases were $283 million."),
    ("General Mills' gross margin fell.", "A rose; General Mills' gross margin fell."),
    ("JPMorgan issued notes.", "A rose; JPMorgan issued notes."),
    ("U.S. sales rose.", "A rose; U.S. sales rose."),
    # a name of two capitalized words, a heading before its paragraph
    ("Costa Limited In January 2019, the Company acquired Costa.",
     "A rose; Costa Limited In January 2019, the Company acquired Costa."),
    ("Optical Communications The decrease was due to lower volume.",
     "A rose; Optical Communications The decrease was due to lower volume."),
    # a sentence's opening word before a name is no name
    ("In March 2012, Corning received a subpoena.",
     "A rose; in March 2012, Corning received a subpoena."),
    ("Additionally, Corning repaid notes.", "A rose; additionally, Corning repaid notes."),
])
def test_two_sentences_joined_as_one_keep_a_names_capital(then: str, joined_as: str) -> None:
    from rag_assets.core.text.sentences import joined
    assert joined("A rose.", then) == joined_as


def test_a_court_in_a_citation_ends_no_sentence_and_a_state_does() -> None:
    """The Bluebook's "Sup. Ct." and "Del. Ch." inside a case's citation (AMD's and Activision
    Blizzard's legal notes) go on; a state's "CT." ends its sentence."""
    assert split_sentences("Nunez v. Xilinx, Case No. 656971/2020 (N.Y. Sup. Ct.). Vazirani v. "
                           "Advanced Micro Devices, Case No. 1:20-cv-10894.") == [
        "Nunez v. Xilinx, Case No. 656971/2020 (N.Y. Sup. Ct.).",
        "Vazirani v. Advanced Micro Devices, Case No. 1:20-cv-10894."]
    assert split_sentences("Ruan v. United States, 142 S. Ct. 2370 (2022).") == [
        "Ruan v. United States, 142 S. Ct. 2370 (2022)."]
    assert len(split_sentences("Our offices are in Stamford, CT. We employ 500 people.")) == 2
