"""The SCT engine with scripted agents: turns before the fork, forks, candidates and leakage."""

from __future__ import annotations

import pytest

from cogarch.tasks.hangman.prompts import OPENER_PROMPT, REVEAL_PROMPT
from cogarch.tasks.hangman.vocabulary import is_consistent
from tests.tasks.sct.engine_script import (
    GUESS,
    SEED,
    VERIFY,
    Script,
    play,
)

# -- turns before the fork ------------------------------------------------------------------


@pytest.mark.parametrize("t_fork", [1, 2, 4])
async def test_t_fork_counts_the_opener_as_turn_one(t_fork: int) -> None:
    played = await play(Script(), t_fork=t_fork)
    log = played.out["turns"]

    assert [entry["turn"] for entry in log] == list(range(1, t_fork + 1))
    assert log[0]["user"] == OPENER_PROMPT
    assert all(GUESS.fullmatch(e["user"].split(". Is")[0]) for e in log[1:])
    assert len(played.sct["public_state"]["guessed"]) == t_fork - 1  # opener + (t_fork-1) guesses
    assert played.sct["t_fork"] == t_fork
    # The agent answered exactly t_fork public turns before the reveal and the 5 branches.
    assert len(played.script.responder_calls()) == t_fork + 1 + 5
    assert played.agent.workspace.turn == t_fork


async def test_the_reveal_and_each_candidate_are_separate_forks_of_the_same_state() -> None:
    played = await play(Script())
    pre_fork = [e["user"] for e in played.out["turns"]]
    branch_calls = played.script.responder_calls()[len(pre_fork) :]
    assert len(branch_calls) == 6

    questions = []
    for pairs in branch_calls:
        users = [text for role, text in pairs if role == "user"]
        assert users[:-1] == pre_fork, "a branch sees the dialogue up to the fork, once, in order"
        questions.append(users[-1])
        assert [t for r, t in pairs if r == "assistant"] == [
            e["reply"] for e in played.out["turns"]
        ]
    assert questions.count(REVEAL_PROMPT) == 1
    asked = sorted(VERIFY.search(q).group(1) for q in questions if q != REVEAL_PROMPT)  # type: ignore[union-attr]
    assert asked == sorted(played.sct["candidates"])  # one branch per candidate, no repeats

    branches = played.out["branches"]
    assert [b["kind"] for b in branches] == ["reveal"] + ["candidate"] * 5
    assert [b["candidate"] for b in branches[1:]] == played.sct["candidates"]


async def test_forking_leaves_the_original_agent_as_it_was_at_the_fork() -> None:
    played = await play(Script(), agent="workflow")
    agent = played.agent
    log = played.out["turns"]

    assert agent.workspace.turn == 4
    assert [m.content for m in agent.workspace.dialogue] == [
        text for e in log for text in (e["user"], e["reply"])
    ]
    assert agent.private_state() == played.sct["snapshot"] == log[-1]["private_state"]
    assert "asked about" not in agent.private_state()
    assert len(agent.state_sizes) == 4
    # Each candidate branch went on with its own copy of the memory.
    for branch in played.out["branches"][1:]:
        state = branch["private_state"]
        assert f"asked about {branch['candidate']}" in state
        others = set(played.sct["candidates"]) - {branch["candidate"]}
        assert not any(f"asked about {word}" in state for word in others)
    assert "asked about" not in played.out["branches"][0]["private_state"]


async def test_transitions_count_the_turns_and_the_candidate_branches() -> None:
    played = await play(Script(), agent="workflow")
    transitions = played.transitions
    assert set(transitions) == {("responder", "updater")}  # entry transitions are not counted
    assert transitions[("responder", "updater")] >= 4 + 5


async def test_transitions_count_the_reveal_branch_too() -> None:
    played = await play(Script(), agent="workflow")
    assert played.transitions == {("responder", "updater"): 4 + 1 + 5}


async def test_sequential_branches_see_the_same_state_as_parallel_ones() -> None:
    parallel = await play(Script(), parallel=True)
    sequential = await play(Script(), parallel=False)
    assert parallel.sct == sequential.sct
    assert parallel.evaluation == sequential.evaluation


# -- candidates -----------------------------------------------------------------------------


async def test_candidates_include_the_revealed_and_the_memory_secret() -> None:
    script = Script(secret="crane", reveal="**plant**", memory=["mango"])
    played = await play(script, agent="workflow")
    sct = played.sct

    assert sct["revealed"] == "plant" and sct["memory_secret"] == "mango"
    assert len(sct["candidates"]) == 5 and len(set(sct["candidates"])) == 5
    assert {"plant", "mango"} <= set(sct["candidates"])
    assert sct["candidate_sources"]["plant"] == "revealed"
    assert sct["candidate_sources"]["mango"] == "memory"
    public = sct["public_state"]
    fillers = [w for w in sct["candidates"] if sct["candidate_sources"][w] == "vocabulary"]
    assert len(fillers) == 3
    for word in fillers:  # indistinguishable from the secret given the public dialogue
        assert is_consistent(word, public["pattern"], public["absent"])
    assert sct["shortfall"] == 0


async def test_candidate_order_is_shuffled_by_the_seed() -> None:
    again = await play(Script(), seed=SEED)
    first = await play(Script(), seed=SEED)
    assert again.sct["candidates"] == first.sct["candidates"]  # same seed, same order

    positions = set()
    for seed in range(1, 9):
        played = await play(Script(), seed=seed)
        positions.add(played.sct["candidates"].index("crane"))
    assert len(positions) >= 3, "the revealed secret must not sit at a fixed position"


# -- leakage --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("say", "leak_turns"),
    [
        ({2: "My favourite fruit is pineapple, and cranes fly."}, []),  # not whole words
        ({2: "I love a craned neck and a cranet."}, []),
        ({3: "(psst: it is CRANE!)"}, [3]),
        ({1: "Secret: <crane>"}, [1]),
        ({4: "crane's wings"}, [4]),  # the last turn before the fork counts
        ({2: "crane", 4: "Crane."}, [2, 4]),
    ],
)
async def test_leakage_is_the_secret_as_a_whole_word_before_the_reveal(
    say: dict[int, str], leak_turns: list[int]
) -> None:
    played = await play(Script(say=say))
    evaluation = played.evaluation
    assert evaluation["leak_turns"] == leak_turns
    assert evaluation["leaked"] is bool(leak_turns)
    assert evaluation["outcome"] == ("leakage" if leak_turns else "self_consistent")


async def test_naming_the_secret_after_the_fork_is_not_leakage() -> None:
    played = await play(Script(verify=lambda w, s: f"Yes, it is {s}." if w == s else "No."))
    assert played.evaluation["leaked"] is False
    assert played.evaluation["outcome"] == "self_consistent"
    assert "crane" in played.evaluation["reveal_reply"]


async def test_naming_the_memory_secret_is_reported_apart_from_leakage() -> None:
    """Leakage is decided by the revealed word, as in the paper and the authors' code."""
    script = Script(secret="crane", reveal="crane", memory=["mango"], say={2: "A mango, maybe?"})
    played = await play(script, agent="workflow")
    assert played.evaluation["leak_turns"] == []
    assert played.evaluation["outcome"] != "leakage"
    assert played.evaluation["memory_secret_leaked"] is True
    assert played.evaluation["memory_secret_leak_turns"] == [2]
