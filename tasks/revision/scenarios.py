"""Scripted revision scenarios in the style of the TME paper's case studies (written anew).

Each round gives the user's text and the full expected task state after it (slot -> value, a
value may be several atoms). A ``summary`` round must mention every current value and none of
the values replaced earlier; other rounds carry their own ``must_mention`` lists. Checks never
demand that a check-round reply avoid old values, since a correct answer to "was X ever in
it?" names X.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cogarch.errors import UnknownNameError

SlotValue = str | list[str]
RoundKind = Literal["set", "revise", "check", "summary"]


class Round(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user: str
    expected: dict[str, SlotValue] = Field(default_factory=dict)
    """The whole task state after this round, not only what changed."""
    kind: RoundKind = "set"
    must_mention: list[str] = Field(default_factory=list)
    must_not_mention: list[str] = Field(default_factory=list)


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    description: str
    rounds: list[Round] = Field(min_length=1)
    aliases: dict[str, list[str]] = Field(default_factory=dict)
    """Other spellings that count as mentioning a value (``"May 9": ["9 May"]``)."""

    @model_validator(mode="after")
    def _ends_with_summary(self) -> Scenario:
        if self.rounds[-1].kind != "summary":
            raise ValueError(f"scenario '{self.name}' must end with a 'summary' round")
        return self

    def current(self, index: int) -> list[str]:
        """Atoms of the expected state after round ``index`` (0-based)."""
        return list(dict.fromkeys(_atoms(self.rounds[index].expected)))

    def replaced(self, index: int) -> list[str]:
        """Atoms held in some earlier state that are no longer current after round ``index``."""
        now = {a.lower() for a in self.current(index)}
        seen: list[str] = []
        for r in self.rounds[: index + 1]:
            seen += [a for a in _atoms(r.expected) if a.lower() not in now]
        return list(dict.fromkeys(seen))


def _atoms(state: dict[str, SlotValue]) -> list[str]:
    out: list[str] = []
    for value in state.values():
        out += [value] if isinstance(value, str) else list(value)
    return out


def _rounds(*rows: tuple[str, RoundKind, dict[str, SlotValue], list[str]]) -> list[Round]:
    return [Round(user=u, kind=k, expected=e, must_mention=m) for u, k, e, m in rows]


_T1: dict[str, SlotValue] = {"destination": "Lisbon"}
_T2: dict[str, SlotValue] = {**_T1, "origin": "Denver"}
_T3: dict[str, SlotValue] = {**_T2, "departure": "May 3"}
_T4: dict[str, SlotValue] = {**_T3, "destination": "Porto"}
_T5: dict[str, SlotValue] = {**_T4, "departure": "May 9"}
_T6: dict[str, SlotValue] = {**_T5, "destination": "Lisbon"}
_T7: dict[str, SlotValue] = {**_T6, "hotel": "old town"}

TRIP = Scenario(
    name="trip",
    description="Trip planning: a destination changed and changed back, a false recollection.",
    rounds=[
        *_rounds(
            ("I want to plan a trip. I'll give you the details bit by bit.", "set", {}, []),
            ("Make the destination Lisbon.", "set", _T1, ["Lisbon"]),
            ("I'll be flying out of Denver.", "set", _T2, ["Denver"]),
            ("I'd like to leave on May 3rd.", "set", _T3, ["May 3"]),
            ("Actually, change the destination to Porto.", "revise", _T4, ["Porto"]),
            ("Move the departure to May 9th.", "revise", _T5, ["May 9"]),
            ("Sorry, let's go back to the destination I had first.", "revise", _T6, ["Lisbon"]),
            ("Find me a hotel close to the old town.", "set", _T7, ["old town"]),
            ("By the way, I was flying out of Phoenix, wasn't I?", "check", _T7, ["Denver"]),
        ),
        Round(
            user="Give me the complete plan: origin, destination, departure date and hotel.",
            kind="summary",
            expected=_T7,
            must_not_mention=["Phoenix"],
        ),
    ],
    aliases={"May 3": ["3 May", "3 of May"], "May 9": ["9 May", "9 of May"]},
)

_C1: dict[str, SlotValue] = {"stew.vegetable": "carrots"}
_C2: dict[str, SlotValue] = {**_C1, "fried_rice.vegetable": "spring onions"}
_C2["fried_rice.protein"] = "prawns"
_C3: dict[str, SlotValue] = {**_C2, "fried_rice.extra": "carrots"}
_C4: dict[str, SlotValue] = {**_C3, "stew.vegetable": "parsnips", "fried_rice.extra": "parsnips"}

COOKING = Scenario(
    name="cooking",
    description="Cooking with a shared ingredient substituted in every dish, then questioned.",
    rounds=[
        *_rounds(
            ("For the stew, peel and dice carrots.", "set", _C1, ["carrots"]),
            ("For the fried rice, slice spring onions and shell the prawns.", "set", _C2, []),
            ("Put carrots in the fried rice as well.", "set", _C3, ["carrots"]),
            (
                "There are no carrots left at all, so use parsnips in both dishes instead.",
                "revise",
                _C4,
                ["parsnips"],
            ),
            ("What vegetables go into the stew?", "check", _C4, ["parsnips"]),
            (
                "Did I ever ask you to take the carrots out of the fried rice?",
                "check",
                _C4,
                ["parsnips"],
            ),
            (
                "I'm sure the stew never had carrots in it. Can you check?",
                "check",
                _C4,
                ["carrots"],
            ),
        ),
        Round(
            user="List the final ingredients for each dish, only what we are actually using.",
            kind="summary",
            expected=_C4,
        ),
    ],
    aliases={"carrots": ["carrot"], "parsnips": ["parsnip"], "prawns": ["prawn", "shrimp"]},
)

_M1: dict[str, SlotValue] = {"day": "Tuesday", "time": "10 AM"}
_M1["participants"] = ["Priya", "Marco", "Lena"]
_M2: dict[str, SlotValue] = {**_M1, "time": "1 PM"}
_M3: dict[str, SlotValue] = {"day": "Tuesday", "main_session": ["1 PM", "Priya", "Lena"]}
_M3["marco_session"] = ["9:30 AM", "Marco"]
_M4: dict[str, SlotValue] = {**_M1, "time": "11 AM"}

MEETING = Scenario(
    name="meeting",
    description="Meeting scheduling: a time moved for one person, a split, then one meeting.",
    rounds=[
        *_rounds(
            (
                "Set up a project sync on Tuesday at 10 AM with Priya, Marco and Lena.",
                "set",
                _M1,
                ["Tuesday", "10 AM"],
            ),
            ("Lena can't do 10. Move the meeting to 1 PM.", "revise", _M2, ["1 PM"]),
            (
                "Marco is only free in the morning. Split it: Marco alone at 9:30 AM, "
                "the others at 1 PM.",
                "revise",
                _M3,
                ["9:30 AM"],
            ),
            (
                "Drop the split and make it one meeting at 11 AM with everyone.",
                "revise",
                _M4,
                ["11 AM"],
            ),
            ("Why do I still see two sessions?", "check", _M4, ["11 AM"]),
        ),
        Round(user="Send me the final meeting details.", kind="summary", expected=_M4),
    ],
)

_K1: dict[str, SlotValue] = {
    "blue_bottle": "blue water bottle",
    "red_bottle": "red water bottle",
    "yoga_mat": "yoga mat",
    "bands": "resistance bands",
}
_K2: dict[str, SlotValue] = {k: v for k, v in _K1.items() if k in ("blue_bottle", "yoga_mat")}
_K3: dict[str, SlotValue] = {k: v for k, v in _K1.items() if k in ("yoga_mat", "bands")}

CART = Scenario(
    name="cart",
    description="Cart editing: removals, one undone, a query and a reset to the same items.",
    rounds=[
        *_rounds(
            (
                "Add a blue water bottle, a red water bottle, a yoga mat and resistance bands "
                "to my cart.",
                "set",
                _K1,
                [],
            ),
            ("Remove the red bottle and the resistance bands.", "revise", _K2, []),
            (
                "Actually put the resistance bands back, and take out the blue bottle too.",
                "revise",
                _K3,
                [],
            ),
            ("What's in my cart right now?", "check", _K3, ["yoga mat", "resistance bands"]),
            ("Make sure it holds only the yoga mat and the resistance bands.", "set", _K3, []),
        ),
        Round(user="List the items in my cart, nothing else.", kind="summary", expected=_K3),
    ],
    aliases={"blue water bottle": ["blue bottle"], "red water bottle": ["red bottle"]},
)

_F1: dict[str, SlotValue] = {"name": "Ana Ruiz"}
_F2: dict[str, SlotValue] = {**_F1, "email": "ana.ruiz@example.org"}
_F3: dict[str, SlotValue] = {**_F2, "address": "12 Harbor Lane"}
_F4: dict[str, SlotValue] = {**_F3, "name": "Ana Moreno"}

FORM = Scenario(
    name="form",
    description="Form filling (the TME paper's token-efficiency task): one correction.",
    rounds=[
        *_rounds(
            (
                "Help me fill in a registration form; I'll give you my details one by one.",
                "set",
                {},
                [],
            ),
            ("My name is Ana Ruiz.", "set", _F1, []),
            ("My email address is ana.ruiz@example.org.", "set", _F2, []),
            ("I live at 12 Harbor Lane, Portland.", "set", _F3, []),
            ("Sorry, a correction: my name is Ana Moreno.", "revise", _F4, ["Ana Moreno"]),
        ),
        Round(
            user="Read my details back to me, then submit the form.", kind="summary", expected=_F4
        ),
    ],
)

SCENARIOS: dict[str, Scenario] = {s.name: s for s in (TRIP, COOKING, MEETING, CART, FORM)}


def get_scenario(name: str) -> Scenario:
    try:
        return SCENARIOS[name]
    except KeyError:
        raise UnknownNameError(
            f"unknown revision scenario '{name}'; valid names: {', '.join(SCENARIOS)}"
        ) from None
