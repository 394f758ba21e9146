"""API keys: from the provider's environment variable, else from CODEX_HOME/auth.json."""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from codex_core.model_provider import ModelProviderInfo
from codex_core.private_files import private_mkdir

log = logging.getLogger(__name__)

AUTH_JSON = "auth.json"
OPENAI_API_KEY = "OPENAI_API_KEY"
CODEX_API_KEY = "CODEX_API_KEY"
"""An API key for providers that use OpenAI auth, read from the environment as 0.169 does."""


def _uses_openai_auth(provider: ModelProviderInfo) -> bool:
    return provider.requires_openai_auth or provider.env_key == OPENAI_API_KEY


def read_auth_json(codex_home: Path) -> dict[str, Any]:
    """The parsed auth.json, or an empty dict when it is missing or unreadable."""
    path = codex_home / AUTH_JSON
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as err:
        log.warning("ignoring %s: %s", path, err)
        return {}
    if not isinstance(data, dict):
        log.warning("ignoring %s: it is not a JSON object", path)
        return {}
    return data


def load_api_key(
    codex_home: Path, provider: ModelProviderInfo, environ: Mapping[str, str] | None = None
) -> str | None:
    """The API key for `provider`, or None if there is none.

    The provider's `env_key` variable wins; providers that use OpenAI auth (the built-in
    `openai`, `requires_openai_auth = true`, or an `env_key` of OPENAI_API_KEY) then take
    `CODEX_API_KEY` from the environment, as Codex 0.169 does, and last the key saved by
    `codex login` in auth.json.

    Args:
        codex_home: The CODEX_HOME directory.
        provider: The selected model provider.
        environ: The environment; `os.environ` when omitted.
    """
    env = os.environ if environ is None else environ
    if provider.env_key:
        value = env.get(provider.env_key, "").strip()
        if value:
            return value
    if not _uses_openai_auth(provider):
        return None
    from_codex_env = env.get(CODEX_API_KEY, "").strip()
    if from_codex_env:
        return from_codex_env
    stored = read_auth_json(codex_home).get(OPENAI_API_KEY)
    if isinstance(stored, str) and stored.strip():
        return stored.strip()
    return None


def save_api_key(codex_home: Path, key: str) -> Path:
    """Store `key` in CODEX_HOME/auth.json (mode 0600, atomic) as `codex login
    --with-api-key` of Codex 0.169 does: `{"auth_mode": "apikey", "OPENAI_API_KEY": key}`.

    Returns:
        The path of auth.json.

    Raises:
        OSError: CODEX_HOME or auth.json cannot be written.
    """
    private_mkdir(codex_home)
    path = codex_home / AUTH_JSON
    data = {"auth_mode": "apikey", OPENAI_API_KEY: key}
    # mkstemp creates the file with mode 0600, so the key is never readable by others.
    fd, tmp = tempfile.mkstemp(prefix=".auth.json.", dir=codex_home)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def delete_auth(codex_home: Path) -> bool:
    """Remove CODEX_HOME/auth.json (`codex logout`); False when there was none.

    Raises:
        OSError: If it exists but cannot be removed.
    """
    try:
        (codex_home / AUTH_JSON).unlink()
    except FileNotFoundError:
        return False
    return True


def masked_key(key: str) -> str:
    """An API key as `codex login status` shows it: the first 8 and last 5 characters."""
    return "***" if len(key) <= 13 else f"{key[:8]}***{key[-5:]}"
