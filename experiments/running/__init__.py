"""Playing one run: its config, the worker that plays one trial, the runner that drives
every trial through an execution backend, and the checks and plan before a run
(``cogarch run CONFIG --dry-run``)."""
