"""The MCP client: the user's `[mcp_servers.*]` as model tools, on the official `mcp` SDK.

Importing this package does not import the SDK; the modules that talk to servers do
(`connection`, `manager`, `results`), so `codex --version` and the sandbox helper stay light.
"""
