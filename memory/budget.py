"""Fitting a rendered memory into a prompt's token budget."""

from __future__ import annotations

from cogarch.tokens import count_tokens


def truncate_to_budget(text: str, budget_tokens: int | None) -> str:
    """Keep whole lines from the top until the budget is reached."""
    if budget_tokens is None or count_tokens(text) <= budget_tokens:
        return text
    kept: list[str] = []
    used = 0
    for line in text.splitlines():
        cost = count_tokens(line) + 1
        if used + cost > budget_tokens:
            break
        kept.append(line)
        used += cost
    return "\n".join(kept)
