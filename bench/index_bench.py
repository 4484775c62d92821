"""Indexing time per page: a 10-K's pages to vectors in a fresh store, this checkout against an
earlier one, run alternately on the same machine.

What is timed, per page of the 3M 10-K (160 pages; ``--pdf`` for another): chunking (the
document context, naive and enriched chunks), embedding every chunk with no cache (MiniLM, the
texts the store embeds: since issue 9 the contextual header with the body), and writing both
kinds to a fresh LanceDB store. Loading the PDF and the footnote index are not indexing and are
done once, before the clock starts.

The baseline is the same measurement run by the code of ``--baseline`` (a git revision, checked
out in a temporary worktree) in a child process; runs alternate (ours, baseline, ours, ...) so
that the machine's noise falls on both alike, and the ratio of the medians is printed. Run:
``make bench`` (part of it) or ``.venv/bin/python bench/index_bench.py [--baseline REV]
[--rounds N]``. Prints a table, then ``BENCH_JSON {...}``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_PDF = REPO.parent / "shared" / "corpora" / "sec-10k" / "3M_2018_10K.pdf"
# what the working tree is measured against: its last commit (a revision whose core has
# ``process_report``: the measurement below runs on the baseline's code)
DEFAULT_BASELINE = "HEAD"


def measure(pdf: Path) -> dict[str, Any]:
    """One run of the code on ``sys.path``: seconds per stage, pages, chunks, tokens embedded."""
    os.environ.setdefault("LANCEDB_LOG", "error")
    from rag_assets.core.chunks import chunking
    from rag_assets.core.chunks.report import process_report
    from rag_assets.core.retrieval.embeddings import Embedder
    from rag_assets.core.retrieval.store import VectorStore, index_partition
    from rag_assets.core.settings import Settings

    report = process_report(pdf, "bench-10k", 2018, Settings().ingest.model_copy(
        update={"pdf_workers": 1}))
    report.stitched  # noqa: B018 - the footnotes are not indexing: worked out before the clock
    embedder = Embedder(backend=Settings().embeddings.backend)
    embedder.embed(["warm up the model"])  # loading the model is not indexing
    started = time.perf_counter()
    kinds = {"naive": report.naive_chunks, "enriched": report.enriched_chunks}
    chunk_s = time.perf_counter() - started
    embedded = [getattr(c, "search_text", c.text) for cs in kinds.values() for c in cs]
    # what the model reads: at most its window of tokens of each text
    tokens = sum(min(n, 256) for n in chunking.count_tokens(embedded))
    with tempfile.TemporaryDirectory(prefix="index_bench_") as tmp:
        store = VectorStore(tmp, embedder.slug, embedder.dimension)
        started = time.perf_counter()
        results = [index_partition(store, embedder, kind, "bench-10k", 2018, chunks)
                   for kind, chunks in kinds.items()]
        index_s = time.perf_counter() - started
    embed_s = sum(r.embedding.encode_seconds for r in results)
    pages = len(report.pages)
    return {
        "pages": pages, "chunks": {k: len(v) for k, v in kinds.items()},
        "tokens_embedded": tokens, "chunk_s": chunk_s, "embed_s": embed_s,
        "write_s": index_s - embed_s, "total_s": chunk_s + index_s,
        "ms_per_page": 1000 * (chunk_s + index_s) / pages,
    }


def run_child(checkout: Path, pdf: Path) -> dict[str, Any]:
    """``measure`` in a fresh process on the code of ``checkout``."""
    code = (f"import sys, json; sys.path.insert(0, {str(checkout)!r}); "
            f"sys.path.insert(1, {str(Path(__file__).parent)!r}); import index_bench; "
            f"print('RESULT ' + json.dumps(index_bench.measure(__import__('pathlib').Path("
            f"{str(pdf)!r}))))")
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=checkout, check=False)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if done.returncode or line is None:
        raise SystemExit(f"index bench child failed in {checkout}:\n{done.stderr[-2000:]}")
    return json.loads(line[len("RESULT "):])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each, alternating")
    args = parser.parse_args(argv)
    if not args.pdf.is_file():
        print(f"index_bench: {args.pdf} not found (../shared/corpora)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="index_bench_base_") as tmp:
        base = Path(tmp) / "checkout"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(base),
                        args.baseline], check=True)
        try:
            ours, theirs = [], []
            for round_ in range(args.rounds):
                ours.append(run_child(REPO, args.pdf))
                theirs.append(run_child(base, args.pdf))
                print(f"round {round_ + 1}: ours {ours[-1]['ms_per_page']:.1f} ms/page, "
                      f"baseline {theirs[-1]['ms_per_page']:.1f} ms/page", flush=True)
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(base)],
                           check=False)
    med = {name: {key: statistics.median(r[key] for r in runs)
                  for key in ("ms_per_page", "chunk_s", "embed_s", "write_s", "tokens_embedded")}
           for name, runs in (("ours", ours), ("baseline", theirs))}
    ratio = med["ours"]["ms_per_page"] / med["baseline"]["ms_per_page"]
    print(f"\nIndexing {ours[0]['pages']} pages of {args.pdf.name} (chunk + embed + write, "
          f"median of {args.rounds}):")
    for name, runs in (("ours", ours), (f"baseline {args.baseline}", theirs)):
        m = med[name.split()[0]]
        print(f"  {name:20s} {m['ms_per_page']:7.1f} ms/page  chunking {m['chunk_s']:.1f} s, "
              f"embedding {m['embed_s']:.1f} s, writing {m['write_s']:.1f} s; chunks "
              f"{runs[0]['chunks']}, tokens embedded {int(m['tokens_embedded'])}")
    print(f"  ratio ours / baseline: {ratio:.3f} (issue 9 allows 1.15)")
    print("BENCH_JSON " + json.dumps({"bench": "index", "pdf": args.pdf.name, "ours": ours,
                                      "baseline": theirs, "ratio_ms_per_page": ratio}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
