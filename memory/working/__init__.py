"""Private working memory: a three-section text document and the tools that edit it."""
