"""`codex execpolicy check [--rules FILE]... [--] CMD...`: show which rule decides a command."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from codex_core.frontend.home import find_codex_home

USAGE = "usage: codex execpolicy check [--rules FILE]... [--pretty] [--] COMMAND..."
HELP = f"""{USAGE}

Print, as JSON, the decision your rules give COMMAND and the rule that decided it:
  {{"decision": "allow"|"prompt"|"forbidden"|null, "matched_rule": ..., "source": "FILE:LINE"}}

Rules come from $CODEX_HOME/rules/*.rules (default ~/.codex/rules), or only from the files
given with --rules (repeatable). Rules that cannot be read are reported on stderr.
"""


def _usage_error(message: str) -> int:
    print(f"codex execpolicy: {message}\n{USAGE}", file=sys.stderr)
    return 2


def main(argv: list[str]) -> int:
    """Run `codex execpolicy ARGV`; returns the exit code (0 checked, 2 bad usage)."""
    if not argv or argv[0] in ("-h", "--help"):
        print(HELP, end="")
        return 0 if argv else 2
    if argv[0] != "check":
        return _usage_error(f"unknown subcommand {argv[0]!r}; the only one is `check`")
    rule_files: list[Path] = []
    pretty = False
    args = argv[1:]
    while args and args[0].startswith("-"):
        option = args.pop(0)
        if option == "--":
            break
        if option in ("-h", "--help"):
            print(HELP, end="")
            return 0
        if option == "--pretty":
            pretty = True
        elif option == "--rules" and args:
            rule_files.append(Path(args.pop(0)).expanduser())
        elif option.startswith("--rules="):
            rule_files.append(Path(option.split("=", 1)[1]).expanduser())
        elif option == "--rules":
            return _usage_error("--rules needs a file path")
        else:
            return _usage_error(f"unknown option {option!r}; put `--` before the command")
    if not args:
        return _usage_error("give the command to check, e.g. `codex execpolicy check git push`")
    missing = [path for path in rule_files if not path.is_file()]
    if missing:
        return _usage_error(
            f"rules file {missing[0]} does not exist; pass an existing file to --rules"
        )

    from codex_core.execpolicy import load_rule_files, load_rules

    rule_set = load_rule_files(rule_files) if rule_files else load_rules(find_codex_home())
    for warning in rule_set.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    match = rule_set.match(args)
    result: dict[str, str | None] = {
        "decision": match.decision if match else None,
        "matched_rule": match.rule_text if match else None,
        "source": match.source if match else None,
    }
    if match is not None and match.justification is not None:
        result["justification"] = match.justification
    print(json.dumps(result, indent=2 if pretty else None, ensure_ascii=False))
    return 0
