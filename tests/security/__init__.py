"""Regression tests for sandbox escapes: each drives the real session or console script."""
