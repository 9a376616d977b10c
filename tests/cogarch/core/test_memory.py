"""An episode's end as a task reports it: the trajectory is a typed field."""

from __future__ import annotations

from cogarch.core.memory import EpisodeEnd, Move, Trajectory


def test_a_trajectory_reads_as_the_game_the_agent_lived() -> None:
    lived = Trajectory("You are in a room.", (Move("go to desk 1", "You arrive."), Move("", "?")))
    assert lived.text() == "You are in a room.\n> go to desk 1\nYou arrive.\n> (no action)\n?"
    assert Trajectory("You are in a room.").text() == ""
    end = EpisodeEnd(0, False, label="put a mug in the sink", trajectory=lived)
    assert end.trajectory is lived and end.info == {}
    assert EpisodeEnd(1, True).trajectory is None
