"""A tiny household text game in the form a grounded task gives an agent, and a curriculum
player: each turn the input is the observation with the admissible actions appended
(``format_input``), the agent's reply is read as one action, and at the end of each game the
agent is told how it went (``end_episode``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from cogarch.core.acting import normalize_action
from cogarch.core.affordances import format_input
from cogarch.core.memory import EpisodeEnd
from cogarch.workspace import Agent


@dataclass
class House:
    """Places holding objects; the goal is to move ``thing`` onto ``target``."""

    places: dict[str, list[str]]
    thing: str
    target: str
    max_steps: int = 10
    treat: str | None = None
    """A treatment the goal asks for first ("clean": at the sinkbasin)."""
    at: str | None = None
    holding: str | None = None
    steps: int = 0
    won: bool = False
    treated: bool = False
    log: list[str] = field(default_factory=list)

    @property
    def task(self) -> str:
        thing, target = self.thing.split()[0], self.target.split()[0]
        if self.treat:
            return f"{self.treat} some {thing} and put it in {target}"
        return f"put some {thing} on {target}"

    def start(self) -> str:
        seen = ", ".join(f"a {p}" for p in self.places)
        return (
            "You are in the middle of a room. Looking quickly around you, you see "
            f"{seen}.\n\nYour task is to: {self.task}."
        )

    def admissible(self) -> list[str]:
        actions = [f"go to {p}" for p in self.places if p != self.at]
        if self.at is not None and self.holding is None:
            actions += [f"take {o} from {self.at}" for o in self.places[self.at]]
        if self.at is not None and self.holding is not None:
            actions.append(f"move {self.holding} to {self.at}")
            if self.treat and self.at.startswith("sinkbasin"):
                actions.append(f"{self.treat} {self.holding} with {self.at}")
        return [*actions, "look"]

    def prompt(self, observation: str) -> str:
        return format_input(observation, self.admissible())

    def act(self, action: str) -> str:
        """Carry out ``action`` (one step, admissible or not); return the observation."""
        self.steps += 1
        self.log.append(action)
        chosen = normalize_action(action)
        if chosen not in {normalize_action(a) for a in self.admissible()}:
            return "Nothing happens."
        if chosen.startswith("go to "):
            self.at = chosen[len("go to ") :]
            here = self.places[self.at]
            items = ", ".join(f"a {o}" for o in here) or "nothing"
            return f"You arrive at {self.at}. On the {self.at}, you see {items}."
        if chosen.startswith("take "):
            thing = chosen[len("take ") :].split(" from ")[0]
            assert self.at is not None
            self.places[self.at].remove(thing)
            self.holding = thing
            return f"You pick up the {thing} from the {self.at}."
        if chosen.startswith("move "):
            thing, place = chosen[len("move ") :].split(" to ")
            self.places[place].append(thing)
            self.holding = None
            self.won = thing == self.thing and place == self.target
            self.won = self.won and (self.treat is None or self.treated)
            return f"You move the {thing} to the {place}."
        if self.treat and chosen.startswith(f"{self.treat} "):
            self.treated = True
            return f"You {self.treat} the {self.holding} using the {self.at}."
        return f"You are at {self.at or 'the middle of the room'}."

    @property
    def over(self) -> bool:
        return self.won or self.steps >= self.max_steps


def apple_house(max_steps: int = 10) -> House:
    return House(
        {"table 1": ["mug 1"], "shelf 1": ["apple 1"], "box 1": []}, "apple 1", "box 1", max_steps
    )


def mug_house(max_steps: int = 10) -> House:
    return House(
        {"desk 1": ["pen 1"], "sofa 1": ["mug 1"], "sink 1": []}, "mug 1", "sink 1", max_steps
    )


def sink_house(max_steps: int = 12) -> House:
    """The mug must be cleaned at the sink basin before it goes in the cabinet."""
    places: dict[str, list[str]] = {
        "cabinet 1": [],
        "sinkbasin 1": [],
        "desk 1": ["mug 1"],
        "shelf 1": [],
    }
    return House(places, "mug 1", "cabinet 1", max_steps, treat="clean")


def empty_house(max_steps: int = 3) -> House:
    """A game that cannot be won: the thing it asks for is nowhere."""
    return House({"bed 1": [], "chair 1": [], "box 1": []}, "apple 1", "box 1", max_steps)


async def play_game(agent: Agent, house: House) -> list[str]:
    """Play one game to its end; return the agent's replies."""
    observation = house.start()
    replies = []
    while not house.over:
        reply = await agent.respond(house.prompt(observation))
        replies.append(reply)
        observation = house.act(reply)
    return replies


async def play(agent: Agent, houses: list[House]) -> list[list[str]]:
    """Play a curriculum, telling the agent at the end of each game how it went."""
    replies = []
    for episode, house in enumerate(houses):
        replies.append(await play_game(agent, house))
        end = EpisodeEnd(episode, house.won, label=house.task, steps=house.steps)
        await agent.end_episode(end)
    return replies
