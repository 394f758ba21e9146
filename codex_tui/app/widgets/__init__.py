"""Widgets of the interactive app, one per module."""
