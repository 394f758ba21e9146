"""Headless engine of codex: config, protocol, session, model clients, tools."""

import sys
import types

__version__ = "0.1.0"


def _without_pydantic_plugins() -> None:
    """Build pydantic validators without looking for third-party pydantic plugins.

    Pydantic looks its plugins up among the installed distributions' entry points the first
    time it builds a validator: importing `importlib.metadata` (email, zipfile, csv, …) and
    reading every installed package's metadata costs ~20 ms of every start, before the first
    model request, and codex uses no plugin (one would instrument every event of a session).
    A stand-in for pydantic's private loader answers "no plugins"; if pydantic renames it,
    the stand-in is simply never asked.
    """
    name = "pydantic.plugin._loader"
    if name in sys.modules:
        return
    loader = types.ModuleType(name, "codex: no pydantic plugins (see codex_core/__init__.py)")
    loader.get_plugins = lambda: ()  # type: ignore[attr-defined]
    sys.modules[name] = loader


_without_pydantic_plugins()
