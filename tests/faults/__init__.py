"""Fault injection: tools, interrupts and aborts against a real Session and scripted server."""
