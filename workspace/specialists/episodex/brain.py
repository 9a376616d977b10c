"""A scripted brain for the Episodex agent: a fake model that answers each specialist by role.

It plays a household text game well enough to win simple ones, with no model: every answer is
a pure function of the prompt, the seed and who asks (``CallInfo.role`` is the specialist's
kind, ``caller`` names the router and the memory modules), so runs repeat exactly and forked
branches behave like independent agents.

- As the planner it picks an admissible action by a greedy rule: act on the goal's object
  (take it; clean, heat or cool it where the goal asks, carrying it to the sink basin,
  microwave or fridge first; move it to the goal's target), carry it to the target, else
  explore a place not yet visited, preferring places that the past episodes or concepts in
  context mention with the goal's object.
- As the motor it plays the planner's action when admissible (else its own pick), except that
  now and then (``slip``, seeded) it hallucinates: it answers nothing or text outside the
  task, so the focus loop is exercised; right after a focus replay it never slips. Now and
  then too (``blunder``) it names a well-formed command the game does not admit (opening a
  place it is not at), which is sent and costs the step.
- As the conscious node it writes a belief state naming the step, the task and the latest
  observation; as idea and learning it writes a line about the goal.
- As the router it mostly chooses planning, sometimes (``detours``) memory recall, an idea
  or learning; never twice the same detour in one turn.
- As the conceptual memory it abstracts concepts from the beliefs it is shown: where the goal's
  object was seen, and which verbs the game needed.

``episodex_brain`` builds one with other settings; ``BRAINS`` holds the shipped ones by name
(``episodex.brain`` and ``episodex.steady`` in a run config's fakes).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Mapping, Sequence

from cogarch.core.acting import Percept, read_action
from cogarch.models.fakes import CallInfo, PairsFn

_HEADERS = (
    "Task: ",
    "Step: ",
    "Belief state: ",
    "Past episodes:\n",
    "Concepts:\n",
    "Actions so far in this game (latest last):\n",
    "Current observation:\n",
    "Admissible actions:\n",
    "This turn:\n",
)
_SPLIT = re.compile(r"\n\n(?=" + "|".join(re.escape(h) for h in _HEADERS) + ")")
_WORD = re.compile(r"[a-z]+")
_STOP = {"some", "put", "the", "and", "them", "two", "with", "then", "into", "from", "its"}
_ACTS = ("take", "heat", "cool", "clean", "slice", "use", "toggle")
_APPLIANCES = {"clean": "sinkbasin", "heat": "microwave", "cool": "fridge"}
"""Where a household game's object is cleaned, heated or cooled."""
HALLUCINATIONS = (
    "",
    "[Omega State Engaged - Meta-Physical Objective Selection Initiated] The cognitive "
    "singularity prepares to manifest its first transfinite operation.",
    "fly to the moon",
)


def _rng(seed: int, *parts: object) -> random.Random:
    key = ":".join(str(p) for p in (seed, *parts)).encode()
    return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


def _sections(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for part in _SPLIT.split(text):
        for header in _HEADERS:
            if part.startswith(header):
                found[header.strip(": \n")] = part[len(header) :].strip()
    return found


def _items(block: str) -> list[str]:
    return [line[2:].strip() for line in block.splitlines() if line.startswith("- ")]


def _goal_words(task: str) -> set[str]:
    return {w for w in _WORD.findall(task.lower()) if len(w) > 2 and w not in _STOP}


def _names(action: str) -> set[str]:
    return set(_WORD.findall(action.lower()))


class _Game:
    """What a prompt says about the game: task, admissible actions, actions tried, memory."""

    def __init__(self, text: str) -> None:
        s = _sections(text)
        self.task = s.get("Task", "")
        self.goal = _goal_words(self.task)
        self.admissible = _items(s.get("Admissible actions", ""))
        earlier = s.get("Actions so far in this game (latest last)", "")
        self.tried = [i.split(" -> ")[0] for i in _items(earlier)]
        self.memory = "\n".join(s.get(k, "") for k in ("Past episodes", "Concepts"))
        self.notes = s.get("This turn", "")
        self.observation = s.get("Current observation", "")
        step = re.match(r"\d+", s.get("Step", "0"))
        self.step = int(step.group()) if step else 0

    def note(self, node: str) -> str | None:
        found = re.search(rf"^\[{re.escape(node)}\] (.*)$", self.notes, re.M)
        return found.group(1) if found else None

    def holding_goal_object(self) -> bool:
        return any(a.startswith("move ") and self._object_is_goal(a) for a in self.admissible)

    def _object_is_goal(self, action: str) -> bool:
        words = action.split()
        return len(words) > 1 and words[1] in self.goal

    def pending(self) -> str | None:
        """The treatment (clean, heat, cool) the goal asks for and no recent action gave."""
        for verb in _APPLIANCES:
            if verb in self.goal and not any(t.startswith(f"{verb} ") for t in self.tried):
                return verb
        return None

    def remembered_places(self) -> set[str]:
        places: set[str] = set()
        for line in self.memory.lower().splitlines():
            if self.goal & set(_WORD.findall(line)):
                places |= set(_WORD.findall(line))
        return places

    def score(self, action: str, rng: random.Random) -> float:
        words = action.split()
        verb = words[0] if words else ""
        names = _names(action)
        value = rng.random() * 0.5
        pending = self.pending()
        if verb in _APPLIANCES and verb not in self.goal:
            value -= 2
        elif verb in _ACTS and self._object_is_goal(action):
            value += 6 if verb != "take" or not self.holding_goal_object() else -4
        elif verb == "move":
            target = action.rsplit(" to ", 1)[-1]
            wanted = self._object_is_goal(action) and _names(target) & self.goal
            value += 8 if wanted and pending is None else -6
        elif verb == "go":
            place = _names(action) - {"go", "to"}
            if self.holding_goal_object() and pending is not None:
                value += 5 if _APPLIANCES[pending] in place else 0.5
            elif self.holding_goal_object():
                value += 5 if place & self.goal else 0.5
            else:
                value += 1.5 + (1.5 if place & self.remembered_places() else 0)
        elif verb == "open":
            value += 1.0
        elif verb in ("look", "inventory", "help", "examine", "close"):
            value -= 2
        if action in self.tried:
            value -= 3 if verb != "go" else 2.5
        if names & self.goal and verb not in ("go", "move", *_ACTS):
            value += 0.5
        return value

    def best(self, rng: random.Random) -> str:
        if not self.admissible:
            return "look"
        return max(self.admissible, key=lambda a: self.score(a, rng))


def episodex_brain(slip: float = 0.1, detours: float = 0.25, blunder: float = 0.05) -> PairsFn:
    """A brain that hallucinates with probability ``slip`` as motor, blunders (a well-formed
    inadmissible command) with probability ``blunder``, and leaves the autopilot loop with
    probability ``detours`` as router (all seeded by the prompt)."""

    def brain(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
        text = pairs[-1][1] if pairs else ""
        rng = _rng(seed, call.role, call.caller, text)
        if call.caller == "router":
            return json.dumps({"next": _route(call, text, rng, detours)})
        if call.caller.startswith("memory:"):
            return json.dumps({"concepts": _concepts(text)})
        game = _Game(text)
        if call.role == "belief":
            return _belief(game)
        if call.role == "action_planner":
            return f"ACTION: [{game.best(rng)}]"
        if call.role == "motor":
            return _act(game, rng, slip, blunder)
        if call.role == "idea":
            return f"Idea: {game.best(rng)} looks like the way forward."
        if call.role == "learning":
            kinds = sorted(game.goal) or ["objects"]
            return f"Lesson: for {' and '.join(kinds)}, find the object before going to the target."
        return "look"

    return brain


def _act(game: _Game, rng: random.Random, slip: float, blunder: float = 0.0) -> str:
    if game.note("focus") is None and rng.random() < slip:
        return rng.choice(HALLUCINATIONS)
    elsewhere = [a[len("go to ") :] for a in game.admissible if a.startswith("go to ")]
    if elsewhere and rng.random() < blunder:
        return f"open {rng.choice(elsewhere)}"  # not admissible: it is not there
    plan = game.note("planning")
    allowed = Percept("", tuple(game.admissible))
    if plan is not None:
        proposed = read_action(plan, allowed.actions).proposed
        if allowed.allows(proposed):
            return proposed
    return game.best(rng)


def _belief(game: _Game) -> str:
    seen = " ".join(game.observation.split())[:160]
    holding = " I hold the object the task needs." if game.holding_goal_object() else ""
    task = f"The task is to {game.task}."
    return f"BELIEF STATE: [Timestep {game.step}: {task} I see: {seen}{holding}]"


def _route(call: CallInfo, text: str, rng: random.Random, detours: float) -> str:
    schema = (call.response_format or {}).get("json_schema", {}).get("schema", {})
    options = list(schema.get("properties", {}).get("next", {}).get("enum", []))
    if not options:
        return "planning"
    taken = set(re.findall(r"^\[([\w.-]+)\]", text, re.M))
    detour = [o for o in options if o not in taken and o not in ("planning", "focus")]
    if "planning" in options and (not detour or rng.random() >= detours):
        return "planning"
    return rng.choice(detour or options)


def _concepts(text: str) -> list[dict[str, object]]:
    stated = re.search(r"^Goal: (.*)$", text, re.M)
    words = sorted(_goal_words(stated.group(1) if stated else ""))
    beliefs = re.findall(r"^\[step (\d+)\] (.*)$", text, re.M)
    found: list[dict[str, object]] = []
    for step, belief in beliefs:
        seen = belief.lower()
        for word in words:
            place = re.search(rf"\b{word} \d+\b.*?\bon the (\w+)", seen) or re.search(
                rf"\bon the (\w+) \d+, you see [^.]*\b{word}\b", seen
            )
            if place:
                where = f"A {word} may be found on a {place.group(1)}."
                found.append({"text": where, "steps": [int(step)]})
    goal = " ".join(words) or "finish"
    found.append({"text": f"To {goal}, take the object first, then carry it."})
    found.append({"text": "Visit places not yet explored before revisiting old ones."})
    unique: dict[str, dict[str, object]] = {}
    for concept in found:
        unique.setdefault(str(concept["text"]), concept)
    return list(unique.values())[:4]


BRAINS: Mapping[str, PairsFn] = {
    "brain": episodex_brain(),
    "steady": episodex_brain(slip=0.0, detours=0.0, blunder=0.0),
}
"""The shipped brains: ``brain`` slips and detours now and then, ``steady`` never does."""
