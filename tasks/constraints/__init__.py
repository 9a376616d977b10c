"""Constraint retention over long dialogues, audited by a judge with canonical memory (ACC)."""
