"""Loading config.toml: CODEX_HOME, reading and parsing, `-c` overrides, validation errors."""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from codex_core import lite
from codex_core.config.errors import (
    ConfigError,
    describe_problem,
    locate_key,
    render_key,
    render_value,
    toml_syntax_error,
)
from codex_core.config.overrides import apply_override, parse_cli_overrides, split_dotted_key
from codex_core.config.profiles import layer_profile
from codex_core.config.resolve import resolve_config
from codex_core.config.schema import ConfigToml, sweep_unknown_keys
from codex_core.config.types import Config, ConfigOverrides
from codex_core.config.unsupported import drop_unsupported_keys
from codex_core.frontend.home import CodexHomeError

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails
from codex_core.frontend.home import find_codex_home as _find_codex_home

log = logging.getLogger(__name__)


class _Applied(NamedTuple):
    """One `-c` override: its key path, the key as typed, and the parsed value."""

    path: tuple[str, ...]
    key: str
    value: Any


CONFIG_TOML = "config.toml"


def find_codex_home(environ: Mapping[str, str] | None = None) -> Path:
    """The CODEX_HOME directory (see `codex_core.frontend.find_codex_home`).

    Raises:
        ConfigError: CODEX_HOME is set but is not an existing directory.
    """
    try:
        return _find_codex_home(environ)
    except CodexHomeError as err:
        raise ConfigError(str(err)) from None


def read_config_toml(path: Path) -> tuple[str, dict[str, Any]]:
    """The text and parsed table of a config.toml; a missing file reads as empty.

    Raises:
        ConfigError: The file cannot be read, is not UTF-8, or is not valid TOML.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return "", {}
    except OSError as err:
        raise ConfigError(
            f"{path}: cannot read it ({err.strerror}); check its permissions"
        ) from err
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not UTF-8 text; save it as UTF-8") from err
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise toml_syntax_error(str(path), err) from err


def load_config(
    overrides: ConfigOverrides | None = None,
    cli_overrides: Sequence[str] = (),
    *,
    codex_home: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> Config:
    """Resolve the configuration: flag > `-c` > profile > config.toml > default.

    Args:
        overrides: Values from dedicated command-line flags.
        cli_overrides: Raw `-c key=value` strings, applied in order.
        codex_home: CODEX_HOME to use instead of finding it from the environment.
        environ: The environment (CODEX_HOME, OPENAI_BASE_URL, ...); `os.environ` if omitted.

    Returns:
        The resolved Config; unknown keys are listed in `Config.warnings`.

    Raises:
        ConfigError: One line naming the file or flag, the key and the fix.
    """
    env = os.environ if environ is None else environ
    home = codex_home if codex_home is not None else find_codex_home(env)
    pairs = parse_cli_overrides(cli_overrides)
    path = home / CONFIG_TOML
    text, data = read_config_toml(path)
    flags = overrides or ConfigOverrides()
    warnings = drop_unsupported_keys(data)  # config.toml's own keys, legacy profiles included
    applied: list[_Applied] = []
    for key, value in pairs:
        if split_dotted_key(key)[0] in ("profile", "profiles"):
            apply_override(data, key, value)  # legacy profile keys: judged with the file's
    warnings += layer_profile(data, home, path, flags.profile, read_config_toml)
    for key, value in pairs:
        if split_dotted_key(key)[0] not in ("profile", "profiles"):
            apply_override(data, key, value)
        applied.append(_Applied(tuple(split_dotted_key(key)), key, value))

    warnings += drop_unsupported_keys(data)
    cleaned, unknown = sweep_unknown_keys(data)
    warnings += [_unknown_key_warning(key, applied) for key in unknown]
    for warning in warnings:
        log.debug("%s", warning)
    try:
        toml = ConfigToml.model_validate(cleaned, strict=True)
    except lite.ValidationError as err:
        raise _validation_error(_first_problem(err.errors()), str(path), text, applied) from None
    config = resolve_config(
        toml,
        replace(flags, profile=None),  # already layered above
        override_keys={entry.path for entry in applied},
        codex_home=home,
        environ=env,
        warnings=warnings,
    )
    config.profile = flags.profile
    return config


def _override_for(path: Sequence[str | int], applied: list[_Applied]) -> _Applied | None:
    """The last `-c` override whose key contains, or lies inside, `path`."""
    for entry in applied[::-1]:
        key = entry.path
        if tuple(path[: len(key)]) == key or key[: len(path)] == tuple(path):
            return entry
    return None


def _unknown_key_warning(key: tuple[str, ...], applied: list[_Applied]) -> str:
    source = "a -c override" if _override_for(key, applied) else CONFIG_TOML
    return f"unknown config key `{render_key(key)}` in {source} (ignored)"


def _first_problem(errors: list[ErrorDetails]) -> ErrorDetails:
    """The error to report: for a value that may be a name or a table (`approval_policy`), the
    one of the form the value has, with pydantic's union branch dropped from its key path."""
    first = errors[0]
    at = next((i for i, part in enumerate(first["loc"]) if _is_branch(part)), None)
    if at is None:
        return first
    table = isinstance(first["input"], dict)
    for error in errors:
        loc = error["loc"]
        if len(loc) > at and _is_branch(loc[at]) and str(loc[at]).startswith("literal[") != table:
            tidy = dict(error)
            tidy["loc"] = (*loc[:at], *loc[at + 1 :])
            return tidy  # type: ignore[return-value]
    return first


def _is_branch(part: str | int) -> bool:
    """A union branch's tag in a pydantic error path (`literal[...]`, a table model's name)."""
    return isinstance(part, str) and (part.startswith("literal[") or part == "GranularToml")


def _validation_error(
    error: ErrorDetails, source: str, text: str, applied: list[_Applied]
) -> ConfigError:
    loc = list(error["loc"])
    missing = error["type"] == "missing"
    # A missing key is reported against the table that lacks it.
    where = loc[:-1] if missing else loc
    is_not, must = describe_problem(error)
    override = _override_for(where, applied)
    if override is not None:
        key, raw_key, value = override
        name = render_key(loc[-1:]) if tuple(loc) == key else render_key(loc)
        return ConfigError(f"-c {raw_key}={render_value(value)}: {name} {must}")
    line = locate_key(text, [str(part) for part in where])
    at = f"{source}:{line}" if line else source
    if missing:
        return ConfigError(f"{at}: {render_key(loc)} {must}; add it to [{render_key(where)}]")
    return ConfigError(f"{at}: {render_key(loc)} = {render_value(error['input'])} {is_not}")
