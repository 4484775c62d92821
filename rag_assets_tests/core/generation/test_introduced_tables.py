"""The column an introduced table's total is read from (``introduced_tables._cell_asked``)."""

from __future__ import annotations

from rag_assets.core.generation.direct_rows import Cell, Row
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.introduced_tables import _cell_asked
from rag_assets.core.question.question import read_question

QUESTION = read_question("How much annualized incremental revenue did American Water's rate "
                         "cases provide in 2023?")


def _row(*cells: tuple[str, float]) -> Row:
    unit = EvidenceUnit(chunk_id="c", document="d", year=2023, chunk_rank=0, page=0,
                        located=True, quote="Total", text="Total")
    return Row(unit=unit, label="Total", cells=[
        Cell(heading=h, printed=str(v), value=v, shown=str(v)) for h, v in cells])


def test_one_column_is_read_as_printed() -> None:
    cell = _cell_asked(_row(("2023", 273.0)), QUESTION)
    assert cell is not None and cell.value == 273.0


def test_of_two_years_the_one_asked_never_the_last() -> None:
    # a table that prints the prior year's total after the year asked: never its last column
    cell = _cell_asked(_row(("2023", 273.0), ("2022", 250.0)), QUESTION)
    assert cell is not None and cell.value == 273.0
    assert _cell_asked(_row(("Amount", 273.0), ("Other", 250.0)), QUESTION) is None
