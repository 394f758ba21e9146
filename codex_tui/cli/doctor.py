"""`codex doctor [--json] [--network-only] [--summary] [--all] [--no-color] [--ascii]`: the
health report of `codex_core.doctor`, for people or (redacted) as JSON; exit 1 when a check
fails, as Codex 0.169."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from codex_core.doctor import Check, DetailValue, Report, timed
from codex_tui.cli.args import CliParser, add_config_flags

if TYPE_CHECKING:
    from codex_core.config import Config

SECTIONS: list[tuple[str, tuple[str, ...]]] = [
    ("Environment", ("installation", "state.paths", "git.environment")),
    ("Configuration", ("config.load", "auth.credentials", "mcp.config", "sandbox.helpers")),
    ("Connectivity", ("network.env", "network.provider_reachability")),
]
LABELS = {
    "installation": "install",
    "state.paths": "state",
    "git.environment": "git",
    "config.load": "config",
    "auth.credentials": "auth",
    "mcp.config": "mcp",
    "sandbox.helpers": "sandbox",
    "network.env": "network",
    "network.provider_reachability": "reachability",
}
GLYPHS = {"ok": "✓", "warning": "⚠", "fail": "✗"}
ASCII = {"ok": "[ok]", "warning": "[warn]", "fail": "[FAIL]"}
COLORS = {"ok": "32", "warning": "33", "fail": "31"}


def build_parser() -> argparse.ArgumentParser:
    """`codex doctor [OPTIONS]`."""
    parser = CliParser(
        prog="codex doctor",
        description="Diagnose the installation, config, auth, CODEX_HOME, sandbox, MCP servers "
        "and the model provider; exits 1 when a check fails.",
    )
    parser.add_argument(
        "-c",
        "--config",
        action="append",
        default=[],
        metavar="key=value",
        help="override a config value; dotted keys, TOML values (repeatable)",
    )
    parser.add_argument("-p", "--profile", help="config profile from [profiles.<name>]")
    add_config_flags(parser, strict=False)
    parser.add_argument("--json", action="store_true", help="print a redacted JSON report")
    parser.add_argument(
        "--network-only",
        action="store_true",
        help="only the config, network environment and provider reachability checks",
    )
    parser.add_argument("--summary", action="store_true", help="one row per check, no details")
    parser.add_argument("--all", action="store_true", help="show long detail lists in full")
    parser.add_argument("--no-color", action="store_true", help="no ANSI colour")
    parser.add_argument("--ascii", action="store_true", help="ASCII status labels and rules")
    return parser


def main(argv: list[str]) -> int:
    """Entry for `codex doctor` (argv after `doctor`)."""
    from codex_tui.cli.config_flags import ConfigFlagError, config_pairs

    ns = build_parser().parse_args(argv)
    try:
        pairs = config_pairs(ns)
    except ConfigFlagError as err:
        print(err, file=sys.stderr)
        return 1
    report = diagnose(pairs, profile=ns.profile, network_only=ns.network_only)
    if ns.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        color = sys.stdout.isatty() and not ns.no_color and "NO_COLOR" not in os.environ
        print(render(report, summary=ns.summary, ascii_only=ns.ascii, color=color))
    return report.exit_code


def diagnose(pairs: list[str], *, profile: str | None, network_only: bool) -> Report:
    """Run the checks (all, or the network ones) in a stable order."""
    from codex_core import __version__
    from codex_core.config import ConfigError, ConfigOverrides, find_codex_home
    from codex_core.doctor import local_checks, probes

    environ = dict(os.environ)
    checks: list[Check] = []
    try:
        home = find_codex_home()
    except ConfigError as err:
        bad = Check("state.paths", "state", "fail", str(err), {}, "Point CODEX_HOME at a folder.")
        return Report(__version__, [bad])
    if not network_only:
        executable = os.path.abspath(sys.argv[0])
        checks.append(timed(lambda: local_checks.installation(executable, __version__, environ)))
        checks.append(timed(lambda: local_checks.state_paths(home)))
        checks.append(timed(lambda: local_checks.git_environment(Path.cwd(), environ)))
    started = time.monotonic()
    loaded, config = local_checks.config_load(ConfigOverrides(profile=profile), pairs, home)
    loaded.duration_ms = int((time.monotonic() - started) * 1000)
    checks.append(loaded)
    if config is not None and not network_only:
        ready = config
        checks.append(timed(lambda: local_checks.auth_credentials(ready, environ)))
        checks.append(timed(lambda: probes.mcp_servers(ready, environ)))
        checks.append(timed(lambda: sandbox_check(ready)))
    checks.append(timed(lambda: local_checks.network_env(environ)))
    if config is not None:
        reachable = config
        checks.append(timed(lambda: probes.provider_reachability(reachable)))
    else:
        checks.append(
            Check(
                "network.provider_reachability",
                "reachability",
                "fail",
                "not probed: the config could not be loaded",
                {},
                "Fix the config error first.",
            )
        )
    return Report(__version__, checks)


def sandbox_check(config: Config) -> Check:
    """What `codex sandbox --check` knows, against the configured sandbox mode."""
    mode = config.sandbox_policy.mode
    details: dict[str, DetailValue] = {
        "sandbox mode": mode,
        "approval policy": config.approval_policy,
    }
    if sys.platform.startswith("linux"):
        from codex_tui.cli.sandbox import linux_layers

        lines, usable = linux_layers()
    elif sys.platform == "darwin":
        from sandbox_helper.seatbelt import SANDBOX_EXEC

        usable = os.path.exists(SANDBOX_EXEC)
        lines = [f"macOS sandbox-exec: {SANDBOX_EXEC if usable else 'not found'}"]
    else:
        lines, usable = [f"no sandbox on {sys.platform}"], False
    for line in lines:
        key, _, value = line.partition(": ")
        details[key] = value or key
    if usable:
        return Check("sandbox.helpers", "sandbox", "ok", "the platform sandbox is usable", details)
    if mode == "danger-full-access":
        return Check(
            "sandbox.helpers",
            "sandbox",
            "warning",
            "no usable sandbox (commands run unsandboxed anyway in this mode)",
            details,
            "Install bubblewrap or allow unprivileged user namespaces.",
        )
    return Check(
        "sandbox.helpers",
        "sandbox",
        "fail",
        "no usable sandbox: sandboxed commands cannot run",
        details,
        "Install bubblewrap or allow unprivileged user namespaces, or run with "
        "--sandbox danger-full-access in an isolated machine.",
    )


def render(report: Report, *, summary: bool, ascii_only: bool, color: bool) -> str:
    """The human report: problems first, then every check by section, then the counts."""
    import platform

    rule = ("-" if ascii_only else "─") * 61

    def mark(check: Check) -> str:
        return _mark(check, ascii_only=ascii_only, color=color)

    by_id = {check.id: check for check in report.checks}
    out = [f"Codex Doctor v{report.version} · {sys.platform}-{platform.machine()}", ""]
    problems = [check for check in report.checks if check.status != "ok"]
    if problems:
        out.append("Notes")
        for check in problems:
            fix = f" - {check.remediation}" if check.remediation else ""
            out.append(f"  {mark(check)} {LABELS.get(check.id, check.id):<12} {check.summary}{fix}")
        out += [rule, ""]
    for title, ids in SECTIONS:
        rows = [by_id[i] for i in ids if i in by_id]
        if not rows:
            continue
        out.append(title)
        for check in rows:
            out.append(f"  {mark(check)} {LABELS.get(check.id, check.id):<12} {check.summary}")
            if not summary:
                out += [f"      {key:<24} {line}" for key, line in _detail_lines(check.details)]
                if check.remediation and check.status != "ok":
                    out.append(f"    {'->' if ascii_only else '→'} {check.remediation}")
        out.append("")
    counts = {status: sum(c.status == status for c in report.checks) for status in GLYPHS}
    verdict = {"ok": "ok", "warning": "ok with warnings", "fail": "failed"}[report.overall]
    out += [
        rule,
        f"{counts['ok']} ok · {counts['warning']} warn · {counts['fail']} fail · {verdict}",
    ]
    return "\n".join(out)


def _mark(check: Check, *, ascii_only: bool, color: bool) -> str:
    text = ASCII[check.status] if ascii_only else GLYPHS[check.status]
    return f"\x1b[{COLORS[check.status]}m{text}\x1b[0m" if color else text


def _detail_lines(details: dict[str, DetailValue]) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = []
    for key, value in details.items():
        values = value if isinstance(value, list) else [value]
        for index, item in enumerate(values or [""]):
            for number, line in enumerate(str(item).splitlines() or [""]):
                lines.append((key if index == 0 and number == 0 else "", line))
    return lines
