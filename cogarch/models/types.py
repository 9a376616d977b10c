"""What a model call returns and what it costs (defined with the model interface)."""

from cogarch.core.model import Completion, ToolCall, Usage

__all__ = ["Completion", "ToolCall", "Usage"]
