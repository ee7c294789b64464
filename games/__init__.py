"""Pure-Python game rules. Nothing in this package imports Django (see tests/conformance)."""
