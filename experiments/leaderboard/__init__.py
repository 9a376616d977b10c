"""A suite's leaderboard, rebuilt from its folder: each cell's values and settings, each
column's estimates, tests, headroom and ranking, and its files (Markdown, CSV, JSON,
HTML)."""
