"""``cogarch report RUN_DIR``: one run's report as Markdown and a self-contained HTML
page, with its statistics against the baselines and its episode tables."""
