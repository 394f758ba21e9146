"""Where `codex app-server --listen URL` serves: stdio, a unix control socket, a websocket, or off.

The accepted forms and the refusals are Codex 0.169's (observed): `stdio://` (the default),
`unix://` (the control socket under CODEX_HOME), `unix://PATH`, `ws://IP:PORT` (an IP
literal; port 0 picks a free port) and `off`.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

CONTROL_SOCKET = Path("app-server-control") / "app-server-control.sock"
"""The control socket `unix://` names, relative to CODEX_HOME (as 0.169's daemon)."""


class ListenError(ValueError):
    """A `--listen` value that is not one of the accepted forms."""


@dataclass(frozen=True)
class Listen:
    """A parsed `--listen` value."""

    kind: Literal["stdio", "unix", "ws", "off"]
    path: Path | None = None
    """The socket path given with `unix://PATH` (None: the control socket)."""
    host: str = ""
    port: int = 0

    @property
    def loopback(self) -> bool:
        """Only this machine can connect (a unix socket, or a loopback websocket address)."""
        return self.kind != "ws" or ipaddress.ip_address(self.host).is_loopback


def parse_listen(value: str) -> Listen:
    """A `--listen` URL; raises ListenError with 0.169's wording."""
    if value == "stdio://":
        return Listen("stdio")
    if value == "off":
        return Listen("off")
    if value.startswith("unix://"):
        rest = value.removeprefix("unix://")
        return Listen("unix", Path(rest).absolute() if rest else None)
    if value.startswith("ws://"):
        host, sep, port = value.removeprefix("ws://").rstrip("/").rpartition(":")
        host = host.removeprefix("[").removesuffix("]")
        try:
            ipaddress.ip_address(host)
            number = int(port)
        except ValueError:
            number = -1
        if not sep or not 0 <= number <= 65535:
            raise ListenError(f"invalid websocket --listen URL `{value}`; expected `ws://IP:PORT`")
        return Listen("ws", host=host, port=number)
    raise ListenError(
        f"unsupported --listen URL `{value}`; expected `stdio://`, `unix://`, `unix://PATH`, "
        "`ws://IP:PORT`, or `off`"
    )


def control_socket(codex_home: Path) -> Path:
    """The default unix socket: `$CODEX_HOME/app-server-control/app-server-control.sock`."""
    return codex_home / CONTROL_SOCKET
