"""Headless engine of codex: config, protocol, session, model clients, tools."""

__version__ = "0.1.0"
