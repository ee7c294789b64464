"""Hostile bot: exits before reading anything."""
import sys

print("EXIT leaving at once", file=sys.stderr, flush=True)
sys.exit(3)
