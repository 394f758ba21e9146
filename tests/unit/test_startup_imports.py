"""What the path to exec's first model request does not load (issue 29): fresh interpreters."""

from __future__ import annotations

import subprocess
import sys


def loaded_modules(code: str) -> set[str]:
    probe = code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    return set(done.stdout.split())


def test_startup_imports_pydantic_validators_skip_the_plugin_lookup() -> None:
    # Building validators would import importlib.metadata and read every installed
    # package's entry points to find pydantic plugins; codex uses none.
    mods = loaded_modules(
        "import codex_core\n"
        "from codex_core.protocol import Event, TaskStartedEvent, TokenUsage\n"
        "assert TokenUsage(input_tokens=2).input_tokens == 2\n"
        "event = Event(id='1', msg=TaskStartedEvent(model_context_window=5))\n"
        "assert event.msg.to_wire()['model_context_window'] == 5\n"
    )
    assert "importlib.metadata" not in mods
    assert "pydantic.plugin._loader" in mods  # the stand-in answered
