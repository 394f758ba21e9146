"""The app-server a local TUI runs as its child (`codex_tui.app.app_server_process`).

The same server as `codex app-server --listen stdio://`, with the TUI's command line: its
`-c` overrides and its dedicated flags (`-m`, `-a`, `-s`, `-C`, `--profile`, `--oss`,
`--search`, …) as the base of every thread's config, as they are of the TUI's own. The
setup comes as one JSON argument written by the TUI; nothing here reads the workspace
before the client asks.

The TUI imports this module to spawn the child before anything heavy loads, so only `main`
imports asyncio and logging (~30 ms: the child would start that much later).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codex_core.config.flags import ConfigOverrides


def flags_from_json(values: dict[str, Any]) -> ConfigOverrides:
    """The TUI's `ConfigOverrides` from `setup["flags"]` (unknown keys are ignored)."""
    known = ConfigOverrides.__dataclass_fields__
    fields = {key: value for key, value in values.items() if key in known}
    if fields.get("cwd") is not None:
        fields["cwd"] = Path(fields["cwd"])
    return ConfigOverrides(**fields)


def flags_to_json(flags: ConfigOverrides) -> dict[str, Any]:
    """`flags` as `flags_from_json` takes them (None and False left out)."""
    out: dict[str, Any] = {}
    for key in ConfigOverrides.__dataclass_fields__:
        value = getattr(flags, key)
        if value is not None and value is not False:
            out[key] = str(value) if isinstance(value, Path) else value
    return out


def main(setup_json: str) -> int:
    """Serve the TUI on stdio until end of input; returns the exit code."""
    import asyncio
    import gc
    import json
    import logging
    import sys

    setup = json.loads(setup_json)
    logging.basicConfig(
        level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    # What loads now lives as long as the process: collecting while it loads only walks it
    # again and again; frozen afterwards, later collections leave it alone.
    gc.disable()
    from codex_core.servers.app_server.transport import serve_stdio

    gc.freeze()
    gc.enable()
    flags = flags_from_json(setup.get("flags") or {})
    try:
        return asyncio.run(serve_stdio(list(setup.get("config") or []), flags))
    except KeyboardInterrupt:
        return 130
