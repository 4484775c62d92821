"""Rows printed as text under a ruled header (core/chunks/header_rows.py): one table whose
columns keep their names, on a hand-made page and on JPMorgan's 10-Q, and no printed line lost."""

from __future__ import annotations

from rag_assets.core.chunks.header_rows import rows_under_header, text_tables
from rag_assets.core.chunks.units import (
    StitchedTable,
    Unit,
    page_tables,
    stitched_units,
    unruled_tables,
)
from rag_assets.core.footnotes.stitching import StitchedPage
from rag_assets.core.ingest.pages import markdown_cells

# a bank's segment results as JPMorgan prints them: names over "year | year | Change", ruled;
# the rows below as plain text, with a note marker after a figure, "NM" cells, a label wrapped
# over two lines, and a ratio row that leaves its Change cells blank
PAGE = """Segment results
| Three months ended June 30, | Retail Banking |  |  | Markets |  |  |
|---|---|---|---|---|---|---|
| (in millions, except ratios) | 2024 | 2023 | Change | 2024 | 2023 | Change |
Total net revenue $ 4,210 $ 3,980 6 % $ (312) $ 145 NM
Provision for credit losses 120 (40) NM 15 9 67
Income before income
tax expense 1,905 1,733 10 (380) 12 NM
Net income/(loss) 1,402 1,268 (a) 11 (295) 9 (a) NM
Return on equity 21 % 19 % (4) % 1 %
The following sections discuss each segment."""


def _page(text: str) -> StitchedPage:
    return StitchedPage(page_index=3, page_label="4", text=text, section=None)


def test_text_rows_join_the_ruled_header_as_one_named_table() -> None:
    [table] = page_tables(PAGE, 3)
    header = markdown_cells(table.lines[0])
    assert header == ["USD millions", "Retail Banking three months 2024",
                      "Retail Banking three months 2023", "Retail Banking Change",
                      "Markets three months 2024", "Markets three months 2023", "Markets Change"]
    rows = {markdown_cells(line)[0]: markdown_cells(line)[1:] for line in table.lines[4:]}
    assert rows["Total net revenue"] == ["$ 4,210", "$ 3,980", "6 %", "$ (312)", "$ 145", "NM"]
    # a marker stays in its cell, as printed; a wrapped label is one row
    assert rows["Net income/(loss)"][1] == "1,268 (a)"
    assert rows["Income before income tax expense"] == ["1,905", "1,733", "10", "(380)", "12",
                                                        "NM"]
    assert "Return on equity" not in " ".join(rows)


def test_no_printed_line_is_lost() -> None:
    units = list(stitched_units([_page(PAGE)]))
    tables = [u for u in units if isinstance(u, StitchedTable)]
    prose = " ".join(u.text for u in units if isinstance(u, Unit))
    kept = " ".join(f"{t.title} {' '.join(t.lines)}" for t in tables) + " " + prose
    for line in PAGE.split("\n"):
        if not line.startswith("|"):
            for word in line.split():
                assert word in kept, (word, line)
    assert "Return on equity 21 % 19 %" in prose  # the ratio row stays prose, as printed


def test_a_table_with_figures_of_its_own_takes_no_text_rows() -> None:
    table = ["| Segment | 2024 | 2023 |", "|---|---|---|", "| Retail | 4,210 | 3,980 |"]
    assert rows_under_header(table, ["Markets 312 145"], 0) == ([], 0)
    # nor does a header whose width no line fits
    header = ["| | 2024 | 2023 | Change |", "|---|---|---|---|"]
    assert rows_under_header(header, ["Revenue 4,210 3,980"], 0) == ([], 0)


# a table printed without rules, under a stacked header of dates and "% Change" columns, the
# way Pfizer's 10-Q prints revenue by geography
UNRULED = """Revenues by geographic area:
Three Months Ended Six Months Ended
(MILLIONS)
March 31,
2024
April 2,
2023
%
Change
March 31,
2024
April 2,
2023
%
Change
North America $ 4,100 $ 3,900 5 $ 8,300 $ 7,700 8
Europe 1,200 1,500 (20) 2,500 2,900 (14)
Asia 900 850 6 1,800 1,650 9
Total $ 6,200 $ 6,250 (1) $ 12,600 $ 12,250 3
Revenues fell in Europe."""


def test_a_table_without_rules_is_read_with_its_columns_named() -> None:
    [(title, lines)] = text_tables(UNRULED.split("\n"))
    assert title == "Revenues by geographic area:"
    assert markdown_cells(lines[0]) == [
        "USD millions", "three months 2024", "three months 2023", "three months % change",
        "six months 2024", "six months 2023", "six months % change"]
    assert markdown_cells(lines[3]) == ["Europe", "1,200", "1,500", "(20)", "2,500", "2,900",
                                        "(14)"]
    assert len(lines) == 2 + 4  # the header, its rule and the four rows; the prose after stays
    # columns the headings do not name (one "% Change" missing) make no table
    unnamed = UNRULED.replace("%\nChange\nMarch", "March", 1)
    assert text_tables(unnamed.split("\n")) == []
    # nor do two lines of figures
    assert text_tables(UNRULED.split("\n")[:-3]) == []


def test_a_label_ending_in_a_year_and_a_ruled_table_after_the_rows() -> None:
    header = ["| Debt | 2024 | 2023 |", "|---|---|---|"]
    lines = ["Senior notes due 2027 500 600", "Term loan 250 300",
             "| (in millions) | A | B |", "Other 1 2"]
    rows, end = rows_under_header(header, lines, 0)
    # a figure past the value columns belongs to the label; the next ruled table ends the rows
    assert [markdown_cells(r) for r in rows] == [["Senior notes due 2027", "500", "600"],
                                                 ["Term loan", "250", "300"]]
    assert end == 2


def test_a_caption_is_never_taken_out_of_the_prose_above_a_stacked_header() -> None:
    text = "\n".join([
        "We grew in each of our regions and we continue to invest in the business.",
        "Three months ended", "December 31,", "2022", "| North | 5 |", "|---|---|",
        "| South | 7 |"])
    units = list(stitched_units([_page(text)]))
    [table] = [u for u in units if isinstance(u, StitchedTable)]
    assert table.title == "2022"
    prose = " ".join(u.text for u in units if isinstance(u, Unit))
    assert "We grew in each of our regions and we continue to invest in the business." in prose


# JPMorgan's 10-Q for 2021 Q1, p160, as stored: the four segments' table, then Corporate's,
# the reconciling items' and the total's, printed right under it with a header of its own
TWO_TABLES = """Segment results and reconciliation(a)
| As of or for the three months ended March 31, | Consumer & Community Banking |  | \
Commercial Banking |  |
|---|---|---|---|---|
| (in millions, except ratios) | 2021 | 2020 | 2021 | 2020 |
| Total net revenue | 12,517 | 13,287 | 2,393 | 2,165 |
| As of or for the three months ended March 31, | Corporate |  | Total |  |
|---|---|---|---|---|
| (in millions, except ratios) | 2021 | 2020 | 2021 | 2020 |
| Total net revenue | (473) | 166 | 32,266 | 28,286 |"""


def test_a_table_printed_right_under_another_is_read_under_its_own_header() -> None:
    first, second = page_tables(TWO_TABLES, 159)
    assert markdown_cells(first.lines[0])[1] == "Consumer & Community Banking three months 2021"
    assert markdown_cells(second.lines[0])[1:] == [
        "Corporate three months 2021", "Corporate three months 2020", "Total three months 2021",
        "Total three months 2020"]
    assert markdown_cells(second.lines[-1]) == [
        "Total net revenue", "(473)", "166", "32,266", "28,286"]


# Corning's 2015 10-K, page 143 as the text layer prints it: the header on the caption's line
CAPTIONED = ("Corning Index 20. Reportable Segments (continued) Selected financial information "
             "concerning the Company’s product lines and reportable segments follow (in "
             "millions): Years Ended December 31, Revenues from External Customers 2015 2014 "
             """2013
Display Technologies $ 3,086 $ 3,851 $ 2,545
Optical Communications Carrier network 2,194 2,036 1,782
Enterprise network 786 616 544
Total Optical Communications 2,980 2,652 2,326
All Other 64 53 8
$ 9,111 $ 9,715 $ 7,819
© 2016 Corning Incorporated. All Rights Reserved. -141-""")


def test_a_caption_line_that_ends_in_the_years_heads_the_rows_under_it() -> None:
    [(title, lines)] = text_tables(CAPTIONED.split("\n"))
    assert title.endswith("follow (in millions): Years Ended December 31, Revenues from "
                          "External Customers")
    assert markdown_cells(lines[0]) == ["USD millions", "2015", "2014", "2013"]
    assert markdown_cells(lines[2]) == ["Display Technologies", "$ 3,086", "$ 3,851",
                                        "$ 2,545"]
    assert markdown_cells(lines[-1]) == ["", "$ 9,111", "$ 9,715", "$ 7,819"]
    assert len(lines) == 2 + 6  # the caption is no row, the page footer none either
    # a line of prose that ends in a sentence is no caption
    assert text_tables([CAPTIONED.split("\n")[0] + ".", *CAPTIONED.split("\n")[1:4]]) == []


# Corning's 2015 10-K, page 29: a stacked header whose "% Change" cells print before the years
STACKED = """Net Sales The following table presents net sales by reportable segment (in millions):
Year ended December 31, %
Change %
Change 2015 2014 2013 15 vs. 14 14 vs. 13
Display Technologies $ 3,086 $ 3,851 $ 2,545 (20)% 51%
Optical Communications 2,980 2,652 2,326 12% 14%
Environmental Technologies 1,053 1,092 919 (4)% 19%"""


def test_change_columns_are_named_by_their_cells_and_the_years_they_compare() -> None:
    [(_, lines)] = text_tables(STACKED.split("\n"))
    assert markdown_cells(lines[0])[1:] == ["2015", "2014", "2013", "% change 15 vs. 14",
                                            "% change 14 vs. 13"]
    assert markdown_cells(lines[3]) == ["Optical Communications", "2,980", "2,652", "2,326",
                                        "12%", "14%"]
    # without the years compared the two change columns would share a name: no table
    unnamed = STACKED.replace(" 15 vs. 14 14 vs. 13", "")
    assert text_tables(unnamed.split("\n")) == []


# Corning's 2018 10-K, page 25: the "%" cells on one line, their "change" words on the next
STACKED_APART = """The following table presents segment net sales by reportable segment \
(in millions):
            % %
            Years ended December 31, change change
            2018 2017 2016 18 vs. 17 17 vs. 16
Display Technologies $ 3,276 $ 3,137  $ 3,288  4% (5)%
Optical Communications 4,192 3,545  3,005  18% 18%
Specialty Materials 1,479 1,403  1,124  5% 25%
Environmental Technologies 1,289 1,106  1,032  17% 7%"""


def test_percent_cells_over_their_change_words_name_one_change_column_each() -> None:
    [(title, lines)] = text_tables(STACKED_APART.split("\n"))
    assert title.startswith("The following table presents segment net sales")
    assert markdown_cells(lines[0])[1:] == ["2018", "2017", "2016", "% change 18 vs. 17",
                                            "% change 17 vs. 16"]
    assert markdown_cells(lines[3]) == ["Optical Communications", "4,192", "3,545", "3,005",
                                        "18%", "18%"]
    # a "%" line whose count the "change" words do not match is read as printed: no table
    uneven = STACKED_APART.replace("            % %", "            %")
    assert text_tables(uneven.split("\n")) == []


# American Water's 2017 10-K, page 57: each comparison heads an amount and a percentage
COMPARED_PAIRS = """The following table summarizes certain financial information for our \
Regulated Businesses :
            For the Years Ended December 31,
            Increase
            (Decrease)
            Increase
            (Decrease)
            2017 2016 2015 2017 vs. 2016 2016 vs. 2015
(Dollars in millions) $ % $ %
Operating revenues $ 2,958 $ 2,871 $ 2,743 $ 87 3.0 $ 128 4.7
Operation and maintenance 1,091 1,176 1,095 (85) (7.2) 81 7.4
Operating expenses, net 1,781 1,852 1,732 (71) (3.8) 120 6.9"""


def test_each_comparison_heads_its_amount_and_its_percentage() -> None:
    [(title, lines)] = text_tables(COMPARED_PAIRS.split("\n"))
    assert title.startswith("The following table summarizes certain financial information")
    assert markdown_cells(lines[0]) == [
        "USD millions", "2017", "2016", "2015", "change 2017 vs. 2016", "% change 2017 vs. 2016",
        "change 2016 vs. 2015", "% change 2016 vs. 2015"]
    assert markdown_cells(lines[3]) == ["Operation and maintenance", "1,091", "1,176", "1,095",
                                        "(85)", "(7.2)", "81", "7.4"]
    # one "%" for two comparisons: which column is which is not printed, no table
    unsure = COMPARED_PAIRS.replace("$ % $ %", "$ % $")
    assert text_tables(unsure.split("\n")) == []


def test_a_caption_that_ends_in_years_starts_the_next_table_and_a_row_of_years_is_none() -> None:
    # Corning 2015 p.102's second caption, under a first table: it heads its own rows
    lines = ["Deferred taxes follow (in millions): December 31, 2015 2014",
             "Inventories 120 110", "Pensions 80 75", "Other 12 10",
             "They are classified as follows (in millions): December 31, 2015 2014",
             "Current assets 20 22", "Non-current assets 192 173", "Total 212 195"]
    tables = text_tables(lines)
    assert [title for title, _ in tables] == [
        "Deferred taxes follow (in millions): December 31,",
        "They are classified as follows (in millions): December 31,"]
    assert all(len(rows) == 2 + 3 for _, rows in tables)  # no caption read as a row of years
    # a row whose figures look like years, under prose, is a row: no header of 1950 ... 2001
    counts = ["Store counts at year end.", "Asia 1950 1975 2001", "Europe 812 790 700",
              "Americas 1,204 1,190 1,100", "Africa 12 11 10"]
    assert text_tables(counts) == []


def test_change_columns_without_their_years_are_named_by_the_years_before_them() -> None:
    # Nike 2022 p.37: each "% CHANGE" after the two fiscal years it compares
    lines = ["(Dollars in millions)", "FISCAL 2022 FISCAL 2021 % CHANGE FISCAL 2020 % CHANGE",
             "North America $ 5,114 $ 5,089 0 % $ 2,899 76 %",
             "Europe, Middle East & Africa 3,293 2,435 35 % 1,541 58 %",
             "Greater China 2,365 3,243 -27 % 2,490 30 %"]
    [(_, rows)] = text_tables(lines)
    assert markdown_cells(rows[0])[1:] == ["2022", "2021", "% change 2022 vs. 2021", "2020",
                                           "% change 2021 vs. 2020"]


def test_a_short_caption_with_its_years_keeps_its_words_as_the_title() -> None:
    lines = ["The Company reports three segments.",
             "Net sales by platform were (in millions): 2021 2020 2019",
             "Taste Elevation $ 7,267 $ 6,808 $ 6,581", "Fast Fresh Meals 6,665 6,819 6,298",
             "Flavorful Hydration 1,777 1,648 1,495"]
    [(title, rows)] = text_tables(lines)
    assert title == "Net sales by platform were (in millions):"
    assert markdown_cells(rows[0]) == ["USD millions", "2021", "2020", "2019"]


def test_an_unruled_tables_lead_is_the_last_sentence_before_its_last_colon() -> None:
    [table] = unruled_tables(CAPTIONED, 142)
    assert table.lead is not None and table.lead.text == (
        "Reportable Segments (continued) Selected financial information concerning the "
        "Company’s product lines and reportable segments follow (in millions):")
    assert table.title == "Years Ended December 31, Revenues from External Customers"
    # a note's number leads into nothing; prose run onto a title is no part of it
    noted = CAPTIONED.replace(CAPTIONED.split("\n")[0], "Note 4: Segment Information 2015 "
                              "2014 2013")
    [table] = unruled_tables(noted, 142)
    assert table.lead is None and table.title == "Note 4: Segment Information"


def test_a_stacked_change_heading_is_named_by_the_words_under_it() -> None:
    # Nike 2022 p.37: "% CHANGE" beside "% CHANGE / EXCLUDING / CURRENCY / CHANGES" for each
    # pair of years, and note markers after a heading and after two labels
    lines = ["The breakdown of Revenues is as follows:",
             "(Dollars in millions) FISCAL 2022 FISCAL 2021 % CHANGE (1) (1)", "% CHANGE",
             "EXCLUDING", "CURRENCY", "CHANGES FISCAL 2020 % CHANGE", "% CHANGE", "EXCLUDING",
             "CURRENCY", "CHANGES",
             "North America $ 18,353 $ 17,179 7 % 7 % $ 14,484 19 % 19 %",
             "Greater China 7,547 8,290 -9 % -13 % 6,679 24 % 19 %",
             "Asia Pacific & Latin America (2) 5,955 5,343 11 % 16 % 5,028 6 % 8 %",
             "Corporate (4) (72) 40 — — (11) — —",
             "TOTAL NIKE, INC. REVENUES $ 46,710 $ 44,538 5 % 6 % $ 37,403 19 % 17 %"]
    [(title, rows)] = text_tables(lines)
    assert title == "The breakdown of Revenues is as follows:"
    assert markdown_cells(rows[0])[1:] == [
        "2022", "2021", "% change 2022 vs. 2021",
        "% change excluding currency changes 2022 vs. 2021", "2020", "% change 2021 vs. 2020",
        "% change excluding currency changes 2021 vs. 2020"]
    # a marker after the label is the label's, in a run of rows one cell narrower
    assert markdown_cells(rows[4]) == ["Asia Pacific & Latin America (2)", "5,955", "5,343",
                                       "11 %", "16 %", "5,028", "6 %", "8 %"]
    assert markdown_cells(rows[5])[:3] == ["Corporate (4)", "(72)", "40"]
    assert len(rows) == 2 + 5  # no row lost
    # without the words under it, the second change of each pair would share the first's name
    bare = [line.replace("CHANGES ", "") for line in lines
            if line not in ("EXCLUDING", "CURRENCY", "CHANGES")]
    assert text_tables(bare) == []


def test_a_marker_on_the_first_rows_label_is_the_labels() -> None:
    lines = ["(Dollars in millions) FISCAL 2022 FISCAL 2021 % CHANGE",
             "North America (1) $ 18,353 $ 17,179 7 %",
             "Greater China 7,547 8,290 -9 %", "Converse 2,346 2,205 6 %"]
    [(_, rows)] = text_tables(lines)
    assert markdown_cells(rows[2]) == ["North America (1)", "$ 18,353", "$ 17,179", "7 %"]


# Pfizer's Q2 2023 release, page 3, as its text layer prints it: the table opens the page,
# its units beside its durations, each "% Change" over "Total Oper."
PFIZER_REVENUES = """REVENUES
($ in millions) Second-Quarter Six Months
2023 2022
% Change
2023 2022
% Change
Total Oper. Total Oper.
Global Biopharmaceuticals
Business (Biopharma)(6) $ 12,418 $ 27,425 (55%) (54%) $ 30,389 $ 52,748 (42%) (40%)
Primary Care(6) 5,810 20,979 (72%) (72%) 17,315 39,830 (57%) (55%)
Specialty Care(6) 3,653 3,358 9% 12% 7,264 6,863 6% 10%
Oncology(6) 2,956 3,088 (4%) (3%) 5,811 6,055 (4%) (2%)
Business Innovation $ 316 $ 317 — — $ 626 $ 655 (4%) (3%)
TOTAL REVENUES $ 12,734 $ 27,742 (54%) (53%) $ 31,015 $ 53,402 (42%) (40%)
Beginning in the third quarter of 2022, Pfizer made several organizational changes."""


def test_a_change_heading_over_sub_headings_names_a_column_for_each() -> None:
    """"% Change" over "Total Oper." heads two columns (reported and operational); the units
    line beside the durations is a heading line, and the first line, which names no column,
    is the title. (Found asking check's company's release: in-sample.)"""
    [(title, lines)] = text_tables(PFIZER_REVENUES.split("\n"))
    assert title == "REVENUES"
    assert markdown_cells(lines[0]) == [
        "USD millions", "three months 2023", "three months 2022", "three months % change total",
        "three months % change oper", "six months 2023", "six months 2022",
        "six months % change total", "six months % change oper"]
    assert markdown_cells(lines[3]) == ["Primary Care(6)", "5,810", "20,979", "(72%)", "(72%)",
                                        "17,315", "39,830", "(57%)", "(55%)"]
    # sub-headings that do not add up to the columns name none
    uneven = PFIZER_REVENUES.replace("Total Oper. Total Oper.", "Total Oper. Total")
    assert text_tables(uneven.split("\n")) == []


# Activision Blizzard's Q2 2023 10-Q (p.50) as the text layer prints it: "Increase/" over
# "(decrease)" heads a column of each period's change in amount, and a caption stands between
# the header and the rows
ACTIVISION_CHANNELS = """The following table details our consolidated net revenues by distribution \
channel (amounts in millions):
For the Three Months Ended June 30, For the Six Months Ended June 30,
2023 2022
Increase/
(decrease) 2023 2022
Increase/
(decrease)
Net revenues by distribution channel:
Digital online channels (1) $ 2,012 $ 1,474 $ 538 $ 4,168 $ 3,063 $ 1,105
Retail channels 81 65 16 185 151 34
Other (2) 114 105 9 237 198 39
Total consolidated net revenues $ 2,207 $ 1,644 $ 563 $ 4,590 $ 3,412 $ 1,178
(1) Net revenues from "Digital online channels" include revenues from digitally-distributed \
downloadable content."""


def test_an_amount_change_column_and_a_caption_under_the_header_are_read() -> None:
    """An "Increase/(decrease)" column is each duration's change in amount ("three months
    change"), not a rate; the caption under the header is a row of the table, every printed
    line kept. Before, the four columns of years did not name the six columns and no table was
    read."""
    [(title, lines)] = text_tables(ACTIVISION_CHANNELS.split("\n"))
    assert title.startswith("The following table details our consolidated net revenues")
    assert markdown_cells(lines[0])[1:] == [
        "three months 2023", "three months 2022", "three months change", "six months 2023",
        "six months 2022", "six months change"]
    assert markdown_cells(lines[2])[0] == "Net revenues by distribution channel:"
    assert markdown_cells(lines[3]) == ["Digital online channels (1)", "$ 2,012", "$ 1,474",
                                        "$ 538", "$ 4,168", "$ 3,063", "$ 1,105"]
    assert len(lines) == 2 + 1 + 4
    # a wrapped sentence that ends in a colon is no caption under a header (its years head no
    # columns), lower case or not
    for opening in ("was as follows:", "Revenue by segment was as follows:"):
        prose = ["Compared with 2022, our revenue in 2023 by segment", opening,
                 "Americas $ 1,200 $ 1,100 9", "EMEA 900 950 (5)", "Asia 700 600 17",
                 "Total $ 2,800 $ 2,650 6"]
        assert text_tables(prose) == []
    # a retailer's header of weeks heads the columns as one of months does
    weeks = ["Thirteen Weeks Ended Thirty-nine Weeks Ended", "May 7, May 8, May 7, May 8,",
             "2023 2022 2023 2022", "Net sales by segment:", "U.S. $ 1,200 $ 1,100 $ 3,600 $ 3,300",
             "Canada 300 280 900 840", "Other 100 90 300 270"]
    [(_, weekly)] = text_tables(weeks)
    assert markdown_cells(weekly[2])[0] == "Net sales by segment:"
    # without the header, which column is which is not printed: no table
    headless = ACTIVISION_CHANNELS.split("\n")[7:]
    assert headless[0] == "Net revenues by distribution channel:"
    assert text_tables(headless) == []
