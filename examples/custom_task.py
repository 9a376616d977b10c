"""A task of your own, written outside the framework: the agent guesses a number.

The player thinks of a whole number (drawn with the trial's seed) and the agent guesses; after
each guess the player says "higher", "lower" or "correct". A trial is ``solved`` when the agent
names the number within ``max_turns`` guesses, ``out_of_turns`` when it does not, and
``no_guesses`` when none of its replies named a number at all.

Everything a task brings is here: its parameters, its player, its payload (what only this
task reads back) and its evaluation (typed, with the outcome classes), its own table for the
report and its own section for a trial's page, the metrics a suite's leaderboard ranks it
by, and two fake models to play the agent, so the run needs no model. Nothing in the
framework is edited for it. From the repository root:

    cogarch run examples/custom_task.yaml
    cogarch report runs/custom_task
    cogarch view runs/custom_task --export runs/custom_task/site
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from statistics import fmean
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core import (
    Evaluation,
    LeaderboardMetric,
    Scoring,
    Section,
    Table,
    Task,
    TaskPayload,
    TrialContext,
    TrialOutput,
    TrialRecord,
    Turn,
)

OUTCOMES = ("solved", "out_of_turns", "no_guesses")
_NUMBER = re.compile(r"-?\d+")


class GuessParams(BaseModel):
    """The task's settings, read from the run config's ``task:`` section."""

    model_config = ConfigDict(extra="forbid")

    low: int = Field(default=1, description="The smallest number the player may think of.")
    high: int = Field(default=100, ge=2, description="The largest one.")
    max_turns: int = Field(default=10, ge=1, le=100, description="Guesses the agent gets.")


class GuessPlayer:
    """The scripted player: it holds the number and answers each guess."""

    def __init__(self, params: GuessParams, seed: int) -> None:
        self.low, self.high = params.low, params.high
        self.secret = random.Random(seed).randint(params.low, params.high)

    def opener(self) -> str:
        return (
            f"I am thinking of a whole number from {self.low} to {self.high}. "
            "Guess it: reply with one number."
        )

    def feedback(self, guess: int | None) -> str:
        if guess is None:
            return "That was not a number. Reply with one number."
        if guess == self.secret:
            return "Correct!"
        return "Higher." if guess < self.secret else "Lower."


def read_guess(reply: str) -> int | None:
    """The first whole number in a reply, if any."""
    found = _NUMBER.search(reply)
    return int(found.group()) if found else None


class Guess(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn: int
    said: int | None
    """The number the reply named (None: it named none)."""
    feedback: str


class GuessPayload(TaskPayload):
    """What only this task reads back: the secret and every guess with its feedback."""

    kind: Literal["guess"] = "guess"
    version: int = 1
    secret: int
    guesses: list[Guess]


class GuessEvaluation(Evaluation):
    """The outcome class and what the guesses say about the agent."""

    outcome: str | None = None
    guesses: int = 0
    """Replies that named a number."""
    invalid_replies: int = 0
    """Replies that named none."""
    ignored_feedback: int = 0
    """Guesses outside the range the earlier feedback had left open."""
    last_guess: int | None = None

    def final_answer(self) -> str | None:
        return None if self.last_guess is None else str(self.last_guess)


def evaluate(payload: GuessPayload, low: int, high: int) -> GuessEvaluation:
    open_low, open_high, ignored = low, high, 0
    for guess in payload.guesses:
        if guess.said is None:
            continue
        ignored += not open_low <= guess.said <= open_high
        if guess.feedback == "Higher.":
            open_low = max(open_low, guess.said + 1)
        elif guess.feedback == "Lower.":
            open_high = min(open_high, guess.said - 1)
    said = [g.said for g in payload.guesses if g.said is not None]
    solved = any(g.said == payload.secret for g in payload.guesses)
    outcome = "solved" if solved else ("out_of_turns" if said else "no_guesses")
    return GuessEvaluation(
        outcome=outcome,
        guesses=len(said),
        invalid_replies=len(payload.guesses) - len(said),
        ignored_feedback=ignored,
        last_guess=said[-1] if said else None,
    )


# -- fake models that play the agent (``kind: fake`` providers name them) -----------------


def _opening_range(pairs: Sequence[tuple[str, str]]) -> tuple[int, int]:
    """The range the player's opener names (its first two numbers)."""
    opener = next(text for role, text in pairs if role == "user")
    low, high = (int(n) for n in _NUMBER.findall(opener)[:2])
    return low, high


def _open_range(pairs: Sequence[tuple[str, str]]) -> tuple[int, int]:
    """The range the dialogue so far leaves open: the opener's, narrowed by each feedback."""
    low, high = _opening_range(pairs)
    feedback = [text for role, text in pairs if role == "user"][1:]
    guesses = [read_guess(text) for role, text in pairs if role == "assistant"]
    for guess, said in zip(guesses, feedback, strict=False):
        if guess is not None and said.startswith("Higher"):
            low = max(low, guess + 1)
        elif guess is not None and said.startswith("Lower"):
            high = min(high, guess - 1)
    return low, high


def bisecting_guesser(pairs: Sequence[tuple[str, str]], seed: int, call: object) -> str:
    """Halves the open range every turn: it solves within log2(range size) + 1 guesses."""
    low, high = _open_range(pairs)
    return f"My guess is {(low + high) // 2}."


def wild_guesser(pairs: Sequence[tuple[str, str]], seed: int, call: object) -> str:
    """Ignores the feedback: a fresh random number every turn (seeded by seed and turn)."""
    low, high = _opening_range(pairs)
    turn = sum(role == "assistant" for role, _ in pairs)
    return str(random.Random(f"{seed}:{turn}").randint(low, high))


# -- the task -------------------------------------------------------------------------------


class GuessTask(Task):
    """The number-guessing game as a runnable task."""

    kind: ClassVar[str] = "guess"
    Params: ClassVar[type[BaseModel]] = GuessParams
    scoring: ClassVar[Scoring] = Scoring(classes=OUTCOMES, success="solved")
    Payload = GuessPayload
    Evaluation = GuessEvaluation
    fakes: ClassVar = {"guess.bisect": bisecting_guesser, "guess.wild": wild_guesser}
    leaderboard: ClassVar = (  # what a suite's leaderboard ranks agents by on this task
        LeaderboardMetric(
            name="solve_rate",
            value="outcome",
            equals="solved",
            interval="wilson",
            description="share of games the agent named the number in",
        ),
        LeaderboardMetric(
            name="guesses",
            value="guesses",
            direction="lower",
            description="guesses a game took (paired over trials: same seed, same number)",
        ),
    )
    params: GuessParams

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        agent = ctx.make_agent()  # any host: it only needs to answer
        player = GuessPlayer(self.params, ctx.seed)
        message, turns, guesses = player.opener(), [], []
        for turn in range(1, self.params.max_turns + 1):
            reply = await agent.respond(message)
            said = read_guess(reply)
            feedback = player.feedback(said)
            turns.append(Turn(turn=turn, user=message, reply=reply))
            guesses.append(Guess(turn=turn, said=said, feedback=feedback))
            if feedback == "Correct!":
                break
            message = feedback + " Guess again."
        payload = GuessPayload(secret=player.secret, guesses=guesses)
        return TrialOutput(
            turns=turns,
            evaluation=evaluate(payload, self.params.low, self.params.high),
            payload=payload,
        )

    @classmethod
    def report_tables(cls, records: Sequence[TrialRecord]) -> list[Table]:
        """Guesses per solved trial and feedback ignored, per agent (complete trials)."""
        rows: list[list[str | int | float | None]] = []
        for agent in dict.fromkeys(r.agent for r in records):
            done = [
                r.evaluation
                for r in records
                if r.agent == agent
                and r.status == "complete"
                and isinstance(r.evaluation, GuessEvaluation)
            ]
            solved = [e.guesses for e in done if e.outcome == "solved"]
            rows.append(
                [
                    agent,
                    len(done),
                    len(solved),
                    round(fmean(solved), 2) if solved else None,
                    sum(e.ignored_feedback for e in done),
                ]
            )
        header = ["agent", "complete", "solved", "guesses to solve", "feedback ignored"]
        return [Table("guessing per agent", header, rows)]

    @classmethod
    def trial_sections(cls, record: TrialRecord) -> list[Section]:
        """The secret, and every guess with the player's answer."""
        payload = record.payload
        if not isinstance(payload, GuessPayload):
            return []
        table = Table(
            "guesses",
            ["turn", "guess", "feedback"],
            [[g.turn, g.said, g.feedback] for g in payload.guesses],
        )
        return [Section("The game", lines=[f"The number was {payload.secret}."], table=table)]
