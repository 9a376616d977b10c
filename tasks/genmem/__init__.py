"""A generated, seeded long-conversation memory benchmark: dated chats between a user and an
assistant, facts about fictional people, pets, places, jobs, possessions and numbers among
ordinary chat, and questions over LongMemEval's five abilities with known answers and
evidence turns (see ``docs/guides/genmem.md``)."""
