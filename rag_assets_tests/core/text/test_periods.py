"""The length of the period a question asks, and the dates it prints: a quarter by its span
("the three months ended", "13 weeks ended"), never a maturity, a rate's tenor or a part of a
year that a fiscal year includes."""

from __future__ import annotations

import pytest

from rag_assets.core.text.periods import (
    dates_named,
    horizons,
    in_quarter,
    months_asked,
    quarter_end,
    same_year_dates,
    stated_length,
)


@pytest.mark.parametrize(("text", "months"), [
    ("What was the free cash flow for the first three months of 2023?", 3),
    ("What was revenue for the three months ended April 30, 2023?", 3),
    ("What were net sales for the 13 weeks ended April 29, 2023?", 3),
    ("What was revenue in the quarter ended June 30, 2023?", 3),
    ("How did it affect first-quarter 2018 net income?", 3),
    ("What was operating income in Q1 2023?", 3),
    ("What were net sales for the 24 weeks ended February 12, 2023?", 6),
    ("What was capex for the first six months of 2023?", 6),
    ("What were net sales for the 36 weeks ended May 7, 2023?", 9),
    # the year to date through a quarter: the 10-Q's second column (S-X Rule 10-01(c)(2))
    ("What were Corning's revenues for the year to date through Q2 2023?", 6),
    ("What was net income year-to-date through the third quarter of 2022?", 9),
    ("What were YTD sales through Q1 2023?", 3),
    ("What is Costco's cash, including investments with maturities of three months or less, "
     "at the end of fiscal 2021?", 12),
    ("What did three month LIBOR average in 2021?", 12),
    ("What was 3M's revenue for the four quarters ended December 31, 2018?", 12),
    ("What was fiscal 2022 revenue, which includes 3 months of Asda?", 12),
    ("What was Acme's FY2022 revenue?", 12),
])
def test_the_months_a_question_asks(text: str, months: int) -> None:
    assert months_asked(text) == months


def test_dates_as_prose_prints_them() -> None:
    assert dates_named("declared on August 9,  2023 and payable September 8, 2023") == [
        "August 9, 2023", "September 8, 2023"]
    assert dates_named("in May 2023, as of 2023-05-01") == []


def test_the_spans_ahead_a_plan_names() -> None:
    # American Water's 2022 10-K: a plan over five years and one over ten, in one sentence
    assert horizons("expects to invest between $14 billion to $15 billion over the next five "
                    "years, and between $30 billion to $34 billion over the next 10 years, "
                    "including $2.9 billion in 2023") == [5, 10]
    assert horizons("over the next five fiscal years") == [5]
    # a span behind, or a year ahead, is no span ahead
    assert horizons("over the past five years; next year; in the next 12 months") == []


@pytest.mark.parametrize(("heading", "a_period"), [
    ("Year ended December 31, 2021", True),
    ("As of December 31, 2021", True),
    # Kraft Heinz 2019's segment table heads its columns with the fiscal year's last day:
    # a date names no measure ("United States had the most december 28, in 2019")
    ("December 28, 2019", True),
    ("Revenue 2024", False),
    ("Net sales", False),
])
def test_a_heading_that_only_dates_its_column(heading: str, a_period: bool) -> None:
    from rag_assets.core.text.periods import PERIOD_CAPTION_RE

    assert bool(PERIOD_CAPTION_RE.match(heading)) is a_period


def test_the_quarter_a_10q_cover_reports_and_the_months_in_it() -> None:
    # Corning's Q2 2023 10-Q cover, as its text layer prints it (a line break in the date)
    cover = "FORM 10-Q QUARTERLY REPORT ... For the quarterly period ended June\n30, 2023"
    assert quarter_end(["no cover here", cover]) == (2023, 6)
    assert quarter_end(["For the fiscal year ended December 31, 2022"]) is None
    assert [in_quarter((2023, m), (2023, 6)) for m in (3, 4, 5, 6, 7)] == [
        False, True, True, True, False]
    assert in_quarter((2022, 12), (2023, 2))  # a quarter that spans the new year


@pytest.mark.parametrize(("text", "same"), [
    # Foot Locker's 10-Q balance sheet: October 29, 2022, October 30, 2021 and January 29,
    # 2022 (its fiscal year's end): two dates of 2022, two columns
    ("By how much did merchandise inventories change from January 29, 2022 to October 29, "
     "2022?", True),
    ("By how much did merchandise inventories increase between October 30, 2021 and October "
     "29, 2022?", False),
    # a date that names the document is no column's
    ("In its 8-K dated May 20, 2022, what were inventories at October 29, 2022?", False),
    ("What was revenue for the three months ended June 30, 2023 and the six months ended "
     "June 30, 2023?", False),
])
def test_two_dates_of_one_year_are_told_apart_from_dates_of_two(text: str, same: bool) -> None:
    assert same_year_dates(text) is same


def test_a_column_date_is_one_date_whether_its_month_is_cut_short_or_not() -> None:
    from rag_assets.core.text.periods import calendar_dates

    assert calendar_dates("Backlog June 25, 2023 Dec. 31, 2022") == [(2023, 6, 25), (2022, 12, 31)]
    assert calendar_dates("from December 31, 2022 to Sept. 30, 2023") == [(2022, 12, 31),
                                                                          (2023, 9, 30)]
    assert calendar_dates("fiscal 2023, 31 weeks") == []


@pytest.mark.parametrize(("text", "length"), [
    # MGM Resorts' Q4 2022 release prints each segment's quarter, then its year, in its own words
    ("Adjusted Property EBITDAR margin of 32.2% in the current quarter compared to 34.4% in the "
     "prior year quarter, a decrease of 215 basis points", 3),
    ("Adjusted Property EBITDAR margin of 33.9% in the current year compared to 35.9% in the "
     "prior year, a decrease of 197 basis points", 12),
    ("Net revenues increased 10% due to an increase in business volume", None),
    ("the current quarter and the current year", None),
    # "the prior year" is any period's base (the review's cases)
    ("Net sales increased 6% compared to the same period in the prior year", None),
    ("compared to the second quarter of the prior year", None),
])
def test_a_releases_own_words_state_its_periods_length(text: str, length: int | None) -> None:
    assert stated_length(text) == length
