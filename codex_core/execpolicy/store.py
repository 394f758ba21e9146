"""Load `$CODEX_HOME/rules/*.rules` and append "don't ask again" allow rules."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from codex_core.execpolicy.model import PrefixRule, RuleSet

log = logging.getLogger(__name__)

RULES_DIR = "rules"
DEFAULT_RULES_FILE = "default.rules"


def load_rule_files(paths: Iterable[Path]) -> RuleSet:
    """Read the given rule files in order; unreadable files and bad rules become warnings."""
    rule_set = RuleSet()
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            rule_set.warnings.append(f"{path}: no such rules file; check the path")
            continue
        except UnicodeDecodeError:
            rule_set.warnings.append(f"{path}: not UTF-8 text; save it as UTF-8")
            continue
        except OSError as err:
            rule_set.warnings.append(
                f"{path}: cannot read it ({err.strerror}); check its permissions"
            )
            continue
        from codex_core.execpolicy.parser import parse_rules  # only with a file to read

        parsed = parse_rules(text, str(path))
        rule_set.rules.extend(parsed.rules)
        rule_set.warnings.extend(parsed.warnings)
    for warning in rule_set.warnings:
        log.warning("rules: %s", warning)
    return rule_set


def load_rules(codex_home: Path) -> RuleSet:
    """Every `*.rules` file under `codex_home/rules`, in file-name order."""
    rules_dir = codex_home / RULES_DIR
    try:
        files = sorted(p for p in rules_dir.glob("*.rules") if p.is_file())
    except OSError:
        files = []
    return load_rule_files(files)


def append_allow_rule(codex_home: Path, prefix: list[str]) -> Path:
    """Append `prefix_rule(pattern=PREFIX, decision="allow")` to `rules/default.rules`.

    Creates the directory and file when missing. Returns the file's path.

    Raises:
        ValueError: `prefix` is empty.
        OSError: the file cannot be written.
    """
    if not prefix:
        raise ValueError("an allow rule needs at least one word")
    rule = PrefixRule(pattern=tuple((word,) for word in prefix), decision="allow")
    path = codex_home / RULES_DIR / DEFAULT_RULES_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+", encoding="utf-8") as handle:
        handle.seek(0, 2)
        needs_newline = False
        if handle.tell() > 0:
            handle.seek(handle.tell() - 1)
            needs_newline = handle.read(1) != "\n"
        handle.write(("\n" if needs_newline else "") + rule.text + "\n")
    return path
