"""The layout matrix: footnote layouts the parser was not written for, each made by two PDF
writers, each with its complete ground truth.

Every case is a writer-independent list of :class:`~rag_assets.samples.layout_writers.PageSpec`
(fictitious financial and legal prose, citations written as markup so the truth is read from the
spec, never guessed from the text), rendered by fpdf2 (Helvetica, lines broken here, explicit
placement) and by reportlab (Times-Roman, platypus ``Paragraph``/``Frame``/``Table``), so word
spacing, line breaks, text encoding and producer differ between the two files of a case.

Cases (pages are 0-based):

``small-flush``      body 10 pt, notes 7.5 pt under a rule a third of the text width; note
                     continuation lines start flush left under the marker. ``[1]``-``[8]``, two
                     pages, ``[2]`` cited on both.
``hanging-indent``   notes 8 pt, continuation lines indented under the text (fpdf2: explicit
                     indent; reportlab: ``bulletText`` with ``leftIndent``). ``[1]``-``[7]``.
``superscript``      citations are raised, smaller digits glued to the word or after the full stop
                     (fpdf2: smaller font on a raised baseline; reportlab: ``<super>``); notes open
                     with the same raised digit. Truth markers ``¹`` ... ``¹²``.
``continued-note``   ``[3]`` starts in page 0's note zone and ends at the top of page 1's note
                     zone (no marker there), mid-sentence.
``two-column``       two body columns per page (reportlab: two ``Frame``s), full-width notes.
``wrapped-marker``   forced line breaks make body lines start with ``[12]. The board`` (page 1)
                     and ``(4), and the foundation's`` (page 2); page 2 uses ``(N)`` notes.
``table-markers``    ruled grid tables whose cells carry ``[N]`` (defined at the page foot) and
                     ``(a)`` (defined right under the table, restarting on page 1).
``nested``           definitions cite definitions (``[2]`` cites ``[4]``, ``[6]`` cites ``[3]`` on
                     the page before, ``[8]`` cites ``[6]`` and ``[7]``, ``[9]`` cites ``[2]``).
``eu-oj``            Official Journal style: justified text, recitals labelled ``(1)``, ``(2)`` at
                     the line start (not footnotes), footnote calls ``(1)`` after words, hanging
                     OJ references at the page foot, numbered through the act ``(1)``-``(7)``.
``tenk-table-notes`` 10-K tables ruled above/below the header and under the last row, ``(N)``
                     after row labels, 9 pt notes right under each table, body text after them;
                     the ``(N)`` restart on the second page's table. No page-foot notes.
``rotated``          page 1's page object carries ``/Rotate 90`` (set with pypdfium2 after
                     writing); page 0 is unrotated.
``dense``            three Letter pages, seven ``[N]`` notes each (``[1]``-``[21]``), most of them
                     the same sentence with other numbers (``Note N: amounts in millions of
                     dollars, figure 575 restated for page P.``), ``[1]`` in the first body line.
``four-digit``       ``[1000]``-``[1024]`` over two pages.
``euro-decimal``     decimal commas right before markers: ``8,5 % (2)``, ``12,3% [5]``.
``plain``            one type size: notes, headings and furniture all 10 pt, notes under a rule.

Honest limits: both writers draw every case as specified; the writers differ in how they break
lines, so which word ends a line differs (the forced breaks of ``wrapped-marker`` are the only
line starts fixed in both). reportlab's ``<super>`` scales and raises by its own factors, fpdf2's
superscript uses ``SUP_SCALE``/``SUP_RISE`` here; both are smaller than body type. The rotated page
is rotated by the page object only: its content is drawn portrait, as a scanner or a
"rotate page" command in a viewer leaves it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from rag_assets.core.footnotes.groundtruth import FootnoteTruth, TruthFootnote, write_truth
from rag_assets.samples.base import SampleFile, publish, report_dir
from rag_assets.samples.layout_writers import (
    Block,
    Columns,
    Foot,
    Note,
    PageSize,
    PageSpec,
    Para,
    Style,
    Table,
    apply_rotation,
    citations,
    plain,
    render_fpdf2,
    render_reportlab,
)

Writer = Literal["fpdf2", "reportlab"]
WRITERS: tuple[Writer, ...] = ("fpdf2", "reportlab")
YEAR = 2024
COMBINED_HEADER = "Layout matrix 2024 | generated test layouts (fictitious companies and acts)"
COMBINED_EXCLUDED = ("plain",)
BRACKET_CITE = re.compile(r"\{\[(\d+)\]\}")


class LayoutFixture(BaseModel):
    case: str
    writer: str
    path: Path
    truth: FootnoteTruth


@dataclass(frozen=True)
class CaseSpec:
    case: str
    header: str
    pages: tuple[PageSpec, ...]
    style: Style = Style()


def H(text: str, size: float = 12.0) -> Para:
    """A heading: a bold paragraph, larger than body type."""
    return Para(text, size=size, bold=True, space_after=5.0)


def P(text: str, **kw) -> Para:
    """A body paragraph."""
    return Para(text, **kw)


def N(marker: str | None, text: str) -> Note:
    """A definition (``marker=None``: the continuation of the previous page's last note)."""
    return Note(marker, text)


def _pages(size: PageSize, *pages: PageSpec) -> tuple[PageSpec, ...]:
    return tuple(replace(p, size=size) for p in pages)


# ------------------------------------------------------------------------------------- cases


def _small_flush() -> CaseSpec:
    foot = Foot((), size=7.5, rule=1 / 3)
    return CaseSpec("small-flush", "Halden Maritime Holdings ASA | Annual Report 2024", _pages(
        "A4",
        PageSpec((
            H("Report of the Board of Directors"),
            P("Halden Maritime Holdings ASA owns and operates a fleet of 31 product tankers and 9 "
              "chemical carriers trading mainly in the North Sea and the Baltic. Revenue for 2024 "
              "was NOK 8,412 million, an increase of 14% on 2023 {[1]}. Time-charter equivalent "
              "earnings per vessel day rose to USD 27,300 from USD 24,150, driven by longer "
              "voyages after the rerouting of Red Sea traffic {[2]}."),
            P("Operating profit before depreciation (EBITDA) was NOK 3,105 million {[3]}. "
              "Depreciation increased to NOK 1,220 million following the delivery of four "
              "newbuildings during the year, and the impairment review at year end resulted in "
              "no write-downs of vessel values."),
            H("Financing"),
            P("At 31 December 2024 the group had interest-bearing debt of NOK 11,870 million and "
              "cash of NOK 2,046 million. The board considers the group's liquidity satisfactory "
              "and expects to meet all covenants in 2025 {[4]}. In March 2024 the group "
              "refinanced two bank facilities maturing in 2025 with a new seven-year "
              "sustainability-linked loan of USD 420 million."),
        ), replace(foot, notes=(
            N("[1]", "Revenue includes NOK 612 million of pool distributions from the Skagerrak "
              "Product Pool, which the group consolidated from 1 April 2024 after it acquired "
              "control of the pool manager. Excluding the pool, revenue grew 6%."),
            N("[2]", "Time-charter equivalent earnings are voyage revenue less voyage expenses, "
              "divided by the number of vessel days available for trading. Off-hire days for "
              "scheduled dry-docking are excluded from available days, which raised the 2024 "
              "figure by about USD 400 per day compared with the method used in the 2023 "
              "report."),
            N("[3]", "EBITDA is not defined under IFRS. It is operating profit before "
              "depreciation, amortisation and impairment, and in 2024 includes a gain of NOK 148 "
              "million on the sale of the tanker Halden Spirit."),
            N("[4]", "The loan agreements require a minimum liquidity of NOK 750 million, an "
              "equity ratio above 30% and a value-adjusted loan-to-value ratio below 70%. At "
              "year end the equity ratio was 41.2% and the loan-to-value ratio 52%."),
        ))),
        PageSpec((
            H("Outlook and risks"),
            P("Freight rates in the first weeks of 2025 have been above the 2024 average, and 61% "
              "of the group's available vessel days for 2025 are covered by time charters at an "
              "average rate of USD 26,800 per day {[5]}. Earnings for the remaining days depend "
              "on the spot market, which the board expects to stay volatile while the Red Sea "
              "rerouting continues {[2]}."),
            P("The main financial risks are interest rates, currency and bunker prices. About "
              "70% of the debt carries fixed or hedged interest {[6]}, and bunker price changes "
              "are largely passed on to charterers under the terms of the pool agreements."),
            H("Allocation of profit"),
            P("The board proposes a dividend of NOK 6.50 per share for the second half of 2024, "
              "bringing the total for the year to NOK 12.00 per share {[7]}. The proposal is in "
              "line with the policy of distributing at least 50% of net profit adjusted for "
              "gains on vessel sales {[8]}."),
        ), replace(foot, notes=(
            N("[5]", "Coverage is calculated on vessel days excluding planned dry-dockings. Five "
              "of the time charters include profit-sharing clauses, under which the group "
              "receives 50% of earnings above the fixed rate; no profit share is included in "
              "the average rate."),
            N("[6]", "Including interest rate swaps with a notional amount of USD 610 million and "
              "an average fixed rate of 3.1%, which expire between 2026 and 2029. The swaps are "
              "accounted for as cash-flow hedges."),
            N("[7]", "The dividend for the first half of 2024, NOK 5.50 per share, was paid in "
              "September 2024. The proposed dividend is subject to approval by the annual "
              "general meeting on 24 April 2025."),
            N("[8]", "Net profit adjusted for gains on vessel sales was NOK 1,874 million, so the "
              "proposed total dividend of NOK 1,031 million corresponds to 55% of it."),
        ))),
    ))


def _hanging_indent() -> CaseSpec:
    foot = Foot((), size=8.0, hanging=True, indent=18.0, rule=1 / 3)
    return CaseSpec("hanging-indent", "Corvane Insurance Group | 2024 Annual Report", _pages(
        "Letter",
        PageSpec((
            H("Management's discussion of results"),
            P("Gross written premiums increased 9.4% to $6.82 billion in 2024 {[1]}. The property "
              "and casualty segment grew 12% on rate increases in commercial property, while life "
              "and annuity premiums were broadly stable at $2.11 billion."),
            P("The combined ratio for property and casualty improved to 94.1% from 97.8% {[2]}. "
              "Catastrophe losses of $386 million were below the five-year average, although the "
              "second quarter included $141 million of losses from the spring convective storms "
              "in the central United States {[3]}."),
            P("Net investment income rose to $1.04 billion as maturing bonds were reinvested at "
              "higher yields {[4]}. The portfolio's average book yield was 4.6% at year end, and "
              "its average duration was shortened slightly to 5.1 years."),
        ), replace(foot, notes=(
            N("[1]", "Gross written premiums include $318 million from Halbrook Specialty, "
              "acquired on 1 July 2024. On a like-for-like basis, excluding Halbrook Specialty, "
              "gross written premiums grew 4.5%."),
            N("[2]", "The combined ratio is the sum of losses and loss adjustment expenses, "
              "underwriting expenses and policyholder dividends, divided by net earned premiums. "
              "The 2024 ratio benefited from 2.3 points of favourable development of prior-year "
              "reserves, mainly in workers' compensation; excluding it the ratio was 96.4%."),
            N("[3]", "Catastrophe losses are shown net of reinsurance and reinstatement premiums. "
              "A catastrophe is an event that causes insured industry losses above $25 million "
              "and affects a significant number of policyholders."),
            N("[4]", "Includes $62 million of income from limited partnership investments "
              "reported on a one-quarter lag, compared with $18 million in 2023."),
        ))),
        PageSpec((
            H("Capital and reserves"),
            P("Shareholders' equity was $9.3 billion at year end and book value per share rose "
              "11% to $71.40 {[5]}. The group's solvency position remains well above regulatory "
              "requirements {[6]}, and we returned $540 million to shareholders through "
              "dividends and share repurchases."),
            P("Loss reserves were strengthened by $74 million in commercial auto, where claim "
              "severity continued to rise {[7]}. We consider total reserves adequate, and "
              "actuarial estimates place them near the middle of the reasonable range {[2]}."),
        ), replace(foot, notes=(
            N("[5]", "Book value per share excluding accumulated other comprehensive income, which "
              "reflects unrealized losses on the fixed-income portfolio, was $78.95, up 6%."),
            N("[6]", "The risk-based capital ratio of the lead insurance subsidiary was 412% of "
              "the company action level at year end. The figure is preliminary until the "
              "statutory statements are filed with the state regulator in March 2025."),
            N("[7]", "Commercial auto reserve additions relate to accident years 2019 to 2022. "
              "Severity trends in bodily injury claims, particularly in jurisdictions with large "
              "jury awards, were higher than assumed when the reserves were set."),
        ))),
    ))


def _superscript() -> CaseSpec:
    foot = Foot((), size=8.0, rule=1 / 3)
    return CaseSpec("superscript", "Vellmar Energie AG | Interim Statement Q3 2024", _pages(
        "A4",
        PageSpec((
            H("Business performance"),
            P("Vellmar's adjusted EBITDA for the first nine months of 2024 was EUR 1,482 "
              "million{^1}, 6% below the prior-year period. Lower wholesale power prices reduced "
              "earnings from the generation fleet{^2}, which was only partly offset by higher "
              "regulated network revenue."),
            P("Renewable output rose 18% to 9.4 TWh as the Nordsee Ost II offshore wind farm "
              "reached full operation in March.{^3} Wind yields were below the long-term average "
              "in the third quarter{^4}, and curtailment by the transmission system operators "
              "cost around 210 GWh of generation."),
            P("Adjusted net income fell to EUR 512 million{^5}. Net debt increased by EUR 640 "
              "million to EUR 7.9 billion, mainly because of capital expenditure on the grid and "
              "on offshore wind{^6}."),
        ), replace(foot, notes=(
            N("¹", "Adjusted EBITDA excludes non-operating effects, mainly changes in the fair "
              "value of commodity derivatives used to hedge future generation, which amounted to "
              "a gain of EUR 233 million in the period."),
            N("²", "Around 85% of the expected 2024 generation was sold forward in 2022 and 2023, "
              "so the fall in spot prices affects 2025 and 2026 earnings more than the current "
              "year."),
            N("³", "Nordsee Ost II has an installed capacity of 476 MW; Vellmar holds 51% and "
              "consolidates the wind farm fully. The partners' 49% share of its output is "
              "included in the 9.4 TWh."),
            N("⁴", "Measured against the 20-year average wind index for the German North Sea, "
              "third-quarter yields were 88%."),
            N("⁵", "Adjusted net income is net income attributable to shareholders excluding the "
              "non-operating effects of adjusted EBITDA, after taxes and non-controlling "
              "interests."),
            N("⁶", "Capital expenditure was EUR 2.1 billion, of which EUR 1.2 billion was in "
              "regulated distribution networks and EUR 0.6 billion in offshore wind."),
        ))),
        PageSpec((
            H("Outlook"),
            P("The Executive Board confirms its forecast of adjusted EBITDA of EUR 1.9 billion to "
              "EUR 2.1 billion for the full year{^7}. The forecast assumes normal weather in the "
              "fourth quarter and no material change in the regulatory framework for grid "
              "operators{^8}."),
            P("The dividend policy is unchanged: Vellmar intends to pay out 55% to 65% of "
              "adjusted net income{^9}. The hybrid bond issued in August{^10} strengthens the "
              "balance sheet ahead of the planned investment programme of EUR 12 billion for "
              "2025 to 2028{^11}."),
            P("The sale of the 35% stake in the Lausitz lignite joint venture is expected to "
              "close in the first quarter of 2025, subject to merger control clearance.{^12}"),
        ), replace(foot, notes=(
            N("⁷", "The forecast range was narrowed in July from EUR 1.8 billion to EUR 2.2 "
              "billion. It does not include any effect from the planned sale of the Lausitz "
              "stake."),
            N("⁸", "The Federal Network Agency's determination of the allowed return on equity "
              "for the fifth regulatory period, expected in 2025, could change network revenue "
              "from 2029."),
            N("⁹", "For 2023 the company paid EUR 1.10 per share, which was 61% of adjusted net "
              "income."),
            N("¹⁰", "EUR 750 million of subordinated notes with a first call date in 2030 and a "
              "coupon of 5.25%. Rating agencies treat 50% of the notes as equity."),
            N("¹¹", "Of the planned investment, about 60% is for distribution networks and 30% "
              "for renewable generation; the programme is subject to annual approval by the "
              "Supervisory Board."),
            N("¹²", "The agreed price is EUR 310 million. The stake is presented as held for "
              "sale, and its carrying amount of EUR 262 million is included in current assets."),
        ))),
    ))


def _continued_note() -> CaseSpec:
    foot = Foot((), size=7.5, rule=1 / 3)
    return CaseSpec("continued-note", "Ashgrove Pension Trust | Annual Report and Accounts 2024",
                    _pages(
        "Letter",
        PageSpec((
            H("Report of the Trustee"),
            P("The Trust's net assets increased by GBP 412 million to GBP 6.94 billion during the "
              "year ended 31 March 2024 {[1]}. Investment returns of 7.8% exceeded the benchmark "
              "by 0.6 percentage points, helped by the strong performance of listed equities in "
              "the final quarter."),
            P("Contributions received from the employer amounted to GBP 188 million, including "
              "GBP 95 million of deficit repair contributions agreed under the 2022 recovery plan "
              "{[2]}."),
            P("The funding position on the technical provisions basis improved to 104% from 97% "
              "a year earlier {[3]}. The Trustee has therefore agreed with the employer that "
              "deficit repair contributions will be suspended from April 2025, while "
              "contributions for future service continue at the current rate."),
            P("Membership fell slightly to 48,210, of whom 9,870 are active members, 17,455 are "
              "deferred members and 20,885 receive a pension. Pensions in payment were increased "
              "by 6.7% in April 2024 in line with the Trust rules."),
        ), replace(foot, notes=(
            N("[1]", "Net assets are stated at fair value. Unquoted investments, mainly property "
              "and infrastructure funds of GBP 1.12 billion, are valued using the latest manager "
              "valuations, rolled forward for cash flows to 31 March 2024."),
            N("[2]", "The 2022 recovery plan required deficit repair contributions of GBP 95 "
              "million a year until March 2027, with a review at each triennial valuation."),
            N("[3]", "The technical provisions are the assets needed to cover the liabilities on "
              "the prudent basis set out in the Statement of Funding Principles. The funding "
              "level of 104% is an estimate by the Scheme Actuary, rolled forward from the "
              "formal valuation as at 31 March 2022 using market conditions at 31 March 2024, "
              "and it will be replaced by the result of the formal valuation as at 31 March "
              "2025, which must be completed by 30 June 2026. The estimate assumes a discount "
              "rate of gilt yields plus 0.9% a year and an inflation"),
        ))),
        PageSpec((
            H("Investment strategy"),
            P("During the year the Trustee increased the liability hedge ratio to 90% of interest "
              "rate and inflation exposure on the technical provisions basis {[4]}. The growth "
              "portfolio was reduced from 45% to 38% of assets, and the proceeds were invested "
              "in investment-grade credit."),
            P("Administration costs were GBP 6.2 million, equal to 0.09% of net assets {[5]}. The "
              "Trustee reviewed the administrator's service levels in June and found that 96% "
              "of member cases were completed within the agreed time."),
            P("Members can find more information on the funding level {[3]} in the summary "
              "funding statement sent to them in January."),
        ), replace(foot, notes=(
            N(None, "assumption derived from the Bank of England inflation curve; on the buy-out "
              "basis used by insurers, the funding level was an estimated 86%. A one percentage "
              "point fall in the discount rate would lower the funding level to about 96%."),
            N("[4]", "The hedge ratio is measured on the technical provisions basis and is "
              "implemented through gilts, index-linked gilts and gilt repurchase agreements. The "
              "liability-driven investment portfolio holds collateral sufficient to withstand a "
              "2.5 percentage point rise in gilt yields."),
            N("[5]", "Administration costs exclude investment management fees of GBP 21.4 "
              "million, which are deducted within the pooled funds, and transaction costs."),
        ))),
    ))


def _two_column() -> CaseSpec:
    foot = Foot((), size=7.5, rule=1 / 3)
    return CaseSpec(
        "two-column", "Brightwater Municipal Utility Authority | Official Statement 2024A",
        _pages("A4",
               PageSpec((
                   H("Water and Sewer Revenue Bonds, Series 2024A"),
                   Columns((
                       P("The Authority provides water and wastewater service to approximately "
                         "412,000 residents of Brightwater County and four neighbouring "
                         "townships {[1]}. It operates two treatment plants with a combined "
                         "capacity of 148 million gallons per day and maintains 2,310 miles of "
                         "water mains."),
                       P("The Series 2024A Bonds are being issued to finance the first phase of "
                         "the Eastside Reservoir project and to refund a portion of the "
                         "outstanding Series 2014 Bonds {[2]}."),
                   ), (
                       P("Net revenues for fiscal 2024 were $96.4 million, providing debt service "
                         "coverage of 1.86 times on all senior lien bonds {[3]}. The rate "
                         "covenant requires coverage of at least 1.25 times."),
                       P("The Board of Commissioners approved water rate increases of 6.5% for "
                         "each of fiscal 2025 and 2026 {[4]}. After these increases the average "
                         "residential bill will remain below the state median {[5]}."),
                       P("The Authority's largest customer, the Port of Brightwater, accounted "
                         "for 4.2% of operating revenue {[6]}."),
                   )),
               ), replace(foot, notes=(
                   N("[1]", "Population served is based on the 2020 census, updated with county "
                     "planning estimates for 2023. Wholesale service to the Township of "
                     "Millbrook, about 18,000 residents, is provided under a contract that "
                     "expires in 2031."),
                   N("[2]", "The refunding is expected to produce net present value savings of "
                     "approximately $3.1 million, or 4.8% of the refunded principal, based on "
                     "interest rates at the date of this Official Statement. Actual savings "
                     "depend on market conditions at pricing."),
                   N("[3]", "Net revenues are operating revenues plus interest income, less "
                     "operating and maintenance expenses excluding depreciation, as defined in "
                     "the Master Resolution. Fiscal 2024 operating revenues include a one-time "
                     "$4.2 million connection fee from the Harbor Point development."),
                   N("[4]", "Wastewater rates will rise 4.0% in each of the same years. The "
                     "increases were adopted after a public hearing on 12 March 2024 and are not "
                     "subject to approval by any other governmental body."),
                   N("[5]", "Based on the 2023 survey of 148 utilities by the State Rural Water "
                     "Association, for a household using 5,000 gallons per month."),
                   N("[6]", "The Port's contract runs until 2029 and includes a minimum annual "
                     "purchase obligation of 1.1 billion gallons."),
               ))),
               PageSpec((
                   H("Capital improvement program"),
                   Columns((
                       P("The five-year capital improvement program totals $612 million {[7]}. "
                         "The Eastside Reservoir accounts for $238 million and is scheduled for "
                         "completion in 2027."),
                       P("The Authority expects to fund about 40% of the program from revenues "
                         "and reserves and the remainder from additional bonds {[8]}."),
                   ), (
                       P("Pension and retiree health obligations are funded in line with "
                         "actuarial recommendations {[9]}. The Authority's contribution in "
                         "fiscal 2024 was $7.8 million."),
                       P("There is no litigation pending that would affect the validity of the "
                         "Bonds or the pledge of net revenues {[10]}. Projected coverage assumes "
                         "the rate increases described above {[4]}."),
                   )),
               ), replace(foot, notes=(
                   N("[7]", "The program is reviewed annually. It includes $96 million for lead "
                     "service line replacement, of which $41 million is expected to be funded "
                     "by federal grants and low-interest state revolving fund loans."),
                   N("[8]", "The Authority expects to issue approximately $180 million of "
                     "additional senior lien bonds in fiscal 2026 and fiscal 2028. Projected "
                     "debt service coverage remains above 1.5 times in every year of the "
                     "forecast."),
                   N("[9]", "The Authority participates in the County Employees' Retirement "
                     "System, a cost-sharing multiple-employer plan, which was 78.4% funded on "
                     "an actuarial basis as of its latest valuation."),
                   N("[10]", "A claim by a contractor relating to the Westfield pump station, "
                     "seeking $2.6 million, is in arbitration. The Authority believes any "
                     "liability would be covered by insurance."),
               )))))


def _wrapped_marker() -> CaseSpec:
    foot = Foot((), size=7.5, rule=1 / 3)
    return CaseSpec("wrapped-marker", "Ostrava Logistics Group N.V. | Annual Report 2024", _pages(
        "A4",
        PageSpec((
            H("Corporate governance"),
            P("Ostrava Logistics Group N.V. applies the Dutch Corporate Governance Code {[1]}. The "
              "company complied with all best-practice provisions in 2024 except the ones "
              "explained below, which concern the term of appointment of two non-executive "
              "directors and the vesting period of the 2021 share grants {[2]}."),
            P("The Board has a one-tier structure with three executive and six non-executive "
              "directors {[3]}. The Audit Committee met seven times during the year; the "
              "external auditor attended all meetings and met the committee without management "
              "present twice {[4]}."),
            P("Diversity targets for the Board were met: four of the nine directors are women "
              "{[5]}, and the Executive Committee was broadened with the appointment of a Chief "
              "Sustainability Officer in May {[6]}."),
        ), replace(foot, notes=(
            N("[1]", "The Code of 20 December 2022, which applies to financial years starting on "
              "or after 1 January 2023. The full text is published at mccg.nl."),
            N("[2]", "Two non-executive directors were reappointed for a third four-year term "
              "because of the ongoing integration of the Baltic operations. The 2021 share "
              "grants vest after three years instead of five, as agreed before the company's "
              "listing."),
            N("[3]", "All six non-executive directors are independent within the meaning of the "
              "Code. The chair of the Board is a non-executive director."),
            N("[4]", "The Audit Committee also reviewed the internal audit plan, the tax strategy "
              "and the first sustainability statement prepared under the Corporate "
              "Sustainability Reporting Directive."),
            N("[5]", "The statutory target for the supervisory members of the Board is at least "
              "one third women and one third men."),
            N("[6]", "The Chief Sustainability Officer is a member of the Executive Committee "
              "but not of the Board."),
        ))),
        PageSpec((
            H("Remuneration"),
            P("Total remuneration of the executive directors was EUR 6.8 million {[7]}, of which "
              "42% was variable. The short-term incentive paid out at 87% of target, reflecting "
              "above-target free cash flow and below-target growth in contract logistics revenue "
              "{[8]}."),
            P("The long-term incentive plan granted in 2021 vested in March 2024 at 64% {[9]}. "
              "The relative total shareholder return condition was met at the 60th percentile "
              "of the peer group {[10]}, while the return on capital condition vested in full."),
            P("The remuneration policy was approved by 91.3% of votes at the 2024 annual general "
              "meeting {[11]}. The Remuneration Committee reviewed the pay ratio between the CEO "
              "and the average employee, which was 38 to 1, against the ratio of 41 to 1 "
              "reported for 2023\n{[12]}. The board considers the ratio reasonable given the "
              "company's international workforce and will report it again next year."),
        ), replace(foot, notes=(
            N("[7]", "Comprises base salary, short-term incentive, the fair value of long-term "
              "incentive awards vesting in the year, pension contributions and benefits in kind. "
              "The Chief Executive Officer received EUR 2.9 million."),
            N("[8]", "Free cash flow of EUR 318 million compared with a target of EUR 290 "
              "million; contract logistics revenue grew 3.1% against a target of 5.0%."),
            N("[9]", "Vesting is measured over the three financial years 2021 to 2023. The vested "
              "shares are subject to a further holding period of two years."),
            N("[10]", "The peer group comprises twelve listed European logistics companies, "
              "named in the 2023 remuneration report."),
            N("[11]", "Votes against were mainly cast by shareholders who objected to the "
              "discretion of the Remuneration Committee to adjust targets for acquisitions."),
            N("[12]", "The pay ratio compares the total remuneration of the CEO with the average "
              "employee cost, excluding temporary agency staff, of EUR 76,300. Including agency "
              "staff the ratio would be 44 to 1."),
        ))),
        PageSpec((
            H("Statement of the Stichting Continuiteit Ostrava Logistics"),
            P("The foundation holds an option to acquire preference shares up to 100% of the "
              "issued ordinary share capital {(1)}. The option can be exercised if the board of "
              "the foundation considers that a hostile bid or a shareholder's actions threaten "
              "the continuity, independence or identity of the company {(2)}."),
            P("The board of the foundation met twice in 2024 {(3)}. It did not exercise the "
              "option, and no preference shares were outstanding at any time during the year or "
              "at the date of this statement, as confirmed by the company secretary\n{(4)}, and "
              "the foundation's expenses were borne by the company under the cost-sharing "
              "agreement of 2019 {(5)}."),
        ), replace(foot, notes=(
            N("(1)", "The call option agreement was entered into in 2006 and amended in 2019. "
              "Preference shares issued under it would be paid up to 25% of their nominal "
              "value."),
            N("(2)", "Under Dutch law the foundation must act independently of the company; its "
              "articles require that preference shares are cancelled within two years of issue "
              "unless a general meeting of shareholders decides otherwise."),
            N("(3)", "Both meetings were attended by all three board members, who are independent "
              "of the company within the meaning of the Dutch Corporate Governance Code."),
            N("(4)", "The confirmation is based on the shareholder register kept by the company "
              "secretary at 31 December 2024 and on 18 March 2025."),
            N("(5)", "The expenses, EUR 46,000 in 2024, comprise the board members' fees and the "
              "cost of legal advice."),
        ))),
    ))


def _table_markers() -> CaseSpec:
    foot = Foot((), size=7.5, rule=1 / 3)
    widths5 = (0.40, 0.15, 0.15, 0.15, 0.15)
    return CaseSpec(
        "table-markers", "Kestrel Ridge Mining Corp. | Mineral Reserve and Resource Statement",
        _pages("Letter",
               PageSpec((
                   H("Mineral reserves"),
                   P("Proven and probable mineral reserves at 31 December 2024 are summarised in "
                     "the table below. Reserves are estimated at a gold price of USD 1,700 per "
                     "ounce and a copper price of USD 3.75 per pound {[1]}."),
                   Table((
                       ("Mine", "Tonnes (Mt)", "Gold (g/t)", "Gold (koz)", "Copper (Mlb)"),
                       ("Kestrel Ridge open pit {[2]}", "48.2", "0.92", "1,426", "188"),
                       ("Kestrel Ridge underground {(a)}", "9.6", "3.41", "1,052", "-"),
                       ("Sable Creek {[3]}", "22.7", "1.15", "839", "412"),
                       ("Torrin Hill {(b)}", "6.1", "2.08", "408", "-"),
                       ("Total {(c)}", "86.6", "1.35", "3,725", "600"),
                   ), widths5, title="Table 1: Mineral reserves by mine (attributable basis)",
                       notes=(
                       N("(a)", "Includes 1.8 Mt of stockpiled ore at 1.05 g/t gold. Underground "
                         "reserves are diluted at 12% and recovered at 92%."),
                       N("(b)", "Torrin Hill is held through a 70% joint venture; the table shows "
                         "the attributable 70% share."),
                       N("(c)", "Totals may not add because of rounding."),
                   )),
                   P("Reserves decreased by 6% after mining depletion of 412 koz, which was partly "
                     "replaced by the conversion of resources at Sable Creek {[3]}. The reserve "
                     "life at current production rates is 11 years {[4]}."),
               ), replace(foot, notes=(
                   N("[1]", "The prices are below the three-year trailing average prices of USD "
                     "1,912 per ounce of gold and USD 3.93 per pound of copper. Cut-off grades "
                     "are 0.30 g/t gold for the open pit and 2.10 g/t gold for the "
                     "underground."),
                   N("[2]", "The open pit reserve includes the Phase 6 pushback approved in "
                     "October 2024, which added 214 koz of gold."),
                   N("[3]", "Sable Creek reserves are stated after the updated pit design "
                     "completed in November 2024, which converted 180 koz of indicated "
                     "resources to probable reserves."),
                   N("[4]", "Reserve life is total reserves divided by planned 2025 production of "
                     "340 koz of gold."),
               ))),
               PageSpec((
                   H("Mineral resources"),
                   P("Measured and indicated mineral resources are reported exclusive of "
                     "reserves {[5]}. Inferred resources are shown separately because their "
                     "geological confidence is lower and they may never be converted to "
                     "reserves."),
                   Table((
                       ("Category", "Tonnes (Mt)", "Gold (g/t)", "Gold (koz)"),
                       ("Measured {[6]}", "12.4", "1.02", "407"),
                       ("Indicated {(a)}", "31.9", "1.21", "1,241"),
                       ("Measured and indicated", "44.3", "1.16", "1,648"),
                       ("Inferred {[7]} {(b)}", "18.8", "1.47", "889"),
                   ), (0.46, 0.18, 0.18, 0.18),
                       title="Table 2: Mineral resources exclusive of reserves", notes=(
                       N("(a)", "Includes 6.2 Mt at 1.88 g/t gold at the Torrin Hill underground "
                         "extension, on a 70% attributable basis."),
                       N("(b)", "Inferred resources have not been drilled on a spacing sufficient "
                         "to support a reserve estimate and are not included in the "
                         "life-of-mine plan."),
                   )),
                   P("The resource estimates were prepared by the company's geology team and "
                     "reviewed by an independent qualified person {[8]}."),
               ), replace(foot, notes=(
                   N("[5]", "Resources are estimated at a gold price of USD 2,000 per ounce and "
                     "constrained within optimised pit shells or underground mining shapes."),
                   N("[6]", "Measured resources at Kestrel Ridge are based on drilling at a "
                     "spacing of 25 by 25 metres; the grade control model was reconciled with "
                     "2024 mill production to within 4% of contained gold."),
                   N("[7]", "The inferred resource at Sable Creek depth was increased by 310 koz "
                     "after the 2024 drilling programme of 46,000 metres."),
                   N("[8]", "The qualified person is a Fellow of the Australasian Institute of "
                     "Mining and Metallurgy with 24 years of experience in gold deposits, and is "
                     "not an employee of the company."),
               )))))


def _nested() -> CaseSpec:
    foot = Foot((), size=7.5, rule=1 / 3)
    return CaseSpec("nested", "Lindqvist Bank AB (publ) | Capital and Risk Management 2024", _pages(
        "A4",
        PageSpec((
            H("Capital position"),
            P("The Common Equity Tier 1 capital ratio was 17.4% at 31 December 2024, compared "
              "with 16.8% a year earlier {[1]}. The total capital ratio was 21.9% {[2]}, "
              "comfortably above the requirement of 17.1% set by the Swedish Financial "
              "Supervisory Authority."),
            P("Risk exposure amount decreased by SEK 14 billion to SEK 612 billion, mainly "
              "because the new internal model for corporate exposures was approved {[3]}. Credit "
              "risk accounts for 84% of the total {[4]}."),
            P("The leverage ratio was 5.2% {[5]}, and the liquidity coverage ratio averaged 148% "
              "over the fourth quarter."),
        ), replace(foot, notes=(
            N("[1]", "The ratio includes the profit for the year less the proposed dividend of "
              "SEK 8.40 per share, in line with the permission of the Swedish Financial "
              "Supervisory Authority to include interim profits in Common Equity Tier 1 "
              "capital."),
            N("[2]", "Total capital includes Additional Tier 1 instruments of SEK 9.8 billion and "
              "Tier 2 subordinated loans of SEK 17.5 billion; for the risk exposure amount the "
              "ratio is measured against, see {[4]}."),
            N("[3]", "The internal ratings-based model for large corporate exposures was approved "
              "in June 2024 and reduced the risk exposure amount by SEK 21 billion. A temporary "
              "risk-weight floor applies until the model has been used for twelve months."),
            N("[4]", "Market risk and credit valuation adjustment risk make up 3% and operational "
              "risk 13% of the risk exposure amount. Operational risk is calculated under the "
              "standardised approach."),
            N("[5]", "The leverage ratio is Tier 1 capital divided by total exposure, including "
              "off-balance-sheet items. It is calculated on the same capital base as the ratio "
              "in {[1]}, including interim profits."),
        ))),
        PageSpec((
            H("Capital requirements and buffers"),
            P("The combined buffer requirement is 6.0% of the risk exposure amount {[6]}. The "
              "Pillar 2 guidance communicated in the 2024 supervisory review is 1.0%, which the "
              "bank meets with a margin of SEK 23 billion {[7]}."),
            P("Management's target is a Common Equity Tier 1 ratio of 1.5 to 3.0 percentage "
              "points above the requirement {[8]}. The issuance plan for 2025 includes one "
              "Additional Tier 1 instrument to replace the instrument callable in March {[9]}. "
              "The effect of the approved internal model {[3]} is expected to grow as the floor "
              "lapses."),
        ), replace(foot, notes=(
            N("[6]", "The combined buffer consists of the capital conservation buffer of 2.5%, "
              "the countercyclical buffer of 2.0% and the systemic risk buffer of 1.5%; the risk "
              "exposure amount includes the model change described in {[3]}."),
            N("[7]", "Pillar 2 guidance is not a binding requirement, but the supervisory "
              "authority expects banks to hold capital to meet it. It is not disclosed in detail "
              "by the authority."),
            N("[8]", "The target range is measured against the requirement including the buffers "
              "in {[6]} and the guidance in {[7]}. At year end the bank was 2.9 percentage "
              "points above the requirement."),
            N("[9]", "The callable instrument is USD 500 million of perpetual notes; it is "
              "included in the total capital described in {[2]}."),
        ))),
    ))


def _eu_oj() -> CaseSpec:
    foot = Foot((), size=8.0, hanging=True, indent=20.0, rule=0.2)

    def recital(n: int, text: str) -> Para:
        return Para(text, label=f"({n})", justify=True)

    def just(text: str) -> Para:
        return Para(text, justify=True)

    return CaseSpec("eu-oj", "L series | Official Journal of the European Union | 18.4.2024",
                    _pages(
        "A4",
        PageSpec((
            Para("COMMISSION IMPLEMENTING REGULATION (EU) 2024/1187", bold=True, center=True,
                 space_after=3),
            Para("of 17 April 2024", center=True, space_after=3),
            Para("laying down implementing technical standards for the application of Regulation "
                 "(EU) 2023/1114 of the European Parliament and of the Council as regards the "
                 "format of the reporting of liquidity stress tests by issuers of asset-"
                 "referenced tokens", bold=True, center=True, space_after=10),
            just("THE EUROPEAN COMMISSION,"),
            just("Having regard to the Treaty on the Functioning of the European Union,"),
            just("Having regard to Regulation (EU) 2023/1114 of the European Parliament and of "
                 "the Council of 31 May 2023 on markets in crypto-assets, and amending "
                 "Regulations (EU) No 1093/2010 and (EU) No 1095/2010 and Directives 2013/36/EU "
                 "and (EU) 2019/1937 {(1)}, and in particular Article 45(7), third subparagraph, "
                 "thereof,"),
            just("Whereas:"),
            recital(1, "Issuers of asset-referenced tokens are required to assess and monitor "
                       "the liquidity needs to meet redemption requests by holders of tokens. The "
                       "results of the liquidity stress tests should be reported to the "
                       "competent authority in a format that allows comparison between issuers "
                       "and over time."),
            recital(2, "Regulation (EU) No 1093/2010 of the European Parliament and of the "
                       "Council {(2)} entrusts the European Banking Authority with developing "
                       "draft implementing technical standards. To ensure consistency with the "
                       "reporting framework for credit institutions, the templates laid down in "
                       "this Regulation should, where possible, use the data point model and the "
                       "validation rules of Commission Implementing Regulation (EU) 2021/451 "
                       "{(3)}."),
            recital(3, "The processing of personal data under this Regulation should be carried "
                       "out in accordance with Regulation (EU) 2016/679 of the European "
                       "Parliament and of the Council {(4)}. Reports submitted under this "
                       "Regulation should not contain personal data of holders of tokens."),
        ), replace(foot, notes=(
            N("(1)", "OJ L 150, 9.6.2023, p. 40."),
            N("(2)", "Regulation (EU) No 1093/2010 of the European Parliament and of the Council "
                     "of 24 November 2010 establishing a European Supervisory Authority "
                     "(European Banking Authority), amending Decision No 716/2009/EC and "
                     "repealing Commission Decision 2009/78/EC (OJ L 331, 15.12.2010, p. 12)."),
            N("(3)", "Commission Implementing Regulation (EU) 2021/451 of 17 December 2020 "
                     "laying down implementing technical standards for the application of "
                     "Regulation (EU) No 575/2013 of the European Parliament and of the Council "
                     "with regard to supervisory reporting of institutions and repealing "
                     "Implementing Regulation (EU) No 680/2014 (OJ L 97, 19.3.2021, p. 1)."),
            N("(4)", "Regulation (EU) 2016/679 of the European Parliament and of the Council of "
                     "27 April 2016 on the protection of natural persons with regard to the "
                     "processing of personal data and on the free movement of such data, and "
                     "repealing Directive 95/46/EC (General Data Protection Regulation) (OJ L "
                     "119, 4.5.2016, p. 1)."),
        ))),
        PageSpec((
            recital(4, "The European Data Protection Supervisor was consulted in accordance with "
                       "Article 42(1) of Regulation (EU) 2018/1725 of the European Parliament "
                       "and of the Council {(5)} and delivered an opinion on 6 March 2024."),
            recital(5, "This Regulation is based on the draft implementing technical standards "
                       "submitted to the Commission by the European Banking Authority, which "
                       "conducted open public consultations on them and analysed the potential "
                       "related costs and benefits."),
            just("HAS ADOPTED THIS REGULATION:"),
            Para("Article 1", center=True, space_after=2),
            Para("Reporting templates", bold=True, center=True),
            just("1. Issuers of asset-referenced tokens shall report the results of the "
                 "liquidity stress tests referred to in Article 45(4) of Regulation (EU) "
                 "2023/1114 using the templates set out in Annex I, in accordance with the "
                 "instructions set out in Annex II."),
            just("2. The reports shall be submitted in the data exchange format referred to in "
                 "Article 16 of Implementing Regulation (EU) 2021/451 {(6)} within 30 calendar "
                 "days of the reference date."),
            Para("Article 2", center=True, space_after=2),
            Para("Entry into force", bold=True, center=True),
            just("This Regulation shall enter into force on the twentieth day following that of "
                 "its publication in the Official Journal of the European Union. It shall apply "
                 "from 1 January 2025 {(7)}."),
            just("This Regulation shall be binding in its entirety and directly applicable in all "
                 "Member States."),
        ), replace(foot, notes=(
            N("(5)", "Regulation (EU) 2018/1725 of the European Parliament and of the Council of "
                     "23 October 2018 on the protection of natural persons with regard to the "
                     "processing of personal data by the Union institutions, bodies, offices and "
                     "agencies and on the free movement of such data, and repealing Regulation "
                     "(EC) No 45/2001 and Decision No 1247/2002/EC (OJ L 295, 21.11.2018, p. "
                     "39)."),
            N("(6)", "Implementing Regulation (EU) 2021/451 as amended by Commission Implementing "
                     "Regulation (EU) 2024/855 (OJ L 85, 26.3.2024, p. 1)."),
            N("(7)", "The first reports shall relate to the reference date of 31 March 2025."),
        ))),
    ))


def _tenk_table_notes() -> CaseSpec:
    return CaseSpec("tenk-table-notes", "Harlow Consumer Brands, Inc. | Form 10-K | Fiscal 2024",
                    _pages(
        "Letter",
        PageSpec((
            H("Results of Operations"),
            P("The following table summarizes our consolidated results for the fiscal years "
              "ended June 30, 2024 and 2023. Net sales increased 5.8% as price increases more "
              "than offset lower volumes in the Household Care segment."),
            Table((
                ("", "Fiscal 2024", "Fiscal 2023", "% Change"),
                ("Net sales {(1)}", "$ 14,286", "$ 13,503", "5.8%"),
                ("Cost of products sold", "8,715", "8,507", "2.4%"),
                ("Gross profit", "5,571", "4,996", "11.5%"),
                ("Selling, general and administrative expenses", "3,342", "3,105", "7.6%"),
                ("Restructuring and impairment charges {(2)}", "214", "96", "n/m"),
                ("Operating income", "2,015", "1,795", "12.3%"),
                ("Interest expense, net", "188", "176", "6.8%"),
                ("Other (income) expense, net {(3)}", "(42)", "31", "n/m"),
                ("Earnings before income taxes", "1,869", "1,588", "17.7%"),
                ("Diluted earnings per share {(4)}", "$ 5.61", "$ 4.72", "18.9%"),
            ), (0.52, 0.16, 0.16, 0.16), rules="lines",
                title="Consolidated Statement of Earnings Data (in millions, except per share "
                      "amounts)", note_size=9.0, notes=(
                N("(1)", "Includes net sales of $312 million from the Pureleaf brand, acquired on "
                  "October 2, 2023. Excluding Pureleaf and the effect of foreign currency, "
                  "organic net sales increased 3.9%."),
                N("(2)", "Fiscal 2024 charges relate primarily to the closure of the Dayton, Ohio "
                  "manufacturing facility and the impairment of the Kindra trademark of $88 "
                  "million. See Note 5 to the consolidated financial statements."),
                N("(3)", "Fiscal 2024 includes a gain of $61 million on the sale of our Brazilian "
                  "laundry business."),
                N("(4)", "Diluted weighted average shares outstanding were 251.4 million in "
                  "fiscal 2024 and 253.0 million in fiscal 2023."),
            )),
            P("Gross margin expanded 200 basis points to 39.0%, driven by pricing and "
              "productivity savings, partially offset by cost inflation in packaging and resin. "
              "Selling, general and administrative expenses increased as a percentage of net "
              "sales to 23.4% due to higher advertising spending behind new product launches."),
            P("The effective tax rate was 22.8% compared with 23.6% in the prior year, primarily "
              "reflecting the lower tax rate on the Brazilian divestiture gain."),
        )),
        PageSpec((
            H("Segment Results"),
            P("Segment operating profit excludes restructuring and impairment charges and the "
              "gains and losses on divestitures, which are reported in Corporate."),
            Table((
                ("Segment", "Sales 2024", "Sales 2023", "Profit 2024", "Profit 2023"),
                ("Household Care {(1)}", "$ 6,204", "$ 6,118", "$ 1,122", "$ 1,046"),
                ("Personal Care {(2)}", "5,390", "4,812", "1,013", "862"),
                ("International", "2,692", "2,573", "311", "290"),
                ("Corporate {(3)}", "-", "-", "(431)", "(403)"),
                ("Total", "$ 14,286", "$ 13,503", "$ 2,015", "$ 1,795"),
            ), (0.36, 0.16, 0.16, 0.16, 0.16), rules="lines",
                title="Segment Net Sales and Operating Profit (in millions)", note_size=9.0,
                notes=(
                N("(1)", "Household Care volumes declined 3% as we exited lower-margin private "
                  "label contracts in the first half of fiscal 2024; price and mix contributed "
                  "4.4%."),
                N("(2)", "Includes Pureleaf from the date of acquisition. Personal Care organic "
                  "net sales grew 5.6%."),
                N("(3)", "Corporate includes the restructuring and impairment charges and the "
                  "divestiture gain shown in the consolidated table above, as well as "
                  "unallocated general corporate expenses."),
            )),
            P("Household Care operating profit margin improved to 18.1% as lower commodity costs "
              "and productivity savings offset higher advertising. Personal Care margin "
              "benefited from the favorable mix of Pureleaf products, which carry higher gross "
              "margins than the segment average."),
        )),
    ))


def _rotated() -> CaseSpec:
    foot = Foot((), size=7.5, rule=1 / 3)
    return CaseSpec("rotated", "Tamsin Property REIT plc | Annual Report 2024", _pages(
        "A4",
        PageSpec((
            H("Portfolio review"),
            P("The portfolio was valued at GBP 3.42 billion at 30 September 2024, a like-for-like "
              "decline of 1.8% over the year {[1]}. Industrial and logistics assets rose 2.6% in "
              "value, while offices fell 9.4% as valuers applied higher yields to secondary "
              "buildings outside London."),
            P("Contracted rent increased to GBP 186.4 million {[2]}, and the EPRA vacancy rate "
              "fell to 4.1% from 5.3% {[3]}. During the year we completed 142 lettings and "
              "renewals at an average of 7% above the estimated rental value."),
            P("We sold eleven assets for GBP 214 million, 3% above their March 2024 book values "
              "{[4]}, and used the proceeds to reduce the revolving credit facility."),
        ), replace(foot, notes=(
            N("[1]", "Valuations were carried out by Knight Frank LLP and CBRE Limited in "
              "accordance with the RICS Valuation - Global Standards. The like-for-like change "
              "excludes acquisitions, disposals and developments in the year."),
            N("[2]", "Contracted rent is the annualised rent at the balance sheet date after the "
              "expiry of rent-free periods. It includes GBP 6.1 million from leases signed but "
              "not yet started."),
            N("[3]", "The EPRA vacancy rate is the estimated rental value of vacant space divided "
              "by the estimated rental value of the whole portfolio, excluding assets under "
              "development."),
            N("[4]", "Disposal proceeds are stated before costs of GBP 2.3 million. Nine of the "
              "eleven assets were offices outside London."),
        ))),
        PageSpec((
            H("Financing and outlook"),
            P("The loan-to-value ratio was 33.8% at the year end {[5]}. The average cost of debt "
              "rose to 3.9% as the interest rate swaps taken out in 2019 expired {[6]}, and 94% "
              "of the debt is now fixed or hedged until at least 2027."),
            P("EPRA earnings per share were 8.2 pence {[7]}, and the board has declared a fourth "
              "quarterly dividend of 2.1 pence, making 8.4 pence for the year. We expect "
              "dividend cover to return to 100% in the 2025 financial year as the vacant space "
              "let in 2024 begins to pay rent {[8]}."),
        ), replace(foot, notes=(
            N("[5]", "Net debt of GBP 1.16 billion divided by the portfolio valuation. The "
              "group's unsecured debt covenants require a ratio below 60%."),
            N("[6]", "Including commitment fees on the undrawn revolving credit facility of GBP "
              "300 million. The weighted average maturity of drawn debt is 5.7 years."),
            N("[7]", "EPRA earnings exclude valuation movements, profits and losses on disposals "
              "and the fair value change of derivatives."),
            N("[8]", "The expectation depends on the letting of the 52,000 square feet of space "
              "at Meridian Park, which is currently under offer."),
        )), rotate=90),
    ))


_DENSE_VARIED = {
    1: ("Order intake is the value of firm orders received in the period, including change "
        "orders on existing contracts, and excludes framework agreements until call-offs are "
        "received."),
    4: ("Flow Control revenue includes $19 million from the Ardent Valves acquisition, which "
        "closed on 2 July; excluding it, segment revenue was flat."),
    7: ("Adjusted operating margin excludes amortization of acquired intangibles of $14 million "
        "and restructuring costs of $6 million; the reconciliation to operating income is on "
        "page 3."),
    8: ("Second-quarter order intake included a $64 million multi-year service contract with a "
        "North Sea operator, the largest single order in the company's history."),
    11: ("Motion Systems revenue was reduced by $7 million of delayed shipments caused by a "
         "supplier fire in May; the shipments were completed in July."),
    14: ("Includes a $5 million charge for an onerous contract in Aftermarket Services, which is "
         "not excluded from adjusted operating margin."),
    15: ("First-quarter order intake is restated to exclude $22 million of orders cancelled by a "
         "customer whose export licence was withdrawn, as described in the annual report."),
    18: ("Flow Control revenue in the first quarter was affected by the relocation of valve "
         "assembly from Leeds to Brno, which reduced output for six weeks."),
    21: ("Adjusted operating margin for the first quarter is restated for the change in the "
         "allocation of corporate costs to segments introduced in the second quarter."),
}


def _dense_page(p: int, quarter: str, figures: tuple[str, ...]) -> PageSpec:
    base = 7 * (p - 1)
    n = [base + k for k in range(1, 8)]

    def note(k: int) -> Note:
        text = _DENSE_VARIED.get(k) or (
            f"Note {k}: amounts in millions of dollars, figure 575 restated for page {p}.")
        return N(f"[{k}]", text)

    order, backlog, b2b, flow, motion, after, margin = figures
    return PageSpec((
        P(f"Order intake {{[{n[0]}]}} was ${order} million in the {quarter} quarter, and the "
          f"backlog {{[{n[1]}]}} stood at ${backlog} million at the end of the period. "
          f"Book-to-bill {{[{n[2]}]}} was {b2b}."),
        H(f"Segment revenue, {quarter} quarter", size=11),
        P(f"Flow Control ${flow} million {{[{n[3]}]}}; Motion Systems ${motion} million "
          f"{{[{n[4]}]}}; Aftermarket Services ${after} million {{[{n[5]}]}}."),
        P(f"Adjusted operating margin was {margin}% {{[{n[6]}]}}, and all amounts on this page "
          "are unaudited."),
    ), Foot(tuple(note(k) for k in n), size=7.5, rule=1 / 3))


def _dense() -> CaseSpec:
    return CaseSpec("dense", "Dunmore Industrial Holdings | Quarterly Data Supplement 2024", _pages(
        "Letter",
        _dense_page(1, "third", ("575", "1,940", "1.12", "212", "188", "175", "16.4")),
        _dense_page(2, "second", ("561", "1,880", "1.08", "198", "181", "171", "15.9")),
        _dense_page(3, "first", ("549", "1,832", "1.05", "190", "176", "168", "15.2")),
    ))


_FOUR_DIGIT = (
    "Three contracts with the national utility account for 71% of revenue.",
    "The contracts expire in 2027, 2029 and 2031; the Notes mature in 2034.",
    "Renewal negotiations for the 2027 contract started in January 2024 and no agreement has "
    "been reached yet.",
    "Gas purchases are indexed to the TTF month-ahead price with a three-month lag.",
    "About 55% of expected gas purchases for 2025 are hedged with swaps.",
    "Train 1 has a capacity of 4.2 million tonnes a year and train 2 of 3.9 million tonnes a "
    "year.",
    "Based on 2023 revenue; business interruption insurance covers outages after a 45-day "
    "deductible period.",
    "The principal permits are the integrated environmental permit and the water extraction "
    "licence.",
    "The water extraction licence expires in March 2025; a renewal application was filed in "
    "September 2024 and the operator may continue extraction while it is assessed.",
    "The production tax rate rose from 12% to 18% for volumes above the 2022 baseline.",
    "See the section on the terms and conditions of the Notes for a description of the interest "
    "provisions.",
    "The Notes bear interest at 5.125% a year, payable annually in arrear.",
    "No index-linked payment or gross-up for inflation applies to principal or interest.",
    "The Issuer is a finance subsidiary with no operations of its own.",
    "Its only assets are the loans made to the Guarantor from the proceeds of the Notes.",
    "The Guarantee is unsecured and ranks equally with the Guarantor's other senior unsecured "
    "debt, which amounted to EUR 2.4 billion at 30 June 2024.",
    "Secured debt of EUR 610 million ranks ahead of the Guarantee to the extent of the value of "
    "the secured assets.",
    "Under the laws of the Netherlands a guarantee may be limited where it is not in the "
    "corporate interest of the guarantor.",
    "The Notes are expected to be rated BBB- by one rating agency.",
    "A downgrade below investment grade would trigger a step-up of 1.25% in the interest rate.",
    "The Issuer may redeem the Notes at par from three months before maturity.",
    "The Notes are admitted to trading on the regulated market of Euronext Dublin.",
    "An active trading market may not develop, and prices may be volatile.",
    "Payments are made through Euroclear and Clearstream, Luxembourg, and holders depend on "
    "their procedures.",
    "The Notes are governed by English law, except the Guarantee, which is governed by Dutch "
    "law.",
)


def _four_digit() -> CaseSpec:
    def m(k: int) -> str:
        return "{[" + str(1000 + k) + "]}"

    notes = [N(f"[{1000 + k}]", text) for k, text in enumerate(_FOUR_DIGIT)]
    foot = Foot((), size=7.5, rule=1 / 3, gap=1.5)
    return CaseSpec("four-digit", "Eldmoor Finance B.V. | Base Prospectus | 12 September 2024",
                    _pages(
        "A4",
        PageSpec((
            H("Risk factors relating to the Guarantor"),
            P(f"The Guarantor's revenue depends on a small number of long-term offtake contracts "
              f"{m(0)}, three of which expire before the final maturity of the Notes {m(1)}. If "
              f"those contracts are not renewed on comparable terms {m(2)}, the Guarantor's "
              "ability to pay amounts due under the Guarantee may be impaired."),
            P(f"The Guarantor has significant exposure to the price of natural gas {m(3)}, which "
              f"it hedges only partly {m(4)}, and to the availability of its two liquefaction "
              f"trains {m(5)}. An unplanned outage of either train for more than 60 days would "
              f"reduce annual revenue by approximately 20% {m(6)}."),
            P(f"The Guarantor's operations are subject to environmental permits {m(7)}, some of "
              f"which are being renewed {m(8)}, and to a production tax regime that changed in "
              f"2023 {m(9)}."),
            P(f"Changes in interest rates may affect the market value of the Notes {m(10)}. The "
              f"Notes bear a fixed rate {m(11)} and are not protected against inflation "
              f"{m(12)}."),
        ), replace(foot, notes=tuple(notes[:13]))),
        PageSpec((
            H("Risk factors relating to the Notes"),
            P(f"The Issuer depends on payments from the Guarantor {m(13)}, {m(14)}. Holders rely "
              f"on the Guarantee {m(15)}, which is effectively subordinated to secured debt "
              f"{m(16)} and may be limited by law {m(17)}."),
            P(f"Credit ratings may not reflect all risks {m(18)}, and a downgrade would increase "
              f"the Issuer's interest cost {m(19)}. The Notes may be redeemed early {m(20)}."),
            P(f"The Notes will be listed {m(21)}, but a liquid market may not develop {m(22)}. "
              f"Holders depend on the clearing systems {m(23)}, and the governing law of the "
              f"Notes and the Guarantee differs {m(24)}."),
        ), replace(foot, notes=tuple(notes[13:]))),
    ))


def _euro_decimal() -> CaseSpec:
    foot = Foot((), size=7.5, rule=1 / 3)
    return CaseSpec(
        "euro-decimal", "Groupe Marellie SA | Half-year financial report 2024 (free translation)",
        _pages("A4",
               PageSpec((
                   H("Activity and results for the first half of 2024"),
                   P("Consolidated revenue amounted to EUR 2.418,6 million, up 4,2 % on a "
                     "reported basis and 5,9 % at constant exchange rates {(1)}. The group "
                     "achieved a current operating margin of 8,5 % {(2)}, compared with 7,9 % in "
                     "the first half of 2023."),
                   P("The gross margin rate rose to 41,7 % {(3)}, as purchasing savings offset "
                     "wage inflation in the stores. Net income attributable to the group was "
                     "EUR 96,4 million, a net margin of 4,0 % {(4)}."),
               ), replace(foot, notes=(
                   N("(1)", "At constant exchange rates, revenue is translated at the average "
                     "rates of the first half of 2023. The Turkish lira and the Argentine peso "
                     "reduced revenue by EUR 38,7 million; Argentina is accounted for as a "
                     "hyperinflationary economy under IAS 29."),
                   N("(2)", "Current operating margin is current operating income divided by "
                     "revenue. Current operating income excludes other operating income and "
                     "expenses, which amounted to a net expense of EUR 14,2 million, mainly "
                     "restructuring costs in Belgium."),
                   N("(3)", "The gross margin rate is gross margin divided by revenue; logistics "
                     "costs are included in cost of sales from 2024, and the first half of 2023 "
                     "has been restated, reducing its rate from 42,3 % to 41,1 %."),
                   N("(4)", "Includes a tax expense of EUR 3,1 million from the reassessment of "
                     "deferred tax assets in Spain."),
               ))),
               PageSpec((
                   H("Financial position"),
                   P("Free cash flow rose 12,3% {[5]} to EUR 118,0 million, helped by a "
                     "reduction of 1,6 days in inventory. Net debt excluding lease liabilities "
                     "fell to EUR 412,5 million, 0,9 times EBITDA {[6]}."),
                   P("Capital expenditure was EUR 84,3 million, or 3,5% of revenue {[7]}. The "
                     "group confirms its full-year objective of a current operating margin "
                     "between 8,0 % and 8,8 % {[8]}."),
               ), replace(foot, notes=(
                   N("[5]", "Free cash flow is net cash from operating activities less capital "
                     "expenditure net of disposals and lease payments. The first half of 2023 "
                     "included EUR 21,6 million of one-off tax refunds; excluding them, free "
                     "cash flow rose 36,7%."),
                   N("[6]", "EBITDA for the last twelve months, excluding the effect of IFRS 16 "
                     "leases. Including lease liabilities of EUR 688,1 million, net debt was 2,3 "
                     "times EBITDA."),
                   N("[7]", "Includes EUR 22,8 million for the new distribution centre at "
                     "Valence, due to open in the second half of 2025."),
                   N("[8]", "The objective assumes no significant change in the consumer "
                     "environment in France and Spain and stable exchange rates for the Turkish "
                     "lira."),
               )))))


def _plain() -> CaseSpec:
    return CaseSpec("plain", "Westmere Housing Association | Financial Statements 2024", _pages(
        "A4",
        PageSpec((
            Para("Treasury report for the year to 31 March 2024", bold=True),
            P("The Association's borrowings were GBP 742 million at the year end, drawn from bank "
              "facilities and two bond issues {[1]}. Undrawn facilities of GBP 210 million "
              "provide liquidity for the development programme for the next 24 months {[2]}."),
            P("Interest cover, measured as EBITDA-MRI divided by net interest payable, was 1.42 "
              "times against the loan covenant of 1.10 times {[3]}. Gearing was 46% {[4]}."),
            P("The Association has no exposure to variable-rate debt above the limit set in its "
              "treasury policy {[5]}. The Board reviewed the policy in November and made no "
              "changes to it."),
        ), Foot((
            N("[1]", "The bonds are GBP 250 million of 3.125% secured bonds due 2048, issued in "
              "2018, and GBP 150 million of retained bonds sold in 2023 at a yield of 5.2%."),
            N("[2]", "The development programme comprises 1,450 homes, of which 62% are for "
              "social rent. Contracted commitments at the year end were GBP 188 million."),
            N("[3]", "EBITDA-MRI is earnings before interest, tax, depreciation and amortisation, "
              "plus major repairs that are capitalised. The most restrictive covenant is in the "
              "loan from Northern Counties Bank."),
            N("[4]", "Net debt divided by the cost of housing properties."),
            N("[5]", "The policy limits variable-rate debt to 25% of total borrowings; at the "
              "year end it was 14%."),
        ), size=10.0, rule=1 / 3, gap=3.0)),
    ), Style(furniture=10.0))


_BUILDERS: dict[str, Callable[[], CaseSpec]] = {
    "small-flush": _small_flush,
    "hanging-indent": _hanging_indent,
    "superscript": _superscript,
    "continued-note": _continued_note,
    "two-column": _two_column,
    "wrapped-marker": _wrapped_marker,
    "table-markers": _table_markers,
    "nested": _nested,
    "eu-oj": _eu_oj,
    "tenk-table-notes": _tenk_table_notes,
    "rotated": _rotated,
    "dense": _dense,
    "four-digit": _four_digit,
    "euro-decimal": _euro_decimal,
    "plain": _plain,
}
CASES: tuple[str, ...] = tuple(_BUILDERS)


def case_spec(case: str) -> CaseSpec:
    if case not in _BUILDERS:
        raise ValueError(f"unknown layout case {case!r}; known: {', '.join(CASES)}")
    return _BUILDERS[case]()


# ------------------------------------------------------------------------------------- truth


def _body_texts(blocks: Sequence[Block]) -> list[str]:
    """Every markup string of a page's body (paragraphs, table titles and cells), notes
    excluded."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Para):
            out.append(block.text)
        elif isinstance(block, Table):
            out += [block.title or ""] + [cell for row in block.rows for cell in row]
        else:
            out += [p.text for p in (*block.left, *block.right)]
    return out


def _page_notes(page: PageSpec) -> list[Note]:
    notes = [n for b in page.blocks if isinstance(b, Table) for n in b.notes]
    return notes + list(page.foot.notes if page.foot else ())


def spec_truth(document: str, pages: Sequence[PageSpec]) -> FootnoteTruth:
    """The ground truth of a page list, read from its markup.

    ``[N]`` and superscripts are document-wide (each defined once); ``(1)`` and ``(a)`` are
    scoped, and every scoped citation here is defined on its own page, so it credits the
    definition on that page. Raises ``ValueError`` if a definition is never cited in body text,
    a document-wide marker is defined twice, or a continuation has no note to continue.
    """
    footnotes: list[TruthFootnote] = []
    cited: list[list[str]] = [[c for t in _body_texts(p.blocks) for c in citations(t)]
                              for p in pages]
    for index, page in enumerate(pages):
        for note in _page_notes(page):
            if note.marker is None:
                if not footnotes or footnotes[-1].page != index - 1:
                    raise ValueError(f"{document}: continuation on page {index} continues nothing")
                last = footnotes[-1]
                last.text = f"{last.text} {plain(note.text)}"
                last.cites += citations(note.text)
                continue
            footnotes.append(TruthFootnote(
                marker=note.marker, page=index, text=plain(note.text),
                cites=citations(note.text)))
    seen: set[str] = set()
    for fn in footnotes:
        scoped = fn.marker.startswith("(")
        if not scoped:
            if fn.marker in seen:
                raise ValueError(f"{document}: {fn.marker} defined twice")
            seen.add(fn.marker)
        fn.cited_pages = ([fn.page] if fn.marker in cited[fn.page] else []) if scoped else [
            i for i, markers in enumerate(cited) if fn.marker in markers]
        if not fn.cited_pages:
            raise ValueError(f"{document}: {fn.marker} (page {fn.page}) is never cited")
    return FootnoteTruth(document=document, year=YEAR, footnotes=footnotes)


# ------------------------------------------------------------------------------- rendering


def _render(writer: Writer, path: Path, header: str, pages: Sequence[PageSpec],
            style: Style) -> Path:
    if writer == "fpdf2":
        render_fpdf2(path, header, pages, style)
    elif writer == "reportlab":
        render_reportlab(path, header, pages, style)
    else:
        raise ValueError(f"unknown writer {writer!r}; known: {', '.join(WRITERS)}")
    apply_rotation(path, pages)
    return path


def build_layout_fixture(case: str, writer: Writer, out_dir: Path) -> LayoutFixture:
    """Write one case with one writer to ``out_dir/layout-<case>-<writer>.pdf``."""
    spec = case_spec(case)
    document = f"layout-{case}-{writer}"
    truth = spec_truth(document, spec.pages)
    path = _render(writer, Path(out_dir) / f"{document}.pdf", spec.header, spec.pages,
                   spec.style)
    return LayoutFixture(case=case, writer=writer, path=path, truth=truth)


def build_layout_matrix(out_dir: Path) -> list[LayoutFixture]:
    """Every case with every writer."""
    return [build_layout_fixture(case, writer, out_dir) for case in CASES for writer in WRITERS]


def _shift(text: str, offset: int) -> str:
    """``{[N]}`` citations renumbered to ``{[N+offset]}``."""
    return BRACKET_CITE.sub(lambda m: "{[" + str(int(m.group(1)) + offset) + "]}", text)


def _shift_note(note: Note, offset: int) -> Note:
    marker = note.marker
    if marker and marker.startswith("["):
        marker = f"[{int(marker[1:-1]) + offset}]"
    return Note(marker, _shift(note.text, offset))


def _shift_block(block: Block, offset: int) -> Block:
    if isinstance(block, Para):
        return replace(block, text=_shift(block.text, offset))
    if isinstance(block, Table):
        return replace(block, title=block.title and _shift(block.title, offset),
                       rows=tuple(tuple(_shift(c, offset) for c in row) for row in block.rows),
                       notes=tuple(_shift_note(n, offset) for n in block.notes))
    return replace(block, left=tuple(_shift_block(p, offset) for p in block.left),
                   right=tuple(_shift_block(p, offset) for p in block.right))


def _shift_page(page: PageSpec, offset: int) -> PageSpec:
    foot = page.foot and replace(page.foot,
                                 notes=tuple(_shift_note(n, offset) for n in page.foot.notes))
    return replace(page, blocks=tuple(_shift_block(b, offset) for b in page.blocks), foot=foot)


def _bracket_numbers(pages: Sequence[PageSpec]) -> list[int]:
    return [int(n.marker[1:-1]) for p in pages for n in _page_notes(p)
            if n.marker and n.marker.startswith("[")]


def combined_pages(
    cases: Sequence[str] | None = None,
) -> tuple[list[tuple[str, int]], list[PageSpec]]:
    """The demo document's pages: every case but ``plain`` (or ``cases``), ``[N]`` shifted past
    the numbers of the cases before it; returns ``([(case, first page index)], pages)``."""
    starts: list[tuple[str, int]] = []
    pages: list[PageSpec] = []
    highest = 0
    for case in cases or [c for c in CASES if c not in COMBINED_EXCLUDED]:
        spec = case_spec(case)
        numbers = _bracket_numbers(spec.pages)
        offset = max(0, highest - min(numbers) + 1) if numbers else 0
        shifted = [_shift_page(p, offset) for p in spec.pages]
        starts.append((case, len(pages)))
        pages += shifted
        highest = max([highest, *_bracket_numbers(shifted)])
    return starts, pages


def combined_document(writer: Writer) -> str:
    return f"layout-matrix-{writer}"


def build_layout_matrix_reports(reports_dir: Path, questions_dir: Path,
                                truth_dir: Path) -> list[SampleFile]:
    """Two partitions for the demo: document 'layout-matrix-fpdf2' and
    'layout-matrix-reportlab', year 2024, each ONE PDF holding every case except 'plain' (each
    case starting on a new page; [N] numbers offset per case so they are unique in the combined
    document), with its truth written by write_truth(truth_dir, ...), no golden questions."""
    _, pages = combined_pages()
    files = []
    for writer in WRITERS:
        document = combined_document(writer)
        path = report_dir(reports_dir, document, YEAR) / f"{document.replace('-', '_')}.pdf"
        _render(writer, path, COMBINED_HEADER, pages, Style())
        write_truth(truth_dir, spec_truth(document, pages))
        files.append(publish(path, document, YEAR, [], questions_dir))
    return files
