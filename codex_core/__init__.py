"""Headless engine of codex: config, protocol, session, model clients, tools."""
