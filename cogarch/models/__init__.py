"""The model layer: one ``Model`` over any AutoGen ``ChatCompletionClient``."""

from cogarch.models.cache import ResponseCache
from cogarch.models.fakes import CallInfo, FakeReply, FunctionModel, ScriptedModel, pairs_model
from cogarch.models.guard import allow_model_requests, model_requests_allowed
from cogarch.models.messages import LLMMessage, as_pairs, assistant, system, user
from cogarch.models.metering import Meter
from cogarch.models.model import Model, split_reasoning
from cogarch.models.providers import FakeTable, ProviderConfig, Providers, build_model
from cogarch.models.retry import RetryPolicy
from cogarch.models.structured import Structured, extract_json, structured
from cogarch.models.types import Completion, ToolCall, Usage

__all__ = [
    "CallInfo",
    "Completion",
    "FakeReply",
    "FakeTable",
    "FunctionModel",
    "LLMMessage",
    "Meter",
    "Model",
    "ProviderConfig",
    "Providers",
    "ResponseCache",
    "RetryPolicy",
    "ScriptedModel",
    "Structured",
    "ToolCall",
    "Usage",
    "allow_model_requests",
    "as_pairs",
    "assistant",
    "build_model",
    "extract_json",
    "model_requests_allowed",
    "pairs_model",
    "split_reasoning",
    "structured",
    "system",
    "user",
]
