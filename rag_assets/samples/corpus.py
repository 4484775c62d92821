"""The whole sample corpus: fictitious reports made here, and the real documents of
``../shared/corpora`` (two SEC 10-Ks as they are, GDPR rendered in the Official Journal layout)."""

from __future__ import annotations

import shutil
from pathlib import Path

from rag_assets.samples.annual_reports import build_annual_reports
from rag_assets.samples.base import SampleFile, packaged_questions, publish, report_dir
from rag_assets.samples.earnings import build_earnings_release
from rag_assets.samples.gdpr import build_gdpr
from rag_assets.samples.layout_matrix import build_layout_matrix_reports
from rag_assets.samples.tei_paper import build_tei_paper

# (document, year, file under the corpora folder)
REAL_FILINGS = (
    ("3m-10k", 2018, "sec-10k/3M_2018_10K.pdf"),
    ("pfizer-10k", 2021, "sec-10k/PFIZER_2021_10K.pdf"),
)


def build_real_filings(
    reports_dir: Path, questions_dir: Path, corpora_dir: Path
) -> list[SampleFile]:
    """Copy the real 10-Ks (unchanged) and their hand-written golden questions."""
    out = []
    for document, year, relative in REAL_FILINGS:
        source = corpora_dir / relative
        if not source.is_file():
            continue
        target = report_dir(reports_dir, document, year) / source.name
        if not target.exists() or target.stat().st_size != source.stat().st_size:
            shutil.copyfile(source, target)
        questions = packaged_questions(document, year)
        out.append(publish(target, document, year, questions, questions_dir, f"real: {relative}"))
    return out


def build_sample_corpus(
    data_dir: Path, corpora_dir: Path | None, truth_dir: Path | None = None
) -> list[SampleFile]:
    """Write every sample report under ``data_dir/reports``, questions under ``questions`` and
    the footnote ground truth of the reports generated here under ``truth_dir`` (default
    ``data_dir/truth``; the real 10-Ks have none).

    Idempotent: the generated files are deterministic, and the report sensor compares content
    hashes, so building again is not an edit.
    """
    reports_dir, questions_dir = data_dir / "reports", data_dir / "questions"
    truth_dir = truth_dir if truth_dir is not None else data_dir / "truth"
    files = [
        *build_earnings_release(reports_dir, questions_dir, truth_dir),
        *build_annual_reports(reports_dir, questions_dir, truth_dir),
        *build_tei_paper(reports_dir, questions_dir, truth_dir),
        *build_layout_matrix_reports(reports_dir, questions_dir, truth_dir),
    ]
    if corpora_dir is not None and corpora_dir.exists():
        files += build_real_filings(reports_dir, questions_dir, corpora_dir)
        files += build_gdpr(reports_dir, questions_dir, corpora_dir, truth_dir)
    return files
