"""The audit report in the running Dagster UI: the smallest partition (``northwind-note|2023``, a
one-page note with two footnotes) ingested and its ``audit_report`` materialized into a real
``DAGSTER_HOME`` instance; ``dagster-webserver`` started on a free port over that instance and
the data folder; the asset's page of that partition, in headless Chromium
(``rag_assets_tests/browser.py``), shows the report's metadata (the ``html`` path, the Markdown
report with its heatmap). The webserver's process group is always stopped at the end.

The webserver alone, not ``make ui``'s ``dagster dev`` (``harness.ui_launcher``): its daemon
would run the sensors, and ``report_sensor`` would request an ``ingest_job`` run (embedding) for
the note it finds in the data folder while the page is looked at."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import dagster as dg
import pytest

from harness.local_dagster import LocalDagster
from rag_assets.definitions import all_assets
from rag_assets.defs.audit import reports_dir
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import RagSettings, default_resources
from rag_assets_tests.defs.conftest import materialize

pytestmark = pytest.mark.slow

DOCUMENT, YEAR = "northwind-note", 2023
INSTANCE_YAML = "telemetry:\n  enabled: false\nnux:\n  enabled: false\n"  # no pop-up in the UI
PAGE_TIMEOUT_S = 60


@pytest.fixture
def dagster_home(tmp_path: Path) -> Path:
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text(INSTANCE_YAML, encoding="utf-8")
    return home


def test_report_metadata_on_the_partitions_page(
        data_dir: Path, dagster_home: Path, browser: Any, screenshot: Callable[[str], Path],
        tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    started = time.monotonic()
    key = partition_key(DOCUMENT, YEAR)
    # the instance's storage is created here first; the webserver then starts while the
    # partition is materialized (it reads the instance when the page is asked for), and the page
    # is opened once both are done
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance, \
            LocalDagster(dagster_home, data_dir, mode="webserver").start(wait=False) as server:
        register_partitions(instance, [partition_key(DOCUMENT, str(YEAR))])
        assert materialize(data_dir, instance, DOCUMENT, YEAR).success  # the ingest group
        result = dg.materialize(all_assets, selection=dg.AssetSelection.assets("audit_report"),
                                partition_key=key, instance=instance,
                                resources=default_resources(str(data_dir)))
        assert result.success
        html = reports_dir(RagSettings(data_dir=str(data_dir)), DOCUMENT, YEAR) / "audit.html"
        assert html.is_file()
        materialized = time.monotonic()
        url = server.wait_until_up().url
        answering = time.monotonic()
        # the Partitions tab of the asset with the partition selected: its latest
        # materialization's metadata (the Overview tab shows the asset's latest, any partition)
        page = f"{url}/assets/audit_report?view=partitions&partition={quote(str(key), safe='')}"
        assert str(key) == f"{DOCUMENT}|{YEAR}"
        browser.get(page)
        wait = WebDriverWait(browser, PAGE_TIMEOUT_S)
        html_value = wait.until(lambda d: d.find_element(
            By.XPATH, "//td[normalize-space()='html']/following-sibling::td[1]"))
        assert html_value.is_displayed()
        assert html_value.text.replace("\n", "") == str(html)
        heading = browser.find_element(By.XPATH, f"//*[normalize-space()='{key}']")
        assert heading.is_displayed()  # the selected partition's panel
        for entry in ("report", "markdown_file", "heatmap", "missing_tables"):
            cell = browser.find_element(By.XPATH, f"//td[normalize-space()='{entry}']")
            assert cell.is_displayed(), entry
        missing = browser.find_element(
            By.XPATH, "//td[normalize-space()='missing_tables']/following-sibling::td[1]")
        assert '"summaries"' in missing.text
        screenshot("ui-01-partition-metadata")
        page_shown = time.monotonic()

        # the Markdown report itself, as the UI renders it, heatmap included
        browser.find_element(By.XPATH, "//a[normalize-space()='[Show Markdown]']").click()
        title = wait.until(lambda d: d.find_element(
            By.XPATH, f"//h1[normalize-space()='Audit report: {DOCUMENT} {YEAR}']"))
        assert title.is_displayed()
        dialog = title.find_element(By.XPATH, "..")
        assert "Includes $6 million from the Harbor acquisition." in dialog.text
        assert "No summaries stored for this partition." in " ".join(dialog.text.split())
        image = browser.find_element(
            By.CSS_SELECTOR, "img[alt='footnote coverage per chunk, naive vs enriched']")
        assert image.get_attribute("src").startswith("data:image/png;base64,")
        assert browser.execute_script("return arguments[0].naturalWidth", image) > 0
        screenshot("ui-02-report-markdown")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", image)
        screenshot("ui-03-report-heatmap")

        # the Automation page lists the nightly schedules (with their cron) and both sensors; a
        # row's name renders first and its kind a moment later (seen in CI, 2026-11-26: the link
        # read 'reingest_schedule' alone), so the wait is for the link holding both
        browser.get(f"{url}/automation")
        for name, kind in (("reingest_schedule", "Scheduled At"),
                           ("reevaluate_schedule", "Scheduled At"),
                           ("report_sensor", "Standard sensor"),
                           ("automation_sensor", "Automation condition sensor")):
            link = wait.until(lambda d, n=name, k=kind: d.find_element(
                By.XPATH, f"//a[.//*[normalize-space()='{n}'] and contains(., '{k}')]"))
            assert link.is_displayed(), name
        screenshot("ui-04-automation")
    print(f"materialized in {materialized - started:.1f} s (the webserver starting meanwhile), "
          f"webserver answered {answering - materialized:.1f} s later, partition page in "
          f"{page_shown - answering:.1f} s")
