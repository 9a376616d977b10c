"""ALFWorld as the Episodex paper plays it: ALFWorld's own valid_unseen games when they are
there (found through $ALFWORLD_DATA or ALFWorld's default folder), a refusal naming the fix
when a config asks for them and they are not, the paper's answer to an inadmissible command,
and a budget of specialist transitions per game, counted in the trial file with the outputs
the agent held back."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cogarch.errors import ConfigError, MissingDataError
from cogarch.experiments.running.run_config import load_run_config
from cogarch.models import FunctionModel, Model, pairs_model
from cogarch.tasks.alfworld.cache import GameCache
from cogarch.tasks.alfworld.games import generated_game
from cogarch.tasks.alfworld.generator import GameSpec
from cogarch.tasks.alfworld.official import official_games
from cogarch.tasks.alfworld.records import AlfworldPayload
from cogarch.tasks.registry import build_task
from tests.tasks.alfworld.conftest import player_model, trial_context
from tests.workspace.episodex import Scripted

pytestmark = pytest.mark.usefixtures("engine")

ROOT = Path(__file__).resolve().parents[3]
GOLDEN_GAMES = ROOT / "tests" / "golden" / "games"
UNSEEN = [
    GameSpec(424, "pick_and_place_simple", 412565),
    GameSpec(424, "pick_two_obj_and_place", 311584),
]
"""Games of ALFWorld's unseen room 424, planned once and kept with the golden trials."""
OBJECT = re.compile(r"^(\w+)_bar_", re.M)
PAPER_CONFIGS = sorted((ROOT / "experiments" / "configs").glob("episodex_paper*.yaml"))


@pytest.fixture(autouse=True)
def no_official_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No ALFWorld data anywhere: $ALFWORLD_DATA unset and a home without ~/.cache/alfworld."""
    monkeypatch.delenv("ALFWORLD_DATA", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    official_games.cache_clear()
    yield
    official_games.cache_clear()


async def write_valid_unseen(root: Path, cache: Path) -> list[Path]:
    """ALFWorld's layout under ``root``: json_2.1.1/valid_unseen/<task>/<trial>/game.tw-pddl
    beside traj_data.json, one trial folder per game of ``UNSEEN``."""
    for kept in GOLDEN_GAMES.glob("room424-*.json"):
        (cache / kept.name).write_bytes(kept.read_bytes())
    written = []
    for n, spec in enumerate(UNSEEN):
        game = await generated_game(spec, "ood", GameCache(cache))
        task_dir = f"{spec.task_type}-Object{n}-None-Receptacle-{spec.room}"
        trial = root / "json_2.1.1" / "valid_unseen" / task_dir / f"trial_T2019090{n}_000000_1"
        trial.mkdir(parents=True)
        (trial / "game.tw-pddl").write_text(json.dumps({**game.data(), "solvable": True}))
        traj = {"scene": {"floor_plan": f"FloorPlan{spec.room}"}, "task_type": spec.task_type}
        (trial / "traj_data.json").write_text(json.dumps(traj))
        written.append(trial / "game.tw-pddl")
    return written


OOD = {"curriculum": [{"split": "ood", "games": 2}], "source": "official"}


@pytest.mark.parametrize("where", ["ALFWORLD_DATA", "default folder"])
async def test_official_valid_unseen_games_are_played_when_present(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if where == "ALFWORLD_DATA":
        root = tmp_path / "downloaded"
        monkeypatch.setenv("ALFWORLD_DATA", str(root))
    else:
        root = tmp_path / "home" / ".cache" / "alfworld"
    cache = tmp_path / "cache"
    cache.mkdir()
    files = await write_valid_unseen(root, cache)
    task = build_task("alfworld", OOD)
    plan = "\n".join(task.plan())
    shown = root if where == "ALFWORLD_DATA" else "~/.cache/alfworld"
    assert f"games: ALFWorld's official games from {shown} (valid_unseen 2 playable)" in plan
    assert "GENERATED" not in plan
    three = build_task("alfworld", {**OOD, "curriculum": [{"split": "ood", "games": 3}]})
    assert "(valid_unseen 2 playable, fewer than the 3 asked)" in "\n".join(three.plan())
    out = await task.run_trial(trial_context(player_model("oracle")))
    assert isinstance(out.payload, AlfworldPayload)
    played = out.payload.games
    assert {g.game for g in played} == {str(f) for f in files}
    assert all(g.source == "official" and g.split == "ood" and g.room == 424 for g in played)
    assert all(g.won and g.ended_by == "won" for g in played)


@pytest.mark.parametrize("config", PAPER_CONFIGS, ids=lambda p: p.stem)
def test_a_paper_config_without_the_official_games_refuses_naming_the_fix(
    config: Path, tmp_path: Path
) -> None:
    task = load_run_config(config).task
    assert task.params()["source"] == "official"
    with pytest.raises(MissingDataError) as refused:
        build_task(task.kind, task.params())
    message = str(refused.value)
    assert "valid_unseen" in message and "ALFWORLD_DATA" in message
    assert "alfworld-download" in message and "task.source: generated" in message
    assert "\n" not in message
    generated = build_task(task.kind, {**task.params(), "source": "generated"})
    assert any(line.startswith("games: GENERATED") for line in generated.plan())


def looping_brain() -> Scripted:
    """The brain, its router always turning from the conscious node to focus (a model that
    loops through the focus node); the step budget makes the motor act once a turn."""
    return Scripted(scripts={"router": ['{"next": "focus"}'] * 10_000})


async def test_the_transition_budget_ends_a_looping_game_and_is_counted(tmp_path: Path) -> None:
    root = tmp_path / "data"
    cache = tmp_path / "cache"
    cache.mkdir()
    await write_valid_unseen(root, cache)
    params = {**OOD, "official": str(root), "max_steps": 50, "max_transitions": 40}
    model = Model(FunctionModel(looping_brain()), provider="fake", model="fake", fake=True)
    ctx = trial_context(model, agent="episodex", params={"embedder": "hash"})
    out = await build_task("alfworld", params).run_trial(ctx)
    assert isinstance(out.payload, AlfworldPayload)
    assert out.payload.max_transitions == 40
    for game in out.payload.games:
        # the first two turns walk to the step budget (16 steps) and the forced motor: 17
        # transitions each; the third is cut to what is left, 5 steps and the motor's
        assert game.ended_by == "transitions" and not game.won
        assert (game.transitions, game.actions) == (40, 3)
        assert game.budget_ended_steps == [1, 2, 3]
    unlimited = build_task("alfworld", {**params, "max_transitions": None, "max_steps": 4})
    free = await unlimited.run_trial(
        trial_context(
            Model(FunctionModel(looping_brain()), provider="fake", model="fake", fake=True),
            agent="episodex",
            params={"embedder": "hash"},
        )
    )
    assert isinstance(free.payload, AlfworldPayload)
    assert all(g.ended_by == "actions" and g.transitions == 68 for g in free.payload.games)


def holding(prompt: str) -> str:
    """A well-formed command the game cannot admit at the start: placing what is not held."""
    found = re.search(r"you see a (\w+ \d+)", prompt)
    assert found is not None, prompt
    return f"move apple 1 to {found.group(1)}"


@pytest.mark.parametrize("reply", ["admissible_list", "nothing_happens"])
async def test_the_papers_inadmissible_reply_reaches_the_agent_when_chosen(
    reply: str, tmp_path: Path
) -> None:
    root = tmp_path / "data"
    cache = tmp_path / "cache"
    cache.mkdir()
    await write_valid_unseen(root, cache)
    shown: list[str] = []

    def react(pairs: Any, seed: int, call: Any) -> str:
        shown.append(pairs[-1][1])
        return f"ACTION: [{holding(shown[0])}]"

    params = {
        "curriculum": [{"split": "ood", "games": 1}],
        "official": str(root),
        "max_steps": 2,
        "inadmissible_reply": reply,
    }
    model = Model(pairs_model(react), provider="fake", model="fake", fake=True)
    out = await build_task("alfworld", params).run_trial(trial_context(model))
    assert isinstance(out.payload, AlfworldPayload)
    (game,) = out.payload.games
    command = holding(shown[0])
    paper = (
        f"The action {command} is not in the list of admissible actions for the current timestep."
    )
    expected = paper if reply == "admissible_list" else "Nothing happens."
    assert [s.feedback for s in game.transcript] == [expected, expected]
    assert all(s.inadmissible for s in game.transcript) and game.inadmissible_actions == 2
    assert expected in shown[1]  # the next turn's observation is the answer
    assert (paper in shown[1]) is (reply == "admissible_list")


async def test_outputs_held_back_are_counted_per_game(tmp_path: Path) -> None:
    root = tmp_path / "data"
    cache = tmp_path / "cache"
    cache.mkdir()
    await write_valid_unseen(root, cache)
    brain = Scripted(scripts={"motor": ["", "fly to the moon"]})
    model = Model(FunctionModel(brain), provider="fake", model="fake", fake=True)
    ctx = trial_context(model, agent="episodex", params={"embedder": "hash"})
    params = {**OOD, "official": str(root), "max_steps": 3}
    out = await build_task("alfworld", params).run_trial(ctx)
    assert isinstance(out.payload, AlfworldPayload)
    first, second = out.payload.games
    assert first.held_back == 2 and second.held_back == 0
    assert [f["reason"] for f in first.focus] == ["empty", "off_task"]
    # the held-back outputs cost no action, but their turn walked on: more than the autopilot's
    # four transitions per action
    assert first.transitions is not None and first.transitions > 4 * first.actions


async def test_the_paper_configs_task_plays_the_official_games_found_in_alfworld_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "downloaded"
    cache = tmp_path / "cache"
    cache.mkdir()
    files = await write_valid_unseen(root, cache)
    monkeypatch.setenv("ALFWORLD_DATA", str(root))
    task = load_run_config(ROOT / "experiments" / "configs" / "episodex_paper.yaml").task
    params = {**task.params(), "curriculum": [{"split": "ood", "games": 2}]}
    out = await build_task(task.kind, params).run_trial(trial_context(player_model("oracle")))
    assert isinstance(out.payload, AlfworldPayload)
    assert out.payload.max_transitions == 100 and out.payload.max_steps == 50
    assert sorted(g.game for g in out.payload.games) == sorted(str(f) for f in files)
    assert all(g.source == "official" and g.won for g in out.payload.games)
    with pytest.raises(ConfigError, match="fewer than the 134 asked"):
        await build_task(task.kind, task.params()).run_trial(trial_context(player_model("oracle")))
