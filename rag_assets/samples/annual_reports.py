"""Fictitious annual reports: Northwind Industrial Holdings and Bluefin Therapeutics, 2022-2024.

Three fiscal years per company give the pipeline temporal questions ("net income in fiscal
2023?") whose answer depends on picking the right (document, year) partition, and 10-K style
footnotes: ``(1)``, ``(a)``, ``*`` markers glued to a word or number in table cells and prose,
defined directly under the table (7.5 pt) or, for prose, at the page bottom after a short rule.

Figures come from one table of yearly data per company, so the prior-year column of the 2023
report equals the current-year column of the 2022 report, and so on.

Every report has five pages (zero-based): 0 letter to shareholders, 1 MD&A, 2 income statement
(Table 1), 3 segment table (Table 2), 4 outlook and risks. The same marker is defined under both
tables with DIFFERENT meanings, as real 10-Ks do: ``(1)`` and ``(2)`` on pages 2 and 3 in the
Northwind reports, ``(a)`` and ``(b)`` on pages 2 and 3 in the Bluefin reports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rag_assets.core.evaluation.questions import (
    GoldenQuestion,
    QuestionCategory,
)
from rag_assets.core.footnotes.groundtruth import FootnoteTruth, write_truth
from rag_assets.samples.base import SampleFile, numbered_question, publish, report_dir
from rag_assets.samples.pdf_layout import (
    Heading,
    Page,
    Paragraph,
    Table,
    Title,
    pages_truth,
    render_pdf,
)

YEARS = (2022, 2023, 2024)
N_PAGES = 5
LETTER_PAGE, MDNA_PAGE, INCOME_PAGE, SEGMENT_PAGE, OUTLOOK_PAGE = range(N_PAGES)


@dataclass(frozen=True)
class Figures:
    """One fiscal year of consolidated figures in $ millions; derived lines are computed."""

    revenue: int
    cost_of_sales: int
    operating_expenses: int
    other: int  # interest and other, net (negative is an expense)
    tax: int
    diluted_shares: int  # millions
    segment_revenue: Mapping[str, int]
    segment_income: Mapping[str, int] = field(default_factory=dict)

    @property
    def gross_profit(self) -> int:
        return self.revenue - self.cost_of_sales

    @property
    def operating_income(self) -> int:
        return self.gross_profit - self.operating_expenses

    @property
    def pretax(self) -> int:
        return self.operating_income + self.other

    @property
    def net_income(self) -> int:
        return self.pretax - self.tax

    @property
    def eps(self) -> str:
        return f"{self.net_income / self.diluted_shares:.2f}"


@dataclass(frozen=True)
class StoryQuestion:
    """A hand-written question about one year's events (usually footnote-dependent)."""

    question: str
    category: QuestionCategory
    pages: Sequence[int]
    facts: Sequence[str]
    markers: Sequence[str] = ()


@dataclass(frozen=True)
class Story:
    """What happened in one fiscal year: prose with markers and the markers' definitions."""

    theme: str
    letter: Sequence[str]  # extra letter paragraphs (markers defined in letter_notes)
    letter_notes: Sequence[str]
    non_gaap_value: str  # e.g. "$585 million" (Adjusted EBITDA) or "$3.98" (Core EPS)
    non_gaap_note: str  # "* ..." definition, page bottom of the letter page
    mdna: Sequence[str]
    mdna_notes: Sequence[str]
    income_notes: Sequence[str]  # under Table 1, in marker order
    segment_notes: Sequence[str]  # under Table 2, in marker order
    outlook: str
    outlook_note: str
    questions: Sequence[StoryQuestion]


@dataclass(frozen=True)
class Company:
    """A fictitious company and its yearly data (including the year before the first report)."""

    document: str
    name: str
    short: str
    sales_label: str  # "Net sales" or "Total revenue"
    segment_title: str
    segment_label: str  # first header cell of the segment table
    income_markers: Mapping[str, str]  # Table 1 row label -> marker as printed after it
    segment_markers: Mapping[str, str]  # Table 2 row label -> marker
    non_gaap_name: str  # "Adjusted EBITDA" or "Core EPS"
    figures: Mapping[int, Figures]
    stories: Mapping[int, Story]
    risks: str
    # a question every report of the company leaves open (``{year}`` is filled in): the golden
    # set's ``unanswerable`` question, asked last
    unanswerable: str = ""


def _m(value: int) -> str:
    """``1,234`` style, with a hyphen-minus for negatives (no parentheses: they look like
    ``(1)`` markers)."""
    return f"{value:,}"


def _pct_change(new: int, old: int) -> str:
    change = (new - old) / abs(old) * 100
    return f"{'up' if change >= 0 else 'down'} {abs(change):.1f}%"


# --------------------------------------------------------------------------------------------
# Northwind Industrial Holdings
# --------------------------------------------------------------------------------------------

_NORTHWIND_FIGURES = {
    2021: Figures(3050, 2196, 520, -28, 68, 120,
                  {"Flow Control": 1420, "Power Systems": 1210, "Filtration": 420},
                  {"Flow Control": 190, "Power Systems": 160, "Filtration": 36,
                   "Corporate and other": -52}),
    2022: Figures(3310, 2350, 560, -30, 89, 120,
                  {"Flow Control": 1540, "Power Systems": 1330, "Filtration": 440},
                  {"Flow Control": 215, "Power Systems": 190, "Filtration": 45,
                   "Corporate and other": -50}),
    2023: Figures(3420, 2394, 610, 10, 124, 118,
                  {"Flow Control": 1610, "Power Systems": 1480, "Filtration": 330},
                  {"Flow Control": 228, "Power Systems": 222, "Filtration": 28,
                   "Corporate and other": -62}),
    2024: Figures(3285, 2267, 575, -33, 114, 115,
                  {"Flow Control": 1655, "Power Systems": 1630, "Filtration": 0},
                  {"Flow Control": 236, "Power Systems": 255, "Filtration": 0,
                   "Corporate and other": -48}),
}

_NORTHWIND_STORIES = {
    2022: Story(
        theme="a year of strong demand and a first step into high-pressure valves",
        letter=[
            "In November 2022 we acquired Orrin Valves(a), adding a range of high-pressure "
            "valves to Flow Control.",
        ],
        letter_notes=[
            "(a) Purchase price of $96 million in cash. Orrin Valves contributed $18 million of "
            "net sales and an operating loss of $2 million in fiscal 2022.",
        ],
        non_gaap_value="$528 million",
        non_gaap_note="* Adjusted EBITDA is operating income plus depreciation and amortization "
        "of $128 million. It is not a GAAP measure.",
        mdna=[
            "Organic net sales grew 9.3%(b), with price increases contributing about half of "
            "the growth.",
            "Backlog(c) reached $1,480 million at year end.",
        ],
        mdna_notes=[
            "(b) Organic growth excludes the $18 million of Orrin Valves net sales and the "
            "currency effect, which reduced reported net sales by $41 million.",
            "(c) Backlog is unfilled firm orders; about 70% is expected to ship within twelve "
            "months.",
        ],
        income_notes=[
            "(1) Includes $18 million of net sales from Orrin Valves, acquired in November 2022.",
            "(2) Includes $6 million of acquisition costs for Orrin Valves.",
            "(3) Mainly interest on the $600 million of senior notes due 2030.",
        ],
        segment_notes=[
            "(1) Unallocated headquarters, pension and insurance costs that are not attributed "
            "to a segment.",
            "(2) The Board approved the sale of Filtration in December 2022; the unit is "
            "classified as held for sale.",
        ],
        outlook="We expect fiscal 2023 net sales growth of 2% to 4%(d).",
        outlook_note="(d) The outlook includes Filtration only until its expected sale in the "
        "second half of fiscal 2023.",
        questions=[
            StoryQuestion(
                "How much of Northwind's fiscal 2022 net sales came from the Orrin Valves "
                "acquisition, and what did it cost?", "footnote-dependent",
                [LETTER_PAGE, INCOME_PAGE], ["$18 million", "$96 million"], ["(a)", "(1)"]),
            StoryQuestion(
                "What was Northwind's organic net sales growth in fiscal 2022, and how large "
                "was the currency effect it excludes?", "footnote-dependent",
                [MDNA_PAGE], ["9.3%", "$41 million"], ["(b)"]),
            StoryQuestion(
                "What status did the Filtration segment have at the end of fiscal 2022?",
                "footnote-dependent", [SEGMENT_PAGE], ["held for sale"], ["(2)"]),
        ],
    ),
    2023: Story(
        theme="a year of portfolio change, with the sale of our filtration unit",
        letter=[
            "On 30 September 2023 we completed the sale of our filtration unit to Calder Water "
            "for $260 million(a).",
        ],
        letter_notes=[
            "(a) The sale produced a pre-tax gain of $42 million, reported in interest and "
            "other, net. Filtration contributed $330 million of net sales in fiscal 2023 before "
            "the sale.",
        ],
        non_gaap_value="$585 million",
        non_gaap_note="* Adjusted EBITDA is operating income plus depreciation and amortization "
        "of $131 million and restructuring charges of $38 million. It is not a GAAP measure.",
        mdna=[
            "Organic net sales grew 7.7%(b) as Power Systems won large grid orders.",
            "Backlog(c) was $1,530 million at year end.",
        ],
        mdna_notes=[
            "(b) Organic growth excludes Filtration in both years; currency effects were not "
            "significant in fiscal 2023.",
            "(c) Backlog excludes $85 million of Filtration orders transferred to the buyer.",
        ],
        income_notes=[
            "(1) Includes $330 million of net sales from the filtration unit up to its "
            "divestiture on 30 September 2023; fiscal 2022 included $440 million.",
            "(2) Includes $38 million of restructuring charges for the closure of the Dayton "
            "pump plant.",
            "(3) Includes the $42 million pre-tax gain on the divestiture of the filtration "
            "unit, partly offset by $32 million of interest expense.",
        ],
        segment_notes=[
            "(1) Unallocated headquarters costs and, in fiscal 2023, the $38 million Dayton "
            "restructuring charge.",
            "(2) Filtration results are included until the sale on 30 September 2023.",
        ],
        outlook="We expect fiscal 2024 net sales of about $3.3 billion(d).",
        outlook_note="(d) The fiscal 2024 outlook excludes Filtration, which contributed $330 "
        "million of net sales in fiscal 2023.",
        questions=[
            StoryQuestion(
                "How much did the filtration divestiture add to Northwind's fiscal 2023 pre-tax "
                "income?", "footnote-dependent",
                [LETTER_PAGE, INCOME_PAGE], ["$42 million", "$260 million"], ["(a)", "(3)"]),
            StoryQuestion(
                "What restructuring charge is included in Northwind's fiscal 2023 operating "
                "expenses?", "footnote-dependent",
                [INCOME_PAGE], ["$38 million", "Dayton"], ["(2)"]),
            StoryQuestion(
                "Footnote (1) appears under both tables of the 2023 report; what does each "
                "one say?", "citation",
                [INCOME_PAGE, SEGMENT_PAGE],
                ["$330 million", "Unallocated headquarters costs"], ["(1)"]),
        ],
    ),
    2024: Story(
        theme="our first full year as a focused flow and power business",
        letter=[
            "Power Systems grew 10.1% on demand from data-centre customers(a).",
        ],
        letter_notes=[
            "(a) Two data-centre customers accounted for 18% of Power Systems net sales in "
            "fiscal 2024.",
        ],
        non_gaap_value="$568 million",
        non_gaap_note="* Adjusted EBITDA is operating income plus depreciation and amortization "
        "of $125 million; there were no restructuring charges in fiscal 2024. It is not a GAAP "
        "measure.",
        mdna=[
            "Reported net sales fell because of the divestiture, but organic net sales grew "
            "6.3%(b).",
            "Backlog(c) was $1,610 million at year end.",
        ],
        mdna_notes=[
            "(b) Organic growth excludes Filtration from fiscal 2023 net sales; it is not "
            "adjusted for currency, which reduced fiscal 2024 net sales by $12 million.",
            "(c) Includes $140 million of multi-year data-centre orders that will ship after "
            "fiscal 2025.",
        ],
        income_notes=[
            "(1) Fiscal 2023 includes $330 million of net sales from the filtration unit, "
            "divested on 30 September 2023; fiscal 2024 has none.",
            "(2) Fiscal 2023 includes $38 million of restructuring charges for the Dayton plant "
            "closure; fiscal 2024 has no restructuring charges.",
            "(3) Fiscal 2023 includes a $42 million pre-tax gain on the sale of the filtration "
            "unit.",
        ],
        segment_notes=[
            "(1) Unallocated headquarters costs; fiscal 2024 includes a $9 million insurance "
            "recovery.",
            "(2) Filtration was sold on 30 September 2023 and appears for the prior year only.",
        ],
        outlook="We expect fiscal 2025 net sales growth of 3% to 5%(d).",
        outlook_note="(d) Assumes no change in US tariffs on imported castings and excludes "
        "acquisitions.",
        questions=[
            StoryQuestion(
                "Why did Northwind's net sales fall in fiscal 2024 even though organic growth "
                "was positive?", "footnote-dependent",
                [MDNA_PAGE, INCOME_PAGE], ["6.3%", "$330 million"], ["(b)", "(1)"]),
            StoryQuestion(
                "Which customers drove Power Systems growth in fiscal 2024, and how "
                "concentrated are they?", "relationship",
                [LETTER_PAGE], ["10.1%", "18%"], ["(a)"]),
        ],
    ),
}

NORTHWIND = Company(
    document="northwind-annual",
    name="Northwind Industrial Holdings",
    short="Northwind",
    sales_label="Net sales",
    segment_title="Segment results (in $ millions)",
    segment_label="Segment",
    income_markers={"Net sales": "(1)", "Operating expenses": "(2)",
                    "Interest and other, net": "(3)"},
    segment_markers={"Corporate and other": "(1)", "Filtration": "(2)"},
    non_gaap_name="Adjusted EBITDA",
    figures=_NORTHWIND_FIGURES,
    stories=_NORTHWIND_STORIES,
    risks="Our results depend on industrial capital spending, steel and copper prices and "
    "the timing of large utility orders. Northwind Industrial Holdings is a fictitious company "
    "and its figures exist only to test document retrieval.",
    # the reports thank "our employees" but never say how many there are
    unanswerable="How many people did Northwind employ at the end of fiscal {year}?",
)


# --------------------------------------------------------------------------------------------
# Bluefin Therapeutics
# --------------------------------------------------------------------------------------------

_BLUEFIN_FIGURES = {
    2021: Figures(820, 164, 790, -10, 0, 64,
                  {"Oncology": 510, "Immunology": 190, "Collaboration and royalties": 120}),
    2022: Figures(1040, 198, 830, 6, 2, 66,
                  {"Oncology": 640, "Immunology": 260, "Collaboration and royalties": 140}),
    2023: Figures(1385, 249, 905, 4, 49, 67,
                  {"Oncology": 820, "Immunology": 395, "Collaboration and royalties": 170}),
    2024: Figures(1610, 306, 1020, 120, 88, 68,
                  {"Oncology": 905, "Immunology": 520, "Collaboration and royalties": 185}),
}

_BLUEFIN_STORIES = {
    2022: Story(
        theme="the year Bluefin became profitable",
        letter=[
            "Zelvara, our oncology medicine, received EU approval for second-line lung cancer "
            "in June 2022(1).",
        ],
        letter_notes=[
            "(1) The EU label covers second-line use only; a first-line filing is planned for "
            "fiscal 2023. EU sales began in the fourth quarter.",
        ],
        non_gaap_value="$1.10",
        non_gaap_note="* Core EPS excludes amortization of acquired intangibles, impairments "
        "and one-time gains. It is not a GAAP measure.",
        mdna=[
            "Product revenue grew 28.6% to $900 million(2).",
            "Research and development expense was $512 million(3).",
        ],
        mdna_notes=[
            "(2) Fourth-quarter sales included an estimated $35 million of wholesaler inventory "
            "build that is expected to reverse in the first half of fiscal 2023.",
            "(3) Includes the $40 million upfront payment to Kairo Bio for the KB-17 licence; "
            "excluding it, research and development expense rose 4%.",
        ],
        income_notes=[
            "(a) Product revenue is net of rebates, chargebacks and returns of $310 million.",
            "(b) Includes the $40 million upfront KB-17 licence payment, expensed as research "
            "and development.",
            "(c) Mainly interest income of $14 million less $8 million of interest on the "
            "convertible notes.",
        ],
        segment_notes=[
            "(a) Zelvara only; US sales were 81% of oncology revenue.",
            "(b) Royalties from Sanvero on sales of Ilvatra outside the United States.",
        ],
        outlook="We expect fiscal 2023 revenue of $1.30 billion to $1.40 billion(4).",
        outlook_note="(4) Assumes the wholesaler inventory build reverses and includes no "
        "milestone income.",
        questions=[
            StoryQuestion(
                "How much did Bluefin pay upfront for the KB-17 licence, and where is the "
                "payment recorded?", "footnote-dependent",
                [MDNA_PAGE, INCOME_PAGE], ["$40 million", "research and development"],
                ["(3)", "(b)"]),
            StoryQuestion(
                "Was all of Bluefin's fiscal 2022 product revenue growth underlying demand?",
                "footnote-dependent", [MDNA_PAGE], ["28.6%", "$35 million"], ["(2)"]),
        ],
    ),
    2023: Story(
        theme="a year of strong launches and one setback in our pipeline",
        letter=[
            "A Phase 2 trial of BT-204 in lupus did not meet its primary endpoint and we "
            "stopped the programme(1).",
        ],
        letter_notes=[
            "(1) We recorded an $85 million impairment of the BT-204 in-process research and "
            "development asset, included in operating expenses.",
        ],
        non_gaap_value="$3.98",
        non_gaap_note="* Core EPS excludes amortization of acquired intangibles, the BT-204 "
        "impairment and one-time gains. It is not a GAAP measure.",
        mdna=[
            "Collaboration and royalty revenue rose to $170 million(2).",
            "Product revenue grew 35.0% to $1,215 million(3).",
        ],
        mdna_notes=[
            "(2) Includes a one-time $60 million milestone from Sanvero on EU approval of "
            "Ilvatra; excluding it, collaboration and royalty revenue fell 21%.",
            "(3) Fiscal 2022 included about $35 million of wholesaler inventory build that "
            "reversed in fiscal 2023; adjusted for it, product revenue grew about 45%.",
        ],
        income_notes=[
            "(a) Product revenue is net of rebates, chargebacks and returns of $402 million.",
            "(b) Includes an $85 million impairment of the BT-204 in-process research and "
            "development asset.",
            "(c) Interest income of $13 million less $9 million of foreign-exchange losses.",
        ],
        segment_notes=[
            "(a) Zelvara only; US sales were 74% of oncology revenue after the EU launch.",
            "(b) Includes a one-time $60 million milestone from Sanvero on EU approval of "
            "Ilvatra.",
        ],
        outlook="We expect fiscal 2024 revenue of $1.55 billion to $1.65 billion(4).",
        outlook_note="(4) Assumes the Japanese launch of Ostrivane in the second quarter of "
        "fiscal 2024 and no further milestones from Sanvero.",
        questions=[
            StoryQuestion(
                "What one-time item inflated Bluefin's collaboration and royalty revenue in "
                "fiscal 2023?", "footnote-dependent",
                [MDNA_PAGE, SEGMENT_PAGE], ["$60 million", "21%"], ["(2)", "(b)"]),
            StoryQuestion(
                "How did the failed BT-204 trial affect Bluefin's fiscal 2023 operating "
                "expenses?", "relationship",
                [LETTER_PAGE, INCOME_PAGE], ["$85 million", "impairment"], ["(1)", "(b)"]),
        ],
    ),
    2024: Story(
        theme="our first launch in Japan and record profits",
        letter=[
            "Ostrivane launched in Japan in May 2024(1).",
        ],
        letter_notes=[
            "(1) Launch costs of $64 million were expensed in fiscal 2024; Japanese sales were "
            "$22 million.",
        ],
        non_gaap_value="$4.12",
        non_gaap_note="* Core EPS excludes amortization of acquired intangibles and the gain on "
        "the sale of a priority review voucher. It is not a GAAP measure.",
        mdna=[
            "Net income rose to $316 million(2).",
            "Immunology revenue grew 31.6% to $520 million(3).",
        ],
        mdna_notes=[
            "(2) Includes a $110 million pre-tax gain on the sale of a priority review voucher "
            "to another drug maker; the gain is excluded from Core EPS.",
            "(3) Includes $22 million of Japanese Ostrivane sales; excluding Japan, immunology "
            "revenue grew 26%.",
        ],
        income_notes=[
            "(a) Product revenue is net of rebates, chargebacks and returns of $488 million; "
            "fiscal 2023: $402 million.",
            "(b) Includes $64 million of launch costs for Ostrivane in Japan.",
            "(c) Includes the $110 million gain on the sale of a priority review voucher.",
        ],
        segment_notes=[
            "(a) Zelvara only; growth slowed after a competing therapy launched in the US in "
            "April 2024.",
            "(b) Fiscal 2023 includes a one-time $60 million milestone from Sanvero; excluding "
            "it, collaboration and royalty revenue grew 68% in fiscal 2024.",
        ],
        outlook="We expect fiscal 2025 revenue of $1.70 billion to $1.80 billion(4).",
        outlook_note="(4) Excludes any gain from asset sales such as the fiscal 2024 priority "
        "review voucher sale.",
        questions=[
            StoryQuestion(
                "What one-off gain is included in Bluefin's fiscal 2024 net income?",
                "footnote-dependent", [MDNA_PAGE, INCOME_PAGE],
                ["$110 million", "priority review voucher"], ["(2)", "(c)"]),
            StoryQuestion(
                "How much did Bluefin's immunology revenue grow in fiscal 2024 excluding "
                "Japan?", "footnote-dependent", [MDNA_PAGE], ["31.6%", "26%"], ["(3)"]),
        ],
    ),
}

BLUEFIN = Company(
    document="bluefin-annual",
    name="Bluefin Therapeutics",
    short="Bluefin",
    sales_label="Total revenue",
    segment_title="Revenue by franchise (in $ millions)",
    segment_label="Franchise",
    income_markers={"Total revenue": " (a)", "Operating expenses": " (b)",
                    "Interest and other, net": " (c)"},
    segment_markers={"Oncology": " (a)", "Collaboration and royalties": " (b)"},
    non_gaap_name="Core EPS",
    figures=_BLUEFIN_FIGURES,
    stories=_BLUEFIN_STORIES,
    risks="Our results depend on a small number of medicines, on pricing and reimbursement "
    "decisions and on the outcome of clinical trials. Bluefin Therapeutics is a fictitious "
    "company and its figures exist only to test document retrieval.",
    # the outlook page says surplus cash goes to "dividends and share repurchases" but no
    # report prints a dividend amount (the per-share figures are EPS and Core EPS)
    unanswerable="What dividend per share did Bluefin pay its shareholders in fiscal {year}?",
)

COMPANIES = (NORTHWIND, BLUEFIN)

# The pinned "same marker, different definition" cases: (document, marker) -> pages.
SAME_MARKER_CASES = {
    ("northwind-annual", "(1)"): (INCOME_PAGE, SEGMENT_PAGE),
    ("bluefin-annual", "(a)"): (INCOME_PAGE, SEGMENT_PAGE),
}


# --------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------


def _label(label: str, markers: Mapping[str, str]) -> str:
    return f"{label}{markers.get(label, '')}"


def _letter_page(co: Company, year: int) -> Page:
    cur, prev, story = co.figures[year], co.figures[year - 1], co.stories[year]
    value_text = (
        f"{co.non_gaap_name}* was {story.non_gaap_value}"
        if co.non_gaap_name == "Adjusted EBITDA"
        else f"{co.non_gaap_name}* was {story.non_gaap_value} per share"
    )
    return Page(
        blocks=[
            Title(f"{co.name} - Annual Report {year}"),
            Heading("Letter to shareholders"),
            Paragraph(f"Dear shareholders, fiscal {year} was {story.theme}."),
            Paragraph(
                f"{co.sales_label} {'were' if co.sales_label.endswith('sales') else 'was'} "
                f"${_m(cur.revenue)} million, "
                f"{_pct_change(cur.revenue, prev.revenue)} from ${_m(prev.revenue)} million in "
                f"fiscal {year - 1}. Operating income was ${_m(cur.operating_income)} million "
                f"and net income was ${_m(cur.net_income)} million, or ${cur.eps} per diluted "
                f"share. {value_text}."
            ),
            *[Paragraph(text) for text in story.letter],
            Paragraph(
                "We thank our employees, customers and shareholders for their support, and we "
                "look forward to reporting on our progress next year."
            ),
            Paragraph("The Board of Directors"),
        ],
        footnotes=[story.non_gaap_note, *story.letter_notes],
    )


def _mdna_page(co: Company, year: int) -> Page:
    cur, prev, story = co.figures[year], co.figures[year - 1], co.stories[year]
    gm, gm_prev = cur.gross_profit / cur.revenue * 100, prev.gross_profit / prev.revenue * 100
    return Page(
        blocks=[
            Heading("Management's discussion and analysis"),
            Paragraph(
                f"This discussion covers fiscal {year} compared with fiscal {year - 1} and "
                "should be read with the income statement in Table 1 and the segment "
                "information in Table 2."
            ),
            Paragraph(
                f"Gross margin was {gm:.1f}% of {co.sales_label.lower()}, compared with "
                f"{gm_prev:.1f}% in fiscal {year - 1}. Operating expenses were "
                f"${_m(cur.operating_expenses)} million, against "
                f"${_m(prev.operating_expenses)} million a year earlier."
            ),
            *[Paragraph(text) for text in story.mdna],
            Paragraph(
                f"Income tax expense was ${_m(cur.tax)} million and diluted shares averaged "
                f"{cur.diluted_shares} million."
            ),
        ],
        footnotes=story.mdna_notes,
    )


def _income_page(co: Company, year: int) -> Page:
    cur, prev, story = co.figures[year], co.figures[year - 1], co.stories[year]
    lines = [
        (co.sales_label, cur.revenue, prev.revenue),
        ("Cost of sales", cur.cost_of_sales, prev.cost_of_sales),
        ("Gross profit", cur.gross_profit, prev.gross_profit),
        ("Operating expenses", cur.operating_expenses, prev.operating_expenses),
        ("Operating income", cur.operating_income, prev.operating_income),
        ("Interest and other, net", cur.other, prev.other),
        ("Income before income taxes", cur.pretax, prev.pretax),
        ("Income tax expense", cur.tax, prev.tax),
        ("Net income", cur.net_income, prev.net_income),
    ]
    rows = [["Line item", f"Fiscal {year}", f"Fiscal {year - 1}"]]
    rows += [[_label(label, co.income_markers), _m(a), _m(b)] for label, a, b in lines]
    rows.append(["Diluted EPS ($)", cur.eps, prev.eps])
    return Page(
        blocks=[
            Heading("Consolidated statement of income"),
            Table(
                title="Table 1: Consolidated statement of income (in $ millions, except "
                "per-share data)",
                widths=(90.0, 40.0, 40.0),
                rows=rows,
                notes=story.income_notes,
            ),
            Paragraph(
                f"Net income for fiscal {year} was ${_m(cur.net_income)} million compared with "
                f"${_m(prev.net_income)} million for fiscal {year - 1}. Diluted EPS was "
                f"${cur.eps} against ${prev.eps}."
            ),
        ],
    )


def _segment_page(co: Company, year: int) -> Page:
    cur, prev, story = co.figures[year], co.figures[year - 1], co.stories[year]

    def cell(value: int | None) -> str:
        return "-" if not value else _m(value)

    if cur.segment_income:
        header = [co.segment_label, f"Sales {year}", f"Sales {year - 1}",
                  f"Op. inc. {year}", f"Op. inc. {year - 1}"]
        widths: tuple[float, ...] = (50.0, 30.0, 30.0, 30.0, 30.0)
        rows = [header]
        for name in cur.segment_income:
            rows.append([
                _label(name, co.segment_markers),
                cell(cur.segment_revenue.get(name)),
                cell(prev.segment_revenue.get(name)),
                cell(cur.segment_income[name]),
                cell(prev.segment_income[name]),
            ])
        rows.append(["Total", _m(cur.revenue), _m(prev.revenue),
                     _m(cur.operating_income), _m(prev.operating_income)])
    else:
        header = [co.segment_label, f"Revenue {year}", f"Revenue {year - 1}", "Change"]
        widths = (80.0, 30.0, 30.0, 30.0)
        rows = [header]
        for name, value in cur.segment_revenue.items():
            old = prev.segment_revenue[name]
            rows.append([_label(name, co.segment_markers), _m(value), _m(old),
                         f"{(value - old) / old * 100:.1f}%"])
        rows.append(["Total", _m(cur.revenue), _m(prev.revenue),
                     f"{(cur.revenue - prev.revenue) / prev.revenue * 100:.1f}%"])
    largest = max(cur.segment_revenue, key=lambda name: cur.segment_revenue[name])
    return Page(
        blocks=[
            Heading("Segment information"),
            Table(title=f"Table 2: {co.segment_title}", widths=widths, rows=rows,
                  notes=story.segment_notes),
            Paragraph(
                f"{largest} was the largest contributor in fiscal {year}, with "
                f"${_m(cur.segment_revenue[largest])} million of revenue compared with "
                f"${_m(prev.segment_revenue[largest])} million in fiscal {year - 1}."
            ),
        ],
    )


def _outlook_page(co: Company, year: int) -> Page:
    story = co.stories[year]
    return Page(
        blocks=[
            Heading("Outlook"),
            Paragraph(story.outlook),
            Heading("Principal risks"),
            Paragraph(co.risks),
            Heading("Dividends and capital allocation"),
            Paragraph(
                "We intend to keep investing in our core businesses first and to return surplus "
                "cash to shareholders through dividends and share repurchases."
            ),
        ],
        footnotes=[story.outlook_note],
    )


def report_pages(co: Company, year: int) -> list[Page]:
    """The five composed pages of one annual report (exposed for tests)."""
    return [
        _letter_page(co, year),
        _mdna_page(co, year),
        _income_page(co, year),
        _segment_page(co, year),
        _outlook_page(co, year),
    ]


def report_questions(co: Company, year: int) -> list[GoldenQuestion]:
    """Generic questions from the figures plus the year's hand-written story questions, then
    the company's unanswerable question for the year."""
    cur, prev, story = co.figures[year], co.figures[year - 1], co.stories[year]
    largest = max(cur.segment_revenue, key=lambda name: cur.segment_revenue[name])
    generic: list[StoryQuestion] = [
        StoryQuestion(f"What was {co.short}'s net income in fiscal {year}?", "temporal",
                      [LETTER_PAGE, INCOME_PAGE], [f"${_m(cur.net_income)} million"]),
        StoryQuestion(f"What diluted EPS did {co.short} report for fiscal {year - 1}, as shown "
                      f"in the fiscal {year} annual report?", "temporal",
                      [INCOME_PAGE], [f"${prev.eps}"]),
        StoryQuestion(f"What were {co.short}'s {co.sales_label.lower()} in fiscal {year}?",
                      "factual", [LETTER_PAGE, INCOME_PAGE], [f"${_m(cur.revenue)} million"]),
        StoryQuestion(f"How did {co.short}'s operating income change between fiscal "
                      f"{year - 1} and fiscal {year}?", "comparative",
                      [INCOME_PAGE], [_m(cur.operating_income), _m(prev.operating_income)]),
        StoryQuestion(f"Which {co.segment_label.lower()} contributed the most revenue to "
                      f"{co.short} in fiscal {year}?", "comparative",
                      [SEGMENT_PAGE], [largest, f"${_m(cur.segment_revenue[largest])} million"]),
        StoryQuestion(f"What was {co.short}'s {co.non_gaap_name} in fiscal {year}, and how is "
                      "it defined?", "footnote-dependent",
                      [LETTER_PAGE], [story.non_gaap_value, "not a GAAP measure"], ["*"]),
        StoryQuestion(f"Summarise {co.short}'s fiscal {year} performance and its main events.",
                      "holistic", [LETTER_PAGE, MDNA_PAGE],
                      [f"${_m(cur.revenue)} million", f"${_m(cur.net_income)} million"]),
    ]
    unanswerable = ([StoryQuestion(co.unanswerable.format(year=year), "unanswerable", [], [])]
                    if co.unanswerable else [])
    return [
        numbered_question(co.document, year, i, q.question, q.category, q.pages, q.facts,
                          q.markers)
        for i, q in enumerate([*generic, *story.questions, *unanswerable], start=1)
    ]


def report_file_name(document: str, year: int) -> str:
    """``northwind-annual`` 2023 -> ``northwind_annual_2023.pdf``."""
    return f"{document.replace('-', '_')}_{year}.pdf"


def report_truth(co: Company, year: int) -> FootnoteTruth:
    """Every definition of one annual report, where it is printed and cited."""
    return pages_truth(co.document, year, report_pages(co, year))


def build_annual_reports(
    reports_dir: Path, questions_dir: Path, truth_dir: Path | None = None
) -> list[SampleFile]:
    """Write six annual-report PDFs (two companies x 2022-2024) and their golden questions (and
    their footnote truth under ``truth_dir``)."""
    out: list[SampleFile] = []
    for co in COMPANIES:
        for year in YEARS:
            path = report_dir(reports_dir, co.document, year) / report_file_name(co.document, year)
            pages = report_pages(co, year)
            render_pdf(path, f"{co.name} | Annual Report {year}", pages)
            if truth_dir is not None:
                write_truth(truth_dir, pages_truth(co.document, year, pages))
            out.append(publish(path, co.document, year, report_questions(co, year), questions_dir))
    return out
