"""Synthetic conversations in LoCoMo's format, for benchmarks and tests.

LoCoMo's data cannot ship with the package (CC BY-NC), but timing the framework needs
conversations of its shape: two speakers, dated sessions of turns about a hundred characters
long, and questions of the five categories with their evidence dialog ids. ``synthetic_locomo``
makes them from templates with a seeded generator: the same arguments give the same file.
What the turns say is invented (pets, trips, hobbies, jobs), and each question asks about a
fact one turn states, so a reader that finds the turn can answer it.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

SPEAKERS = [("Maya", "Jonas"), ("Ines", "Tomas"), ("Priya", "Leo"), ("Amara", "Felix")]
_FACTS = [
    ("adopted a {color} {pet} named {name}", "What is the name of {who}'s {pet}?", "{name}"),
    ("went hiking in {place} with my {relative}", "Where did {who} go hiking?", "{place}"),
    (
        "started learning the {instrument} at a school near {place}",
        "What is {who} learning?",
        "the {instrument}",
    ),
    ("got a new job as a {job} in {place}", "What job did {who} get?", "{job}"),
    (
        "painted a {color} mural of a {pet} for my {relative}",
        "What did {who} paint?",
        "a {color} mural of a {pet}",
    ),
    (
        "ran a half marathon in {place} and finished in {minutes} minutes",
        "How long did {who}'s half marathon take?",
        "{minutes} minutes",
    ),
]
_FILLER = [
    "That sounds wonderful, tell me more about how it went.",
    "I have been so busy lately, but the weekend was calm and sunny.",
    "Thanks for asking! Things are slowly getting better at home.",
    "We should catch up over coffee soon, it has been too long.",
]
_WORDS = {
    "color": ["red", "teal", "golden", "grey", "violet", "amber"],
    "pet": ["cat", "dog", "parrot", "rabbit", "turtle", "hamster"],
    "name": ["Pixel", "Biscuit", "Nova", "Pepper", "Ziggy", "Mochi", "Olive", "Rocket"],
    "place": ["Lisbon", "Denver", "Kyoto", "Oslo", "Cusco", "Tallinn", "Hobart", "Quebec"],
    "relative": ["sister", "brother", "cousin", "aunt", "best friend", "neighbour"],
    "instrument": ["violin", "cello", "piano", "drums", "flute", "banjo"],
    "job": ["nurse", "carpenter", "data analyst", "baker", "teacher", "pilot"],
    "minutes": [str(m) for m in range(95, 160)],
}
_ABSENT = ["What is the name of {who}'s horse?", "Which castle did {who} buy?"]


def _fill(template: str, rng: random.Random) -> tuple[str, dict[str, str]]:
    values = {k: rng.choice(v) for k, v in _WORDS.items()}
    return template.format(**values, who="{who}"), values


def _locomo_date(when: datetime) -> str:
    """LoCoMo's way: '1:14 pm on 25 May, 2023'."""
    noon = "am" if when.hour < 12 else "pm"
    clock = f"{when.hour % 12 or 12}:{when.minute:02d} {noon}"
    return f"{clock} on {when.day} {when.strftime('%B')}, {when.year}"


def synthetic_locomo(
    conversations: int = 1,
    *,
    sessions: int = 20,
    turns_per_session: int = 30,
    questions: int = 100,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """``conversations`` samples of LoCoMo's JSON format (see ``data``), each with
    ``sessions`` sessions of ``turns_per_session`` turns and ``questions`` questions."""
    rng = random.Random(seed)
    samples = []
    for c in range(conversations):
        a, b = SPEAKERS[c % len(SPEAKERS)]
        conversation: dict[str, Any] = {"speaker_a": a, "speaker_b": b}
        facts: list[tuple[str, str, str, str]] = []  # (dia_id, speaker, question, answer)
        day = datetime(2023, 1, 9, 13, 0) + timedelta(days=rng.randrange(30))
        for s in range(1, sessions + 1):
            day += timedelta(days=rng.randrange(3, 20), minutes=rng.randrange(600))
            conversation[f"session_{s}_date_time"] = _locomo_date(day)
            turns = []
            for t in range(1, turns_per_session + 1):
                speaker = a if t % 2 else b
                dia_id = f"D{s}:{t}"
                if rng.random() < 0.6:
                    template, question, answer = rng.choice(_FACTS)
                    said, values = _fill(template, rng)
                    text = f"Guess what, last week I {said}. It was really something!"
                    facts.append(
                        (
                            dia_id,
                            speaker,
                            question.format(**values, who=speaker),
                            answer.format(**values),
                        )
                    )
                else:
                    text = rng.choice(_FILLER)
                turns.append({"speaker": speaker, "dia_id": dia_id, "text": text})
            conversation[f"session_{s}"] = turns
        qa = []
        for q in range(questions):
            category = 1 + q % 5
            if category == 5 or not facts:
                who = rng.choice((a, b))
                dia_id = rng.choice(facts)[0] if facts else "D1:1"
                asked = rng.choice(_ABSENT).format(who=who)
                qa.append(
                    {
                        "question": asked,
                        "adversarial_answer": "Not mentioned",
                        "evidence": [dia_id],
                        "category": 5,
                    }
                )
                continue
            dia_id, _, asked, answer = rng.choice(facts)
            qa.append(
                {"question": asked, "answer": answer, "evidence": [dia_id], "category": category}
            )
        samples.append({"sample_id": f"synthetic-{c + 1}", "conversation": conversation, "qa": qa})
    return samples
