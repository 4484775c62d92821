"""``rag-assets serve``'s pages through Starlette's TestClient, over a real store: the earnings
release ingested and indexed once for the module (``conftest.py``'s ``indexed``). The box lists
the indexed partitions, a posted question shows the answer's view with its chips, the history
reads ``answer_audit``, the engine is built once for many questions, hostile text reads as text.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from starlette.testclient import TestClient

from rag_assets.cli import ask as ask_cli
from rag_assets.defs.partitions import partition_key
from rag_assets.web.app import create_app, dagster_partition_url
from rag_assets_tests.web.conftest import EARNINGS, QUESTION

CHIP = re.compile(r'<a class="chip[^"]*" href="#page-\d+" data-citation="(\d+)"')


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The data folders the app built an answer engine over, one entry per build."""
    built: list[Path] = []
    real = ask_cli.open_answerer

    def counted(data_dir: Path, provider: str | None = None) -> object:
        built.append(data_dir)
        return real(data_dir, provider)

    monkeypatch.setattr(ask_cli, "open_answerer", counted)
    return built


def ask(client: TestClient, question: str, document: str = "", year: str = "") -> str:
    response = client.post("/ask", data={"question": question, "document": document,
                                         "year": year})
    assert response.status_code == 200, response.text
    return response.text


def test_the_box_lists_each_indexed_partition_linked_to_its_dagster_page(indexed) -> None:
    client = TestClient(create_app(indexed, dagster_url="http://dagster.test:3000/"))
    html = client.get("/").text
    assert '<option value="exemplar-corp-earnings">' in html
    assert '<option value="2024">' in html
    link = re.search(r'data-partition="exemplar-corp-earnings\|2024">[^<]*<a href="([^"]+)"',
                     html)
    assert link is not None
    url = link.group(1).replace("&amp;", "&")
    assert url.startswith("http://dagster.test:3000/assets/raw_pages?view=partitions&partition=")
    assert unquote(url.rsplit("=", 1)[1]) == str(partition_key(*EARNINGS))
    assert "No question asked yet." in html


def test_a_question_shows_its_view_then_the_history_and_the_engine_is_built_once(
        indexed, builds) -> None:
    client = TestClient(create_app(indexed))
    html = ask(client, QUESTION, *map(str, EARNINGS))
    assert set(CHIP.findall(html)), "the answer's chips"
    assert 'class="hl" data-citation=' in html  # a quote highlighted on its page
    assert f'data-partition="{EARNINGS[0]}|{EARNINGS[1]}"' in html  # its source in Dagster
    ask(client, "What was Exemplar's revenue in fiscal 2031?")
    assert builds == [indexed]
    history = client.get("/").text.split("Asked before", 1)[1]
    asked = re.findall(r'<a class="question" href="[^"]*">([^<]*)</a>', history)
    assert asked == ["What was Exemplar&#39;s revenue in fiscal 2031?",
                     "What was Exemplar&#39;s organic revenue growth in fiscal 2024?"]
    again = re.search(r'<a class="question" href="([^"]*)">[^<]*growth', history)
    assert again is not None  # a question asked before fills the box again, with its filters
    box = client.get(again.group(1).replace("&amp;", "&")).text
    assert "organic revenue growth in fiscal 2024?</textarea>" in box
    assert '<option value="2024" selected>' in box


def test_hostile_question_text_reads_as_text_in_the_answer_and_the_history(indexed) -> None:
    client = TestClient(create_app(indexed))
    hostile = "<script>alert(1)</script> What was revenue? \"><img src=x onerror=alert(2)>"
    html = ask(client, hostile)
    assert "<script" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = client.get("/").text
    assert "<script" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_refused_form_is_the_box_again_with_the_reason(indexed, builds) -> None:
    client = TestClient(create_app(indexed))
    unknown = client.post("/ask", data={"question": QUESTION, "document": "no-such-doc"})
    assert unknown.status_code == 400
    assert "document &#39;no-such-doc&#39; is not indexed; indexed: exemplar-corp-earnings" \
        in unknown.text
    blank = client.post("/ask", data={"question": "   ", "year": "2024"})
    assert blank.status_code == 400 and 'class="refused"' in blank.text
    big = client.post("/ask", data={"question": "x" * 70_000})
    assert big.status_code == 413
    assert builds == []  # nothing refused loads the engine


def test_the_dagster_url_of_a_partition_names_the_asset_and_the_multi_partition_key() -> None:
    url = dagster_partition_url("http://127.0.0.1:3000", "acme-10k", 2023)
    assert url == ("http://127.0.0.1:3000/assets/raw_pages?view=partitions"
                   "&partition=acme-10k%7C2023")
    assert unquote(url.rsplit("=", 1)[1]) == str(partition_key("acme-10k", 2023))


def test_each_answer_in_the_history_links_to_its_view_drawn_again(indexed) -> None:
    client = TestClient(create_app(indexed))
    answered = ask(client, QUESTION, *map(str, EARNINGS))
    history = client.get("/").text.split("Asked before", 1)[1]
    links = re.findall(r'<a class="view" href="(/answer/[0-9a-f]+)">', history)
    assert len(links) == 1
    again = client.get(links[0])
    assert again.status_code == 200
    assert set(CHIP.findall(again.text)) == set(CHIP.findall(answered)) != set()
    assert 'class="hl" data-citation=' in again.text  # its quotes highlighted again
    assert "organic revenue growth in fiscal 2024?</textarea>" in again.text
    assert f'data-partition="{EARNINGS[0]}|{EARNINGS[1]}"' in again.text
    missing = client.get("/answer/0123abcd")
    assert missing.status_code == 404 and "0123abcd" in missing.text
