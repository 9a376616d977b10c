"""Reflexion-style memory: a lesson written after each lost episode, carried into the next."""

from .module import ReflexionMemory, ReflexionParams

__all__ = ["ReflexionMemory", "ReflexionParams"]
