"""Scaling benchmark (issue 19, item 3): every ingest stage on a report written as one line.

The issue's input: ``Revenue grew in the quarter [1]. `` repeated on one line and the note
``[1] Includes acquisitions.`` after it (``--note-inline``: at the end of the same line), built
at two sizes, N and 2N sentences (default N = 85,000: 2N = 170,000 sentences, a 5.6 MB file). In
one process, each stage runs through the core API on both sizes, timed alone (the fastest of
``--repeats`` runs, garbage collection off while timed): the loader, the footnote index and its
warehouse round trip, stray note lines, citation counts, the stitcher, its coverage and text
conservation checks, the document context, both chunkers and co-location (the chain's stages
through ``process_report``, each in a fresh report whose earlier stages are worked out
untimed). What it reports is the ratio time(2N) / time(N) per stage (about 2 for linear
work, 4 for quadratic), never a timing alone: absolute seconds move with whatever else runs
on the machine.

Also: ``--unbroken`` gives the footnote stages the body as one unbroken line (what they got
before the loader broke such lines), and ``--dagster`` materializes the ingest assets (the
ingest step: ``raw_pages`` to ``enriched_chunks`` and the facts, with their checks) for the 2N
file through Dagster, in process, on an ephemeral instance and a temporary data folder: wall
time and step seconds.

Run: ``.venv/bin/python bench/scaling_bench.py [--sentences N] [--repeats R] [--note-inline]
[--unbroken] [--dagster]``. Prints tables, then ``BENCH_JSON {...}``; the figures also go to
``bench/out/scaling.json``.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tabulate import tabulate

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
OUT_JSON = REPO / "bench" / "out" / "scaling.json"
SENTENCE = "Revenue grew in the quarter [1]. "
NOTE = "[1] Includes acquisitions."
DOCUMENT, YEAR = "one-line", 2024
QUIET_RUN = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def report_text(sentences: int, note_inline: bool) -> str:
    return SENTENCE * sentences + ("" if note_inline else "\n") + NOTE + "\n"


def best_of(repeats: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``repeats`` runs of ``fn`` and its result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        result = None
        gc.collect()
        gc.disable()
        try:
            started = time.perf_counter()
            result = fn()
            best = min(best, time.perf_counter() - started)
        finally:
            gc.enable()
    return best, result


# the stages of the ingest chain (``ProcessedReport``'s), in the order each needs the one before
CHAIN = ("index", "stitched", "context", "naive_chunks", "enriched_chunks")


def chain_stage(repeats: int, loaded: Any, stage: str) -> tuple[float, Any]:
    """The fastest of ``repeats`` runs of one stage of ``process_report`` on ``loaded``: each a
    fresh report, the stages before it worked out first, untimed."""
    from rag_assets.core.chunks.report import process_report

    def fresh() -> Any:
        report = process_report(loaded, DOCUMENT, YEAR)
        for before in CHAIN[:CHAIN.index(stage)]:
            getattr(report, before)
        return report

    best, value = float("inf"), None
    for _ in range(repeats):
        report = fresh()
        seconds, value = best_of(1, lambda report=report: getattr(report, stage))
        best = min(best, seconds)
    return best, value


def run_stages(path: Path, repeats: int, unbroken: bool) -> tuple[dict[str, float], dict]:
    """Each stage on the file at ``path``: seconds per stage, and figures of the output."""
    from rag_assets.core.chunks.chunking import colocation
    from rag_assets.core.footnotes.checks import (
        citation_counts,
        stray_note_lines,
        text_conservation,
    )
    from rag_assets.core.footnotes.stitching import (
        FOOTNOTE_BLOCK_RE,
        is_reference,
        stitching_coverage,
    )
    from rag_assets.core.ingest.documents import load_document
    from rag_assets.core.ingest.pages import Page
    from rag_assets.core.warehouse.tables import frames_to_index, index_to_frames

    seconds: dict[str, float] = {}
    seconds["load_document"], doc = best_of(repeats, lambda: load_document(path))
    if unbroken:  # the body as one line, as the stages got it before the loader broke it
        text = path.read_text(encoding="utf-8").rstrip("\n")
        doc = doc.model_copy(update={"pages": [Page(page_index=0, page_label=None, text=text)]})
    pages = doc.pages
    seconds["build_footnote_index"], built = chain_stage(repeats, doc, "index")
    seconds["index_to_frames + frames_to_index"], index = best_of(
        repeats, lambda: frames_to_index(*index_to_frames(built, DOCUMENT, YEAR)))
    seconds["stray_note_lines"], _ = best_of(repeats, lambda: stray_note_lines(pages, index))
    seconds["citation_counts"], _ = best_of(repeats, lambda: citation_counts(index))
    seconds["stitch_document"], stitched = chain_stage(repeats, doc, "stitched")
    seconds["stitching_coverage"], coverage = best_of(
        repeats, lambda: stitching_coverage(index, stitched))
    seconds["text_conservation"], conservation = best_of(
        repeats, lambda: text_conservation(pages, index, stitched))
    seconds["document_context"], _ = chain_stage(repeats, doc, "context")
    seconds["naive_chunks"], naive = chain_stage(repeats, doc, "naive_chunks")
    seconds["enriched_chunks"], enriched = chain_stage(repeats, doc, "enriched_chunks")
    seconds["colocation"], (pairs, colocated) = best_of(repeats, lambda: colocation(enriched))
    blocks = [m for p in stitched for m in FOOTNOTE_BLOCK_RE.finditer(p.text)]
    figures = {
        "input_chars": path.stat().st_size,
        "lines": sum(len(p.lines) for p in pages),
        "footnotes": [f"{f.footnote_id}: {f.text}" for f in index.footnotes],
        "citations": len(index.citations),
        "unresolved": len(index.unresolved),
        "stitched_chars": sum(len(p.text) for p in stitched),
        "full_blocks": sum(not is_reference(m) for m in blocks),
        "references": sum(is_reference(m) for m in blocks),
        "coverage_missing": len(coverage.missing),
        "words_checked": conservation.words_checked,
        "words_lost": conservation.words_lost,
        "naive_chunks": len(naive),
        "enriched_chunks": len(enriched),
        "enriched_colocation": f"{colocated}/{pairs}",
        "warnings": doc.warnings,
    }
    return seconds, figures


def run_dagster(path: Path) -> dict[str, Any]:
    """The ingest assets for the file, materialized through Dagster in this process."""
    import dagster as dg

    from rag_assets.defs.ingest import ingest_assets
    from rag_assets.defs.partitions import partition_key, register_partitions
    from rag_assets.defs.resources import default_resources

    with tempfile.TemporaryDirectory(prefix="scaling_bench_") as tmp:
        folder = Path(tmp) / "reports" / DOCUMENT / str(YEAR)
        folder.mkdir(parents=True)
        (folder / path.name).write_bytes(path.read_bytes())
        with dg.DagsterInstance.ephemeral() as instance:
            register_partitions(instance, [partition_key(DOCUMENT, str(YEAR))])
            started = time.perf_counter()
            result = dg.materialize(
                ingest_assets, partition_key=partition_key(DOCUMENT, YEAR), instance=instance,
                resources=default_resources(tmp), run_config=QUIET_RUN, raise_on_error=False,
            )
            wall = time.perf_counter() - started
            events = result.all_events
    return {
        "ok": result.success,
        "wall_s": round(wall, 1),
        "steps_s": {
            e.step_key: round(e.event_specific_data.duration_ms / 1000, 1)
            for e in events if e.event_type_value == "STEP_SUCCESS"
        },
        "checks": {
            e.asset_check_evaluation_data.check_name: e.asset_check_evaluation_data.passed
            for e in events if e.event_type_value == "ASSET_CHECK_EVALUATION"
        },
        "failures": [f"{e.step_key}: {e.message}" for e in events
                     if e.event_type_value == "STEP_FAILURE"],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sentences", type=int, default=85_000,
                        help="N: sentences of the smaller input (the larger has 2N)")
    parser.add_argument("--repeats", type=int, default=1, help="runs per stage, fastest kept")
    parser.add_argument("--note-inline", action="store_true",
                        help="the note at the end of the sentences' line, not on its own")
    parser.add_argument("--unbroken", action="store_true",
                        help="give the footnote stages the body as one unbroken line")
    parser.add_argument("--dagster", action="store_true",
                        help="also materialize the ingest assets for the 2N file")
    args = parser.parse_args(argv)
    sizes = (args.sentences, 2 * args.sentences)
    runs: dict[int, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="scaling_bench_") as tmp:
        for n in sizes:
            path = Path(tmp) / f"one_line_{n}.txt"
            path.write_text(report_text(n, args.note_inline), encoding="utf-8")
            print(f"{n:,} sentences ({path.stat().st_size / 1e6:.1f} MB) ...", flush=True)
            started = time.perf_counter()
            seconds, figures = run_stages(path, args.repeats, args.unbroken)
            runs[n] = {"seconds": seconds, "figures": figures,
                       "wall_s": round(time.perf_counter() - started, 1)}
        dagster = None
        if args.dagster:
            print(f"dagster: the ingest assets for the {sizes[1]:,}-sentence file ...", flush=True)
            dagster = run_dagster(Path(tmp) / f"one_line_{sizes[1]}.txt")

    small, large = (runs[n]["seconds"] for n in sizes)
    rows = [[stage, f"{small[stage]:.3f}", f"{large[stage]:.3f}",
             f"{large[stage] / small[stage]:.2f}" if small[stage] > 0 else "-"] for stage in small]
    rows.append(["sum of stages", f"{sum(small.values()):.1f}", f"{sum(large.values()):.1f}",
                 f"{sum(large.values()) / sum(small.values()):.2f}"])
    print()
    print(tabulate(rows, headers=["stage", f"s at {sizes[0]:,}", f"s at {sizes[1]:,}",
                                  "ratio"], tablefmt="github"))
    print()
    figure_rows = [[k, *(json.dumps(runs[n]["figures"][k])[:70] for n in sizes)]
                   for k in runs[sizes[0]]["figures"]]
    print(tabulate(figure_rows, headers=["", f"{sizes[0]:,}", f"{sizes[1]:,}"],
                   tablefmt="github"))
    if dagster is not None:
        print(f"\ndagster ingest assets, {sizes[1]:,} sentences: ok={dagster['ok']} "
              f"wall {dagster['wall_s']} s; steps {dagster['steps_s']}; "
              f"checks {dagster['checks']} {dagster['failures'] or ''}")
    out = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "cpus": _cpus()},
        "command": "bench/scaling_bench.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "sizes": sizes,
        "repeats": args.repeats,
        "note_inline": args.note_inline,
        "unbroken": args.unbroken,
        "seconds": {str(n): {k: round(v, 3) for k, v in runs[n]["seconds"].items()}
                    for n in sizes},
        "ratio": {k: round(large[k] / small[k], 2) for k in small if small[k] > 0},
        "figures": {str(n): runs[n]["figures"] for n in sizes},
        "wall_s": {str(n): runs[n]["wall_s"] for n in sizes},
        "dagster": dagster,
    }
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps(out, indent=2) + "\n")
    print(f"\nwritten {OUT_JSON.relative_to(REPO)}")
    print("BENCH_JSON " + json.dumps(out, separators=(",", ":")))
    return 0


def _cpus() -> int | None:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


if __name__ == "__main__":
    sys.exit(main())
