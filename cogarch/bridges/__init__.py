"""Bridges to other agent frameworks: cogarch's memory and agents inside them, their agents
inside cogarch's tasks. Each bridge is an optional extra; nothing below this layer imports
one (the run config reaches a bridge by name only when it names a framework)."""
