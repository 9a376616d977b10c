"""An odd official game folder (a room number in another digit script, a floor plan of
thousands of digits) never stops the listing: its room is simply not known."""

from __future__ import annotations

import json
from pathlib import Path

from cogarch.tasks.alfworld.official import official_games


def game(split: Path, task_dir: str, floor_plan: str | None = None) -> None:
    trial = split / task_dir / "trial_T0"
    trial.mkdir(parents=True)
    (trial / "game.tw-pddl").write_text("{}", encoding="utf-8")
    if floor_plan is not None:
        traj = {"scene": {"floor_plan": floor_plan}}
        (trial / "traj_data.json").write_text(json.dumps(traj), encoding="utf-8")


def test_odd_digits_and_huge_floor_plans_leave_the_room_unknown(tmp_path: Path) -> None:
    split = tmp_path / "valid_unseen"
    game(split, "look_at_obj_in_light-Book-None-DeskLamp-²")  # a digit int() refuses
    game(split, "look_at_obj_in_light-Pen-None-DeskLamp-\u0663")  # Arabic-Indic three
    game(split, "look_at_obj_in_light-Cup-None-DeskLamp-9", "FloorPlan" + "7" * 5000)
    game(split, "look_at_obj_in_light-Key-None-DeskLamp-12", "FloorPlan301")
    rooms = {e.path.parts[-3].split("-")[1]: e.room for e in official_games(str(tmp_path), "ood")}
    assert rooms == {"Book": None, "Pen": None, "Cup": 9, "Key": 301}
