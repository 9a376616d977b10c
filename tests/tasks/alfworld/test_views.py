"""What the report and a trial's page show of ALFWorld curricula, from records alone."""

from __future__ import annotations

from typing import Any

from cogarch.core.records import TrialError, TrialRecord, Turn
from cogarch.core.views import Fold, Table
from cogarch.tasks.alfworld.evaluate import evaluate
from cogarch.tasks.alfworld.records import AlfworldPayload, GameResult, GameStep
from cogarch.tasks.alfworld.task import AlfworldTask
from cogarch.tasks.alfworld.views import CURVE_COLUMNS

PICK, LIGHT = "pick_and_place_simple", "look_at_obj_in_light"


def step(n: int, turn: int, *, bad: bool = False, reply: str = "> go to desk 1") -> GameStep:
    return GameStep(
        step=n,
        turn=turn,
        observation=f"seen {n}",
        admissible=["go to desk 1", "look", "inventory"],
        reply=reply,
        action="dance" if bad else "go to desk 1",
        feedback="Nothing happens." if bad else "You arrive at desk 1.",
        inadmissible=bad,
        repeated=n > 2,
    )


def game(
    index: int, split: Any, task_type: str, won: bool, actions: int, **extra: Any
) -> GameResult:
    return GameResult(
        index=index,
        room=200 + index,
        task_type=task_type,
        split=split,
        seed=index,
        game=f"g{index}",
        goal=f"goal {index}",
        won=won,
        actions=actions,
        inadmissible_actions=1,
        repeated_actions=0,
        plan_length=3,
        model_calls=actions,
        prompt_tokens=100 * actions,
        completion_tokens=10 * actions,
        seconds=1.5,
        **extra,
    )


def record(agent: str, trial: int, wins: list[bool], **fields: Any) -> TrialRecord:
    splits = ["train"] * (len(wins) // 2) + ["ood"] * (len(wins) - len(wins) // 2)
    games = [
        game(i, s, PICK if i % 2 == 0 else LIGHT, w, 4 if w else 10)
        for i, (s, w) in enumerate(zip(splits, wins, strict=True))
    ]
    payload = AlfworldPayload(max_steps=10, games=games)
    return TrialRecord(
        status="complete",
        run="r",
        agent=agent,
        task="alfworld",
        trial=trial,
        seed=trial,
        scoring=AlfworldTask.scoring,
        evaluation=evaluate(payload),
        payload=payload,
        **fields,
    )


RECORDS = [
    record("oracle", 0, [True, True, True, True]),
    record("oracle", 1, [True, True, True, True]),
    record("learner", 0, [False, True, False, True]),
    record("learner", 1, [False, False, True, True]),
    TrialRecord(
        status="failed",
        run="r",
        agent="learner",
        task="alfworld",
        trial=2,
        seed=2,
        error=TrialError(type="RuntimeError", message="engine gone"),
    ),
]


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


def page_record() -> TrialRecord:
    """Two games; memory changes after the first (turn 3), focus runs in the second."""
    first = game(
        0,
        "train",
        PICK,
        False,
        2,
        memory={"reflexion": {"carried": [], "reflection": "Plan: open it."}},
    )
    first.transcript = [step(1, 1, bad=True, reply=""), step(2, 2, reply="x" * 400)]
    second = game(
        1,
        "ood",
        LIGHT,
        True,
        2,
        memory={"reflexion": {"carried": [0], "reflection": None}},
        focus=[{"reason": "loop", "turn": 3, "next_admissible": True}],
    )
    second.transcript = [step(1, 3), step(2, 4)]
    turns = [
        Turn(turn=1, user="u1", reply="", private_state_tokens=0),
        Turn(turn=2, user="u2", reply="r", private_state_tokens=0),
        Turn(
            turn=3, user="u3", reply="r", private_state="Lessons: open it", private_state_tokens=4
        ),
        Turn(turn=4, user="u4", reply="r", private_state_tokens=4),
    ]
    payload = AlfworldPayload(max_steps=10, games=[first, second])
    return RECORDS[0].model_copy(update={"payload": payload, "turns": turns})


def test_a_trial_page_lists_the_games_then_each_with_header_transcript_and_memory() -> None:
    sections = AlfworldTask.trial_sections(page_record())
    titles = [s.title for s in sections]
    assert titles == [
        "The curriculum",
        f"Game 1 of 2: {PICK} in room 200 (train), lost",
        "Game 1 of 2: what memory did",
        f"Game 2 of 2: {LIGHT} in room 201 (ood), won",
        "Game 2 of 2: what memory did",
        "Game 2 of 2: focus loop",
    ]
    curriculum = sections[0]
    assert curriculum.lines[0] == "1 of 2 games won; at most 10 actions per game."
    assert curriculum.table is not None and len(curriculum.table.rows) == 2
    header = sections[1].lines
    assert header[0] == "goal: goal 0"
    assert "split train, seed 0" in header[1]
    assert header[2] == "lost after 2 actions (at most 10); the planner's plan takes 3"
    assert header[-1] == "first observation: seen 1"


def test_a_transcript_folds_the_admissible_actions_long_replies_and_the_memory() -> None:
    sections = AlfworldTask.trial_sections(page_record())
    first, second = sections[1].table, sections[3].table
    assert first is not None and second is not None
    assert first.header == [
        "step",
        "admissible",
        "reply",
        "action read",
        "the game's answer",
        "flags",
        "memory",
    ]
    row = first.rows[0]
    assert row[1] == Fold("3 actions", "go to desk 1\nlook\ninventory")
    assert row[2] == "(empty)" and row[4] == "Nothing happens." and row[5] == "inadmissible"
    assert row[6] == "-"  # nothing private yet
    long_reply = first.rows[1][2]
    assert isinstance(long_reply, Fold) and long_reply.text == "x" * 400
    # the state changed on the second game's first turn, then held
    assert second.rows[0][6] == Fold("changed: 4 tokens", "Lessons: open it")
    assert second.rows[1][6] == "unchanged"
    assert second.rows[1][5] == "won"


def test_what_memory_and_focus_reported_is_shown_generically() -> None:
    sections = AlfworldTask.trial_sections(page_record())
    memory, focus = sections[4].table, sections[5].table
    assert memory is not None and focus is not None
    assert memory.rows == [
        ["reflexion", "carried", Fold("1 entries", "[\n  0\n]")],
        ["reflexion", "reflection", None],
    ]
    assert focus.header == ["reason", "turn", "next_admissible"]
    assert focus.rows == [["loop", 3, True]]


def test_a_game_carrying_memory_from_earlier_shows_it_on_its_first_step() -> None:
    record = page_record()
    payload = record.payload
    assert isinstance(payload, AlfworldPayload)
    third = game(2, "ood", PICK, False, 1)
    third.transcript = [step(1, 5)]
    turns = [*record.turns, Turn(turn=5, user="u5", reply="r", private_state_tokens=4)]
    record = record.model_copy(
        update={
            "payload": payload.model_copy(update={"games": [*payload.games, third]}),
            "turns": turns,
        }
    )
    last = AlfworldTask.trial_sections(record)[-1].table
    assert last is not None
    assert last.rows[0][6] == Fold("carried: 4 tokens", "Lessons: open it")


def test_a_failed_trial_has_no_game_sections() -> None:
    assert AlfworldTask.trial_sections(RECORDS[-1]) == []


def test_a_state_that_changed_but_was_not_recorded_says_so() -> None:
    record = page_record()
    turns = [*record.turns[:3], record.turns[3].model_copy(update={"private_state_tokens": 9})]
    sections = AlfworldTask.trial_sections(record.model_copy(update={"turns": turns}))
    second = sections[3].table
    assert second is not None
    assert second.rows[1][6] == "changed, not recorded: 9 tokens"
