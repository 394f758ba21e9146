"""`codex app-server`: the Codex JSON-RPC v2 wire over stdio, a thin adapter over Session.

Modules: `wire` (envelope, errors), `model_*` (one pydantic model per wire message),
`translate` (session events → notifications), `threads` (loaded threads), `handlers`
(one function per thread/turn method), `method_tables` (method → params and handler),
`server` (connection state and dispatch), `transport` (stdio),
`schema` (`generate-json-schema`), `cli` (the subcommand).
"""
