"""Writing trust levels and the default model back to config.toml without losing the rest."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest

from codex_core.config import (
    ConfigError,
    ConfigOverrides,
    load_config,
    set_default_model,
    set_project_trust_level,
)

ORIGINAL = """\
# my settings
model = "o3"  # the good one
approval_policy = "on-request"

# local models
[model_providers.lm]
name = "LM Studio"   # shown in the UI
base_url = "http://127.0.0.1:1234/v1"
"""


def test_config_edit_trust_appends_table_and_keeps_comments(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(ORIGINAL)
    project = tmp_path / "proj"
    project.mkdir()
    set_project_trust_level(tmp_path, project, "trusted")
    text = (tmp_path / "config.toml").read_text()
    assert text == ORIGINAL + f'\n[projects."{project.resolve()}"]\ntrust_level = "trusted"\n'
    config = load_config(ConfigOverrides(cwd=project), codex_home=tmp_path, environ={})
    assert config.project_trust_level() == "trusted"
    assert config.model_providers["lm"].name == "LM Studio"


def test_config_edit_trust_replaces_existing_value_in_place(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    before = (
        f'model = "o3"\n\n[projects."{project}"]\n# why\ntrust_level = "untrusted"  # for now\n'
        "\n[tui]\nnotifications = true\n"
    )
    (tmp_path / "config.toml").write_text(before)
    set_project_trust_level(tmp_path, project, "trusted")
    after = (tmp_path / "config.toml").read_text()
    assert after == before.replace('"untrusted"  # for now', '"trusted"  # for now')


def test_config_edit_trust_inserts_key_into_existing_table(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    before = f'[projects."{project}"]\n\n[tui]\nnotifications = true\n'
    (tmp_path / "config.toml").write_text(before)
    set_project_trust_level(tmp_path, project, "untrusted")
    after = (tmp_path / "config.toml").read_text()
    assert after == before.replace("]\n\n", ']\ntrust_level = "untrusted"\n\n', 1)


def test_config_edit_trust_creates_file_and_home(tmp_path: Path) -> None:
    home = tmp_path / "new-home"
    set_project_trust_level(home, tmp_path, "trusted")
    doc = tomllib.loads((home / "config.toml").read_text())
    assert doc == {"projects": {str(tmp_path.resolve()): {"trust_level": "trusted"}}}


def test_config_edit_falls_back_to_full_rewrite_for_inline_tables(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    before = f'model = "o3"\nprojects = {{ "{project}" = {{ trust_level = "untrusted" }} }}\n'
    (tmp_path / "config.toml").write_text(before)
    set_project_trust_level(tmp_path, project, "trusted")
    doc = tomllib.loads((tmp_path / "config.toml").read_text())
    assert doc == {"model": "o3", "projects": {str(project.resolve()): {"trust_level": "trusted"}}}


def test_config_edit_refuses_to_touch_malformed_file(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("model = \n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        set_project_trust_level(tmp_path, tmp_path, "trusted")
    assert (tmp_path / "config.toml").read_text() == "model = \n"


def test_config_edit_default_model_replaces_and_keeps_rest(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(ORIGINAL)
    set_default_model(tmp_path, "gpt-5-codex", "high")
    after = (tmp_path / "config.toml").read_text()
    expected = ORIGINAL.replace('"o3"  # the good', '"gpt-5-codex"  # the good').replace(
        "\n# local models", 'model_reasoning_effort = "high"\n\n# local models'
    )
    assert after == expected
    set_default_model(tmp_path, "o4-mini")
    doc = tomllib.loads((tmp_path / "config.toml").read_text())
    assert doc["model"] == "o4-mini" and "model_reasoning_effort" not in doc
    assert doc["model_providers"]["lm"]["name"] == "LM Studio"


def test_config_edit_default_model_goes_above_first_table(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("# intro\n[tui]\nnotifications = true\n")
    set_default_model(tmp_path, "o3", "low")
    assert (tmp_path / "config.toml").read_text() == (
        'model = "o3"\nmodel_reasoning_effort = "low"\n# intro\n[tui]\nnotifications = true\n'
    )


def test_config_edit_keeps_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('model = "o3"\n')
    os.chmod(path, 0o600)
    set_default_model(tmp_path, "o4-mini")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]
