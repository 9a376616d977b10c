"""The scripted, seeded resident who questions the agent in the Diagnosis Simulator.

Policy. The player keeps the DDXPlus conditions consistent with the answers so far and asks about
a question group it has not asked yet. Groups are ranked by how evenly they split the remaining
conditions: a group held by ``k`` of the ``N`` remaining conditions scores ``|k/N - 1/2|``,
lower is better. With a uniform prior over the remaining conditions this is the same ranking as
the expected information gain of the question (the binary entropy of ``k/N`` falls as ``k/N``
moves away from one half). Ties go to the group that splits the whole catalogue more evenly,
then to the lower code number. The player draws uniformly among the ``top_k`` best groups with
its own ``random.Random(seed)``, so a seed fixes the whole questioning given the answers.

If an answer would rule out every remaining condition (the agent contradicted every DDXPlus
profile), that answer is left out when scoring later questions; it still counts at the fork,
where the candidate filter applies every recorded answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from .catalogue import Catalogue, Condition, load_catalogue
from .prompts import OPENER, question_prompt

EvidenceAnswer = Literal["yes", "no"]
AnswerParser = Callable[[str], object]
"""Reads a reply; returns "yes" / "no" (or True / False), or None when it cannot tell.

A result object with an ``answer`` attribute holding one of those (such as the ``YesNo`` of
``tasks.sct.parsing.parse_yes_no``) is read through that attribute.
"""


@dataclass(frozen=True)
class QuestionScore:
    """How well asking ``group`` would split the conditions still in play."""

    group: str
    holders: int
    """Remaining conditions that have the group."""
    pool_size: int
    balance: float
    """``|holders / pool_size - 1/2|``; lower is a more even split."""
    catalogue_balance: float
    """The same measure over the whole catalogue (first tie-break)."""


def _default_parser() -> AnswerParser:
    try:
        from ..sct.parsing import parse_yes_no
    except ImportError as error:
        raise ImportError(
            "DiagnosisPlayer.record_reply reads replies with tasks.sct.parsing.parse_yes_no, "
            "which cannot be imported; pass parse_answer=<function> to DiagnosisPlayer, or "
            "parse the reply yourself and call record_answer"
        ) from error
    parser: AnswerParser = parse_yes_no
    return parser


def _as_answer(value: object) -> EvidenceAnswer | None:
    if hasattr(value, "answer") and not isinstance(value, str | bool):
        value = value.answer
    if value is None:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "yes":
            return "yes"
        if text == "no":
            return "no"
        if not text:
            return None
    raise TypeError(
        f"the answer parser returned {value!r}; it must return 'yes', 'no', True, False or "
        "None, or an object whose `answer` attribute is one of them"
    )


def _code_number(code: str) -> int:
    digits = "".join(ch for ch in code if ch.isdigit())
    return int(digits) if digits else -1


class DiagnosisPlayer:
    """Asks yes/no questions about DDXPlus evidence groups, deterministically for a seed.

    Typical use: ``opener()``, then for each turn ``next_question()`` and, once the agent has
    replied, ``record_reply(reply)`` (or ``record_answer(player.last_evidence, "yes")``).
    """

    def __init__(
        self,
        seed: int,
        catalogue: Catalogue | None = None,
        top_k: int = 5,
        *,
        parse_answer: AnswerParser | None = None,
    ) -> None:
        if top_k < 1:
            raise ValueError(f"top_k must be at least 1, got {top_k}")
        self.seed = seed
        self.top_k = top_k
        self.catalogue = catalogue if catalogue is not None else load_catalogue()
        self._rng = random.Random(seed)
        self._parse_answer = parse_answer
        self._answers: dict[str, EvidenceAnswer | None] = {}
        self.last_evidence: str | None = None
        """Code of the question group asked last (its DDXPlus ``code_question``)."""

    # -- prompts -------------------------------------------------------------------------

    def opener(self) -> str:
        """The first message: the rules of the session (Appendix F.1)."""
        return OPENER

    def next_question(self) -> str:
        """Choose the next group, remember it as asked, and return its question."""
        ranked = self.ranked_questions()
        if not ranked:
            raise RuntimeError(
                "every askable question group has already been asked; end the dialogue "
                "(fork) before running out of questions"
            )
        chosen = self._rng.choice(ranked[: self.top_k])
        self._answers.setdefault(chosen.group, None)
        self.last_evidence = chosen.group
        return question_prompt(self.catalogue.groups[chosen.group].question)

    # -- answers -------------------------------------------------------------------------

    def record_answer(self, evidence_code: str, answer: EvidenceAnswer | None) -> None:
        """Record the agent's answer about an evidence (or its group).

        ``None`` means the reply could not be read: the group counts as asked but constrains
        nothing. Recording a group again replaces the earlier answer.
        """
        if answer not in ("yes", "no", None):
            raise ValueError(f"answer must be 'yes', 'no' or None, got {answer!r}")
        group = self.catalogue.group_of(evidence_code).code
        self._answers[group] = answer

    def record_reply(self, reply: str) -> EvidenceAnswer | None:
        """Parse the agent's reply to the last question, record it, and return the answer."""
        if self.last_evidence is None:
            raise RuntimeError("no question has been asked yet; call next_question() first")
        parser = self._parse_answer if self._parse_answer is not None else _default_parser()
        answer = _as_answer(parser(reply))
        self.record_answer(self.last_evidence, answer)
        return answer

    @property
    def asked(self) -> tuple[str, ...]:
        """Question groups asked (or answered), in order."""
        return tuple(self._answers)

    @property
    def answers(self) -> Mapping[str, EvidenceAnswer | None]:
        """Answer per group asked, None where the reply was unreadable or is still awaited."""
        return dict(self._answers)

    @property
    def affirmed(self) -> frozenset[str]:
        return frozenset(g for g, a in self._answers.items() if a == "yes")

    @property
    def denied(self) -> frozenset[str]:
        return frozenset(g for g, a in self._answers.items() if a == "no")

    @property
    def remaining(self) -> tuple[Condition, ...]:
        """Conditions consistent with every recorded answer, in catalogue order."""
        return tuple(
            c
            for c in self.catalogue.conditions
            if self.affirmed <= c.groups and not self.denied & c.groups
        )

    # -- policy --------------------------------------------------------------------------

    def _scoring_pool(self) -> list[Condition]:
        pool = list(self.catalogue.conditions)
        for group, answer in self._answers.items():
            if answer is None:
                continue
            kept = [c for c in pool if (group in c.groups) == (answer == "yes")]
            if kept:
                pool = kept
        return pool

    def ranked_questions(self) -> list[QuestionScore]:
        """Every group not yet asked, best split first (the order the policy draws from)."""
        pool = self._scoring_pool()
        everyone = self.catalogue.conditions
        scores = [
            QuestionScore(
                group=code,
                holders=_holders(code, pool),
                pool_size=len(pool),
                balance=abs(_holders(code, pool) / len(pool) - 0.5),
                catalogue_balance=abs(_holders(code, everyone) / len(everyone) - 0.5),
            )
            for code in self.catalogue.askable
            if code not in self._answers
        ]
        scores.sort(key=lambda s: (s.balance, s.catalogue_balance, _code_number(s.group), s.group))
        return scores


def _holders(group: str, conditions: Iterable[Condition]) -> int:
    return sum(1 for c in conditions if group in c.groups)
