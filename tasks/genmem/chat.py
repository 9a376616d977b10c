"""Ordinary chat: the filler turns between the facts (cooking, exercise, chores, science,
travel plans, writing), and the assistant's replies. Filler never names a person, a pet, a
town or a brand, so it states no fact any question asks; the replies to fact turns are
acknowledgements that repeat no value."""

from __future__ import annotations

import random

_FILL = {
    "dish": (
        "lentil soup",
        "vegetable curry",
        "banana bread",
        "fried rice",
        "shakshuka",
        "mushroom risotto",
        "pancakes",
        "minestrone",
        "stir-fried noodles",
        "omelette",
    ),
    "skill": (
        "juggling",
        "watercolour painting",
        "touch typing",
        "knitting",
        "public speaking",
        "sketching",
        "baking sourdough",
        "playing the ukulele",
        "chess openings",
    ),
    "chore": (
        "clean the oven",
        "sort the spice rack",
        "organise the garage",
        "defrost the freezer",
        "iron shirts",
        "wash the windows",
        "declutter the wardrobe",
    ),
    "science": (
        "how tides work",
        "why the sky is blue",
        "how vaccines train the immune system",
        "what black holes are",
        "how bread rises",
        "why leaves change colour",
        "how batteries store energy",
    ),
    "minutes": ("15", "20", "25", "30", "40", "45"),
    "occasion": (
        "a thank-you note",
        "a birthday message",
        "a short apology",
        "an invitation to dinner",
        "a farewell card",
    ),
    "season": ("spring", "summer", "autumn", "winter"),
    "thing": (
        "houseplants",
        "a vegetable patch",
        "a compost bin",
        "a reading habit",
        "a budget spreadsheet",
        "a morning routine",
    ),
}
_USER = (
    "Can you suggest a quick recipe for {dish}? I have about {minutes} minutes tonight.",
    "I'm trying to get better at {skill}. Any tips for a complete beginner?",
    "What's the easiest way to {chore} without spending the whole afternoon on it?",
    "I was reading about {science}. Could you explain it simply?",
    "How should I plan a workout if I only have {minutes} minutes a day?",
    "Could you help me word {occasion}? Nothing too formal.",
    "What should I keep in mind when starting {thing} in {season}?",
    "Is it worth making {dish} in a big batch and freezing it?",
    "Any advice for staying motivated with {skill} when progress feels slow?",
    "I always forget to {chore}. How often should it really be done?",
)
_OPEN = ("Good question!", "Happy to help.", "Sure thing.", "Of course.", "Great idea.")
_BODY = (
    "Start small and keep the first attempt simple, so you can see what works for you.",
    "A short, regular routine usually beats one long session every now and then.",
    "Write down a simple plan first, then adjust it after a week based on how it went.",
    "It helps to gather everything you need before you begin, which saves a lot of time.",
    "Most people find it easier when they break the job into two or three small steps.",
    "Try to notice one thing you did better each time; small wins keep you going.",
    "If something goes wrong, it is usually the timing, so give it a little longer.",
    "Ten focused minutes are worth more than an hour of distracted effort.",
    "A good rule of thumb is to prepare the night before, when you are not in a hurry.",
    "Keep notes as you go, so the next time is quicker and you repeat what worked.",
)
_CLOSE = (
    "Let me know how it goes!",
    "Want me to go into more detail?",
    "I can suggest a few variations if you like.",
    "Hope that helps.",
    "",
)
ACKNOWLEDGE = (
    "Thanks for telling me, that's good to know.",
    "That sounds like quite a bit of news! How do you feel about it?",
    "Nice, I'll keep that in mind for later.",
    "Oh, interesting! Anything you'd like help with around that?",
    "Good to hear how things are going on your side.",
    "That's lovely to hear. Is there anything else on your mind today?",
)
_STARTERS = frozenset(
    (
        "My",
        "Talked",
        "Fun",
        "Went",
        "Took",
        "Spent",
        "Just",
        "Today",
        "Big",
        "Update",
        "Hard",
        "Maybe",
        "A",
        "The",
    )
)
"""First words of fact and distractor turns that are no names (lowered after a lead)."""
_LEADS = ("", "", "", "By the way, ", "Oh, ", "Random thought: ", "Also, ")


def filler(rng: random.Random) -> tuple[str, str]:
    """A filler exchange: the user's question and the assistant's reply."""
    template = rng.choice(_USER)
    user = template.format(**{k: rng.choice(v) for k, v in _FILL.items()})
    body = " ".join(rng.sample(_BODY, rng.randint(2, 3)))
    reply = " ".join(p for p in (rng.choice(_OPEN), body, rng.choice(_CLOSE)) if p)
    return user, reply


def aside(rng: random.Random, text: str) -> str:
    """A fact or hard negative as the user drops it into the chat."""
    lead = rng.choice(_LEADS)
    first, _, rest = text.partition(" ")
    if lead and first in _STARTERS:
        text = f"{first.lower()} {rest}"
    return lead + text


def acknowledgement(rng: random.Random) -> str:
    return rng.choice(ACKNOWLEDGE)
