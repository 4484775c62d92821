"""A long generated annual report (fpdf2): N pages, each with a few paragraphs of its own and
its own ``[N] Note N: amounts in millions of dollars, figure 575 restated for page N.`` note
printed under a rule.

It is issue 12's furniture case (the same note wording on every page, other digits) and the
long-document line of ``make bench``. Paragraphs are drawn from a seeded generator, so every page
is different text (the embedding cache reuses nothing) and the file is the same at every run.
"""

from __future__ import annotations

import random
from pathlib import Path

SUBJECTS = (
    "Net revenue", "Operating income", "Free cash flow", "Gross margin", "Capital expenditure",
    "Research and development spending", "Selling, general and administrative expense",
    "Segment EBITDA", "Net debt", "Order backlog", "Deferred revenue", "Working capital",
)
REGIONS = ("North America", "Europe", "Asia Pacific", "Latin America", "the Middle East")
VERBS = ("rose", "fell", "was flat at", "recovered to", "declined to", "grew to")
CAUSES = (
    "higher volumes in the industrial segment", "the divestiture of the coatings business",
    "pricing actions taken in the second half", "unfavourable currency translation",
    "the integration of the acquired distribution network", "lower raw material costs",
    "a one-time litigation settlement", "restructuring of the consumer division",
    "stronger demand for replacement parts", "the timing of government contracts",
)
CLOSERS = (
    "Management expects the trend to continue into the next fiscal year.",
    "The Board reviewed the figure against the plan approved in March.",
    "Comparable figures for the prior year have been restated accordingly.",
    "The effect on earnings per share was not material.",
    "Further detail is given in the segment discussion that follows.",
    "Auditors reviewed the underlying schedules without qualification.",
)


def note_text(page: int) -> str:
    """The page's own note (issue 12: same wording on every page, other digits)."""
    return f"Note {page}: amounts in millions of dollars, figure 575 restated for page {page}."


def paragraph(rng: random.Random, page: int, cite: bool) -> str:
    """A paragraph of five to eight sentences; ``cite`` puts the page's ``[N]`` in one."""
    sentences = []
    for _ in range(rng.randint(5, 8)):
        subject, region = rng.choice(SUBJECTS), rng.choice(REGIONS)
        amount = rng.randint(12, 9_800) / 10
        share = rng.randint(1, 399) / 10
        sentences.append(
            f"{subject} in {region} {rng.choice(VERBS)} ${amount:,.1f} million, a change of "
            f"{share}% driven by {rng.choice(CAUSES)}."
        )
    sentences.append(rng.choice(CLOSERS))
    if cite:
        at = rng.randrange(len(sentences) - 1)
        sentences[at] = sentences[at][:-1] + f" [{page}]."
    return " ".join(sentences)


def build_long_report(path: Path, pages: int = 300, paragraphs: int = 4, seed: int = 12) -> Path:
    """Write the report to ``path`` (a PDF of ``pages`` pages) and return it."""
    from fpdf import FPDF

    rng = random.Random(seed)
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.set_margins(54, 54, 54)
    width = pdf.w - 108
    for page in range(1, pages + 1):
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 13)
        pdf.set_xy(54, 54)
        pdf.multi_cell(width, 16, f"Management discussion, part {page}")
        pdf.ln(6)
        pdf.set_font("Helvetica", "", 9.5)
        cited = rng.randrange(paragraphs)
        for k in range(paragraphs):
            pdf.multi_cell(width, 12, paragraph(rng, page, cite=k == cited))
            pdf.ln(6)
        rule_y = pdf.h - 100
        pdf.set_line_width(0.5)
        pdf.line(54, rule_y, 54 + 144, rule_y)
        pdf.set_font("Helvetica", "", 7.5)
        pdf.set_xy(54, rule_y + 6)
        pdf.multi_cell(width, 9, f"[{page}] {note_text(page)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


if __name__ == "__main__":  # pragma: no cover - a quick look at the file
    import sys

    default = Path(__file__).parent / "out" / "long_report.pdf"
    out = build_long_report(Path(sys.argv[1]) if len(sys.argv) > 1 else default)
    print(out)
