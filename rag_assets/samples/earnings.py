"""A fictitious 8-page quarterly earnings release (Exemplar Corp, Q4 and fiscal 2024).

It is the stress test for footnote handling: 46 ``[N]`` footnotes that materially change the
meaning of the claims they qualify (acquisition-driven growth, one-off gains, non-GAAP
adjustments, restated segments, currency, customer concentration, litigation, guidance
assumptions), markers inside ruled table cells, markers cited on pages that do not define them,
one marker cited before the page that defines it, and definitions that cite other definitions.

Marker cases the pipeline's tests can pin (page indices are zero-based):

* ``[8]`` is cited and defined on page 1, cited again on pages 4 and 6 with no definition there;
  ``[1]`` is cited and defined on page 0 and cited again on page 7;
* ``[37]`` is first cited on page 5 and defined at the bottom of page 6 (cited there again);
* ``[13]``, ``[32]``, ``[33]`` and ``[34]`` are definitions that cite other footnotes
  (``[33]`` reads "Excludes the items described in [17], [30] and [31]; see also [13].");
* markers in ruled table cells, after labels and once after a number (``652 [23]``): Table 1
  (page 2) ``[15]``-``[20]``, Table 2 (page 3) ``[22]``-``[25]``, Table 3 (page 4)
  ``[29]``-``[33]``, Table 4 (page 5) ``[34]``-``[36]``, Table 5 (page 6) ``[39]``-``[42]``;
  each is defined in the footnotes of the same page.
"""

from __future__ import annotations

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

DOCUMENT = "exemplar-corp-earnings"
YEAR = 2024
FILE_NAME = "exemplar_corp_q4_fy2024_earnings.pdf"
HEADER = "Exemplar Corp | Fourth Quarter and Fiscal Year 2024 Earnings Release"
N_PAGES = 8
N_FOOTNOTES = 46

CROSS_PAGE_MARKER = "[8]"  # defined on page 1, cited again on pages 4 and 6
CROSS_PAGE_MARKER_PAGES = (1, 4, 6)
FORWARD_MARKER = "[37]"  # first cited on page 5, defined on page 6
FORWARD_MARKER_CITED_PAGE = 5
FORWARD_MARKER_DEFINED_PAGE = 6
NESTED_MARKERS = {"[13]": ("[3]", "[4]", "[5]"), "[32]": ("[19]",),
                  "[33]": ("[17]", "[30]", "[31]", "[13]"), "[34]": ("[16]",)}
TABLE_PAGES = {"Table 1": 2, "Table 2": 3, "Table 3": 4, "Table 4": 5, "Table 5": 6}

_WIDE = (66.0, 26.0, 26.0, 26.0, 26.0)
_THREE = (100.0, 35.0, 35.0)


def _page_highlights() -> Page:
    return Page(
        blocks=[
            Title("Exemplar Corp Reports Fourth Quarter and Fiscal Year 2024 Results"),
            Paragraph(
                "RIVERTON - February 6, 2025 - Exemplar Corp, a provider of workflow software "
                "and connected devices, today reported results for the fourth quarter and fiscal "
                "year ended December 31, 2024. Exemplar Corp and every figure in this release are "
                "fictitious and exist only to test document retrieval."
            ),
            Heading("Fiscal year 2024 highlights"),
            Paragraph(
                "Revenue rose 34% to $2.4 billion [1]. Fourth quarter revenue was $684 million, "
                "up 40% year over year [2]."
            ),
            Paragraph(
                "GAAP operating income was $290 million, an operating margin of 12.0%, compared "
                "with $198 million, or 11.0%, in fiscal 2023 [3]. Non-GAAP operating margin "
                "expanded 7.5 percentage points to 24.5% [4]."
            ),
            Paragraph(
                "GAAP net income increased 71% to $256 million, or $1.20 per diluted share [5]."
            ),
            Paragraph(
                "Annual recurring revenue reached $1.12 billion at year end [6], and free cash "
                "flow was $381 million, up 40% [7]."
            ),
            Heading("Chief Executive Officer commentary"),
            Paragraph(
                '"2024 was the year Exemplar became a platform company," said Dana Okafor, Chief '
                'Executive Officer. "Lumen Analytics is integrated, our Devices business grew '
                'again and we enter 2025 with record remaining performance obligations."'
            ),
        ],
        footnotes=[
            "[1] Includes $555 million of revenue from Lumen Analytics, acquired on March 28, "
            "2024. Excluding Lumen Analytics, organic revenue growth was 3.2%.",
            "[2] Includes $176 million of Lumen Analytics revenue; organic fourth quarter revenue "
            "growth was 4.1%.",
            "[3] Fiscal 2024 GAAP operating income includes $74 million of acquisition-related "
            "costs and $22 million of restructuring charges; fiscal 2023 included neither.",
            "[4] Non-GAAP operating margin excludes stock-based compensation, amortization of "
            "acquired intangibles, acquisition-related costs and restructuring charges. See "
            "Table 3 for the reconciliation.",
            "[5] Includes a one-time pre-tax gain of $96 million, $75 million after tax, on the "
            "sale of the Kestrel Park campus. Excluding this gain, net income grew 21%.",
            "[6] Annual recurring revenue is the annualized value of subscription contracts in "
            "force at period end. It is an operating metric, not revenue, and includes $210 "
            "million from Lumen Analytics.",
            "[7] Free cash flow is net cash from operating activities of $512 million less "
            "capital expenditures of $131 million. It excludes the $140 million proceeds of the "
            "Kestrel Park sale, which are investing cash flows.",
        ],
    )


def _page_commentary() -> Page:
    return Page(
        blocks=[
            Heading("Management commentary"),
            Paragraph(
                "Growth in fiscal 2024 was led by Software and Cloud, where revenue grew 66% to "
                "$1,502 million [8]. Devices revenue rose 1.2% to $660 million as the new Meridian "
                "handheld range offset weaker printer demand [9]. Services revenue increased "
                "2.9% to $250 million [10]."
            ),
            Paragraph(
                "Currency was a headwind: on a constant-currency basis revenue grew 35.1% [11]."
            ),
            Heading("Profitability"),
            Paragraph(
                "Fourth quarter GAAP operating income was $92 million, compared with $61 million "
                "a year earlier [12]. For the full year, non-GAAP net income rose 77% to $415 "
                "million, or $1.95 per diluted share [13]."
            ),
            Heading("Backlog"),
            Paragraph(
                "Remaining performance obligations grew 28% to $1.94 billion [14], giving good "
                "visibility into fiscal 2025 subscription revenue."
            ),
        ],
        footnotes=[
            "[8] Software and Cloud revenue includes all $555 million of Lumen Analytics revenue. "
            "Excluding Lumen Analytics, Software and Cloud revenue grew 4.6%.",
            "[9] Fiscal 2023 Devices revenue is restated from $713 million to $652 million to "
            "move the managed-print business to the Services segment; see Table 2.",
            "[10] Includes $12 million of one-time implementation fees for the Harbor Logistics "
            "Group rollout that will not recur in fiscal 2025; excluding them, Services revenue "
            "fell 2.1%.",
            "[11] Constant-currency growth translates fiscal 2024 results at fiscal 2023 average "
            "exchange rates; the stronger dollar reduced reported revenue by $20 million, mostly "
            "on euro-denominated Lumen Analytics contracts.",
            "[12] Fourth quarter 2024 operating income includes a $15 million legal settlement "
            "with a former distributor and $9 million of restructuring charges; fourth quarter "
            "2023 included neither.",
            "[13] Non-GAAP net income excludes the items described in [3] and [4] and the Kestrel "
            "Park gain described in [5]; the reconciliation is in Table 3.",
            "[14] Includes $310 million of remaining performance obligations assumed with Lumen "
            "Analytics; excluding them, remaining performance obligations grew 7.5%.",
        ],
    )


def _page_consolidated() -> Page:
    return Page(
        blocks=[
            Heading("Consolidated results"),
            Paragraph(
                "Table 1 summarises the unaudited consolidated statement of operations for the "
                "fourth quarter and the fiscal year."
            ),
            Table(
                title="Table 1: Consolidated results (in $ millions, except per-share data)",
                widths=_WIDE,
                rows=[
                    ["Line item", "Q4 2024", "Q4 2023", "FY 2024", "FY 2023"],
                    ["Revenue [15]", "684", "488", "2,412", "1,800"],
                    ["Cost of revenue", "298", "228", "1,061", "837"],
                    ["Gross profit", "386", "260", "1,351", "963"],
                    ["Research and development", "108", "82", "402", "318"],
                    ["Sales and marketing", "104", "76", "388", "296"],
                    ["General and admin. [16]", "58", "41", "197", "151"],
                    ["Acquisition costs [17]", "24", "0", "74", "0"],
                    ["Operating income", "92", "61", "290", "198"],
                    ["Other income, net [18]", "-3", "1", "38", "-8"],
                    ["Income before taxes", "89", "62", "328", "190"],
                    ["Income tax expense [19]", "18", "16", "72", "40"],
                    ["Net income", "71", "46", "256", "150"],
                    ["Diluted EPS ($) [20]", "0.33", "0.23", "1.20", "0.75"],
                ],
            ),
            Paragraph(
                "Gross margin improved to 56.0% from 53.5%, mainly because software made up a "
                "larger share of revenue [21]."
            ),
        ],
        footnotes=[
            "[15] Revenue includes Lumen Analytics from March 28, 2024: $176 million in the "
            "fourth quarter and $555 million in fiscal 2024.",
            "[16] Includes $22 million of restructuring charges in fiscal 2024, of which $9 "
            "million in the fourth quarter, and the $15 million fourth quarter legal settlement, "
            "which is not excluded from non-GAAP results.",
            "[17] Advisory, integration and retention costs for the Lumen Analytics acquisition; "
            "they are excluded from non-GAAP results.",
            "[18] Fiscal 2024 includes the one-time $96 million gain on the sale of the Kestrel "
            "Park campus and $58 million of interest expense, mainly on the acquisition term "
            "loan.",
            "[19] The fiscal 2024 effective tax rate of 22.0% includes a $9 million benefit from "
            "research credits for prior years; without it the rate would have been 24.7%.",
            "[20] Diluted shares were 215 million in the fourth quarter and 213 million in fiscal "
            "2024, against 200 million in both 2023 periods; the increase reflects 12.5 million "
            "shares issued as part of the Lumen Analytics consideration.",
            "[21] Cost of revenue includes $31 million of amortization of acquired developed "
            "technology; excluding it, fiscal 2024 gross margin was 57.3%.",
        ],
    )


def _page_segments() -> Page:
    return Page(
        blocks=[
            Heading("Segment results"),
            Paragraph(
                "Exemplar reports three segments. Fiscal 2023 segment figures are restated for "
                "the transfer of the managed-print business from Devices to Services on January "
                "1, 2024."
            ),
            Table(
                title="Table 2: Segment results (in $ millions)",
                widths=(50.0, 30.0, 30.0, 30.0, 30.0),
                rows=[
                    ["Segment", "Rev. FY24", "Rev. FY23", "Op. inc. FY24", "Op. inc. FY23"],
                    ["Software and Cloud [22]", "1,502", "905", "440", "198"],
                    ["Devices", "660", "652 [23]", "96", "80"],
                    ["Services [24]", "250", "243", "54", "28"],
                    ["Segment total", "2,412", "1,800", "590", "306"],
                    ["Unallocated items [25]", "-", "-", "-300", "-108"],
                    ["Operating income", "-", "-", "290", "198"],
                ],
            ),
            Paragraph(
                "Segment operating income is the measure used by the chief operating decision "
                "maker to allocate resources [26]. Segment operating margin was 29.3% in Software "
                "and Cloud, 14.5% in Devices and 21.6% in Services."
            ),
            Paragraph(
                "Our ten largest customers generated 31% of revenue, and Harbor Logistics Group "
                "alone accounted for 6% [27]."
            ),
        ],
        footnotes=[
            "[22] Includes Lumen Analytics from March 28, 2024: $555 million of revenue and $131 "
            "million of segment operating income.",
            "[23] Restated. As originally reported, before the managed-print transfer, fiscal "
            "2023 Devices revenue was $713 million.",
            "[24] Restated to include managed print, which had $61 million of revenue and $6 "
            "million of segment operating income in fiscal 2023.",
            "[25] Stock-based compensation of $118 million, amortization of acquired intangibles "
            "of $86 million, acquisition-related costs of $74 million and restructuring charges "
            "of $22 million in fiscal 2024; in fiscal 2023, $96 million of stock-based "
            "compensation and $12 million of amortization.",
            "[26] From fiscal 2024 segment operating income excludes stock-based compensation, "
            "which was previously allocated to segments; fiscal 2023 is restated accordingly.",
            "[27] Harbor Logistics Group accounted for 14% of Devices revenue and 21% of Services "
            "revenue. Its master agreement expires in June 2025 and is being renegotiated.",
        ],
    )


def _page_non_gaap() -> Page:
    return Page(
        blocks=[
            Heading("Non-GAAP financial measures"),
            Paragraph(
                "Management uses non-GAAP measures to evaluate ongoing operating performance "
                "and to set incentive compensation [28]."
            ),
            Table(
                title="Table 3: Reconciliation of GAAP to non-GAAP results (in $ millions)",
                widths=_THREE,
                rows=[
                    ["Item", "FY 2024", "FY 2023"],
                    ["GAAP operating income", "290", "198"],
                    ["Stock-based compensation [29]", "118", "96"],
                    ["Amortization of acquired intangibles", "86", "12"],
                    ["Acquisition-related costs", "74", "0"],
                    ["Restructuring charges [30]", "22", "0"],
                    ["Non-GAAP operating income", "590", "306"],
                    ["Non-GAAP operating margin", "24.5%", "17.0%"],
                    ["GAAP net income", "256", "150"],
                    ["Pre-tax adjustments above", "300", "108"],
                    ["Gain on sale of Kestrel Park [31]", "-96", "0"],
                    ["Tax effect of adjustments [32]", "-45", "-24"],
                    ["Non-GAAP net income [33]", "415", "234"],
                    ["Non-GAAP diluted EPS ($)", "1.95", "1.17"],
                ],
            ),
            Paragraph(
                "Most of the margin expansion came from Software and Cloud [8], whose segment "
                "operating margin reached 29.3%."
            ),
        ],
        footnotes=[
            "[28] Non-GAAP measures are not defined by U.S. GAAP, may differ from similarly "
            "titled measures of other companies and should be read together with Table 1.",
            "[29] Includes $21 million of retention awards granted to former Lumen Analytics "
            "employees.",
            "[30] Relates to the closure of the Brenton assembly plant; about 180 roles were "
            "eliminated and $6 million of the charges were non-cash.",
            "[31] The gain is excluded because it will not recur; the campus was sold for $140 "
            "million and leased back for three years.",
            "[32] Computed at the statutory rate of each jurisdiction; it does not remove the "
            "prior-year research credit described in [19].",
            "[33] Excludes the items described in [17], [30] and [31]; see also [13].",
        ],
    )


def _page_cash_flow() -> Page:
    return Page(
        blocks=[
            Heading("Cash flow and balance sheet"),
            Table(
                title="Table 4: Cash flow and balance sheet highlights (in $ millions)",
                widths=_THREE,
                rows=[
                    ["Item", "FY 2024", "FY 2023"],
                    ["Net cash from operating activities [34]", "512", "377"],
                    ["Capital expenditures", "-131", "-104"],
                    ["Free cash flow", "381", "273"],
                    ["Cash paid for Lumen Analytics [35]", "-1,750", "0"],
                    ["Share repurchases", "-120", "-85"],
                    ["Dividends paid", "-84", "-80"],
                    ["Cash and equivalents at year end", "640", "1,180"],
                    ["Total debt [36]", "1,150", "250"],
                ],
            ),
            Paragraph(
                "Net debt was $510 million at year end [36], compared with net cash of $930 "
                "million a year earlier. We expect to repay $300 million of the term loan during "
                "fiscal 2025 [37]."
            ),
            Paragraph(
                "The Board approved a new $500 million share repurchase authorization and kept "
                "the quarterly dividend at $0.10 per share [38]."
            ),
        ],
        footnotes=[
            "[34] Includes the $15 million payment for the legal settlement described in [16] and "
            "$52 million of Lumen Analytics integration payments; cash taxes were $61 million.",
            "[35] Net of $95 million of cash acquired; the rest of the consideration was paid "
            "in 12.5 million Exemplar shares.",
            "[36] Includes the $900 million variable-rate term loan drawn in March 2024 to "
            "finance the Lumen Analytics acquisition and $250 million of 4.1% senior notes due "
            "2029.",
            "[38] The authorization has no expiry date; repurchases under it are not assumed in "
            "the fiscal 2025 EPS guidance.",
        ],
    )


def _page_outlook() -> Page:
    return Page(
        blocks=[
            Heading("Outlook for fiscal 2025"),
            Paragraph(
                "For fiscal 2025 Exemplar expects revenue growth of 10% to 14%. Software and "
                "Cloud is expected to grow 12% to 15%, helped by a full first quarter of Lumen "
                "Analytics [8]. Interest expense is expected to fall to about $45 million as we "
                "repay part of the term loan [37]."
            ),
            Table(
                title="Table 5: Fiscal 2025 guidance",
                widths=(90.0, 80.0),
                rows=[
                    ["Measure", "Guidance"],
                    ["Revenue [39]", "$2,650-$2,750 million"],
                    ["Non-GAAP operating margin [40]", "25.0%-26.0%"],
                    ["GAAP diluted EPS [41]", "$1.30-$1.40"],
                    ["Non-GAAP diluted EPS", "$2.05-$2.15"],
                    ["Capital expenditures [42]", "about $150 million"],
                    ["Effective tax rate", "21%-23%"],
                ],
            ),
        ],
        footnotes=[
            "[37] The repayment will be funded from operating cash flow. The term loan bears "
            "interest at SOFR plus 1.75%, and amounts repaid cannot be redrawn.",
            "[39] Assumes a EUR/USD rate of 1.08, no further acquisitions and renewal of the "
            "Harbor Logistics Group agreement on its current terms.",
            "[40] Excludes about $120 million of stock-based compensation and $84 million of "
            "amortization of acquired intangibles.",
            "[41] Includes about $18 million of remaining restructuring charges and excludes any "
            "outcome of pending litigation.",
            "[42] Includes about $35 million to expand Meridian device production in Riverton.",
        ],
    )


def _page_legal() -> Page:
    return Page(
        blocks=[
            Heading("Legal proceedings and other matters"),
            Paragraph(
                "Corvid Systems has sued Exemplar, alleging that the Meridian handheld infringes "
                "two of its patents [43]."
            ),
            Paragraph(
                "Lumen Analytics drove most of the fiscal 2024 revenue growth [1], and its "
                "integration is on schedule."
            ),
            Paragraph("A large share of Devices components comes from a single supplier [44]."),
            Heading("Forward-looking statements"),
            Paragraph(
                "This release contains forward-looking statements, including the fiscal 2025 "
                "guidance, that involve risks and uncertainties [45]."
            ),
            Heading("About Exemplar Corp"),
            Paragraph(
                "Exemplar Corp is a fictitious company created to test document retrieval. It "
                "sells workflow software, cloud analytics and connected devices, and employs "
                "about 9,400 people [46]."
            ),
        ],
        footnotes=[
            "[43] Corvid seeks damages of $210 million. Exemplar believes the claims are without "
            "merit and has recorded no accrual because a loss is not considered probable; trial "
            "is scheduled for September 2025.",
            "[44] About 40% of Devices cost of revenue relates to components bought from Taiyo "
            "Circuit Works under an agreement that runs until 2026.",
            "[45] Actual results may differ materially; important factors include the outcome of "
            "the Corvid Systems litigation, the renewal of the Harbor Logistics Group agreement "
            "and currency movements.",
            "[46] Headcount includes about 1,700 employees who joined with Lumen Analytics and "
            "excludes contractors.",
        ],
    )


def earnings_pages() -> list[Page]:
    """The eight composed pages, in order (exposed so tests can inspect the source text)."""
    return [
        _page_highlights(),
        _page_commentary(),
        _page_consolidated(),
        _page_segments(),
        _page_non_gaap(),
        _page_cash_flow(),
        _page_outlook(),
        _page_legal(),
    ]


def _q(
    n: int,
    question: str,
    category: QuestionCategory,
    pages: list[int],
    facts: list[str],
    markers: list[str] | None = None,
) -> GoldenQuestion:
    return numbered_question(DOCUMENT, YEAR, n, question, category, pages, facts, markers or [])


def earnings_questions() -> list[GoldenQuestion]:
    """Golden questions; every expected fact is printed on the labelled pages, and the
    ``unanswerable`` ones ask for what the release does not print."""
    return [
        _q(1, "What was Exemplar Corp's total revenue for fiscal 2024?", "factual",
           [0, 2], ["$2.4 billion", "2,412"]),
        _q(2, "What was Exemplar's organic revenue growth in fiscal 2024, excluding the Lumen "
              "Analytics acquisition?", "footnote-dependent",
           [0], ["3.2%", "$555 million"], ["[1]"]),
        _q(3, "How much did Exemplar's net income grow in fiscal 2024 excluding the one-time "
              "gain on the Kestrel Park campus sale?", "footnote-dependent",
           [0], ["21%", "$96 million"], ["[5]"]),
        _q(4, "How much did Software and Cloud revenue grow in fiscal 2024 excluding Lumen "
              "Analytics?", "footnote-dependent",
           [1], ["4.6%", "66%"], ["[8]"]),
        _q(5, "Most of the non-GAAP margin expansion came from Software and Cloud; how much "
              "Lumen Analytics revenue does that segment include?", "footnote-dependent",
           [4, 1], ["29.3%", "$555 million"], ["[8]"]),
        _q(6, "How will Exemplar fund the planned term-loan repayment in fiscal 2025, and what "
              "interest rate does the loan bear?", "footnote-dependent",
           [5, 6], ["$300 million", "operating cash flow", "SOFR plus 1.75%"], ["[37]"]),
        _q(7, "How did Exemplar's GAAP operating margin in fiscal 2024 compare with fiscal "
              "2023?", "comparative",
           [0], ["12.0%", "11.0%"]),
        _q(8, "How did non-GAAP operating margin change from fiscal 2023 to fiscal 2024?",
           "comparative", [0, 4], ["24.5%", "17.0%", "7.5 percentage points"]),
        _q(9, "What was fiscal 2023 Devices revenue as originally reported, before the "
              "restatement of segments?", "footnote-dependent",
           [1, 3], ["$713 million", "$652 million"], ["[9]", "[23]"]),
        _q(10, "Which footnote lists the items excluded from non-GAAP net income in Table 3, and "
               "which other footnotes does it refer to?", "citation",
           [4], ["[17]", "[30]", "[31]", "[13]"], ["[33]"]),
        _q(11, "What exchange-rate assumption underlies Exemplar's fiscal 2025 revenue "
               "guidance?", "footnote-dependent",
           [6], ["$2,650-$2,750 million", "1.08"], ["[39]"]),
        _q(12, "How much free cash flow did Exemplar generate in fiscal 2024?", "factual",
           [0, 5], ["$381 million", "381"]),
        _q(13, "Has Exemplar recorded an accrual for the Corvid Systems patent lawsuit, and how "
               "much does Corvid seek?", "footnote-dependent",
           [7], ["$210 million", "no accrual"], ["[43]"]),
        _q(14, "How dependent is Exemplar on Harbor Logistics Group, and when does its agreement "
               "expire?", "relationship",
           [3], ["6%", "14%", "21%", "June 2025"], ["[27]"]),
        _q(15, "What was Exemplar's fiscal 2024 effective tax rate excluding the prior-year "
               "research credit?", "footnote-dependent",
           [2], ["22.0%", "24.7%"], ["[19]"]),
        _q(16, "Which segment earned the most operating income in fiscal 2024, and how did it "
               "compare with fiscal 2023?", "comparative",
           [3], ["Software and Cloud", "440", "198"]),
        _q(17, "Summarise what drove Exemplar's fiscal 2024 growth and how much of it was "
               "organic.", "holistic",
           [0, 1, 3], ["Lumen Analytics", "3.2%", "$1,502 million", "Meridian"], ["[1]", "[8]"]),
        # unanswerable: the release names the CEO but prints no pay, reports three segments
        # (none of them Automotive) and gives Meridian revenue trends, never unit volumes
        _q(18, "What total compensation did Exemplar pay its Chief Executive Officer, Dana "
               "Okafor, for fiscal 2024?", "unanswerable", [], []),
        _q(19, "What revenue and operating income did Exemplar's Automotive segment report in "
               "fiscal 2024?", "unanswerable", [], []),
        _q(20, "How many Meridian handheld units did Exemplar ship in fiscal 2024?",
           "unanswerable", [], []),
    ]


def earnings_truth() -> FootnoteTruth:
    """Every footnote definition of the release, where it is printed and cited."""
    return pages_truth(DOCUMENT, YEAR, earnings_pages())


def build_earnings_release(
    reports_dir: Path, questions_dir: Path, truth_dir: Path | None = None
) -> list[SampleFile]:
    """Write the earnings release PDF and its golden questions (and its footnote truth under
    ``truth_dir``); same bytes on every run."""
    path = report_dir(reports_dir, DOCUMENT, YEAR) / FILE_NAME
    pages = earnings_pages()
    render_pdf(path, HEADER, pages)
    if truth_dir is not None:
        write_truth(truth_dir, pages_truth(DOCUMENT, YEAR, pages))
    return [publish(path, DOCUMENT, YEAR, earnings_questions(), questions_dir)]
