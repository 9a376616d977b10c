"""The Diagnosis SCT task end to end on the scripted patients: the trial record and the seeded
resident."""

from __future__ import annotations

from typing import Any

from cogarch.models import ProviderConfig, Providers
from cogarch.tasks.diagnosis.patients import hidden_condition
from cogarch.tasks.diagnosis.prompts import OPENER, REVEAL_REQUEST, verification_prompt
from cogarch.tasks.diagnosis.task import DiagnosisParams, DiagnosisSCT, diagnosis_game
from cogarch.tasks.fakes import task_fakes
from cogarch.tasks.registry import build_task
from tests.tasks.sct.trials import (
    assert_the_player_follows_the_seed,
    play_record,
    questions,
    trial_context,
)

SEED = 90210


async def play(
    patient: str = "honest", *, agent: str = "vanilla", seed: int = SEED
) -> dict[str, Any]:
    providers = Providers(
        {"patient": ProviderConfig(kind="fake", fake=f"diagnosis.{patient}")}, fakes=task_fakes()
    )
    ctx = trial_context(providers, "patient", agent=agent, seed=seed)
    task = build_task("diagnosis_sct", {"t_fork": 4, "n_candidates": 5})
    assert isinstance(task, DiagnosisSCT)
    out = await play_record(task, ctx)
    await providers.aclose()
    return out


async def test_a_trial_record_has_the_log_branches_sct_block_and_evaluation() -> None:
    out = await play("honest", agent="workflow")
    condition = hidden_condition(SEED).name

    assert {"turns", "branches", "payload", "evaluation", "transitions"} <= set(out)
    log = out["turns"]
    assert [e["turn"] for e in log] == [1, 2, 3, 4]
    assert log[0]["user"] == OPENER
    assert all(q.rstrip().endswith("?") for q in questions(out)[1:])
    for entry in log:
        assert entry["reply"] and condition not in entry["reply"]
        assert f"<secret>{condition}</secret>" in entry["private_state"]

    sct = out["payload"]
    assert sct["t_fork"] == 4
    assert sct["revealed"] == sct["memory_secret"] == condition
    assert len(sct["candidates"]) == 5 and condition in sct["candidates"]
    public = sct["public_state"]
    assert len(public["asked"]) == 3
    assert set(public["affirmed"]) | set(public["denied"]) == set(public["asked"])
    assert condition in public["consistent"]  # an honest patient contradicts no profile

    branches = out["branches"]
    assert branches[0]["kind"] == "reveal" and branches[0]["prompt"] == REVEAL_REQUEST
    assert branches[0]["parsed"] == condition
    for branch, name in zip(branches[1:], sct["candidates"], strict=True):
        assert branch["prompt"] == verification_prompt(name)
        assert branch["answer"] == ("yes" if name == condition else "no")

    evaluation = out["evaluation"]
    assert evaluation["outcome"] == "self_consistent"
    assert evaluation["sct_yes_correct"] == 1
    assert evaluation["wm_secret_summary"]["secret_stable"] is True


async def test_the_player_is_reproducible_from_the_seed() -> None:
    await assert_the_player_follows_the_seed(play, SEED)


def test_the_game_asks_the_same_questions_for_the_same_seed_and_answers() -> None:
    def asked(seed: int) -> list[str]:
        game = diagnosis_game(seed, top_k=5).player
        game.opener()
        out = []
        for _ in range(5):
            out.append(game.next_message())
            game.observe("No.")
        return out

    assert asked(11) == asked(11)
    assert asked(11) != asked(12)
    assert len(set(asked(11))) == 5  # never the same question twice


async def test_outcomes_of_the_other_patients() -> None:
    assert (await play("leaky"))["evaluation"]["outcome"] == "leakage"
    assert (await play("denier"))["evaluation"]["outcome"] == "all_denial"
    forgetful = await play("forgetful")
    assert forgetful["evaluation"]["outcome"] in {"over_confirmation", "state_substitution"}


def test_task_parameters() -> None:
    task = build_task("diagnosis_sct", {"top_k": 3})
    assert isinstance(task.params, DiagnosisParams)
    assert (task.params.t_fork, task.params.n_candidates, task.params.top_k) == (4, 5, 3)
