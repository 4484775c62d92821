"""Headless Chromium for the browser tests (a pytest plugin: ``pytest_plugins`` in the root
conftest), in one place.

Debian's ``chromium`` driven by Debian's ``chromedriver`` through selenium, the driver given
explicitly (``Service(executable_path=...)``) so Selenium Manager never looks for, nor downloads,
a browser or a driver. ``make test`` installs both packages when they are absent (its ``browser``
target); where they cannot be installed, the ``browser`` fixture skips its test and the reason,
naming what is missing, is printed after pytest's summary.

The browser runs with ``--headless --no-sandbox --disable-gpu --no-first-run``, the switches that
keep it off the network on its own (background networking, component updates, sync, QUIC), and a
fresh profile in the test's ``tmp_path``; the console log is kept (``driver.get_log("browser")``).
``screenshot(name)`` saves the viewport to ``tmp_path/screenshots/<name>.png`` and, when
``RAG_ASSETS_SCREENSHOTS`` names a folder, there too.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    # otherwise Chromium keeps trying the network (updates, safe browsing lists, sync, QUIC)
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-quic",
)
WINDOW = (1280, 1000)
SCREENSHOTS_ENV = "RAG_ASSETS_SCREENSHOTS"
_skipped: set[str] = set()  # why browser tests were skipped, printed after the summary


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for reason in sorted(_skipped):  # printed even without -rs
        terminalreporter.write_line(reason)


def _program(name: str) -> str | None:
    """Debian's ``/usr/bin/<name>``, else ``<name>`` on PATH."""
    debian = Path("/usr/bin") / name
    return str(debian) if debian.is_file() else shutil.which(name)


def browser_programs() -> tuple[str, str] | str:
    """(chromium, chromedriver), or why the browser tests cannot run here."""
    missing = []
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package (the test extra: pip install -e '.[test]')")
    chromium, driver = _program("chromium"), _program("chromedriver")
    if chromium is None:
        missing.append("/usr/bin/chromium (Debian package chromium)")
    if driver is None:
        missing.append("/usr/bin/chromedriver (Debian package chromium-driver)")
    if missing or chromium is None or driver is None:
        return ("browser test skipped: missing " + ", ".join(missing)
                + " (make test installs the packages as root when apt-get can)")
    return chromium, driver


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """A fresh headless Chromium (selenium ``WebDriver``), quit after the test."""
    programs = browser_programs()
    if isinstance(programs, str):
        _skipped.add(programs)
        pytest.skip(programs)
    chromium, chromedriver = programs
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    profile = tmp_path / "chromium-profile"
    profile.mkdir()
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=chromedriver,
                      log_output=str(tmp_path / "chromedriver.log"))
    driver = webdriver.Chrome(service=service, options=options)
    try:
        driver.set_window_size(*WINDOW)
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def screenshot(browser: Any, tmp_path: Path) -> Callable[[str], Path]:
    """``screenshot(name)``: the browser's viewport as ``tmp_path/screenshots/<name>.png``
    (and in ``$RAG_ASSETS_SCREENSHOTS`` when set); returns the first path."""
    folder = tmp_path / "screenshots"
    folder.mkdir(exist_ok=True)

    def save(name: str) -> Path:
        path = folder / f"{name}.png"
        assert browser.save_screenshot(str(path)), f"no screenshot {path}"
        extra = os.environ.get(SCREENSHOTS_ENV)
        if extra:
            Path(extra).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, Path(extra) / path.name)
        return path

    return save


def assert_no_alert(browser: Any) -> None:
    """Fails the test when the page opened an alert (a hostile text that ran), naming it."""
    from selenium.common.exceptions import NoAlertPresentException

    try:
        text = browser.switch_to.alert.text
    except NoAlertPresentException:
        return
    pytest.fail(f"the page opened an alert: {text!r}")
