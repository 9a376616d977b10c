"""The figures of a run's report, drawn as PNG files, and where a figure's labels go."""
