"""Suites: tasks x agents on shared providers, each cell an ordinary run; a suite's
config, folder and files, its checks and dry run, its judge audit, and running it."""
