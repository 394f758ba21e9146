"""Screens of the interactive app, each with its stylesheet beside it."""
