"""The model stitcher's validator on the real earnings sample.

The language model is the thing that misbehaves here, so it is played by a scripted client (the
``ChatModel`` takes any object with ``.chat.completions.create``): it answers the prompt the
stitcher really sends, page by page, with replies built from the deterministic stitcher's own
pages and then broken in one known way each (a footnote dropped, one truncated, a figure altered,
a marker invented, a body sentence dropped, garbage). What is under test is everything around
the model: batching, the prompt, parsing the reply, the merge and its rules. The last tests run
the ``stitched_text`` asset with ``stitch_mode=llm`` (no provider; an unreachable server) and the
real llama.cpp server (slow).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import dagster as dg
import httpx
import openai
import pytest

from rag_assets.core.footnotes.checks import text_conservation, words
from rag_assets.core.footnotes.model_stitcher import (
    ModelStitchResult,
    judge_definition,
    model_stitch,
    plan_batches,
    plan_units,
    split_page,
)
from rag_assets.core.footnotes.stitching import (
    FOOTNOTE_BLOCK_RE,
    build_footnote_index,
    footnote_block,
    stitch_document,
    stitching_coverage,
)
from rag_assets.core.llm.client import ChatModel, LLMConfig

HEADER_RE = re.compile(r"^=== PAGE (\d+)(?: PART (\d+))? ===$", re.MULTILINE)


class ScriptedClient:
    """Stands in for ``openai.OpenAI``: ``reply(prompt)`` writes the model's answer (or raises)."""

    def __init__(self, reply: Callable[[str], str]) -> None:
        self.reply = reply
        self.prompts: list[str] = []
        self.chat = SimpleNamespace(completions=self)

    def create(self, *, model: str, messages: list[dict], **_: object) -> SimpleNamespace:
        prompt = messages[-1]["content"]
        self.prompts.append(prompt)
        content = self.reply(prompt)
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=content))])


def chat_with(reply: Callable[[str], str]) -> tuple[ChatModel, ScriptedClient]:
    client = ScriptedClient(reply)
    return ChatModel(LLMConfig(provider="openai", librarian_model="scripted"), client), client


def pages_asked(prompt: str) -> list[int]:
    """The page indexes a prompt sends (its ``=== PAGE n ===`` lines inside the fence)."""
    document = prompt.split("<document>", 1)[1].split("</document>", 1)[0]
    return [int(m.group(1)) - 1 for m in HEADER_RE.finditer(document)]


def perfect_model(earnings, edit: Callable[[int, str], str] = lambda page, text: text):
    """A model that answers each page it is asked for with the deterministic stitched page,
    after ``edit(page_index, text)``."""
    text_of = {p.page_index: p.text for p in earnings.stitched}

    def reply(prompt: str) -> str:
        return "\n\n".join(f"=== PAGE {n + 1} ===\n{edit(n, text_of[n])}"
                           for n in pages_asked(prompt))

    return reply


def block_of(earnings, marker: str) -> str:
    footnote = next(f for f in earnings.index.footnotes if f.marker == marker)
    return footnote_block(footnote)


def body_words(text: str) -> list[str]:
    return words(FOOTNOTE_BLOCK_RE.sub(" ", text))


def assert_never_worse(result: ModelStitchResult, earnings, pages=None, index=None) -> None:
    """Whatever the model did: every footnote the deterministic stitcher placed is on its page
    with the dictionary's text, no block carries a definition the document lacks, and the body
    words are the deterministic ones, page by page (and lose nothing of the source pages)."""
    pages = pages or earnings.pages
    index = index or earnings.index
    det = stitch_document(pages, index)
    assert [p.page_index for p in result.pages] == [p.page_index for p in det]
    assert stitching_coverage(index, result.pages).missing == []
    known = {(f.marker, f.text) for f in index.footnotes}
    for page, original in zip(result.pages, det, strict=True):
        blocks = [(m.group("marker"), m.group("text"))
                  for m in FOOTNOTE_BLOCK_RE.finditer(page.text)]
        assert set(blocks) <= known, page.page_index
        wanted = [(m.group("marker"), m.group("text"))
                  for m in FOOTNOTE_BLOCK_RE.finditer(original.text)]
        assert sorted(blocks) == sorted(wanted), page.page_index
        assert body_words(page.text) == body_words(original.text), page.page_index
        assert "{FOOTNOTE" not in FOOTNOTE_BLOCK_RE.sub("", page.text)
    assert text_conservation(pages, index, result.pages).lost == []


def outcome(result: ModelStitchResult, page: int, marker: str):
    return next(o for o in result.outcomes if o.page_index == page and o.marker == marker)


# --- the pieces --------------------------------------------------------------------------------


def test_blocks_come_out_of_each_page_and_go_back_in_exactly(earnings):
    for page in earnings.stitched:
        split = split_page(page, earnings.index)
        assert split is not None
        assert FOOTNOTE_BLOCK_RE.search(split.body) is None
        assert words(split.body) == body_words(page.text)
    assert sum(len(split_page(p, earnings.index).cited) for p in earnings.stitched) == \
        sum(len(FOOTNOTE_BLOCK_RE.findall(p.text)) for p in earnings.stitched)


def test_batches_cut_between_pages_and_carry_the_definitions_their_pages_cite(earnings):
    splits = [split_page(p, earnings.index) for p in earnings.stitched]
    batches = plan_batches(plan_units(splits))
    assert len(batches) >= 2
    sent = [u.page_index for b in batches for u in b.units]
    assert sent == list(range(len(earnings.stitched)))  # every page cites a footnote here
    for batch in batches[:-1]:
        assert batch.chars <= 4500
        following = batches[batches.index(batch) + 1].units[0]
        assert batch.chars + len(following.text) > 4500  # packed, not one page per call
    page_one = next(u for b in batches for u in b.units if u.page_index == 1)
    assert {m for m, _ in page_one.definitions} == {
        "[8]", "[9]", "[10]", "[11]", "[12]", "[13]", "[3]", "[4]", "[5]", "[14]"}
    # a page longer than the batch is cut between lines, never in a line
    small = plan_units(splits, 500)
    parts = [u for u in small if u.page_index == 4]
    assert len(parts) > 1 and all(u.part for u in parts)
    assert "\n".join(u.text for u in parts) == splits[4].body


def test_judge_definition_accepts_formatting_and_names_each_fault():
    known = "Includes $555 million of revenue from Lumen Analytics, acquired on March 28, 2024."
    assert judge_definition("Includes $555  million of revenue from Lumen Analytics, "
                            "acquired on March 28, 2024", known) is None
    assert judge_definition("MISSING", known) == "missing"
    assert judge_definition("", known) == "missing"
    assert judge_definition("Includes $555 million", known).startswith("truncated")
    altered = judge_definition(known.replace("$555", "$565"), known)
    assert altered.startswith("altered") and "$565" in altered


# --- replies that are wrong in each way --------------------------------------------------------


def test_a_model_wrong_in_every_way_never_makes_the_result_worse(earnings):
    truncated = block_of(earnings, "[5]")
    cut = truncated[: len(truncated) // 3] + "}"
    dropped_sentence = ("Gross margin improved to 56.0% from 53.5%, mainly because software "
                        "made up a larger share of\nrevenue [21].")

    def edit(page: int, text: str) -> str:
        if page == 0:  # drops [2], truncates [5], alters a figure in [3]
            text = text.replace(" " + block_of(earnings, "[2]"), "")
            text = text.replace(truncated, cut)
            text = text.replace("$74 million of acquisition-related",
                                "$47 million of acquisition-related")
        if page == 1:  # invents [99]; inlines [40], which only page 6 cites
            text = text.replace("grew 66% to $1,502 million [8].",
                                "grew 66% to $1,502 million [8]. {FOOTNOTE [99]: Includes a "
                                "$1 billion gain on a sale of land.} " + block_of(earnings, "[40]"))
        if page == 2:  # drops a body sentence
            assert dropped_sentence in text
            text = text.replace(dropped_sentence, "")
        return text

    chat, client = chat_with(perfect_model(earnings, edit))
    result = model_stitch(earnings.pages, earnings.index, chat)

    assert_never_worse(result, earnings)
    assert result.model_calls == len(client.prompts) == result.batches >= 2
    # the dropped footnote, the truncated one and the altered one: backfilled, with the reason
    assert (outcome(result, 0, "[2]").status, outcome(result, 0, "[2]").reason) == (
        "backfilled", "missing")
    assert outcome(result, 0, "[5]").status == "backfilled"
    assert outcome(result, 0, "[5]").reason.startswith("truncated")
    assert outcome(result, 0, "[3]").status == "backfilled"
    assert "$47" in outcome(result, 0, "[3]").reason
    page0 = result.pages[0].text
    assert "$47 million" not in page0 and block_of(earnings, "[3]") in page0
    assert block_of(earnings, "[5]") in page0 and block_of(earnings, "[2]") in page0
    # the others on page 0 are the model's
    assert {o.marker for o in result.outcomes if o.page_index == 0 and o.status == "model"} == {
        "[1]", "[4]", "[6]", "[7]"}
    # the invented marker and the uncited one: removed, never carried
    removed = {(r.page_index, r.marker): r.reason for r in result.removed}
    assert removed == {(1, "[99]"): "not defined in the document",
                       (1, "[40]"): "not cited on this page"}
    assert not any("[99]" in p.text or "$1 billion gain" in p.text for p in result.pages)
    assert all(o.status == "model" for o in result.outcomes if o.page_index == 1)
    # the page whose body sentence was dropped: the deterministic page, and why
    assert [(f.page_index, f.reason.split(":")[0]) for f in result.fallbacks] == [
        (2, "body changed")]
    assert "dropped" in result.fallbacks[0].reason and "gross" in result.fallbacks[0].reason
    assert result.pages[2].text == earnings.stitched[2].text
    assert {o.status for o in result.outcomes if o.page_index == 2} == {"deterministic_fallback"}
    assert result.status_by_footnote()["[2]@0"] == "backfilled"
    assert result.status_by_footnote()["[21]@2"] == "deterministic_fallback"
    # the counts add up to the placements of the deterministic stitcher
    placements = {(p.page_index, m.group("marker"))
                  for p in earnings.stitched for m in FOOTNOTE_BLOCK_RE.finditer(p.text)}
    assert result.recovered + result.backfilled + result.fallback_footnotes == len(placements)
    assert result.backfilled == 3 and result.fallback_pages == 1


def test_garbage_and_missing_pages_fall_back_page_by_page(earnings):
    def reply(prompt: str) -> str:
        asked = pages_asked(prompt)
        if 0 in asked:  # the first batch: prose instead of the text
            return "Sure! Here is the report with its footnotes inlined. {FOOTNOTE [1]: maybe}"
        good = perfect_model(earnings)(prompt)
        return good.split(f"=== PAGE {asked[-1] + 1} ===")[0]  # the last page left out

    chat, _ = chat_with(reply)
    result = model_stitch(earnings.pages, earnings.index, chat)
    assert_never_worse(result, earnings)
    reasons = {f.page_index: f.reason for f in result.fallbacks}
    first = plan_batches(plan_units([split_page(p, earnings.index) for p in earnings.stitched]))
    first_pages = [u.page_index for u in first[0].units]
    last_page = len(earnings.stitched) - 1
    assert set(reasons) == {*first_pages, last_page}
    assert all(reasons[n] == "page missing from the model's reply" for n in first_pages)
    assert reasons[last_page] == "page missing from the model's reply"
    assert result.recovered > 0  # the pages in between were the model's


def test_a_model_error_falls_back_for_its_batch_without_raising(earnings):
    def reply(prompt: str) -> str:
        if 0 in pages_asked(prompt):
            # a real request: openai 3.60 reads the request's headers when the error is made
            raise openai.APITimeoutError(request=httpx.Request(
                "POST", "http://127.0.0.1/v1/chat/completions"))
        return perfect_model(earnings)(prompt)

    chat, _ = chat_with(reply)
    logged: list[str] = []
    result = model_stitch(earnings.pages, earnings.index, chat, log=logged.append)
    assert_never_worse(result, earnings)
    assert len(result.errors) == 1 and "APITimeoutError" in result.errors[0]
    assert any("APITimeoutError" in line for line in logged)
    assert result.fallbacks and all(f.reason.startswith("model error") for f in result.fallbacks)
    assert outcome(result, 0, "[1]").status == "deterministic_fallback"
    assert result.recovered > 0 and result.backfilled == 0


def test_a_model_that_only_echoes_the_text_gets_every_footnote_backfilled(earnings):
    """Pages cut into parts, each answered with its text as given: every block comes from
    the dictionary at the deterministic place, so the pages are the deterministic ones."""
    def echo(prompt: str) -> str:
        return prompt.split("<document>", 1)[1].split("</document>", 1)[0]

    chat, client = chat_with(echo)
    result = model_stitch(earnings.pages, earnings.index, chat, batch_chars=600)
    assert any(" PART " in p for p in client.prompts)
    assert result.fallbacks == []
    assert {o.status for o in result.outcomes} == {"backfilled"}
    assert {o.reason for o in result.outcomes} == {"missing"}
    assert [p.text for p in result.pages] == [p.text for p in earnings.stitched]


# --- a perfect reply ---------------------------------------------------------------------------


def test_a_perfect_reply_is_the_models_throughout(earnings):
    chat, client = chat_with(perfect_model(earnings))
    result = model_stitch(earnings.pages, earnings.index, chat)
    assert_never_worse(result, earnings)
    assert result.backfilled == 0 and result.fallbacks == [] and result.removed == []
    assert set(result.status_by_footnote().values()) == {"model"}
    cited = {f.footnote_id for f in earnings.index.footnotes if f.cited_pages}
    assert set(result.status_by_footnote()) == cited
    assert all(o.placed_by == "model" for o in result.outcomes)
    assert [p.text for p in result.pages] == [p.text for p in earnings.stitched]
    assert result.model_calls == len(client.prompts) == result.batches
    # the prompt fences the text and lists the appendix the page needs
    assert "=== PAGE 1 ===" in client.prompts[0]
    assert "[1] Includes $555 million of revenue from Lumen Analytics" in client.prompts[0]


def test_the_model_may_place_a_block_elsewhere_in_the_citing_sentence_not_far_away(earnings):
    block14 = block_of(earnings, "[14]")
    block43 = block_of(earnings, "[43]")

    def edit(page: int, text: str) -> str:
        if page == 1:  # right after the marker instead of after the wrapped sentence
            text = text.replace(" " + block14, "")
            text = text.replace("$1.94 billion [14],", f"$1.94 billion [14], {block14}")
        if page == 7:  # at the top of the page, far from its citation
            text = text.replace(" " + block43, "")
            text = block43 + "\n" + text
        return text

    chat, _ = chat_with(perfect_model(earnings, edit))
    result = model_stitch(earnings.pages, earnings.index, chat)
    assert_never_worse(result, earnings)
    assert f"$1.94 billion [14], {block14}" in result.pages[1].text
    assert outcome(result, 1, "[14]").placed_by == "model"
    assert outcome(result, 7, "[43]").placed_by == "deterministic"
    assert outcome(result, 7, "[43]").status == "model"
    assert result.pages[7].text == earnings.stitched[7].text


# --- the asset ---------------------------------------------------------------------------------


@pytest.fixture
def earnings_data(tmp_path: Path, samples) -> Path:
    data = tmp_path / "data"
    source = samples[("exemplar-corp-earnings", 2024)]
    target = data / "reports" / "exemplar-corp-earnings" / "2024" / source.name
    target.parent.mkdir(parents=True)
    target.write_bytes(source.read_bytes())
    return data


def materialize_stitched(data: Path, llm: dict[str, object]) -> dg.ExecuteInProcessResult:
    from rag_assets.defs.ingest import ingest_report
    from rag_assets.defs.partitions import partition_key, register_partitions
    from rag_assets.defs.resources import LLMResource, RagSettings, default_resources

    resources = default_resources(str(data))
    resources["settings"] = RagSettings(data_dir=str(data), stitch_mode="llm")
    resources["llm"] = LLMResource(**llm)
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, [partition_key("exemplar-corp-earnings", "2024")])
        return dg.materialize(
            [ingest_report], instance=instance, resources=resources,
            partition_key=partition_key("exemplar-corp-earnings", 2024), raise_on_error=False,
        )


def test_llm_mode_without_a_provider_fails_the_partition_in_one_line(earnings_data):
    result = materialize_stitched(earnings_data, {"provider": "extractive"})
    assert not result.success
    failure = result.get_step_failure_events()[0].step_failure_data.user_failure_data
    assert failure.description == "stitch_mode=llm needs an llm provider (openai or azure)"


def test_llm_mode_with_an_unreachable_server_falls_back_and_passes_its_checks(earnings_data):
    from rag_assets_tests.llm_server import free_port

    dead = f"http://127.0.0.1:{free_port()}/v1"
    result = materialize_stitched(earnings_data, {
        "provider": "openai", "base_url": dead, "max_retries": 0, "timeout_seconds": 5})
    assert result.success
    stitched = next(m for m in result.asset_materializations_for_node("ingest_report")
                    if m.asset_key == dg.AssetKey("stitched_text")).metadata
    assert stitched["stitch_mode"].value == "llm"
    assert stitched["model_calls"].value >= 2
    assert stitched["footnotes_by_model"].value == 0
    assert stitched["fallback_pages"].value == 8
    assert len(stitched["model_errors"].value) == stitched["model_calls"].value
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert checks["text_conservation"].passed and checks["footnote_coverage"].passed
    assert checks["text_conservation"].metadata["words_lost"].value == 0


@pytest.mark.slow
def test_the_real_small_model_through_the_validator(earnings, llama_server):
    """SmolLM2-135M (llama.cpp, 2,048-token context) on the release's first page, in two
    batches: whatever it writes, the contracts hold and every placement has a status."""
    pages = earnings.pages[:1]
    index = build_footnote_index(pages)
    config = LLMConfig(provider="openai", base_url=llama_server.base_url,
                       librarian_model=llama_server.model, timeout_seconds=600, max_retries=0)
    chat = ChatModel(config, openai.OpenAI(base_url=llama_server.base_url, api_key="local",
                                           timeout=600, max_retries=0))
    result = model_stitch(pages, index, chat, batch_chars=800)  # prompt + reply fit 2,048
    assert_never_worse(result, earnings, pages, index)
    assert result.model_calls == result.batches >= 2
    placements = {(p.page_index, m.group("marker")) for p in stitch_document(pages, index)
                  for m in FOOTNOTE_BLOCK_RE.finditer(p.text)}
    assert len(placements) == 7
    assert result.recovered + result.backfilled + result.fallback_footnotes == len(placements)
