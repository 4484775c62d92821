"""The audit report from stored tables: Markdown, heatmap and HTML from the earnings release run
through the core pipeline; missing tables said so; the summary diff's lexical matching; and a
hostile report whose text (page and footnote definition) ends escaped and runs nothing."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from rag_assets.core.chunks.chunking import colocation
from rag_assets.core.evaluation.audit_data import anchor
from rag_assets.core.evaluation.audit_report import AuditReport, build_audit_report
from rag_assets.core.evaluation.coverage_heatmap import chunk_coverage, heatmap_figure
from rag_assets.core.evaluation.summary_diff import (
    SIMILARITY_THRESHOLD,
    sentence_diff,
    token_set_cosine,
)
from rag_assets.core.generation.records import Claim, QAResult, SourceCitation, SummaryResult
from rag_assets.core.generation.storage import answers_to_frame, summaries_to_frame
from rag_assets.core.ingest.context import document_context
from rag_assets.core.ingest.pages import PageFault
from rag_assets.core.warehouse.tables import (
    chunks_to_frame,
    frame_to_pages,
    index_to_frames,
    pages_to_frame,
    stitched_to_frame,
)

from ..conftest import Processed, process


def hostile_text(payload: str = "alert(1)") -> str:
    """A one-page report whose body and footnote definition carry ``payload`` (no white space)
    in a ``<script>``, an ``onerror=`` and a ``javascript:`` URL."""
    return (
        "Hostile Corp quarterly note\n"
        f"Revenue rose 9% to $12 million <script>{payload}</script> [1]. "
        f"See <img src=x onerror={payload}> and <a href=\"javascript:{payload}\">this</a>.\n"
        "__________\n"
        f"[1] Includes <script>{payload}</script> javascript:{payload} "
        f"<img src=x onerror={payload}>.\n"
        "Page 1/1\n"
    )


def tables_of(processed: Processed) -> dict[str, pd.DataFrame]:
    """The ingest tables of a processed report, as the ingest step writes them."""
    document, year = processed.document, processed.year
    dictionary, registry = index_to_frames(processed.index, document, year)
    return {
        "raw_pages": pages_to_frame(processed.pages, document, year, "report", "sha",
                                    processed.context),
        "footnote_dictionary": dictionary,
        "footnote_registry": registry,
        "stitched_text": stitched_to_frame(processed.stitched, document, year),
        "naive_chunks": chunks_to_frame(processed.naive_chunks),
        "enriched_chunks": chunks_to_frame(processed.enriched_chunks),
    }


def summary_frame(document: str, year: int, baseline: list[str], enriched: list[str],
                  page: int = 0) -> pd.DataFrame:
    def result(variant: str, sentences: list[str]) -> SummaryResult:
        claims = [Claim(text=s, citations=[SourceCitation(document=document, year=year,
                                                          page=page, quote=s, mark="valid")])
                  for s in sentences]
        return SummaryResult(document=document, year=year, variant=variant,  # type: ignore[arg-type]
                             text=" ".join(sentences), claims=claims, chunk_ids=[])

    return summaries_to_frame([result("baseline", baseline), result("enriched", enriched)])


def build_earnings_report(earnings: Processed,
                          out_dir: Path) -> tuple[dict[str, pd.DataFrame], AuditReport]:
    """The earnings release's report: its ingest tables and two small summaries (the enriched
    one quoting the first footnote's definition, cited on its page); no retrieval or answers."""
    document, year = "exemplar-corp-earnings", 2024
    tables = tables_of(earnings)
    first = earnings.index.footnotes[0]
    tables["summaries"] = summary_frame(
        document, year,
        ["Revenue grew strongly in the quarter.", "Margins were stable."],
        ["Revenue grew strongly in the quarter.", f"Footnote {first.marker}: {first.text}"],
        page=first.page_index,
    )
    report = build_audit_report(document, year, tables, out_dir / document / str(year),
                                figures={"words_lost": 0, "words_checked": 1234})
    return tables, report


@pytest.fixture(scope="module")
def earnings_report(earnings: Processed, tmp_path_factory: pytest.TempPathFactory):
    return build_earnings_report(earnings, tmp_path_factory.mktemp("audit"))


def test_earnings_report_files_and_sections(earnings_report) -> None:
    tables, report = earnings_report
    assert report.markdown_path.read_text(encoding="utf-8").count("![footnote coverage") == 1
    assert "(heatmap.png)" in report.markdown_path.read_text(encoding="utf-8")
    assert "data:image/png;base64," in report.markdown  # what the asset metadata shows
    assert report.heatmap_path is not None
    assert report.heatmap_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = report.html_path.read_text(encoding="utf-8")
    assert 'src="data:image/png;base64,' in page
    assert "http://" not in page and "https://" not in page  # nothing fetched
    # sections of tables not given say so, in both renderings
    assert set(report.missing) == {"retrieval_metrics", "answers", "answer_metrics"}
    assert "_No `retrieval_metrics` stored for this partition._" in report.markdown
    assert "No answers stored for this partition." in page
    # the registry in figures: every stored definition in the HTML table
    definitions = int((tables["footnote_dictionary"].status != "dangling").sum())
    assert f"| {definitions} |" in report.markdown
    assert page.count('class="registry-row"') == len(tables["footnote_dictionary"])
    # recorded figures appear
    assert "| words_lost | 0 |" in report.markdown


def test_inspector_badges_match_stored_markers(earnings_report) -> None:
    tables, report = earnings_report
    page = report.html_path.read_text(encoding="utf-8")
    for kind in ("naive", "enriched"):
        frame = tables[f"{kind}_chunks"]
        cited = sum(len(json.loads(c)) for c in frame.markers_cited)
        assert cited > 0
        assert len(report.data.chunks[kind]) == len(frame)
    held = sum(m["held"] for c in report.data.chunks["enriched"] for m in c["cited"])
    pairs = sum(len(c["cited"]) for c in report.data.chunks["enriched"])
    assert page.count('class="badge cites"') == sum(
        len(c["cited"]) for kind in ("naive", "enriched") for c in report.data.chunks[kind])
    assert page.count('class="badge missing"') == sum(
        not m["held"] for kind in ("naive", "enriched")
        for c in report.data.chunks[kind] for m in c["cited"])
    assert held <= pairs


def test_coverage_per_chunk_matches_colocation(earnings: Processed, earnings_report) -> None:
    tables, report = earnings_report
    for kind in ("naive", "enriched"):
        values = chunk_coverage(tables[f"{kind}_chunks"])
        assert len(values) == len(tables[f"{kind}_chunks"])
        assert all(v is None or 0.0 <= v <= 1.0 for v in values)
    enriched = chunk_coverage(tables["enriched_chunks"])
    naive = chunk_coverage(tables["naive_chunks"])
    mean = lambda vs: sum(v for v in vs if v is not None) / sum(v is not None for v in vs)  # noqa: E731
    assert mean(enriched) > mean(naive)  # the point of enriched chunks, seen in the heatmap
    pairs, colocated = colocation(earnings.enriched_chunks)
    assert report.data.scorecard[5][1].startswith(f"{colocated}/{pairs}")
    # the heatmap ticks whole chunk indices and one row per kind, also for a single chunk
    # (never -0.4 ... 0.4)
    for coverage in (report.data.coverage, {"naive": [0.5], "enriched": [None]}):
        fig = heatmap_figure(coverage)
        try:
            ax = fig.axes[0]
            fig.canvas.draw()
            low, high = sorted(ax.get_xlim())
            xticks = [t for t in ax.get_xticks() if low <= t <= high]
            assert xticks and xticks[0] == 0
            assert all(float(t).is_integer() for t in xticks), xticks
            assert list(ax.get_yticks()) == list(range(len(coverage)))
            assert [t.get_text().split(" ")[0] for t in ax.get_yticklabels()] == list(coverage)
        finally:
            plt.close(fig)


def test_summary_diff_and_citation_anchors(earnings_report) -> None:
    _, report = earnings_report
    statuses = [row.status for row in report.data.diff]
    assert statuses == ["same", "enriched_only", "baseline_only"]
    page = report.html_path.read_text(encoding="utf-8")
    targets = {c.target for s in report.data.summaries["enriched"] for c in s.citations}
    assert targets
    for target in targets:
        assert f'href="#{target}"' in page and f'id="{target}"' in page


def test_token_set_cosine_threshold_is_a_parameter() -> None:
    a = "Revenue grew 34% to $2.4 billion in fiscal 2024"
    b = "Revenue grew 34% to $2.4 billion in fiscal 2024, including an acquisition"
    score = token_set_cosine(a, b)
    assert 0.82 <= score < 1.0
    assert token_set_cosine(a, a) == 1.0 and token_set_cosine(a, "") == 0.0
    assert [r.status for r in sentence_diff([a], [b])] == ["similar"]
    assert [r.status for r in sentence_diff([a], [b], threshold=0.95)] == [
        "enriched_only", "baseline_only"]
    assert SIMILARITY_THRESHOLD == 0.82


def test_conservation_recomputed_from_stored_tables(earnings: Processed, tmp_path: Path) -> None:
    """Without a run's check figures, text conservation is computed again from the stored
    pages, footnotes and stitched text: 0 words lost, and a word cut from the stored stitched
    text is found lost."""
    tables = tables_of(earnings)
    report = build_audit_report("exemplar-corp-earnings", 2024, tables, tmp_path / "a")
    assert report.data.figures["words_lost"] == 0
    assert report.data.figures["words_checked"] > 1000
    assert "| text_conservation | recomputed from the stored tables |" in report.markdown
    stitched = tables["stitched_text"].copy()
    stitched.loc[0, "text"] = stitched.loc[0, "text"].replace("Exemplar", "", 1)
    cut = build_audit_report("exemplar-corp-earnings", 2024, {**tables, "stitched_text": stitched},
                             tmp_path / "b")
    assert cut.data.figures["words_lost"] >= 1


def test_every_table_missing_still_builds(tmp_path: Path) -> None:
    report = build_audit_report("empty-doc", 2020, {}, tmp_path)
    assert report.heatmap_path is None and not (tmp_path / "heatmap.png").exists()
    for table in ("summaries", "retrieval_metrics", "footnote_dictionary", "naive_chunks"):
        assert f"_No `{table}` stored for this partition._" in report.markdown
    assert "No text_conservation or completeness figures" in report.markdown
    assert report.html_path.is_file()


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


def hostile_report(out_dir: Path, payload: str = "alert(1)") -> AuditReport:
    """The report of :func:`hostile_text` with ``payload`` also in a summary, an answer (its
    question, claim and quote) and the partition's name (title, ids, the JSON block)."""
    source = out_dir / "hostile.txt"
    source.write_text(hostile_text(payload), encoding="utf-8")
    document, year = "hostile-corp", 2024
    processed = process(source, document, year)
    assert processed.index.footnotes and "<script>" in processed.index.footnotes[0].text
    tables = tables_of(processed)
    evil = f"Revenue rose 9% <script>{payload}</script> javascript:{payload}"
    tables["summaries"] = summary_frame(document, year, [evil],
                                        [evil + f" <img src=x onerror={payload}>"])
    result = QAResult(question=f"<script>{payload}</script>?", answer=evil, claims=[Claim(
        text=evil, citations=[SourceCitation(document=document, year=year, page=0,
                                             quote=f"<img src=x onerror={payload}>",
                                             mark="valid")])])

    class Question:
        id, question, category = "q<script>", f"<script>{payload}</script>?", "factual"

    tables["answers"] = answers_to_frame([Question()], [result], document, year)  # type: ignore[list-item]
    # a hostile partition name too: it reaches the title, the ids and the JSON block
    return build_audit_report(f"evil</script><script>{payload}</script>", year, tables, out_dir)


def test_hostile_document_runs_nothing(tmp_path: Path) -> None:
    report = hostile_report(tmp_path)
    page = report.html_path.read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the text is there, escaped
    assert "onerror=alert(1)&gt;" in page
    assert "<script>alert" not in page
    parser = _Elements()
    parser.feed(page)
    for tag, attrs in parser.elements:
        assert not [a for a in attrs if a.lower().startswith("on")], (tag, attrs)
        for name in ("href", "src", "action", "formaction"):
            value = (attrs.get(name) or "").strip().lower()
            assert not value or value.startswith("#") or value.startswith(
                "data:image/png;base64,"), (tag, name, value)
        assert tag not in ("img", "iframe", "object", "embed", "a") or "javascript:" not in str(
            attrs.get("href") or attrs.get("src") or "")
    scripts = [attrs for tag, attrs in parser.elements if tag == "script"]
    assert scripts == [{"type": "application/json", "id": "audit-data"}, {}]  # ours only
    assert "alert" not in parser.scripts[1]  # the page's own script
    data = json.loads(parser.scripts[0])  # the JSON block parses back to the hostile name
    assert data["document"] == "evil</script><script>alert(1)</script>"
    assert anchor("evil</script>", 2024, 0) == "page-evil-script--2024-0"
    # the Markdown (rendered by the Dagster UI) carries no raw markup either
    assert "<script" not in report.markdown and "<img" not in report.markdown


def test_a_flagged_page_is_stored_and_listed_in_the_report(earnings: Processed,
                                                           tmp_path: Path) -> None:
    """A page whose tables could not be read (``Page.faults``, set by the PDF reader) keeps its
    fault through ``raw_pages`` and the audit report names its page, reader and cause."""
    document, year = "exemplar-corp-earnings", 2024
    fault = PageFault.of(1, "aligned_tables", ValueError("max() arg is an empty sequence"))
    pages = [p.model_copy(update={"faults": [fault]}) if p.page_index == 1 else p
             for p in earnings.pages]
    raw = pages_to_frame(pages, document, year, "report", "sha",
                         document_context(document, year, pages))
    assert [p.faults for p in frame_to_pages(raw)] == [p.faults for p in pages]
    report = build_audit_report(document, year, {"raw_pages": raw}, tmp_path)
    assert report.data.page_faults == [{"page": 2, "label": pages[1].page_label,
                                        "reader": "aligned_tables",
                                        "cause": "ValueError: max() arg is an empty sequence"}]
    assert "| 2 |" in report.markdown and "max() arg is an empty sequence" in report.markdown
    assert "page-faults" in report.html_path.read_text(encoding="utf-8")
    clean = build_audit_report(document, year, tables_of(earnings),
                               tmp_path / "clean")
    assert clean.data.page_faults == [] and "Pages flagged" not in clean.markdown
