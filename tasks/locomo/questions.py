"""Asking one LoCoMo question on a fork of the ingested agent, and judging the answer."""

from __future__ import annotations

import random
import time
from typing import Any, Literal

from pydantic import BaseModel

from cogarch.models.messages import user
from cogarch.models.metering import Meter
from cogarch.models.model import Model
from cogarch.models.structured import structured
from cogarch.tasks.memory_bench.retrieved import retrieved_ids, search_details

from .records import LocomoAnswer, LocomoHost
from .scoring import evidence_recall, gold_answer, score

QA_PROMPT = (
    "Based on the above context, write an answer in the form of a short phrase for the "
    "following question. Answer with exact words from the context whenever possible.\n\n"
    "Question: {question} Short answer:"
)
TEMPORAL_HINT = " Use DATE of CONVERSATION to answer with an approximate date."
NOT_MENTIONED = "Not mentioned in the conversation"
RECALL_AT = (1, 5, 10)

JUDGE_PROMPT = """Label an answer to a question about a long conversation as CORRECT or WRONG.
You are given the question, the gold answer and the generated answer. Be generous: an answer
that names the same thing, person, date or period as the gold answer is CORRECT, even if it is
longer or worded differently; dates in another format are CORRECT when they match.

Question: {question}
Gold answer: {gold}
Generated answer: {prediction}

Answer with JSON: {{"label": "CORRECT"}} or {{"label": "WRONG"}}."""


class JudgeLabel(BaseModel):
    label: Literal["CORRECT", "WRONG"]


def question_prompt(qa: dict[str, Any], seed: int) -> tuple[str, dict[str, str]]:
    """The text the agent is asked, and for adversarial questions the options by letter
    (the official prompt: the adversarial answer against "not mentioned", order by seed)."""
    question = str(qa["question"])
    if qa["category"] == 2:
        question += TEMPORAL_HINT
    options: dict[str, str] = {}
    if qa["category"] == 5:
        pair = [NOT_MENTIONED, gold_answer(qa)]
        random.Random(seed).shuffle(pair)
        options = {"a": pair[0], "b": pair[1]}
        question += f" Select the correct answer: (a) {pair[0]} (b) {pair[1]}."
    return QA_PROMPT.format(question=question), options


def chosen_option(reply: str, options: dict[str, str]) -> str:
    """A bare letter (``b``, ``(b)``) as the option it names, as the official code reads it."""
    said = reply.strip().lower()
    if options and len(said) in (1, 3):
        letter = "a" if ("a" in said if len(said) == 1 else "(a)" in said) else "b"
        return options[letter]
    return reply.strip()


async def ask(base: LocomoHost, qa: dict[str, Any], seed: int) -> LocomoAnswer:
    """Ask ``qa`` on a fresh fork of ``base`` (which it never changes) and score the reply."""
    fork = base.fork()
    prompt, options = question_prompt(qa, seed)
    meter = Meter()
    start = time.perf_counter()
    with meter.active():
        reply = await fork.respond(prompt)
    latency = time.perf_counter() - start
    prediction = chosen_option(reply, options)
    report = fork.last_reply()
    carried = report.memory_tokens
    ranked = retrieved_ids(report)
    flat = [i for ids in ranked or [] for i in ids]
    recall = None
    if ranked is not None:
        recall = {
            str(k): evidence_recall([i for ids in ranked[:k] for i in ids], qa) for k in RECALL_AT
        }
    return LocomoAnswer(
        question=str(qa["question"]),
        category=int(qa["category"]),
        gold=gold_answer(qa),
        prediction=prediction,
        f1=round(float(score(prediction, qa)), 6),
        evidence=[str(e) for e in qa.get("evidence", [])],
        retrieved_ids=list(dict.fromkeys(flat)),
        search=search_details(report),
        recall=recall,
        prompt_tokens=int(meter.summary()["prompt_tokens"]),
        memory_tokens=carried,
        latency_s=round(latency, 4),
    )


async def judge(model: Model, answer: LocomoAnswer, seed: int) -> bool:
    """The LLM judge's verdict on one answer (categories 1-4)."""
    label = await judge_label(model, answer.question, answer.gold, answer.prediction, seed)
    return label == "CORRECT"


async def judge_label(model: Model, question: str, gold: str, prediction: str, seed: int) -> str:
    """The LLM judge's label, CORRECT or WRONG, of ``prediction`` against ``gold``."""
    prompt = JUDGE_PROMPT.format(question=question, gold=gold, prediction=prediction)
    result = await structured(model, [user(prompt)], JudgeLabel, caller="judge", seed=seed)
    return result.value.label
