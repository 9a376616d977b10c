"""Private working memory: the module (a three-section text document), the five edit tools, their
schemas and prompt guide, and reading tool calls out of a model's reply."""
