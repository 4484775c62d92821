"""The ONNX Runtime embedding backends: the sentence-transformers model exported to ONNX on this
machine, fp32 or dynamically quantized to int8, with the model's own tokenizer and pooling.

Nothing is downloaded. At first use the model folder's transformer is exported with torch's
TorchScript-based ``torch.onnx.export`` (the installed sentence-transformers' own ``backend="onnx"``
needs ``optimum``, which is not installed here). A BERT (MiniLM is one) is traced through
transformers 4's forward over its own weights (:func:`_classic_bert`), which ONNX Runtime's BERT
optimizer fuses (one Attention op per layer, EmbedLayerNormalization, BiasGelu,
SkipLayerNormalization); any other transformer is exported as it is, unfused. The file is
checked against the sentence-transformers model on probe batches of other shapes than the traced
one, and kept in a local folder (:func:`onnx_dir`) under a key of the model folder's files, the
backend, the precision and the recipe tag that the vectors' slug carries too
(:func:`export_path`, :func:`recipe_tag`). Later processes load it without importing torch
(importing torch and sentence-transformers costs 5-8 s; ONNX Runtime and the tokenizer well
under a second).

The int8 file is the fp32 file through ``onnxruntime.quantization.quantize_dynamic``: int8
weights per output channel and uint8 activations quantized per run, in every MatMul that
multiplies by a weight (attention output projection, both feed-forward layers) and in the fused
Attention ops (QAttention: the query, key and value projections). The embeddings (a Gather in
EmbedLayerNormalization), the attention scores and softmax, the layer norms and the pooling stay
fp32. Activations are quantized per run, and each text is its own run
(:meth:`OnnxEncoder.encode`), so an int8 vector depends on its text alone, never on the batch it
came in. Chosen by measurement (bench/README.md, "embed_bench.py"): on 512 real chunks of a 10-K
this recipe's cosine to torch fp32's vectors is 0.9935 on average (min 0.984), and its routed
page MRR equals torch's on financebench-dev (0.9028) and is 0.007 above it on the golden set, at
2.8-3.8x torch's texts/s side by side. Keeping some feed-forward down-projections fp32
(:data:`FP32_DOWN_PROJECTIONS`) raised the cosine a little (0.996-0.997 on average, measured
earlier on padded batches) and cost speed, so none is kept.

Pooling and normalization follow the folder's ``modules.json`` and ``1_Pooling/config.json``
(Transformer, one pooling mode, optional Normalize); the tokenizer is the folder's
``tokenizer.json``, truncating to the Embedder's ``max_seq_length``: the ids
sentence-transformers' tokenizer gives (its padding to a batch's longest text changes no
vector). A folder this module cannot reproduce exactly (a Dense layer, a lower-casing flag,
another pooling mode, no ``tokenizer.json``) raises :class:`OnnxUnavailable`, and the Embedder
falls back to torch (one line saying why).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import math
import os
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ONNX_BACKENDS = ("onnx", "onnx-int8")
PRECISION = {"torch": "fp32", "onnx": "fp32", "onnx-int8": "int8"}
# what the int8 file is: the slug's recipe tag follows it (recipe_tag), so vectors of two
# recipes never share a table or a cache
FP32_DOWN_PROJECTIONS = 0  # feed-forward down-projections kept fp32, first layers first
INT8_RECIPE = {"weights": "int8 per channel", "activations": "uint8 per run, per tensor",
               "ops": "MatMul by a weight, fused Attention",
               "kept_fp32": f"feed-forward down-projections of the first {FP32_DOWN_PROJECTIONS} "
                            "layers"}
EXPORT_VERSION = 2  # of this module's export (the traced graph, the fusions)
OPSET = 17
# how the encoder runs the file: int8 activations are quantized per run, so this shapes the
# vectors as much as the file does
ENCODING = "one text per run, unpadded"
PROBE_COSINE = {"onnx": 0.9999, "onnx-int8": 0.98}  # the export's check against torch
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_POOLING_MODES = ("mean_tokens", "cls_token", "max_tokens", "mean_sqrt_len_tokens")


class OnnxUnavailable(RuntimeError):
    """This backend cannot serve this model here; the message says why, in one line."""


def recipe(backend: str) -> dict[str, Any]:
    """Everything of this module that shapes an ONNX backend's vectors: the export, the opset,
    how the encoder runs the file and (int8) the quantization."""
    if backend not in ONNX_BACKENDS:
        raise ValueError(f"not an ONNX backend: {backend!r}; one of {', '.join(ONNX_BACKENDS)}")
    return {"backend": backend, "precision": PRECISION[backend],
            "export_version": EXPORT_VERSION, "opset": OPSET, "encoding": ENCODING,
            "int8": INT8_RECIPE if backend == "onnx-int8" else None}


def recipe_tag(backend: str) -> str:
    """Six hex digits of :func:`recipe`: in the slug and the export's file name, so a recipe
    change gets new tables, a new embedding cache and a new file, and never reads the old."""
    text = json.dumps(recipe(backend), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:6]


def slug_suffix(backend: str) -> str:
    """What a backend adds to the model's slug: nothing for torch (the tables and caches that
    existed before the backends keep their name), else backend, precision and recipe tag
    (``onnx_fp32_1a2b3c``, ``onnx_int8_4d5e6f``)."""
    if backend == "torch":
        return ""
    if backend not in ONNX_BACKENDS:
        raise ValueError(f"unknown embedding backend {backend!r}; one of torch, onnx, onnx-int8")
    return f"onnx_{PRECISION[backend]}_{recipe_tag(backend)}"


def onnx_dir(folder: str | Path | None = None, cache_home: str | None = None) -> Path:
    """Where exported models are kept: ``folder`` (the settings' ``runtime.onnx_dir``), else
    ``rag-assets/onnx`` in the user's cache folder (``cache_home``: ``$XDG_CACHE_HOME``, else
    ``~/.cache``)."""
    if folder and str(folder).strip():
        return Path(folder).expanduser()
    base = (cache_home or "").strip() or str(Path.home() / ".cache")
    return Path(base) / "rag-assets" / "onnx"


# --- what the folder says --------------------------------------------------------------------


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def pipeline_of(folder: Path) -> dict[str, Any]:
    """The folder's sentence-transformers pipeline as this module runs it: pooling mode,
    normalization; :class:`OnnxUnavailable` for anything it would not reproduce exactly."""
    try:
        modules = _read_json(folder / "modules.json")
        bert_config = _read_json(folder / "sentence_bert_config.json")
    except (OSError, ValueError) as err:
        raise OnnxUnavailable(f"{folder} is not a sentence-transformers folder ({err})") from err
    kinds = [m.get("type", "").rsplit(".", 1)[-1] for m in modules]
    if not kinds or kinds[0] != "Transformer" or len(kinds) < 2 or kinds[1] != "Pooling" or any(
            k != "Normalize" for k in kinds[2:]):
        raise OnnxUnavailable(f"modules {kinds}: only Transformer, Pooling, Normalize run on ONNX")
    if bert_config.get("do_lower_case"):
        raise OnnxUnavailable("do_lower_case is set: not reproduced on ONNX")
    pooling = _read_json(folder / modules[1].get("path", "") / "config.json")
    modes = [k.removeprefix("pooling_mode_") for k, v in pooling.items()
             if k.startswith("pooling_mode") and v]
    if len(modes) != 1 or modes[0] not in _POOLING_MODES:
        raise OnnxUnavailable(f"pooling {modes}: one of {', '.join(_POOLING_MODES)} runs on ONNX")
    if not (folder / "tokenizer.json").is_file():
        raise OnnxUnavailable("no tokenizer.json in the model folder")
    return {"pooling": modes[0], "normalize": "Normalize" in kinds}


def folder_key(folder: Path) -> str:
    """A digest of the model folder: its path and its files (name, size, modification time)."""
    digest = hashlib.sha256(str(folder.resolve()).encode("utf-8"))
    for path in sorted(folder.rglob("*")):
        if path.is_file() and ".git" not in path.parts:
            stat = path.stat()
            digest.update(f"{path.relative_to(folder)}|{stat.st_size}|{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def export_path(folder: Path, backend: str, root: Path | None = None) -> Path:
    """Where the export of ``backend`` for ``folder`` is kept under ``root`` (default
    :func:`onnx_dir`): a folder per model folder (its name and :func:`folder_key`), a file per
    backend, precision and :func:`recipe_tag` (``model_<key>/onnx-int8_int8_<tag>.onnx``), the
    tag of the slug its vectors go under."""
    name = f"{backend}_{PRECISION[backend]}_{recipe_tag(backend)}.onnx"
    return (root or onnx_dir()) / f"{folder.name}_{folder_key(folder)}" / name


# --- tokenizer and pooling -------------------------------------------------------------------


def load_tokenizer(folder: Path, max_seq_length: int) -> Any:
    """The folder's fast tokenizer truncating to ``max_seq_length`` (longest first) and padding
    to the longest text of a batch: the ids sentence-transformers' tokenizer gives."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    padding = tokenizer.padding or {}
    pad_id = padding.get("pad_id")
    pad_token = padding.get("pad_token")
    if pad_id is None:
        config = _read_json(folder / "config.json")
        pad_id = int(config.get("pad_token_id") or 0)
        pad_token = tokenizer.id_to_token(pad_id) or "[PAD]"
    tokenizer.enable_truncation(max_length=max_seq_length, strategy="longest_first")
    tokenizer.enable_padding(pad_id=pad_id, pad_token=pad_token,
                             pad_type_id=padding.get("pad_type_id", 0))
    return tokenizer


def pool(token_embeddings: np.ndarray, attention_mask: np.ndarray, mode: str,
         normalize: bool) -> np.ndarray:
    """sentence-transformers' Pooling (then Normalize) in numpy, float32."""
    mask = attention_mask[..., None].astype(np.float32)
    if mode == "cls_token":
        vectors = token_embeddings[:, 0]
    elif mode == "max_tokens":
        vectors = np.where(mask > 0, token_embeddings, np.float32(-1e9)).max(axis=1)
    else:
        counts = np.clip(mask.sum(axis=1), 1e-9, None)
        summed = (token_embeddings * mask).sum(axis=1)
        vectors = summed / (np.sqrt(counts) if mode == "mean_sqrt_len_tokens" else counts)
    vectors = vectors.astype(np.float32)
    if normalize:
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors = vectors / np.clip(norms, 1e-12, None)
    return vectors


# --- export and quantization -----------------------------------------------------------------


@contextlib.contextmanager
def _no_progress_bars() -> Iterator[None]:
    """transformers' "Loading weights" bars off while the export loads the model (twice): a
    first run's log gets one line from the Embedder, not progress bars."""
    from transformers.utils import logging as logging_module

    transformers_logging: Any = logging_module  # its progress-bar switches are unannotated
    was_enabled = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            transformers_logging.enable_progress_bar()


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock beside ``path``: two processes (two steps of one run) export once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _classic_bert(model: Any) -> Any:
    """transformers 4's BERT forward over ``model``'s own modules: the graph ONNX Runtime's
    BERT fusions recognize (one Attention op per layer, EmbedLayerNormalization, BiasGelu,
    SkipLayerNormalization); transformers 5's attention masks and reshapes defeat them. The
    export checks its vectors against the torch model (:func:`export`)."""
    import torch

    class ClassicBert(torch.nn.Module):
        # a transformers BertModel: torch types a module's submodules as Tensor | Module
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner
            self.heads: int = inner.config.num_attention_heads
            self.head_size: int = inner.config.hidden_size // self.heads

        def _split(self, x: torch.Tensor) -> torch.Tensor:
            return x.view(x.size()[:-1] + (self.heads, self.head_size)).permute(0, 2, 1, 3)

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                    token_type_ids: torch.Tensor) -> torch.Tensor:
            embeddings = self.inner.embeddings
            positions = embeddings.position_ids[:, : input_ids.size(1)]
            x: torch.Tensor = embeddings.LayerNorm(
                embeddings.word_embeddings(input_ids)
                + embeddings.token_type_embeddings(token_type_ids)
                + embeddings.position_embeddings(positions))
            mask = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
            for layer in self.inner.encoder.layer:
                attention = layer.attention.self
                query, key, value = (self._split(attention.query(x)),
                                     self._split(attention.key(x)),
                                     self._split(attention.value(x)))
                scores = torch.matmul(query, key.transpose(-1, -2)) / math.sqrt(self.head_size)
                probs = torch.nn.functional.softmax(scores + mask, dim=-1)
                context = torch.matmul(probs, value).permute(0, 2, 1, 3).contiguous()
                context = context.view(context.size()[:-2] + (self.heads * self.head_size,))
                output = layer.attention.output
                x = output.LayerNorm(output.dense(context) + x)
                hidden = torch.nn.functional.gelu(layer.intermediate.dense(x))
                x = layer.output.LayerNorm(layer.output.dense(hidden) + x)
            return x

    return ClassicBert(model)


def _is_classic_bert(config: Any) -> bool:
    return (config.model_type == "bert" and not getattr(config, "is_decoder", False)
            and getattr(config, "position_embedding_type", "absolute") == "absolute"
            and config.hidden_act == "gelu")


def _export_fp32(folder: Path, target: Path) -> None:
    """The folder's transformer to ONNX (token embeddings out), batch and length dynamic; a BERT
    through :func:`_classic_bert` and ONNX Runtime's BERT fusions, any other model as it is."""
    import torch
    from transformers import AutoModel

    model = AutoModel.from_pretrained(str(folder), attn_implementation="eager")
    model.eval()
    classic = _is_classic_bert(model.config)

    class TokenEmbeddings(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                    token_type_ids: torch.Tensor) -> torch.Tensor:
            hidden: torch.Tensor = self.inner(
                input_ids=input_ids, attention_mask=attention_mask,
                token_type_ids=token_type_ids).last_hidden_state
            return hidden

    module = _classic_bert(model) if classic else TokenEmbeddings(model)
    example = {name: torch.ones((2, 8), dtype=torch.long) for name in INPUTS}
    example["attention_mask"][1, 5:] = 0
    example["token_type_ids"].zero_()
    axes = {name: {0: "batch", 1: "tokens"} for name in (*INPUTS, "token_embeddings")}
    traced = target.with_suffix(".traced.tmp") if classic else target
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the legacy exporter's deprecation, tracer notes
        torch.onnx.export(module, tuple(example[n] for n in INPUTS), str(traced),
                          input_names=list(INPUTS), output_names=["token_embeddings"],
                          dynamic_axes=axes, opset_version=OPSET, dynamo=False)
    if classic:
        from onnxruntime.transformers.optimizer import optimize_model

        try:
            fused = optimize_model(str(traced), model_type="bert",
                                   num_heads=model.config.num_attention_heads,
                                   hidden_size=model.config.hidden_size, opt_level=0)
            fused.save_model_to_file(str(target))
        finally:
            traced.unlink(missing_ok=True)


def int8_excluded_nodes(model: Any) -> list[str]:
    """The MatMuls :data:`INT8_RECIPE` keeps fp32: every one without a weight operand (the
    attention scores and context of an unfused graph) and the feed-forward down-projections (a
    weight of shape intermediate x hidden, more rows than columns) of the first
    :data:`FP32_DOWN_PROJECTIONS` layers, in graph order."""
    weights = {init.name: tuple(init.dims) for init in model.graph.initializer}
    excluded, down = [], []
    for node in model.graph.node:
        if node.op_type != "MatMul":
            continue
        shape = weights.get(node.input[1])
        if shape is None:
            excluded.append(node.name)
        elif len(shape) == 2 and shape[0] > shape[1]:
            down.append(node.name)
    return excluded + down[:FP32_DOWN_PROJECTIONS]


def _quantize_int8(source: Path, target: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    excluded = int8_excluded_nodes(onnx.load(str(source), load_external_data=False))
    quiet = logging.Filter("nothing")  # the quantizer's advice to pre-process, on the root logger
    logging.getLogger().addFilter(quiet)
    try:
        quantize_dynamic(str(source), str(target), per_channel=True, reduce_range=False,
                         weight_type=QuantType.QInt8,
                         op_types_to_quantize=["MatMul", "Attention"],
                         nodes_to_exclude=excluded,
                         extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    finally:
        logging.getLogger().removeFilter(quiet)


def _probe_texts() -> list[list[str]]:
    """Batches of other sizes and lengths than the traced example (a shape the tracer fixed
    would show here), padding included."""
    return [
        ["Revenue grew 34% to $2.4 billion [1], including $555 million from an acquisition.",
         "Net sales", "The Company's effective tax rate was 21.3 percent in fiscal 2023, "
         "compared with 24.1 percent in 2022, mainly because of a one-time benefit. " * 3],
        ["Operating cash flow: 1,234 (in millions)."],
    ]


def _torch_reference(folder: Path, batches: list[list[str]],
                     max_seq_length: int) -> list[np.ndarray]:
    """The sentence-transformers pipeline's own vectors (its tokenizer, pooling and all)."""
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(folder), device="cpu")
    model.max_seq_length = max_seq_length
    return [np.asarray(model.encode(batch, batch_size=32, convert_to_numpy=True,
                                    normalize_embeddings=True, show_progress_bar=False),
                       dtype=np.float32) for batch in batches]


def _exported(target: Path, facts: Path) -> bool:
    """A complete export: the file and its facts, of the size the facts recorded (a truncated
    or replaced file is exported again)."""
    try:
        recorded: object = json.loads(facts.read_text(encoding="utf-8"))["bytes"]
        return target.stat().st_size == recorded
    except (OSError, ValueError, KeyError, TypeError):
        return False


def export(folder: Path, backend: str, max_seq_length: int, root: Path | None = None) -> Path:
    """The exported file of ``backend`` for the model ``folder`` under ``root`` (default
    :func:`onnx_dir`), exported, quantized and checked now unless the cache has it. Raises
    :class:`OnnxUnavailable` (one line)."""
    pipeline = pipeline_of(folder)
    target = export_path(folder, backend, root)
    facts = target.with_suffix(".json")
    if _exported(target, facts):
        return target
    with _locked(target):
        if _exported(target, facts):  # another process exported it meanwhile
            return target
        started = time.perf_counter()
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        try:
            with _no_progress_bars():
                if backend == "onnx":
                    _export_fp32(folder, partial)
                else:
                    _quantize_int8(export(folder, "onnx", max_seq_length, root), partial)
                batches = _probe_texts()
                reference = _torch_reference(folder, batches, max_seq_length)
            encoder = OnnxEncoder(folder, partial, backend, pipeline, max_seq_length)
            cosines = [float(c) for batch, ref in zip(batches, reference, strict=True)
                       for c in (encoder.encode(batch, 32, max_seq_length, 1) * ref).sum(axis=1)]
            if min(cosines) < PROBE_COSINE[backend]:
                raise OnnxUnavailable(
                    f"the exported model's vectors differ from torch's (cosine "
                    f"{min(cosines):.4f} < {PROBE_COSINE[backend]})")
            os.replace(partial, target)
        except OnnxUnavailable:
            partial.unlink(missing_ok=True)
            raise
        except Exception as err:  # noqa: BLE001 - the reason in one line, then torch
            partial.unlink(missing_ok=True)
            first = next((line for line in str(err).splitlines() if line.strip()), repr(err))
            raise OnnxUnavailable(f"export failed: {type(err).__name__}: {first.strip()}") from err
        facts.write_text(json.dumps({
            "model_folder": str(folder.resolve()), "recipe": recipe(backend),
            "recipe_tag": recipe_tag(backend),
            "probe_cosine_min": round(min(cosines), 6), "bytes": target.stat().st_size,
            "seconds": round(time.perf_counter() - started, 2)}, indent=2), encoding="utf-8")
        return target


# --- the encoder -----------------------------------------------------------------------------


def _feed(tokenizer: Any, texts: Sequence[str]) -> dict[str, np.ndarray]:
    encodings = tokenizer.encode_batch(list(texts))
    return {
        "input_ids": np.asarray([e.ids for e in encodings], dtype=np.int64),
        "attention_mask": np.asarray([e.attention_mask for e in encodings], dtype=np.int64),
        "token_type_ids": np.asarray([e.type_ids for e in encodings], dtype=np.int64),
    }


class OnnxEncoder:
    """An exported model in ONNX Runtime: texts in, the pipeline's vectors out. One session of
    one thread, which several streams of texts share (``InferenceSession.run`` is thread-safe),
    one stream per core the encoder is given."""

    def __init__(self, folder: Path, path: Path, backend: str,
                 pipeline: dict[str, Any] | None = None, max_seq_length: int = 256) -> None:
        import onnxruntime as ort

        self.folder = folder
        self.path = path
        self.backend = backend
        self.pipeline = pipeline or pipeline_of(folder)
        self._tokenizers: dict[int, Any] = {}
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # parallel across texts, not inside one (see encode)
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # a file that does not load fails now, not at the first encode
        self.session = ort.InferenceSession(str(self.path), options,
                                            providers=["CPUExecutionProvider"])
        self._tokenizer(max_seq_length)

    def _tokenizer(self, max_seq_length: int) -> Any:
        if max_seq_length not in self._tokenizers:
            tokenizer = load_tokenizer(self.folder, max_seq_length)
            tokenizer.no_padding()  # one text per run: nothing to pad
            self._tokenizers[max_seq_length] = tokenizer
        return self._tokenizers[max_seq_length]

    def encode(self, texts: Sequence[str], batch_size: int, max_seq_length: int,
               threads: int) -> np.ndarray:
        """(n, dimension) float32 in input order. The texts are tokenized ``batch_size`` at a
        time but run through the model one per call, unpadded: on this CPU that encoded
        1.7-1.9x the texts/s of padded batches of 32 sorted by length (int8 and fp32 alike),
        and an int8 vector depends on its text alone (activations are quantized per call).

        ``threads`` streams of one-thread calls run side by side (every ``threads``-th text
        each, in threads of this process: ONNX Runtime and the tokenizer release the GIL). One
        text is too small a piece of work to split across cores: on 2 cores two one-thread
        streams encoded 1.35x the texts/s of one stream of two-thread calls (bench/README.md),
        and each vector is the same either way."""
        streams = max(1, min(threads, len(texts)))
        if streams == 1:
            return self._encode_stream(texts, batch_size, max_seq_length)
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(streams, thread_name_prefix="onnx-stream") as executor:
            parts = list(executor.map(
                lambda i: self._encode_stream(texts[i::streams], batch_size, max_seq_length),
                range(streams)))
        out = np.empty((len(texts), parts[0].shape[1]), dtype=np.float32)
        for i, part in enumerate(parts):
            out[i::streams] = part
        return out

    def _encode_stream(self, texts: Sequence[str], batch_size: int,
                       max_seq_length: int) -> np.ndarray:
        tokenizer = self._tokenizer(max_seq_length)
        session = self.session
        rows: list[np.ndarray] = []
        for start in range(0, len(texts), max(1, batch_size)):
            for encoding in tokenizer.encode_batch(list(texts[start : start + batch_size])):
                feed = {
                    "input_ids": np.asarray([encoding.ids], dtype=np.int64),
                    "attention_mask": np.asarray([encoding.attention_mask], dtype=np.int64),
                    "token_type_ids": np.asarray([encoding.type_ids], dtype=np.int64),
                }
                hidden = session.run(None, feed)[0]
                rows.append(pool(hidden, feed["attention_mask"], self.pipeline["pooling"],
                                 self.pipeline["normalize"])[0])
        if not rows:  # (0, dimension), as sentence-transformers gives for no text
            width = session.get_outputs()[0].shape[-1]
            return np.empty((0, width if isinstance(width, int) else 0), dtype=np.float32)
        return np.stack(rows)
