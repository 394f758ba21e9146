"""Whether a server's threads will talk https, guessed before the configuration loads.

The app-server's warm-up starts building the TLS context (`codex_core.tls_context`: ~250M
instructions of OpenSSL in a thread of its own) as the process starts, long before a
`thread/start` loads a configuration. For a plain http provider (a local server, the
scripted one of the tests) that build was waste on the cores the first request and the TUI
need. This reads what names the provider — the server's `-c` overrides and flags,
config.toml and the profile's file — with the loader's own pieces but without validating
(the warm-up must not wait for pydantic). Only the warm-up's timing depends on it: every session still prepares
the context its own provider needs (`Session.create`), and a client builds it if nothing
did. Whatever cannot be read plainly is taken for https, the old behaviour.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from codex_core.config.flags import ConfigOverrides
from codex_core.config.overrides import apply_override, parse_cli_overrides
from codex_core.config.profiles import merge_tables, profile_path
from codex_core.frontend.home import find_codex_home

BUILT_IN_HTTP = {"oss"}
"""Built-in providers on plain http unless their environment says otherwise."""


def may_use_https(
    cli_overrides: Sequence[str],
    flags: ConfigOverrides | None = None,
    environ: Mapping[str, str] | None = None,
) -> bool:
    """False only when the provider these settings choose is plainly on http."""
    env = os.environ if environ is None else environ
    try:
        url = _base_url(cli_overrides, flags or ConfigOverrides(), env)
    except Exception:  # unreadable, odd shapes: the loader will say; build the context
        return True
    return url is None or not url.startswith("http:")


def _base_url(
    cli_overrides: Sequence[str], flags: ConfigOverrides, env: Mapping[str, str]
) -> str | None:
    home = find_codex_home(env)
    data = _read(home / "config.toml")
    if flags.profile:
        merge_tables(data, _read(profile_path(home, flags.profile)))
    for key, value in parse_cli_overrides(cli_overrides):  # as the loader reads `-c`
        apply_override(data, key, value)
    provider = flags.model_provider or ("oss" if flags.oss else None)
    provider = provider or data.get("model_provider") or "openai"
    if provider == "openai":
        return str(data.get("openai_base_url") or env.get("OPENAI_BASE_URL") or "https:")
    if provider in BUILT_IN_HTTP:
        return "https:" if env.get("CODEX_OSS_BASE_URL", "http:").startswith("https:") else "http:"
    table = data.get("model_providers", {}).get(provider, {})
    base_url = table.get("base_url")
    return base_url if isinstance(base_url, str) else None


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
