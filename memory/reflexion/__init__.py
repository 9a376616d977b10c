"""Reflexion-style memory: a lesson written after each lost episode, carried into the next."""
