"""LongMemEval's official judge (``src/evaluation/evaluate_qa.py``): one prompt per question
type, as published, asked at temperature 0 with at most 10 tokens; the verdict is yes when
"yes" appears in the lower-cased reply.

single-session-user, single-session-assistant and multi-session share one prompt;
temporal-reasoning's forgives off-by-one day counts; knowledge-update's accepts old
information beside the updated answer; single-session-preference's judges against a rubric;
an abstention question (``_abs`` in its id) gets the unanswerable prompt whatever its type.
"""

from __future__ import annotations

from cogarch.models.messages import user
from cogarch.models.model import Model
from cogarch.tasks.memory_bench.judging import verdict_is_yes

from .data import Question

_INTRO = (
    "I will give you a question, a correct answer, and a response from a model. Please answer "
    "yes if the response contains the correct answer. Otherwise, answer no. "
)
_STEPS = (
    "If the response is equivalent to the correct answer or contains all the intermediate "
    "steps to get the correct answer, you should also answer yes. If the response only "
    "contains a subset of the information required by the answer, answer no. "
)
_ASK = (
    "\n\nQuestion: {question}\n\nCorrect Answer: {answer}\n\nModel Response: {response}\n\n"
    "Is the model response correct? Answer yes or no only."
)
FACT_PROMPT = _INTRO + _STEPS + _ASK
TEMPORAL_PROMPT = (
    _INTRO
    + _STEPS
    + "In addition, do not penalize off-by-one errors for the number of days. If the question "
    "asks for the number of days/weeks/months, etc., and the model makes off-by-one errors "
    "(e.g., predicting 19 days when the answer is 18), the model's response is still "
    "correct. " + _ASK
)
UPDATE_PROMPT = (
    _INTRO + "If the response contains some previous information along with an updated answer, the "
    "response should be considered as correct as long as the updated answer is the required "
    "answer." + _ASK
)
PREFERENCE_PROMPT = (
    "I will give you a question, a rubric for desired personalized response, and a response "
    "from a model. Please answer yes if the response satisfies the desired response. "
    "Otherwise, answer no. The model does not need to reflect all the points in the rubric. "
    "The response is correct as long as it recalls and utilizes the user's personal "
    "information correctly.\n\nQuestion: {question}\n\nRubric: {answer}\n\nModel Response: "
    "{response}\n\nIs the model response correct? Answer yes or no only."
)
ABSTENTION_PROMPT = (
    "I will give you an unanswerable question, an explanation, and a response from a model. "
    "Please answer yes if the model correctly identifies the question as unanswerable. The "
    "model could say that the information is incomplete, or some other information is given "
    "but the asked information is not.\n\nQuestion: {question}\n\nExplanation: {answer}\n\n"
    "Model Response: {response}\n\nDoes the model correctly identify the question as "
    "unanswerable? Answer yes or no only."
)
PROMPTS = {
    "single-session-user": FACT_PROMPT,
    "single-session-assistant": FACT_PROMPT,
    "multi-session": FACT_PROMPT,
    "temporal-reasoning": TEMPORAL_PROMPT,
    "knowledge-update": UPDATE_PROMPT,
    "single-session-preference": PREFERENCE_PROMPT,
}
JUDGE_TEMPERATURE = 0.0
JUDGE_MAX_TOKENS = 10
PUBLISHED_JUDGE = "gpt-4o-2024-08-06"
"""The judge behind the published numbers."""


def judge_prompt(question: Question, response: str) -> str:
    """The official judge prompt for ``response`` to ``question``."""
    template = ABSTENTION_PROMPT if question.abstention else PROMPTS[question.question_type]
    return template.format(question=question.question, answer=question.gold, response=response)


async def judge(model: Model, question: Question, response: str, seed: int) -> tuple[bool, str]:
    """The judge's verdict on ``response`` and its reply."""
    completion = await model.complete(
        [user(judge_prompt(question, response))],
        caller="judge",
        seed=seed,
        temperature=JUDGE_TEMPERATURE,
        max_tokens=JUDGE_MAX_TOKENS,
    )
    reply = completion.content.strip()
    return verdict_is_yes(reply), reply
