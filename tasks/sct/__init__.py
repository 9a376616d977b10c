"""The task-agnostic Self-Consistency Test engine, its parsers and its evaluator."""
