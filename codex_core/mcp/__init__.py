"""The MCP client: the user's `[mcp_servers.*]` as model tools, on the official `mcp` SDK.

Importing this package does not import the SDK; the modules that talk to servers do
(`connection`, `manager`, `results`), so `codex --version` and the sandbox helper stay light.
They import the SDK's client modules by their own paths (`mcp.client.session`, …): the SDK's
package `__init__` is only run when a name of it is asked for (see `_sdk_package_on_demand`).
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any


def _sdk_package_on_demand() -> None:
    """Register the `mcp` package without running its `__init__` until a name of it is read.

    The SDK's `__init__` imports its servers along with its client (FastMCP, starlette,
    uvicorn, pydantic-settings, jsonschema: ~200 modules, ~300 ms of CPU), and any
    `import mcp.types` runs it first. A session with an MCP server imports the client before
    its first model request, so that time was on the request's path. The package registered
    here has the real search path, so submodules import as usual; reading any other name
    runs the real `__init__` in it, so nothing that uses `mcp.<Name>` breaks.
    """
    if "mcp" in sys.modules:
        return
    spec = importlib.util.find_spec("mcp")
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return
    package = importlib.util.module_from_spec(spec)
    loader = spec.loader

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if importlib.util.find_spec(f"mcp.{name}") is not None:
            return importlib.import_module(f"mcp.{name}")
        del package.__dict__["__getattr__"]
        loader.exec_module(package)
        return getattr(package, name)

    package.__dict__["__getattr__"] = __getattr__
    sys.modules["mcp"] = package


_sdk_package_on_demand()
