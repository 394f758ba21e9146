"""What one model request is made of: instructions, the history, and the tools offered."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from codex_core.protocol.items import ResponseItem


@dataclass
class ToolSpec:
    """A function tool offered to the model; `parameters` is its JSON schema."""

    name: str
    description: str
    parameters: dict[str, Any]
    kind: Literal["function"] = "function"

    def to_responses(self) -> dict[str, Any]:
        """The tool as the Responses API expects it."""
        return {
            "type": "function",
            "name": self.name,
            "description": self.description,
            "strict": False,
            "parameters": self.parameters,
        }

    def to_chat(self) -> dict[str, Any]:
        """The tool as the Chat Completions API expects it."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


@dataclass
class Prompt:
    """One model request: base instructions, the conversation so far, and the tools."""

    instructions: str
    input: list[ResponseItem]
    tools: list[ToolSpec] = field(default_factory=list)
    output_schema: dict[str, Any] | None = None
    """JSON schema the final answer must follow (`codex exec --output-schema`)."""
