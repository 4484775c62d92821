"""The direct first sentence (core/generation/direct.py) on hand-made evidence units: the winner
of a segment table (a negative figure included), the names a sentence lists, the direction of a
two-period row; nothing when the evidence does not print the answer; every figure and name of
the sentence printed in a unit it cites, and its citations valid under the verifier."""

from __future__ import annotations

import re

import pytest

from rag_assets.core.generation.citations import PageTexts, verify_claims
from rag_assets.core.generation.direct import DirectAnswer, direct_answer, load_cues, parse_cell
from rag_assets.core.generation.evidence import EvidenceUnit

DOC, YEAR = "acme-10q", 2023
SCOPE = ("Acme Q2 2023 | Segment net revenue (in millions of dollars) | Segment Q2 2023 "
         "Q2 2022")
SEGMENTS = [  # label, Q2 2023, Q2 2022
    ("Consumer", "1,204", "1,118"),
    ("Enterprise", "2,512", "2,306"),
    ("Corporate", "(473)", "(120)"),
    ("Total", "3,243", "3,304"),
]
TABLE_PAGE = 4
PROSE_PAGE = 7
ACQUISITIONS = ("During 2020 and 2019, we completed the acquisitions of Trillium, Array and "
                "Therachon, which added oncology and rare disease programs.")
DELIVERIES = ("Vehicles delivered", "45", "60")


def _row(label: str, *values: str, page: int = TABLE_PAGE, scope: str = SCOPE) -> EvidenceUnit:
    headings = ["Q2 2023", "Q2 2022"]
    text = f"{label}: " + "; ".join(f"{h}: {v}" for h, v in zip(headings, values, strict=False))
    return EvidenceUnit(chunk_id="c-table", document=DOC, year=YEAR, chunk_rank=0, page=page,
                        located=True, is_row=True, quote=" ".join([label, *values]), text=text,
                        scope=scope)


def _sentence(text: str, page: int = PROSE_PAGE) -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c-prose", document=DOC, year=YEAR, chunk_rank=1, page=page,
                        located=True, quote=text, text=text, scope="Acme Q2 2023 | Overview")


@pytest.fixture
def table() -> list[EvidenceUnit]:
    return [_row(label, now, then) for label, now, then in SEGMENTS]


@pytest.fixture
def pages() -> PageTexts:
    table_text = "\n".join([
        "Segment net revenue (in millions of dollars)",
        "| Segment | Q2 2023 | Q2 2022 |",
        "|---|---|---|",
        *(f"| {label} | {now} | {then} |" for label, now, then in SEGMENTS),
    ])
    operations = "\n".join([
        "Operating data", "| | Q2 2023 | Q2 2022 |", "|---|---|---|",
        f"| {DELIVERIES[0]} | {DELIVERIES[1]} | {DELIVERIES[2]} |",
    ])
    return PageTexts({
        (DOC, YEAR, TABLE_PAGE): f"Segments\n{table_text}\nNet revenue by segment.",
        (DOC, YEAR, PROSE_PAGE): f"Acquisitions\n{ACQUISITIONS}",
        (DOC, YEAR, 9): operations,
    })


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)}


def _assert_printed_and_valid(found: DirectAnswer, pages: PageTexts) -> None:
    """Every figure and name of the direct sentence is printed in a unit it cites, and the
    verifier accepts each citation."""
    cited = " ".join(f"{u.quote} {u.text}" for u in found.units)
    assert _numbers(found.text) <= _numbers(cited), (found.text, cited)
    for name in re.findall(r"\b[A-Z][a-z]+\b", found.text):
        if name not in {"Its", "Increased", "Decreased", "Unchanged"}:
            assert name in cited, (name, cited)
    claim = verify_claims([found.claim()], pages)[0]
    assert claim.citations and all(c.mark == "valid" for c in claim.citations), claim.citations


def test_cells_read_parentheses_as_negative() -> None:
    assert parse_cell("(473)") == (-473.0, "-473")
    assert parse_cell("$ 1,204") == (1204.0, "$1,204")
    assert parse_cell("23.5%") == (23.5, "23.5%")
    assert parse_cell("-") is None and parse_cell("n/a") is None and parse_cell("(a)") is None


def test_the_lowest_segment_is_the_negative_one(table: list[EvidenceUnit],
                                                pages: PageTexts) -> None:
    found = direct_answer("Which segment had the lowest net revenue in Q2 2023?", table[:1],
                          table)
    assert found is not None and found.kind == "superlative"
    assert found.text == "Corporate. Its net revenue in Q2 2023 was -$473 million."
    assert [u.quote for u in found.units] == ["Corporate (473) (120)"]
    _assert_printed_and_valid(found, pages)


def test_the_highest_segment_compares_the_asked_period_not_the_total(
        table: list[EvidenceUnit], pages: PageTexts) -> None:
    found = direct_answer("Which segment brought in the most net revenue in Q2 2022?",
                          table[:2], table)
    assert found is not None
    assert found.text == "Enterprise. Its net revenue in Q2 2022 was $2,306 million."
    _assert_printed_and_valid(found, pages)


def test_a_list_sentence_gives_the_names_it_prints(pages: PageTexts) -> None:
    found = direct_answer("What are three main companies acquired by Acme in 2019 and 2020?",
                          [_sentence(ACQUISITIONS)])
    assert found is not None and found.kind == "list"
    assert found.text == "Trillium, Array and Therachon."
    _assert_printed_and_valid(found, pages)


def test_a_two_period_row_gives_the_direction(pages: PageTexts) -> None:
    row = _row(*DELIVERIES, page=9, scope="Acme Q2 2023 | Operating data |  Q2 2023 Q2 2022")
    found = direct_answer("Did vehicle deliveries increase or decrease in Q2 2023 compared to "
                          "Q2 2022?", [row])
    assert found is not None and found.kind == "comparison"
    assert found.text == "Decreased: Vehicles delivered 45 in Q2 2023 against 60 in Q2 2022."
    _assert_printed_and_valid(found, pages)
    # one period named, the other the year before
    prior = direct_answer("Did vehicle deliveries decrease in Q2 2023 compared to the prior "
                          "year?", [row])
    assert prior is not None and prior.text == found.text


def test_a_sentence_stating_the_comparison() -> None:
    unit = _sentence("Net revenue was $2.4 billion in 2023, compared with $2.1 billion in 2022.")
    found = direct_answer("Did net revenue increase or decrease between 2022 and 2023?", [unit])
    assert found is not None
    assert found.text == "Increased: $2.4 billion in 2023 against $2.1 billion in 2022."


def test_nothing_when_the_evidence_lacks_the_answer(table: list[EvidenceUnit]) -> None:
    # a superlative over a period the table does not print
    assert direct_answer("Which segment had the highest net revenue in 2021?", table,
                         table) is None
    # a superlative with only prose that names no winner
    assert direct_answer("Which segment had the highest net revenue in Q2 2023?",
                         [_sentence("Net revenue grew in every segment this quarter.")]) is None
    # a tie names no single winner
    tied = [_row("North", "10", "9"), _row("South", "10", "8")]
    assert direct_answer("Which region had the highest net revenue in Q2 2023?", tied,
                         tied) is None
    # a list of another length than asked, or no list at all
    assert direct_answer("What are the four companies Acme acquired?",
                         [_sentence(ACQUISITIONS)]) is None
    assert direct_answer("What are three main companies acquired by Acme?",
                         [_sentence("We acquired several companies to expand our "
                                    "pipeline.")]) is None
    # a comparison whose row prints one of the two periods
    one = EvidenceUnit(chunk_id="c", document=DOC, year=YEAR, chunk_rank=0, page=9,
                       located=True, is_row=True, quote="Vehicles delivered 45",
                       text="Vehicles delivered: Q2 2023: 45", scope="")
    assert direct_answer("Did vehicle deliveries decrease in Q2 2023 compared to Q2 2022?",
                         [one]) is None
    # not a kind of question that gets a direct answer
    assert direct_answer("What does Acme say about its liquidity?", table, table) is None


def test_every_cue_says_where_it_comes_from() -> None:
    cues = load_cues()
    for group in (cues.superlative, cues.superlative_not, cues.which_question,
                  cues.list_question, cues.list_item_not, cues.comparison, cues.prior_period,
                  cues.row_not_a_member, cues.scales):
        assert group and all(c.source.strip() for c in group)
        for cue in group:
            re.compile(cue.pattern)
    assert all(t.source for t in cues.terms.values()) and cues.enumeration.source
