"""``rag-assets serve`` refuses a data folder that cannot serve before it listens: one line,
exit 2, as ``ask`` says it; its app says the same line to a browser (503)."""

from __future__ import annotations

from starlette.testclient import TestClient

from rag_assets.cli import main
from rag_assets.web.app import create_app


def test_serve_over_a_missing_folder_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    assert main(["serve", "--data-dir", str(tmp_path / "nowhere"), "--port", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"cannot serve: no data folder {tmp_path}")


def test_the_box_over_a_folder_without_a_warehouse_says_why_in_one_line(tmp_path) -> None:
    response = TestClient(create_app(tmp_path)).get("/")
    assert response.status_code == 503
    assert f"cannot answer: nothing indexed under {tmp_path}" in response.text
