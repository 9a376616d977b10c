"""A task's tables and sections as plain data: cells as text, folded cells, row widths."""

from __future__ import annotations

import pytest

from cogarch.core.views import Fold, Table, cell_text


def test_cells_read_as_text_and_a_fold_as_its_summary() -> None:
    assert [cell_text(v) for v in (None, True, 0.12345, 1234.5, "x")] == [
        "-",
        "yes",
        "0.123",
        "1234",
        "x",
    ]
    assert cell_text(Fold("3 actions", "look\ngo to desk 1\ninventory")) == "3 actions"


def test_a_page_gets_each_cell_s_text_and_what_is_folded_behind_it() -> None:
    table = Table("t", ["step", "admissible"], [[1, Fold("2 actions", "look\nwait")]])
    assert table.text_rows() == [["1", "2 actions"]]
    assert table.page_rows() == [[("1", None), ("2 actions", "look\nwait")]]


def test_a_row_of_the_wrong_width_is_refused() -> None:
    with pytest.raises(ValueError, match="row 0 has 1 cells for 2 columns"):
        Table("t", ["a", "b"], [[Fold("x", "y")]])
