"""Revision scenarios: deterministic checks, scripted agents that pass and fail, and footprints."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from autogen_core.models import LLMMessage
from pydantic import ValidationError

from cogarch.core.host import ReplyReport
from cogarch.core.task import TrialContext
from cogarch.models import FunctionModel, Model, as_pairs
from cogarch.models.fakes import CallInfo
from cogarch.tasks.revision.checks import mentions, normalize
from cogarch.tasks.revision.records import RevisionEvaluation
from cogarch.tasks.revision.scenarios import SCENARIOS, Round, Scenario, get_scenario
from cogarch.tasks.revision.task import RevisionTask, run_revision
from cogarch.tasks.scenario_choice import scenario_for_trial
from cogarch.workspace.spec import build_agent, load_agent_spec


class ScriptedAgent:
    """Answers each round from the script: the current values plus what the round asks for.

    ``stale`` also repeats every replaced value; ``forget`` leaves one value out. It offers
    the capabilities the revision task asks of a host (``RevisionHost``), and no task state.
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        stale: bool = False,
        forget: str | None = None,
        confused_at: int | None = None,
    ) -> None:
        self.scenario, self.stale, self.forget = scenario, stale, forget
        self.confused_at = confused_at
        self.round = -1
        self.state_sizes: list[int] = []

    async def respond(self, text: str) -> str:
        self.round += 1
        spec = self.scenario.rounds[self.round]
        assert text == spec.user
        said = [*self.scenario.current(self.round), *spec.must_mention]
        if self.stale:
            said += self.scenario.replaced(self.round)
        said = [s for s in said if s != self.forget]
        self.state_sizes.append(5 * (self.round + 1))
        return "Noted: " + ", ".join(dict.fromkeys(said)) + "."

    def private_state(self) -> str:
        return ""

    def task_state(self) -> dict[str, str] | None:
        return None

    def last_reply(self) -> ReplyReport:
        return ReplyReport(state_tokens=self.state_sizes[-1] if self.state_sizes else None)


class StatefulAgent(ScriptedAgent):
    """Also exposes its task state, which is the script's unless ``confused_at`` kicks in."""

    def task_state(self) -> dict[str, str]:
        state = {
            k: v if isinstance(v, str) else ", ".join(v)
            for k, v in self.scenario.rounds[self.round].expected.items()
        }
        if self.confused_at is not None and self.round + 1 >= self.confused_at:
            state["origin"] = "Phoenix"
        return state


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_an_agent_that_keeps_current_values_passes_every_round(name: str) -> None:
    scenario = get_scenario(name)
    result = await run_revision(ScriptedAgent(scenario), scenario)
    assert result.consistent and result.final_summary_ok
    assert result.rounds_passed == len(scenario.rounds)
    assert result.stale_mentions == 0 and result.missing_mentions == 0
    assert result.state_errors is None
    assert [f.memory_tokens for f in result.footprint] == [
        5 * i for i in range(1, len(scenario.rounds) + 1)
    ]


@pytest.mark.parametrize(
    ("name", "replaced"),
    [
        ("trip", ["May 3", "Porto"]),
        ("cooking", ["carrots"]),
        ("meeting", ["10 AM", "1 PM", "9:30 AM"]),
        ("cart", ["blue water bottle", "red water bottle"]),
        ("form", ["Ana Ruiz"]),
    ],
)
async def test_repeating_replaced_values_fails_the_final_summary(
    name: str, replaced: list[str]
) -> None:
    scenario = get_scenario(name)
    result = await run_revision(ScriptedAgent(scenario, stale=True), scenario)
    final = result.rounds[-1]
    assert not result.final_summary_ok and not result.consistent
    assert final.stale == replaced and final.missing == []
    assert result.stale_mentions == 1  # only the summary forbids replaced values
    assert all(r.passed for r in result.rounds[:-1])


async def test_forgetting_a_current_value_is_a_missing_mention() -> None:
    scenario = get_scenario("trip")
    result = await run_revision(ScriptedAgent(scenario, forget="Denver"), scenario)
    failed = [r.round for r in result.rounds if not r.passed]
    assert failed == [3, 9, 10]
    assert result.replies_ok == result.rounds_passed == 7
    assert result.rounds[8].missing == ["Denver"] and result.missing_mentions == 3
    # judged from the replies, so an agent with no task state has confusions too
    assert result.state_errors is None
    assert [r.round for r in result.rounds if r.confused] == [9]  # the check, not the set
    assert result.confusions == 1 and result.stale_mentions == 0
    assert not result.consistent_replies


async def test_hallucinations_confusions_and_consistency_for_every_agent() -> None:
    scenario = get_scenario("trip")
    task = RevisionTask(RevisionTask.Params(scenario=["trip"]))
    for agent, expected in [
        (ScriptedAgent(scenario), (0, 0, 1)),
        (ScriptedAgent(scenario, forget="Porto"), (0, 1, 0)),  # the revision was not taken up
        (ScriptedAgent(scenario, stale=True), (1, 0, 0)),  # stale only at the summary
        (StatefulAgent(scenario, confused_at=9), (0, 0, 1)),  # the replies were right
    ]:
        context = TrialContext(
            agent_name="a",
            trial=0,
            seed=1,
            agent_factory=lambda agent=agent: agent,  # type: ignore[misc]
            models=lambda name: None,
            helper_provider=None,
        )
        evaluation = (await task.run_trial(context)).evaluation
        assert isinstance(evaluation, RevisionEvaluation)
        counted = (evaluation.hallucinations, evaluation.confusions, evaluation.consistent_task)
        assert counted == expected
    assert RevisionTask.scoring.totals == ("hallucinations", "confusions", "consistent_task")


async def test_an_exposed_task_state_is_checked_each_round() -> None:
    scenario = get_scenario("trip")
    good = await run_revision(StatefulAgent(scenario), scenario)
    assert good.state_errors == 0 and all(r.state_ok for r in good.rounds)
    confused = await run_revision(StatefulAgent(scenario, confused_at=9), scenario)
    assert confused.state_errors == 2
    assert confused.replies_ok == len(scenario.rounds)  # the replies were right all along
    assert confused.rounds_passed == len(scenario.rounds) - 2
    assert confused.rounds[8].state_missing == ["Denver"] and confused.rounds[8].reply_ok
    assert not confused.consistent


def test_normalisation_of_times_ordinals_and_punctuation() -> None:
    assert normalize("Meet at 11:00 a.m. on the 9th!") == "meet at 11 am on the 9"
    assert normalize("Marco at 9:30am; Lena at 1PM.") == "marco at 9:30 am lena at 1 pm"
    assert normalize("**Email**: ana.ruiz@example.org") == "email ana.ruiz@example.org"


@pytest.mark.parametrize(
    ("text", "value", "aliases", "expected"),
    [
        ("We meet at 11 AM.", "1 PM", (), False),
        ("See you at 1 p.m.", "1 PM", (), True),
        ("Departure: 9th of May", "May 9", ("9 of May",), True),
        ("Departure: May 30", "May 3", (), False),
        ("contact ana.ruiz@example.org", "Ana Ruiz", (), False),
        ("Yoga-mat and bands", "yoga mat", (), True),
        ("one carrot", "carrots", ("carrot",), True),
    ],
)
def test_mentions_are_whole_word_matches(
    text: str, value: str, aliases: tuple[str, ...], expected: bool
) -> None:
    assert mentions(text, value, aliases) is expected


def test_scenarios_end_with_a_summary_and_track_replaced_values() -> None:
    with pytest.raises(ValidationError, match="must end with a 'summary' round"):
        Scenario(name="x", description="", rounds=[Round(user="hi")])
    trip = get_scenario("trip")
    assert trip.replaced(4) == ["Lisbon"]  # Porto is current after round 5 ...
    assert trip.replaced(6) == ["May 3", "Porto"]  # ... and Lisbon again after round 7
    with pytest.raises(KeyError, match="valid names: trip, cooking"):
        get_scenario("nope")
    with pytest.raises(ValidationError, match="unknown scenario"):
        RevisionTask.Params(scenario="nope")


FORM_INTENTS: dict[str, list[dict[str, Any]]] = {
    "Help me fill in a registration form; I'll give you my details one by one.": [
        {"intent": "new", "slot": "form", "value": "registration form"}
    ],
    "My name is Ana Ruiz.": [
        {"intent": "new", "slot": "name", "value": "Ana Ruiz", "parent": "form"}
    ],
    "My email address is ana.ruiz@example.org.": [
        {"intent": "new", "slot": "email", "value": "ana.ruiz@example.org", "parent": "form"}
    ],
    "I live at 12 Harbor Lane, Portland.": [
        {"intent": "new", "slot": "address", "value": "12 Harbor Lane, Portland", "parent": "form"}
    ],
    "Sorry, a correction: my name is Ana Moreno.": [
        {"intent": "update", "slot": "name", "value": "Ana Moreno", "replaces": "Ana Ruiz"}
    ],
    "Read my details back to me, then submit the form.": [{"intent": "check", "slot": "all"}],
}
_STATE_LINE = re.compile(r"^\s*- (\w+): (.+)$", re.MULTILINE)


def form_models() -> Callable[[str], Model]:
    """Classifier by table; the responder repeats the values its prompt shows."""

    def reply(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        pairs = as_pairs(messages)
        if pairs[0][1].startswith("You classify"):
            text = pairs[-1][1].rsplit("Message: ", 1)[1]
            return json.dumps({"intents": FORM_INTENTS[text]})
        shown = _STATE_LINE.findall(pairs[0][1])
        return "Noted. " + "; ".join(f"{k}: {v}" for k, v in shown)

    model = Model(FunctionModel(reply), provider="fake", model="fake", fake=True)
    return lambda name: model


async def test_the_tme_agent_passes_the_form_with_a_smaller_footprint_than_replay() -> None:
    scenario = get_scenario("form")
    tme = build_agent(load_agent_spec("tme"), form_models(), provider="fake")
    replay = build_agent(load_agent_spec("transcript"), form_models(), provider="fake")
    graph = await run_revision(tme, scenario)
    flat = await run_revision(replay, scenario)
    assert graph.consistent and graph.state_errors == 0
    assert flat.state_errors is None
    flat_tokens = [f.memory_tokens or 0 for f in flat.footprint]
    assert flat_tokens == sorted(flat_tokens) and flat_tokens[-1] > 2 * flat_tokens[1]
    assert all(f.model_calls == 2 for f in graph.footprint)
    last = graph.footprint[-1]
    assert last.prompt_tokens is not None and last.responder_prompt_tokens is not None
    assert last.prompt_tokens > last.responder_prompt_tokens  # the classifier's call counts too


async def test_the_task_plays_its_scenarios_round_robin_and_records_which() -> None:
    task = RevisionTask(RevisionTask.Params(scenario=["form", "cart"]))

    def context(trial: int) -> TrialContext:
        return TrialContext(
            agent_name="tme",
            trial=trial,
            seed=trial,
            agent_factory=lambda: build_agent(
                load_agent_spec("tme"), form_models(), provider="fake"
            ),
            models=form_models(),
            helper_provider=None,
        )

    first = await task.run_trial(context(0))
    assert first.evaluation.scenario == "form"
    assert first.evaluation.outcome == "consistent"
    assert len(first.turns) == len(get_scenario("form").rounds)
    assert "Ana Moreno" in first.payload.final_private_state  # the task graph, as text
    assert task.params.scenario[1] == "cart"
    assert scenario_for_trial(task.params.scenario, 3) == "cart"
