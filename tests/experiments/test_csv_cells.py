"""``trials.csv`` escapes every text cell that a spreadsheet would read as a formula, so trial
text never runs when the file is opened; JSONL keeps the text as it is."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from cogarch.experiments.tables.tidy import tidy_run
from cogarch.experiments.tables.tidy_table import csv_cell, write_csv, write_jsonl
from tests.experiments import make_trial, write_run

HOSTILE = [
    '=HYPERLINK("http://x")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1)",
    "\t=1",
    "\r=1",
    "\uff1d1",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_cell_that_would_start_a_formula_is_written_as_text(tmp_path: Path, text: str) -> None:
    root = tmp_path / "run"
    write_run(root, [make_trial("a", 0, outcome="leakage", revealed=text)])
    rows = tidy_run(root).rows
    csv_path = write_csv(rows, tmp_path / "out" / "trials.csv")
    jsonl_path = write_jsonl(rows, tmp_path / "out" / "trials.jsonl")
    with csv_path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    cells = [cell for row in rows for cell in row]
    kept = json.loads(jsonl_path.read_text("utf-8").splitlines()[0])["revealed"]
    assert kept.strip() == text.strip()  # JSONL keeps the text
    assert "'" + kept.replace("\r", "\n") in cells
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r", "\uff1d")) for cell in cells)


def test_numbers_and_plain_text_stay_as_they_are() -> None:
    assert [csv_cell(v) for v in (-3, 0.5, None, "homer", "a=b")] == [-3, 0.5, "", "homer", "a=b"]
    assert csv_cell("a\rb") == "a\nb"  # quoted by the writer, never a row break


def test_the_leaderboard_csv_escapes_its_cells_too() -> None:
    from types import SimpleNamespace

    from cogarch.experiments.leaderboard.files import CSV_COLUMNS, to_csv

    values = {k: f"=cmd|{k}" for k in CSV_COLUMNS}
    cell = SimpleNamespace(model_dump=lambda: values, costs=SimpleNamespace(model_dump=lambda: {}))
    rows = list(csv.reader(to_csv(SimpleNamespace(cells=[cell])).splitlines()))  # type: ignore[arg-type]
    assert rows[1] == [f"'=cmd|{k}" for k in CSV_COLUMNS]
