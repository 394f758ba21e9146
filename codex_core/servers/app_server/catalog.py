"""`model/list`: the configured model first, then the models this build knows."""

from __future__ import annotations

from codex_core.model_family import supports_reasoning
from codex_core.servers.app_server.model_methods import ModelInfo, ReasoningEffortOption

KNOWN_MODELS = ("gpt-5.1-codex", "gpt-5.1-codex-mini", "gpt-5.1", "gpt-5-codex", "gpt-5")

_EFFORTS = (
    ("low", "Fast responses with lighter reasoning"),
    ("medium", "Balances speed and reasoning depth for everyday tasks"),
    ("high", "Greater reasoning depth for complex problems"),
)


def model_catalog(default_model: str) -> list[ModelInfo]:
    """The models offered to clients; `default_model` is marked `isDefault`."""
    names = [default_model, *(m for m in KNOWN_MODELS if m != default_model)]
    out: list[ModelInfo] = []
    for name in names:
        reasoning = supports_reasoning(name)
        efforts = [ReasoningEffortOption(reasoningEffort=e, description=d) for e, d in _EFFORTS]
        out.append(
            ModelInfo(
                id=name,
                model=name,
                displayName=name,
                description="configured model" if name == default_model else "",
                supportedReasoningEfforts=efforts if reasoning else [],
                defaultReasoningEffort="medium",
                inputModalities=["text", "image"],
                isDefault=name == default_model,
            )
        )
    return out
