"""``rag-assets serve`` in a real browser (headless Chromium, ``rag_assets_tests/browser.py``): the
app served by uvicorn on 127.0.0.1 over a real store (``conftest.py``), a question typed into the
box and submitted; the answer's view shows its chips, draws each cited page as a decoded PNG and
lays each quote's highlight inside its page's image, where its characters' box (``data-box``)
falls at the image's scale; a store whose report text is hostile, asked
a hostile question, runs nothing. Screenshots go to ``tmp_path/screenshots`` (and
``$RAG_ASSETS_SCREENSHOTS``)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rag_assets.core.evaluation.page_image import VIEW_SCALE
from rag_assets.web.app import create_app
from rag_assets_tests.browser import assert_no_alert
from rag_assets_tests.defs.conftest import write_data_dir
from rag_assets_tests.web.conftest import EARNINGS, QUESTION, build_store

# no white space (it sits in an unquoted onerror= too); each step would leave a trace
PAYLOAD = "window.__pwned=1;document.title='pwned';alert(1)"
NOTE = ("northwind-note", 2023)
HOSTILE_NOTE = (  # the note with a sentence and a footnote made hostile: its page is shown whole
    "Northwind quarterly note\n"
    "Revenue grew 12% to $40 million [1]. "
    f"Costs were flat <script>{PAYLOAD}</script> [2].\n"
    "__________\n"
    "[1] Includes $6 million from the Harbor acquisition.\n"
    f"[2] Excludes a $1 million <img src=x onerror={PAYLOAD}> restructuring charge.\n"
    "Page 1/1\n"
)


@contextmanager
def served(data_dir: Path) -> Iterator[str]:
    """The app over ``data_dir`` served by uvicorn in a thread on a free port of 127.0.0.1, as
    ``rag-assets serve`` serves it; yields its base URL."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(data_dir), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def ask_in_browser(browser: Any, base: str, question: str, document: str = "",
                   year: str = "") -> None:
    """Open the box, type ``question``, choose the filters, submit, wait for the answer."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(base + "/")
    box = browser.find_element(By.CSS_SELECTOR, "form.ask textarea[name=question]")
    box.send_keys(question)
    Select(browser.find_element(By.NAME, "document")).select_by_value(document)
    Select(browser.find_element(By.NAME, "year")).select_by_value(year)
    browser.find_element(By.CSS_SELECTOR, "form.ask button[type=submit]").click()
    WebDriverWait(browser, 120).until(  # the first question builds the engine
        lambda d: d.execute_script(
            "return document.readyState === 'complete' && !!document.getElementById('answer')"))


def rect(browser: Any, element: Any) -> dict[str, float]:
    return browser.execute_script(
        "var r = arguments[0].getBoundingClientRect();"
        "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,"
        " width: r.width, height: r.height};", element)


def nothing_ran(browser: Any) -> None:
    assert_no_alert(browser)
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    assert browser.title != "pwned"


def severe_console_entries(browser: Any) -> list[dict]:
    return [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]


def test_a_question_asked_in_the_browser_shows_its_chips_pages_and_highlights(
        indexed: Path, browser: Any, screenshot: Callable[[str], Path]) -> None:
    from selenium.webdriver.common.by import By

    with served(indexed) as base:
        ask_in_browser(browser, base, QUESTION, *map(str, EARNINGS))
        assert browser.current_url == base + "/ask"
        assert browser.title == f"Answer: {QUESTION}"
        assert browser.find_element(By.CSS_SELECTOR, "#answer h1").text == QUESTION

        # the chips of the answer's text, each linking to a page drawn below
        chips = browser.find_elements(By.CSS_SELECTOR, "#answer .text a.chip[data-citation]")
        assert chips and all(chip.is_displayed() for chip in chips)
        numbers = {li.get_attribute("data-citation")
                   for li in browser.find_elements(By.CSS_SELECTOR, "ol.citations li")}
        # (a footnote marker the answer quotes, "[8]", reads as a chip too: only the
        # citations' own chips are held to a page here)
        cited = [chip for chip in chips if chip.get_attribute("data-citation") in numbers]
        assert {chip.get_attribute("data-citation") for chip in cited} == numbers
        for chip in cited:
            anchor = chip.get_attribute("href").rsplit("#", 1)[1]
            assert browser.find_element(By.ID, anchor).tag_name == "section"

        # each cited page an image, a PNG of a data: URI, decoded
        figures = browser.find_elements(By.CSS_SELECTOR, "#pages section.page figure")
        assert figures
        highlighted: set[str] = set()
        for figure in figures:
            image = figure.find_element(By.TAG_NAME, "img")
            browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", figure)
            assert image.get_attribute("src").startswith("data:image/png;base64,")
            assert browser.execute_script(
                "return arguments[0].complete && arguments[0].naturalWidth > 0"
                " && arguments[0].naturalHeight > 0", image)
            box = rect(browser, image)
            assert box["width"] > 100 and box["height"] > 100
            # each highlight shown, of some size, and inside its page's image
            for highlight in figure.find_elements(By.CSS_SELECTOR, "div.hl[data-citation]"):
                assert highlight.is_displayed()
                mark = rect(browser, highlight)
                assert mark["width"] > 1 and mark["height"] > 1, mark
                assert box["left"] - 0.5 <= mark["left"] and mark["right"] <= box["right"] + 0.5
                assert box["top"] - 0.5 <= mark["top"] and mark["bottom"] <= box["bottom"] + 0.5
                # and where its quote's characters are: its box in points (data-box) drawn at
                # the image's scale (VIEW_SCALE pixels a point), to within a pixel or so
                shown = box["width"] / browser.execute_script(
                    "return arguments[0].naturalWidth", image)
                x0, top, x1, bottom = map(float, highlight.get_attribute("data-box").split())
                expected = {"left": box["left"] + x0 * VIEW_SCALE * shown,
                            "top": box["top"] + top * VIEW_SCALE * shown,
                            "right": box["left"] + x1 * VIEW_SCALE * shown,
                            "bottom": box["top"] + bottom * VIEW_SCALE * shown}
                for side, at in expected.items():
                    assert abs(mark[side] - at) <= 1.5, (side, mark, expected)
                highlighted.add(highlight.get_attribute("data-citation"))
        assert highlighted == numbers  # every citation highlighted on its page
        assert not browser.find_elements(By.CSS_SELECTOR, "ol.citations .missing")

        # a chip leads to its page
        first = cited[0]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", first)
        first.click()
        target = first.get_attribute("href").rsplit("#", 1)[1]
        assert browser.execute_script("return document.querySelector(':target').id") == target
        browser.execute_script("window.scrollTo(0, 0)")
        screenshot("01-serve-answer")
        browser.execute_script(
            "document.querySelector('#pages div.hl').scrollIntoView({block: 'center'})")
        screenshot("02-serve-highlight")
        assert severe_console_entries(browser) == []


@pytest.fixture(scope="module")
def hostile_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of the note alone, its cited sentence and footnote carrying the payloads."""
    data = write_data_dir(tmp_path_factory.mktemp("hostile") / "data")
    (data / "reports" / NOTE[0] / str(NOTE[1]) / "note.txt").write_text(HOSTILE_NOTE,
                                                                      encoding="utf-8")
    return build_store(data, NOTE)


def test_a_hostile_report_and_question_run_nothing_in_the_served_view(
        hostile_store: Path, browser: Any, screenshot: Callable[[str], Path]) -> None:
    from selenium.webdriver.common.by import By

    question = f"<script>{PAYLOAD}</script> What were Northwind's costs?"
    with served(hostile_store) as base:
        # the report's hostile text quoted and marked in the answer's view, as literal text
        ask_in_browser(browser, base, "What were Northwind's costs?", *map(str, NOTE))
        nothing_ran(browser)
        counts = browser.execute_script(
            "return [document.scripts.length, document.querySelectorAll('[onerror]').length,"
            " document.images.length];")
        assert counts == [0, 0, 0]  # no script, no handler, no image (a text report)
        assert browser.find_elements(By.CSS_SELECTOR, "#answer .text a.chip[data-citation]")
        body = browser.find_element(By.TAG_NAME, "body").text  # visible text only
        assert f"<script>{PAYLOAD}</script>" in body and f"<img src=x onerror={PAYLOAD}>" in body
        marks = browser.find_elements(By.CSS_SELECTOR, "pre.text mark[data-citation]")
        assert marks and all(m.is_displayed() for m in marks)  # the quotes marked
        page = browser.find_element(By.CSS_SELECTOR, "pre.text").text  # the page's text, whole
        assert f"Costs were flat <script>{PAYLOAD}</script> [2]." in page
        assert f"<img src=x onerror={PAYLOAD}> restructuring" in page
        screenshot("03-serve-hostile-report")

        # a hostile question: its title, heading and box hold it as text
        ask_in_browser(browser, base, question, *map(str, NOTE))
        nothing_ran(browser)
        assert browser.title == f"Answer: {question}"
        assert browser.find_element(By.CSS_SELECTOR, "#answer h1").text == question
        assert browser.execute_script("return document.scripts.length") == 0
        screenshot("04-serve-hostile-question")

        # the history lists both questions as text, and runs nothing
        browser.get(base + "/")
        nothing_ran(browser)
        assert browser.execute_script("return document.scripts.length") == 0
        assert question in browser.find_element(By.TAG_NAME, "body").text
        screenshot("05-serve-hostile-history")
        assert severe_console_entries(browser) == []
