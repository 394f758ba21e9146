"""The app-server warm-up's guess of whether its threads will talk https (issue 29): read
before any configuration loads, plain http only when the settings plainly say so."""

from __future__ import annotations

from pathlib import Path

from codex_core.config.flags import ConfigOverrides
from codex_core.servers.app_server.provider_guess import may_use_https

LOCAL = 'model_providers.local={name="local",base_url="http://127.0.0.1:8080/v1"}'


def _env(home: Path, **extra: str) -> dict[str, str]:
    return {"CODEX_HOME": str(home), **extra}


def test_provider_guess_default_openai_is_https(tmp_path: Path) -> None:
    assert may_use_https([], None, _env(tmp_path)) is True


def test_provider_guess_openai_base_url_from_the_environment(tmp_path: Path) -> None:
    env = _env(tmp_path, OPENAI_BASE_URL="http://127.0.0.1:9/v1")
    assert may_use_https([], None, env) is False


def test_provider_guess_http_provider_from_overrides(tmp_path: Path) -> None:
    overrides = [LOCAL, 'model_provider="local"', "model=gpt-5"]  # a bare word elsewhere
    assert may_use_https(overrides, None, _env(tmp_path)) is False


def test_provider_guess_http_provider_from_config_toml_and_profile(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        '[model_providers.local]\nname = "local"\nbase_url = "http://localhost:1/v1"\n'
        '[model_providers.remote]\nname = "remote"\nbase_url = "https://example.com/v1"\n',
        encoding="utf-8",
    )
    (tmp_path / "work.config.toml").write_text('model_provider = "local"\n', encoding="utf-8")
    env = _env(tmp_path)
    assert may_use_https([], ConfigOverrides(profile="work"), env) is False
    assert may_use_https([], ConfigOverrides(model_provider="remote"), env) is True
    assert may_use_https(['model_provider="remote"'], ConfigOverrides(profile="work"), env)


def test_provider_guess_oss_is_http_unless_its_url_says_https(tmp_path: Path) -> None:
    assert may_use_https([], ConfigOverrides(oss=True), _env(tmp_path)) is False
    env = _env(tmp_path, CODEX_OSS_BASE_URL="https://ollama.example/v1")
    assert may_use_https([], ConfigOverrides(oss=True), env) is True


def test_provider_guess_unreadable_settings_count_as_https(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("model_provider = [", encoding="utf-8")
    assert may_use_https([LOCAL, 'model_provider="local"'], None, _env(tmp_path)) is True
    assert may_use_https(["model_provider=lo cal"], None, _env(tmp_path / "none")) is True
    unknown = ['model_provider="elsewhere"']  # a provider no file defines
    assert may_use_https(unknown, None, _env(tmp_path / "none")) is True
