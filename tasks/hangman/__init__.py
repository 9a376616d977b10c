"""Hangman for the Self-Consistency Test: prompts, vocabulary, rules, player, candidates, hosts.

Everything here is deterministic code; only the agent under test is a model. Nothing is loaded
on import: the English vocabulary is read from wordfreq and indexed on first use.
"""
