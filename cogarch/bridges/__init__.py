"""Bridges to other harnesses: cogarch's tasks and agents where the field already works.

A bridge sits above the experiments layer (it may use the runner's setup, seeds and fakes);
nothing in the package below imports a bridge.
"""
