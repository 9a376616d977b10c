"""The Diagnosis Simulator of the Self-Consistency Test: DDXPlus catalogue, player, candidates.

The agent plays a patient with a hidden condition; a seeded player asks yes/no questions about
DDXPlus evidences; at the fork the candidates are the conditions still consistent with the
answers. Everything here is deterministic code; only the agent under test is a model.
"""
