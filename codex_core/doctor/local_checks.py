"""The checks of `codex doctor` that look only at this machine: installation, config, auth,
CODEX_HOME and the network environment. None of them runs a program or opens a socket."""

from __future__ import annotations

import os
import shutil
import stat
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from codex_core.doctor import Check, DetailValue, Status

if TYPE_CHECKING:
    from codex_core.config import Config, ConfigOverrides

PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


def installation(executable: str, version: str, environ: Mapping[str, str]) -> Check:
    """Which codex runs, from where, and which program `codex` on PATH is."""
    import codex_core

    details: dict[str, DetailValue] = {
        "version": version,
        "current executable": executable,
        "package": str(Path(codex_core.__file__).resolve().parent.parent),
        "python": f"{sys.version.split()[0]} ({sys.executable})",
    }
    on_path = shutil.which("codex", path=environ.get("PATH"))
    if on_path is None:
        details["codex on PATH"] = "not found"
    elif Path(executable).exists() and _same_file(on_path, executable):
        details["codex on PATH"] = f"{on_path} (this one)"
    else:
        # informative only: the Codex CLI itself may well be installed beside this codex
        details["codex on PATH"] = f"{on_path} (another program)"
    roots = _package_roots()
    if len(set(roots.values())) != 1:
        details["packages"] = [f"{name}: {root}" for name, root in sorted(roots.items())]
        return Check(
            "installation",
            "install",
            "fail",
            "the codex packages come from different installations",
            details,
            "Reinstall codex (pip install --force-reinstall) into one environment.",
        )
    return Check("installation", "install", "ok", "installation looks consistent", details)


def _package_roots() -> dict[str, str]:
    """Where each of codex's packages would be imported from (without importing them)."""
    import importlib.util

    roots: dict[str, str] = {}
    for name in ("codex_core", "codex_tui", "sandbox_helper"):
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        roots[name] = str(Path(origin).resolve().parent.parent) if origin else "missing"
    return roots


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def config_load(
    overrides: ConfigOverrides, cli_overrides: Sequence[str], codex_home: Path
) -> tuple[Check, Config | None]:
    """Load the config as a session would; the check and the config (None when it failed)."""
    from codex_core.config import ConfigError, load_config
    from codex_core.features import effective

    path = codex_home / "config.toml"
    details: dict[str, DetailValue] = {
        "CODEX_HOME": str(codex_home),
        "config.toml": f"{path} ({'present' if path.is_file() else 'missing'})",
    }
    try:
        config = load_config(overrides, cli_overrides, codex_home=codex_home)
    except ConfigError as err:
        details["error"] = str(err)
        return (
            Check(
                "config.load",
                "config",
                "fail",
                "config could not be loaded",
                details,
                "Fix the reported config error, then rerun codex doctor.",
            ),
            None,
        )
    details.update(
        {
            "model": f"{config.model} · {config.model_provider_id}",
            "cwd": str(config.cwd),
            "profile": config.profile or "none",
            "MCP servers": str(len(config.mcp_servers)),
            "features on": ", ".join(n for n, on in effective(config.features).items() if on),
            "TUI mode": "inline" if config.tui_alternate_screen == "never" else "fullscreen",
        }
    )
    if config.warnings:
        details["warnings"] = list(config.warnings)
        return (
            Check(
                "config.load",
                "config",
                "warning",
                f"config loaded with {len(config.warnings)} warning(s)",
                details,
                "Remove or fix the keys named in the warnings (--strict-config makes them errors).",
            ),
            config,
        )
    return Check("config.load", "config", "ok", "config loaded", details), config


def auth_credentials(config: Config, environ: Mapping[str, str]) -> Check:
    """Whether the active provider has the key it needs (never the key itself)."""
    from codex_core.auth import AUTH_JSON, CODEX_API_KEY, load_api_key, read_auth_json

    provider = config.model_provider
    openai_auth = provider.requires_openai_auth or provider.env_key == "OPENAI_API_KEY"
    if config.model_provider_id == "openai":
        openai_auth = True
    names = sorted(
        {"OPENAI_API_KEY", CODEX_API_KEY, *([provider.env_key] if provider.env_key else [])}
    )
    present = [name for name in names if environ.get(name, "").strip()]
    auth_file = config.codex_home / AUTH_JSON
    details: dict[str, DetailValue] = {
        "auth env vars present": ", ".join(present) or "none",
        "auth file": f"{auth_file} ({'present' if auth_file.is_file() else 'missing'})",
        "model provider requires OpenAI auth": str(openai_auth).lower(),
    }
    if provider.env_key:
        state = "present" if provider.env_key in present else "missing"
        details["provider auth env var"] = f"{provider.env_key} ({state})"
    key = load_api_key(config.codex_home, provider, dict(environ))
    if key:
        stored = bool(read_auth_json(config.codex_home).get("OPENAI_API_KEY"))
        source = "the environment" if present else ("auth.json" if stored else "the provider")
        return Check("auth.credentials", "auth", "ok", f"API key found in {source}", details)
    if not provider.env_key and not openai_auth:
        return Check(
            "auth.credentials", "auth", "ok", "the model provider needs no credentials", details
        )
    if openai_auth:
        return Check(
            "auth.credentials",
            "auth",
            "fail",
            "no Codex credentials were found",
            details,
            "Run `codex login --with-api-key` or set OPENAI_API_KEY.",
        )
    return Check(
        "auth.credentials",
        "auth",
        "fail",
        "the model provider's key variable is not set",
        details,
        f"Set {provider.env_key} in the environment codex runs in.",
    )


def state_paths(codex_home: Path) -> Check:
    """CODEX_HOME: a directory this user owns and can write, closed to other users, and the
    sessions in it."""
    details: dict[str, DetailValue] = {}
    problems: list[str] = []
    fixes: list[str] = []
    try:
        info = codex_home.stat()
    except OSError as err:
        details["CODEX_HOME"] = f"{codex_home} ({err.strerror or err})"
        return Check(
            "state.paths",
            "state",
            "fail",
            "CODEX_HOME cannot be read",
            details,
            f"Create {codex_home} (mkdir -p) or point CODEX_HOME at a directory.",
        )
    mode = stat.S_IMODE(info.st_mode)
    details["CODEX_HOME"] = f"{codex_home} (dir, mode {mode:04o})"
    if not os.access(codex_home, os.W_OK | os.X_OK):
        problems.append("CODEX_HOME is not writable")
        fixes.append(f"chown $USER {codex_home}")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        problems.append("CODEX_HOME belongs to another user")
        fixes.append(f"chown $USER {codex_home}")
    if mode & 0o022:
        problems.append("other users can write to CODEX_HOME")
        fixes.append(f"chmod go-w {codex_home}")
    auth = codex_home / "auth.json"
    if auth.is_file():
        auth_mode = stat.S_IMODE(auth.stat().st_mode)
        details["auth.json"] = f"mode {auth_mode:04o}"
        if auth_mode & 0o077:
            problems.append("auth.json is readable by other users")
            fixes.append(f"chmod 600 {auth}")
    for label, folder in (
        ("active rollouts", "sessions"),
        ("archived rollouts", "archived_sessions"),
    ):
        details[label] = _rollout_inventory(codex_home / folder)
    if problems:
        status: Status = "fail" if "CODEX_HOME is not writable" in problems else "warning"
        return Check(
            "state.paths",
            "state",
            status,
            "; ".join(problems),
            details,
            "Run: " + " && ".join(fixes),
        )
    return Check("state.paths", "state", "ok", "CODEX_HOME is private and writable", details)


def _rollout_inventory(folder: Path) -> str:
    count = size = 0
    for path in folder.rglob("rollout-*.jsonl") if folder.is_dir() else ():
        try:
            size += path.stat().st_size
        except OSError:
            continue
        count += 1
    return f"{count} files · {size} B"


def git_environment(cwd: Path, environ: Mapping[str, str]) -> Check:
    """The git that host-side features would use (found, never run: nothing of the
    workspace executes), and whether `cwd` is in a repository (read from files)."""
    from codex_core.git_repo import find_repo
    from codex_core.host_git import git_executable

    git = git_executable(cwd, environ)
    repo = find_repo(cwd)
    details: dict[str, DetailValue] = {
        "selected git": git or "not found",
        "repo detected": str(repo is not None).lower(),
    }
    if repo is not None:
        details["repo root"] = str(repo.work_tree)
    if git is None:
        return Check(
            "git.environment",
            "git",
            "warning",
            "no usable git on PATH: /diff, /undo and --worktree will not work",
            details,
            "Install git, or put its directory (outside the workspace and /tmp) on PATH.",
        )
    return Check("git.environment", "git", "ok", "git found; not run", details)


def network_env(environ: Mapping[str, str]) -> Check:
    """Proxy variables (names only: values can hold credentials) and the CA bundle override."""
    names = [
        name for var in PROXY_VARS for name in (var, var.lower()) if environ.get(name, "").strip()
    ]
    details: dict[str, DetailValue] = {"proxy env vars": ", ".join(names) or "none"}
    for var in ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"):
        value = environ.get(var)
        if not value:
            continue
        if not os.access(value, os.R_OK):
            details[var] = f"{value} (not readable)"
            return Check(
                "network.env",
                "network",
                "warning",
                f"{var} names a file that cannot be read",
                details,
                f"Point {var} at a readable CA bundle or unset it.",
            )
        details[var] = f"readable file {value}"
    summary = "no proxy env vars" if not names else f"proxy env vars set: {', '.join(names)}"
    return Check("network.env", "network", "ok", summary, details)
