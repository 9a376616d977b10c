"""Reflexion-style memory: a lesson written after each lost episode, carried into the next."""

from .module import HEADER, ReflexionMemory, ReflexionParams

__all__ = ["HEADER", "ReflexionMemory", "ReflexionParams"]
