"""Config writes through tomlkit: comments, blank lines, ordering and odd layouts survive."""

from __future__ import annotations

import tomllib
from pathlib import Path

from codex_core.config import set_default_model, set_project_trust_level

COMMENTED = """# My codex settings — keep these notes!
model = "o3"   # chosen after a long evening

# providers below
[model_providers.local]   # my box
name = "Local"
base_url = "http://localhost:1234/v1"  # LM Studio
env = { A = "1", B = "2" }

[projects."/somewhere/else"]
trust_level = "untrusted"  # never again
"""


def test_config_edit_roundtrip_keeps_every_comment(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(COMMENTED)
    project = tmp_path / "proj"
    project.mkdir()
    set_project_trust_level(tmp_path, project, "trusted")
    set_default_model(tmp_path, "gpt-5", "high")
    after = (tmp_path / "config.toml").read_text()
    for line in COMMENTED.splitlines():
        if line.startswith("model ="):
            continue
        assert line in after
    assert 'model = "gpt-5"   # chosen after a long evening' in after
    doc = tomllib.loads(after)
    assert doc["model_reasoning_effort"] == "high"
    assert doc["projects"][str(project.resolve())] == {"trust_level": "trusted"}
    assert doc["model_providers"]["local"]["env"] == {"A": "1", "B": "2"}


def test_config_edit_roundtrip_inline_projects_table(tmp_path: Path) -> None:
    # An inline table the old text editor could only handle by rewriting the file.
    (tmp_path / "config.toml").write_text(
        '# keep me\nprojects = { "/a" = { trust_level = "trusted" } }\n'
    )
    set_project_trust_level(tmp_path, tmp_path, "untrusted")
    after = (tmp_path / "config.toml").read_text()
    assert after.startswith("# keep me\n")
    doc = tomllib.loads(after)
    assert doc["projects"] == {
        "/a": {"trust_level": "trusted"},
        str(tmp_path.resolve()): {"trust_level": "untrusted"},
    }


def test_config_edit_roundtrip_twice_is_stable(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(COMMENTED)
    set_default_model(tmp_path, "gpt-5", "high")
    once = (tmp_path / "config.toml").read_text()
    set_default_model(tmp_path, "gpt-5", "high")
    assert (tmp_path / "config.toml").read_text() == once
