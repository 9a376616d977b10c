"""Which model proposes candidates when the set runs short, and whether it is the agent's own.

The paper tops the candidate set up with a separate model; when the helper is the model under
test, the agent's own model writes the alternatives it is then asked about. The trial records
the proposer either way, with a warning in that case.
"""

from __future__ import annotations

from dataclasses import dataclass

from cogarch.core.task import TrialContext

PROPOSER_CALLER = "sct:candidates"
"""The ``caller`` of the helper's proposal calls, so a fake can tell them from the agent's."""


def own_model_warning(provider: str) -> str:
    return (
        f"candidate proposals come from the agent's own provider '{provider}'; the paper used "
        "a separate model (set helper_provider in the run config)"
    )


@dataclass(frozen=True)
class Proposer:
    name: str | None
    """``provider/model`` of the helper, None when there is none."""
    is_agent: bool | None
    warning: str | None

    @classmethod
    def of(cls, ctx: TrialContext) -> Proposer:
        helper = ctx.helper_provider
        if helper is None:
            return cls(None, None, None)
        model = ctx.models(helper).model
        name = f"{helper}/{model}" if model else helper
        own = ctx.agent_provider is not None and helper == ctx.agent_provider
        return cls(name, own, own_model_warning(helper) if own else None)
