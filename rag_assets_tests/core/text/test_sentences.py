"""The one sentence grammar (``core/text/sentences.py``) on the sentences filings print."""

from __future__ import annotations

import pytest

from rag_assets.core.text.sentences import page_prose, split_sentences


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
])
def test_sentences_end_where_a_filing_ends_them(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


def test_a_pages_prose_leaves_out_its_running_header() -> None:
    page = "Table of Contents\nNet Sales\nNet sales for the three months\nended June 30 decreased."
    assert page_prose(page) == "Net Sales Net sales for the three months ended June 30 decreased."
    assert page_prose("The table of contents lists the Items.") == (
        "The table of contents lists the Items.")  # only the header that opens the page
