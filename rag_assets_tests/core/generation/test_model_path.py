"""The model path end to end against a real OpenAI-compatible server: the ``openai`` provider
pointed at llama.cpp serving SmolLM2-135M (the ``llama_server`` fixture), over the real store of
the ``corpus`` fixture.

The tiny model often replies off the point or with broken JSON, so these tests assert the
contract, never the content: the call completes; every claim kept has only citations that hold
on the stored page, and no figure its cited pages do not print; an unusable reply (not JSON
twice, or every claim unsupported) gives an honest abstention whose guardrail events say why;
every JSON request makes one call, or two when the first reply was not JSON. Each request and
reply is recorded by wrapping the ``openai`` client, so the assertions follow what the model
actually said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from rag_assets.core.generation.answers import AnswerConfig, Answerer
from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.claims import model_claims
from rag_assets.core.generation.page_texts import PageTexts, normalize
from rag_assets.core.generation.records import ABSTENTION, Claim, QAResult
from rag_assets.core.generation.summaries import summarize_report, summary_text
from rag_assets.core.llm.client import ChatModel, LLMConfig, connect, parse_json_reply
from rag_assets.core.retrieval.retriever import Retriever
from rag_assets.samples.earnings import earnings_questions
from rag_assets_tests.llm_server import LlamaServer

from .conftest import Corpus

pytestmark = pytest.mark.slow  # about 10 model calls: minutes on 2 shared cores

EARNINGS = "exemplar-corp-earnings"
YEAR = 2024
# n_ctx is 2048: a prompt of ~1,000 excerpt characters and a 192-token reply fit. The server
# reads a prompt at 130-350 tokens/s and writes 50-70 tokens/s here (its log): each call costs
# seconds, and the contract checked holds at any size (a one-claim JSON reply is ~80 tokens)
CONTEXT_CHARS = 1000
MAX_TOKENS = 192
CITATION_THRESHOLD = AnswerConfig().citation_threshold  # what the answerer verifies with
TIMEOUT_SECONDS = 600.0  # a loaded machine runs the model slowly; a timeout is not the point
FIGURE_RE = re.compile(r"\d[\d,]*(?:\.\d+)?")
EXCERPT_RE = re.compile(r"<document id=\"S\d+\"[^>]*>\n(.*?)\n</document>", re.DOTALL)


@dataclass
class Exchange:
    """One chat request as sent, and the model's reply (or the error instead)."""

    messages: list[dict]
    reply: str | None
    finish_reason: str | None = None
    error: str | None = None

    @property
    def prompt(self) -> str:
        return self.messages[-1]["content"]


@dataclass
class Recorder:
    """Wraps an ``openai`` client: ``ChatModel`` calls ``client.chat.completions.create`` and
    every request and reply is kept in ``exchanges``, in order."""

    client: object
    exchanges: list[Exchange] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))

    def _create(self, **request: object) -> object:
        messages = list(request["messages"])
        try:
            response = self.client.chat.completions.create(**request)
        except Exception as err:
            self.exchanges.append(Exchange(messages, None, error=f"{type(err).__name__}: {err}"))
            raise
        choice = response.choices[0]
        self.exchanges.append(Exchange(messages, choice.message.content or "",
                                       choice.finish_reason))
        return response


def recording_chat(server: LlamaServer, max_tokens: int = MAX_TOKENS) -> tuple[ChatModel,
                                                                                Recorder]:
    """The ``openai`` provider at the llama.cpp server, its client wrapped by a ``Recorder``."""
    chat = connect(LLMConfig(provider="openai", base_url=server.base_url,
                             executive_model=server.model, librarian_model=server.model,
                             max_tokens=max_tokens, timeout_seconds=TIMEOUT_SECONDS,
                             max_retries=0), {})  # a local server: no key
    assert chat is not None and chat.provider == "openai"
    recorder = Recorder(chat.client)
    chat.client = recorder
    return chat, recorder


def json_requests(exchanges: list[Exchange]) -> list[list[Exchange]]:
    """The exchanges grouped by JSON request: a retry repeats the previous prompt and adds to it."""
    groups: list[list[Exchange]] = []
    for exchange in exchanges:
        previous = groups[-1][0].prompt if groups else None
        if previous is not None and exchange.prompt != previous \
                and exchange.prompt.startswith(previous):
            groups[-1].append(exchange)
        else:
            groups.append([exchange])
    return groups


def check_calls(chat: ChatModel, exchanges: list[Exchange], calls_before: int) -> list[list[
        Exchange]]:
    """Every call reached the server and got a reply; each JSON request made one call when its
    first reply parsed, else exactly one retry (two calls)."""
    assert exchanges, "no model call was made"
    assert chat.calls - calls_before == len(exchanges)
    assert not [e.error for e in exchanges if e.error], "the server did not answer"
    groups = json_requests(exchanges)
    for group in groups:
        first_parsed = parse_json_reply(group[0].reply) is not None
        assert len(group) == (1 if first_parsed else 2), [e.reply for e in group]
        assert group[0].messages[0]["role"] == "system"  # the fence rules go with every call
    return groups


def offered_claims(reply: dict | None) -> list[dict]:
    """The claims a parsed reply offers (what the answer code turns into claims)."""
    if reply is None:
        return []
    return [item for item in reply.get("claims") or []
            if isinstance(item, dict) and str(item.get("text", "")).strip()]


def figures_not_on_page(claim: Claim, pages: PageTexts) -> list[str]:
    """Figures of the claim that none of its cited pages prints (the partition's year aside)."""
    printed = " ".join(normalize(pages.get(c.document, c.year, c.page) or "")
                       for c in claim.citations).replace(",", "")
    years = {str(c.year) for c in claim.citations}
    missing = []
    for figure in FIGURE_RE.findall(claim.text):
        figure = figure.rstrip(",").replace(",", "")
        if figure not in years and not re.search(rf"(?<![\d.]){re.escape(figure)}(?!\d)",
                                                 printed):
            missing.append(figure)
    return missing


def check_kept_claims(claims: list[Claim], pages: PageTexts) -> None:
    """Each claim has citations, all valid as marked and when verified again here, and prints
    no figure its cited pages do not."""
    for claim in claims:
        assert claim.citations, claim.text
        assert all(c.mark == "valid" for c in claim.citations), claim
    for claim in verify_claims(claims, pages):
        assert all(c.mark == "valid" for c in claim.citations), \
            [(c.label, c.reason) for c in claim.citations]
        assert not figures_not_on_page(claim, pages), (claim.text, figures_not_on_page(claim,
                                                                                       pages))


SOURCE_RE = re.compile(
    r'<document id="S(\d+)" name="([^"]*)" year="(\d+)" page="(\d+)">')


def prompt_sources(prompt: str) -> list[dict]:
    """The excerpts a prompt offers, as the answer code numbers them (S1..Sn, pages 1-based
    in the prompt)."""
    return [{"document": name, "year": int(year), "page": int(page) - 1}
            for _, name, year, page in SOURCE_RE.findall(prompt)]


def check_answer(result: QAResult, reply: dict | None, pages: PageTexts,
                 prompt: str = "") -> None:
    """The answer contract given the model's last reply (``None``: not JSON twice) and the
    prompt it answered: every kept claim verified, and no abstention while the reply offered a
    claim that verifies on the excerpts it cites (an answer path that drops good claims, or
    always abstains, fails here)."""
    events = [e.name for e in result.guardrail_events]
    assert result.provider == "openai"
    check_kept_claims(result.claims, pages)
    assert all(s.mark == "valid" for s in result.sources_used)
    assert {(s.document, s.year, s.page) for s in result.sources_used} == {
        (c.document, c.year, c.page) for claim in result.claims for c in claim.citations}
    offered = offered_claims(reply)
    if reply is None:
        assert "invalid_json" in events, events
        detail = next(e.detail for e in result.guardrail_events if e.name == "invalid_json")
        assert "not a JSON object twice" in detail
    if len(result.claims) < len(offered):
        assert "unsupported_claims_dropped" in events, events
    if reply is not None and prompt:
        verifiable = [claim for claim in verify_claims(
            model_claims(reply, prompt_sources(prompt)), pages, CITATION_THRESHOLD)
            if claim.citations and all(c.mark == "valid" for c in claim.citations)]
        print(f"offered {len(offered)} claims, {len(verifiable)} verifiable, kept "
              f"{len(result.claims)}")
        if verifiable:  # the model gave something that holds: it must be in the answer
            assert result.claims and not result.abstained, (verifiable, result.answer)
    if result.claims:
        assert not result.abstained
        assert len(result.claims) <= len(offered)
    else:  # nothing usable: an honest abstention that says what it looked for
        assert result.abstained and result.answer.startswith(ABSTENTION), result.answer
        assert not result.sources_used and result.looked_for


@pytest.fixture(scope="module")
def golden_question() -> str:
    question = next(q for q in earnings_questions() if q.category == "factual")
    assert (question.document, question.year) == (EARNINGS, YEAR)
    return question.question


def test_a_golden_answer_through_the_model_keeps_only_verified_claims(
        corpus: Corpus, llama_server: LlamaServer, golden_question: str) -> None:
    chat, recorder = recording_chat(llama_server)
    answerer = Answerer(Retriever(corpus.store, corpus.embedder), corpus.pages, chat,
                        AnswerConfig(model_context_chars=CONTEXT_CHARS, phrasings=0))
    result = answerer.ask(golden_question, EARNINGS, YEAR)
    print(f"\nanswer ({result.seconds:.0f} s, {chat.calls} calls): {result.answer[:300]!r}; "
          f"events {[e.name for e in result.guardrail_events]}; replies "
          f"{[e.reply[:120] for e in recorder.exchanges]}")
    groups = check_calls(chat, recorder.exchanges, 0)
    assert len(groups) == 1  # one part, no rewording: one answer request
    prompt = groups[0][0].prompt
    assert golden_question in prompt
    excerpts = EXCERPT_RE.findall(prompt)
    assert excerpts and len(excerpts) == prompt.count("</document>")
    assert sum(len(text) for text in excerpts) <= CONTEXT_CHARS + len(excerpts) * 40
    check_answer(result, parse_json_reply(groups[0][-1].reply), corpus.pages, prompt)
    assert result.model == llama_server.model


def test_a_summary_through_the_model_keeps_only_verified_sentences(
        corpus: Corpus, llama_server: LlamaServer) -> None:
    """The enriched summary: the baseline's differs only in the chunks it reads (its variants
    are compared in ``test_summaries.py``), and each reply of the tiny model here cost ~20 s of
    a busy machine's server (two calls of ~600 prompt and 191 reply tokens)."""
    variant = "enriched"
    chat, recorder = recording_chat(llama_server)
    answerer = Answerer(Retriever(corpus.store, corpus.embedder), corpus.pages, chat,
                        AnswerConfig(model_context_chars=CONTEXT_CHARS))
    summary = summarize_report(answerer, EARNINGS, YEAR, variant)
    print(f"\n{variant} summary ({summary.seconds:.0f} s, {chat.calls} calls): "
          f"{summary.text[:300]!r}; replies {[e.reply[:120] for e in recorder.exchanges]}")
    groups = check_calls(chat, recorder.exchanges, 0)
    assert len(groups) == 1  # one summary request
    assert f"{EARNINGS} ({YEAR})" in groups[0][0].prompt
    assert (summary.provider, summary.model) == ("openai", llama_server.model)
    assert summary.variant == variant and summary.chunk_ids
    check_kept_claims(summary.claims, corpus.pages)
    assert {c.document for claim in summary.claims for c in claim.citations} <= {EARNINGS}
    reply = parse_json_reply(groups[0][-1].reply)
    assert len(summary.claims) <= len(offered_claims(reply))  # nothing from elsewhere
    assert summary.text == summary_text(summary.claims)
    assert len(summary.text.splitlines()) == len(summary.claims)


def test_a_reply_cut_short_gives_an_honest_abstention(
        corpus: Corpus, llama_server: LlamaServer, golden_question: str) -> None:
    chat, recorder = recording_chat(llama_server, max_tokens=16)  # no JSON object fits
    answerer = Answerer(Retriever(corpus.store, corpus.embedder), corpus.pages, chat,
                        AnswerConfig(model_context_chars=CONTEXT_CHARS, phrasings=1))
    result = answerer.ask(golden_question, EARNINGS, YEAR)
    print(f"\ncut short ({result.seconds:.0f} s, {chat.calls} calls): {result.answer!r}; "
          f"replies {[e.reply for e in recorder.exchanges]}")
    groups = check_calls(chat, recorder.exchanges, 0)
    # the answer request: two replies, cut (or a short line that is no JSON: what the tiny model
    # writes in 16 tokens depends on the prompt), then the model's rewording and at most one
    # reworded answer
    reasons = [e.finish_reason for e in groups[0]]
    assert len(reasons) == 2 and "length" in reasons, reasons
    assert len(groups) <= 3
    check_answer(result, None, corpus.pages)
    assert not result.claims and result.abstained
    assert result.answer.startswith(ABSTENTION)
    assert [e.name for e in result.guardrail_events].count("invalid_json") >= 1
