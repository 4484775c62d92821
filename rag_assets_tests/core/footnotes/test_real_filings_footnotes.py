"""Real documents as a standing test: the two SEC 10-Ks and the GDPR lose no word in stitching,
and definitions that run over several printed lines are kept whole (pinned to their full text).
The generated samples are held to their ground truth: every definition complete."""

from __future__ import annotations

import pytest

from rag_assets.core.footnotes.checks import (
    citation_counts,
    definition_completeness,
    multi_line,
    text_conservation,
)
from rag_assets.core.footnotes.stitching import stitching_coverage
from rag_assets.samples.earnings import earnings_truth
from rag_assets_tests.core.conftest import CORPORA, Processed, process_real

MULTI_LINE = {  # real definitions printed over two or more lines, as the filings print them
    "3m": {
        "(1)@12": "The total number of shares purchased includes: (i) shares purchased under the "
        "Board’s authorizations described above, and (ii) shares purchased in connection with "
        "the exercise of stock options.",
        "*@95": "In accordance with ASC 820-10, certain investments that are measured at fair "
        "value using the net asset value (NAV) per share (or its equivalent) as a practical "
        "expedient have not been classified in the fair value hierarchy. The NAV is based on "
        "the fair value of the underlying assets owned by the fund, minus its liabilities then "
        "divided by the number of units outstanding and is determined by the investment manager "
        "or custodian of the fund. The fair value amounts presented in this table are intended "
        "to permit reconciliation of the fair value hierarchy to the amounts presented in the "
        "fair value of plan assets.",
    },
    "pfizer": {
        "(b)@96": "In 2017, Performance Total Shareholder Return Units (PTSRUs) were awarded to "
        "the Former Chairman and Chief Executive Officer (1,444,395 PTSRUs) and 361,099 PTSRUs "
        "were awarded to the Group President, Chief Business Officer (former role Group "
        "President Pfizer Innovative Health) at a grant price of $30.31 and at a GDFV of $5.54 "
        "per PTSRU. In addition to having the same characteristics and valuation methodology of "
        "TSRUs, PTSRU grants require special service and performance conditions.",
    },
    "gdpr": {
        "(4)@34": "Directive 95/46/EC of the European Parliament and of the Council of 24 October "
        "1995 on the protection of individuals with regard to the processing of personal data "
        "and on the free movement of such data (OJ L 281, 23.11.1995, p. 31).",
    },
}
MIN_MULTI_LINE = {"3m": 7, "pfizer": 50, "gdpr": 18}  # measured 2026-11-23: 7, 53, 18


def _check_real(name: str, processed: Processed) -> None:
    conservation = text_conservation(processed.pages, processed.index, processed.stitched)
    assert conservation.words_checked > 50_000
    assert conservation.lost == [], conservation.lost[:3]
    assert stitching_coverage(processed.index, processed.stitched).missing == []
    multi = [f for f in processed.index.footnotes if multi_line(f)]
    assert len(multi) >= MIN_MULTI_LINE[name]
    by_id = processed.index.by_id()
    for footnote_id, text in MULTI_LINE[name].items():
        assert by_id[footnote_id].text == text
        assert multi_line(by_id[footnote_id])


@pytest.mark.slow
def test_3m_10k_keeps_every_word_and_whole_definitions(three_m: Processed) -> None:
    _check_real("3m", three_m)


@pytest.mark.slow
def test_pfizer_10k_keeps_every_word_and_whole_definitions(pfizer: Processed) -> None:
    _check_real("pfizer", pfizer)


@pytest.mark.slow
def test_pfizer_10k_notes_never_cited_are_counted_not_a_problem(pfizer: Processed) -> None:
    """A 10-K defines notes its text does not cite (28 of Pfizer 2021's 141)."""
    counts = citation_counts(pfizer.index)
    assert (len(counts.counts), len(counts.orphans), len(counts.unresolved)) == (141, 28, 0)
    assert counts.problems(max_unresolved_share=0.05) == []


def test_citations_need_a_look_when_none_is_cited_or_too_many_lack_a_definition(
        earnings: Processed) -> None:
    counts = citation_counts(earnings.index)
    assert counts.problems(max_unresolved_share=0.05) == []
    none_cited = counts.model_copy(update={"orphans": list(counts.counts)})
    assert none_cited.problems(0.05) == [
        "none of the 46 footnotes is cited: were the markers read?"]
    lacking = counts.model_copy(update={"unresolved": ["[9] (page 3): x"] * 4})
    assert lacking.problems(0.05) == [
        "4 of 60 citations have no definition (6.7%, limit 5%)"]
    assert lacking.problems(0.07) == []


def test_gdpr_keeps_every_word_and_whole_definitions(gdpr: Processed) -> None:
    _check_real("gdpr", gdpr)


def test_earnings_release_definitions_are_complete(earnings: Processed) -> None:
    completeness = definition_completeness(earnings.index, earnings_truth())
    assert completeness.expected == 46
    assert completeness.incomplete == []
    assert completeness.cites_recorded == completeness.cites_expected > 0
    assert completeness.citing_pages_found == completeness.citing_pages_expected


def test_a_truncated_definition_is_reported_incomplete(earnings: Processed) -> None:
    """The metric measures the text itself: a definition cut to its first line fails it."""
    truth = earnings_truth()
    index = earnings.index.model_copy(deep=True)
    longest = max(index.footnotes, key=lambda f: len(f.text))
    longest.text = longest.text[: len(longest.text) // 2]
    completeness = definition_completeness(index, truth)
    assert completeness.complete == completeness.expected - 1
    assert completeness.incomplete[0].startswith(longest.marker)


def test_conservation_reports_a_dropped_body_line(earnings: Processed) -> None:
    stitched = [p.model_copy() for p in earnings.stitched]
    lines = stitched[2].text.split("\n")
    dropped = next(line for line in lines if len(line.split()) > 6 and "{" not in line)
    stitched[2].text = "\n".join(line for line in lines if line != dropped)
    conservation = text_conservation(earnings.pages, earnings.index, stitched)
    assert conservation.words_lost >= 6
    assert conservation.lost[0].page_index == 2 and conservation.lost[0].where == "body"


FINANCEBENCH = CORPORA / "financebench-dev" / "pdfs"


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["MGMRESORTS_2018_10K", "AMERICANWATERWORKS_2022_10K", "COCACOLA_2017_10K"]
)
def test_financebench_filings_keep_every_word(name: str) -> None:
    """MGM 2018 holds lines with a bare line feed inside (they once broke the loader);
    American Water 2022 is the longest filing of the set; Coca-Cola 2017 numbers superscript notes
    afresh on each page and draws "_____" signature lines (no separator zones in a PDF)."""
    processed = process_real(FINANCEBENCH / f"{name}.pdf")
    for page in processed.pages:
        assert len(page.line_sizes) == len(page.lines)
    conservation = text_conservation(processed.pages, processed.index, processed.stitched)
    assert conservation.words_checked > 90_000 and conservation.lost == []
