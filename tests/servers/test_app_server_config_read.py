"""`config/read` (asked by 0.169's TUI when it attaches with `--remote`): the leaves the user
set, their origin and the layer's version as codex-rust 0.169 answers for the same
config.toml (recorded in tests/fixtures/config_read_0169.json)."""

from __future__ import annotations

import json
from pathlib import Path

from codex_core.servers.app_server.config_read import layer_version, leaf_paths
from tests.servers.conftest import AppServerFactory

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "config_read_0169.json"


def test_config_read_origins_and_layer_as_0169(
    app_server: AppServerFactory, codex_home: Path
) -> None:
    recorded = json.loads(FIXTURE.read_text().replace("{home}", str(codex_home.resolve())))
    (codex_home / "config.toml").write_text(recorded["config_toml"])
    client = app_server()
    client.initialize()
    plain = client.call("config/read", {})["result"]
    assert plain["origins"] == recorded["origins"]
    assert "layers" not in plain or plain["layers"] is None
    for key, value in recorded["config_subset"].items():
        assert plain["config"][key] == value
    layered = client.call("config/read", {"includeLayers": True})["result"]
    user = next(layer for layer in recorded["layers"] if layer["name"]["type"] == "user")
    assert layered["layers"] == [user]
    client.close()


def test_config_read_without_config_file(app_server: AppServerFactory) -> None:
    client = app_server()
    client.initialize()
    result = client.call("config/read", {"includeLayers": True})["result"]
    assert result["config"] == {} and result["origins"] == {}
    assert result["layers"][0]["version"] == layer_version({})
    client.close()


def test_config_read_leaf_paths() -> None:
    table = {"a": 1, "t": {"x": [1, {"y": 2}], "e": []}}
    assert leaf_paths(table) == ["a", "t.x.0", "t.x.1.y", "t.e"]


def test_config_requirements_read_as_0169_without_requirements(
    app_server: AppServerFactory,
) -> None:
    client = app_server()
    client.initialize()
    result = client.call("configRequirements/read", None)["result"]
    assert result == {"requirements": None, "supportsIndependentSpeedModes": True}
    client.close()
