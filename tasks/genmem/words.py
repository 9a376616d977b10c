"""The words the generator draws from: syllables for invented names, and lists of jobs,
species, things and topics. Every proper name is built from syllables, so none is a real
person's; the lists are plain English words."""

from __future__ import annotations

import random

ONSETS = (
    "b",
    "d",
    "f",
    "g",
    "h",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "z",
    "br",
    "dr",
    "gl",
    "kr",
    "pl",
    "st",
    "tr",
    "sh",
    "th",
)
VOWELS = ("a", "e", "i", "o", "u", "a", "e", "i", "o", "ai", "ou")
CODAS = ("", "", "", "n", "l", "r", "s", "m", "x", "th")
TOWN_ENDINGS = ("ford", "wick", "mere", "holm", "dale", "port", "stead", "bury")

RELATIONS = (
    "sister",
    "brother",
    "cousin",
    "coworker",
    "neighbour",
    "friend",
    "aunt",
    "uncle",
    "roommate",
    "classmate",
)
JOBS = (
    "pharmacist",
    "carpenter",
    "librarian",
    "electrician",
    "veterinarian",
    "baker",
    "architect",
    "plumber",
    "florist",
    "dentist",
    "translator",
    "surveyor",
    "geologist",
    "beekeeper",
    "locksmith",
    "paramedic",
    "tailor",
    "accountant",
    "welder",
    "potter",
    "optician",
    "chemist",
    "gardener",
    "glassblower",
    "cartographer",
    "jeweller",
    "brewer",
    "upholsterer",
    "pilot",
    "butcher",
)
SPECIES = (
    "dog",
    "cat",
    "rabbit",
    "parrot",
    "hamster",
    "tortoise",
    "ferret",
    "goldfish",
    "lizard",
    "canary",
)
ITEMS = (
    "tent",
    "lamp",
    "bicycle",
    "kettle",
    "backpack",
    "desk chair",
    "rug",
    "blender",
    "guitar",
    "telescope",
    "printer",
    "sewing machine",
    "sleeping bag",
    "toaster",
    "camera",
    "bookshelf",
    "mattress",
    "coffee grinder",
    "drill",
    "heater",
    "monitor",
    "vacuum cleaner",
    "easel",
    "microwave",
    "kayak",
    "scooter",
    "tripod",
    "mixer",
    "hammock",
    "wardrobe",
)
ACTIVITIES = (
    "went bowling",
    "played chess",
    "went hiking",
    "went climbing",
    "played tennis",
    "went swimming",
    "played squash",
    "went fishing",
)
ACTIVITY_QUESTIONS = {
    "went bowling": "gone bowling",
    "played chess": "played chess",
    "went hiking": "gone hiking",
    "went climbing": "gone climbing",
    "played tennis": "played tennis",
    "went swimming": "gone swimming",
    "played squash": "played squash",
    "went fishing": "gone fishing",
}
BOOK_ADJECTIVES = (
    "Silent",
    "Crooked",
    "Amber",
    "Hollow",
    "Northern",
    "Paper",
    "Velvet",
    "Broken",
    "Distant",
    "Quiet",
    "Iron",
    "Salt",
)
BOOK_NOUNS = (
    "Harbour",
    "Lantern",
    "Orchard",
    "Staircase",
    "Meadow",
    "Clockmaker",
    "Tide",
    "Garden",
    "Archive",
    "Compass",
    "Bridge",
    "Winter",
)


def a(noun: str) -> str:
    """``noun`` with its indefinite article ("a baker", "an optician")."""
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def invented_word(rng: random.Random, syllables: int) -> str:
    """A pronounceable invented word of ``syllables`` syllables, capitalised."""
    parts = [rng.choice(ONSETS) + rng.choice(VOWELS) for _ in range(syllables)]
    return ("".join(parts) + rng.choice(CODAS)).capitalize()


class NamePool:
    """Invented names, none given twice in one conversation (people, pets, towns, brands
    and books share the pool, so a name always means one thing)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def _fresh(self, make: object) -> str:
        while True:
            name = make() if callable(make) else str(make)
            if name.lower() not in self.used and len(name) >= 3:
                self.used.add(name.lower())
                return name

    def person(self) -> str:
        return self._fresh(lambda: invented_word(self.rng, self.rng.choice((2, 2, 2, 3))))

    def pet(self) -> str:
        return self._fresh(lambda: invented_word(self.rng, 2))

    def town(self) -> str:
        return self._fresh(
            lambda: invented_word(self.rng, self.rng.choice((1, 2))) + self.rng.choice(TOWN_ENDINGS)
        )

    def brand(self) -> str:
        return self._fresh(lambda: invented_word(self.rng, 2) + self.rng.choice(("ex", "on", "ia")))

    def book(self) -> str:
        return self._fresh(
            lambda: f"The {self.rng.choice(BOOK_ADJECTIVES)} {self.rng.choice(BOOK_NOUNS)}"
        )
