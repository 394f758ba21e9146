"""`codex` on the command line: the parser and dispatch (`main`), one module per subcommand.

Kept empty on purpose: `codex sandbox -- CMD` imports `codex_tui.cli.sandbox` straight from
the entry point, and every module imported here would be loaded on that benchmarked path.
"""
