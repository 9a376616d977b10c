"""Revision tasks: scripted multi-turn scenarios where the user sets, revises and checks values."""
