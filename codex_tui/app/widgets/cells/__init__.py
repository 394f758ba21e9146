"""Transcript cells: one widget per kind of history entry."""
