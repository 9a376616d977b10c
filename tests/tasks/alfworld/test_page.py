"""A trial's page of an ALFWorld curriculum, from its record alone."""

from __future__ import annotations

from cogarch.core.records import TrialRecord, Turn
from cogarch.core.views import Fold
from cogarch.tasks.alfworld.records import AlfworldPayload
from cogarch.tasks.alfworld.task import AlfworldTask
from tests.tasks.alfworld.curricula import LIGHT, PICK, RECORDS, game, step


def page_record() -> TrialRecord:
    """Two games; memory changes after the first (turn 3), focus runs in the second."""
    first = game(
        0,
        "train",
        PICK,
        False,
        2,
        memory_activity={"reflexion": {"carried": [], "reflection": "Plan: open it."}},
    )
    first.transcript = [step(1, 1, bad=True, reply=""), step(2, 2, reply="x" * 400)]
    second = game(
        1,
        "ood",
        LIGHT,
        True,
        2,
        memory_activity={"reflexion": {"carried": [0], "reflection": None}},
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
    assert memory.rows == [["reflexion", "carried", "0"], ["reflexion", "reflection", None]]
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


def test_reported_values_show_inline_when_short_and_fold_when_big() -> None:
    record = page_record()
    payload = record.payload
    assert isinstance(payload, AlfworldPayload)
    activity = {
        "none": [],
        "ids": ["e1", "e2"],
        "many": [f"episode-{i}" for i in range(40)],
        "nested": {"concepts": [{"id": "c1", "members": 3}]},
    }
    first = payload.games[0].model_copy(update={"memory_activity": {"episodic": activity}})
    games = [first, *payload.games[1:]]
    record = record.model_copy(update={"payload": payload.model_copy(update={"games": games})})
    memory = AlfworldTask.trial_sections(record)[2].table
    assert memory is not None
    cells = {row[1]: row[2] for row in memory.rows}
    assert cells["none"] == "none" and cells["ids"] == "e1, e2"
    many, nested = cells["many"], cells["nested"]
    assert isinstance(many, Fold) and many.summary == "40 entries"
    assert isinstance(nested, Fold) and '"members": 3' in nested.text


def test_a_game_the_engine_failed_on_says_why_in_its_header() -> None:
    failed = game(0, "train", PICK, False, 0, error="the engine failed on the game g0 (load)")
    record = RECORDS[0].model_copy(
        update={"payload": AlfworldPayload(max_steps=10, games=[failed]), "turns": []}
    )
    header = AlfworldTask.trial_sections(record)[1].lines
    assert header[-1] == (
        "the engine failed, so the game counts as lost: the engine failed on the game g0 (load)"
    )
