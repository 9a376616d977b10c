"""What the long-term memory benchmarks (LoCoMo, LongMemEval) share: feeding a dialogue to an
agent and costing it, reading what its memory retrieved, asking the run's judge, the official
retrieval metrics, and the word-overlap reading of the scripted fake readers."""
