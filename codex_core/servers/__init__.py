"""Headless protocol frontends over `codex_core.session.Session`: app-server and ACP."""
