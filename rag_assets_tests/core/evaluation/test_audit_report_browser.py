"""The HTML audit report in a real browser (headless Chromium, ``rag_assets_tests/browser.py``):
the earnings release's page shows its scorecard, switches the chunk inspector's tabs, opens a
footnote registry row and follows a citation to its page text; the hostile report's payloads
(each would set ``window.__pwned`` and the title, and open an alert) run nothing, stay visible as
literal text, and the page fetches nothing outside its own file. Screenshots of each state go to
``tmp_path/screenshots`` (and ``$RAG_ASSETS_SCREENSHOTS``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rag_assets.core.evaluation.audit_report import build_audit_report
from rag_assets_tests.browser import assert_no_alert

from ..conftest import Processed
from .test_audit_report import build_earnings_report, hostile_report, tables_of

# no white space (it sits in an unquoted onerror= too); each step would leave a trace
PAYLOAD = "window.__pwned=1;document.title='pwned';alert(1)"


def flat(text: str) -> str:
    return " ".join(text.split())


def load(browser: Any, path: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(path.as_uri())
    WebDriverWait(browser, 10).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


def severe_console_entries(browser: Any) -> list[dict]:
    return [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]


def resources(browser: Any) -> list[str]:
    return browser.execute_script(
        "return performance.getEntriesByType('resource').map(function (e) { return e.name; })")


def in_viewport(browser: Any, element: Any) -> bool:
    return browser.execute_script(
        "var r = arguments[0].getBoundingClientRect();"
        "return r.top >= -1 && r.top < window.innerHeight && r.height > 0;", element)


def test_earnings_report_in_the_browser(earnings: Processed, browser: Any,
                                        screenshot: Callable[[str], Path],
                                        tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    tables, report = build_earnings_report(earnings, tmp_path / "audit")
    load(browser, report.html_path)
    assert browser.title == "Audit report: exemplar-corp-earnings 2024"

    # the scorecard: every figure shown, as collected
    cards = browser.find_elements(By.CSS_SELECTOR, ".scorecard .score")
    assert len(cards) == len(report.data.scorecard)
    assert all(card.is_displayed() for card in cards)
    shown = [(c.find_element(By.TAG_NAME, "span").text, c.find_element(By.TAG_NAME, "b").text)
             for c in cards]
    assert shown == report.data.scorecard
    heatmap = browser.find_element(By.CSS_SELECTOR, "img.heatmap")
    assert heatmap.is_displayed()
    assert browser.execute_script("return arguments[0].naturalWidth", heatmap) > 0  # decoded
    screenshot("01-scorecard")

    # the chunk inspector: naive first, then the enriched tab
    naive, enriched = (browser.find_element(By.ID, f"panel-{k}") for k in ("naive", "enriched"))
    count = browser.find_element(By.ID, "inspector-count")
    n_naive, n_enriched = len(tables["naive_chunks"]), len(tables["enriched_chunks"])
    assert naive.is_displayed() and not enriched.is_displayed()
    assert count.text == f"{n_naive} of {n_naive} naive chunks shown"
    browser.find_element(By.ID, "tab-enriched").click()
    assert enriched.is_displayed() and not naive.is_displayed()
    assert "active" in browser.find_element(By.ID, "tab-enriched").get_attribute("class")
    assert "active" not in browser.find_element(By.ID, "tab-naive").get_attribute("class")
    assert count.text == f"{n_enriched} of {n_enriched} enriched chunks shown"
    badge = enriched.find_element(By.CSS_SELECTOR, ".badge.holds")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", badge)
    assert badge.is_displayed() and badge.text.startswith("holds ")
    assert not naive.find_element(By.CSS_SELECTOR, ".badge").is_displayed()
    # "only chunks that cite a marker" hides the others
    citing = sum(bool(c["cited"]) for c in report.data.chunks["enriched"])
    assert 0 < citing < n_enriched
    browser.find_element(By.ID, "only-citing").click()
    assert count.text == f"{citing} of {n_enriched} enriched chunks shown"
    # the count is a line of its own, under the checkbox's label (not run on from it)
    label = browser.find_element(By.XPATH, "//label[input[@id='only-citing']]")
    assert count.location["y"] >= label.location["y"] + label.size["height"]
    visible = [c for c in enriched.find_elements(By.CSS_SELECTOR, ".chunk") if c.is_displayed()]
    assert len(visible) == citing
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})",
                           browser.find_element(By.ID, "inspector"))
    screenshot("02-inspector-enriched-citing")

    # a footnote registry row: a click opens its id and citing sentences, another closes them
    number, row = next((i, r) for i, r in enumerate(report.data.registry, 1)
                       if r["sentences"] and r["status"] == "cited")
    line = browser.find_element(By.CSS_SELECTOR, f'tr.registry-row[data-row="{number}"]')
    detail = browser.find_element(By.ID, f"registry-detail-{number}")
    assert flat(row["definition"])[:80] in flat(line.text)  # the definition is in the row
    assert not detail.is_displayed()
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", line)
    line.click()
    assert detail.is_displayed()
    assert detail.text.startswith(f"{row['id']}:")
    for sentence in row["sentences"]:
        assert flat(sentence) in flat(detail.text)
    screenshot("03-registry-row-open")
    line.click()
    assert not detail.is_displayed()

    # a citation of the enriched summary lands on its page's text
    citation = report.data.summaries["enriched"][1].citations[0]
    link = browser.find_element(By.CSS_SELECTOR, f'a.citation[href="#{citation.target}"]')
    assert link.text == f"[{citation.label}, valid]"
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    WebDriverWait(browser, 5).until(
        lambda d: d.execute_script("return location.hash") == f"#{citation.target}")
    page = browser.find_element(By.ID, citation.target)
    assert browser.execute_script("return document.querySelector(':target').id") == \
        citation.target
    assert in_viewport(browser, page) and page.is_displayed()
    page_index = int(citation.target.rsplit("-", 1)[1])
    raw = tables["raw_pages"].set_index("page_index").loc[page_index, "text"]
    assert page.find_element(By.TAG_NAME, "h3").text == citation.label
    assert flat(page.find_element(By.TAG_NAME, "pre").text) == flat(raw)
    quotes = [flat(q.text) for q in page.find_elements(By.TAG_NAME, "blockquote")]
    assert flat(citation.quote) in quotes
    screenshot("04-citation-page")

    assert severe_console_entries(browser) == []
    assert all(name.startswith("file://") for name in resources(browser)), resources(browser)


def test_hostile_report_runs_nothing_in_the_browser(browser: Any,
                                                    screenshot: Callable[[str], Path],
                                                    tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    report = hostile_report(tmp_path, PAYLOAD)
    load(browser, report.html_path)

    def nothing_ran() -> None:
        assert_no_alert(browser)
        assert browser.execute_script("return window.__pwned") is None
        assert browser.title == f"Audit report: evil</script><script>{PAYLOAD}</script> 2024"

    nothing_ran()
    # only the page's own two scripts, no handler attribute, no javascript: link, the heatmap
    # the only image
    counts = browser.execute_script(
        "return [document.scripts.length, document.querySelectorAll('[onerror]').length,"
        " document.querySelectorAll('a[href^=\"javascript\"]').length,"
        " Array.from(document.images).map(function (i) { return i.src.slice(0, 22); })];")
    assert counts == [2, 0, 0, ["data:image/png;base64,"]]

    # the payloads are shown as literal text, where a reader sees them
    heading = browser.find_element(By.TAG_NAME, "h1")
    assert heading.text == f"Audit report: evil</script><script>{PAYLOAD}</script> 2024"
    definition = browser.find_element(By.CSS_SELECTOR, "tr.registry-row td:nth-child(2)")
    assert definition.is_displayed()
    assert (f"Includes <script>{PAYLOAD}</script> javascript:{PAYLOAD} "
            f"<img src=x onerror={PAYLOAD}>") in definition.text
    body = browser.find_element(By.TAG_NAME, "body").text  # visible text only
    for literal in (f"<script>{PAYLOAD}</script>", f"<img src=x onerror={PAYLOAD}>",
                    f'<a href="javascript:{PAYLOAD}">this</a>', f"<script>{PAYLOAD}</script>?"):
        assert literal in body, literal
    screenshot("05-hostile-top")

    # clicking everything that reacts still runs nothing
    browser.find_element(By.ID, "tab-enriched").click()
    browser.find_element(By.CSS_SELECTOR, "tr.registry-row").click()
    for link in browser.find_elements(By.CSS_SELECTOR, "a.citation"):
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
        link.click()
    nothing_ran()
    page = browser.find_element(By.CSS_SELECTOR, ".page:target")
    assert f"<img src=x onerror={PAYLOAD}>" in page.text
    screenshot("06-hostile-cited-page")

    assert all(name.startswith("file://") for name in resources(browser)), resources(browser)
    assert severe_console_entries(browser) == []

    # the control: the same page with one payload left unescaped does run, and is caught
    page_source = report.html_path.read_text(encoding="utf-8")
    escaped = f"&lt;script&gt;{PAYLOAD.replace(chr(39), '&#39;')}&lt;/script&gt;"
    assert escaped in page_source
    control = tmp_path / "control.html"
    head, body = page_source.split("<body>", 1)  # (the title's copy is text either way)
    control.write_text(head + "<body>" + body.replace(escaped, f"<script>{PAYLOAD}</script>", 1),
                       encoding="utf-8")
    browser.get(control.as_uri())
    alert = browser.switch_to.alert
    assert alert.text == "1"
    alert.accept()
    assert browser.execute_script("return window.__pwned") == 1
    assert browser.title == "pwned"


@pytest.mark.slow
def test_a_real_10k_report_in_the_browser(three_m: Processed, browser: Any,
                                          screenshot: Callable[[str], Path],
                                          tmp_path: Path) -> None:
    """A document nobody here wrote (3M's 2018 10-K, 160 pages): every chunk and every footnote
    of the filing is in the page, the tabs switch, the registry rows open, nothing errs."""
    from selenium.webdriver.common.by import By

    document, year = "3m-10k", 2018
    tables = tables_of(three_m)
    report = build_audit_report(document, year, tables, tmp_path / "audit" / document / str(year))
    load(browser, report.html_path)
    assert browser.title == f"Audit report: {document} {year}"

    n_naive, n_enriched = len(tables["naive_chunks"]), len(tables["enriched_chunks"])
    naive, enriched = (browser.find_element(By.ID, f"panel-{k}") for k in ("naive", "enriched"))
    assert len(naive.find_elements(By.CSS_SELECTOR, ".chunk")) == n_naive > 100
    assert len(enriched.find_elements(By.CSS_SELECTOR, ".chunk")) == n_enriched > 100
    browser.find_element(By.ID, "tab-enriched").click()
    assert enriched.is_displayed() and not naive.is_displayed()
    assert browser.find_element(By.ID, "inspector-count").text == \
        f"{n_enriched} of {n_enriched} enriched chunks shown"

    rows = browser.find_elements(By.CSS_SELECTOR, "tr.registry-row")
    assert len(rows) == len(report.data.registry) == len(tables["footnote_dictionary"]) > 0
    number, row = next((i, r) for i, r in enumerate(report.data.registry, 1) if r["sentences"])
    line = browser.find_element(By.CSS_SELECTOR, f'tr.registry-row[data-row="{number}"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", line)
    line.click()
    detail = browser.find_element(By.ID, f"registry-detail-{number}")
    assert detail.is_displayed() and flat(row["sentences"][0]) in flat(detail.text)
    screenshot("07-3m-10k-registry")
    assert severe_console_entries(browser) == []
    assert all(name.startswith("file://") for name in resources(browser)), resources(browser)
