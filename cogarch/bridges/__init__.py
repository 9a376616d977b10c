"""Bridges to other agent frameworks and harnesses: cogarch's memory and agents inside them,
their agents inside cogarch's tasks, cogarch's tasks inside their evals. Each bridge is an
optional extra. The bridges are the top layer: nothing of the framework imports them (the
runner names a framework's host builder by import path,
``cogarch.experiments.running.framework_hosts``),
and the Inspect AI bridge (``inspect``) plays tasks through the runner's own setup."""
