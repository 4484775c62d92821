"""A cause's change sized from the table MD&A explains: Activision Blizzard's Q2 2023 10-Q
prints its net revenues by distribution channel (p.50, a table without rules whose
"Increase/(decrease)" columns and caption are read) and explains each line on the next page
without an amount."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.direct_rows import DirectAnswer, load_cues
from rag_assets.core.generation.evidence import page_table_rows
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.sized_causes import sized_cause
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import real_filing

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
DOC, YEAR = "activision-blizzard-10q-q2", 2023
CHANGED = ("The increase in net revenues from digital online channels for the three months "
           "ended June 30, 2023, as compared to the three months ended June 30, 2022")
CAUSES = "primarily due to higher revenues from: • Call of Duty: Modern Warfare II; • Diablo IV"


@cache
def _pages() -> PageTexts:
    return PageTexts.from_pages(DOC, YEAR, real_filing(
        "financebench-bulk/pdfs/ACTIVSIONBLIZZARD_2023Q2_10Q.pdf").pages)


def _explained(changed: str = CHANGED) -> DirectAnswer:
    """The drivers' answer as they give it: the sentence on p.51 (index 50), causes first."""
    pages = _pages()
    text = pages.get(DOC, YEAR, 50) or ""
    assert "The increase in net revenues from digital online channels" in text
    row = page_table_rows(pages, DOC, YEAR, 49)[0]  # any unit of the filing, moved to p.51
    unit = row.model_copy(update={"page": 50, "pages": [50], "is_row": False, "text": CHANGED,
                                  "quote": CHANGED})
    return DirectAnswer(kind="cause", units=[unit], changed=changed, causes=CAUSES,
                        text=f"{CAUSES[0].upper()}{CAUSES[1:]}; {changed}.")


def _sized(question: str, found: DirectAnswer) -> DirectAnswer | None:
    pages = _pages()
    return sized_cause(read_question(question), found,
                       lambda d, y, p: page_table_rows(pages, d, y, p), load_cues())


def test_the_change_explained_without_an_amount_is_sized_from_its_tables_row() -> None:
    found = _sized("Which titles drove the increase in Activision Blizzard's digital online "
                   "channel net revenues in Q2 2023?", _explained())
    assert found is not None
    assert found.text.endswith(
        "(Digital online channels: $2,012 million in three months 2023 against $1,474 million "
        "in three months 2022, increased by $538 million (36.5%)).")
    assert found.text.startswith("Primarily due to higher revenues from")
    assert [u.page for u in found.units] == [50, 49]
    # each citation stands for what its page prints: the sentence, and the row's figures
    assert [c.mark for c in verify_claims([found.claim()], _pages())[0].citations] == [
        "valid", "valid"]


def test_the_six_months_asked_read_the_six_months_columns() -> None:
    changed = CHANGED.replace("three months", "six months")
    found = _sized("What drove the increase in Activision Blizzard's digital online channel net "
                   "revenues in the six months ended June 30, 2023?", _explained(changed))
    assert found is not None and "$4,168 million in six months 2023 against $3,063 million" in (
        found.text)


def test_no_size_where_the_change_states_one_or_no_row_is_named() -> None:
    stated = _explained(CHANGED.replace("The increase", "The $538 million increase"))
    question = ("Which titles drove the increase in Activision Blizzard's digital online channel "
                "net revenues in Q2 2023?")
    assert _sized(question, stated) == stated
    # the question names another line: no row both name
    other = _explained()
    assert _sized("What drove the increase in Activision Blizzard's net bookings in Q2 2023?",
                  other) == other


def test_a_sentence_of_another_length_than_asked_is_not_sized() -> None:
    """The sentence explains the three months' change: a question of the six months gets no
    six months' figures beside it (nor the reverse)."""
    found = _explained()
    asked = ("What drove the increase in Activision Blizzard's digital online channel net "
             "revenues in the six months ended June 30, 2023?")
    assert _sized(asked, found) == found


def test_a_row_is_sized_only_under_the_measure_asked() -> None:
    """"Digital online channels" under net revenues sizes no question of net bookings: the
    measure the question names beyond the row's words must be its caption's or table's."""
    found = _explained()
    asked = ("Which titles drove the increase in Activision Blizzard's digital online channel "
             "net bookings in Q2 2023?")
    assert _sized(asked, found) == found


def test_a_row_that_moved_the_other_way_than_the_sentence_says_sizes_nothing() -> None:
    """A sentence of "the decrease" beside a row that rose explains another change (another
    year's, another measure's): the row's figures would contradict it."""
    found = _explained(CHANGED.replace("The increase", "The decrease"))
    asked = ("Which titles drove the change in Activision Blizzard's digital online channel net "
             "revenues in Q2 2023?")
    assert _sized(asked, found) == found
    assert _sized(asked, _explained()) != _explained()  # the same sentence of its increase is


def test_a_change_against_the_quarter_before_is_not_sized_with_the_year_agos() -> None:
    """A sentence that compares the quarter with the one just before ("compared to the prior
    quarter") is not sized with the year-ago column the question's one period implies."""
    sequential = _explained(CHANGED.replace(
        "as compared to the three months ended June 30, 2022", "compared to the prior quarter"))
    asked = ("Which titles drove the increase in Activision Blizzard's digital online channel "
             "net revenues in Q2 2023?")
    assert _sized(asked, sequential) == sequential
