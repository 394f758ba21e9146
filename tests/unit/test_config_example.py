"""config.example.toml: it loads cleanly and documents exactly the keys the schema knows."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from codex_core.config import ConfigOverrides, load_config
from codex_core.config.schema import WILDCARD, known_key_patterns

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"
# A switched-off setting: "# " then a [table] header or a `key = value` line.
SWITCHED_OFF = re.compile(r'^# (\[\[[^\]]+\]\]|\[[^\]]+\]|[A-Za-z0-9_."/-]+\s*=\s*\S.*)$')


def switched_on(text: str) -> str:
    """The example with every commented-out setting enabled."""
    return "\n".join(
        match.group(1) if (match := SWITCHED_OFF.match(line)) else line
        for line in text.splitlines()
    )


def documented_patterns(
    doc: dict[str, Any], patterns: set[tuple[str, ...]]
) -> set[tuple[str, ...]]:
    found: set[tuple[str, ...]] = set()

    def walk(node: dict[str, Any], prefix: tuple[str, ...]) -> None:
        for key, value in node.items():
            path = (*prefix, key)
            wild = (*prefix, WILDCARD)
            if path in patterns or not isinstance(value, dict):
                found.add(path)
            elif any(p[: len(path)] == path for p in patterns):
                walk(value, path)
            elif any(p[: len(wild)] == wild for p in patterns):
                walk(value, wild)
            else:
                found.add(path)

    walk(doc, ())
    return found


def load_example(home: Path, text: str) -> list[str]:
    (home / "config.toml").write_text(text)
    work = home / "project"
    work.mkdir(exist_ok=True)
    for name in ("codex-instructions.md", "deep-instructions.md"):
        (work / name).write_text("Instructions for the test.\n")
    config = load_config(ConfigOverrides(cwd=work), codex_home=home, environ={})
    return config.warnings


def test_config_example_loads_without_warnings(tmp_path: Path) -> None:
    assert load_example(tmp_path, EXAMPLE.read_text()) == []


def test_config_example_with_every_setting_enabled_loads_without_warnings(tmp_path: Path) -> None:
    assert load_example(tmp_path, switched_on(EXAMPLE.read_text())) == []


def test_config_example_documents_exactly_the_known_keys() -> None:
    patterns = set(known_key_patterns())
    doc = tomllib.loads(switched_on(EXAMPLE.read_text()))
    documented = documented_patterns(doc, patterns)
    assert sorted(documented - patterns) == [], "documented but unknown"
    assert sorted(patterns - documented) == [], "known but not documented"
