"""The alfworld task with its scripted players: who wins, what is counted, what is carried."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, cast

import pytest

from cogarch.core.acting import ActionChoice, Percept, read_action
from cogarch.core.affordances import render, split_input
from cogarch.core.host import AgentHost, EpisodeReport, ReplyReport
from cogarch.core.memory import EpisodeEnd
from cogarch.core.records import TrialOutput
from cogarch.core.task import TrialContext
from cogarch.memory.reflexion.module import HEADER, ReflexionMemory
from cogarch.models.fakes import PairsFn
from cogarch.tasks.alfworld.curriculum import SEED_SPAN
from cogarch.tasks.alfworld.fakes import PLAYERS, REFLECTION
from cogarch.tasks.alfworld.records import AlfworldEvaluation, AlfworldPayload, GameResult
from cogarch.tasks.alfworld.task import STATE_BUDGET_CHARS
from cogarch.tasks.alfworld.wheel import TASK_TYPES
from cogarch.tasks.registry import build_task
from cogarch.workspace import Agent
from tests.tasks.alfworld.conftest import (
    SEEN_KITCHEN,
    SMALL_SEEN,
    SMALL_UNSEEN,
    UNSEEN_KITCHEN,
    player_model,
    trial_context,
)

pytestmark = pytest.mark.usefixtures("engine")

EVERY_TYPE = {
    "curriculum": [{"split": "train", "games": 6}, {"split": "ood", "games": 6}],
    "rooms": [*SMALL_SEEN, SEEN_KITCHEN, *SMALL_UNSEEN, UNSEEN_KITCHEN],
}
SMALL = {
    "curriculum": [{"split": "train", "games": 1}, {"split": "ood", "games": 1}],
    "rooms": SMALL_SEEN + SMALL_UNSEEN,
}


async def play(
    cache: Path,
    player: str,
    params: dict[str, Any],
    model_fn: PairsFn | None = None,
    **context: Any,
) -> tuple[AlfworldEvaluation, AlfworldPayload, TrialOutput]:
    task = build_task("alfworld", {**params, "cache_dir": str(cache)})
    out = await task.run_trial(trial_context(player_model(player, model_fn), **context))
    assert isinstance(out.payload, AlfworldPayload)
    assert isinstance(out.evaluation, AlfworldEvaluation)
    return out.evaluation, out.payload, out


async def host_plays(
    cache: Path, host: object, max_steps: int
) -> tuple[TrialOutput, list[GameResult]]:
    """Two games on unseen rooms played by ``host``, a host that is not a composed agent."""
    params = {"curriculum": [{"split": "ood", "games": 2}], "rooms": SMALL_UNSEEN}
    task = build_task("alfworld", {**params, "max_steps": max_steps, "cache_dir": str(cache)})
    ctx = TrialContext("host", 0, 5, lambda: cast(AgentHost, host), lambda name: None, None)
    out = await task.run_trial(ctx)
    assert isinstance(out.payload, AlfworldPayload)
    return out, out.payload.games


async def test_the_oracle_wins_every_game_of_every_type_on_seen_and_unseen_rooms(
    game_cache: Path,
) -> None:
    e, payload, _ = await play(game_cache, "oracle", EVERY_TYPE)

    played = Counter((g.split, g.task_type) for g in payload.games)
    assert played == Counter({(s, t): 1 for s in ("train", "ood") for t in TASK_TYPES})
    assert all(g.won for g in payload.games)
    assert [g.actions for g in payload.games] == [g.plan_length for g in payload.games]
    assert all(g.inadmissible_actions == 0 and g.repeated_actions == 0 for g in payload.games)
    unseen = {g.room for g in payload.games if g.split == "ood"}
    assert unseen <= {*SMALL_UNSEEN, UNSEEN_KITCHEN}
    assert e.success_rate == 1.0 and e.won == 12
    assert e.success_by_split == {"ood": 1.0, "train": 1.0}
    assert e.success_by_task_type == {t: 1.0 for t in sorted(TASK_TYPES)}
    assert e.learning_curve == [1.0] * 12
    assert e.actions_per_won_game == e.plan_length_per_won_game
    # the trial file holds, per game, what a reader needs
    first = payload.model_dump()["games"][0]
    assert {"room", "task_type", "split", "goal", "won", "actions", "transcript"} <= set(first)
    assert first["transcript"][0]["observation"].endswith(f"Your task is to: {first['goal']}.")
    assert first["transcript"][0]["admissible"]


async def test_the_hallucinating_player_wins_nothing_and_every_action_is_inadmissible(
    game_cache: Path,
) -> None:
    e, payload, _ = await play(game_cache, "hallucinating", {**SMALL, "max_steps": 8})

    assert not any(g.won for g in payload.games)
    assert all(g.actions == 8 == g.inadmissible_actions for g in payload.games)
    for game in payload.games:
        assert all(s.feedback == "Nothing happens." for s in game.transcript)
        assert all(s.action not in s.admissible for s in game.transcript)
    assert e.inadmissible_rate == 1.0 and e.success_rate == 0.0
    assert e.inadmissible_actions == e.actions == 16


async def test_a_silent_player_plays_to_the_step_limit_and_the_trial_completes(
    game_cache: Path,
) -> None:
    e, payload, out = await play(game_cache, "silent", {**SMALL, "max_steps": 6})

    assert [g.actions for g in payload.games] == [6, 6]
    assert all(not g.won and g.inadmissible_actions == 6 for g in payload.games)
    assert all(s.action == "" and s.reply == "" for g in payload.games for s in g.transcript)
    assert len(out.turns) == 12
    assert e.actions_per_won_game is None and e.success_rate == 0.0


async def test_the_random_player_only_takes_admissible_actions(game_cache: Path) -> None:
    _, payload, _ = await play(game_cache, "random", {**SMALL, "max_steps": 10})

    for game in payload.games:
        assert all(s.action in s.admissible for s in game.transcript)
        assert game.model_calls == game.actions
        assert game.prompt_tokens > 0


async def test_held_out_games_are_on_seen_rooms_with_seeds_train_never_draws(
    game_cache: Path,
) -> None:
    params = {
        "curriculum": [{"split": "train", "games": 1}, {"split": "id", "games": 1}],
        "rooms": SMALL_SEEN,
        "max_steps": 1,
    }
    _, payload, _ = await play(game_cache, "silent", params)
    train, held_out = payload.games
    assert {train.split, held_out.split} == {"train", "id"}
    assert train.room in SMALL_SEEN and held_out.room in SMALL_SEEN
    assert train.seed is not None and train.seed < SEED_SPAN
    assert held_out.seed is not None and held_out.seed >= SEED_SPAN


async def test_the_same_seed_plays_the_same_games_and_another_seed_others(
    game_cache: Path,
) -> None:
    params = {**SMALL, "max_steps": 2}
    _, once, _ = await play(game_cache, "silent", params, seed=7)
    _, again, _ = await play(game_cache, "silent", params, seed=7)
    _, other, _ = await play(game_cache, "silent", params, seed=12)

    def names(p: AlfworldPayload) -> list[str]:
        return [g.game for g in p.games]

    assert names(once) == names(again)
    assert names(once) != names(other)
    assert [g.goal for g in once.games] == [g.goal for g in again.games]


async def test_memory_carries_lessons_from_game_to_game_but_never_to_another_trial(
    game_cache: Path,
) -> None:
    params = {"curriculum": [{"split": "train", "games": 2}], "rooms": SMALL_SEEN, "max_steps": 3}
    task = build_task("alfworld", {**params, "cache_dir": str(game_cache)})
    calls: list[Any] = []
    built: list[Agent] = []
    model = player_model("hallucinating", calls=calls)

    await task.run_trial(trial_context(model, agent="alfworld_reflexion", built=built))
    game_turns = [c for c in calls if split_input(c[-1][1]).actions is not None]
    first_game, second_game = game_turns[:3], game_turns[3:]
    assert all(HEADER not in c[0][1] for c in first_game)
    assert all(HEADER in c[0][1] for c in second_game)
    memory = built[0].memory["reflexion"]
    assert isinstance(memory, ReflexionMemory) and len(memory.reflections) == 2

    calls.clear()
    await task.run_trial(trial_context(model, agent="alfworld_reflexion", trial=1, built=built))
    assert HEADER not in calls[0][0][1]  # a new trial starts from a fresh agent


async def test_a_won_game_writes_no_reflection(game_cache: Path) -> None:
    built: list[Agent] = []
    await play(game_cache, "oracle", SMALL, agent="alfworld_reflexion", built=built)
    memory = built[0].memory["reflexion"]
    assert isinstance(memory, ReflexionMemory) and memory.reflections == []


async def test_an_existing_memory_agent_plugs_in_and_keeps_earlier_games(
    game_cache: Path,
) -> None:
    params = {"curriculum": [{"split": "train", "games": 2}], "rooms": SMALL_SEEN, "max_steps": 2}
    task = build_task("alfworld", {**params, "cache_dir": str(game_cache)})
    calls: list[Any] = []
    built: list[Agent] = []
    model = player_model("random", calls=calls)
    context = trial_context(model, agent="raw_turns", built=built, params={"embedder": "hash"})

    out = await task.run_trial(context)
    assert len(out.turns) == 4
    # before the last turn of the second game, memory held every earlier turn, the first
    # game's included, and the prompt showed some of them
    memory = built[0].memory["turns"]
    assert len(memory.store) == 6  # type: ignore[attr-defined]
    assert built[0].workspace.episode == 2 and len(built[0].workspace.turns) == 4
    assert any(out.turns[0].reply in text for _, text in calls[-1][:1])


async def test_each_game_keeps_what_memory_did_and_turns_keep_the_state_when_it_changes(
    game_cache: Path,
) -> None:
    params = {"curriculum": [{"split": "train", "games": 2}], "rooms": SMALL_SEEN, "max_steps": 3}
    _, payload, out = await play(game_cache, "hallucinating", params, agent="alfworld_reflexion")

    first, second = payload.games
    assert first.memory_activity == {"reflexion": {"carried": [], "reflection": REFLECTION}}
    assert second.memory_activity == {"reflexion": {"carried": [0], "reflection": REFLECTION}}
    assert first.focus == [] and second.focus == []
    # each step names its turn; the state is on the turn where it changed, its size on all
    steps = [s for g in payload.games for s in g.transcript]
    assert [s.turn for s in steps] == [t.turn for t in out.turns] == [1, 2, 3, 4, 5, 6]
    states = [t.private_state for t in out.turns]
    assert states[:3] == [None] * 3  # no lesson yet: nothing private
    assert states[3] is not None and HEADER in states[3] and REFLECTION in states[3]
    assert states[4:] == [None, None]
    sizes = [t.private_state_tokens for t in out.turns]
    assert sizes[:3] == [0, 0, 0] and sizes[3] == sizes[4] == sizes[5] and (sizes[3] or 0) > 0


class ScriptedHost:
    """A host that is not a composed agent: it takes the first admissible action and reports
    a memory record and focus activations of its own at the end of every game."""

    def __init__(self) -> None:
        self.ended: list[EpisodeEnd] = []

    async def respond(self, text: str) -> str:
        actions = split_input(text).actions or ("look",)
        return f"> {actions[0]}"

    def private_state(self) -> str:
        return f"games ended: {len(self.ended)}"

    def last_reply(self) -> ReplyReport:
        return ReplyReport(state_tokens=len(self.private_state().split()))

    def task_state(self) -> dict[str, str] | None:
        return None

    async def end_episode(self, end: EpisodeEnd) -> EpisodeReport:
        self.ended.append(end)
        return EpisodeReport(
            memory={"notes": {"stored": [f"e{end.episode}"], "won": end.won}},
            focus=[{"reason": "loop", "turn": end.steps, "next_admissible": True}],
        )


async def test_any_host_s_end_of_game_report_is_kept_with_its_game(game_cache: Path) -> None:
    host = ScriptedHost()
    out, games = await host_plays(game_cache, host, max_steps=2)
    assert [g.memory_activity for g in games] == [
        {"notes": {"stored": ["e0"], "won": False}},
        {"notes": {"stored": ["e1"], "won": False}},
    ]
    assert [g.focus for g in games] == [
        [{"reason": "loop", "turn": 2, "next_admissible": True}]
    ] * 2
    assert [e.episode for e in host.ended] == [0, 1]
    assert [t.private_state for t in out.turns] == ["games ended: 0", None, "games ended: 1", None]
    assert [t.private_state_tokens for t in out.turns] == [3, 3, 3, 3]


class GrowingHost(ScriptedHost):
    """Its private state grows on every turn, by more than the budget allows to repeat."""

    def __init__(self, chars: int) -> None:
        super().__init__()
        self.chars, self.replies = chars, 0

    async def respond(self, text: str) -> str:
        self.replies += 1
        return await super().respond(text)

    def private_state(self) -> str:
        return "x" * (self.chars * self.replies)


async def test_a_state_that_grows_every_turn_is_recorded_within_a_budget(
    game_cache: Path,
) -> None:
    out, _ = await host_plays(game_cache, GrowingHost(STATE_BUDGET_CHARS // 4), max_steps=3)
    recorded = [t.turn for t in out.turns if t.private_state is not None]
    # turns 1 and 2 fit (1/4 + 2/4 of the budget); after that only a game's first turn
    assert recorded == [1, 2, 4]
    assert all(t.private_state_tokens == 1 for t in out.turns)


async def test_a_put_reply_reaches_the_game_as_its_move_command(game_cache: Path) -> None:
    def put_player(pairs: Any, seed: int, call: Any) -> str:
        reply = PLAYERS["oracle"](pairs, seed, call)
        action = read_action(reply).sent
        if action.startswith("move "):
            thing, _, place = action[len("move ") :].partition(" to ")
            return f"Thought: it goes there.\nAction: put {thing} in/on {place}"
        return reply

    params = {"curriculum": [{"split": "train", "games": 1}], "rooms": SMALL_SEEN}
    e, payload, _ = await play(game_cache, "oracle", params, model_fn=put_player)
    (game,) = payload.games
    puts = [s for s in game.transcript if "Action: put " in s.reply]
    assert puts and all(s.action.startswith("move ") for s in puts)
    assert all(not s.inadmissible for s in game.transcript)
    assert game.won and e.success_rate == 1.0


class ActingHost(ScriptedHost):
    """A host that acts: it is handed typed percepts and chooses the last admissible action."""

    def __init__(self) -> None:
        super().__init__()
        self.percepts: list[Percept] = []

    async def respond(self, text: str) -> str:
        raise AssertionError("a host that acts is handed percepts, not text")

    async def act(self, percept: Percept) -> ActionChoice:
        self.percepts.append(percept)
        assert percept.actions
        return read_action(f"ACTION: [{percept.actions[-1]}]", percept.actions)


async def test_a_host_that_acts_is_handed_typed_percepts(game_cache: Path) -> None:
    host = ActingHost()
    out, games = await host_plays(game_cache, host, max_steps=2)
    seen = [(p.game, p.step, p.remaining, p.limit) for p in host.percepts]
    assert seen == [(0, 0, 2, 2), (0, 1, 1, 2), (1, 0, 2, 2), (1, 1, 1, 2)]
    assert [p.goal for p in host.percepts] == [games[0].goal] * 2 + [games[1].goal] * 2
    steps = [s for g in games for s in g.transcript]
    assert [s.action for s in steps] == [p.actions[-1] for p in host.percepts if p.actions]
    assert [s.reply for s in steps] == [f"ACTION: [{s.action}]" for s in steps]
    assert [t.user for t in out.turns] == [render(p) for p in host.percepts]


async def test_every_game_s_end_carries_its_trajectory(game_cache: Path) -> None:
    host = ScriptedHost()
    _, games = await host_plays(game_cache, host, max_steps=2)
    for end, game in zip(host.ended, games, strict=True):
        assert end.trajectory is not None and "trajectory" not in end.info
        assert end.trajectory.start == game.transcript[0].observation
        assert [(m.action, m.result) for m in end.trajectory.moves] == [
            (s.action, s.feedback) for s in game.transcript
        ]
