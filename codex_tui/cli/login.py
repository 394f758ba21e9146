"""`codex login --with-api-key`, `codex login status` and `codex logout`, as in Codex 0.169.

Like 0.169, the key is read from stdin only (`printenv OPENAI_API_KEY | codex login
--with-api-key`), stored as `{"auth_mode": "apikey", "OPENAI_API_KEY": …}` in a 0600
auth.json, and every message goes to stderr. `login status` exits 1 when not logged in.
"""

from __future__ import annotations

import sys
from pathlib import Path

from codex_tui.cli.args import CliParser

API_KEY_FLAG_GONE = (
    "The --api-key flag is no longer supported. Pipe the key instead, e.g. "
    "`printenv OPENAI_API_KEY | codex login --with-api-key`."
)
CHECKED_LATER = "Authentication is checked when you send a request."


def _home() -> Path | None:
    from codex_core.frontend import CodexHomeError, find_codex_home

    try:
        return find_codex_home()
    except CodexHomeError as err:
        print(f"codex: {err}", file=sys.stderr)
        return None


def main(argv: list[str]) -> int:
    """Entry for `codex login [--with-api-key | status]`."""
    parser = CliParser(prog="codex login", description="Save an OpenAI API key for codex.")
    parser.add_argument(
        "--with-api-key", action="store_true", help="read the API key from stdin and save it"
    )
    parser.add_argument("--api-key", metavar="KEY", help="no longer supported: pipe the key")
    parser.add_argument("action", nargs="?", choices=["status"], help="show the stored login")
    ns = parser.parse_args(argv)
    if ns.api_key is not None:
        print(API_KEY_FLAG_GONE, file=sys.stderr)
        return 1
    home = _home()
    if home is None:
        return 1
    if ns.action == "status":
        return _status(home)
    piped = sys.stdin is not None and not sys.stdin.isatty()
    if not ns.with_api_key and not piped:  # a piped key without the flag is taken too
        print(
            "codex login: sign-in with a ChatGPT account is not supported by this codex; "
            "pipe an API key instead: `printenv OPENAI_API_KEY | codex login --with-api-key`",
            file=sys.stderr,
        )
        return 1
    from codex_core.auth import save_api_key

    print("Reading API key from stdin...", file=sys.stderr)
    key = sys.stdin.read().strip() if piped else ""
    if not key:
        print("No API key provided via stdin.", file=sys.stderr)
        return 1
    try:
        save_api_key(home, key)
    except OSError as err:
        print(f"codex login: cannot write auth.json: {err.strerror}", file=sys.stderr)
        return 1
    print(f"API key saved. {CHECKED_LATER}", file=sys.stderr)
    return 0


def _status(home: Path) -> int:
    from codex_core.auth import load_api_key, masked_key
    from codex_core.model_provider import built_in_model_providers

    key = load_api_key(home, built_in_model_providers()["openai"])
    if key is None:
        print("Not logged in", file=sys.stderr)
        return 1
    print(f"API key configured - {masked_key(key)}", file=sys.stderr)
    print(CHECKED_LATER, file=sys.stderr)
    return 0


def logout_main(argv: list[str]) -> int:
    """Entry for `codex logout`: remove auth.json (exit 0 also when there was none)."""
    CliParser(prog="codex logout", description="Remove the stored API key.").parse_args(argv)
    home = _home()
    if home is None:
        return 1
    from codex_core.auth import delete_auth

    try:
        removed = delete_auth(home)
    except OSError as err:
        print(f"codex logout: cannot remove auth.json: {err.strerror}", file=sys.stderr)
        return 1
    print("Successfully logged out" if removed else "Not logged in", file=sys.stderr)
    return 0
