"""cogarch's tasks as Inspect AI evals (the ``inspect`` extra).

Every registered task is an Inspect task named ``cogarch/<kind>`` (and ``cogarch/task`` plays
a task of your own, named by import path or file path), found by Inspect through the
package's ``inspect_ai`` entry point (:mod:`cogarch.bridges.inspect.tasks`). Each sample is
one trial, played by cogarch's own runner setup with the seed ``cogarch run`` gives it; the
agent's model is Inspect's (:mod:`.model`) or one of cogarch's scripted fakes.
"""
