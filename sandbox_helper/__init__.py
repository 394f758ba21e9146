"""The Linux/macOS sandbox helper, started through arg0 dispatch; stdlib-only and fast."""
