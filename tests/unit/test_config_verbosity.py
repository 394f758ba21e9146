"""`model_verbosity` reaches GPT-5 requests as `text.verbosity` (beside an output schema)."""

from __future__ import annotations

from pathlib import Path

from codex_core.client.prompt import Prompt
from codex_core.client.responses import responses_body
from codex_core.config import ConfigOverrides, load_config
from codex_core.model_family import supports_verbosity
from codex_core.protocol import user_message
from codex_core.session.model_clients import default_client_factory
from codex_core.turn_context import TurnContext


def test_config_verbosity_sent_as_text_verbosity() -> None:
    prompt = Prompt("be brief", [user_message("hi")], output_schema={"type": "object"})
    body = responses_body(
        prompt, "gpt-5", session_id="s", effort=None, summary=None, verbosity="low"
    )
    assert body["text"] == {
        "verbosity": "low",
        "format": {
            "type": "json_schema",
            "name": "codex_output_schema",
            "schema": {"type": "object"},
            "strict": True,
        },
    }


def test_config_verbosity_absent_when_unset() -> None:
    body = responses_body(
        Prompt("x", [user_message("hi")]), "gpt-5", session_id="s", effort=None, summary=None
    )
    assert "text" not in body


def test_config_verbosity_only_for_gpt5_models() -> None:
    assert supports_verbosity("gpt-5") and supports_verbosity("gpt-5.1-mini")
    assert not supports_verbosity("gpt-5-codex") and not supports_verbosity("o3")


async def test_config_verbosity_from_config_to_the_request(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('model = "gpt-5"\nmodel_verbosity = "high"\n')
    config = load_config(ConfigOverrides(cwd=tmp_path), codex_home=tmp_path, environ={})
    assert config.warnings == []
    for model, expected in (("gpt-5", {"verbosity": "high"}), ("gpt-5-codex", None)):
        turn = TurnContext(
            cwd=tmp_path,
            model=model,
            approval_policy=config.approval_policy,
            sandbox_policy=config.sandbox_policy,
        )
        client = default_client_factory(config, "sess", turn)
        try:
            body = client.request_body(Prompt("x", [user_message("hi")]))
        finally:
            await client.aclose()
        assert body.get("text") == expected
