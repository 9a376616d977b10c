"""Test helpers that ship with cogarch: a fault-injecting OpenAI-compatible server."""

from cogarch.testing.fault_server import (
    FAULT_KINDS,
    FaultServer,
    RecordedRequest,
    Step,
    allowing_model_requests,
)

__all__ = ["FAULT_KINDS", "FaultServer", "RecordedRequest", "Step", "allowing_model_requests"]
