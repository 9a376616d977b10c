"""The Episodex meta-agent's specialists: the belief-keeping conscious node, perception,
planning, the motor, focus, memory recall, idea, learning and recording (the agent is
``workspace/agents/episodex.yaml``)."""
