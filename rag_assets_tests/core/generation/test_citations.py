"""The citation verifier on real pages: the 3M and Pfizer 10-Ks, the GDPR and the earnings sample.

Planted citations: correct ones copied from the printed pages (table rows, prose across line
breaks, GDPR paragraphs, a stitched footnote whose definition is printed on another page) must
all be ``valid``; bad ones (wrong page, invented or altered quote, a claim whose figure or
Article does not match, a page or report that is not stored) must all be caught with the
expected mark.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from rag_assets.core.footnotes.stitching import FOOTNOTE_BLOCK_RE
from rag_assets.core.generation.citations import marked, verify, verify_claims
from rag_assets.core.generation.page_texts import PageTexts, normalize
from rag_assets.core.generation.records import CitationMark, Claim, SourceCitation
from rag_assets.core.ingest.pages import Page, TableBlock, raw_page_text
from rag_assets.core.warehouse.tables import pages_to_frame
from rag_assets_tests.core.conftest import Processed

THREE_M, PFIZER, GDPR, EARNINGS = (
    ("3m-10k", 2018), ("pfizer-10k", 2021), ("gdpr", 2016), ("exemplar-corp-earnings", 2024))


@pytest.fixture(scope="module")
def pages(three_m: Processed, pfizer: Processed, gdpr: Processed,
          earnings: Processed) -> PageTexts:
    texts = PageTexts()
    for (document, year), processed in [(THREE_M, three_m), (PFIZER, pfizer), (GDPR, gdpr),
                                        (EARNINGS, earnings)]:
        texts.add(document, year, processed.pages)
    return texts


@dataclass(frozen=True)
class Planted:
    name: str
    partition: tuple[str, int]
    page: int  # zero-based
    quote: str
    claim: str
    expected: CitationMark
    reason: str = ""  # a part of the reason the verifier must give

    def citation(self) -> SourceCitation:
        document, year = self.partition
        return SourceCitation(document=document, year=year, page=self.page, quote=self.quote)


# --- real quotes -----------------------------------------------------------------------------
# 3M 2018 10-K (zero-based pages): p.55 income statement, p.59 cash flows, p.77 Note 5 opens,
# p.79 Note 6 opens
M_NET_SALES = "| Net sales | $ 32,765 | $ 31,657 | $ 30,109 |"
M_DEPRECIATION = "Depreciation and amortization | 1,488 | 1,544 | 1,474"
M_RESTRUCTURING = ("These actions affected approximately 1,200 positions worldwide and resulted "
                   "in a second quarter 2018 pre-tax charge of $105 million")
M_INTEREST = "Interest expense | $ 350 | $ 322 | $ 199"
M_AMORTIZATION = ("Certain tradenames acquired by 3M are not amortized because they have been in "
                  "existence for over 55 years")
# Pfizer 2021 10-K: p.31 MD&A highlights, p.77 Note 4 with its note (a)
P_REVENUES = "2021 Total Revenues––$81.3 billion"
P_UPJOHN = ("We expect to incur costs of approximately $700 million in connection with "
            "separating Upjohn")
P_INTEREST = "Interest expense (a) 1,291 1,449 1,573"
P_CAPITALIZED = (P_INTEREST + " {FOOTNOTE (a): Capitalized interest totaled $108 million in 2021, "
                 "$96 million in 2020 and $88 million in 2019.}")
# GDPR: p.44 Article 12, p.58 Articles 32-33, p.59 Article 33(4)-(5), 34, 35
G_ART_33_1 = ("the controller shall without undue delay and, where feasible, not later than 72 "
              "hours after having become aware of it, notify the personal data breach to the "
              "supervisory authority")
G_ART_33_5 = ("The controller shall document any personal data breaches, comprising the facts "
              "relating to the personal data breach, its effects and the remedial action taken.")
G_ART_34_1 = ("When the personal data breach is likely to result in a high risk to the rights and "
              "freedoms of natural persons, the controller shall communicate the personal data "
              "breach to the data subject without undue delay.")
G_ART_12_3 = ("The controller shall provide information on action taken on a request under "
              "Articles 15 to 22 to the data subject without undue delay and in any event "
              "within one month of receipt of the request.")
# Earnings release, stitched: p.7 cites [1], which is printed on p.0; p.1 nests [3] in [13]
E_LUMEN = ("Lumen Analytics drove most of the fiscal 2024 revenue growth [1], and its integration "
           "is on schedule.")
E_DEF_1 = ("{FOOTNOTE [1]: Includes $555 million of revenue from Lumen Analytics, acquired on "
           "March 28, 2024. Excluding Lumen Analytics, organic revenue growth was 3.2%.}")
E_REVENUE = "Revenue rose 34% to $2.4 billion [1]."
E_NON_GAAP = ("For the full year, non-GAAP net income rose 77% to $415 million, or $1.95 per "
              "diluted share [13]. {FOOTNOTE [13]: Non-GAAP net income excludes the items "
              "described in [3] and [4] and the Kestrel Park gain described in [5]; the "
              "reconciliation is in Table 3.} "
              "{FOOTNOTE [3]: Fiscal 2024 GAAP operating income includes $74 million of "
              "acquisition-related costs and $22 million of restructuring charges; fiscal 2023 "
              "included neither.}")

PLANTED = [
    # --- correct: all must be valid ---
    Planted("3m table row, markdown", THREE_M, 55, M_NET_SALES,
            "3M's net sales were $32,765 million in 2018.", "valid"),
    Planted("3m table row, rounded to billions", THREE_M, 55, "Net sales $32,765",
            "Net sales were $32.8 billion in 2018.", "valid"),
    Planted("3m cash-flow row", THREE_M, 59, M_DEPRECIATION,
            "Depreciation and amortization was $1,488 million in 2018.", "valid"),
    Planted("3m prose across a line break, Note 5", THREE_M, 77, M_RESTRUCTURING,
            "Under Note 5, the 2018 restructuring actions affected approximately 1,200 positions "
            "and led to a second quarter pre-tax charge of $105 million.", "valid"),
    Planted("3m Note 6 table", THREE_M, 79, M_INTEREST,
            "Note 6 shows interest expense of $350 million in 2018.", "valid"),
    Planted("3m prose, no figures in claim", THREE_M, 77, M_AMORTIZATION,
            "Some tradenames acquired by 3M are not amortized because of their long existence.",
            "valid"),
    Planted("pfizer highlight with double dash", PFIZER, 31, P_REVENUES,
            "Pfizer's total revenues were $81.3 billion in 2021.", "valid"),
    Planted("pfizer claim naming the 10-K (no figure)", PFIZER, 31, P_REVENUES,
            "Pfizer's 2021 Form 10-K reports total revenues of $81.3 billion.", "valid"),
    Planted("pfizer prose", PFIZER, 31, P_UPJOHN,
            "Pfizer expected costs of about $700 million for separating Upjohn.", "valid"),
    Planted("pfizer Note 4 row", PFIZER, 77, P_INTEREST,
            "According to Note 4, Pfizer's interest expense was $1,291 million in 2021.", "valid"),
    Planted("pfizer row with its stitched note (a)", PFIZER, 77, P_CAPITALIZED,
            "Pfizer capitalized $108 million of interest in 2021.", "valid"),
    Planted("gdpr Article 33(1) across lines", GDPR, 58, G_ART_33_1,
            "Under Article 33(1) the controller must notify a personal data breach to the "
            "supervisory authority within 72 hours of becoming aware of it.", "valid"),
    Planted("gdpr Article 33(5) continued on the next page", GDPR, 59, G_ART_33_5,
            "Article 33(5) obliges the controller to document personal data breaches, their "
            "effects and the remedial action taken.", "valid"),
    Planted("gdpr Article 34", GDPR, 59, G_ART_34_1,
            "Article 34 requires the controller to communicate a high-risk personal data breach "
            "to the data subject without undue delay.", "valid"),
    Planted("gdpr Article 12(3)", GDPR, 44, G_ART_12_3,
            "Article 12(3) requires the controller to provide information on action taken on a "
            "request within one month of receipt.", "valid"),
    Planted("earnings stitched definition from another page", EARNINGS, 7, f"{E_LUMEN} {E_DEF_1}",
            "Lumen Analytics, acquired on March 28, 2024, contributed $555 million of revenue.",
            "valid"),
    Planted("earnings stitched definition on the same page", EARNINGS, 0, f"{E_REVENUE} {E_DEF_1}",
            "Revenue rose 34% to $2.4 billion, of which $555 million came from Lumen Analytics.",
            "valid"),
    Planted("earnings nested footnote", EARNINGS, 1, E_NON_GAAP,
            "Non-GAAP net income rose 77% to $415 million, or $1.95 per diluted share.", "valid"),
    Planted("earnings quote with an ellipsis", EARNINGS, 0,
            "Revenue rose 34% ... Fourth quarter revenue was $684 million",
            "Fourth quarter revenue was $684 million.", "valid"),
    # --- bad: each must be caught ---
    Planted("wrong page: 3m Note 5 prose on the next page", THREE_M, 78, M_RESTRUCTURING,
            "The restructuring affected approximately 1,200 positions.", "invalid", "p.78"),
    Planted("wrong page: 3m income statement row on the cash-flow page", THREE_M, 59,
            M_NET_SALES, "3M's net sales were $32,765 million in 2018.", "invalid", "p.56"),
    Planted("wrong page: pfizer prose on the next page", PFIZER, 32, P_UPJOHN,
            "Pfizer expected costs of about $700 million for separating Upjohn.", "invalid",
            "p.32"),
    Planted("wrong page: gdpr Article 33(1) on the Article 12 page", GDPR, 44, G_ART_33_1,
            "The controller must notify within 72 hours.", "invalid", "p.59"),
    Planted("invented quote", PFIZER, 31, "Pfizer expects total revenues of $100 billion in 2022",
            "Pfizer expects $100 billion of revenue in 2022.", "invalid", "not found"),
    Planted("altered figure in the quote", THREE_M, 77,
            M_RESTRUCTURING.replace("1,200", "1,300"),
            "The restructuring affected approximately 1,300 positions.", "invalid", "not found"),
    Planted("altered figure in a table quote", THREE_M, 55, M_NET_SALES.replace("32,765", "33,765"),
            "3M's net sales were $33,765 million in 2018.", "invalid", "not found"),
    Planted("altered stitched definition", EARNINGS, 0,
            f"{E_REVENUE} {E_DEF_1.replace('$555', '$610')}",
            "Revenue rose 34% to $2.4 billion.", "invalid", "definition"),
    Planted("stitched definition of another marker", EARNINGS, 7,
            f"{E_LUMEN} {{FOOTNOTE [2]: Includes $176 million of Lumen Analytics revenue; organic "
            "fourth quarter revenue growth was 4.1%.}",
            "Lumen Analytics added $176 million of revenue.", "invalid", "[2]"),
    Planted("stitched sentence on the wrong page", EARNINGS, 0, f"{E_LUMEN} {E_DEF_1}",
            "Lumen Analytics contributed $555 million of revenue.", "invalid", "p.8"),
    Planted("claim figure differs from the table row", THREE_M, 55, M_NET_SALES,
            "3M's net sales were $33,765 million in 2018.", "context_mismatch", "33765"),
    Planted("claim figure differs from the prose", THREE_M, 77, M_RESTRUCTURING,
            "The 2018 restructuring affected approximately 1,500 positions.",
            "context_mismatch", "1500"),
    Planted("claim percentage differs", EARNINGS, 0, f"{E_REVENUE} {E_DEF_1}",
            "Revenue rose 43% to $2.4 billion.", "context_mismatch", "43"),
    Planted("claim rounds to a different billion figure", THREE_M, 55, M_NET_SALES,
            "Net sales were $31.2 billion in 2018.", "context_mismatch", "31.2"),
    Planted("pfizer claim figure differs", PFIZER, 77, P_INTEREST,
            "Pfizer's interest expense was $1,391 million in 2021.", "context_mismatch", "1391"),
    Planted("claim unrelated to the quote", PFIZER, 31, P_UPJOHN,
            "Pfizer acquired Arena Pharmaceuticals for $700 million.", "context_mismatch",
            "words"),
    Planted("non-existent Article", GDPR, 58, G_ART_33_1,
            "Article 112 requires notification within 72 hours.", "invalid", "Article 112"),
    Planted("Article printed elsewhere, not on the cited page", GDPR, 58, G_ART_33_1,
            "Article 17 requires the controller to notify the supervisory authority within 72 "
            "hours.", "invalid", "Article 17"),
    Planted("non-existent paragraph of an Article on the page", GDPR, 44, G_ART_12_3,
            "Article 12(9) requires information on action taken within one month.", "invalid",
            "Article 12(9)"),
    Planted("Article on the page, quote under another Article", GDPR, 59, G_ART_33_5,
            "Under Article 34 the controller shall document any personal data breaches, their "
            "effects and the remedial action taken.", "context_mismatch", "Article 34"),
    Planted("Article paragraph on the page, quote under another paragraph", GDPR, 58, G_ART_33_1,
            "Article 33(3) requires notifying the supervisory authority of a personal data breach "
            "within 72 hours.", "context_mismatch", "Article 33(3)"),
    Planted("non-existent Note", THREE_M, 79, M_INTEREST,
            "Note 25 shows interest expense of $350 million in 2018.", "invalid", "Note 25"),
    Planted("Note printed elsewhere, not on the cited page", PFIZER, 77, P_INTEREST,
            "Note 14 shows interest expense of $1,291 million in 2021.", "invalid", "Note 14"),
    Planted("Note cross-referenced on the page, far from the quote", PFIZER, 77, P_INTEREST,
            "Note 11 shows interest expense of $1,291 million in 2021.", "context_mismatch",
            "Note 11"),
    Planted("Note continued on the page, quote under the next Note", THREE_M, 79, M_INTEREST,
            "Note 5 shows interest expense of $350 million in 2018.", "context_mismatch",
            "Note 5"),
    Planted("non-existent page", THREE_M, 900, M_NET_SALES, "Net sales were $32,765 million.",
            "invalid", "not a stored page"),
    Planted("non-existent document", ("3m-10q", 2018), 55, M_NET_SALES,
            "Net sales were $32,765 million.", "invalid", "no pages stored"),
    Planted("year not stored", (GDPR[0], 2017), 58, G_ART_33_1,
            "The controller must notify within 72 hours.", "invalid", "no pages stored"),
    Planted("empty quote", GDPR, 58, "  ", "The controller must notify within 72 hours.",
            "invalid", "empty"),
]


def planted(name: str) -> Planted:
    return next(p for p in PLANTED if p.name == name)


def test_planted_citations(pages: PageTexts) -> None:
    results = [(p, verify(p.citation(), p.claim, pages)) for p in PLANTED]
    wrong = [
        f"{p.name}: expected {p.expected}, got {r.mark} ({r.reason})"
        for p, r in results if r.mark != p.expected or p.reason not in r.reason
    ]
    good = [p for p in PLANTED if p.expected == "valid"]
    bad = [p for p in PLANTED if p.expected != "valid"]
    caught = sum(r.mark == p.expected for p, r in results if p.expected != "valid")
    print(f"\nplanted {len(PLANTED)}: {len(good)} correct, {len(bad)} bad "
          f"({sum(p.expected == 'invalid' for p in bad)} invalid, "
          f"{sum(p.expected == 'context_mismatch' for p in bad)} context mismatch); "
          f"caught {caught}/{len(bad)}")
    assert not wrong, "\n".join(wrong)
    assert len(PLANTED) >= 30 and len(bad) >= 12 and len(good) >= 15
    assert {"invalid", "context_mismatch"} <= {p.expected for p in bad}
    for _, r in results:  # one line each
        assert r.reason and "\n" not in r.reason


def test_planted_quotes_are_real(pages: PageTexts) -> None:
    """The correct quotes are printed verbatim where they are cited, judged without
    ``normalize``: the words of each sentence part run in the same order on the raw page."""
    def words(text: str) -> str:
        return " " + " ".join(re.findall(r"\w+", text.lower())) + " "

    for p in PLANTED:
        if p.expected != "valid":
            continue
        raw = words(pages.get(*p.partition, p.page) or "")
        for part in re.split(r"\.\.\.", FOOTNOTE_BLOCK_RE.sub("...", p.quote)):
            if part.strip():
                assert words(part) in raw, (p.name, part)


def _stitched_units(processed: Processed) -> list[tuple[int, str]]:
    """Each stitched line holding a footnote block, quoted from the nearest line above it that
    has text of its own (the sentence or table the definition belongs to)."""
    units = []
    for page in processed.stitched:
        lines = page.text.split("\n")
        for i, line in enumerate(lines):
            if not FOOTNOTE_BLOCK_RE.search(line):
                continue
            start = i
            while start > 0 and not FOOTNOTE_BLOCK_RE.sub("", lines[start]).strip():
                start -= 1
            units.append((page.page_index, "\n".join(lines[start:i + 1])))
    return units


def test_every_stitched_footnote_quote_verifies(
    pages: PageTexts, three_m: Processed, pfizer: Processed, gdpr: Processed,
    earnings: Processed,
) -> None:
    """Whatever the stitcher wrote, quoted back on its page, is valid: the sentence is printed
    there and each definition is printed in the same report (cross-page, nested, table notes)."""
    total = 0
    for (document, year), processed in [(THREE_M, three_m), (PFIZER, pfizer), (GDPR, gdpr),
                                        (EARNINGS, earnings)]:
        units = _stitched_units(processed)
        assert units, document
        failed = []
        for page, quote in units:
            c = verify(SourceCitation(document=document, year=year, page=page, quote=quote),
                       "", pages)
            if c.mark != "valid":
                failed.append(f"{document} p.{page + 1}: {c.reason}: {quote[:120]!r}")
        assert not failed, "\n".join(failed[:10])
        total += len(units)
    print(f"\n{total} stitched footnote quotes verified")
    assert total >= 100


def test_stitched_quote_on_the_neighbouring_page_is_invalid(
    pages: PageTexts, earnings: Processed
) -> None:
    units = _stitched_units(earnings)
    last = max(p.page_index for p in earnings.stitched)
    checked = 0
    for page, quote in units:
        if not FOOTNOTE_BLOCK_RE.sub("", quote).strip():
            continue
        other = page + 1 if page < last else page - 1
        c = verify(SourceCitation(document=EARNINGS[0], year=EARNINGS[1], page=other,
                                  quote=quote), "", pages)
        assert c.mark == "invalid", (page, quote[:80], c.reason)
        checked += 1
    assert checked >= 20


def test_threshold_is_a_setting(pages: PageTexts) -> None:
    unrelated = Planted("", PFIZER, 31, P_UPJOHN,
                        "Pfizer acquired Arena Pharmaceuticals for $700 million.", "valid")
    assert verify(unrelated.citation(), unrelated.claim, pages, 0.5).mark == "context_mismatch"
    assert verify(unrelated.citation(), unrelated.claim, pages, 0.0).mark == "valid"
    # four of its five content words are printed around the quote ("budgeted" is not)
    close = Planted("", PFIZER, 31, P_UPJOHN,
                    "Pfizer budgeted costs of about $700 million for separating Upjohn.", "valid")
    assert verify(close.citation(), close.claim, pages, 0.5).mark == "valid"
    assert verify(close.citation(), close.claim, pages, 0.8).mark == "valid"
    assert verify(close.citation(), close.claim, pages, 1.0).mark == "context_mismatch"
    with pytest.raises(ValueError):
        verify(close.citation(), close.claim, pages, 1.5)


def test_verify_claims_and_marks(pages: PageTexts) -> None:
    good = planted("3m table row, markdown")
    wrong_page = planted("wrong page: 3m income statement row on the cash-flow page")
    claims = [Claim(text=good.claim, citations=[good.citation(), wrong_page.citation()]),
              Claim(text="No citation here.")]
    checked = verify_claims(claims, pages, 0.5)
    assert [c.mark for c in checked[0].citations] == ["valid", "invalid"]
    assert checked[1].citations == []
    assert [c.mark for c in claims[0].citations] == ["unchecked", "unchecked"]  # copies
    assert checked[0].citations[0].quote == good.quote
    assert marked(1, "valid") == "[1]"
    assert marked(2, "context_mismatch") == "[2, context mismatch]"
    assert marked(3, "invalid") == "[3, invalid]"
    assert marked(4, "unchecked") == "[4, unchecked]"


def test_from_frame_matches_from_pages(three_m: Processed) -> None:
    sample = three_m.pages[50:60]
    frame = pages_to_frame(sample, THREE_M[0], THREE_M[1], "3M_2018_10K.pdf", "0" * 64)
    from_frame = PageTexts.from_frame(frame)
    from_pages = PageTexts.from_pages(*THREE_M, sample)
    assert from_frame.partitions() == [THREE_M] and len(from_frame) == 10
    for page in sample:
        text = from_frame.get(*THREE_M, page.page_index)
        assert text == from_pages.get(*THREE_M, page.page_index) == raw_page_text(page)
    assert "| Net sales | $ 32,765 |" in (from_frame.get(*THREE_M, 55) or "")  # table cells
    assert from_frame.get(*THREE_M, 49) is None and from_frame.get("gdpr", 2016, 55) is None
    citation = SourceCitation(document=THREE_M[0], year=THREE_M[1], page=55, quote=M_NET_SALES)
    assert verify(citation, "Net sales were $32,765 million in 2018.", from_frame).mark == "valid"


# --- normalize ------------------------------------------------------------------------------


def test_normalize_table_row_and_cells() -> None:
    table = TableBlock(index=0, rows=[["(Millions)", "2018", "2017"],
                                      ["Net sales", "$ 32,765", "$ 31,657"],
                                      ["Operating income", "7,207", "7,692"]])
    page = Page(page_index=0, text="Income statement\n[[TABLE 0]]\nEnd.", tables=[table])
    text = normalize(raw_page_text(page))
    assert "---" not in text and "|" not in text
    for quote in ["Net sales $32,765 $31,657", "| Net sales | $ 32,765 | $ 31,657 |",
                  "NET SALES | $32,765", "31,657 Operating income 7,207"]:
        assert normalize(quote) in text, quote
    assert normalize("Net sales $31,657") not in text


def test_normalize_line_breaks_hyphens_quotes_and_dashes() -> None:
    page = ("The controller shall, where feasible, notify the super-\nvisory authority within\n"
            "72   hours; the “data subject” is informed — without delay.\nNon-\nGAAP margin")
    text = normalize(page)
    assert normalize("notify the supervisory authority within 72 hours") in text
    assert normalize('the "data subject" is informed - without delay') in text
    assert normalize("Non-GAAP margin") in text
    assert normalize("Revenues––$81.3 billion") == normalize("Revenues–$81.3 billion")
    assert normalize("ＡＢＣ ﬁnance") == "abc finance"  # NFKC: full-width letters, ligatures
    assert normalize("  a \n\n b\t c ") == "a b c"
    assert normalize("2017-2018") == "2017-2018"  # a range of years keeps its dash


def test_normalize_footnote_blocks() -> None:
    stitched = "Revenue rose 34% [1]. {FOOTNOTE [1]: Includes $555 million\nof revenue.}"
    assert normalize(stitched) == "revenue rose 34% [1]. [1] includes $555 million of revenue."
    printed = "Revenue rose 34% [1].\n[1] Includes $555 million\nof revenue."
    assert normalize(stitched) == normalize(printed)
