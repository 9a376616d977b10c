"""Golden trial files: one seeded trial of shipped fake-model configs, kept to show any change
in behaviour (see ``cases.py``; regenerate on purpose: ``python -m tests.golden.regenerate``)."""
