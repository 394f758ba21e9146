"""`approvalPolicy` in a client's request: a policy name, or Codex 0.169's `{"granular": {...}}`.

As 0.169's app-server: the object form is for clients that asked for `experimentalApi` (others
get `askForApproval.granular requires experimentalApi capability`), has one key, and its
settings follow config.toml's (`sandbox_approval`, `rules` and `mcp_elicitations` required,
`skill_approval` and `request_permissions` false by default, other keys ignored). The thread
then reports the object with every setting filled in (`approval_to_wire`).
"""

from __future__ import annotations

import json
from typing import Any, cast

from codex_core.policies import AskForApproval, GranularApproval
from codex_core.servers.app_server.wire import RpcError, invalid_request

NAMES = ("untrusted", "on-request", "never")
"""The names a client may send (0.169's schema no longer offers `on-failure`: -32600)."""


def parse_approval(
    value: Any, experimental: bool
) -> tuple[AskForApproval | None, GranularApproval | None]:
    """The policy name and, for `granular`, its settings; None, None when `value` is None.

    Raises:
        RpcError: the value is neither a name nor a granular object, or the client may not
            use the object form.
    """
    if value is None:
        return None, None
    if isinstance(value, str):
        if value not in NAMES:
            raise invalid_request(f"unknown variant `{value}` at `approvalPolicy`")
        return cast(AskForApproval, value), None
    if not isinstance(value, dict):
        raise invalid_request(f"invalid type: {type(value).__name__} at `approvalPolicy`")
    if len(value) != 1:
        raise invalid_request("invalid value: map, expected map with a single key")
    [(key, settings)] = value.items()
    if key != "granular":
        listed = ", ".join(f"`{name}`" for name in (*NAMES, "granular"))
        raise invalid_request(f"unknown variant `{key}`, expected one of {listed}")
    if not experimental:
        raise RpcError("askForApproval.granular requires experimentalApi capability")
    from codex_core import lite

    try:
        return "granular", GranularApproval.model_validate(settings)
    except lite.ValidationError as err:
        first = err.errors()[0]
        name = first["loc"][-1] if first["loc"] else "granular"
        if first["type"] == "missing":
            raise invalid_request(f"missing field `{name}`") from None
        if first["type"] == "bool_type":
            given = json.dumps(first["input"])
            raise invalid_request(
                f"invalid type: {given}, expected a boolean at `{name}`"
            ) from None
        raise invalid_request(f"invalid value at `{name}`: {first['msg']}") from None
