"""Specialist types, each in its own module; see ``workspace.registry.SPECIALISTS``."""
