"""API keys from the environment and from CODEX_HOME/auth.json."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from codex_core.auth import load_api_key, save_api_key
from codex_core.model_provider import ModelProviderInfo, built_in_model_providers

OPENAI = built_in_model_providers({})["openai"]
OSS = built_in_model_providers({})["oss"]


def test_auth_save_writes_private_file(tmp_path: Path) -> None:
    path = save_api_key(tmp_path, "sk-test-1234")
    assert path == tmp_path / "auth.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {"auth_mode": "apikey", "OPENAI_API_KEY": "sk-test-1234"}
    assert [p.name for p in tmp_path.iterdir()] == ["auth.json"]


def test_auth_save_replaces_the_file_and_creates_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "auth.json").write_text(json.dumps({"OPENAI_API_KEY": "old", "tokens": {"a": 1}}))
    save_api_key(home, "new")
    # As `codex login --with-api-key` of Codex 0.169: the whole file is replaced.
    assert json.loads((home / "auth.json").read_text()) == {
        "auth_mode": "apikey",
        "OPENAI_API_KEY": "new",
    }
    fresh = tmp_path / "fresh" / "codex"
    save_api_key(fresh, "k")
    assert (fresh / "auth.json").is_file()


def test_auth_environment_variable_wins_over_auth_json(tmp_path: Path) -> None:
    save_api_key(tmp_path, "from-file")
    assert load_api_key(tmp_path, OPENAI, {"OPENAI_API_KEY": "from-env"}) == "from-env"
    assert load_api_key(tmp_path, OPENAI, {"OPENAI_API_KEY": "  "}) == "from-file"
    assert load_api_key(tmp_path, OPENAI, {}) == "from-file"


def test_auth_json_only_for_openai_style_providers(tmp_path: Path) -> None:
    save_api_key(tmp_path, "from-file")
    assert load_api_key(tmp_path, OSS, {}) is None
    custom = ModelProviderInfo(name="c", base_url="http://x", env_key="CUSTOM_KEY")
    assert load_api_key(tmp_path, custom, {}) is None
    assert load_api_key(tmp_path, custom, {"CUSTOM_KEY": "c-key"}) == "c-key"
    proxy = ModelProviderInfo(name="p", base_url="http://x", env_key="OPENAI_API_KEY")
    assert load_api_key(tmp_path, proxy, {}) == "from-file"


def test_auth_missing_or_broken_auth_json_means_no_key(tmp_path: Path) -> None:
    assert load_api_key(tmp_path, OPENAI, {}) is None
    (tmp_path / "auth.json").write_text("{not json")
    assert load_api_key(tmp_path, OPENAI, {}) is None
    (tmp_path / "auth.json").write_text('["a list"]')
    assert load_api_key(tmp_path, OPENAI, {}) is None
