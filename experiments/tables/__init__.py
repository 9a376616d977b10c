"""A run's results as tables: the tidy table (one row per trial file), the end-of-run
summary, the task's own numbers and tables, what model calls cost, and which reading
of a task's outcomes a table uses."""
