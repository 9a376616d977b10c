"""The report's tables of ALFWorld curricula and the tidy column, from records alone."""

from __future__ import annotations

from cogarch.core.views import Table
from cogarch.tasks.alfworld.tables import CURVE_COLUMNS
from cogarch.tasks.alfworld.task import AlfworldTask
from tests.tasks.alfworld.curricula import LIGHT, PICK, RECORDS, record


def tables() -> dict[str, Table]:
    return {t.title.removeprefix("ALFWorld: "): t for t in AlfworldTask.report_tables(RECORDS)}


def test_success_per_agent_counts_games_over_complete_trials_with_efficiency() -> None:
    table = tables()["success and actions per agent (complete trials)"]
    assert table.header[:5] == ["agent", "trials", "games", "won", "success %"]
    oracle, learner = table.rows
    assert list(oracle[:7]) == ["oracle", 2, 8, 8, 100.0, 4.0, 3.0]
    assert list(learner[:7]) == ["learner", 2, 8, 4, 50.0, 4.0, 3.0]
    # 1 inadmissible action per game: 8 of 4 * 4 + 4 * 10 actions
    assert learner[7] == round(100 * 8 / 56, 1) and learner[8] == 0.0


def test_success_per_split_and_task_type_gives_counts_in_a_known_order() -> None:
    by_split, by_type = tables()["success per split"], tables()["success per task type"]
    assert by_split.header == ["agent", "train", "ood"]  # no id games were played
    assert by_split.rows[1] == ["learner", "1/4 (25%)", "3/4 (75%)"]
    assert by_type.header == ["agent", PICK, LIGHT]
    assert by_type.rows[0] == ["oracle", "4/4 (100%)", "4/4 (100%)"]
    assert by_type.rows[1] == ["learner", "1/4 (25%)", "3/4 (75%)"]


def test_the_learning_curve_is_success_by_place_in_the_curriculum() -> None:
    curve = tables()["learning curve, success by the game's place in the curriculum"]
    assert curve.header == [
        "agent",
        "trials",
        "game 1 (train) %",
        "game 2 (train) %",
        "game 3 (ood) %",
        "game 4 (ood) %",
    ]
    assert curve.rows[1] == ["learner", 2, 0.0, 50.0, 50.0, 100.0]


def test_a_long_curriculum_s_curve_is_shown_in_blocks() -> None:
    wins = [i % 3 == 0 for i in range(32)]
    (table,) = [
        t for t in AlfworldTask.report_tables([record("a", 0, wins)]) if "learning curve" in t.title
    ]
    assert len(table.header) - 2 <= CURVE_COLUMNS
    assert table.header[2] == "game 1-3 (train) %"
    assert "game 16-18 (train/ood) %" in table.header
    assert table.rows[0][2] == round(100 / 3, 1)


def test_cost_per_game_is_a_mean_over_every_game() -> None:
    cost = tables()["cost per game (means)"]
    assert cost.header[:4] == ["agent", "games", "actions", "model calls"]
    assert cost.rows[1] == ["learner", 8, 7.0, 7.0, 700.0, 70.0, 1.5]


def test_no_table_without_a_complete_curriculum() -> None:
    assert AlfworldTask.report_tables(RECORDS[-1:]) == []


def test_the_tidy_row_has_the_games_won_in_order() -> None:
    assert AlfworldTask.tidy_columns(RECORDS[2]) == {"won_by_game": "0101"}
    assert AlfworldTask.tidy_columns(RECORDS[-1]) == {"won_by_game": None}
